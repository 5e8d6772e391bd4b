"""what was cut from a mail too large to keep whole

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 04:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cut', sa.Text(), server_default='', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_column('cut')
