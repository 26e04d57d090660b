"""tests/db: needs PostgreSQL (the throw-away cluster of tests/conftest.py), no
browser.  Every test here is marked ``postgres``."""
from __future__ import annotations

from pathlib import Path

from tests.support.app_fixtures import api_key, app, runner  # noqa: F401 - fixtures
from tests.support.needs import mark_folder

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items):
    mark_folder(items, HERE, "postgres")
