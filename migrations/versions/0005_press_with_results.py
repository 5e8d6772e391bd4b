"""press published with the results

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 00:08:45.424011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.add_column(sa.Column('with_results', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('published_seq', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_column('published_seq')
        batch_op.drop_column('with_results')


