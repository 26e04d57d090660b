"""The offline fixture web: one local server answers for every host.

Chrome joins it with ``--host-resolver-rules="MAP * 127.0.0.1:<port>, EXCLUDE
localhost"`` and ``--ignore-certificate-errors``, so ``https://shop.example/``
and ``https://connect.facebook.net/...`` both land here.  One port speaks TLS
and plain HTTP (the first byte of a connection tells which).

Routing, by ``Host`` and path:
- ``sites/<host>/<path>``: static files (``index.html`` for a directory);
- ``npm_cdn.py``: published npm packages as ``cdn.jsdelivr.net``/``unpkg.com`` serve them;
- ``sdk_endpoints.py``, ``sdk_monitoring.py``, ``sdk_flags.py``, ``sdk_analytics.py``: configuration and
  ingestion endpoints of the vendors whose real SDKs run here;
- ``longtail_endpoints.py``: the few more the long-tail consent pages need (``longtail/truth.json``);
- ``holdout/endpoints.py``: the hold-out pages and their vendors' endpoints (measured by ``bench/long_tail.py`` only);
- ``vendors.py``: emulated vendor endpoints (libraries and beacon endpoints);
- ``audit_site.py``: generated sites for site audits (``site-<N>.example``, a truth of planted defects);
- ``/__fixture/...``: behaviours (status codes, redirects, slow and endless responses).
Every request is recorded in ``FixtureWeb.log`` (host, method, path, body).
"""
from __future__ import annotations

import mimetypes
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from . import (audit_site, behaviours, cmp_pages, compliance_pages, longtail_endpoints, npm_cdn, sdk_analytics, sdk_endpoints,
               sdk_flags, sdk_monitoring, snippet_pages, vendors)
from .holdout import endpoints as holdout_endpoints

HERE = Path(__file__).parent
SITES = HERE / "sites"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fixture-web"

    def log_message(self, *args):  # quiet
        pass

    def _serve(self):
        web: FixtureWeb = self.server.web
        host = (self.headers.get("Host") or "").split(":")[0].lower()
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        entry = {"host": host, "method": self.command, "path": parts.path, "query": parts.query,
                 "url": f"{'https' if self.server.is_tls(self.connection) else 'http'}://{host}{self.path}",
                 "headers": dict(self.headers), "body": body, "time": time.time()}
        with web.lock:
            web.log.append(entry)
            web.seen.notify_all()
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        for route in (audit_site.route, behaviours.route, npm_cdn.route, compliance_pages.route, cmp_pages.route, snippet_pages.route,
                      sdk_endpoints.route, sdk_monitoring.route, sdk_flags.route, sdk_analytics.route,
                      longtail_endpoints.route, holdout_endpoints.route, vendors.route, web.extra_route):
            if route is None:
                continue
            answer = route(host, parts.path, query, self.command, body, self.headers, web)
            if answer is not None:
                return self._answer(*answer)
        return self._answer(*static(host, parts.path))

    def _answer(self, status, headers, payload):
        if callable(payload):  # streaming behaviour
            return payload(self)
        if isinstance(payload, str):
            payload = payload.encode()
        self.send_response(status)
        for key, value in headers.items():
            if isinstance(value, list):
                for v in value:
                    self.send_header(key, v)
            else:
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_POST = do_HEAD = do_PUT = _serve

    def do_OPTIONS(self):
        self._answer(204, {"Access-Control-Allow-Origin": self.headers.get("Origin", "*"),
                           "Access-Control-Allow-Methods": "GET, POST",
                           # "*" is no wildcard for credentialed requests: name the asked-for headers.
                           "Access-Control-Allow-Headers": self.headers.get("Access-Control-Request-Headers") or "*",
                           "Access-Control-Allow-Credentials": "true"}, b"")


def static(host: str, path: str):
    """Serve ``sites/<host>/<path>``; 404 when absent (path traversal refused)."""
    root = (SITES / host).resolve()
    target = (root / path.lstrip("/")).resolve()
    if target.is_dir():
        target = target / "index.html"
    if not str(target).startswith(str(root)) or not target.is_file():
        return 404, {"Content-Type": "text/html"}, "<h1>404 fixture</h1>"
    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    return 200, {"Content-Type": kind, "Cache-Control": "no-store"}, target.read_bytes()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, addr, web):
        super().__init__(addr, _Handler)
        self.web = web
        self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.tls.load_cert_chain(HERE / "fixture.crt", HERE / "fixture.key")
        self._tls_conns = set()

    def is_tls(self, conn) -> bool:
        return isinstance(conn, ssl.SSLSocket)

    def finish_request(self, request, client_address):
        try:
            request.settimeout(10)
            first = request.recv(1, socket.MSG_PEEK)
            if first == b"\x16":
                request = self.tls.wrap_socket(request, server_side=True)
        except (OSError, ssl.SSLError):
            return
        super().finish_request(request, client_address)


class FixtureWeb:
    """The fixture web server.  ``start()`` binds 127.0.0.1 on a free port.

    Attributes:
        port: the bound port.
        log: every request received (dicts: host, method, path, query, url,
            headers, body bytes, time).
        extra_route: optional ``fn(host, path, query, method, body, headers, web)``
            tried after the built-in routes (tests add hosts with it).
    """

    def __init__(self, port: int = 0):
        self.log: list[dict] = []
        self.lock = threading.Lock()
        self.seen = threading.Condition(self.lock)
        self.extra_route = None
        self.endless_bytes = 0  # written by /__fixture/endless
        self.stop_event = threading.Event()
        self._server = _Server(("127.0.0.1", port), self)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="fixture-web")

    def start(self) -> "FixtureWeb":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self._server.shutdown()
        self._server.server_close()

    def chrome_args(self) -> list[str]:
        """Switches that send every host of Chrome to this server."""
        return [f"--host-resolver-rules=MAP * 127.0.0.1:{self.port}, EXCLUDE localhost",
                "--ignore-certificate-errors"]

    def mark(self) -> int:
        """A position in the log: pass it as ``after`` to ignore earlier requests."""
        with self.lock:
            return len(self.log)

    def wait_for(self, predicate, timeout_s: float = 30, after: int = 0) -> dict | None:
        """Block until a request logged at or past position ``after`` (see
        ``mark``) satisfies ``predicate(entry)``; return it (None on timeout).
        Woken by each new request, no polling."""
        with self.seen:
            if not self.seen.wait_for(lambda: any(predicate(e) for e in self.log[after:]), timeout=timeout_s):
                return None
            return next(e for e in self.log[after:] if predicate(e))

    def requests_to(self, host: str) -> list[dict]:
        with self.lock:
            return [e for e in self.log if e["host"] == host]


def main() -> None:  # pragma: no cover - used by `make demo`
    import argparse

    parser = argparse.ArgumentParser(description="Serve the offline fixture web.")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    web = FixtureWeb(args.port).start()
    print(web.port, flush=True)
    threading.Event().wait()


if __name__ == "__main__":  # pragma: no cover
    main()
