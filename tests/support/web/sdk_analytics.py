"""Ingestion endpoints of the product / web analytics and CDP vendors whose own
SDKs (npm, unmodified) run on the ``sdk-*.example`` fixture pages, added for
issue 27 (list in ``docs/real-pages.md``).  Each answers the way the real
service does, as far as the SDK looks at the answer; CORS with the origin
echoed, as in ``sdk_endpoints.py``.

Shapes come from the SDKs' own code and the vendors' public API docs:
- Countly: ``<server>/i`` -> ``{"result": "Success"}``, ``/o/sdk`` (server configuration) -> ``{}``.
- Usermaven: ``<tracking host>/api/v1/event?token=`` -> ``{"status": "ok"}``.
- Swetrix: ``api.swetrix.com/log``, ``/log/{custom,hb,error,noscript}`` -> 201.
- Tinybird: ``api.tinybird.co/v0/events?name=&token=`` -> 202 ``{successful_rows, quarantined_rows}``.
- OpenPanel: ``api.openpanel.dev/track`` -> ``{}``.
- Jitsu: ``<workspace>.d.jitsu.com/p.js`` (the file Jitsu serves: ``@jitsu/js``'s ``dist/web/p.js.txt``),
  ``/api/s/<page|track|identify|group|…>`` -> ``{"ok": true}``.
- Customer.io Data Pipelines: ``cdp.customer.io/v1/projects/<write key>/settings`` (the ``Customer.io Data
  Pipelines`` integration), lazy chunks ``/v1/analytics-js/<chunk>.js`` (the package's ``dist/umd``), the
  tracking API ``/v1/{t,p,i,g,a,s,b,batch,m}`` -> ``{"success": true}``.
"""
from __future__ import annotations

import re

from .sdk_endpoints import _dist_file, _json, _text


def customerio_settings(write_key: str) -> dict:
    """CDN settings of a Customer.io Data Pipelines JavaScript source with no destinations."""
    return {"integrations": {"Customer.io Data Pipelines": {
                "apiKey": write_key, "apiHost": "cdp.customer.io/v1", "unbundledIntegrations": [],
                "addBundledMetadata": True, "maybeBundledConfigIds": {},
                "versionSettings": {"version": "4.4.7", "componentTypes": ["browser"]}}},
            "plan": {"track": {"__default": {"enabled": True, "integrations": {}}},
                     "identify": {"__default": {"enabled": True}}, "group": {"__default": {"enabled": True}}},
            "edgeFunction": {}, "analyticsNextEnabled": True, "middlewareSettings": {}, "enabledMiddleware": {},
            "metrics": {"sampleRate": 0}, "legacyVideoPluginsEnabled": False, "remotePlugins": []}


def _customerio(path, headers):
    found = re.fullmatch(r"/v1/projects/([^/]+)/settings", path)
    if found:
        return _json(customerio_settings(found.group(1)), headers)
    if path.startswith("/v1/analytics-js/") and path.endswith(".js"):
        return _dist_file("@customerio/cdp-analytics-browser", "dist/umd", path.rsplit("/", 1)[1], headers)
    if re.fullmatch(r"/v1/(t|p|i|g|a|s|b|batch|m|track|page|identify|group|alias|screen)", path):
        return _json({"success": True}, headers)
    return None


def _jitsu(path, headers):
    if path == "/p.js":
        return _dist_file("@jitsu/js", "dist/web", "p.js.txt", headers)
    if re.fullmatch(r"/api/s/(?:s2s/)?(page|track|identify|group|alias|screen)", path):
        return _json({"ok": True}, headers)
    return None


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None for hosts and paths not listed above."""
    if host.endswith(".count.ly"):
        if path == "/i":
            return _json({"result": "Success"}, headers)
        if path == "/o/sdk":
            return _json({}, headers)
        return None
    if host.endswith("usermaven.com") and path == "/api/v1/event":
        return _json({"status": "ok"}, headers)
    if host == "api.swetrix.com" and re.fullmatch(r"/log(?:/(?:custom|hb|error|noscript))?/?", path):
        return _text("", headers, 201)
    if host.endswith("tinybird.co") and path == "/v0/events":
        return _json({"successful_rows": 1, "quarantined_rows": 0}, headers, 202)
    if host == "api.openpanel.dev" and path == "/track":
        return _json({}, headers)
    if host.endswith(".d.jitsu.com"):
        return _jitsu(path, headers)
    if host in ("cdp.customer.io", "cdp-eu.customer.io"):
        return _customerio(path, headers)
    return None
