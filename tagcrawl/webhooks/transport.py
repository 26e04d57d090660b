"""One webhook POST: to the address that was checked, within a total deadline.

No database here (it can run from any thread or task).

- **Resolve once.** The receiver's name is resolved once and every address
  is checked (``egress.policy.EgressPolicy.decide``, the egress proxy's own
  rule: loopback, private, link-local, CGNAT, metadata... are refused, one
  internal answer condemns the name).  The connection goes to the checked
  address, never to the name again, so a DNS answer that changes between
  check and use (rebinding) is never reached.  A name that does not resolve
  is refused (nothing is sent).
- **Pinned, with TLS for the name.** ``PinnedAdapter`` is a ``requests``
  adapter whose urllib3 pool connects to the address, with ``server_hostname``
  and ``assert_hostname`` set to the URL's name: SNI is the name and the
  certificate is verified for the name (the CA bundle of ``requests``).  The
  ``Host`` header is the URL's.  No proxy from the environment (``HTTPS_PROXY``
  is not used: a proxy would resolve the name again), no redirects, no
  retries inside an attempt; ``REQUESTS_CA_BUNDLE`` is honoured.
- **A total deadline.** ``deadline_s`` covers connect, sending the body and
  reading the status line and headers (per-operation socket timeouts alone
  let a receiver that trickles one byte a second hold an attempt for ever):
  a timer shuts the attempt's socket down when the deadline passes, whatever
  the attempt is doing (TLS handshake, send, read).  The body of the answer is
  never read (only the status counts), so its size costs nothing; the headers
  are capped by ``http.client`` (100 headers, 64 KiB a line).  Name resolution
  uses the system resolver, whose own timeout (resolv.conf) bounds it; the
  time it takes counts against the deadline.
"""
from __future__ import annotations

import contextvars
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import HTTPError
from urllib3.util import Url, parse_url

from tagcrawl.engine.egress.policy import EgressPolicy, EgressRefused, Target, Unresolvable, system_resolve
from tagcrawl.core.hosts import canonical_host

#: ``fn(host) -> [address, ...]`` raising ``Unresolvable`` (``egress.policy.system_resolve``; tests give a table).
Resolver = Callable[[str], list[str]]
USER_AGENT = "tagcrawl-webhooks/0.1"
#: Longest error text kept (the ``webhook_attempts.error`` column).
ERROR_MAX_CHARS = 500


@dataclass(frozen=True)
class Outcome:
    """What one attempt came to.

    ``status``: the HTTP status (None when no answer); ``error``: why not
    (None on an answer); ``refused``: the target was refused before any
    connection (``retryable`` then says whether asking again may help: a name
    that does not resolve may resolve later, an internal address will not);
    ``address``: where the connection went ("" when refused);
    ``duration_ms``: wall time of the attempt, ms."""

    status: int | None
    error: str | None
    duration_ms: int
    refused: bool = False
    retryable: bool = True
    address: str = ""


