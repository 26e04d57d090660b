"""A gunicorn worker under a memory limit survives hostile stream events
(issue 24: "run the gunicorn worker of at least one test under a memory limit
and show it survives").

The worker runs the shipped gunicorn settings with its address space capped
at its size when ready plus 1 GiB (``tests/support/gunicorn_memcap.py``,
``RLIMIT_AS``).  Four TC-string range bombs at once, each a 4 KB ``cn`` that
names 48 million vendor ids, made a worker allocate 7.4 GB before the TCF
decoder counted ids before expanding them; under this cap the old decoder
answers 500 to all four (``MemoryError``; checked by running this test against it).  Now each event is stored (``cn`` as
sent, undecoded), the same worker process answers every one, and a correct
event right after is stored too."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psutil
import pytest
from sqlalchemy import create_engine, text

from tests.support.gunicorn_server import Gunicorn
from tests.support.tc_strings import range_bomb

pytestmark = pytest.mark.postgres

ORIGIN = "https://shop.example.com"
HEADROOM_MB = 1024


def call(base: str, body: dict) -> int:
    request = urllib.request.Request(base + "/stream/api/v1", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Origin": ORIGIN})
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code


def test_a_worker_capped_at_one_gib_more_survives_four_tc_range_bombs(pg, tmp_path):
    url = pg.create_database("tagcrawl_memcap")
    env = {"DATABASE_URL": url, "TAGCRAWL_RUNTIME_DIR": str(tmp_path), "TAGCRAWL_RATELIMIT_STREAM": "",
           "TAGCRAWL_TEST_AS_HEADROOM_MB": str(HEADROOM_MB)}
    server = Gunicorn(env, workers=1, threads=4, config="python:tests.support.gunicorn_memcap")
    server.flask("db", "upgrade")
    token = server.flask("tokens", "issue", "--customer", "acme", "--domain", "shop.example.com").strip().split()[-1]
    server.start()
    try:
        assert any("address space capped" in line for line in server.log)
        (worker,) = psutil.Process(server.proc.pid).children()
        bomb = range_bomb()
        assert len(bomb) <= 4096
        with ThreadPoolExecutor(max_workers=4) as pool:
            # distinct strings, so no answer comes from the decoding cache
            answers = list(pool.map(lambda i: call(server.base, {"t": token, "vn": "Meta Pixel", "e": f"e{i}",
                                                                  "cn": bomb[:-4] + "AAAA"[:4 - i] + "B" * i}),
                                    range(4)))
        assert answers == [204] * 4
        assert call(server.base, {"t": token, "vn": "Meta Pixel", "e": "PageView"}) == 204
        assert psutil.Process(server.proc.pid).children() == [worker]  # the same worker answered every one
        assert not any("MemoryError" in line for line in server.log)
    finally:
        server.stop()
    engine = create_engine(url)
    with engine.connect() as conn:
        events = [row[0] for row in conn.execute(text("SELECT event_name FROM stream_events ORDER BY id"))]
    engine.dispose()
    assert sorted(events) == ["PageView", "e0", "e1", "e2", "e3"]
