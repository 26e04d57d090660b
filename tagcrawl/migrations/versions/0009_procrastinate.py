"""site audits' job queue: procrastinate's schema (PostgreSQL only)

The schema is procrastinate's own ``schema.sql`` of the pinned version
(``procrastinate.schema.SchemaManager.get_schema``), applied as is: its tables
(``procrastinate_jobs``, ``procrastinate_workers``, ...), types and functions.
A later procrastinate pin upgrades it with the library's migration files in a
new Alembic revision.  On SQLite nothing is created: the embedded queue is
procrastinate's in-memory connector (tagcrawl/core/queue.py).

Revision ID: 0009_procrastinate
Revises: 0008_audits
"""
from alembic import op

revision = "0009_procrastinate"
down_revision = "0008_audits"
branch_labels = None
depends_on = None


def _postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def _run(sql: str) -> None:
    # The DB-API cursor, not SQLAlchemy's text(): the SQL has ``::`` casts and ``%`` in function bodies.
    cursor = op.get_bind().connection.cursor()
    try:
        cursor.execute(sql)
    finally:
        cursor.close()


def upgrade():
    if not _postgres():
        return
    from procrastinate.schema import SchemaManager

    _run(SchemaManager.get_schema())


def downgrade():
    if not _postgres():
        return
    _run("""
        DO $$ DECLARE r record; BEGIN
          FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema()
                   AND tablename LIKE 'procrastinate\\_%' LOOP
            EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', r.tablename);
          END LOOP;
          FOR r IN SELECT p.oid::regprocedure AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                   WHERE n.nspname = current_schema() AND p.proname LIKE 'procrastinate\\_%' LOOP
            EXECUTE format('DROP FUNCTION IF EXISTS %s CASCADE', r.sig);
          END LOOP;
          FOR r IN SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
                   WHERE n.nspname = current_schema() AND t.typname LIKE 'procrastinate\\_%' AND t.typtype = 'e' LOOP
            EXECUTE format('DROP TYPE IF EXISTS %I CASCADE', r.typname);
          END LOOP;
        END $$;
    """)
