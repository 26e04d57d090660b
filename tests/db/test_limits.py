"""Rate limits: 429 + Retry-After, per API key (crawl) and per token and IP
(stream), settings, storage keys without secrets, Redis storage."""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import uuid

import pytest

from tagcrawl import create_app
from tagcrawl.core.settings import load_settings

from tests.support.stream_support import ORIGIN, count_rows, issued, minimal, post_event

FIXTURES = (issued,)


def _app(app, **config):
    """Another app on the test database with its own limits (and limiter)."""
    base = {"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "TESTING": True}
    return create_app({**base, **config})


def _sqlite_app(**config):
    """An app on an in-memory SQLite database (no PostgreSQL needed)."""
    from tagcrawl.core.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True, **config})
    with app.app_context():
        db.create_all()
    return app


def _assert_429(response):
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1
    body = response.get_json()
    assert body["error"] is True and "Rate limit exceeded" in body["message"]


def _crawl(client, key):
    # An invalid body: limited like any crawl call, answered 422 without a browser.
    return client.post("/api/v1", data="{}", headers={"x-api-key": key, "Content-Type": "application/json"})


def test_settings_and_defaults():
    defaults = load_settings({})
    assert defaults.ratelimit_crawl == "60/minute"
    assert defaults.ratelimit_stream == "6000/minute"
    assert defaults.ratelimit_storage_url == "memory://"
    env = load_settings({"TAGCRAWL_RATELIMIT_CRAWL": "5/second", "TAGCRAWL_RATELIMIT_STREAM": "",
                         "TAGCRAWL_RATELIMIT_STORAGE_URL": "redis://cache:6379/2"})
    assert (env.ratelimit_crawl, env.ratelimit_stream, env.ratelimit_storage_url) == \
        ("5/second", "", "redis://cache:6379/2")


@pytest.mark.postgres
def test_crawl_limit_is_per_api_key(app, api_key):
    from tagcrawl.accounts.apikeys import create_key

    limited = _app(app, RATELIMIT_CRAWL="2/minute")
    with limited.app_context():
        _row, other_key, _secret = create_key("other")
    client = limited.test_client()
    assert [_crawl(client, api_key).status_code for _ in range(2)] == [422, 422]
    _assert_429(_crawl(client, api_key))
    assert _crawl(client, other_key).status_code == 422  # another key has its own budget
    # Unknown keys are counted too (per key), before the 401.
    assert [_crawl(client, "tc_unknown").status_code for _ in range(3)] == [401, 401, 429]


@pytest.mark.postgres
def test_stream_limit_is_per_token_and_ip(app, issued):
    from tagcrawl.stream.tenants import issue_token

    limited = _app(app, RATELIMIT_STREAM="2/minute", TRUSTED_PROXIES=1)
    with limited.app_context():
        other_token = issue_token("globex", ["shop.example.com"]).token
    client = limited.test_client()

    def post(token, ip="203.0.113.7"):
        return post_event(client, minimal(token), headers={"X-Forwarded-For": ip})

    assert [post(issued).status_code for _ in range(2)] == [204, 204]
    limited_answer = post(issued)
    _assert_429(limited_answer)
    assert limited_answer.headers["Access-Control-Allow-Origin"] == ORIGIN  # the page can read why
    assert post(issued, ip="198.51.100.9").status_code == 204  # same token, another visitor
    assert post(other_token).status_code == 204  # same visitor, another customer's token
    assert count_rows(app) == 4  # nothing stored for the 429


@pytest.mark.postgres
def test_stream_limit_counts_after_the_body_is_read_and_parsed_once(app, issued):
    """Order: 413 and 400 (not a JSON object) are not counted; 429 comes before
    the schema's 400 and the token's 401."""
    limited = _app(app, RATELIMIT_STREAM="2/minute", STREAM_MAX_BYTES=2048)
    client = limited.test_client()
    assert post_event(client, minimal(issued)).status_code == 204
    too_big = json.dumps(minimal(issued, dt=[{"pad": "x" * 3000}]))
    assert post_event(client, too_big).status_code == 413
    assert post_event(client, b"{broken").status_code == 400
    assert post_event(client, b"[1, 2]").status_code == 400
    bad_schema = post_event(client, minimal(issued, tm="soon"))
    assert bad_schema.status_code == 400 and "tm" in bad_schema.get_json()["message"]  # second event counted
    _assert_429(post_event(client, minimal(issued, tm="soon")))
    _assert_429(post_event(client, minimal(issued)))
    assert count_rows(app) == 1


