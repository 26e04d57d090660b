"""A page cannot make the egress proxy hold its worker's memory (docs/security.md,
"Egress proxy: bounded buffers").

``unread.example`` makes three ``fetch()`` calls of ``/__fixture/endless`` (a body
that never ends, written as fast as the connection takes it), reads none, and
keeps itself busy, so that the crawl (with a long quiet cap) runs to its deadline.
Before the proxy had backpressure, such a page took a worker from 108 MB to 3 GB,
and 1.26 GB was still held after the crawl.  The egress proxy runs in this test
process (tagcrawl's own, one per process), so this process's ``/proc`` status is
the worker's.
"""
from __future__ import annotations

import time

import pytest

from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.engine.egress.chrome import owned_egress
from tests.support import memory
from tests.support.config import settings

MB = memory.MB
DEADLINE_S = 12


@pytest.mark.slow
def test_three_unread_endless_fetches_cannot_grow_the_worker(crawler, private_pool, fixture_web):
    config = private_pool(POOL_SIZE=1, CRAWL_TIMEOUT_S=DEADLINE_S)
    with get_pool(settings(config)).browser():  # start the browser outside the crawls' deadlines
        pass
    warm = crawler("https://shop.example/", config=config).response
    assert warm["success"], warm["error"]  # the code a crawl needs is loaded
    base = memory.rss()
    memory.reset_peak()
    written = fixture_web.endless_bytes
    started = time.monotonic()
    outcome = crawler("https://unread.example/", config=dict(config, QUIET_CAP_MS=60_000))  # same pool
    elapsed = time.monotonic() - started
    growth = memory.peak() - base
    pushed = fixture_web.endless_bytes - written
    print(f"worker {base // MB} MB, peak +{growth / MB:.1f} MB; crawl {elapsed:.1f} s; "
          f"the endless bodies got {pushed / MB:.1f} MiB out; proxy budget peak "
          f"{owned_egress(settings(config)).budget.peak / MB:.1f} MiB")
    assert fixture_web.wait_for(lambda e: e["query"] == "unread=flowing", timeout_s=5), \
        "the three fetches never got their headers"
    assert f"deadline of {DEADLINE_S} s exceeded" in outcome.response["error"]["message"]
    assert elapsed <= DEADLINE_S + 2
    assert growth < 200 * MB
    assert pushed < 256 * MB  # held back: Chrome's buffers, the kernel's and the proxy's 1 MiB per connection
    assert memory.rss() - base < 64 * MB  # nothing is kept after the crawl
    report = crawler("https://shop.example/", config=config).response  # (the hung browser was replaced)
    assert report["success"] is True
    assert {p["account_id"] for p in report["marketingPixels"]} >= {"1234567890123456", "G-DEMO12345X"}
