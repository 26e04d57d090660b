"""Configuration and event endpoints of the feature-flag and experimentation
vendors whose own SDKs (npm, unmodified) run on the ``sdk-*.example`` fixture
pages (list in ``docs/real-pages.md``).  Each configuration answer is a valid,
minimal one (one flag or goal the page evaluates) so that the SDK gets ready
and goes on to send its events; event endpoints acknowledge as the real ones
do.  CORS with the origin echoed, as in ``sdk_endpoints.py``.

Shapes come from the SDKs' own code and the vendors' public API docs:
- GrowthBook: ``cdn.growthbook.io/api/features/<client key>`` (``{status, features, experiments,
  dateUpdated}``), events ``<region>.gb-ingest.com/track?client_key=``.
- LaunchDarkly: ``app.launchdarkly.com/sdk/goals/<env>`` (``[]``), ``/sdk/evalx/<env>/context(s/…)``
  (flag -> ``{value, variation, version}``), ``events.launchdarkly.com/events/{bulk,diagnostic}/<env>`` -> 202.
- Statsig: ``featureassets.org/v1/initialize`` (``{has_updates, feature_gates, ...}``),
  ``prodregistryv2.org/v1/rgstr`` -> 202 ``{"success": true}``.
- Optimizely Feature Experimentation: datafile ``cdn.optimizely.com/datafiles/<sdk key>.json``
  (:func:`optimizely_datafile`), events ``logx.optimizely.com/v1/events`` -> 204.
- Kameleoon: ``sdk-config.kameleoon.eu/v3/<site code>`` (``{customData, featureFlags,
  configuration}``), ``data.kameleoon.io/visit/events?siteCode=`` -> 204.
- Convert: ``cdn-4.convertexperiments.com/api/v1/config/<account>/<project>`` (:func:`convert_config`),
  ``<project>.metrics.convertexperiments.com/v1/track/<account>/<project>`` -> ``{"data": "ok"}``.
- Reflag: ``front.reflag.com/features/evaluated`` (``{success, features}``), ``/event``, ``/bulk``,
  ``/user``, ``/company``, ``/features/events`` -> ``{"success": true}``; ``/sse/client`` -> 204 (no stream).
- Flagsmith: ``edge.api.flagsmith.com/api/v1/flags/`` (a list of flag states), ``/identities/``,
  ``/analytics/flags/``.
- Unleash: ``<frontend API>`` (``{toggles}``), ``<frontend API>/client/{metrics,register}`` -> 200.
- ConfigCat: ``cdn-<region>.configcat.com/configuration-files/<sdk key>/config_v6.json`` (config JSON v6).
"""
from __future__ import annotations

import json
import re
import time

from .sdk_endpoints import _cors, _json, _text

#: The flag / goal / event every fixture page of this module evaluates or tracks.
FLAG = "fixture_new_checkout"


def optimizely_datafile(sdk_key: str) -> dict:
    """An Optimizely Feature Experimentation datafile (v4): one flag with a running
    A/B test (100% in the "on" variation) and the conversion event ``purchase``."""
    test = {"id": "9300000001", "key": f"{FLAG}_test", "status": "Running", "layerId": "9300000004",
            "trafficAllocation": [{"entityId": "9300000005", "endOfRange": 10000}], "audienceIds": [],
            "audienceConditions": [], "forcedVariations": {},
            "variations": [{"id": "9300000005", "key": "on", "featureEnabled": True, "variables": []}]}
    everyone = {"id": "9300000009", "key": "9300000009", "status": "Running", "layerId": "9300000007",
                "trafficAllocation": [{"entityId": "9300000008", "endOfRange": 10000}], "audienceIds": [],
                "audienceConditions": [], "forcedVariations": {},
                "variations": [{"id": "9300000008", "key": "off", "featureEnabled": False, "variables": []}]}
    return {"version": "4", "revision": "1", "accountId": "29061560001", "projectId": "29061560002",
            "sdkKey": sdk_key, "environmentKey": "production", "anonymizeIP": True, "botFiltering": False,
            "sendFlagDecisions": True, "experiments": [test], "groups": [], "attributes": [], "audiences": [],
            "typedAudiences": [], "variables": [], "integrations": [],
            "rollouts": [{"id": "9300000007", "experiments": [everyone]}],
            "featureFlags": [{"id": "9300000003", "key": FLAG, "experimentIds": ["9300000001"],
                              "rolloutId": "9300000007", "variables": []}],
            "events": [{"id": "9300000006", "key": "purchase", "experimentIds": ["9300000001"]}]}


def convert_config(account: str, project: str) -> dict:
    """A Convert Full Stack project configuration with one goal, ``fixture-purchase``."""
    return {"account_id": account,
            "project": {"id": project, "name": "Fixture shop", "type": "fullstack", "environments": ["live"],
                        "utc_offset": 0, "global_javascript": None,
                        "settings": {"integrations": {}, "data_anonymization": False, "do_not_track": "OFF"}},
            "goals": [{"id": "100123001", "key": "fixture-purchase", "name": "Fixture purchase",
                       "type": "dom_interaction", "settings": {}}],
            "experiences": [], "archived_experiences": [], "audiences": [], "locations": [], "segments": [],
            "features": []}


def _launchdarkly(host, path, headers):
    if host == "app.launchdarkly.com" and re.fullmatch(r"/sdk/goals/[^/]+", path):
        return _json([], headers)
    if host == "app.launchdarkly.com" and re.fullmatch(r"/sdk/evalx/[^/]+/(?:contexts?|users?)(?:/[^/]+)?", path):
        return _json({FLAG.replace("_", "-"): {"value": True, "variation": 0, "version": 3, "flagVersion": 3,
                                              "trackEvents": False}}, headers)
    if host == "events.launchdarkly.com" and re.fullmatch(r"/events/(?:bulk|diagnostic)/[^/]+", path):
        return _text("", headers, 202)
    return None


