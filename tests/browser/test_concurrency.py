"""Two gunicorn workers with two threads each serve 8 concurrent crawls of
different pages, and every report is correct (no cross-talk)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.gunicorn_server import Gunicorn

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_eight_concurrent_crawls_on_two_workers_with_two_threads(fixture_web, pg, tmp_path):
    env = {"DATABASE_URL": pg.create_database("tagcrawl_concurrency"), "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true",
           "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in fixture_web.chrome_args()),
           "TAGCRAWL_RUNTIME_DIR": str(tmp_path), "TAGCRAWL_CRAWL_TIMEOUT_S": "45"}
    server = Gunicorn(env, workers=2, threads=2)
    server.flask("db", "upgrade")
    key = server.flask("keys", "create", "concurrency").strip().splitlines()[-1]
    server.start()
    pixel_ids = [f"9{i:02d}0000000000{i:03d}" for i in range(8)]
    try:
        def crawl(pixel_id):
            url = f"https://p{pixel_id[-3:]}.example/__fixture/meta-page?id={pixel_id}"
            return pixel_id, server.post("/api/v1", {"url": url, "session_id": None}, key, timeout_s=120)

        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(crawl, pixel_ids))
    finally:
        server.stop()
    for pixel_id, report in results:
        assert report["success"] is True, report
        reported = {p["account_id"] for p in report["marketingPixels"] if p["vendor"] == "Meta Pixel"}
        assert reported == {pixel_id}
        assert report["url"].endswith(pixel_id)
    assert len({r["sessionId"] for _, r in results}) == 8
