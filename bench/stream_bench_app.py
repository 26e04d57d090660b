"""WSGI app of the stream benchmark: tagcrawl plus a trivial baseline endpoint.

``POST /bench/trivial`` parses the JSON body and answers 204, nothing else:
the ceiling that ``POST /stream/api/v1`` is compared with, served by the same
gunicorn workers in the same run.  Not part of the service.
"""
from flask import request

from tagcrawl import create_app

app = create_app()


@app.post("/bench/trivial")
def trivial():
    request.get_json(force=True)
    return "", 204
