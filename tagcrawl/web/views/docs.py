"""``GET /openapi.json`` (the OpenAPI 3.1 document) and ``GET /docs`` (Swagger UI).

Swagger UI's files come from the ``flask-swagger-ui`` package (its bundled
``dist/``), served by this blueprint: no CDN, and nothing is fetched from
elsewhere at run time (``validatorUrl`` is off).  The page runs no inline
script, so it is served with a strict Content-Security-Policy.
"""
from __future__ import annotations

import json
from importlib.resources import files

import flask
from flask import Response, current_app, jsonify, render_template, send_from_directory, url_for

from tagcrawl.web.edge import Blueprint, operation
from tagcrawl.core.errors import ApiError
from tagcrawl.engine.scripts import script
from tagcrawl.web.openapi import document

bp = Blueprint("docs", __name__, template_folder="../templates")

#: Swagger UI's static files, from the flask-swagger-ui wheel.
DIST_DIR = str(files("flask_swagger_ui") / "dist")
ASSETS = frozenset({"swagger-ui.css", "index.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
                    "favicon-32x32.png", "favicon-16x16.png"})
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'")

#: The page (``web/templates/docs.html``) and the script that starts Swagger UI
#: (``web/static/docs-init.js``, ``__SPEC_URL__``: the document's URL as a JSON string).
PAGE = "docs.html"
INIT_JS = script(__file__, "../static/docs-init.js")


def _undocumented(rule: str):
    """Register a route of ``bp`` with Flask only (Swagger UI's own files are not API operations)."""

    def register(view):
        flask.Blueprint.add_url_rule(bp, rule, view.__name__, view, methods=["GET"])
        return view

    return register


@bp.get("/openapi.json")
@bp.doc(**operation("This document", "get_openapi", tag="meta"),
        responses={200: {"description": "OpenAPI 3.1 document.",
                         "content": {"application/json": {"schema": {"type": "object"}}}}})
def openapi_json():
    """The OpenAPI 3.1 document of this service."""
    return jsonify(document(current_app._get_current_object()))


@bp.get("/docs")
@bp.doc(**operation("Interactive API documentation (Swagger UI)", "get_docs", tag="meta"),
        responses={200: {"description": "HTML page.", "content": {"text/html": {"schema": {"type": "string"}}}}})
def docs():
    """Swagger UI rendering ``/openapi.json``."""
    asset = lambda name: url_for("docs.asset", filename=name)  # noqa: E731
    html = render_template(PAGE, css=asset("swagger-ui.css"), icon=asset("favicon-32x32.png"),
                           bundle=asset("swagger-ui-bundle.js"), preset=asset("swagger-ui-standalone-preset.js"),
                           init=url_for("docs.init_js"))
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = CSP
    return response


@_undocumented("/docs/tagcrawl-init.js")
def init_js():
    """Starts Swagger UI on this service's document."""
    body = INIT_JS.replace("__SPEC_URL__", json.dumps(url_for("docs.openapi_json")))
    return Response(body, mimetype="application/javascript")


@_undocumented("/docs/<filename>")
def asset(filename: str):
    """One of Swagger UI's files (only those the page uses)."""
    if filename not in ASSETS:
        raise ApiError(404, "No such documentation asset.")
    response = send_from_directory(DIST_DIR, filename, max_age=86400)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
