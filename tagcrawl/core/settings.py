"""Every setting of tagcrawl, typed, with each default written once.

``Settings.from_env(environ)`` reads the ``TAGCRAWL_*`` variables (and
``DATABASE_URL``, ``GUNICORN_THREADS``); ``create_app`` builds one frozen
``Settings`` from the environment plus its ``config`` overrides and stores it in
``app.extensions[SETTINGS_KEY]``.  Code reaches it through ``current_settings()``
(inside a request or app context) or takes it as an argument (the crawl engine,
the browser pool, the writer).  Secrets have no defaults.

Units: ``*_S`` seconds, ``*_MS`` milliseconds, ``*_BYTES`` bytes.
Override keys are the upper-case field names (``CRAWL_TIMEOUT_S``), the same
names Flask's config uses; each field's environment variable is
``TAGCRAWL_`` + that name unless its metadata names another.
"""
from __future__ import annotations

import dataclasses
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

#: Values of ``BACKGROUND`` (``TAGCRAWL_BACKGROUND``).
BACKGROUND_MODES = ("threads", "process")
#: TAGCRAWL_FETCH_GUARD values (docs/security.md, "The Fetch guard").
FETCH_GUARD_MODES = ("auto", "all", "off")

#: ``app.extensions`` key of the app's ``Settings``.
SETTINGS_KEY = "tagcrawl.core.settings"


class ConfigError(ValueError):
    """A setting of the environment tagcrawl cannot use; the message names the
    variable and says what is accepted, in one line (``wsgi.py`` prints it as
    the CLI's only output), and never repeats a secret (a URL's password)."""


def _env(name: str) -> dict:
    return {"env": name}


