"""gunicorn's own answers and its slow-client profile, under a real gunicorn.

- A request gunicorn refuses before the app sees it (bad request line, too
  many or too large headers) is answered as ErrorMessage JSON, not HTML.
- An idle kept-alive connection is closed by the server after ``keepalive``
  seconds (the test waits for the close itself, bounded only against a hang).
"""
from __future__ import annotations

import json
import socket

import pytest

from tests.support.gunicorn_server import Gunicorn

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

HANG_BOUND_S = 60


@pytest.fixture(scope="module")
def server(pg, tmp_path_factory):
    url = pg.create_database("tagcrawl_gunicorn_edge")
    server = Gunicorn({"DATABASE_URL": url, "TAGCRAWL_RUNTIME_DIR": str(tmp_path_factory.mktemp("edge")),
                       "GUNICORN_KEEPALIVE": "2"}, workers=1, threads=2)
    server.flask("db", "upgrade")
    server.start()
    yield server
    server.stop()


def raw(server, data: bytes) -> tuple[int, dict, bytes]:
    """Send raw bytes, read until the server closes; ``(status, headers, body)``."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG_BOUND_S) as conn:
        conn.sendall(data)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("request_bytes, status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(150)) + b"\r\n", 431),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431),
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n", 400),
])
def test_gunicorn_errors_are_json(server, request_bytes, status):
    got, headers, body = raw(server, request_bytes)
    assert got == status
    assert headers["Content-Type"] == "application/json"
    answer = json.loads(body)
    assert answer["error"] is True and answer["message"]


def test_an_idle_keepalive_connection_is_closed_by_the_server(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG_BOUND_S) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        received = b""
        while b'{"status":200}' not in received:
            received += conn.recv(65536)
        # Nothing more is sent: the server must close the connection (recv returns b"").
        assert conn.recv(65536) == b""
