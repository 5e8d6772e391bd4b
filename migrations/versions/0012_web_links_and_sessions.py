"""the web window: one-time sign-in links, sessions, rate-limited requests, the signing key

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 09:00:00.000000

``web_links``: a sign-in link mailed to a seat's (the GM's, an observer's) address, kept by its
hash, used once. ``web_sessions``: a browser signed in to one game. ``web_requests``: what the
rate limits count. ``web_keys``: the key that signs cookies and forms, shared by every process.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def _access_table(name: str, *extra: sa.Column) -> None:
    op.create_table(name,
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=True),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('address', sa.String(length=254), nullable=False),
    sa.Column('grant', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    *extra,
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f(f'fk_{name}_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f(f'fk_{name}_seat_id_seats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f(f'pk_{name}')),
    sa.UniqueConstraint('token_hash', name=op.f(f'uq_{name}_token_hash'))
    )
    with op.batch_alter_table(name, schema=None) as batch_op:
        batch_op.create_index(batch_op.f(f'ix_{name}_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f(f'ix_{name}_seat_id'), ['seat_id'], unique=False)


def upgrade() -> None:
    _access_table('web_links',
                  sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
                  sa.Column('used_at', sa.DateTime(timezone=True), nullable=True))
    _access_table('web_sessions',
                  sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
                  sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
                  sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
                  sa.Column('ended_why', sa.String(length=60), nullable=False))
    op.create_table('web_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('key', sa.String(length=300), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_web_requests'))
    )
    with op.batch_alter_table('web_requests', schema=None) as batch_op:
        batch_op.create_index('ix_web_requests_kind_key_at', ['kind', 'key', 'at'], unique=False)
    op.create_table('web_keys',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.String(length=128), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_web_keys'))
    )


def downgrade() -> None:
    op.drop_table('web_keys')
    with op.batch_alter_table('web_requests', schema=None) as batch_op:
        batch_op.drop_index('ix_web_requests_kind_key_at')
    op.drop_table('web_requests')
    for name in ('web_sessions', 'web_links'):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f'ix_{name}_seat_id'))
            batch_op.drop_index(batch_op.f(f'ix_{name}_game_id'))
        op.drop_table(name)
