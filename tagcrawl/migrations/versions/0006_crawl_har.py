"""crawl HAR: captured traffic stored with each crawl, per-key secrets opt-in

Revision ID: 0006_crawl_har
Revises: 0005_key_grants
"""
import sqlalchemy as sa
from alembic import op

revision = "0006_crawl_har"
down_revision = "0005_key_grants"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "crawl_hars",
        sa.Column("crawl_id", sa.Integer(), sa.ForeignKey("crawls.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("har", sa.Text(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("omitted", sa.Integer(), nullable=False),
        sa.Column("secrets_kept", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.add_column(sa.Column("har_secrets", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.drop_column("har_secrets")
    op.drop_table("crawl_hars")
