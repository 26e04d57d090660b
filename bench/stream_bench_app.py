"""WSGI app of the stream benchmark: tagcrawl plus two baseline endpoints.

``POST /bench/trivial`` parses the JSON body and answers 204, nothing else:
the ceiling that ``POST /stream/api/v1`` is compared with, served by the same
gunicorn workers in the same run.

``POST /bench/checks`` runs every check of the stream endpoint and builds the
row (``stream.blueprint.accept_event``: size, content type, JSON, rate limit,
schema, token, origin, normalization), then answers 204 without storing it:
what the stream endpoint costs before group commit and PostgreSQL.

Not part of the service.
"""
from flask import request

from tagcrawl import create_app
from tagcrawl.stream.blueprint import accept_event, no_content

app = create_app()


@app.post("/bench/trivial")
def trivial():
    request.get_json(force=True)
    return "", 204


@app.post("/bench/checks")
def checks():
    accept_event()
    return no_content()
