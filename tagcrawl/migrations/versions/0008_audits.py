"""site audits: audits, audit_pages, audit_schedules

Revision ID: 0008_audits
Revises: 0007_consent_state_text
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0008_audits"
down_revision = "0007_consent_state_text"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")
TS = sa.DateTime(timezone=True)


def upgrade():
    op.create_table(
        "audit_schedules",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("api_key_id", sa.Integer(), sa.ForeignKey("api_keys.id"), nullable=False, index=True),
        sa.Column("cron", sa.String(120), nullable=False),
        sa.Column("body", JSON, nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("next_run_at", TS, nullable=False, index=True),
        sa.Column("last_audit_id", sa.String(36)),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "audits",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("api_key_id", sa.Integer(), sa.ForeignKey("api_keys.id"), nullable=False, index=True),
        sa.Column("schedule_id", sa.String(36), sa.ForeignKey("audit_schedules.id", ondelete="SET NULL"),
                  index=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("config", JSON, nullable=False),
        sa.Column("config_hash", sa.String(64), nullable=False),
        sa.Column("error", sa.String(500)),
        sa.Column("summary", JSON),
        sa.Column("created_at", TS, nullable=False, index=True),
        sa.Column("started_at", TS),
        sa.Column("finished_at", TS),
    )
    op.create_index("ix_audits_key_config", "audits", ["api_key_id", "config_hash", "created_at"])
    op.create_table(
        "audit_pages",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("audit_id", sa.String(36), sa.ForeignKey("audits.id", ondelete="CASCADE"), nullable=False),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("scenario", sa.String(8), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(32)),
        sa.Column("crawl_id", sa.Integer(), sa.ForeignKey("crawls.id", ondelete="SET NULL")),
        sa.Column("result", JSON),
        sa.Column("error", sa.String(500)),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("started_at", TS),
        sa.Column("finished_at", TS),
        sa.UniqueConstraint("audit_id", "url", "scenario", name="uq_audit_pages_url_scenario"),
    )
    op.create_index("ix_audit_pages_audit_status", "audit_pages", ["audit_id", "status"])


def downgrade():
    op.drop_table("audit_pages")
    op.drop_table("audits")
    op.drop_table("audit_schedules")
