"""The egress proxy that tagcrawl starts and owns, one per process.

``get_egress(config)`` returns this process's ``EgressServer`` for the
config's policy (host-resolver rules from ``TAGCRAWL_CHROME_ARGS``,
``TAGCRAWL_ALLOW_PRIVATE_TARGETS``) and buffer limits, starting it on first
use.  It is made of proxy.py's own HTTP proxy (``HttpProtocolHandler``, as
``handler.EgressHandler``, with ``HttpProxyPlugin`` and
``plugin.EgressPlugin``), run in threads of this process: one listening
socket per route and one thread per client connection, handed over with
proxy.py's ``start_threaded_work``.  Nothing runs outside the process, so a
worker that dies (even SIGKILLed) leaves no proxy behind; ``stop`` and an
``atexit`` hook close the listeners of a process that ends normally.

A route is "direct" or one upstream proxy (a country proxy of
``TAGCRAWL_PROXY_URL``).  Chrome selects it per browser context through the
port: ``Target.createBrowserContext(proxyServer="http://127.0.0.1:<port>")``.

Why not ``proxy.Proxy(...)``, proxy.py's embedding entry point: it forks
acceptor processes (multiprocessing) from a threaded gunicorn worker and
listens on a fixed set of ports chosen at start, while routes (countries)
appear per crawl.  The part written here is the accept loop only.
"""
from __future__ import annotations

import atexit
import copy
import logging
import os
import socket
import threading
from dataclasses import dataclass

from proxy.common.flag import FlagParser
from proxy.core.work.threaded import start_threaded_work
from proxy.http import Url

from tagcrawl.engine.egress.flow import Budget, Limits
from tagcrawl.engine.egress.handler import EgressHandler
from tagcrawl.engine.egress.plugin import EgressPlugin
from tagcrawl.engine.egress.policy import EgressPolicy

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Route:
    """What ``EgressHandler`` and ``EgressPlugin`` read from their flags: the
    policy, the upstream proxy (proxy.py ``Url``, None for direct) and the
    budget of buffered bytes (shared by every route of a server)."""

    policy: EgressPolicy
    budget: Budget
    upstream: Url | None = None


def _proxy_flags():
    """proxy.py's flags for threaded, in-process use with ``EgressPlugin``.

    proxy.py calls ``logging.basicConfig`` while parsing its flags; a
    NullHandler held on the root logger meanwhile makes that a no-op, so the
    host application's logging set-up is left as it was.
    """
    # proxy.py logs every refused request as a protocol error; ours are logged by the plugin.
    logging.getLogger("proxy").setLevel(logging.ERROR)
    root = logging.getLogger()
    guard = logging.NullHandler()
    root.addHandler(guard)
    try:
        # --timeout: proxy.py drops a connection whose *client* sent nothing for that long (10 s by
        # default), which would cut a WebSocket that only receives; a crawl lasts at most 25 s.  (A
        # connection with bytes pending that moves none is cut sooner: Limits.stall_s, handler.py.)
        # --work-klass: EgressHandler, proxy.py's handler with the client side of the bounds (flow.py).
        return FlagParser.initialize(["--threaded", "--hostname", "127.0.0.1", "--port", "0", "--timeout", "60",
                                      "--log-level", "WARNING"], plugins=[EgressPlugin], work_klass=EgressHandler)
    finally:
        root.removeHandler(guard)


