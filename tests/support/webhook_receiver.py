"""A webhook receiver on localhost for the tests: records every delivery and
answers with scripted status codes (then 200).

``answer(handler, body) -> bool`` (optional) runs after the request was read
and recorded, before the answer: a test makes the receiver hang, trickle or
look at the database from there; True means it answered (or never will)
itself.  ``handler.receiver.release`` (an Event) ends every hang and
trickle (``stop`` sets it)."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    def __init__(self, statuses=(), host: str = "127.0.0.1", port: int = 0, answer=None, ssl_context=None):
        self.statuses = list(statuses)
        self.received: list[dict] = []
        self.cond = threading.Condition()
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            receiver: Receiver = self  # ``handler.receiver.release`` for the answer functions

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.cond:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.received.append({"headers": dict(self.headers), "body": body, "status": status,
                                              "path": self.path})
                    receiver.cond.notify_all()
                if answer is not None and answer(self, body):
                    return
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        class Server(ThreadingHTTPServer):
            daemon_threads = True

        self.server = Server((host, port), Handler)
        if ssl_context is not None:
            self.server.socket = ssl_context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        scheme = "https" if ssl_context is not None else "http"
        self.url = f"{scheme}://{host}:{self.port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout_s: float = 90) -> list[dict]:
        """Block until ``count`` deliveries arrived (woken by each one)."""
        with self.cond:
            self.cond.wait_for(lambda: len(self.received) >= count, timeout=timeout_s)
            return list(self.received)

    def stop(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def trickle(handler, _body) -> bool:
    """An ``answer``: a status line, then one header byte every 0.1 s for as long as the client listens."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
    handler.wfile.flush()
    try:
        while not handler.receiver.release.wait(0.1):  # the receiver's pace, not a test wait
            handler.wfile.write(b"a")
            handler.wfile.flush()
    except OSError:  # the client gave up
        pass
    return True


def hang(handler, _body) -> bool:
    """An ``answer``: hold the request, silent, for 60 s (or until ``release``)."""
    handler.receiver.release.wait(60)
    return True


def table_resolver(table: dict):
    """A resolver for ``webhooks.transport.post`` from a table (name -> successive
    answers, the last one repeated), counting its calls per name in ``.calls``;
    a name not in the table does not resolve."""
    from tagcrawl.engine.egress.policy import Unresolvable

    calls: dict[str, int] = {}

    def resolve(host):
        calls[host] = calls.get(host, 0) + 1
        answers = table.get(host)
        if answers is None:
            raise Unresolvable(f"host {host} does not resolve")
        return answers[min(calls[host], len(answers)) - 1]
    resolve.calls = calls
    return resolve
