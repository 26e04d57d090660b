"""HAR through the CLI (``flask pixels from-har``) and the crawl API (a stored
crawl exported as HAR), on PostgreSQL.  The HAR reader and writer alone:
tests/unit/test_har.py."""
from __future__ import annotations

import json
import uuid

import pytest

from tagcrawl.engine.har import build_har, pixels_by_page
from tagcrawl.engine.har.write import REDACTED
from tagcrawl.engine.vendors import match_requests, pixels_from_hits

from tests.support.config import settings
from tests.unit.test_har import DEVTOOLS_HAR, PAGE, REQUESTS


def test_cli_from_har(runner, tmp_path):
    path = tmp_path / "devtools.har"
    path.write_text(json.dumps(DEVTOOLS_HAR))
    result = runner.invoke(args=["pixels", "from-har", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == pixels_by_page(DEVTOOLS_HAR)
    exported = tmp_path / "tagcrawl.engine.har"
    exported.write_text(json.dumps(build_har(REQUESTS, PAGE)))
    result = runner.invoke(args=["pixels", "from-har", str(exported)])
    assert json.loads(result.output) == {"page_1": pixels_from_hits(match_requests(REQUESTS))}


@pytest.mark.parametrize("content,message", [("{", "not JSON"), ('{"log": {}}', "not a HAR file")])
def test_cli_from_har_errors(runner, tmp_path, content, message):
    path = tmp_path / "bad.har"
    path.write_text(content)
    result = runner.invoke(args=["pixels", "from-har", str(path)])
    assert result.exit_code != 0 and message in result.output
    assert result.output.count(message) == 1 and result.output.count("Error") == 1  # said once (issue 26)


def _store(app, key_name: str, requests: list) -> str:
    from tagcrawl.crawl.records import store_crawl
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import ApiKey

    session_id = str(uuid.uuid4())
    with app.app_context():
        key = db.session.scalar(db.select(ApiKey).filter_by(name=key_name))
        response = {"sessionId": session_id, "url": PAGE, "success": True,
                    "marketingPixels": pixels_from_hits(match_requests(requests))}
        store_crawl({"url": PAGE, "session_id": session_id}, response, key.id, requests, settings(app.config))
    return session_id


def test_api_har_owner_rule_and_round_trip(app, api_key):
    from tagcrawl.accounts.apikeys import create_key

    client = app.test_client()
    session_id = _store(app, "tests", REQUESTS)
    res = client.get(f"/api/v1/crawls/{session_id}/har", headers={"x-api-key": api_key})
    assert res.status_code == 200 and res.mimetype == "application/json"
    har = res.get_json()
    assert pixels_by_page(har) == {"page_1": pixels_from_hits(match_requests(REQUESTS))}
    fb = har["log"]["entries"][0]["request"]["headers"]
    assert {"name": "Cookie", "value": REDACTED} in fb
    with app.app_context():
        _row, other, _secret = create_key("someone-else")
    assert client.get(f"/api/v1/crawls/{session_id}/har", headers={"x-api-key": other}).status_code == 404
    assert client.get(f"/api/v1/crawls/{session_id}/har").status_code == 401
    assert client.get(f"/api/v1/crawls/{uuid.uuid4()}/har", headers={"x-api-key": api_key}).status_code == 404


def test_api_har_secrets_opt_in(app, api_key, runner):
    result = runner.invoke(args=["pixels", "har-secrets", "tests", "--allow"])
    assert result.exit_code == 0, result.output
    session_id = _store(app, "tests", REQUESTS[:1])
    har = app.test_client().get(f"/api/v1/crawls/{session_id}/har", headers={"x-api-key": api_key}).get_json()
    assert {"name": "Cookie", "value": "fr=secret"} in har["log"]["entries"][0]["request"]["headers"]
    assert runner.invoke(args=["pixels", "har-secrets", "nobody", "--allow"]).exit_code != 0
