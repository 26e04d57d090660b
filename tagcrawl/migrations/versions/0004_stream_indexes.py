"""stream events: fewer indexes, cheaper inserts

Readers scan in (event_timestamp, id) order (per customer:
ix_stream_events_customer_time) and apply the vendor, event and domain
filters to that scan, so the single-column indexes on vendor, event_name,
domain and session_id served no query, while each cost every insert a b-tree
insertion at a random place.  They go; the single-column event_timestamp
index becomes (event_timestamp, id), the full order of the keyset pagination.

Revision ID: 0004_stream_indexes
Revises: 0003_webhooks
"""
from alembic import op

revision = "0004_stream_indexes"
down_revision = "0003_webhooks"
branch_labels = None
depends_on = None

DROPPED = ("vendor", "event_name", "domain", "session_id")


def upgrade():
    with op.batch_alter_table("stream_events", schema=None) as batch_op:
        batch_op.create_index("ix_stream_events_time", ["event_timestamp", "id"], unique=False)
        batch_op.drop_index("ix_stream_events_event_timestamp")
        for column in DROPPED:
            batch_op.drop_index(f"ix_stream_events_{column}")


def downgrade():
    with op.batch_alter_table("stream_events", schema=None) as batch_op:
        for column in DROPPED:
            batch_op.create_index(f"ix_stream_events_{column}", [column], unique=False)
        batch_op.create_index("ix_stream_events_event_timestamp", ["event_timestamp"], unique=False)
        batch_op.drop_index("ix_stream_events_time")
