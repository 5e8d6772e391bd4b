"""a secret dice seed per game

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 05:00:00.000000

Every game existing before this revision gets a fresh random seed of its own: none of them
can have rolled a die yet (no variant rolled before seeds existed), so no past result
depends on it.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

games = sa.table('games', sa.column('id', sa.Integer), sa.column('dice_seed', sa.String))


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:  # an ALTER on SQLite too: no copy
        batch_op.add_column(sa.Column('dice_seed', sa.String(length=64), server_default='', nullable=False))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        connection.execute(games.update().where(games.c.id == game_id).values(dice_seed=secrets.token_hex(32)))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:  # no cascade: see migrations/env.py
        batch_op.drop_column('dice_seed')
