"""A webhook receiver on localhost for the tests: records every delivery and
answers with scripted status codes (then 200)."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    def __init__(self, statuses=()):
        self.statuses = list(statuses)
        self.received: list[dict] = []
        self.cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.cond:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.received.append({"headers": dict(self.headers), "body": body, "status": status,
                                              "path": self.path})
                    receiver.cond.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout_s: float = 90) -> list[dict]:
        """Block until ``count`` deliveries arrived (woken by each one)."""
        with self.cond:
            self.cond.wait_for(lambda: len(self.received) >= count, timeout=timeout_s)
            return list(self.received)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
