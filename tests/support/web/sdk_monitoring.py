"""Ingestion endpoints of the RUM / monitoring and error-tracking vendors whose
own SDKs (npm, unmodified) run on the ``sdk-*.example`` fixture pages (list in
``docs/real-pages.md``).  Each answers the way the real service does, as far
as the SDK looks at the answer (most only read the status); CORS with the
origin echoed, as in ``sdk_endpoints.py``.

Shapes come from the SDKs' own code and the vendors' public API docs:
- Datadog: ``browser-intake-<site>/api/v2/{rum,logs,replay}`` -> 202 ``{"request_id"}``.
- Elastic APM: ``<server>/intake/v2/rum/events`` -> 202 (empty), ``/config/v1/rum/agents`` -> ``{}``.
- Bugsnag: ``notify.bugsnag.com``, ``sessions.bugsnag.com`` -> 202 ``OK``.
- Rollbar: ``api.rollbar.com/api/1/item/`` -> ``{"err": 0, "result": {"id": null, "uuid"}}``.
- Grafana Faro: ``faro-collector-<region>.grafana.net/collect/<app key>`` -> 202 ``ok``.
- Honeybadger: ``api.honeybadger.io/v1/notices/js`` -> 201 ``{"id"}``, ``/v1/events`` -> 201.
- Raygun: ``api.raygun.io/entries``, ``/events`` (``?apikey=``) -> 202.
- Airbrake: ``api.airbrake.io/api/v3/projects/<id>/notices`` -> 201 ``{"id", "url"}``; remote config
  ``notifier-configs.airbrake.io/<date>/config/<id>/config.json``.
- Highlight: GraphQL ``pub.highlight.io`` (``initializeSession`` echoes the session's secure id
  with a project id; the other operations answer their field), OTLP ``otel.highlight.io/v1/*`` -> ``{}``.
"""
from __future__ import annotations

import json
import re
import uuid

from .sdk_endpoints import _json, _text


def _datadog(path, headers):
    if re.fullmatch(r"/api/v2/(rum|logs|replay|profile)", path):
        return _json({"request_id": str(uuid.uuid4())}, headers, 202)
    return None


def _airbrake(host, path, headers):
    found = re.fullmatch(r"/api/v3/projects/([0-9]+)/notices", path)
    if host == "api.airbrake.io" and found:
        notice = str(uuid.uuid4())
        return _json({"id": notice, "url": f"https://airbrake.io/locate/{notice}"}, headers, 201)
    found = re.fullmatch(r"/[0-9-]+/config/([0-9]+)/config\.json", path)
    if host == "notifier-configs.airbrake.io" and found:
        return _json({"project_id": int(found.group(1)), "updated_at": 1767225600, "poll_sec": 600,
                      "config_route": f"2020-06-18/config/{found.group(1)}/config.json",
                      "settings": [{"name": "errors", "enabled": True, "endpoint": None},
                                   {"name": "apm", "enabled": False, "endpoint": None}]}, headers)
    if host == "api.airbrake.io" and path.startswith("/api/v5/projects/"):
        return _text("", headers, 204)
    return None


def _highlight(body, headers):
    """One GraphQL operation of highlight.run (``pub.highlight.io``)."""
    try:
        request = json.loads(body or b"{}")
    except ValueError:
        return _json({"errors": [{"message": "bad request"}]}, headers, 400)
    query = request.get("query") or "" if isinstance(request, dict) else ""
    variables = request.get("variables") or {} if isinstance(request, dict) else {}
    if "initializeSession" in query:
        return _json({"data": {"initializeSession": {
            "secure_id": variables.get("session_secure_id") or "FxHighlightSession000000000",
            "project_id": "1", "sampling": None}}}, headers)
    found = re.search(r"\b(?:mutation|query)\s+\w+[^{]*\{\s*(\w+)", query)
    return _json({"data": {found.group(1) if found else "ok": None}}, headers)


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None for hosts and paths not listed above."""
    if re.fullmatch(r"browser-intake-[a-z0-9-]+\.(?:com|eu)", host):
        return _datadog(path, headers)
    if host.endswith(".cloud.es.io") or host.endswith(".apm-fixture.example"):
        if path == "/intake/v2/rum/events":
            return _text("", headers, 202)
        if path == "/config/v1/rum/agents":
            return _json({}, headers)
        return None
    if host in ("notify.bugsnag.com", "sessions.bugsnag.com") and path == "/":
        return _text("OK", headers, 202)
    if host == "api.rollbar.com" and path == "/api/1/item/":
        return _json({"err": 0, "result": {"id": None, "uuid": str(uuid.uuid4())}}, headers)
    if re.fullmatch(r"faro-collector-[a-z0-9-]+\.grafana\.net", host) and path.startswith("/collect/"):
        return _text("ok", headers, 202)
    if host in ("api.honeybadger.io", "eu-api.honeybadger.io") and path in ("/v1/notices/js", "/v1/events"):
        return _json({"id": str(uuid.uuid4())}, headers, 201)
    if host == "api.raygun.io" and path in ("/entries", "/events", "/entries/bulk"):
        return _text("", headers, 202)
    if host.endswith("airbrake.io"):
        return _airbrake(host, path, headers)
    if host == "pub.highlight.io" and method == "POST":
        return _highlight(body, headers)
    if host == "otel.highlight.io" and path.startswith("/v1/"):
        return _json({}, headers)
    return None
