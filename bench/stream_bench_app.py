"""WSGI app of the stream benchmark: tagcrawl plus three baseline endpoints.

Served by the same gunicorn workers as ``POST /stream/api/v1``, in the same run:

- ``POST /bench/trivial`` parses the JSON body and answers 204, nothing else:
  the ceiling that the stream endpoint is compared with.
- ``POST /bench/store`` parses the JSON body like the trivial endpoint, then
  stores a ready-made row (the bench event, normalized once) through the
  stream's group-commit writer and answers 204 once it is committed: what
  storing alone costs (writer hand-off, ``COPY``, PostgreSQL), with no
  validation.  No stream endpoint can be faster than this one.
- ``POST /bench/checks`` runs every check of the stream endpoint and builds the
  row (``stream.blueprint.accept_event``: size, content type, JSON, rate limit,
  schema, token, origin, normalization), then answers 204 without storing it:
  what the stream endpoint costs before group commit and PostgreSQL.

Not part of the service.
"""
import threading
import uuid

from flask import request

from tagcrawl import create_app
from tagcrawl.web.views.stream import accept_event, no_content
from tagcrawl.core.settings import settings_of
from tagcrawl.stream.writer import get_writer

app = create_app()
_ready_row: dict = {}
_ready_lock = threading.Lock()


@app.post("/bench/trivial")
def trivial():
    request.get_json(force=True)
    return "", 204


@app.post("/bench/store")
def store():
    first = False
    if not _ready_row:  # no lock on the measured path once the row is ready
        with _ready_lock:
            first = not _ready_row
            if first:
                _ready_row.update(accept_event())  # the first request's event, checked once (reads the body)
    if not first:
        request.get_json(force=True)  # every other request: parse, as the trivial endpoint does
    row = dict(_ready_row, event_id=str(uuid.uuid4()))
    get_writer(app).submit(row, settings_of(app).stream_ack_timeout_s)
    return no_content()


@app.post("/bench/checks")
def checks():
    accept_event()
    return no_content()