class EgressServer:
    """Listeners of one policy, one per route, on ``listen_host``.

    Args:
        policy: the EgressPolicy every route enforces.
        listen_host: address to bind (``TAGCRAWL_EGRESS_LISTEN``, 127.0.0.1 by default).
        public_host: host Chrome is given (``TAGCRAWL_EGRESS_HOST``; a Grid
            node on another machine needs an address it can reach).
        limits: buffer bounds (``flow.Limits``; the settings' defaults when
            None); ``budget`` counts against them for every route of this server.
    """

    def __init__(self, policy: EgressPolicy, listen_host: str = "127.0.0.1", public_host: str | None = None,
                 limits: Limits | None = None):
        self.policy = policy
        self.listen_host = listen_host
        self.public_host = public_host or listen_host
        self.budget = Budget(limits or Limits.of())
        self._flags = _proxy_flags()
        self._lock = threading.Lock()
        self._ports: dict[str | None, int] = {}
        self._sockets: list[socket.socket] = []
        self.stopped = False

    def port_for(self, upstream: str | None = None, port: int = 0) -> int:
        """The port of the route to ``upstream`` (a proxy URL, None for
        direct), its listener started on first use, on ``port`` (0: any free
        one).  Raises OSError when the port cannot be bound, ValueError for an
        upstream that is not ``http://host:port``, RuntimeError after ``stop``."""
        with self._lock:
            if self.stopped:
                raise RuntimeError("egress proxy stopped")
            if upstream not in self._ports:
                self._ports[upstream] = self._listen(Route(self.policy, self.budget, _upstream_url(upstream)), upstream, port)
            return self._ports[upstream]

    def proxy_url(self, upstream: str | None = None) -> str:
        """``http://host:port`` for Chrome's ``--proxy-server`` / ``proxyServer``."""
        host = f"[{self.public_host}]" if ":" in self.public_host else self.public_host
        return f"http://{host}:{self.port_for(upstream)}"

    def _listen(self, route: Route, upstream: str | None, port: int) -> int:
        family = socket.AF_INET6 if ":" in self.listen_host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit it (proxy.py's own listener sets it too): a relay must not
        # hold a small write back (Nagle) waiting for the ACK of the previous one.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((self.listen_host, port))
        sock.listen(256)
        flags = copy.copy(self._flags)
        flags.egress_route = route
        self._sockets.append(sock)
        threading.Thread(target=self._accept, args=(sock, flags), daemon=True,
                         name=f"egress-{sock.getsockname()[1]}").start()
        log.info("egress proxy route %s on %s:%d", "direct" if upstream is None else "via upstream proxy",
                 self.listen_host, sock.getsockname()[1])
        return sock.getsockname()[1]

    def _accept(self, sock: socket.socket, flags) -> None:
        while True:
            try:
                conn, addr = sock.accept()
            except OSError:  # stop() shut the socket down
                return
            try:
                start_threaded_work(flags, conn, addr)
            except Exception:  # never let one connection end the listener
                log.exception("egress proxy could not take a connection")
                conn.close()

    def stop(self) -> None:
        """Close every listener (connections in flight end with their clients)."""
        with self._lock:
            self.stopped = True
            for sock in self._sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
                except OSError:
                    pass
                sock.close()
            self._sockets.clear()


def _upstream_url(upstream: str | None) -> Url | None:
    if not upstream:
        return None
    if "://" not in upstream:
        upstream = "http://" + upstream
    if not upstream.startswith("http://"):
        raise ValueError(f"the egress proxy chains to http:// proxies only, not {upstream.split('://')[0]}://")
    url = Url.from_bytes(upstream.encode())
    if not url.hostname or not url.port:
        raise ValueError("an upstream proxy URL needs a host and a port")
    return url


_servers: dict[tuple, EgressServer] = {}
_servers_lock = threading.Lock()


def get_egress(policy: EgressPolicy, listen_host: str = "127.0.0.1", public_host: str | None = None,
               limits: Limits | None = None) -> EgressServer:
    """This process's EgressServer for ``policy`` and ``limits`` (started on first call).

    Keyed by process id too: a server inherited through fork has no threads."""
    limits = limits or Limits.of()
    key = (os.getpid(), policy.rules.text, policy.allow_private, listen_host, public_host, limits)
    with _servers_lock:
        server = _servers.get(key)
        if server is None or server.stopped:
            server = _servers[key] = EgressServer(policy, listen_host, public_host, limits)
        return server


@atexit.register
def stop_all() -> None:
    """Stop every egress proxy of this process."""
    with _servers_lock:
        for key, server in list(_servers.items()):
            if key[0] == os.getpid():
                server.stop()
            del _servers[key]
