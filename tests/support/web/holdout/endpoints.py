"""Fixture-web routes of the hold-out set (``holdout/__init__.py``):

- ``sites/<host>/``: the hold-out pages, served statically (``truth.json`` is never served);
- June (@june-so/analytics-next, Segment's analytics-next on June's hosts): its lazily loaded
  bundles ``cdn.june.so/analytics-next/bundles/<file>`` from the package's ``dist/umd/`` (its own
  published code), and the tracking API ``api.june.so/sdk/<t|p|i|...>``: 200 ``{}``;
- OpenReplay's ingest, ``api.openreplay.com/ingest/v1/web/...``: ``start`` (the body carries the
  ``projectKey``) answers the fields @openreplay/tracker checks (``token``, ``userUUID``,
  ``sessionID``, ``delay``, ``startTimestamp``, ``beaconSizeLimit``), batches (``i``) 200,
  ``tags`` and ``conditions`` empty lists;
- Aptabase's event endpoint, ``<region>.aptabase.com/api/v0/event`` (``App-Key`` header):
  200 ``{}`` (@aptabase/web reads only the status).

Every answer carries CORS for the page's origin, as the real services do.
"""
from __future__ import annotations

import json
import mimetypes
import re
import time
import uuid
from pathlib import Path

SITES = Path(__file__).with_name("sites")
JUNE_UMD = Path(__file__).parent.parent / "npm" / "node_modules" / "@june-so" / "analytics-next" / "dist" / "umd"


def _cors(headers) -> dict:
    origin = headers.get("Origin")
    return {"Access-Control-Allow-Origin": origin or "*", "Vary": "Origin", "Cache-Control": "no-store"}


def _page(host: str, path: str):
    root = (SITES / host).resolve()
    target = (root / path.lstrip("/")).resolve()
    if target.is_dir():
        target = target / "index.html"
    if not str(target).startswith(str(root)) or not target.is_file() or target.name == "truth.json":
        return 404, {"Content-Type": "text/html"}, "<h1>404 fixture</h1>"
    kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    return 200, {"Content-Type": kind, "Cache-Control": "no-store"}, target.read_bytes()


def _june_bundle(name: str, headers):
    target = JUNE_UMD / name
    if not re.fullmatch(r"[A-Za-z0-9_.-]+\.js", name) or not target.is_file():
        return 404, {"Content-Type": "text/plain", **_cors(headers)}, "Not Found"
    return 200, {"Content-Type": "application/javascript", **_cors(headers)}, target.read_bytes()


def _openreplay(part: str, headers):
    answer: object = {}
    if part == "start":
        answer = {"token": uuid.uuid4().hex, "userUUID": str(uuid.uuid4()), "sessionID": str(uuid.uuid4().int % 10**18),
                  "projectID": "44", "delay": 0, "startTimestamp": int(time.time() * 1000),
                  "beaconSizeLimit": 1_000_000, "compressionThreshold": 24_000}
    elif part.startswith("tags"):
        answer = {"tags": []}
    elif part.startswith("conditions"):
        answer = {"conditions": []}
    return 200, {"Content-Type": "application/json", **_cors(headers)}, json.dumps(answer)


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None for every other host and path."""
    if (SITES / host).is_dir():
        return _page(host, path)
    if host == "cdn.june.so" and path.startswith("/analytics-next/bundles/"):
        return _june_bundle(path.rsplit("/", 1)[1], headers)
    if host == "api.june.so" and path.startswith("/sdk/"):
        return 200, {"Content-Type": "application/json", **_cors(headers)}, "{}"
    if host == "api.openreplay.com" and path.startswith("/ingest/v1/web/"):
        return _openreplay(path[len("/ingest/v1/web/"):], headers)
    if re.fullmatch(r"(eu|us)\.aptabase\.com", host) and path in ("/api/v0/event", "/api/v0/events"):
        return 200, {"Content-Type": "application/json", **_cors(headers)}, "{}"
    return None
