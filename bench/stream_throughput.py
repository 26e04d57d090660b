"""Stream ingestion throughput: ``POST /stream/api/v1`` against a trivial endpoint.

One run: start a throw-away PostgreSQL (``tests/support/pgserver.py``), migrate it,
issue a token, start gunicorn with ``tagcrawl/runtime/gunicorn_conf.py`` (gthread,
same worker settings) serving ``bench/stream_bench_app.py``, then drive it
with wrk (Debian package ``wrk``):

1. warm-up of both endpoints (not counted);
2. ``--rounds`` rounds of ``--duration`` seconds each, alternating
   ``POST /bench/trivial`` (parses the JSON, answers 204: the baseline),
   ``POST /bench/store`` (parses the JSON, stores a ready-made row through
   group commit: the cost of storing alone, a ceiling for any stream
   endpoint), ``POST /bench/checks`` (every check of the stream endpoint and
   the row built, not stored) and ``POST /stream/api/v1`` (the real endpoint,
   PostgreSQL behind it), so a change in background load hits all alike (see
   ``stream_bench_app.py``); medians are reported, with the CPU time that
   gunicorn and PostgreSQL spent per request, and the CPU time the
   hypervisor took from the VM (steal) during each round;
3. an accounting run on an emptied table: wrk posts events for
   ``--duration`` seconds, then for 5 s only ``GET /`` (health), so no event
   request is cut off when wrk stops; then ``count(rows) == count(204
   answers)`` must hold exactly, both as wrk counted them and as gunicorn's
   access log did.

    python bench/stream_throughput.py [--duration 15] [--rounds 5] [--connections 32]

Exit status 1 when the accounting fails (rows != 204 answers sent, or an
answer lost without a socket error to explain it).  Needs wrk and the PostgreSQL server
binaries.  Set GUNICORN_MAX_REQUESTS=0 to measure without worker recycling.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.support.pgserver import PgServer  # noqa: E402

ORIGIN = "https://shop.example.com"
UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"

LUA_COMMON = r"""
wrk.method = "POST"
wrk.body = %(body)s
wrk.headers["Content-Type"] = "text/plain;charset=UTF-8"
wrk.headers["Origin"] = "%(origin)s"
wrk.headers["User-Agent"] = "%(ua)s"

local threads = {}
function setup(thread) table.insert(threads, thread) end

local function total(name)
  local n = 0
  for _, t in ipairs(threads) do n = n + (t:get(name) or 0) end
  return n
end

function response(status, headers, body)
  if status == 204 then ok = ok + 1 elseif status == 200 then health = health + 1 else other = other + 1 end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "duration_us": %%d, "n204": %%d, "other": %%d, "health": %%d, ' ..
    '"p50_us": %%d, "p99_us": %%d, "errors": %%d}\n',
    summary.requests, summary.duration, total("ok"), total("other"), total("health"),
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout))
end
"""

#: The endpoints of a timed round, in the order they run.
ENDPOINTS = {"trivial": "/bench/trivial", "store": "/bench/store", "checks": "/bench/checks",
             "stream": "/stream/api/v1"}
LABELS = {"trivial": "POST /bench/trivial (parse JSON, 204)",
          "store": "POST /bench/store (parse JSON, group-commit a ready row)",
          "checks": "POST /bench/checks (stream checks, not stored)",
          "stream": "POST /stream/api/v1"}

#: Fixed request (the standard wrk mode) for the timed rounds.
LUA_TIMED = LUA_COMMON + r"""
function init(args) ok = 0; other = 0; health = 0 end
"""

#: Accounting: event requests until the cutoff, then health checks only.
LUA_ACCOUNTING = LUA_COMMON + r"""
local event_req, health_req
function init(args)
  ok = 0; other = 0; health = 0
  cutoff = os.time() + tonumber(args[1])
  event_req = wrk.format()
  health_req = wrk.format("GET", "/", {["Host"] = wrk.headers["Host"]}, "")
end
function request()
  if os.time() < cutoff then return event_req end
  return health_req
