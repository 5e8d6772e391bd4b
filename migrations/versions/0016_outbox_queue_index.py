"""the outbox's queue read in the order mail is sent, without passing the mail sent before; a
phase's mails found by the phase whose picture they carry

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06 15:00:00.000000

``ix_outbox_queue`` on (status, id) takes the place of ``ix_outbox_due`` on (status,
next_attempt_at). A sender claims the pending mails with the lowest ids that are due: by the
old index SQLite read every pending mail due and sorted them (116 ms a claim with 40,000 mails
waiting), and PostgreSQL walked the primary key from the first mail ever queued, passing every
mail sent since (274 ms a claim after 160,000 mails). By the new one both read the pending
mails in the order they are claimed and stop at the tenth one due.

``ix_outbox_attach_phase_id``: a sender claims with those mails the others that carry the same
phase's picture, so that one process draws it, not each of two that split a game's mails.
"""

from __future__ import annotations

from alembic import op


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_due')
        batch_op.create_index('ix_outbox_queue', ['status', 'id'], unique=False)
        batch_op.create_index('ix_outbox_attach_phase_id', ['attach_phase_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_attach_phase_id')
        batch_op.drop_index('ix_outbox_queue')
        batch_op.create_index('ix_outbox_due', ['status', 'next_attempt_at'], unique=False)
