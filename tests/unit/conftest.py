"""tests/unit: needs neither Chrome nor PostgreSQL (``pytest tests/unit`` is the
quick inner loop).  A test here that asks for the database or a browser is a
collection error: it belongs in tests/db or tests/browser."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.needs import in_folder

HERE = Path(__file__).parent
HEAVY_FIXTURES = {"pg", "pg_url", "_migrated"}


def pytest_collection_modifyitems(items):
    for item in in_folder(items, HERE):
        heavy = HEAVY_FIXTURES.intersection(item.fixturenames)
        marked = {m.name for m in item.iter_markers()} & {"browser", "postgres"}
        if heavy or marked:
            needs = sorted(heavy | marked)
            raise pytest.UsageError(f"{item.nodeid} needs {needs}: move it to tests/db or tests/browser")
