"""Schemathesis on the crawl operation: ``POST /api/v1`` with generated bodies,
each a real crawl of a fixture page in Chrome (fewer examples,
``CRAWL_EXAMPLES``).  Every other operation: tests/db/test_schemathesis.py."""
from __future__ import annotations

import pytest

from tests.db.test_schemathesis import CRAWL_EXAMPLES, _run, live, live_schema  # noqa: F401 - fixtures


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.timeout(600)
def test_crawl_operation(live_schema, live, browser):
    """``POST /api/v1`` with generated bodies: real crawls of fixture pages."""
    _run(live_schema, "POST", "/api/v1", live, CRAWL_EXAMPLES)
