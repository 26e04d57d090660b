"""Rate limits: per API key on crawls (Flask-Limiter), per token and client IP on ingestion (limits).

- ``POST /api/v1``: ``RATELIMIT_CRAWL`` (``TAGCRAWL_RATELIMIT_CRAWL``, default
  60/minute) per ``x-api-key`` (per client IP for calls without one).  The view
  declares it with ``@rate_limited(crawl_limit, key_func=crawl_key)``; the
  app's Flask-Limiter applies it with its own ``limit`` decorator (the limit
  is a callable that reads the app's setting; an empty setting exempts).
- ``POST /stream/api/v1``: ``RATELIMIT_STREAM`` (default 6000/minute) per
  (ingestion token ``t``, client IP): one visitor of one customer's site.
  The token counts in its canonical spelling (``schemas.canonical_token``),
  whatever case, braces or ``urn:uuid:`` prefix the event used.
  The view calls ``check_stream_limit`` once it has parsed the body (the key
  needs ``t``), so the body is read and parsed once per request; it counts
  with the ``limits`` strategy on the same storage as Flask-Limiter, without
  Flask-Limiter's per-request machinery (only decorated views pass through
  Flask-Limiter: its before-every-request check is not installed).

The client IP is ``request.remote_addr``: behind ``TRUSTED_PROXIES`` proxies,
werkzeug's ``ProxyFix`` (installed by ``create_app``) has set it from
``X-Forwarded-For``.

Storage: ``RATELIMIT_STORAGE_URL``, ``memory://`` (per process) by default or
``redis://host:port/db`` shared by every instance; when Redis is unreachable
both limits count in memory and never fail a request.  An empty limit string
turns that limit off.

Over the limit: 429 ``{"error": true, "message": ...}`` with ``Retry-After``
(seconds).  Storage keys hold digests only: never a raw API key, token or IP.
"""
from __future__ import annotations

import hashlib
import logging
import math
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse as parse_limit
from limits.storage import MemoryStorage
from limits.strategies import STRATEGIES

from tagcrawl.core.errors import ApiError, error_message
from tagcrawl.core.schemas import canonical_token
from tagcrawl.core.settings import current_settings, settings_of

STRATEGY = "sliding-window-counter"
EXTENSION = "tagcrawl_limiter"
STREAM_EXTENSION = "tagcrawl_stream_limit"
#: Seconds between two tries of a storage that failed (the stream limit counts in memory meanwhile).
STORAGE_RETRY_S = 30.0

log = logging.getLogger(__name__)


