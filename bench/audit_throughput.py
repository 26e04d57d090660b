"""Site audit throughput (issue 29): pages per hour for a generated fixture site, one consent scenario.

The site is ``http://site-<N>.example/`` (tests/support/web/audit_site.py, default N = 500: a sitemap
index with a gzip sitemap, robots.txt, links deeper than the sitemap, the fixture OneTrust banner,
GA4 and Meta's base code on every page, the planted defects).  Production settings:

- PostgreSQL with fsync and synchronous commit on (``PgServer(durable=True)``), the procrastinate queue on it;
- private targets refused (the Fetch guard and the owned egress proxy on), the fixture web reached by the
  operator's host mapping (``--host-resolver-rules`` in ``TAGCRAWL_CHROME_ARGS``);
- ``flask --app wsgi audit run URL --consent SCENARIO`` (the CLI: stores the audit, runs the queue's worker
  in its process with ``TAGCRAWL_POOL_SIZE`` browsers), plus ``--workers K`` more ``flask worker``
  processes with as many browsers each;
- ``--grid``: the browsers are sessions of a Selenium Grid with 2 nodes on this machine
  (``WEBDRIVER_URL``; tests/browser/test_audit_grid.py's ``TwoNodeGrid``, ``--grid-sessions`` per node).

Pages per hour = pages finished (done + failed) x 3600 / (audit finished_at - started_at), from the audit's
own timestamps, so discovery (robots.txt, sitemaps) is inside the figure and the process start is not.

Run: ``.venv/bin/python -m bench.audit_throughput [--pages 500] [--pool 2] [--workers 0]
[--consent accept] [--grid]``.  ``cpu``: CPU seconds of the emulated web (this process) and of the
``audit run`` process tree (Python and its Chrome; the extra workers are not in it); with ``--grid``,
``grid_by_process``: the hub's and nodes' trees (Java and the nodes' Chrome).
Prints a Markdown row; writes bench/results/audit_throughput-*.json.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import tempfile
import time
import uuid
from pathlib import Path

import psutil

from tests.support.pgserver import PgServer
from tests.support.web.server import FixtureWeb

ROOT = Path(__file__).resolve().parents[1]


def _env(pg: PgServer, web: FixtureWeb, args, workdir: str, grid_url: str | None) -> dict:
    database = pg.create_database(f"audit_{uuid.uuid4().hex[:12]}").replace("+psycopg2", "")
    env = dict(os.environ, PYTHONPATH=str(ROOT), DATABASE_URL=database, TAGCRAWL_RUNTIME_DIR=workdir,
               TAGCRAWL_ALLOW_PRIVATE_TARGETS="false", TAGCRAWL_POOL_SIZE=str(args.pool),
               TAGCRAWL_AUDIT_HOST_CONCURRENCY=str(args.host_slots), TAGCRAWL_AUDIT_MAX_PAGES=str(args.pages * 2),
               TAGCRAWL_CHROME_ARGS=" ".join(f"'{a}'" for a in web.chrome_args()))
    if grid_url:
        env["TAGCRAWL_WEBDRIVER_URL"] = grid_url
    return env


def _flask(env: dict, *argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *argv], env=env, cwd=ROOT, **kw)


def _kind(proc: psutil.Process) -> str:
    """A process's role: python, chromedriver, chrome-<type> (renderer, gpu-process, utility...), other."""
    name = proc.name()
    if "python" in name:
        return "python"
    if "chromedriver" in name:
        return "chromedriver"
    if "chrom" in name:
        kind = next((a.split("=", 1)[1] for a in proc.cmdline() if a.startswith("--type=")), "browser")
        return f"chrome-{kind}"
    return name


