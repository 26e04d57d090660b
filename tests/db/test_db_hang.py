"""A hung PostgreSQL (SIGSTOP, not stopped) must not hang the service.

Real gunicorn (1 worker, 2 threads) on a throw-away cluster of its own, so
that stopping it disturbs no other test.  While the cluster is frozen:
stream events get 503 with Retry-After, ``/health/ready`` says 503, and
``GET /`` answers 200; after SIGCONT everything works again.  The bound on
each request is the client's timeout (generous: it fails only on a real hang;
without the database timeouts every request waited until SIGCONT).
"""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psutil
import pytest

from tests.support.gunicorn_server import Gunicorn
from tests.support.pgserver import PgServer, pg_bin

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

HANG_BOUND_S = 60
ORIGIN = "https://shop.example.com"


@pytest.fixture
def frozen_pg():
    """A throw-away cluster and ``freeze()``/``thaw()`` for all its processes."""
    if pg_bin() is None:
        pytest.skip("PostgreSQL not installed")
    server = PgServer().start()
    frozen: list[psutil.Process] = []

    def processes():
        with open(os.path.join(server.data, "postmaster.pid")) as fh:
            postmaster = psutil.Process(int(fh.readline()))
        return [postmaster] + postmaster.children(recursive=True)

    def freeze():
        frozen[:] = processes()
        for proc in frozen:
            proc.suspend()

    def thaw():
        for proc in frozen:
            try:
                proc.resume()
            except psutil.NoSuchProcess:
                pass
        frozen.clear()

    server.freeze, server.thaw = freeze, thaw
    yield server
    thaw()
    server.destroy()


def call(base: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
    """``(status, headers, json body or {})``; raises only on a client timeout (a hang)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET",
                                     headers={"Content-Type": "application/json", "Origin": ORIGIN})
    try:
        with urllib.request.urlopen(request, timeout=HANG_BOUND_S) as resp:
            status, headers, raw = resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as err:
        status, headers, raw = err.code, dict(err.headers), err.read()
    return status, headers, (json.loads(raw) if raw else {})


def test_a_frozen_database_gives_503s_and_the_health_check_stays_up(frozen_pg, tmp_path):
    url = frozen_pg.create_database("tagcrawl_hang")
    env = {"DATABASE_URL": url, "TAGCRAWL_RUNTIME_DIR": str(tmp_path), "TAGCRAWL_DB_CONNECT_TIMEOUT_S": "2",
           "TAGCRAWL_DB_STATEMENT_TIMEOUT_MS": "1000", "TAGCRAWL_DB_POOL_TIMEOUT_S": "2",
           "TAGCRAWL_STREAM_ACK_TIMEOUT_S": "3", "TAGCRAWL_RATELIMIT_STREAM": ""}
    server = Gunicorn(env, workers=1, threads=2)
    server.flask("db", "upgrade")
    token = server.flask("tokens", "issue", "--customer", "acme", "--domain", "shop.example.com").strip().split()[-1]
    event = {"t": token, "vn": "Meta Pixel", "e": "PageView"}
    server.start()
    try:
        assert call(server.base, "/stream/api/v1", event)[0] == 204  # token cached, writer connected
        assert call(server.base, "/health/ready")[2]["database"] == "ok"
        frozen_pg.freeze()
        with ThreadPoolExecutor(max_workers=6) as pool:
            streams = [pool.submit(call, server.base, "/stream/api/v1", event) for _ in range(4)]
            ready = pool.submit(call, server.base, "/health/ready")
            health = pool.submit(call, server.base, "/")
            answers = [f.result() for f in streams]
            assert health.result()[0] == 200 and health.result()[2] == {"status": 200}
            status, _headers, body = ready.result()
            assert status == 503 and body["database"] == "unavailable" and body["status"] == 503
        for status, headers, body in answers:
            assert status == 503, body
            assert headers.get("Retry-After") and body["error"] is True
        frozen_pg.thaw()
        assert call(server.base, "/stream/api/v1", event)[0] in (204, 503)  # the first may meet a dead connection
        assert call(server.base, "/stream/api/v1", event)[0] == 204
        assert call(server.base, "/health/ready")[2]["database"] == "ok"
    finally:
        frozen_pg.thaw()
        server.stop()
