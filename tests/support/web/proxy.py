"""A recording HTTP proxy for the offline fixture web.

``RecordingProxy(upstream_port, labels=("de", "fr"))`` listens on one loopback
port per label and forwards everything to the fixture web (``upstream_port``),
whatever host was asked for:

- ``CONNECT host:443`` (https): answers 200 and tunnels the bytes (TLS stays
  end to end between Chrome and the fixture web);
- absolute-URI requests (``GET http://host/path``, plain http): forwarded in
  origin form with the same headers, minus the ``Proxy-*`` and hop-by-hop ones.

Every request is recorded in ``log`` as ``{"label", "method", "target",
"host", "path", "headers", "proxy_headers", "user_agent"}``, where ``label`` tells which
listener (country) took it, ``proxy_headers`` holds the ``Proxy-*`` headers
sent and ``user_agent`` the ``User-Agent`` (None when absent).  A CONNECT entry
also records what the tunnel opens with: ``sni``, the server name of a TLS
ClientHello, or ``tunnelled``, ``{"method", "path", "host"}`` of a plain HTTP
request (None when neither came within 5 s).

Chrome reaches a listener through host-resolver rules such as
``MAP de.proxy.test 127.0.0.1:<port of "de">`` (see ``chrome_rules``), so a
proxy URL template ``http://{country}.proxy.test:3128`` selects the listener
by country, the way a commercial proxy's per-country hostnames do.
"""
from __future__ import annotations

import http.client
import selectors
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate",
              "te", "trailer", "transfer-encoding", "upgrade"}


class _ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fixture-proxy"

    def log_message(self, *args):  # quiet
        pass

    def _record(self, host: str, path: str) -> dict:
        proxy: RecordingProxy = self.server.proxy
        entry = {"label": self.server.label, "method": self.command, "target": self.path, "host": host,
                 "path": path, "headers": dict(self.headers),
                 "proxy_headers": {k: v for k, v in self.headers.items() if k.lower().startswith("proxy-")},
                 "user_agent": self.headers.get("User-Agent")}
        with proxy.lock:
            proxy.log.append(entry)
        return entry

    def do_CONNECT(self):
        host = self.path.rsplit(":", 1)[0].strip("[]").lower()
        entry = self._record(host, "")
        try:
            upstream = socket.create_connection(("127.0.0.1", self.server.proxy.upstream_port), timeout=10)
        except OSError:
            self.send_error(502)
            return
        self.send_response(200, "Connection Established")
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        seen, first = opening(self.connection)
        entry.update({"sni": None, "tunnelled": None, **seen})
        try:
            upstream.sendall(first)
        except OSError:
            upstream.close()
            return
        self.server.proxy.tunnel(self.connection, upstream)

    def _forward(self):
        parts = urlsplit(self.path)
        if parts.scheme != "http" or not parts.hostname:
            self.send_error(400, "absolute http:// URI expected")
            return
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._record(parts.hostname.lower(), path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP]
        conn = http.client.HTTPConnection("127.0.0.1", self.server.proxy.upstream_port, timeout=10)
        try:
            conn.putrequest(self.command, path, skip_host=True, skip_accept_encoding=True)
            for key, value in headers:
                conn.putheader(key, value)
            if body is not None:
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            resp = conn.getresponse()
            payload = resp.read()
        except OSError:
            self.send_error(502)
            return
        finally:
            conn.close()
        self.send_response(resp.status, resp.reason)
        for key, value in resp.getheaders():
            if key.lower() not in HOP_BY_HOP and key.lower() != "content-length":
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_OPTIONS = _forward


class _Listener(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, proxy: "RecordingProxy", label: str):
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.proxy, self.label = proxy, label