@dataclass(frozen=True)
class Settings:
    """The service's settings (see the module docstring for units and names)."""

    database_url_raw: str | None = field(default=None, metadata=_env("DATABASE_URL"))
    #: Flask's instance folder: SQLite file and default screenshot folder (set by create_app).
    instance_path: str = field(default=".", metadata=_env(""))
    chrome_binary: str | None = None
    chromedriver: str | None = None
    chrome_args: tuple[str, ...] = ()
    webdriver_url: str | None = None
    #: Whole-crawl deadline; must stay below gunicorn's timeout (see gunicorn_conf).
    crawl_timeout_s: float = 25.0
    #: /health/ready's browser check (binaries answer ``--version``, or the Grid's /status) is
    #: cached per process and configuration for READY_CACHE_S seconds (0: checked every time).
    ready_cache_s: float = 10.0
    page_load_timeout_s: float = 15.0
    #: Network-quiet wait: quiet after QUIET_MS without activity, never longer than QUIET_CAP_MS.
    quiet_ms: int = 500
    quiet_cap_ms: int = 8000
    #: A JS timer shorter than this keeps the page "busy" (tags injected late).
    timer_horizon_ms: int = 4000
    #: Flush (visibilitychange hidden + pagehide before the final collection): the window
    #: ends after FLUSH_START_MS when the events start no request, else FLUSH_QUIET_MS after
    #: the last new request; at most FLUSH_CAP_MS.
    flush_start_ms: int = 50
    flush_quiet_ms: int = 300
    flush_cap_ms: int = 2000
    #: How long a late consent banner may take to appear after load.
    consent_wait_ms: int = 10000
    #: Run DuckDuckGo autoconsent's CMP rules first (docs/consent.md "autoconsent"); off: tagcrawl's own only.
    autoconsent: bool = True
    #: The service's npm data (npm/package.json); unset: ``npm/node_modules`` beside the package.
    npm_dir: str | None = None
    #: Browsers per worker (docs/benchmarks.md); 0: one per gunicorn thread.
    pool_size: int = 2
    driver_max_crawls: int = 50
    allow_private_targets: bool = False
    #: What the Fetch-domain request guard pauses (docs/security.md, "The Fetch guard"): "auto"
    #: documents only when the egress proxy is on (it judges every connection), every request when
    #: it is off; "all" every request; "off" none (the proxy alone; tests and benches).
    fetch_guard: str = "auto"
    proxy_url: str | None = None
    #: Egress proxy (tagcrawl/engine/egress, docs/security.md): unset -> tagcrawl runs its own in each
    #: worker, on EGRESS_LISTEN, given to Chrome as EGRESS_HOST; a URL -> a shared one; "off" -> none.
    egress_proxy_url: str | None = None
    egress_listen: str = "127.0.0.1"
    egress_host: str | None = None
    #: Egress proxy buffers (docs/security.md, "Egress proxy: bounded buffers"): bytes queued per
    #: connection and direction (also the largest plain-http request held whole, else 413); bytes
    #: queued or held by one proxy instance, every crawl of the process (past it the connection
    #: holding most is closed); seconds a connection with bytes pending may move none before it
    #: is closed (well inside CRAWL_TIMEOUT_S, so a crawl's stalled connections end within it).
    egress_conn_buffer_bytes: int = 1024 * 1024
    egress_total_buffer_bytes: int = 64 * 1024 * 1024
    egress_stall_timeout_s: float = 10.0
    screenshot_dir: str | None = None
    screenshot_url: str | None = None
    #: A hung database must not hang the service (dbtimeouts.py): libpq connect_timeout,
    #: PostgreSQL statement_timeout (the client gives a silent server 2 s more, then drops
    #: the connection), SQLAlchemy pool_timeout.  0 turns one off.
    db_connect_timeout_s: int = 3
    db_statement_timeout_ms: int = 5000
    db_pool_timeout_s: float = 5.0
    stream_max_bytes: int = 64 * 1024
    crawl_max_bytes: int = 256 * 1024
    #: HAR stored with each crawl (docs/har.md): whole document / each request body.
    har_max_bytes: int = 4 * 1024 * 1024
    har_body_max_bytes: int = 64 * 1024
    #: Proxies in front of the service that set X-Forwarded-For (werkzeug ProxyFix).
    trusted_proxies: int = 0
    #: Stream group commit: a batch is committed at STREAM_BATCH_SIZE rows, or
    #: STREAM_BATCH_WAIT_MS after its first row, or as soon as every request thread of the
    #: process (GUNICORN_THREADS) waits on it; without company lately, a row goes at once.
    stream_batch_size: int = 100
    stream_batch_wait_ms: int = 10
    #: How long a request may wait for the writer to take its row before it gives up with 503.
    stream_ack_timeout_s: float = 10.0
    #: Retry-After (seconds) sent with the stream's 503.
    stream_retry_after_s: int = 5
    #: Token (and whitelist) lookups are cached per process; capped at 60 s.
    token_cache_s: float = 60.0
    #: Webhook crawls: attempts, backoff base (delays 1,3,9,18,30 x base).  Delivery bounds
    #: (docs/webhooks.md "Webhook delivery: bounded"): WEBHOOK_TIMEOUT_S is the *total* deadline
    #: of one attempt (resolve + connect + send + status line and headers), not a per-read
    #: timeout; at most WEBHOOK_CONCURRENCY POSTs in flight per process, WEBHOOK_PER_KEY of
    #: them for one API key.
    webhook_attempts: int = 6
    webhook_retry_base_s: float = 30.0
    webhook_timeout_s: float = 10.0
    webhook_concurrency: int = 8
    webhook_per_key: int = 2
    background_crawlers: int = 1
    job_poll_s: float = 5.0
    #: Where the job queue (core/queue.py) runs: ``threads``: in each web process, or
    #: ``process``: a ``flask worker`` process (the Procfile's ``worker:``); web processes
    #: then run none (on SQLite they do: its in-memory queue lives there).
    background: str = "threads"
    gunicorn_threads: int = field(default=4, metadata=_env("GUNICORN_THREADS"))
    audit_host_concurrency: int = 2
    audit_host_delay_ms: int = 0
    #: Main-document size cap of a crawl: past it the load is stopped, success false.
    page_max_bytes: int = 10 * 1024 * 1024
    #: Rate limits (ratelimits.py), "N/second|minute|hour|day"; empty turns one off.  Crawl:
    #: per API key; stream: per (token, client IP).  Storage: memory:// or redis://...
    ratelimit_crawl: str = field(default="60/minute", metadata={"empty": True})
    ratelimit_stream: str = field(default="6000/minute", metadata={"empty": True})
    ratelimit_storage_url: str = "memory://"
    #: Python logging level of the service's own loggers.
    log_level: str = "INFO"
    #: Caller input and addresses (docs/security.md, "Caller input: counts before items").
    #: The service's public base URL, ``scheme://host[:port][/prefix]``: screenshot URLs are absolute
    #: with it (``<PUBLIC_URL>/screenshots/<name>``) when SCREENSHOT_URL is unset; unset, they are the
    #: path ``/screenshots/<name>``.  Never taken from the request's Host header (the caller's choice).
    public_url: str | None = None
    # -- Work after the page, and the report's size (docs/security.md, "Work after the deadline,
    # and the report's size").  DECODE_BUDGET_BYTES: request data (URL + body) handed to the body and
    # parameter decoders per crawl; a request that does not fit is matched on its URL's host and path
    # only.  CAPTURE_MAX_BYTES: request data (URL + body) a crawl keeps in memory; past it a request is
    # kept without its body, its URL cut.  REPORT_MAX_BYTES: the CrawlResponse as JSON (answered, stored,
    # sent as webhook payload); larger ones are shrunk (tagcrawl/core/truncation.py: fit).
    decode_budget_bytes: int = 16 * 1024 * 1024
    capture_max_bytes: int = 64 * 1024 * 1024
    report_max_bytes: int = 2 * 1024 * 1024
    #: The service's npm directory (``npm/node_modules`` of the checkout when unset): third-party-web's
    #: entities for ``thirdParties`` (docs/third-parties.md).  GENERIC_BEACONS: report beacons no catalog
    #: entry describes as ``"recognised": "heuristic"`` pixels (tagcrawl/engine/beacons; off for the bench).
    npm_dir: str | None = None
    generic_beacons: bool = True

    def __post_init__(self):
        object.__setattr__(self, "chrome_args", tuple(self.chrome_args or ()))
        object.__setattr__(self, "token_cache_s", min(float(self.token_cache_s), 60.0))
        if self.fetch_guard not in FETCH_GUARD_MODES:
            raise ValueError(f"TAGCRAWL_FETCH_GUARD must be one of {', '.join(FETCH_GUARD_MODES)}, "
                             f"not {self.fetch_guard!r}")
        if self.background not in BACKGROUND_MODES:
            raise ValueError(f"TAGCRAWL_BACKGROUND must be one of {', '.join(BACKGROUND_MODES)}, "
                             f"not {self.background!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, overrides: Mapping | None = None) -> "Settings":
        """Settings from ``environ`` (default ``os.environ``), then ``overrides``.

        Args:
            environ: variables; an empty string counts as unset, except for
                the rate limits, where it turns the limit off.
            overrides: upper-case field names -> values (Flask config style);
                keys that are not settings (``TESTING``, ``SQLALCHEMY_*``) are ignored.
        Raises:
            ConfigError: a variable does not parse as its field's type (the message names it).
        """
        env = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            name = f.metadata.get("env", "TAGCRAWL_" + f.name.upper())
            raw = env.get(name) if name else None
            if f.name == "gunicorn_threads" and not raw:
                raw = env.get("TAGCRAWL_THREADS")
            if raw is not None and (raw != "" or f.metadata.get("empty")):
                try:
                    values[f.name] = _parse(f, raw)
                except ValueError as exc:
                    raise ConfigError(f"{name}={raw[:40]!r} is not a valid {f.type}") from exc
        settings = cls(**values)
        return settings.replace(**overrides) if overrides else settings

    def replace(self, **overrides) -> "Settings":
        """A copy with ``overrides`` (upper- or lower-case field names) applied; unknown keys are ignored."""
        names = {f.name for f in fields(self)}
        changes = {k.lower(): v for k, v in overrides.items() if k.lower() in names}
        return dataclasses.replace(self, **changes) if changes else self



def _parse(f, raw: str):
    kind = str(f.type)
    if kind.startswith("tuple"):
        return tuple(shlex.split(raw))
    if kind == "bool":
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if kind == "int":
        return int(raw)
    if kind == "float":
        return float(raw)
    return raw


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """``Settings.from_env(environ)``: the environment's settings, no overrides."""
    return Settings.from_env(environ)


def settings_of(app) -> Settings:
    """The ``Settings`` that ``create_app`` built for the Flask ``app``."""
    return app.extensions[SETTINGS_KEY]


def current_settings() -> Settings:
    """The current app's ``Settings`` (needs an app context)."""
    from flask import current_app
    return settings_of(current_app)


def database_url(raw: str | None, instance_path: str) -> str:
    """Return a SQLAlchemy URL: ``DATABASE_URL`` or SQLite in the instance dir.

    Heroku-style ``postgres://`` and plain ``postgresql://`` URLs are
    rewritten to ``postgresql+psycopg2://``: SQLAlchemy refuses the old scheme
    and (2.1+) defaults to psycopg 3, while tagcrawl ships psycopg2-binary.

    Raises:
        ConfigError: not a URL, or a database other than PostgreSQL (psycopg2)
            and SQLite (e.g. ``mysql://``); one line, without the URL's password.
    """
    if not raw:
        return "sqlite:///" + os.path.join(instance_path, "tagcrawl.db")
    for scheme in ("postgres://", "postgresql://"):
        if raw.startswith(scheme):
            raw = "postgresql+psycopg2://" + raw[len(scheme):]
            break
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        scheme = make_url(raw).drivername
    except (ArgumentError, ValueError):
        raise ConfigError("DATABASE_URL is not a database URL; " + _DATABASES) from None
    if scheme not in _SUPPORTED_SCHEMES:
        raise ConfigError(f"DATABASE_URL: unsupported database {scheme!r}; " + _DATABASES)
    return raw


#: SQLAlchemy driver names tagcrawl runs on (its dependencies: psycopg2-binary, the stdlib sqlite3).
_SUPPORTED_SCHEMES = frozenset({"postgresql+psycopg2", "sqlite", "sqlite+pysqlite"})
_DATABASES = "tagcrawl runs on PostgreSQL (postgres://USER:PASSWORD@HOST/DB) or SQLite (sqlite:///PATH)"
