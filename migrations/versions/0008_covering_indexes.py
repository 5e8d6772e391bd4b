"""indexes that answer the intake's per-mail questions without a scan

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 16:30:00.000000

``ix_order_sets_current`` gains ``version``: a power's latest order set is the last entry of
the index for (game, phase, power), found without reading and sorting every earlier version.
``ix_outbox_recipient`` gains ``kind``: the reply rate limit counts one sender's replies of the
last hour from the index alone, without reading each outbox row for its kind.
"""

from __future__ import annotations

from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('order_sets', schema=None) as batch_op:
        batch_op.drop_index('ix_order_sets_current')
        batch_op.create_index('ix_order_sets_current', ['game_id', 'phase_seq', 'power', 'version'], unique=False)

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_recipient')
        batch_op.create_index('ix_outbox_recipient', ['to_address', 'created_at', 'kind'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_recipient')
        batch_op.create_index('ix_outbox_recipient', ['to_address', 'created_at'], unique=False)

    with op.batch_alter_table('order_sets', schema=None) as batch_op:
        batch_op.drop_index('ix_order_sets_current')
        batch_op.create_index('ix_order_sets_current', ['game_id', 'phase_seq', 'power'], unique=False)
