"""The app on the test PostgreSQL, for tests/db and tests/browser (imported
into their conftest.py files).

- ``app``: the app on PostgreSQL (migrated once per session by ``_migrated``),
  tables emptied after each test; browser settings point Chrome at the fixture web.
- ``runner``: Flask's CLI runner for ``app`` (``client`` comes from pytest-flask).
- ``api_key``: a fresh key for the crawl API.
"""
from __future__ import annotations

import pytest

from tagcrawl import create_app
from tagcrawl.core.extensions import db


def empty_database(app) -> None:
    """Empty every table of ``app``'s database, the job queue's included (a crawl's job names its row
    id, which restarts at 1), and close its connections (a test's teardown; stop the queue worker first)."""
    queue = app.extensions.get("tagcrawl.queue")
    if queue is not None:
        queue.close()
    with app.app_context():
        db.session.remove()
        with db.engine.begin() as conn:
            jobs = conn.exec_driver_sql("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                                        " AND left(tablename, 14) = 'procrastinate_'").scalars().all()
            tables = ", ".join([t.name for t in db.metadata.sorted_tables] + list(jobs))
            conn.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        db.engine.dispose()


@pytest.fixture
def app(_migrated, fixture_web, tmp_path):
    config = {"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True, "ALLOW_PRIVATE_TARGETS": True,
              "CHROME_ARGS": fixture_web.chrome_args(), "QUIET_MS": 400,
              "SCREENSHOT_DIR": str(tmp_path / "shots"), "POOL_SIZE": 2}
    app = create_app(config)
    yield app
    from tagcrawl.audit.runner import stop_worker

    stop_worker(timeout_s=15)
    empty_database(app)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def api_key(app):
    from tagcrawl.accounts.apikeys import create_key

    with app.app_context():
        _row, key, _secret = create_key("tests")
    return key
