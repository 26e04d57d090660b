"""Emulated vendor hosts for the fixture web.

Vendor libraries (``fbevents.js``, ``gtag/js``, ``analytics.js``, TikTok's
``events.js``, ...) are served from ``vendor_libs/<name>.js``: small
re-implementations that send hits in the same shape as the real libraries, so
that fixture pages can install tags with the vendors' own snippets.  Beacon
endpoints answer like the real ones: a 1x1 GIF for GET, 204/200 for POST.
"""
from __future__ import annotations

from pathlib import Path

from .behaviours import GIF

LIBS = Path(__file__).with_name("vendor_libs")
SITES = Path(__file__).with_name("sites")

#: (host, path prefix) -> library file in vendor_libs/.
LIBRARIES = {
    ("connect.facebook.net", "/en_US/fbevents.js"): "fbevents.js",
    ("connect.facebook.net", "/signals/config/"): "empty.js",
    ("www.googletagmanager.com", "/gtag/js"): "gtag.js",
    ("www.googletagmanager.com", "/gtm.js"): "gtm.js",
    ("www.google-analytics.com", "/analytics.js"): "analytics.js",
    ("analytics.tiktok.com", "/i18n/pixel/events.js"): "tiktok.js",
    ("cdn.cookielaw.org", "/scripttemplates/otSDKStub.js"): "onetrust.js",
    # vendor snippet pages (tests/support/vendor_pages.py, tests/support/web/snippet_pages.py)
    ("snap.licdn.com", "/li.lms-analytics/insight"): "insight.js",
    ("static.ads-twitter.com", "/uwt.js"): "uwt.js",
    ("bat.bing.com", "/bat.js"): "bat.js",
    ("s.pinimg.com", "/ct/core.js"): "pinterest_core.js",
    ("sc-static.net", "/scevent.min.js"): "scevent.js",
    ("www.redditstatic.com", "/ads/pixel.js"): "reddit_pixel.js",
    ("static.hotjar.com", "/c/hotjar-"): "hotjar.js",
    ("www.clarity.ms", "/tag/"): "clarity_tag.js",
    ("scripts.clarity.ms", "/"): "clarity.js",
    ("cdn.segment.com", "/analytics.js/v1/"): "segment.js",
    ("cdn.amplitude.com", "/script/"): "amplitude.js",
    ("cdn.mxpnl.com", "/libs/mixpanel-2-latest"): "mixpanel.js",
    ("js.hs-scripts.com", "/"): "hs_loader.js",
    ("js.hs-analytics.net", "/analytics/"): "hs_analytics.js",
    ("dynamic.criteo.com", "/js/ld/ld.js"): "criteo_ld.js",
    ("cdn.taboola.com", "/libtrc/unip/"): "tfa.js",
    ("amplify.outbrain.com", "/cp/obtp.js"): "obtp.js",
    ("a.quora.com", "/qevents.js"): "qevents.js",
    ("mc.yandex.ru", "/metrika/tag.js"): "metrika_tag.js",
    ("static.klaviyo.com", "/onsite/js/"): "klaviyo.js",
}


def route(host, path, query, method, body, headers, web):
    if (SITES / host).is_dir():
        return None  # a fixture site, served statically
    for (lib_host, prefix), name in LIBRARIES.items():
        if host == lib_host and path.startswith(prefix):
            return 200, {"Content-Type": "application/javascript", "Cache-Control": "no-store"}, (LIBS / name).read_bytes()
    cors = {"Access-Control-Allow-Origin": headers.get("Origin") or "*", "Access-Control-Allow-Credentials": "true"}
    if path.endswith(".js"):
        return 200, {"Content-Type": "application/javascript", **cors}, b"/* fixture vendor script */"
    if method == "POST":
        return 200, {"Content-Type": "application/json", **cors}, b"{}"
    return 200, {"Content-Type": "image/gif", **cors}, GIF
