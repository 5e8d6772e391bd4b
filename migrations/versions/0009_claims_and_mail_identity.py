"""outbox claims, the outbound server's health, and a mail known by its Message-ID and content

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 03:00:00.000000

``outbox.lease_until`` and ``lease_owner``: a sending process claims the mails it sends, so
several processes never send one mail twice. ``server_health``: an outbound server that fails
for a reason a configuration fix cures is waited for, and the administrator told once.
``inbound_mail.content_digest``: the same Message-ID with other content is another mail; each
stored mail gets the digest of its content here, so a redelivery of it is still recognised.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from gm.services.arrival import content_digest


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('lease_owner', sa.String(length=64), server_default='', nullable=False))

    op.create_table('server_health',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('failing_since', sa.DateTime(timezone=True), nullable=True),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('next_try_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=False),
    sa.Column('told', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_server_health'))
    )

    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content_digest', sa.String(length=64), server_default='', nullable=False))
    connection = op.get_bind()
    mails = sa.table('inbound_mail', sa.column('id', sa.Integer), sa.column('raw', sa.LargeBinary),
                     sa.column('content_digest', sa.String))
    last = 0
    while True:  # in batches: the raw mails of a busy judge do not fit in memory at once
        rows = connection.execute(sa.select(mails.c.id, mails.c.raw).where(mails.c.id > last)
                                  .order_by(mails.c.id).limit(500)).all()
        if not rows:
            break
        for mail_id, raw in rows:
            connection.execute(mails.update().where(mails.c.id == mail_id)
                               .values(content_digest=content_digest(bytes(raw))))
        last = rows[-1][0]
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_constraint('uq_inbound_mail_message_id', type_='unique')
        batch_op.create_unique_constraint('uq_inbound_mail_message_content', ['message_id', 'content_digest'])


def downgrade() -> None:
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_constraint('uq_inbound_mail_message_content', type_='unique')
    # Going down, only the first mail of each reused Message-ID keeps it (the old schema has one).
    connection = op.get_bind()
    connection.execute(sa.text(
        "UPDATE inbound_mail SET message_id = NULL WHERE message_id IS NOT NULL AND id NOT IN "
        "(SELECT MIN(id) FROM inbound_mail WHERE message_id IS NOT NULL GROUP BY message_id)"))
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.create_unique_constraint('uq_inbound_mail_message_id', ['message_id'])
        batch_op.drop_column('content_digest')

    op.drop_table('server_health')

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('lease_owner')
        batch_op.drop_column('lease_until')
