"""Crawl benchmarks through the HTTP API (gunicorn, real Chrome, offline fixture web).

Measures, on a page that is quiet at about 300 ms:
- latency, warm pool: median and p95 over N crawls;
- latency with a cold driver per crawl (TAGCRAWL_DRIVER_MAX_CRAWLS=1) and the ratio;
- crawls per minute with 1 and 4 concurrent clients (2 workers x 2 threads);
- worker RSS (Python + its Chrome processes) after 10 and after 200 crawls.

Each server stores its crawls in a throw-away PostgreSQL with production
durability (``PgServer(durable=True)``: fsync and synchronous commit on), as a
deployed service does.

Run: ``.venv/bin/python -m bench.crawl_bench [--crawls 30] [--rss-crawls 200]``.
Results are printed as a Markdown table and written to bench/results/crawl.json.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil

from tests.support.gunicorn_server import Gunicorn
from tests.support.pgserver import PgServer
from tests.support.web.server import FixtureWeb

PAGE = "https://bench.example/"


#: The benchmarks' PostgreSQL (durable), started by main().
PG: PgServer | None = None


def _server(web: FixtureWeb, workdir: str, workers: int, threads: int, **env) -> tuple[Gunicorn, str]:
    database = PG.create_database(f"bench_{uuid.uuid4().hex[:12]}").replace("+psycopg2", "")
    base_env = {"DATABASE_URL": database,
                "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true", "TAGCRAWL_RUNTIME_DIR": workdir,
                "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in web.chrome_args())}
    server = Gunicorn({**base_env, **env}, workers=workers, threads=threads)
    server.flask("db", "upgrade")
    key = server.flask("keys", "create", "bench").strip().splitlines()[-1]
    return server.start(), key


def _crawl(server: Gunicorn, key: str) -> float:
    started = time.perf_counter()
    report = server.post("/api/v1", {"url": PAGE, "session_id": None}, key, timeout_s=120)
    assert report["success"], report
    return (time.perf_counter() - started) * 1000


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def latency(web, workdir, crawls: int, cold: bool) -> dict:
    env = {"TAGCRAWL_DRIVER_MAX_CRAWLS": "1"} if cold else {}
    server, key = _server(web, workdir, 1, 1, **env)
    try:
        _crawl(server, key)  # warm-up: starts the first browser
        samples = [_crawl(server, key) for _ in range(crawls)]
    finally:
        server.stop()
    return {"median_ms": round(statistics.median(samples)), "p95_ms": round(_percentile(samples, 95))}


def throughput(web, workdir, clients: int, crawls: int) -> float:
    server, key = _server(web, workdir, 2, 2)
    try:
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(lambda _: _crawl(server, key), range(clients)))  # warm-up
            started = time.perf_counter()
            list(pool.map(lambda _: _crawl(server, key), range(crawls)))
            elapsed = time.perf_counter() - started
    finally:
        server.stop()
    return round(crawls / elapsed * 60, 1)


def worker_rss(server: Gunicorn) -> int:
    """RSS of the gunicorn worker and every process under it (its Chrome), bytes."""
    worker = psutil.Process(server.proc.pid).children()[0]
    return sum(p.memory_info().rss for p in [worker] + worker.children(recursive=True))


def memory(web, workdir, total: int) -> dict:
    server, key = _server(web, workdir, 1, 1, TAGCRAWL_DRIVER_MAX_CRAWLS="1000")
    try:
        for _ in range(10):
            _crawl(server, key)
        after_10 = worker_rss(server)
        for done in range(10, total):
            _crawl(server, key)
            if done % 50 == 0:
                print(f"  memory: {done}/{total} crawls", flush=True)
        after_n = worker_rss(server)
    finally:
        server.stop()
    return {"rss_after_10_mb": round(after_10 / 2**20, 1), f"rss_after_{total}_mb": round(after_n / 2**20, 1),
            "growth_pct": round((after_n - after_10) / after_10 * 100, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crawls", type=int, default=30)
    parser.add_argument("--throughput-crawls", type=int, default=40)
    parser.add_argument("--rss-crawls", type=int, default=200)
    parser.add_argument("--only", choices=["latency", "throughput", "memory"], default=None)
    args = parser.parse_args()
    global PG
    PG = PgServer(durable=True).start()
    print("PostgreSQL", PG.durability(), flush=True)
    web = FixtureWeb().start()
    workdir = tempfile.mkdtemp(prefix="tagcrawl-bench-")
    results = {}
    if args.only in (None, "latency"):
        results["warm"] = latency(web, workdir, args.crawls, cold=False)
        print("warm", results["warm"], flush=True)
        results["cold"] = latency(web, workdir, args.crawls, cold=True)
        results["cold_over_warm"] = round(results["cold"]["median_ms"] / results["warm"]["median_ms"], 2)
        print("cold", results["cold"], flush=True)
    if args.only in (None, "throughput"):
        results["crawls_per_min"] = {str(c): throughput(web, workdir, c, args.throughput_crawls) for c in (1, 4)}
        print("throughput", results["crawls_per_min"], flush=True)
    if args.only in (None, "memory"):
        results["memory"] = memory(web, workdir, args.rss_crawls)
    web.stop()
    PG.destroy()
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / f"crawl-{args.only or 'all'}.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