class RecordingProxy:
    """Loopback HTTP proxies (one listener per label) in front of the fixture web.

    Attributes:
        ports: ``{label: port}``.
        log: every request taken (see the module docstring).
    """

    def __init__(self, upstream_port: int, labels=("",)):
        self.upstream_port = upstream_port
        self.log: list[dict] = []
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._listeners = {label: _Listener(self, label) for label in labels}
        self.ports = {label: srv.server_address[1] for label, srv in self._listeners.items()}
        self._threads = [threading.Thread(target=srv.serve_forever, args=(0.1,), daemon=True, name=f"proxy-{label}")
                         for label, srv in self._listeners.items()]

    def start(self) -> "RecordingProxy":
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for srv in self._listeners.values():
            srv.shutdown()
            srv.server_close()

    def chrome_rules(self, domain: str) -> list[str]:
        """Host-resolver rules sending ``<label>.<domain>`` (``<domain>`` for
        the label "") to that label's listener; put them before ``MAP *``."""
        return [f"MAP {label + '.' if label else ''}{domain} 127.0.0.1:{port}" for label, port in self.ports.items()]

    def entries(self, label: str | None = None) -> list[dict]:
        with self.lock:
            return [e for e in self.log if label is None or e["label"] == label]

    def hosts(self, label: str | None = None) -> set[str]:
        return {e["host"] for e in self.entries(label)}

    def tunnel(self, client: socket.socket, upstream: socket.socket) -> None:
        """Copy bytes both ways until either side closes (or the proxy stops)."""
        peers = {client: upstream, upstream: client}
        with selectors.DefaultSelector() as sel, upstream:
            for sock in peers:
                sock.setblocking(False)
                sel.register(sock, selectors.EVENT_READ)
            while not self._stop.is_set():
                # The timeout only lets a stopped proxy notice; data wakes select at once.
                for key, _ in sel.select(timeout=1):
                    try:
                        data = key.fileobj.recv(65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        return
                    if not data:
                        return
                    try:
                        peers[key.fileobj].setblocking(True)
                        peers[key.fileobj].sendall(data)
                        peers[key.fileobj].setblocking(False)
                    except OSError:
                        return


def opening(sock: socket.socket, timeout_s: float = 5.0) -> tuple[dict, bytes]:
    """Read what a tunnel opens with: ``({"sni": name}, bytes)`` for a TLS
    ClientHello, ``({"tunnelled": {"method", "path", "host"}}, bytes)`` for an
    HTTP request head, ``({}, bytes)`` when neither is complete within
    ``timeout_s`` or 16 KiB.  The bytes read are for the caller to pass on."""
    deadline = time.monotonic() + timeout_s
    data = b""
    with selectors.DefaultSelector() as sel:
        sel.register(sock, selectors.EVENT_READ)
        while len(data) < 16384 and sel.select(timeout=max(0.0, deadline - time.monotonic())):
            chunk = sock.recv(16384)
            if not chunk:
                break
            data += chunk
            if data[:1] == b"\x16" and len(data) >= 5 and len(data) >= 5 + int.from_bytes(data[3:5], "big"):
                return {"sni": client_hello_sni(data)}, data
            if data[:1] != b"\x16" and b"\r\n\r\n" in data:
                head = data.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
                method, path = head[0].split(" ")[:2]
                headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
                return {"tunnelled": {"method": method, "path": path, "host": headers.get("Host")}}, data
    return {}, data


def client_hello_sni(record: bytes) -> str | None:
    """The server name (RFC 6066, section 3) in a TLS record holding a ClientHello, or None."""
    hello = record[5:5 + int.from_bytes(record[3:5], "big")]
    if hello[:1] != b"\x01":
        return None
    at = 4 + 2 + 32  # handshake header, legacy version, random
    at += 1 + hello[at]  # session id
    at += 2 + int.from_bytes(hello[at:at + 2], "big")  # cipher suites
    at += 1 + hello[at]  # compression methods
    end = at + 2 + int.from_bytes(hello[at:at + 2], "big")
    at += 2
    while at + 4 <= end:
        kind, size = int.from_bytes(hello[at:at + 2], "big"), int.from_bytes(hello[at + 2:at + 4], "big")
        if kind == 0:  # server_name: list length (2), name type (1), name length (2), name
            body = hello[at + 4:at + 4 + size]
            return body[5:5 + int.from_bytes(body[3:5], "big")].decode("ascii")
        at += 4 + size
    return None
