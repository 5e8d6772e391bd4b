"""mailbox state and GM secrets

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 23:41:24.719587
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('mailbox_state',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('mailbox', sa.String(length=300), nullable=False),
    sa.Column('uidvalidity', sa.BigInteger(), nullable=False),
    sa.Column('last_uid', sa.BigInteger(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mailbox_state')),
    sa.UniqueConstraint('mailbox', name=op.f('uq_mailbox_state_mailbox'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('gm_secret_hash', sa.String(length=200), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('gm_secret_hash')

    op.drop_table('mailbox_state')

