"""Instance sizing: the memory of a tagcrawl instance with the default settings.

Starts tagcrawl as the Procfile's ``web:`` does (gunicorn with
``tagcrawl.runtime.gunicorn_conf``: 2 workers x 4 threads, one browser per
thread at most, started lazily) on a throw-away PostgreSQL, and the offline
fixture web for the pages.  Measures, per process tree:

1. idle: after start-up, before any crawl;
2. after 3 crawls, one after another (three pages with tags and a consent banner);
3. during 8 crawls at once (every thread of both workers busy: each worker's
   pool grows towards its 4 browsers), the worst case the defaults allow: the
   instance is sampled every 0.5 s while they run, and the sample with the
   largest total PSS is reported (a browser whose crawl missed its deadline is
   killed at once, so the state after the crawls says less).

Memory settings are the defaults; the crawl deadlines are raised
(``DEADLINES``) so that crawls finish on a loaded machine instead of being cut
(a browser whose crawl missed its deadline is killed, which would hide it).

Each gunicorn worker is reported with its browsers: a browser is one
chromedriver and the Chrome tree it started (browser, GPU, network and
renderer processes).  PSS (proportional set size, from
``/proc/<pid>/smaps_rollup`` through psutil) shares each page among the
processes that map it, so PSS adds up across processes; RSS counts shared
pages (Chrome's binary, Python's libraries) once per process and overstates a sum.

Run: ``.venv/bin/python -m bench.instance_memory [--json FILE]``; prints Markdown
tables (docs/deploy.md, "Instance sizing").
"""
from __future__ import annotations

import argparse
import json
import platform
import tempfile
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import psutil

from tests.support.gunicorn_server import Gunicorn
from tests.support.pgserver import PgServer
from tests.support.web.server import FixtureWeb

PAGES = ["https://shop.example/", "https://consent-tcf.example/", "https://sdk-posthog.example/"]
MIB = 2 ** 20
#: gunicorn_conf's defaults (WEB_CONCURRENCY, GUNICORN_THREADS).
WORKERS, THREADS = 2, 4
#: Crawl deadlines (s): long enough for a 2-core machine shared with other work.
DEADLINES = {"TAGCRAWL_CRAWL_TIMEOUT_S": "120", "TAGCRAWL_PAGE_LOAD_TIMEOUT_S": "90"}


def _memory(procs: list[psutil.Process]) -> dict:
    """``{"processes", "rss_mib", "pss_mib"}`` summed over ``procs`` (gone ones skipped)."""
    rss = pss = count = 0
    for proc in procs:
        try:
            info = proc.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        rss, pss, count = rss + info.rss, pss + info.pss, count + 1
    return {"processes": count, "rss_mib": round(rss / MIB, 1), "pss_mib": round(pss / MIB, 1)}


def measure(master_pid: int) -> dict:
    """The instance's memory: master, and each worker with its browsers."""
    master = psutil.Process(master_pid)
    workers = []
    for worker in master.children():
        browsers, others = [], []
        for child in worker.children():
            tree = [child] + child.children(recursive=True)
            (browsers if "chromedriver" in child.name() else others).append(_memory(tree))
        workers.append({"pid": worker.pid, "python": _memory([worker]), "browsers": browsers, "other": others})
    everything = [master] + master.children(recursive=True)
    return {"master": _memory([master]), "workers": workers, "total": _memory(everything)}


def _crawl(server: Gunicorn, key: str, url: str) -> bool:
    """One crawl through the API; True when the page was crawled (``success``)."""
    report = server.post("/api/v1", {"url": url, "session_id": None}, key, timeout_s=300)
    assert report.get("timeTaken") is not None, report
    return bool(report["success"])


def _peak_while(master_pid: int, work) -> tuple[dict, object]:
    """(the largest-PSS sample of the instance taken every 0.5 s while ``work()`` runs, its result)."""
    done, peak = threading.Event(), {"total": {"pss_mib": -1}}

    def sample() -> None:
        nonlocal peak
        while True:
            current = measure(master_pid)
            if current["total"]["pss_mib"] > peak["total"]["pss_mib"]:
                peak = current
            if done.wait(0.5):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = work()
    finally:
        done.set()
        sampler.join()
    return peak, result


def run() -> dict:
    pg = PgServer(durable=True).start()
    web = FixtureWeb().start()
    workdir = tempfile.mkdtemp(prefix="tagcrawl-memory-")
    database = pg.create_database(f"memory_{uuid.uuid4().hex[:12]}").replace("+psycopg2", "")
    server = Gunicorn({"DATABASE_URL": database, "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true",
                       "TAGCRAWL_RUNTIME_DIR": workdir,
                       "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in web.chrome_args()), **DEADLINES},
                      workers=WORKERS, threads=THREADS)
    results = {"machine": f"{platform.machine()}, {psutil.cpu_count()} CPUs, "
                          f"{round(psutil.virtual_memory().total / 2 ** 30, 1)} GiB",
               "settings": f"{WORKERS} workers x {THREADS} threads, POOL_SIZE 0 (one browser per thread)"}
    try:
        server.flask("db", "upgrade")
        key = server.flask("keys", "create", "memory-bench").strip().splitlines()[-1]
        server.start()
        results["idle"] = measure(server.proc.pid)
        results["crawled"] = {"sequential": sum(_crawl(server, key, url) for url in PAGES)}
        results["after_3_crawls"] = measure(server.proc.pid)
        count = WORKERS * THREADS

        def concurrent() -> int:
            with ThreadPoolExecutor(count) as pool:
                return sum(pool.map(lambda i: _crawl(server, key, PAGES[i % len(PAGES)]), range(count)))

        results["peak_during_8_concurrent_crawls"], results["crawled"]["concurrent"] = _peak_while(
            server.proc.pid, concurrent)
        results["after_8_concurrent_crawls"] = measure(server.proc.pid)
    finally:
        server.stop()
        web.stop()
        pg.destroy()
    return results


def markdown(results: dict) -> str:
    """The results as Markdown: one table per phase."""
    lines = [f"Machine: {results['machine']}; {results['settings']}; crawl deadlines raised to "
             f"{DEADLINES['TAGCRAWL_CRAWL_TIMEOUT_S']} s.", ""]
    crawled = results.get("crawled", {})
    lines[0] += (f" Pages crawled successfully: {crawled.get('sequential', 0)} of 3 sequential, "
                 f"{crawled.get('concurrent', 0)} of {WORKERS * THREADS} concurrent.")
    for phase in ("idle", "after_3_crawls", "peak_during_8_concurrent_crawls", "after_8_concurrent_crawls"):
        data = results.get(phase)
        if not data:
            continue
        lines += [f"**{phase.replace('_', ' ')}**", "", "| process | processes | RSS MiB | PSS MiB |",
                  "| --- | ---: | ---: | ---: |"]
        row = lambda name, m: lines.append(  # noqa: E731
            f"| {name} | {m['processes']} | {m['rss_mib']:,} | {m['pss_mib']:,} |")
        row("gunicorn master", data["master"])
        for n, worker in enumerate(data["workers"], 1):
            row(f"worker {n} (Python)", worker["python"])
            for b, browser in enumerate(worker["browsers"], 1):
                row(f"worker {n}, browser {b} (chromedriver + Chrome)", browser)
            for other in worker["other"]:
                row(f"worker {n}, other child", other)
        row("**instance total**", data["total"])
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    results = run()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
    print(markdown(results))


if __name__ == "__main__":
    main()
