"""press belongs to the power's seat, not its name; address changes wait for a confirmation

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00.000000

``seats.first_seat_id``: the seat a replacement's seat carries on (None: the first of its
power), so that every seat holding one power in turn has one key (``Seat.power_key``).
``press.sender_seat`` and ``recipient_seats``: whose press it is, by that key: a power renamed
keeps its press, and a newcomer who takes an old name never sees it. Existing seats and press
are given their keys from the names they have now (the seats of one power in a game share its
name). ``address_changes``: SET ADDRESS takes effect only once the new address confirms it.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('first_seat_id', sa.Integer(), nullable=True))
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sender_seat', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('recipient_seats', sa.JSON(), nullable=True))
    op.create_table('address_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('new_address', sa.String(length=254), nullable=False),
    sa.Column('code_hash', sa.String(length=200), nullable=False),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('wrong_codes', sa.Integer(), nullable=False),
    sa.Column('done_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_address_changes_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_address_changes'))
    )
    with op.batch_alter_table('address_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_address_changes_new_address'), ['new_address'], unique=False)
        batch_op.create_index(batch_op.f('ix_address_changes_player_id'), ['player_id'], unique=False)
    _give_keys(op.get_bind())


def _give_keys(connection: sa.Connection) -> None:
    seats = sa.table('seats', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                     sa.column('power', sa.String), sa.column('first_seat_id', sa.Integer))
    press = sa.table('press', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                     sa.column('sender_power', sa.String), sa.column('recipients', sa.JSON),
                     sa.column('sender_seat', sa.Integer), sa.column('recipient_seats', sa.JSON))
    first: dict[tuple[int, str], int] = {}  # (game, power) -> its first seat
    for seat_id, game_id, power in connection.execute(
            sa.select(seats.c.id, seats.c.game_id, seats.c.power).where(seats.c.power.is_not(None))
            .order_by(seats.c.id)).all():
        key = first.setdefault((game_id, power), seat_id)
        if key != seat_id:
            connection.execute(seats.update().where(seats.c.id == seat_id).values(first_seat_id=key))
    for press_id, game_id, sender, recipients in connection.execute(
            sa.select(press.c.id, press.c.game_id, press.c.sender_power, press.c.recipients)).all():
        names = _names(recipients)
        keys = [first.get((game_id, name)) for name in names]
        connection.execute(press.update().where(press.c.id == press_id).values(
            sender_seat=first.get((game_id, sender)) if sender is not None else None,
            recipient_seats=None if None in keys else keys))  # None: read by the names, as before


def _names(value: Any) -> list[str]:
    if isinstance(value, str):  # a JSON column read as text on some backends
        value = json.loads(value)
    return [str(name) for name in value or []]


def downgrade() -> None:
    with op.batch_alter_table('address_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_address_changes_player_id'))
        batch_op.drop_index(batch_op.f('ix_address_changes_new_address'))
    op.drop_table('address_changes')
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_column('recipient_seats')
        batch_op.drop_column('sender_seat')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('first_seat_id')
