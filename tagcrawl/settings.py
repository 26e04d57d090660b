"""Every setting of tagcrawl, read from the environment in one place.

``load_settings(environ)`` returns a dict of Flask config keys.  Values given to
``create_app(config=...)`` override it.  Secrets have no defaults.
"""
from __future__ import annotations

import os
import shlex


def _bool(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _int(value: str | None, default: int) -> int:
    return int(value) if value not in (None, "") else default


def _float(value: str | None, default: float) -> float:
    return float(value) if value not in (None, "") else default


def database_url(raw: str | None, instance_path: str) -> str:
    """Return a SQLAlchemy URL: ``DATABASE_URL`` or SQLite in the instance dir.

    Heroku-style ``postgres://`` and plain ``postgresql://`` URLs are
    rewritten to ``postgresql+psycopg2://``: SQLAlchemy refuses the old scheme
    and (2.1+) defaults to psycopg 3, while tagcrawl ships psycopg2-binary.
    """
    if not raw:
        return "sqlite:///" + os.path.join(instance_path, "tagcrawl.db")
    for scheme in ("postgres://", "postgresql://"):
        if raw.startswith(scheme):
            return "postgresql+psycopg2://" + raw[len(scheme):]
    return raw


def load_settings(environ: dict | None = None) -> dict:
    """Read the ``TAGCRAWL_*`` variables (and ``DATABASE_URL``) into config keys.

    Durations are seconds (``*_S``) or milliseconds (``*_MS``); sizes are bytes.
    """
    env = os.environ if environ is None else environ
    return {
        "DATABASE_URL_RAW": env.get("DATABASE_URL"),
        "CHROME_BINARY": env.get("TAGCRAWL_CHROME_BINARY") or None,
        "CHROMEDRIVER": env.get("TAGCRAWL_CHROMEDRIVER") or None,
        "CHROME_ARGS": shlex.split(env.get("TAGCRAWL_CHROME_ARGS", "")),
        "WEBDRIVER_URL": env.get("TAGCRAWL_WEBDRIVER_URL") or None,
        # Whole-crawl deadline; must stay below gunicorn's timeout (see gunicorn_conf).
        "CRAWL_TIMEOUT_S": _float(env.get("TAGCRAWL_CRAWL_TIMEOUT_S"), 25.0),
        "PAGE_LOAD_TIMEOUT_S": _float(env.get("TAGCRAWL_PAGE_LOAD_TIMEOUT_S"), 15.0),
        # Network-quiet wait: the page is quiet after QUIET_MS without activity,
        # and the wait never lasts longer than QUIET_CAP_MS.
        "QUIET_MS": _int(env.get("TAGCRAWL_QUIET_MS"), 500),
        "QUIET_CAP_MS": _int(env.get("TAGCRAWL_QUIET_CAP_MS"), 8000),
        # A JS timer shorter than this keeps the page "busy" (tags injected late).
        "TIMER_HORIZON_MS": _int(env.get("TAGCRAWL_TIMER_HORIZON_MS"), 4000),
        # How long a late consent banner may take to appear after load.
        "CONSENT_WAIT_MS": _int(env.get("TAGCRAWL_CONSENT_WAIT_MS"), 10000),
        "POOL_SIZE": _int(env.get("TAGCRAWL_POOL_SIZE"), 0),  # 0: one per gunicorn thread
        "DRIVER_MAX_CRAWLS": _int(env.get("TAGCRAWL_DRIVER_MAX_CRAWLS"), 50),
        "ALLOW_PRIVATE_TARGETS": _bool(env.get("TAGCRAWL_ALLOW_PRIVATE_TARGETS"), False),
        "PROXY_URL": env.get("TAGCRAWL_PROXY_URL") or None,
        # Egress proxy (tagcrawl/egress, docs/security.md): unset -> tagcrawl runs its own in each
        # worker, on EGRESS_LISTEN, given to Chrome as EGRESS_HOST; a URL -> a shared one; "off" -> none.
        "EGRESS_PROXY_URL": env.get("TAGCRAWL_EGRESS_PROXY_URL") or None,
        "EGRESS_LISTEN": env.get("TAGCRAWL_EGRESS_LISTEN") or "127.0.0.1",
        "EGRESS_HOST": env.get("TAGCRAWL_EGRESS_HOST") or None,
        "SCREENSHOT_DIR": env.get("TAGCRAWL_SCREENSHOT_DIR") or None,
        "SCREENSHOT_URL": env.get("TAGCRAWL_SCREENSHOT_URL") or None,
        # A hung database must not hang the service (dbtimeouts.py): libpq connect_timeout,
        # PostgreSQL statement_timeout (the client gives a silent server 2 s more, then drops
        # the connection), SQLAlchemy pool_timeout.  0 turns one off.
        "DB_CONNECT_TIMEOUT_S": _int(env.get("TAGCRAWL_DB_CONNECT_TIMEOUT_S"), 3),
        "DB_STATEMENT_TIMEOUT_MS": _int(env.get("TAGCRAWL_DB_STATEMENT_TIMEOUT_MS"), 5000),
        "DB_POOL_TIMEOUT_S": _float(env.get("TAGCRAWL_DB_POOL_TIMEOUT_S"), 5.0),
        "STREAM_MAX_BYTES": _int(env.get("TAGCRAWL_STREAM_MAX_BYTES"), 64 * 1024),
        "CRAWL_MAX_BYTES": _int(env.get("TAGCRAWL_CRAWL_MAX_BYTES"), 256 * 1024),
        # HAR stored with each crawl (docs/har.md): whole document / each request body, bytes
        "HAR_MAX_BYTES": _int(env.get("TAGCRAWL_HAR_MAX_BYTES"), 4 * 1024 * 1024),
        "HAR_BODY_MAX_BYTES": _int(env.get("TAGCRAWL_HAR_BODY_MAX_BYTES"), 64 * 1024),
        "TRUSTED_PROXIES": _int(env.get("TAGCRAWL_TRUSTED_PROXIES"), 0),
        # Stream group commit: a batch is committed at STREAM_BATCH_SIZE rows, or
        # STREAM_BATCH_WAIT_MS after its first row, or as soon as every request
        # thread of the process (GUNICORN_THREADS) waits on it; without company
        # lately (light traffic), a row goes at once (stream/writer.py).
        "STREAM_BATCH_SIZE": _int(env.get("TAGCRAWL_STREAM_BATCH_SIZE"), 100),
        "STREAM_BATCH_WAIT_MS": _int(env.get("TAGCRAWL_STREAM_BATCH_WAIT_MS"), 10),
        # How long a request may wait for the writer to take its row before it
        # gives up with 503 (the row is then never written).
        "STREAM_ACK_TIMEOUT_S": _float(env.get("TAGCRAWL_STREAM_ACK_TIMEOUT_S"), 10.0),
        # Retry-After (seconds) sent with the stream's 503.
        "STREAM_RETRY_AFTER_S": _int(env.get("TAGCRAWL_STREAM_RETRY_AFTER_S"), 5),
        # Token (and whitelist) lookups are cached per process; capped at 60 s.
        "TOKEN_CACHE_S": min(_float(env.get("TAGCRAWL_TOKEN_CACHE_S"), 60.0), 60.0),
        # Webhook crawls: attempts, backoff base (delays 1,3,9,18,30 x base), POST timeout.
        "WEBHOOK_ATTEMPTS": _int(env.get("TAGCRAWL_WEBHOOK_ATTEMPTS"), 6),
        "WEBHOOK_RETRY_BASE_S": _float(env.get("TAGCRAWL_WEBHOOK_RETRY_BASE_S"), 30.0),
        "WEBHOOK_TIMEOUT_S": _float(env.get("TAGCRAWL_WEBHOOK_TIMEOUT_S"), 10.0),
        "BACKGROUND_CRAWLERS": _int(env.get("TAGCRAWL_BACKGROUND_CRAWLERS"), 1),
        "JOB_POLL_S": _float(env.get("TAGCRAWL_JOB_POLL_S"), 5.0),
        "GUNICORN_THREADS": _int(env.get("GUNICORN_THREADS") or env.get("TAGCRAWL_THREADS"), 4),
        # Main-document size cap of a crawl: past it the load is stopped, success false.
        "PAGE_MAX_BYTES": _int(env.get("TAGCRAWL_PAGE_MAX_BYTES"), 10 * 1024 * 1024),
        # Rate limits (ratelimits.py), "N/second|minute|hour|day"; empty turns one off.  Crawl: per
        # API key; stream: per (token, client IP).  Storage: memory:// (per process) or redis://...
        "RATELIMIT_CRAWL": env.get("TAGCRAWL_RATELIMIT_CRAWL", "60/minute"),
        "RATELIMIT_STREAM": env.get("TAGCRAWL_RATELIMIT_STREAM", "6000/minute"),
        "RATELIMIT_STORAGE_URL": env.get("TAGCRAWL_RATELIMIT_STORAGE_URL") or "memory://",
    }
