"""stream events: (customer_id, event_timestamp, id) index for keyset pagination

Replaces the single-column customer_id index, which it covers.

Revision ID: 0002_stream
Revises: 0001
Create Date: 2024-06-01 00:00:00
"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0002_stream'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('stream_events', schema=None) as batch_op:
        batch_op.create_index('ix_stream_events_customer_time', ['customer_id', 'event_timestamp', 'id'],
                              unique=False)
        batch_op.drop_index('ix_stream_events_customer_id')


def downgrade():
    with op.batch_alter_table('stream_events', schema=None) as batch_op:
        batch_op.create_index('ix_stream_events_customer_id', ['customer_id'], unique=False)
        batch_op.drop_index('ix_stream_events_customer_time')
