"""Tag-heavy page: tagcrawl through its HTTP API next to a bare Selenium load
(issue 28), and pages per minute at 1, 2 and 4 concurrent crawls.

The page, ``https://tagheavy.example/``, has GA4 through gtag.js, Meta's base
code with a PageView and TikTok's base code (the vendors' own snippets, served
by the offline fixture web); no banner, no late tags.

Production settings: gunicorn (gthread), private targets refused (the Fetch
guard and the owned egress proxy on), the fixture web reached by the
operator's host mapping (``--host-resolver-rules``), crawls stored in a
throw-away PostgreSQL with fsync and synchronous commit on.

1. ``side``: round-robin, in one run, ``--rounds`` warm crawls each:
   - bare Selenium: ``driver.get``, then 500 ms with no new resource entry
     (a PerformanceObserver), then ``get_cookies`` (same Chrome, same switches);
   - tagcrawl: ``POST /api/v1`` (1 worker x 1 thread), with its
     ``Server-Timing`` phases;
   - each ``--variant NAME:K=V,...``: tagcrawl with other settings, e.g.
     ``guard-all:TAGCRAWL_FETCH_GUARD=all`` (the breakdown, docs/benchmarks.md).
   Goal: tagcrawl median <= 1.5x bare median.
2. ``concurrency``: pages per minute with 1, 2 and 4 concurrent clients on one
   worker with as many threads (one browser per thread), and the RSS per
   browser (worker + Chrome process tree / browsers).

Run: ``.venv/bin/python -m bench.tag_heavy [--rounds 20] [--only side|concurrency]``.
Prints Markdown; writes bench/results/tag_heavy-*.json.  Extra ``--env K=V``
pairs go to the service (e.g. ``--env TAGCRAWL_FETCH_GUARD=all`` for the
before figure).
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil

from bench.real_pages import _bare_driver, bare_load
from tests.support.gunicorn_server import Gunicorn
from tests.support.pgserver import PgServer
from tests.support.web.server import FixtureWeb

PAGE = "https://tagheavy.example/"


def _server(pg: PgServer, web: FixtureWeb, workdir: str, threads: int, env: dict) -> tuple[Gunicorn, str]:
    database = pg.create_database(f"bench_{uuid.uuid4().hex[:12]}").replace("+psycopg2", "")
    base = {"DATABASE_URL": database, "TAGCRAWL_RUNTIME_DIR": workdir, "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "false",
            "TAGCRAWL_POOL_SIZE": str(threads),
            "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in web.chrome_args())}
    server = Gunicorn({**base, **env}, workers=1, threads=threads)
    server.flask("db", "upgrade")
    key = server.flask("keys", "create", "bench").strip().splitlines()[-1]
    return server.start(), key


def _crawl(server: Gunicorn, key: str) -> tuple[float, dict]:
    """One crawl through the API: (wall ms, Server-Timing phases in ms)."""
    body = json.dumps({"url": PAGE, "session_id": None}).encode()
    request = urllib.request.Request(server.base + "/api/v1", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "x-api-key": key})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as resp:
        report = json.load(resp)
        timing = resp.headers.get("Server-Timing", "")
    wall = (time.perf_counter() - started) * 1000
    assert report["success"] and len(report["marketingPixels"]) >= 3, report
    phases = {}
    for part in timing.split(","):
        name, _, rest = part.strip().partition(";dur=")
        if rest:
            phases[name] = float(rest.split(";")[0])
    return wall, phases


def side_by_side(pg, web, workdir, rounds: int, variants: dict[str, dict]) -> dict:
    """Round-robin in one run: a bare Selenium load, then one crawl on each
    variant's service (``name -> extra env``), ``rounds`` times."""
    servers = {name: _server(pg, web, workdir, 1, env) for name, env in variants.items()}
    driver = _bare_driver(web)
    try:
        def bare() -> float:
            return bare_load(driver, PAGE)

        bare()
        for server, key in servers.values():  # warm-up: every browser started, caches alike
            _crawl(server, key), _crawl(server, key)
        bare_ms: list[float] = []
        ours: dict[str, list] = {name: [] for name in servers}
        for _ in range(rounds):
            bare_ms.append(bare())
            for name, (server, key) in servers.items():
                ours[name].append(_crawl(server, key))
    finally:
        driver.quit()
        for server, _key in servers.values():
            server.stop()
    result = {"bare_selenium_ms": round(statistics.median(bare_ms)), "rounds": rounds, "variants": {}}
    for name, samples in ours.items():
        phases = [p for _w, p in samples]
        names = sorted({k for p in phases for k in p})
        median = round(statistics.median(w for w, _p in samples))
        result["variants"][name] = {
            "env": variants[name], "tagcrawl_ms": median, "ratio": round(median / result["bare_selenium_ms"], 2),
            "phases_ms": {k: round(statistics.median(p.get(k, 0) for p in phases)) for k in names}}
    return result