end
"""


def event_body(token: str) -> str:
    """A realistic event as the tag sends it (~700 bytes)."""
    return json.dumps({
        "t": token, "vn": "Facebook Pixel", "e": "Purchase", "dm": "gtm", "mv": "1.4.2", "sv": "2024.05.01",
        "tm": time.time() * 1000, "m": "GET", "vu": "https://www.facebook.com/tr/?id=1234567890123456&ev=Purchase",
        "u": "https://www.shop.example.com/checkout/done?order=9", "p": "/checkout/done",
        "dt": [{"value": 42.5, "currency": "EUR", "content_ids": ["sku-1", "sku-2"]}],
        "np": [{"debug": "x"}], "s": "gtm-template", "rl": 20240501, "env": "production", "do": "GTM-ABC123",
        "et": 37, "vid": "evt-123", "cn": "C0001:1,C0002:0", "sid": str(uuid.uuid4()), "cid": "customer-77",
    })


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, timeout: float = 300.0) -> None:
    """Wait until ``GET /`` answers 200 on 20 fresh connections in a row.

    gunicorn listens before its workers have imported the app (seconds on a
    busy machine); fresh connections land on any worker.
    """
    import http.client

    deadline, streak = time.monotonic() + timeout, 0
    while streak < 20:
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn on port {port} not ready after {timeout:.0f}s")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/")
            streak = streak + 1 if conn.getresponse().status == 200 else 0
            conn.close()
        except OSError:
            streak = 0
            time.sleep(0.2)  # bench only: polling for the workers to come up


def cpu_seconds(pid: int) -> float:
    """CPU time of a process tree: itself, its reaped children, its live children."""
    proc = psutil.Process(pid)
    t = proc.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for child in proc.children(recursive=True):
        try:
            c = child.cpu_times()
            total += c.user + c.system
        except psutil.NoSuchProcess:
            pass
    return total


def run_wrk(url: str, lua_path: str, duration: int, args, *script_args: str) -> dict:
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{duration}s", "--timeout", "30s",
           "-s", lua_path, url]
    if script_args:
        cmd += ["--", *script_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"wrk failed ({proc.returncode}): {proc.stdout}{proc.stderr}")
    line = next(line for line in proc.stdout.splitlines() if line.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    return result


def steal_share(before, after) -> float:
    """Share of the machine's CPU time that the hypervisor took (``steal``), between two ``cpu_times()``."""
    total = sum(after) - sum(before)
    return (after.steal - before.steal) / total if total > 0 else 0.0


def measured(url: str, lua_path: str, duration: int, args, pids: dict) -> dict:
    """A timed wrk run plus the CPU ms per request of each process tree in ``pids``."""
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    machine = psutil.cpu_times()
    result = run_wrk(url, lua_path, duration, args)
    result["steal"] = steal_share(machine, psutil.cpu_times())
    for name, pid in pids.items():
        result[f"cpu_{name}_ms"] = (cpu_seconds(pid) - before[name]) * 1000 / max(result["requests"], 1)
    return result


def prepare_database(url: str) -> str:
    """Migrate, issue a token for acme (shop.example.com); returns the token."""
    from flask_migrate import upgrade

    from tagcrawl import create_app
    from tagcrawl.core.extensions import db
    from tagcrawl.stream.tenants import issue_token

    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        token = issue_token("acme", ["shop.example.com", "*.shop.example.com"]).token
        db.engine.dispose()
    return token


def sql(url: str, statement: str):
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        result = conn.exec_driver_sql(statement)
        value = result.scalar_one() if result.returns_rows else None
    engine.dispose()
    return value


def wait_quiet(url: str) -> int:
    """Row count once it stopped changing (requests cut off by wrk may still commit)."""
    last = -1
    while True:
        count = sql(url, "select count(*) from stream_events")
        if count == last:
            return count
        last = count
        time.sleep(1.0)  # bench only


#: Transactions committed in the bench database (each batch is one; the few
#: token lookups and this query itself add a handful).
COMMITS = "select xact_commit from pg_stat_database where datname = current_database()"


def postmaster_pid(pg: PgServer) -> int:
    with open(os.path.join(pg.data, "postmaster.pid")) as fh:
        return int(fh.readline())


