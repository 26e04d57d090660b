"""Caller input: counts before items (issue 24, "Lower" items), through the
API on PostgreSQL: one rate-limit bucket per token whatever its spelling,
60,000 rules answered with one short 422, cursors past 64 bits, lone
surrogates stored as U+FFFD, and ``flask pixels from-har`` errors in one
line.  The bounds alone (and cursors on SQLite): tests/unit/test_caller_bounds.py,
tests/unit/test_har_bounds.py."""
from __future__ import annotations

import json

import pytest

from tagcrawl import create_app
from tagcrawl.core.types import RULES_MAX

from tests.support.stream_support import ORIGIN, count_rows, issued, minimal, post_event, stored
from tests.unit.test_caller_bounds import spellings

FIXTURES = (issued,)


@pytest.mark.postgres
def test_thirty_spellings_of_a_token_share_one_bucket(app, issued):
    """30 spellings (case, braces, ``urn:uuid:``, no hyphens) were 30 buckets: 30 events
    past a limit of 2.  Now the third event of any spelling is a 429."""
    limited = create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "TESTING": True,
                          "RATELIMIT_STREAM": "2/minute"})
    client = limited.test_client()
    statuses = [post_event(client, minimal(spelling)).status_code for spelling in spellings(issued)]
    assert statuses == [204, 204] + [429] * 28
    assert count_rows(app) == 2  # the bound: two events stored, not thirty
    other_visitor = post_event(client, minimal(issued.upper()), environ_base={"REMOTE_ADDR": "198.51.100.9"})
    assert other_visitor.status_code == 204  # the bucket is per (token, IP), as before


@pytest.mark.postgres
def test_60000_rules_get_one_short_422(client, api_key):
    """60,000 ``{}`` rules took 5 s and a 27 MB answer; the count is checked first."""
    body = json.dumps({"url": "https://shop.example/", "session_id": None, "validationRules": [{}] * 60_000})
    assert len(body) < 256 * 1024  # under the body cap: the schema, not the reader, answers
    response = client.post("/api/v1", data=body, headers={"x-api-key": api_key, "Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.get_json() == {"detail": [{"loc": ["body", "validationRules"], "type": "too_long",
                                               "msg": f"Too many items (at most {RULES_MAX})."}]}
    assert len(response.data) < 200


@pytest.fixture
def reader_key(app):
    from tagcrawl.accounts.apikeys import create_key

    with app.app_context():
        return create_key("bounds-reader", all_customers=True)[1]


@pytest.mark.postgres
def test_cursors_past_64_bits_are_positions_not_errors(app, client, issued, reader_key):
    for name in ("E0", "E1"):
        assert post_event(client, minimal(issued, e=name)).status_code == 204
    names = {}
    for cursor in (f"0_{2 ** 63}", "9" * 19 + "_" + "9" * 19, "-" + "9" * 19 + "_0"):
        response = client.get("/api/v1/events", query_string={"cursor": cursor}, headers={"x-api-key": reader_key})
        assert response.status_code == 200, response.get_data(as_text=True)
        names[cursor] = [e["event_name"] for e in response.get_json()["events"]]
    assert list(names.values()) == [["E0", "E1"], [], ["E0", "E1"]]
    first = client.get("/api/v1/events", query_string={"limit": 1}, headers={"x-api-key": reader_key}).get_json()
    rest = client.get("/api/v1/events", query_string={"cursor": first["next_cursor"]},
                      headers={"x-api-key": reader_key}).get_json()
    assert [e["event_name"] for e in first["events"] + rest["events"]] == ["E0", "E1"]


@pytest.mark.postgres
def test_lone_surrogates_are_stored_as_replacement_characters(app, client, issued):
    """A JavaScript string cut inside an emoji is half a UTF-16 pair, which
    ``JSON.stringify`` escapes as ``\\ud83d``: the event was refused (400); now
    it is stored, with U+FFFD in place of the half pair."""
    raw = ('{"t": "%s", "vn": "Meta Pixel \\ud83d", "e": "PageView", "dt": [{"k\\udfff": "cut \\ud83d"}], '
           '"zz\\ud800": "x\\udc00", "ok": "\\ud83d\\ude00"}' % issued)
    response = post_event(client, raw.encode())
    assert response.status_code == 204, response.get_data(as_text=True)
    [row] = stored(app)
    assert row.vendor_name == "Meta Pixel \ufffd"
    assert row.details == [{"k\ufffd": "cut \ufffd"}]
    assert row.extra == {"zz\ufffd": "x\ufffd", "ok": "\U0001F600"}
    nul = post_event(client, ('{"t": "%s", "vn": "a\\u0000", "e": "x"}' % issued).encode())
    assert nul.status_code == 400 and "NUL" in nul.get_json()["message"]


@pytest.mark.postgres
@pytest.mark.parametrize("content, line", [
    ('{"log": {"pages": 5, "entries": []}}', "Error: not a HAR file: log.pages must be an array, not a number"),
    ('{"log": {"entries": {}}}', "Error: not a HAR file: log.entries is an object, not an array"),
    ("[" * 5000 + "]" * 5000, "Error: not JSON: nested too deeply"),
    ('{"log": {"entries": [%s]}}' % ",".join(["{}"] * 100_001),
     "Error: too large: log.entries has 100001 entries, at most 100000 are read"),
])
def test_from_har_refuses_in_one_line(runner, tmp_path, content, line):
    path = tmp_path / "bad.har"
    path.write_text(content)
    result = runner.invoke(args=["pixels", "from-har", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [line]
    assert "Traceback" not in result.output


@pytest.mark.postgres
def test_from_har_notes_skipped_entries_on_stderr(runner, tmp_path):
    path = tmp_path / "some.har"
    path.write_text(json.dumps({"log": {"entries": [{"request": {"url": 5}}, {"request": {
        "url": "https://www.facebook.com/tr/?id=123456789012345&ev=PageView"}}]}}))
    result = runner.invoke(args=["pixels", "from-har", str(path)])
    assert result.exit_code == 0
    assert result.stderr == "note: 1 entries skipped: no request.url string\n"
    assert json.loads(result.stdout)[""][0]["account_id"] == "123456789012345"
