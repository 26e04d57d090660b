"""Rate limits (Flask-Limiter): per API key on crawls, per token and client IP on ingestion.

- ``POST /api/v1``: ``RATELIMIT_CRAWL`` (``TAGCRAWL_RATELIMIT_CRAWL``, default
  60/minute) per ``x-api-key`` (per client IP for calls without one).
- ``POST /stream/api/v1``: ``RATELIMIT_STREAM`` (default 6000/minute) per
  (ingestion token ``t``, client IP): one visitor of one customer's site.
  The client IP follows ``TRUSTED_PROXIES`` as ingestion does.

Storage: ``RATELIMIT_STORAGE_URL``, ``memory://`` (per process) by default or
``redis://host:port/db`` shared by every instance; when Redis is unreachable
the limiter falls back to memory and never fails a request.  An empty limit
string turns that limit off.

Over the limit: 429 ``{"error": true, "message": ...}`` with ``Retry-After``
(seconds).  Storage keys hold digests only: never a raw API key, token or IP.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded

from .errors import ApiError, error_message
from .stream.body import read_body
from .stream.client import client_ip

STRATEGY = "sliding-window-counter"
EXTENSION = "tagcrawl_limiter"


def digest(*parts: str) -> str:
    """Short SHA-256 digest of ``parts``, for storage keys (and the limiter's log lines)."""
    return hashlib.sha256("\x1f".join(["tagcrawl-ratelimit", *parts]).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _ip() -> str:
    return client_ip(request.environ, current_app.config.get("TRUSTED_PROXIES", 0)) or "-"


def crawl_key() -> str:
    """The caller's API key (hashed), else its IP (hashed)."""
    key = request.headers.get("x-api-key")
    return "key:" + digest(key) if key else "ip:" + digest(_ip())


def stream_key() -> str:
    """(token ``t`` of the body, client IP), hashed.  The body is read here
    and put back for the view (see ``peek_token``)."""
    return "event:" + digest(peek_token() or "-", _ip())


#: endpoint -> (config key of its limit, key function)
LIMITED = {"crawl.crawl": ("RATELIMIT_CRAWL", crawl_key), "stream.ingest": ("RATELIMIT_STREAM", stream_key)}


class _Recorder:
    """Wraps ``wsgi.input`` and keeps what was read."""

    def __init__(self, stream):
        self.stream, self.chunks = stream, []

    def read(self, *args):
        data = self.stream.read(*args)
        self.chunks.append(data)
        return data


class _Replay(io.RawIOBase):
    """What was read already, then the rest of the original input."""

    def __init__(self, head: bytes, rest):
        super().__init__()
        self.head, self.rest = io.BytesIO(head), rest

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.head.read() + self.rest.read()
        data = self.head.read(size)
        if len(data) < size:
            data += self.rest.read(size - len(data))
        return data

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def peek_token() -> str | None:
    """The body's top-level ``t`` (at most 64 characters), or None.

    Reads the body with the endpoint's own size cap, then replaces
    ``wsgi.input`` with a replay of the same bytes followed by whatever was not
    read, so the view reads (and judges: 413, 400...) exactly what was sent.
    """
    environ = request.environ
    original = environ["wsgi.input"]
    recorder = _Recorder(original)
    environ["wsgi.input"] = recorder
    try:
        data = read_body(environ, current_app.config["STREAM_MAX_BYTES"])
    except ApiError:
        data = None
    finally:
        environ["wsgi.input"] = _Replay(b"".join(recorder.chunks), original)
    if not data:
        return None
    try:
        body = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return None
    token = body.get("t") if isinstance(body, dict) else None
    return token[:64] if isinstance(token, str) else None


def _too_many(exc: RateLimitExceeded):
    """429 as ErrorMessage, with ``Retry-After`` in whole seconds (at least 1)."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    try:
        wait = limiter.current_limit.reset_at - time.time()
    except Exception:  # storage gone between the check and now
        wait = 1
    retry = max(1, math.ceil(wait))
    return error_message(f"Rate limit exceeded ({exc.description}). Retry in {retry} s.", 429,
                         {"Retry-After": str(retry)})


def init_app(app: Flask) -> Limiter:
    """Create this app's limiter and apply the limits to the registered views.

    Call after the blueprints are registered.  Returns the limiter (also in
    ``app.extensions["tagcrawl_limiter"]``).
    """
    limiter = Limiter(key_func=crawl_key, storage_uri=app.config.get("RATELIMIT_STORAGE_URL") or "memory://",
                      strategy=STRATEGY, key_prefix="tagcrawl", headers_enabled=False, swallow_errors=True,
                      in_memory_fallback_enabled=True)
    limiter.init_app(app)
    app.extensions[EXTENSION] = limiter
    for endpoint, (setting, key_func) in LIMITED.items():
        value = app.config.get(setting)
        if value and endpoint in app.view_functions:
            app.view_functions[endpoint] = limiter.limit(value, key_func=key_func)(app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, _too_many)
    return limiter