def report(args, rounds: list[dict], accounting: dict, rows: int) -> bool:
    def med(key: str, which: str) -> float:
        return statistics.median(r[which][key] for r in rounds)

    def ratios(which: str) -> list[float]:
        return [r[which]["rps"] / r["trivial"]["rps"] for r in rounds]

    workers = os.environ.get("WEB_CONCURRENCY", "2")
    threads = os.environ.get("GUNICORN_THREADS", "4")
    max_req = os.environ.get("GUNICORN_MAX_REQUESTS", "1000000")
    print(f"\nwrk -t{args.threads} -c{args.connections}, {args.rounds} rounds x {args.duration}s per endpoint; "
          f"gunicorn gthread {workers} workers x {threads} threads, max_requests {max_req}; "
          f"{os.cpu_count()} CPUs, load average before {args.load_before:.1f}, niceness {args.nice}; "
          f"PostgreSQL {args.durability}\n")
    print("| endpoint | requests/s (median) | p50 ms | p99 ms | CPU ms/request gunicorn | CPU ms/request PostgreSQL "
          "| non-204 |")
    print("|---|---|---|---|---|---|---|")
    for which, name in LABELS.items():
        print(f"| {name} | {med('rps', which):.0f} | {med('p50_us', which) / 1000:.1f} | "
              f"{med('p99_us', which) / 1000:.1f} | {med('cpu_gunicorn_ms', which):.2f} | "
              f"{med('cpu_postgres_ms', which):.2f} | {sum(r[which]['other'] for r in rounds)} |")
    print()
    for which in ("store", "checks", "stream"):
        print(f"{which} / trivial requests/s per round: {', '.join(f'{x:.0%}' for x in ratios(which))}; "
              f"median {statistics.median(ratios(which)):.0%}" + (" (goal >= 70%)" if which == "stream" else ""))
    steal = [max(r[which]["steal"] for which in ENDPOINTS) for r in rounds]
    print(f"CPU taken by the hypervisor (steal), highest of each round: {', '.join(f'{x:.0%}' for x in steal)}")
    server_exact = rows == accounting["server_204"] and accounting["other"] == 0
    lost = accounting["server_204"] - accounting["n204"]  # sent by gunicorn, never read by wrk
    exact = server_exact and 0 <= lost <= accounting["errors"]
    print(f"accounting run ({args.duration}s of events, then 5s of health checks so none is cut off): "
          f"rows stored {rows}; 204 answers in gunicorn's access log {accounting['server_204']}; "
          f"204 answers read by wrk {accounting['n204']}; other answers {accounting['other']}; "
          f"wrk socket errors {accounting['errors']}")
    if accounting["commits"] > 0:
        print(f"rows per committed transaction (batch size) in the accounting run: "
              f"{rows / accounting['commits']:.1f}")
    if not server_exact:
        print("MISMATCH: rows stored != 204 answers sent")
    elif lost:
        print(f"rows == 204s sent, exactly; {lost} of those answers were lost on the way to wrk, each with a "
              f"connection reset (a gunicorn worker recycled by max_requests closed its keep-alive "
              f"connections while wrk's next request was in them)" if exact else "MISMATCH: answers lost")
    else:
        print("rows == 204s exactly (sent and received)")
    return exact


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=15, help="seconds per endpoint and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--warmup", type=int, default=5, help="seconds of warm-up per endpoint")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the bench (PostgreSQL, gunicorn, wrk) at this niceness, e.g. -10 as root, "
                             "to keep other load on a shared machine from skewing the figures")
    args = parser.parse_args()
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # inherited by every process started below
    if not shutil.which("wrk"):
        sys.exit("wrk not found: apt-get install wrk")
    args.load_before = os.getloadavg()[0]

    pg = PgServer(durable=True).start()  # production durability: fsync and synchronous commit on
    args.durability = pg.durability()
    gunicorn = None
    work = tempfile.mkdtemp(prefix="tagcrawl-bench-")
    try:
        db_url = pg.create_database("tagcrawl_bench")
        token = prepare_database(db_url)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": db_url, "PORT": str(port), "PYTHONPATH": ROOT,
               "TAGCRAWL_LOG_LEVEL": "WARNING"}
        # Every event of the bench comes from one token and one IP: keep the
        # per-visitor rate limit (tagcrawl/web/ratelimits.py) in the path, but too high to refuse any.
        env.setdefault("TAGCRAWL_RATELIMIT_STREAM", "100000000/minute")
        log_path = os.path.join(work, "gunicorn.log")
        log = open(log_path, "w")
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:tagcrawl.runtime.gunicorn_conf", "--chdir", ROOT,
             "--pythonpath", os.path.join(ROOT, "bench"), "stream_bench_app:app"],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        wait_ready(port)
        scripts = {}
        for name, lua in (("timed", LUA_TIMED), ("accounting", LUA_ACCOUNTING)):
            scripts[name] = os.path.join(work, f"{name}.lua")
            with open(scripts[name], "w") as fh:
                fh.write(lua % {"body": json.dumps(event_body(token)), "origin": ORIGIN, "ua": UA})
        base = f"http://127.0.0.1:{port}"
        pids = {"gunicorn": gunicorn.pid, "postgres": postmaster_pid(pg)}
        for path in ENDPOINTS.values():
            run_wrk(base + path, scripts["timed"], args.warmup, args)
        rounds = []
        for i in range(args.rounds):
            results = {name: measured(base + path, scripts["timed"], args.duration, args, pids)
                       for name, path in ENDPOINTS.items()}
            print(f"round {i + 1}: " + ", ".join(f"{name} {r['rps']:.0f}/s (steal {r['steal']:.0%})"
                                                 for name, r in results.items()), file=sys.stderr)
            rounds.append(results)
        wait_quiet(db_url)
        sql(db_url, "truncate stream_events")
        log.flush()
        log_offset = os.path.getsize(log_path)
        commits = sql(db_url, COMMITS)
        accounting = run_wrk(base + "/stream/api/v1", scripts["accounting"], args.duration + 5, args,
                             str(args.duration))
        gunicorn.send_signal(signal.SIGTERM)  # graceful: in-flight requests finish
        gunicorn.wait(60)
        gunicorn = None
        time.sleep(1.0)  # bench only: let the closed backends flush their statistics
        accounting["commits"] = sql(db_url, COMMITS) - commits - 1
        rows = sql(db_url, "select count(*) from stream_events")
        with open(log_path) as fh:
            fh.seek(log_offset)
            accounting["server_204"] = sum('"POST /stream/api/v1" 204' in line for line in fh)
    finally:
        if gunicorn is not None:
            gunicorn.kill()
        pg.destroy()
        shutil.rmtree(work, ignore_errors=True)
    return 0 if report(args, rounds, accounting, rows) else 1


if __name__ == "__main__":
    sys.exit(main())
