"""Real-page benchmark: how long tagcrawl takes once a page's tags are done,
and a warm tagcrawl crawl next to a bare Selenium crawl of the same page.

1. For each fixture page built from vendors' own npm code (tests/support/web/sites/
   sdk-*, npm-*, flush-posthog): the crawl's ``timeTaken`` and the time the
   page sent its last tag request (a request to a vendor's host, from the
   fixture web's log), both from the start of the crawl.  Requests the crawl's
   flush caused are left out: they are sent because the crawl ends.
   Goal: ``timeTaken <= last tag request + 1.5 s``.
2. Plain page (``https://plain.example/``), warm browsers, alternating in one
   run: tagcrawl's ``run_crawl`` (fresh browser context, capture, consent scan,
   flush, cookies) vs a bare Selenium crawl (``driver.get``, 500 ms without a
   new resource, ``get_cookies``).  Goal: tagcrawl <= 1.5x bare.

Run: ``.venv/bin/python -m bench.real_pages [--rounds 15]``.  Prints Markdown
tables and writes bench/results/real_pages.json.  Needs the npm fixture
packages (``make npm-fixtures``), Chromium and ChromeDriver.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from tests.support.web.server import FixtureWeb
from tests.support.config import settings

PAGES = ["sdk-posthog", "sdk-mixpanel", "sdk-amplitude", "sdk-segment", "sdk-snowplow", "sdk-rudderstack",
         "sdk-plausible", "sdk-mparticle", "npm-vanilla", "npm-klaro", "npm-tarteaucitron", "npm-osano",
         "npm-orejime", "npm-cookieseu", "flush-posthog"]
#: Vendor hosts (suffixes) whose requests are tag requests; npm CDN loads are not counted.
TAG_HOSTS = ("posthog.com", "mixpanel.com", "amplitude.com", "segment.com", "segment.io", "snowplow-fixture.example",
             "rudderstack.com", "plausible.io", "mparticle.com", "facebook.com", "facebook.net")

#: The bare crawl's quiet wait: resolve 500 ms after the last resource entry.
BARE_QUIET_JS = """
const done = arguments[0];
let timer = setTimeout(() => done(true), 500);
new PerformanceObserver(() => { clearTimeout(timer); timer = setTimeout(() => done(true), 500); })
  .observe({ type: "resource", buffered: false });
"""


def _config(web: FixtureWeb) -> dict:
    from tagcrawl import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "CHROME_ARGS": web.chrome_args(),
                      "ALLOW_PRIVATE_TARGETS": True, "POOL_SIZE": 1})
    return dict(app.config)


def _crawl(config: dict, url: str):
    from tagcrawl.crawl.service import run_crawl

    return run_crawl(settings(config), {"url": url, "session_id": None, "options": None})


def real_pages(web: FixtureWeb, config: dict, rounds: int) -> list[dict]:
    """Per page: median timeTaken, median last tag request (ms from crawl start), slack."""
    rows = []
    for name in PAGES:
        url = f"https://{name}.example/"
        taken, last_tags, phases = [], [], []
        for _ in range(rounds):
            start = len(web.log)
            wall = time.time()
            outcome = _crawl(config, url)
            assert outcome.response["success"], outcome.response
            flush_at = wall + outcome.timings.starts.get("flush", 1e9) / 1000.0
            tags = [e["time"] for e in web.log[start:]
                    if e["host"].endswith(TAG_HOSTS) and e["time"] < flush_at]
            taken.append(outcome.response["timeTaken"])
            last_tags.append((max(tags) - wall) * 1000 if tags else 0.0)
            phases.append(outcome.timings.phases)
        median_phases = {k: round(statistics.median(p.get(k, 0) for p in phases)) for k in phases[0]}
        row = {"page": name, "timeTaken_ms": round(statistics.median(taken)),
               "last_tag_ms": round(statistics.median(last_tags)),
               "phases_ms": median_phases}
        row["slack_ms"] = row["timeTaken_ms"] - row["last_tag_ms"]
        row["goal_met"] = row["slack_ms"] <= 1500
        print(row, flush=True)
        rows.append(row)
    return rows


def _bare_driver(web: FixtureWeb):
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *web.chrome_args()):
        options.add_argument(arg)
    return webdriver.Chrome(options=options)


def bare_load(driver, url: str) -> float:
    """One bare Selenium crawl of ``url`` (``get``, 500 ms without a new
    resource entry, ``get_cookies``), in ms."""
    started = time.perf_counter()
    driver.get(url)
    driver.execute_async_script(BARE_QUIET_JS)
    len(driver.get_cookies())
    return (time.perf_counter() - started) * 1000


def plain_side_by_side(web: FixtureWeb, config: dict, rounds: int, url: str = "https://plain.example/") -> dict:
    """Alternating warm crawls of ``url``: tagcrawl vs bare Selenium, medians in ms."""
    driver = _bare_driver(web)
    try:
        def bare() -> float:
            return bare_load(driver, url)

        def ours() -> tuple[float, dict]:
            started = time.perf_counter()
            outcome = _crawl(config, url)
            return (time.perf_counter() - started) * 1000, outcome.timings.phases

        bare(), ours()  # warm-up: both browsers started, page cached alike
        bare_ms, our_ms, phases = [], [], []
        for _ in range(rounds):
            bare_ms.append(bare())
            ms, p = ours()
            our_ms.append(ms)
            phases.append(p)
    finally:
        driver.quit()
    result = {"url": url, "bare_selenium_ms": round(statistics.median(bare_ms)),
              "tagcrawl_ms": round(statistics.median(our_ms)),
              "tagcrawl_phases_ms": {k: round(statistics.median(p.get(k, 0) for p in phases)) for k in phases[0]}}
    result["ratio"] = round(result["tagcrawl_ms"] / result["bare_selenium_ms"], 2)
    print(result, flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="crawls per real page")
    parser.add_argument("--plain-rounds", type=int, default=20, help="alternating crawls of the plain page")
    parser.add_argument("--only", choices=["pages", "plain"], default=None)
    args = parser.parse_args()
    web = FixtureWeb().start()
    config = _config(web)
    results: dict = {}
    try:
        _crawl(config, "https://plain.example/")  # start tagcrawl's browser
        if args.only in (None, "plain"):
            results["plain"] = {u: plain_side_by_side(web, config, args.plain_rounds, u)
                                for u in ("https://plain.example/", "https://bench.example/")}
        if args.only in (None, "pages"):
            results["pages"] = real_pages(web, config, args.rounds)
    finally:
        from tagcrawl.engine.chrome.pool import shutdown_pools

        shutdown_pools()
        web.stop()
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / f"real_pages-{args.only or 'all'}.json").write_text(json.dumps(results, indent=2))
    if "pages" in results:
        print("\n| page | timeTaken (ms) | last tag request (ms) | slack (ms) | goal <= 1500 |\n|---|---|---|---|---|")
        for row in results["pages"]:
            print(f"| {row['page']} | {row['timeTaken_ms']} | {row['last_tag_ms']} | {row['slack_ms']} | "
                  f"{'yes' if row['goal_met'] else 'no'} |")
    for url, row in results.get("plain", {}).items():
        print(f"\nplain {url}: tagcrawl {row['tagcrawl_ms']} ms vs bare Selenium {row['bare_selenium_ms']} ms "
              f"= {row['ratio']}x; phases {row['tagcrawl_phases_ms']}")


if __name__ == "__main__":
    main()