def _statsig(host, path, headers):
    if host == "featureassets.org" and path == "/v1/initialize":
        return _json({"feature_gates": {}, "dynamic_configs": {}, "layer_configs": {}, "sdkParams": {},
                      "has_updates": True, "generator": "fixture-web", "time": int(time.time() * 1000),
                      "hash_used": "djb2", "derived_fields": {}, "evaluated_keys": {}}, headers)
    if host == "prodregistryv2.org" and path in ("/v1/rgstr", "/v1/sdk_exception"):
        return _json({"success": True}, headers, 202)
    return None


def _kameleoon(host, path, headers):
    if host == "sdk-config.kameleoon.eu" and re.fullmatch(r"/v3/[a-z0-9]+", path):
        return _json({"customData": [], "featureFlags": [],
                      "configuration": {"realTimeUpdate": False, "consentType": "NOT_REQUIRED",
                                        "dataApiDomain": "data.kameleoon.io",
                                        "consentOptOutBehavior": "PARTIALLY_BLOCK"}}, headers)
    if host == "data.kameleoon.io" and path in ("/visit/events", "/visit/visitor", "/map/map"):
        return _text("", headers, 204) if path == "/visit/events" else _json({}, headers)
    return None


def _convert(host, path, headers):
    found = re.fullmatch(r"/api/v1/config/([0-9]+)/([0-9]+)", path)
    if host == "cdn-4.convertexperiments.com" and found:
        return _json(convert_config(found.group(1), found.group(2)), headers)
    if host.endswith(".metrics.convertexperiments.com") and re.fullmatch(r"/v1/track/[0-9]+/[0-9]+", path):
        return _json({"data": "ok"}, headers)
    return None


def _reflag(path, headers):
    if path == "/features/evaluated":
        key = FLAG.replace("_", "-")
        return _json({"success": True, "features": {key: {"key": key, "isEnabled": True, "targetingVersion": 1,
                                                          "config": {"key": None, "version": 0}}}}, headers)
    if path == "/sse/client":
        return _text("", headers, 204)  # EventSource: 204 means "do not reconnect"
    if path in ("/event", "/bulk", "/user", "/company", "/features/events", "/feedback"):
        return _json({"success": True}, headers)
    return None


def _flagsmith(path, headers):
    flag = {"id": 1, "feature": {"id": 1, "name": FLAG, "type": "STANDARD"}, "feature_state_value": None,
            "enabled": True}
    if path == "/api/v1/flags/":
        return _json([flag], headers)
    if path == "/api/v1/identities/":
        return _json({"flags": [flag], "traits": []}, headers)
    if path == "/api/v1/analytics/flags/":
        return _text("", headers, 200)
    return None


def _unleash(path, method, headers):
    if re.fullmatch(r"(?:/[^/]+)*/api/frontend/?", path):
        return 200, {"Content-Type": "application/json", "Cache-Control": "no-store", "ETag": '"fixture-1"',
                     **_cors(headers)}, json.dumps({"toggles": [
                         {"name": FLAG, "enabled": True, "impressionData": False,
                          "variant": {"name": "disabled", "enabled": False, "feature_enabled": True}}]})
    if re.fullmatch(r"(?:/[^/]+)*/api/frontend/client/(?:metrics|register)", path) and method == "POST":
        return _text("", headers, 200)
    return None


def _configcat(path, headers):
    if re.fullmatch(r"/configuration-files/.+/config_v6\.json", path):
        return _json({"p": {"u": "https://cdn-global.configcat.com", "r": 0, "s": "FxConfigCatSalt0123456789"},
                      "f": {"fixtureNewCheckout": {"t": 0, "v": {"b": True}, "i": "fx000001"}}}, headers)
    return None


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None for hosts and paths not listed above."""
    if host == "cdn.growthbook.io" and re.fullmatch(r"/api/features/[^/]+", path):
        return _json({"status": 200, "features": {FLAG.replace("_", "-"): {"defaultValue": True}},
                      "experiments": [], "dateUpdated": "2026-01-01T00:00:00.000Z"}, headers)
    if host.endswith(".gb-ingest.com") and path == "/track":
        return _text("", headers, 200)
    if host.endswith("launchdarkly.com"):
        return _launchdarkly(host, path, headers)
    if host in ("featureassets.org", "prodregistryv2.org"):
        return _statsig(host, path, headers)
    found = re.fullmatch(r"/datafiles/([^/]+)\.json", path)
    if host == "cdn.optimizely.com" and found:
        return _json(optimizely_datafile(found.group(1)), headers)
    if host == "logx.optimizely.com" and path == "/v1/events":
        return _text("", headers, 204)
    if host.endswith("kameleoon.eu") or host.endswith("kameleoon.io"):
        return _kameleoon(host, path, headers)
    if host.endswith("convertexperiments.com"):
        return _convert(host, path, headers)
    if host == "front.reflag.com":
        return _reflag(path, headers)
    if host in ("edge.api.flagsmith.com", "api.flagsmith.com"):
        return _flagsmith(path, headers)
    if host.endswith(".unleash-hosted.com"):
        return _unleash(path, method, headers)
    if re.fullmatch(r"cdn-(?:global|eu|us)\.configcat\.com", host):
        return _configcat(path, headers)
    return None
