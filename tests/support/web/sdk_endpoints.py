"""Configuration and ingestion endpoints of the analytics vendors whose own
SDKs (npm, unmodified) run on the ``sdk-*.example`` / ``cmp-*.example``
fixture pages.  Each answers the way the real service does, as far as the
SDK looks at the answer: remote settings with the fields the SDK reads,
ingestion acknowledgements, and CORS with credentials (the origin echoed,
``Access-Control-Allow-Credentials: true``), since several SDKs send cookies.

Shapes come from the SDKs' own code and the vendors' public API docs:
- PostHog: ``/flags/?v=2`` (``{flags, errorsWhileComputingFlags, ...}``), ``/decide/``,
  remote config ``<region>-assets.i.posthog.com/array/<token>/config(.js)``, capture
  ``/e/``, ``/i/v0/e/``, ``/batch/`` answering ``{"status": 1}``; lazy extensions
  (``/static/<file>.js``) are posthog-js's own dist files.
- Mixpanel: ``api-js.mixpanel.com/track|engage|groups`` with ``verbose=1`` ->
  ``{"status": 1, "error": null}``.
- Amplitude: remote config ``sr-client-cfg.amplitude.com/config/<key>`` and
  HTTP API v2 ``api2.amplitude.com/2/httpapi`` -> ``{code: 200, events_ingested, ...}``.
- Segment: ``cdn.segment.com/v1/projects/<writeKey>/settings`` (the
  ``Segment.io`` integration and tracking plan) and its lazy bundles
  (``/analytics-next/bundles/``, served from @segment/analytics-next's dist),
  ``api.segment.io/v1/<t|p|i|g|a|b|batch|m>`` -> ``{"success": true}``.
- Snowplow: any collector's ``/com.snowplowanalytics.snowplow/tp2`` -> ``ok``.
- RudderStack: ``api.rudderstack.com/sourceConfig/`` (``{source: {config, destinations,
  ...}}``) and the data plane ``/v1/<page|track|identify|batch>`` -> ``OK``.
- Plausible: ``plausible.io/api/event`` -> 202 ``ok``.
- mParticle: ``jssdkcdns.mparticle.com/JS/v2/<key>/config``, ``identity.mparticle.com/v1/<call>``
  and ``jssdks.mparticle.com/v3/JS/<key>/events`` -> 202.
Every request is in ``FixtureWeb.log`` (the beacons tests look for).
"""
from __future__ import annotations

import base64
import json
import re
import time
import uuid

from .npm_cdn import NPM_ROOT

JSON_TYPE = "application/json"


def _cors(headers) -> dict:
    origin = headers.get("Origin")
    if not origin:
        return {"Access-Control-Allow-Origin": "*"}
    return {"Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true", "Vary": "Origin"}


def _json(value, headers, status: int = 200):
    return status, {"Content-Type": JSON_TYPE, "Cache-Control": "no-store", **_cors(headers)}, json.dumps(value)


def _text(text: str, headers, status: int = 200, kind: str = "text/plain"):
    return status, {"Content-Type": kind, "Cache-Control": "no-store", **_cors(headers)}, text


def _dist_file(package: str, folder: str, name: str, headers):
    target = (NPM_ROOT / package / folder / name).resolve()
    if not str(target).startswith(str((NPM_ROOT / package).resolve())) or not target.is_file():
        return _text("Not Found", headers, 404)
    return 200, {"Content-Type": "application/javascript; charset=utf-8", **_cors(headers)}, target.read_bytes()


# -- PostHog ----------------------------------------------------------------------
def posthog_remote_config(token: str) -> dict:
    """Remote config of a PostHog project (``/array/<token>/config``), everything optional off."""
    return {"token": token, "supportedCompression": ["gzip", "gzip-js"], "hasFeatureFlags": False,
            "captureDeadClicks": False, "capturePerformance": False, "autocapture_opt_out": True,
            "autocaptureExceptions": False, "analytics": {"endpoint": "/i/v0/e/"}, "elementsChainAsString": True,
            "sessionRecording": False, "heatmaps": False, "surveys": False, "defaultIdentifiedOnly": True,
            "siteApps": []}


def _posthog(host, path, method, headers):
    if host.endswith("-assets.i.posthog.com"):
        found = re.fullmatch(r"/array/([^/]+)/config(\.js)?", path)
        if found and found.group(2):
            config = json.dumps({"config": posthog_remote_config(found.group(1)), "siteApps": []})
            return _text(f"(function(){{window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{{}};"
                         f"window._POSTHOG_REMOTE_CONFIG[{json.dumps(found.group(1))}]={config};}})();",
                         headers, kind="application/javascript")
        if found:
            return _json(posthog_remote_config(found.group(1)), headers)
        if path.startswith("/static/"):
            return _dist_file("posthog-js", "dist", path[len("/static/"):], headers)
        return None
    if path.rstrip("/") == "/flags":
        return _json({"flags": {}, "errorsWhileComputingFlags": False, "quotaLimited": [],
                      "requestId": str(uuid.uuid4())}, headers)
    if path.rstrip("/") == "/decide":
        return _json({"featureFlags": {}, "featureFlagPayloads": {}, "errorsWhileComputingFlags": False,
                      **posthog_remote_config("")}, headers)
    if re.fullmatch(r"/(e|i/v0/e|batch|capture|track|engage|s|i/v1/logs|i/v1/metrics)/?", path):
        return _json({"status": 1}, headers)
    return None