class CpuSampler(threading.Thread):
    """Samples the CPU seconds of every process under ``pid`` each 0.5 s (the last sample of a process
    that exits counts; up to 0.5 s of a short-lived process is lost).  ``by_kind()``: seconds per role."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.root, self.seen, self.stop_event = pid, {}, threading.Event()

    def run(self) -> None:
        while not self.stop_event.wait(0.5):
            try:
                root = psutil.Process(self.root)
                procs = [root] + root.children(recursive=True)
            except psutil.Error:
                return
            for proc in procs:
                try:
                    times = proc.cpu_times()
                    self.seen[proc.pid] = (_kind(proc), times.user + times.system)
                except psutil.Error:
                    continue

    def by_kind(self) -> dict:
        self.stop_event.set()
        totals: dict[str, float] = {}
        for kind, seconds in self.seen.values():
            totals[kind] = round(totals.get(kind, 0) + seconds, 1)
        return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def _pg_counters(pg: PgServer, database: str) -> dict:
    """The cluster's WAL position (bytes) and the database's commits, rows inserted/updated/fetched
    (``pg_stat_database``, flushed by the backends when they end)."""
    import psycopg2

    conn = psycopg2.connect(pg.url().replace("+psycopg2", ""))
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")
            wal = int(cur.fetchone()[0])
            cur.execute("SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, tup_fetched "
                        "FROM pg_stat_database WHERE datname = %s", (database,))
            commits, inserted, updated, deleted, fetched = cur.fetchone()
    finally:
        conn.close()
    return {"wal_bytes": wal, "commits": commits, "rows_inserted": inserted, "rows_updated": updated,
            "rows_deleted": deleted, "rows_fetched": fetched}


def _postmaster(pg: PgServer) -> int:
    with open(os.path.join(pg.data, "postmaster.pid")) as handle:
        return int(handle.readline())


def _merge(parts) -> dict:
    totals: dict[str, float] = {}
    for part in parts:
        for kind, seconds in part.items():
            totals[kind] = round(totals.get(kind, 0) + seconds, 1)
    return totals


def _cpu(usage) -> float:
    return usage.ru_utime + usage.ru_stime


def _audit_times(report_file: Path) -> dict:
    """Pages and seconds from the report the CLI wrote (``timing`` and ``counts``)."""
    report = json.loads(report_file.read_text())
    counts, timing = report["counts"], report["timing"]
    return {"counts": counts, "timing": timing, "status": report["status"]}


def run(args) -> dict:
    pg = PgServer(durable=True).start()
    web = FixtureWeb().start()
    grid = None
    workdir = tempfile.mkdtemp(prefix="tagcrawl-audit-bench-")
    workers: list[subprocess.Popen] = []
    try:
        if args.grid:
            from tests.browser.test_audit_grid import TwoNodeGrid
            from tests.browser.test_audit_queue import wait_for
            from tests.browser.test_remote_grid import find_jar

            grid = TwoNodeGrid(find_jar(), sessions=args.grid_sessions)
            assert wait_for(lambda: len([n for n in grid.status()["nodes"]
                                         if n.get("availability") == "UP"]) == 2, 120), "Grid nodes"
        env = _env(pg, web, args, workdir, grid.url if grid else None)
        _flask(env, "db", "upgrade", check=True, capture_output=True)
        load_before = [round(x, 1) for x in psutil.getloadavg()]
        for _ in range(args.workers):
            workers.append(subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "worker"], env=env,
                                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                            start_new_session=True))
        report_file = Path(workdir) / "report.json"
        url = f"http://site-{args.pages}.example/"
        started, self_before, children_before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF), \
            resource.getrusage(resource.RUSAGE_CHILDREN)
        database = env["DATABASE_URL"].rsplit("/", 1)[1]
        pg_before = _pg_counters(pg, database)
        pg_sampler = CpuSampler(_postmaster(pg))
        pg_sampler.start()
        proc = subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "audit", "run", url, "--consent",
                                 args.consent, "--max-pages", str(args.pages * 2), "--max-depth", "5", "--json",
                                 str(report_file)], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
        sampler = CpuSampler(proc.pid)
        sampler.start()
        grid_samplers = [CpuSampler(node.pid) for node in (grid.procs if grid else [])]
        for node_sampler in grid_samplers:
            node_sampler.start()
        _out, stderr = proc.communicate()
        done = subprocess.CompletedProcess(proc.args, proc.returncode, None, stderr)
        wall = time.perf_counter() - started
        self_after = resource.getrusage(resource.RUSAGE_SELF)
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = {"fixture_web_s": round(_cpu(self_after) - _cpu(self_before), 1),  # the emulated web, in this process
               "audit_process_tree_s": round(_cpu(children_after) - _cpu(children_before), 1),  # flask + Chrome
               "by_process": sampler.by_kind(), "grid_by_process": _merge(s.by_kind() for s in grid_samplers),
               "postgresql_s": round(sum(pg_sampler.by_kind().values()), 1)}
        pg_after = _pg_counters(pg, database)
        cpu["postgresql"] = {k: pg_after[k] - pg_before[k] for k in pg_after}
        if not report_file.exists():
            raise SystemExit(f"audit run exit {done.returncode}: {done.stderr[-2000:]}")
        out = _audit_times(report_file)
        out.update({"cpu": cpu, "exit": done.returncode, "wall_s": round(wall, 1), "load_before": load_before,
                    "load_after": [round(x, 1) for x in psutil.getloadavg()], "pg": pg.durability()})
        return out
    finally:
        for proc in workers:
            proc.terminate()
        for proc in workers:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
        if grid is not None:
            grid.stop()
        web.stop()
        pg.destroy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500, help="the site's size N (18..2000)")
    parser.add_argument("--pool", type=int, default=2, help="browsers per process (TAGCRAWL_POOL_SIZE)")
    parser.add_argument("--workers", type=int, default=0, help="extra `flask worker` processes")
    parser.add_argument("--host-slots", type=int, default=4, help="TAGCRAWL_AUDIT_HOST_CONCURRENCY")
    parser.add_argument("--consent", default="accept", choices=["accept", "reject", "none"])
    parser.add_argument("--grid", action="store_true", help="browsers on a 2-node Selenium Grid")
    parser.add_argument("--grid-sessions", type=int, default=2, help="sessions per Grid node")
    args = parser.parse_args()
    result = run(args)
    counts, timing = result["counts"], result["timing"]
    seconds = timing.get("durationS") or result["wall_s"]
    finished = counts.get("done", 0) + counts.get("failed", 0)
    result["pages_per_hour"] = round(finished * 3600 / seconds) if seconds else None
    result["args"] = vars(args)
    print(json.dumps(result, indent=2))
    print(f"\n| site | consent | browsers | pages (done/failed) | seconds | pages/h | load before/after |\n"
          f"|---|---|---|---|---|---|---|\n"
          f"| site-{args.pages} | {args.consent} | {'Grid 2x' + str(args.grid_sessions) if args.grid else ''}"
          f"{args.pool * (1 + args.workers) if not args.grid else ''} | {counts.get('done')}/{counts.get('failed')} | "
          f"{seconds:.0f} | **{result['pages_per_hour']}** | {result['load_before']} / {result['load_after']} |")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    where = "grid" if args.grid else "local"
    name = f"audit_throughput-{args.pages}-{args.consent}-{where}-p{args.pool}w{args.workers}"
    (out / f"{name}.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
