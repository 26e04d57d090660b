"""site audits: audit_reports, a finished audit's report stored once

One row per finished audit (``done``, ``failed`` or ``cancelled`` with no page
queued or running): its ``build_report`` JSON, at most
``tagcrawl.audit.report_cache.CACHE_MAX_BYTES`` bytes (docs/audits.md, "The
report is stored once").  Audits finished before this revision get their row
on the first read of their report.

Revision ID: 0010_audit_reports
Revises: 0009_procrastinate
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0010_audit_reports"
down_revision = "0009_procrastinate"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade():
    op.create_table(
        "audit_reports",
        sa.Column("audit_id", sa.String(36), sa.ForeignKey("audits.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("report", JSON, nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade():
    op.drop_table("audit_reports")