def _tree_rss(server: Gunicorn) -> tuple[int, int]:
    """(RSS bytes of the worker and its process tree, Chrome browser processes in it)."""
    worker = psutil.Process(server.proc.pid).children()[0]
    rss, browsers = 0, 0
    for p in [worker] + worker.children(recursive=True):
        try:  # a process may exit (or be a zombie) meanwhile: not counted
            name, rss_p, cmd = p.name(), p.memory_info().rss, " ".join(p.cmdline()[:40])
        except psutil.Error:
            continue
        rss += rss_p
        browsers += "chrom" in name and "--type=" not in cmd and "driver" not in name
    return rss, browsers


def concurrency(pg, web, workdir, clients: int, crawls: int, env: dict) -> dict:
    server, key = _server(pg, web, workdir, clients, env)
    try:
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(lambda _: _crawl(server, key), range(clients * 2)))  # every browser started
            started = time.perf_counter()
            list(pool.map(lambda _: _crawl(server, key), range(crawls)))
            elapsed = time.perf_counter() - started
        rss, browsers = _tree_rss(server)
    finally:
        server.stop()
    return {"clients": clients, "pages_per_min": round(crawls / elapsed * 60, 1),
            "rss_mb": round(rss / 2**20), "browsers": browsers,
            "rss_per_browser_mb": round(rss / 2**20 / max(1, browsers))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--crawls", type=int, default=24, help="crawls per concurrency level")
    parser.add_argument("--levels", default="1,2,4")
    parser.add_argument("--only", choices=["side", "concurrency"], default=None)
    parser.add_argument("--env", action="append", default=[], help="K=V for the service")
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME:K=V,K=V: one more service crawled in the same rounds (side by side)")
    args = parser.parse_args()
    env = dict(pair.split("=", 1) for pair in args.env)
    variants = {"tagcrawl": env}
    for spec in args.variant:
        name, _, pairs = spec.partition(":")
        variants[name] = {**env, **dict(p.split("=", 1) for p in pairs.split(",") if p)}
    pg = PgServer(durable=True).start()
    print("PostgreSQL", pg.durability(), "load", [round(x, 1) for x in psutil.getloadavg()], flush=True)
    web = FixtureWeb().start()
    workdir = tempfile.mkdtemp(prefix="tagcrawl-bench-")
    results: dict = {"load_before": [round(x, 1) for x in psutil.getloadavg()]}
    try:
        if args.only in (None, "side"):
            results["side"] = side = side_by_side(pg, web, workdir, args.rounds, variants)
            print(f"\n| | median (ms) | ratio | phases (median ms) |\n|---|---|---|---|\n"
                  f"| bare Selenium | {side['bare_selenium_ms']} | 1 | |")
            for name, row in side["variants"].items():
                phases = " ".join(f"{k}={v}" for k, v in row["phases_ms"].items() if v)
                print(f"| {name} {row['env'] or ''} | {row['tagcrawl_ms']} | **{row['ratio']}x** | {phases} |")
        if args.only in (None, "concurrency"):
            rows = []
            for c in args.levels.split(","):
                rows.append(concurrency(pg, web, workdir, int(c), args.crawls, env))
                print(rows[-1], "load", [round(x, 1) for x in psutil.getloadavg()], flush=True)
            results["concurrency"] = rows
            print("\n| concurrent crawls | pages/min | RSS (MB) | browsers | RSS per browser (MB) |\n|---|---|---|---|---|")
            for r in rows:
                print(f"| {r['clients']} | {r['pages_per_min']} | {r['rss_mb']} | {r['browsers']} | "
                      f"{r['rss_per_browser_mb']} |")
    finally:
        web.stop()
        pg.destroy()
    results["load_after"] = [round(x, 1) for x in psutil.getloadavg()]
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / f"tag_heavy-{args.only or 'all'}.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
