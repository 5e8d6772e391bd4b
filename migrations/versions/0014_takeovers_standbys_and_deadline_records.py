"""powers open for takeover, standby lists, and the record of deadlines kept

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06 05:15:05.666983

``openings``: a power whose player left it (RESIGN, EJECT, or the missed: policy), offered to
the standbys one at a time, then to everyone; ``takeover_requests``: asks to take one over,
where the GM approves them; ``standbys``: addresses ready to take over a power, in one game or
any. ``deadline_records``: for each processed phase that wanted a power's orders, whether the
seat's player kept the deadline, was late, or missed it (records begin with this revision).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('standbys',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_standbys_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_standbys_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_standbys'))
    )
    with op.batch_alter_table('standbys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_standbys_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_standbys_player_id'), ['player_id'], unique=False)

    op.create_table('deadline_records',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('power', sa.String(length=60), nullable=False),
    sa.Column('outcome', sa.String(length=10), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_deadline_records_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['phase_id'], ['phases.id'], name=op.f('fk_deadline_records_phase_id_phases'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_deadline_records_player_id_players'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_deadline_records_seat_id_seats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deadline_records'))
    )
    with op.batch_alter_table('deadline_records', schema=None) as batch_op:
        batch_op.create_index('ix_deadline_records_game_seat', ['game_id', 'seat_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_deadline_records_phase_id'), ['phase_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_deadline_records_player_id'), ['player_id'], unique=False)

    op.create_table('openings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power_key', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=20), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('offered_to', sa.Integer(), nullable=True),
    sa.Column('offer_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('asked', sa.JSON(), nullable=False),
    sa.Column('public_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('closed_why', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_openings_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['offered_to'], ['players.id'], name=op.f('fk_openings_offered_to_players'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_openings_seat_id_seats'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_openings'))
    )
    with op.batch_alter_table('openings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_openings_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_openings_offer_until'), ['offer_until'], unique=False)

    op.create_table('takeover_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('opening_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('outcome', sa.String(length=20), nullable=False),
    sa.Column('decided_by', sa.String(length=254), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_takeover_requests_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['opening_id'], ['openings.id'], name=op.f('fk_takeover_requests_opening_id_openings'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_takeover_requests_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_takeover_requests'))
    )
    with op.batch_alter_table('takeover_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_takeover_requests_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_takeover_requests_opening_id'), ['opening_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('takeover_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_takeover_requests_opening_id'))
        batch_op.drop_index(batch_op.f('ix_takeover_requests_game_id'))

    op.drop_table('takeover_requests')
    with op.batch_alter_table('openings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_openings_offer_until'))
        batch_op.drop_index(batch_op.f('ix_openings_game_id'))

    op.drop_table('openings')
    with op.batch_alter_table('deadline_records', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deadline_records_player_id'))
        batch_op.drop_index(batch_op.f('ix_deadline_records_phase_id'))
        batch_op.drop_index('ix_deadline_records_game_seat')

    op.drop_table('deadline_records')
    with op.batch_alter_table('standbys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_standbys_player_id'))
        batch_op.drop_index(batch_op.f('ix_standbys_game_id'))

    op.drop_table('standbys')
