"""tenancy: API key grants per customer, and an all-customers flag

A key reads the stored events of the customers it is granted
(``api_key_grants``), or of every customer with ``all_customers``.  Existing
keys get no grant: after this migration they read no events until an admin
runs ``flask --app wsgi keys grant NAME --customer C`` (or ``--all-customers``).

Revision ID: 0005_key_grants
Revises: 0004_stream_indexes
"""
from alembic import op
import sqlalchemy as sa

revision = "0005_key_grants"
down_revision = "0004_stream_indexes"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("api_keys") as batch:
        batch.add_column(sa.Column("all_customers", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "api_key_grants",
        sa.Column("api_key_id", sa.Integer(), nullable=False),
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["api_key_id"], ["api_keys.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["customer_id"], ["customers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("api_key_id", "customer_id"),
    )
    op.create_index("ix_api_key_grants_customer_id", "api_key_grants", ["customer_id"])


def downgrade():
    op.drop_index("ix_api_key_grants_customer_id", table_name="api_key_grants")
    op.drop_table("api_key_grants")
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("all_customers")
