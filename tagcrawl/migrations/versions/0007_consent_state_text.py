"""stream_events.consent_state as text: a TC string in `cn` is longer than 255 characters

Revision ID: 0007_consent_state_text
Revises: 0006_crawl_har
"""
import sqlalchemy as sa
from alembic import op

revision = "0007_consent_state_text"
down_revision = "0006_crawl_har"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("stream_events", schema=None) as batch_op:
        batch_op.alter_column("consent_state", existing_type=sa.String(length=255), type_=sa.Text(),
                              existing_nullable=True)


def downgrade():
    with op.batch_alter_table("stream_events", schema=None) as batch_op:
        batch_op.alter_column("consent_state", existing_type=sa.Text(), type_=sa.String(length=255),
                              existing_nullable=True)