# -- Segment ----------------------------------------------------------------------
def segment_settings(write_key: str) -> dict:
    """CDN settings of a Segment source with no destinations (``/v1/projects/<key>/settings``)."""
    return {"integrations": {"Segment.io": {"apiKey": write_key, "unbundledIntegrations": [],
                                            "addBundledMetadata": True, "maybeBundledConfigIds": {},
                                            "versionSettings": {"version": "4.4.7", "componentTypes": ["browser"]},
                                            "apiHost": "api.segment.io/v1"}},
            "plan": {"track": {"__default": {"enabled": True, "integrations": {}}},
                     "identify": {"__default": {"enabled": True}}, "group": {"__default": {"enabled": True}}},
            "edgeFunction": {}, "analyticsNextEnabled": True, "middlewareSettings": {}, "enabledMiddleware": {},
            "metrics": {"sampleRate": 0}, "legacyVideoPluginsEnabled": False, "remotePlugins": []}


def _segment(host, path, method, headers):
    if host == "cdn.segment.com":
        found = re.fullmatch(r"/v1/projects/([^/]+)/settings", path)
        if found:
            return _json(segment_settings(found.group(1)), headers)
        if path.startswith("/analytics-next/bundles/"):
            return _dist_file("@segment/analytics-next", "dist/umd", path.rsplit("/", 1)[1], headers)
        return None
    if re.fullmatch(r"/v1/(t|p|i|g|a|s|b|batch|m|track|page|identify|group|alias|screen)", path):
        return _json({"success": True}, headers)
    return None


# -- RudderStack ------------------------------------------------------------------
def rudderstack_source_config(write_key: str) -> dict:
    """``sourceConfig`` of a RudderStack JavaScript source with no device-mode destinations."""
    return {"isHosted": True, "source": {
        "id": "2FxSourceId00000000000000000", "name": "fixture web", "writeKey": write_key, "enabled": True,
        "workspaceId": "2FxWorkspace0000000000000000", "deleted": False, "updatedAt": "2026-01-01T00:00:00.000Z",
        "createdAt": "2026-01-01T00:00:00.000Z", "config": {"statsCollection": {
            "errors": {"enabled": False}, "metrics": {"enabled": False}}},
        "sourceDefinition": {"id": "1TW48i2bIzEl1HPf825cEznfIM8", "name": "Javascript", "displayName": "JavaScript",
                             "category": None},
        "destinations": []}}


def _rudderstack(host, path, method, query, headers):
    if host == "api.rudderstack.com" and path.rstrip("/") == "/sourceConfig":
        key = query.get("writeKey") or ""
        auth = headers.get("Authorization") or ""
        if not key and auth.startswith("Basic "):
            key = base64.b64decode(auth[6:]).decode(errors="replace").split(":")[0]
        return _json(rudderstack_source_config(key), headers)
    calls = r"/v1/(page|track|identify|group|alias|screen|batch)"
    if host.endswith(".dataplane.rudderstack.com") and re.fullmatch(calls, path):
        return _text("OK", headers)
    return None


# -- mParticle --------------------------------------------------------------------
def _mparticle(host, path, method, headers):
    if host == "jssdkcdns.mparticle.com" and re.fullmatch(r"/JS/v2/[^/]+/config", path):
        return _json({}, headers)
    if host == "identity.mparticle.com" and path.startswith("/v1/"):
        return _json({"context": None, "matched_identities": {}, "mpid": "8647812304556291232",
                      "is_ephemeral": False, "is_logged_in": False}, headers)
    if host == "jssdks.mparticle.com" and re.fullmatch(r"/v[23]/JS/[^/]+/[Ee]vents", path):
        return _text("", headers, 202)
    return None


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None for hosts and paths not listed above."""
    if host.endswith(".i.posthog.com"):
        return _posthog(host, path, method, headers)
    if host == "api-js.mixpanel.com" and re.fullmatch(r"/(track|engage|groups|decide|record)/?", path):
        return _json({"status": 1, "error": None}, headers)
    if host.startswith("sr-client-cfg.") and host.endswith("amplitude.com") and path.startswith("/config"):
        return _json({"configs": {}}, headers)
    if host in ("api2.amplitude.com", "api.eu.amplitude.com") and path in ("/2/httpapi", "/batch"):
        events = len((json.loads(body or b"{}") if body.startswith(b"{") else {}).get("events") or [])
        return _json({"code": 200, "server_upload_time": int(time.time() * 1000),
                      "payload_size_bytes": len(body), "events_ingested": events}, headers)
    if host in ("cdn.segment.com", "api.segment.io"):
        return _segment(host, path, method, headers)
    if path == "/com.snowplowanalytics.snowplow/tp2":
        return _text("ok", headers)
    if host == "api.rudderstack.com" or host.endswith(".dataplane.rudderstack.com"):
        return _rudderstack(host, path, method, query, headers)
    if host == "plausible.io" and path == "/api/event":
        return _text("ok", headers, 202)
    if host.endswith("mparticle.com"):
        return _mparticle(host, path, method, headers)
    return None
