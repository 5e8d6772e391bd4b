"""observers by mail

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-08 09:00:00.000000

``observers``: the addresses that asked to observe a game by mail (OBSERVE), each with the
hash of its observer secret; the settings file's observers stay in the file.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('observers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=254), nullable=False),
    sa.Column('secret_hash', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_observers_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_observers')),
    sa.UniqueConstraint('game_id', 'address', name='uq_observers_game_address')
    )


def downgrade() -> None:
    op.drop_table('observers')
