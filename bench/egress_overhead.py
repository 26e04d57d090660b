"""Overhead of the egress proxy on a warm crawl.

``python -m bench.egress_overhead [N]`` crawls the fixture web's
``https://shop.example/`` (a page with Meta and Google tags) N times (15 by
default) through two warm browsers, one with the egress proxy
(``TAGCRAWL_EGRESS_PROXY_URL`` unset, the default) and one without it
(``off``). Runs alternate between the two, so that load from elsewhere on the
machine falls on both. Prints the median and p90 of ``timeTaken`` (ms) of each,
and the median difference. Not a test: numbers go to the report, never into
assertions.
"""
from __future__ import annotations

import statistics
import sys
import tempfile

from tagcrawl import create_app
from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.crawl.service import run_crawl
from tests.support.web.server import FixtureWeb
from tests.support.config import settings


def _config(web: FixtureWeb, egress: str | None, marker: str) -> dict:
    return create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "ALLOW_PRIVATE_TARGETS": False, "POOL_SIZE": 1,
                       "CHROME_ARGS": web.chrome_args() + [f"--tagcrawl-bench={marker}"], "QUIET_MS": 400,
                       "SCREENSHOT_DIR": tempfile.mkdtemp(), "EGRESS_PROXY_URL": egress}).config


def main(n: int = 15) -> None:
    web = FixtureWeb().start()
    configs = {"proxy": _config(web, None, "proxy"), "no proxy": _config(web, "off", "direct")}
    times: dict[str, list[int]] = {name: [] for name in configs}
    try:
        for config in configs.values():  # warm: browser started, first page cached
            run_crawl(settings(config), {"url": "https://shop.example/", "session_id": None})
        for _ in range(n):
            for name, config in configs.items():
                response = run_crawl(settings(config), {"url": "https://shop.example/", "session_id": None}).response
                assert response["success"], response
                times[name].append(response["timeTaken"])
    finally:
        for config in configs.values():
            get_pool(settings(config)).shutdown()
        web.stop()
    for name, values in times.items():
        values.sort()
        print(f"{name:9} median {statistics.median(values):7.0f} ms   p90 {values[int(0.9 * (len(values) - 1))]:7.0f} ms"
              f"   (n={len(values)})")
    diff = statistics.median(a - b for a, b in zip(times["proxy"], times["no proxy"]))
    print(f"median paired difference (proxy - no proxy): {diff:+.0f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
