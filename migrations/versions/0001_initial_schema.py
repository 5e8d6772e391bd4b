"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-21 23:34:27.926466
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('variant', sa.String(length=60), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('settings_source', sa.Text(), nullable=False),
    sa.Column('settings_digest', sa.String(length=64), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=True),
    sa.Column('phase_seq', sa.Integer(), nullable=False),
    sa.Column('position', sa.JSON(), nullable=True),
    sa.Column('phase_started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('orders_complete_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('notices', sa.JSON(), nullable=False),
    sa.Column('paused_reason', sa.Text(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('name', name=op.f('uq_games_name'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_due_at'), ['due_at'], unique=False)

    op.create_table('inbound_mail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sa.String(length=998), nullable=True),
    sa.Column('source_key', sa.String(length=300), nullable=True),
    sa.Column('sender', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('error', sa.Text(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_mail')),
    sa.UniqueConstraint('message_id', name=op.f('uq_inbound_mail_message_id')),
    sa.UniqueConstraint('source_key', name=op.f('uq_inbound_mail_source_key'))
    )
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_mail_status'), ['status'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('preferences', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('email', name=op.f('uq_players_email'))
    )
    op.create_table('absences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('starts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_absences_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_absences'))
    )
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_absences_player_id'), ['player_id'], unique=False)

    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('actor', sa.String(length=254), nullable=False),
    sa.Column('action', sa.String(length=60), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_audit_log_game_id_games'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_log_game_id'), ['game_id'], unique=False)

    op.create_table('order_sets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase_seq', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=False),
    sa.Column('power', sa.String(length=60), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('submitted_text', sa.Text(), nullable=False),
    sa.Column('lines', sa.JSON(), nullable=False),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('by', sa.String(length=254), nullable=False),
    sa.Column('submitted_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_order_sets_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mail.id'], name=op.f('fk_order_sets_inbound_id_inbound_mail')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_order_sets'))
    )
    with op.batch_alter_table('order_sets', schema=None) as batch_op:
        batch_op.create_index('ix_order_sets_current', ['game_id', 'phase_seq', 'power'], unique=False)

    op.create_table('phases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=False),
    sa.Column('position_before', sa.JSON(), nullable=False),
    sa.Column('orders', sa.JSON(), nullable=False),
    sa.Column('results', sa.JSON(), nullable=False),
    sa.Column('position_after', sa.JSON(), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('rolled_back', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_phases_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_phases'))
    )
    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.create_index('ix_phases_game_seq', ['game_id', 'seq'], unique=False)

    op.create_table('press',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=True),
    sa.Column('sender_power', sa.String(length=60), nullable=True),
    sa.Column('recipients', sa.JSON(), nullable=False),
    sa.Column('grey', sa.Boolean(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_press_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mail.id'], name=op.f('fk_press_inbound_id_inbound_mail')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_press'))
    )
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_press_game_id'), ['game_id'], unique=False)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=60), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('preference', sa.String(length=60), nullable=True),
    sa.Column('secret_hash', sa.String(length=200), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('missed', sa.Integer(), nullable=False),
    sa.Column('missed_in_row', sa.Integer(), nullable=False),
    sa.Column('wait_seq', sa.Integer(), nullable=True),
    sa.Column('draw_vote', sa.Boolean(), nullable=False),
    sa.Column('concede_to', sa.String(length=60), nullable=True),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seats_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seats_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seats'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_game_id'), ['game_id'], unique=False)

    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('to_address', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('message_id', sa.String(length=300), nullable=False),
    sa.Column('in_reply_to', sa.String(length=998), nullable=True),
    sa.Column('attach_phase_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['attach_phase_id'], ['phases.id'], name=op.f('fk_outbox_attach_phase_id_phases'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_outbox_game_id_games'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbox_message_id'))
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_due', ['status', 'next_attempt_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_game_id'), ['game_id'], unique=False)




def downgrade() -> None:
    
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_game_id'))
        batch_op.drop_index('ix_outbox_due')

    op.drop_table('outbox')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_game_id'))

    op.drop_table('seats')
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_press_game_id'))

    op.drop_table('press')
    with op.batch_alter_table('phases', schema=None) as batch_op:
        batch_op.drop_index('ix_phases_game_seq')

    op.drop_table('phases')
    with op.batch_alter_table('order_sets', schema=None) as batch_op:
        batch_op.drop_index('ix_order_sets_current')

    op.drop_table('order_sets')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_game_id'))

    op.drop_table('audit_log')
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_absences_player_id'))

    op.drop_table('absences')
    op.drop_table('players')
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_mail_status'))

    op.drop_table('inbound_mail')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_due_at'))

    op.drop_table('games')