class _Watchdog:
    """Shuts the sockets of one attempt down when its deadline passes.

    ``watch`` keeps a duplicate of each socket's descriptor (a TLS wrap
    detaches the original socket object); ``shutdown`` on it ends every
    blocked send, recv or handshake of the attempt at once.  At most one timer
    thread per attempt in flight."""

    def __init__(self, deadline_s: float):
        self.deadline = time.monotonic() + deadline_s
        self.fired = False
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._timer = threading.Timer(deadline_s, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def remaining(self) -> float:
        """Seconds left (at least 1 ms, so a socket timeout of 0 never means non-blocking)."""
        return max(self.deadline - time.monotonic(), 0.001)

    def watch(self, sock: socket.socket) -> None:
        copy = sock.dup()
        with self._lock:
            self._socks.append(copy)
            if self.fired:
                _shutdown(copy)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._socks:
                _shutdown(sock)

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            for sock in self._socks:
                sock.close()
            self._socks.clear()


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # already closed by the peer
        pass


_WATCHDOG: contextvars.ContextVar[_Watchdog | None] = contextvars.ContextVar("webhook_watchdog", default=None)


class _Watched:
    """Hands each new TCP socket to the attempt's watchdog (urllib3's ``_new_conn``
    is its one place where the socket is made, for http and https alike)."""

    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        watchdog = _WATCHDOG.get()
        if watchdog is not None:
            watchdog.watch(sock)
        return sock


class _WatchedHTTPConnection(_Watched, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_Watched, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class PinnedAdapter(HTTPAdapter):
    """A ``requests`` adapter that connects to ``target.address`` whatever the URL's host.

    Only URLs whose host is ``target.host`` (canonical) are sent (else
    ``requests.exceptions.InvalidURL``); https keeps SNI and certificate
    verification for the URL's name.  One connection, no retries, no proxy.
    """

    def __init__(self, target: Target):
        self.target = target
        super().__init__(pool_connections=1, pool_maxsize=1, max_retries=0)

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        """requests' documented override point: the pool is keyed (and made) for the checked address."""
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        name = host_params["host"] or ""
        if canonical_host(name) != self.target.host:
            raise ValueError(f"host {name} is not the checked host {self.target.host}")
        host_params["host"], host_params["port"] = self.target.address, self.target.port
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = pool_kwargs["assert_hostname"] = name
        return host_params, pool_kwargs

    def get_connection_with_tls_context(self, request, verify, proxies=None, cert=None):
        return super().get_connection_with_tls_context(request, verify, None, cert)  # never through a proxy


def pin(url: str, allow_private: bool, resolve: Resolver = system_resolve) -> Target:
    """Resolve the host of ``url`` once and check every address.

    Args:
        url: the webhook URL (http or https).
        allow_private: ``TAGCRAWL_ALLOW_PRIVATE_TARGETS``: internal addresses pass (the name must still resolve).
        resolve: the resolver (one call).
    Returns:
        ``Target(host, address, port)``: the canonical host, the checked address, the port.
    Raises:
        EgressRefused: not http(s), malformed, an internal name or address;
            ``Unresolvable`` (a subclass) when the name does not resolve.
    """
    parsed = _parse(url)
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise EgressRefused(f"scheme {parsed.scheme or '(none)'!r} is not http(s)" if parsed.host
                            else "URL has no host")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    return EgressPolicy(allow_private=allow_private, resolve=resolve).decide(parsed.host, port)


def _parse(url: str) -> Url:
    """``url`` as ``requests`` will send it (IDNA-encoded, quoted), parsed by urllib3.

    Raises:
        EgressRefused: a URL ``requests`` would not send.
    """
    try:
        return parse_url(requests.Request("POST", url).prepare().url)
    except (requests.RequestException, ValueError) as exc:
        raise EgressRefused(f"malformed URL: {exc}") from exc


def post(url: str, body: bytes, headers: Mapping[str, str], *, deadline_s: float, allow_private: bool,
         resolve: Resolver = system_resolve, verify: bool | str = True) -> Outcome:
    """POST ``body`` to ``url`` once: resolve once, check, connect to that address, all within ``deadline_s``.

    Args:
        url: the receiver (http or https); redirects are not followed.
        body: the request body, bytes (the signed JSON).
        headers: extra headers (Content-Type, the signature headers).
        deadline_s: total time of the attempt (resolve + connect + send + status line and headers), seconds.
        allow_private: see ``pin``.
        resolve: the resolver, called once.
        verify: ``requests``' ``verify`` (True: its CA bundle; a path: that bundle).
    Returns:
        ``Outcome``; never raises for network trouble.  The answer's body is not read.
    """
    started = time.monotonic()
    try:
        target = pin(url, allow_private, resolve)
    except EgressRefused as exc:
        return Outcome(None, f"refused target: {exc}"[:ERROR_MAX_CHARS], _ms(started), refused=True,
                       retryable=isinstance(exc, Unresolvable))
    watchdog = _Watchdog(max(deadline_s - (time.monotonic() - started), 0.001))
    token = _WATCHDOG.set(watchdog)
    where = f"{target.address}:{target.port}"
    session = requests.Session()
    session.trust_env = False  # no proxy or .netrc from the environment: the connection goes to `target`
    if verify is True:  # but the CA bundle of the environment, as requests reads it
        verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    adapter = PinnedAdapter(target)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    host_header = (_parse(url).netloc or target.host).rpartition("@")[2]
    try:
        response = session.post(url, data=body, allow_redirects=False, stream=True, verify=verify,
                                timeout=(watchdog.remaining(), watchdog.remaining()),
                                headers={"User-Agent": USER_AGENT, **headers, "Host": host_header})
        response.close()  # the body is never read
        if not watchdog.fired:  # (headers cut short by the deadline read as a complete answer)
            return Outcome(response.status_code, None, _ms(started), address=where)
        error = ""
    except (requests.RequestException, HTTPError, OSError) as exc:
        error = f"{exc.__class__.__name__} ({where}): {exc}"
    finally:
        _WATCHDOG.reset(token)
        watchdog.close()
        session.close()
    if watchdog.fired:
        error = f"deadline: no complete answer from {where} within {deadline_s:g} s"
    return Outcome(None, error[:ERROR_MAX_CHARS], _ms(started), address=where)


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
