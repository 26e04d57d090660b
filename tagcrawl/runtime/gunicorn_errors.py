"""gunicorn's own error answers as JSON (``ErrorMessage``), not HTML.

gunicorn answers a request it cannot parse (400 bad request line, header or
chunk; 414 request line too long; 431 too many or too large headers; 417,
501, 403 for a forbidden proxy line) itself, before the app sees it, with
``gunicorn.util.write_error``: an HTML page.  gunicorn has no setting for
that body, but every caller looks the function up on the ``gunicorn.util``
module at call time (``workers/base.py``, gunicorn 27), so ``install()``
(called in each worker, ``gunicorn_conf.post_worker_init``) replaces it with
``write_json_error``: same status line and ``Connection: close``, body
``{"error": true, "message": "<reason>: <detail>"}``.

What stays outside the app's control (docs/security.md): connections
gunicorn closes without an answer (a client that disconnects, a worker
killed by its timeout) and anything said before HTTP (a TLS failure).
"""
from __future__ import annotations

import json


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error`` with an ErrorMessage JSON body.

    Args:
        sock: the client socket.
        status_int, reason: the HTTP status (e.g. 431, "Request Header Fields Too Large").
        mesg: gunicorn's detail text (may be empty).
    """
    from gunicorn import util

    message = f"{reason}: {mesg}" if mesg else reason
    body = json.dumps({"error": True, "message": message}).encode("utf-8")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin1")
    util.write_nonblock(sock, head + body)


def install() -> None:
    """Make gunicorn write its own errors as JSON in this process."""
    from gunicorn import util

    util.write_error = write_json_error