@pytest.mark.postgres
def test_stream_limit_counts_in_memory_when_redis_is_unreachable(app, issued):
    """A dead Redis never fails an event: the stream limit counts in memory."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    limited = _app(app, RATELIMIT_STREAM="2/minute", RATELIMIT_STORAGE_URL=f"redis://127.0.0.1:{port}/0")
    client = limited.test_client()
    statuses = [post_event(client, minimal(issued)).status_code for _ in range(3)]
    assert statuses == [204, 204, 429]
    assert count_rows(app) == 2


@pytest.mark.postgres
def test_preflight_and_other_routes_are_not_limited(app, issued):
    limited = _app(app, RATELIMIT_STREAM="1/minute", RATELIMIT_CRAWL="1/minute")
    client = limited.test_client()
    statuses = {client.options("/stream/api/v1", headers={"Origin": ORIGIN}).status_code for _ in range(3)}
    assert statuses == {204}
    assert {client.get("/").status_code for _ in range(3)} == {200}


@pytest.mark.postgres
def test_an_empty_setting_turns_the_limit_off(app, api_key):
    client = _app(app, RATELIMIT_CRAWL="").test_client()
    assert {_crawl(client, api_key).status_code for _ in range(5)} == {422}


@pytest.mark.postgres
def test_storage_keys_hold_no_key_token_or_ip(app, api_key, issued):
    limited = _app(app, RATELIMIT_CRAWL="10/minute", RATELIMIT_STREAM="10/minute")
    client = limited.test_client()
    _crawl(client, api_key)
    post_event(client, minimal(issued), environ_base={"REMOTE_ADDR": "203.0.113.77"})
    storages = (limited.extensions["tagcrawl_limiter"].storage,
                limited.extensions["tagcrawl_stream_limit"].primary.storage)
    keys = " ".join(str(key) for storage in storages for key in storage.storage)
    assert "crawl.crawl" in keys and "stream.ingest" in keys
    for secret in (api_key, issued, "203.0.113.77"):
        assert secret not in keys


def test_unreachable_redis_falls_back_to_memory():
    """A dead Redis never fails a request: the limiter counts in memory."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    app = _sqlite_app(RATELIMIT_CRAWL="2/minute", RATELIMIT_STORAGE_URL=f"redis://127.0.0.1:{port}/0")
    client = app.test_client()
    statuses = [_crawl(client, "tc_whatever").status_code for _ in range(3)]
    assert statuses == [401, 401, 429]


@pytest.fixture
def redis_url(tmp_path):
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:  # wait for its "Ready to accept connections" line
        if "Ready to accept connections" in line:
            break
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep its pipe drained
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=30)


def test_redis_storage_is_shared_by_every_instance(redis_url):
    """Two apps (two gunicorn instances) on one Redis share one budget per key."""
    first, second = (_sqlite_app(RATELIMIT_CRAWL="3/minute", RATELIMIT_STORAGE_URL=redis_url) for _ in range(2))
    assert type(first.extensions["tagcrawl_limiter"].storage).__name__ == "RedisStorage"
    key = f"tc_{uuid.uuid4().hex}"
    statuses = [_crawl(app.test_client(), key).status_code for app in (first, second, first, second)]
    assert statuses == [401, 401, 401, 429]
    _assert_429(_crawl(second.test_client(), key))
    import redis

    stored = " ".join(k.decode() for k in redis.Redis.from_url(redis_url).keys("*"))
    assert "tagcrawl" in stored and key not in stored


def test_stream_limit_starts_no_thread_per_event():
    """The in-memory counter of the stream limit expires keys inline (no Timer threads)."""
    from limits import parse

    from tagcrawl.web.ratelimits import STRATEGY, SweepingMemoryStorage
    from limits.strategies import STRATEGIES

    storage = SweepingMemoryStorage()
    strategy = STRATEGIES[STRATEGY](storage)
    before = threading.active_count()
    assert all(strategy.hit(parse("1000/second"), "k", str(i % 7)) for i in range(500))
    assert threading.active_count() <= before  # (MemoryStorage's first Timer, cancelled, may have ended)
    assert [strategy.hit(parse("2/minute"), "x") for _ in range(3)] == [True, True, False]
