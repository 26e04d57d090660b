"""Security, in a real crawl: no API key in the logs of a crawl run through
Chrome.  The other points: tests/db/test_security.py (SECURITY.md names them)."""
from __future__ import annotations

import pytest

from tests.db.test_security import all_logs  # noqa: F401 - fixture

pytestmark = pytest.mark.postgres


@pytest.mark.browser
def test_no_key_in_logs_of_a_real_crawl(app, client, api_key, all_logs):
    caplog = all_logs
    response = client.post("/api/v1", json={"url": "https://plain.example/", "session_id": None},
                           headers={"x-api-key": api_key})
    assert response.get_json()["success"] is True
    assert "plain.example" in caplog.text  # the crawl's log lines were captured
    assert api_key not in caplog.text and api_key[16:] not in caplog.text
