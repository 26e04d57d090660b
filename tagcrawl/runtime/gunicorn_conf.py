"""gunicorn settings for tagcrawl (``gunicorn -c python:tagcrawl.runtime.gunicorn_conf wsgi:app``).

gthread workers (not gevent: Selenium and Chrome need real threads).  Each
worker owns a browser pool created lazily after fork; ``worker_exit`` quits
it, and the master's ``child_exit`` kills what a SIGKILLed worker left.
The crawl deadline (``TAGCRAWL_CRAWL_TIMEOUT_S``) stays below ``timeout``.
"""
import os

from tagcrawl.core.settings import Settings

_settings = Settings.from_env()  # the app's own defaults: threads and crawl deadline are written once
bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = _settings.gunicorn_threads
os.environ.setdefault("GUNICORN_THREADS", str(threads))
_crawl_timeout = _settings.crawl_timeout_s
timeout = int(os.environ.get("GUNICORN_TIMEOUT", str(int(_crawl_timeout) + 15)))
graceful_timeout = 30
# Slow clients (docs/security.md, "Slow clients"): the supported deployment is behind a
# buffering proxy (PaaS router, nginx), which hands gunicorn complete requests.  What a
# client can hold here directly: an idle kept-alive connection for ``keepalive`` seconds;
# at most ``worker_connections`` connections per worker (the rest wait in the backlog);
# request heads within gunicorn's limits (line 4,094 bytes, 100 fields of 8,190 bytes:
# past them 414/431, answered as JSON, gunicorn_errors.py).
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", str(max(threads * 25, 50))))
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
backlog = 256
# Recycling is a safety net against slow leaks (Chrome itself is recycled by
# the browser pool after ``max_crawls``).  A worker start costs about 1 s of
# CPU (imports and warm-up: 0.8 s on an idle core), and gunicorn counts every
# request alike, so the limit must be far above what stream events reach: a
# worker stored ~2,500 events/s on 2 vCPUs with fsync off, ~850/s durably
# (bench/stream_throughput.py).  At 1,000 requests it restarted every second
# and the service lost two thirds of its capacity; at 50,000 every ~20 s, and
# the bench rounds that fell on a restart were halved.  At 1,000,000 it
# restarts every ~7 to ~20 minutes at full event load, and after a million
# crawls otherwise.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "50000"))
accesslog = "-"
# Never log query strings or bodies with secrets: the access log has method, path, status, time.
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms'

if _crawl_timeout >= timeout:
    raise RuntimeError("TAGCRAWL_CRAWL_TIMEOUT_S must stay below gunicorn's timeout")


def post_worker_init(worker):
    """Start the job queue's worker (audits, webhook crawls, webhook deliveries: core/queue.py) in
    the new worker, so crawls queued or interrupted before a restart are picked up at once,
    unless a separate worker process runs them (``TAGCRAWL_BACKGROUND=process``:
    the Procfile's ``worker:``); load the ingestion path's lazy parts before the
    first event arrives; answer gunicorn's own errors as JSON."""
    from tagcrawl.runtime import gunicorn_errors
    from tagcrawl.core.settings import settings_of
    from tagcrawl.runtime.warmup import warm_up

    gunicorn_errors.install()  # gunicorn's own 400/414/431 answers as JSON
    if settings_of(worker.wsgi).background == "threads":
        from tagcrawl.audit.runner import ensure_worker

        ensure_worker(worker.wsgi)  # the job queue (tagcrawl/core/queue.py)
    worker.log.debug("ingestion path warmed up in %.0f ms", warm_up())


def worker_exit(server, worker):
    """Stop the job queue's worker and quit every Chrome this worker started."""
    from tagcrawl.audit.runner import stop_worker
    from tagcrawl.engine.chrome.pool import shutdown_pools

    stop_worker()
    shutdown_pools()


def child_exit(server, worker):
    """Master side: kill the browsers of a worker that died without clean-up (SIGKILL)."""
    from tagcrawl.engine.chrome.pool import kill_recorded_browsers

    killed = kill_recorded_browsers(worker.pid)
    if killed:
        server.log.warning("killed %d orphan browser group(s) of worker %s", killed, worker.pid)