def digest(*parts: str) -> str:
    """Short SHA-256 digest of ``parts``, for storage keys (and the limiter's log lines)."""
    return hashlib.sha256("\x1f".join(["tagcrawl-ratelimit", *parts]).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _ip() -> str:
    return request.remote_addr or "-"


def crawl_key() -> str:
    """The caller's API key (hashed), else its IP (hashed)."""
    key = request.headers.get("x-api-key")
    return "key:" + digest(key) if key else "ip:" + digest(_ip())


def crawl_limit() -> str:
    """The crawl view's limit: the app's ``RATELIMIT_CRAWL`` (``limits`` notation)."""
    return current_settings().ratelimit_crawl


def crawl_limit_off() -> bool:
    """True when ``RATELIMIT_CRAWL`` is empty (no limit)."""
    return not current_settings().ratelimit_crawl


#: Blueprints whose views count with their own limit (``check_stream_limit``), never with Flask-Limiter.
OWN_LIMIT_BLUEPRINTS = frozenset({"stream"})


def rate_limited(limit_value, *, key_func=None, exempt_when=None):
    """Declare the decorated view rate limited by the app's Flask-Limiter.

    The arguments are those of ``flask_limiter.Limiter.limit`` (``limit_value``
    may be a callable returning the limit string); ``init_app`` applies
    ``limiter.limit(...)`` to the view in each app, whose limiter (and storage)
    is its own.  Such a view also declares its 429 answer,
    ``@bp.alt_response(429, response="RateLimited")`` (``tests/unit/test_openapi.py``
    checks that the two agree).
    """

    def declare(view):
        view.rate_limit = {"limit_value": limit_value, "key_func": key_func, "exempt_when": exempt_when}
        return view

    return declare


def _retry_after(reset_at: float) -> str:
    """Whole seconds (at least 1) until the epoch time ``reset_at``."""
    return str(max(1, math.ceil(reset_at - time.time())))


class SweepingMemoryStorage(MemoryStorage):
    """``limits``' in-memory storage for counter strategies, without a thread per write.

    ``MemoryStorage.incr`` starts a 10 ms ``threading.Timer`` to expire old
    keys whenever the last one has run out, which under load means a thread
    start every few requests.  Here ``incr`` and ``decr`` (public methods of
    the storage interface; the sliding-window-counter strategy uses only
    them, ``get`` and ``clear``) expire keys inline instead, at most once per
    ``SWEEP_S`` seconds; ``get`` already drops an expired key itself.  The
    moving-window strategy (``acquire_entry``) is not used with it.
    """

    SWEEP_S = 1.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.timer.cancel()
        self._next_sweep = 0.0

    def _sweep(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.SWEEP_S
        wall = time.time()
        for key in [k for k, expiry in list(self.expirations.items()) if expiry <= wall]:
            self.clear(key)

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Add ``amount`` to the counter ``key`` (which expires ``expiry`` s after its first hit)."""
        self.get(key)
        self._sweep()
        with self.locks[key]:
            self.storage[key] += amount
            if self.storage[key] == amount:
                self.expirations[key] = time.time() + expiry
        return self.storage.get(key, 0)

    def decr(self, key: str, amount: int = 1) -> int:
        """Take ``amount`` from the counter ``key`` (not below 0)."""
        self.get(key)
        with self.locks[key]:
            self.storage[key] = max(self.storage[key] - amount, 0)
        return self.storage.get(key, 0)


class StreamLimit:
    """The per-visitor limit of ``POST /stream/api/v1``.

    Args:
        value: the limit, e.g. ``"6000/minute"`` (``limits`` notation).
        storage: the Flask-Limiter storage to count in: Redis is shared; for
            an in-memory one the limit keeps its own ``SweepingMemoryStorage``.
    Raises:
        ValueError: ``value`` is not a valid limit.
    """

    SCOPE = ("tagcrawl", "stream.ingest")

    def __init__(self, value: str, storage):
        self.item, self.text = parse_limit(value), value
        if isinstance(storage, MemoryStorage):
            storage = SweepingMemoryStorage()
        self.primary = STRATEGIES[STRATEGY](storage)
        self.fallback = STRATEGIES[STRATEGY](SweepingMemoryStorage())
        self._dead_until = 0.0  # monotonic time until which the storage is skipped

    def _strategy(self):
        return self.fallback if time.monotonic() < self._dead_until else self.primary

    def check(self, token: str | None, ip: str) -> None:
        """Count one event of (``token``, ``ip``); raise 429 ``ApiError`` over the limit.

        The key is the token's canonical spelling (``schemas.canonical_token``:
        upper case, braces, ``urn:uuid:`` and hyphen-less spellings of one
        token are one bucket); every ``t`` that is not a token at all (the
        schema answers it 400 next) shares the bucket ``"-"`` of its IP.

        A storage error never fails the request: the event is counted in
        memory, and the storage is tried again after ``STORAGE_RETRY_S``.
        """
        key = "event:" + digest(canonical_token(token) or "-", ip)
        strategy = self._strategy()
        try:
            allowed = strategy.hit(self.item, *self.SCOPE, key)
        except Exception as exc:  # the storage (Redis) is unreachable
            self._dead_until = time.monotonic() + STORAGE_RETRY_S
            log.warning("rate-limit storage unreachable (%s); counting in memory for %.0f s", exc, STORAGE_RETRY_S)
            strategy = self.fallback
            allowed = strategy.hit(self.item, *self.SCOPE, key)
        if not allowed:
            reset_at = strategy.get_window_stats(self.item, *self.SCOPE, key).reset_time
            retry = _retry_after(reset_at)
            raise ApiError(429, f"Rate limit exceeded ({self.text}). Retry in {retry} s.", {"Retry-After": retry})


def check_stream_limit(token: str | None) -> None:
    """Count this request's event against ``RATELIMIT_STREAM`` (no-op when off).

    Args:
        token: the body's ``t`` as sent (any type; only a string counts as a token).
    Raises:
        ApiError: 429 with ``Retry-After`` over the limit.
    """
    limit: StreamLimit | None = current_app.extensions.get(STREAM_EXTENSION)
    if limit is not None:
        limit.check(token, _ip())


def _too_many(exc: RateLimitExceeded):
    """429 as ErrorMessage, with ``Retry-After`` in whole seconds (at least 1)."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    try:
        retry = _retry_after(limiter.current_limit.reset_at)
    except Exception:  # storage gone between the check and now
        retry = "1"
    return error_message(f"Rate limit exceeded ({exc.description}). Retry in {retry} s.", 429,
                         {"Retry-After": retry})


def init_app(app: Flask) -> Limiter:
    """Create this app's limiter and apply it to the views declared ``rate_limited``.

    Call after the blueprints are registered.  Returns the Flask-Limiter
    instance (also in ``app.extensions["tagcrawl_limiter"]``); the stream limit
    is in ``app.extensions["tagcrawl_stream_limit"]`` (absent when off).
    """
    limiter = Limiter(key_func=crawl_key, storage_uri=settings_of(app).ratelimit_storage_url or "memory://",
                      strategy=STRATEGY, key_prefix="tagcrawl", headers_enabled=False, swallow_errors=True,
                      in_memory_fallback_enabled=True)
    limiter.init_app(app)
    # tagcrawl has no default or application limits: only decorated views are
    # limited, and their decorator checks its own limit.  The check Flask-Limiter
    # hooks before every request would cost ~0.1 ms of nothing on each event of
    # the stream's hot path, so it is taken out of the app's before-request hooks.
    app.before_request_funcs[None] = [hook for hook in app.before_request_funcs.get(None, [])
                                      if getattr(hook, "__self__", None) is not limiter]
    app.extensions[EXTENSION] = limiter
    for endpoint, view in list(app.view_functions.items()):
        declared = getattr(view, "rate_limit", None)
        if declared is not None:
            app.view_functions[endpoint] = limiter.limit(**declared)(view)
    stream_limit = settings_of(app).ratelimit_stream
    if stream_limit:
        app.extensions[STREAM_EXTENSION] = StreamLimit(stream_limit, limiter.storage)
    app.register_error_handler(RateLimitExceeded, _too_many)
    return limiter
