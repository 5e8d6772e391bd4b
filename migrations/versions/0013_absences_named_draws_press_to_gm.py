"""absences that hold a game's deadlines, draws among named powers, press to the game master

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 09:00:00.000000

``absences.game_id``: the game an absence holds the deadlines of (absences stored before have
none, and hold nothing); ``absences.cancelled_at``: cancelled by the player or the GM.
``games.deadline_unheld``: the deadline before absences held it. ``seats.draw_with``: the powers
a draw vote names (none: every survivor). ``press.to_gm``: press to the game master alone;
``press.sender_observer``: the observer who sent it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('cancelled_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_absences_game_id'), ['game_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_absences_game_id_games'), 'games', ['game_id'], ['id'],
                                    ondelete='CASCADE')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deadline_unheld', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('draw_with', sa.JSON(), nullable=True))
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.add_column(sa.Column('to_gm', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('sender_observer', sa.String(length=254), server_default='', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_column('sender_observer')
        batch_op.drop_column('to_gm')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('draw_with')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('deadline_unheld')
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_absences_game_id_games'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_absences_game_id'))
        batch_op.drop_column('cancelled_at')
        batch_op.drop_column('game_id')
