"""Catalog: Google tags (GA4, Universal Analytics, GTM, Google tag, Google
Ads, Floodlight, Optimize).

``gtag/js?id=`` script loads are routed by id prefix: ``G-`` -> GA4,
``UA-`` -> Universal Analytics, ``AW-`` -> Google Ads, ``DC-`` ->
Floodlight, ``GT-`` -> Google tag.  The GA4/UA/GTM beacons and script
loads are matched on path + parameter shape on any host, so server-side
GTM (``sgtm.shop.example/g/collect``, ``/metrics/g/collect``) is caught.
"""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

#: gtag.js / destination loads, on googletagmanager.com or an sGTM host.
_GTAG = r"(?:^|/)gtag/(?:js|destination)$"
#: Hosts serving Google Ads conversion / remarketing pings.
_ADS_HOSTS = r"(?:^|\.)(?:googleadservices\.com|g\.doubleclick\.net|google\.[a-z]{2,3}(?:\.[a-z]{2})?)$"

VENDORS = (
    Vendor(
        "google_analytics", "Google Analytics 4", "analytics",
        (
            P(None, r"(?:^|/)(?:g/)?collect$", require={"p:v": "^2$", "p:tid": "^[Gg]-"},
              ids="p:tid", events="p:en", split="lines"),
            # on Google's own hosts /g/collect is GA4 whatever its protocol version says
            P(r"(?:^|\.)(?:google-analytics\.com|analytics\.google\.com)$", r"^/g/collect$",
              require={"p:tid": "^[Gg]-"}, ids="p:tid", events=("p:en", "p:t"), split="lines"),
            P(None, _GTAG, require={"q:id": "^[Gg]-"}, ids="q:id"),
        ),
        ("GA4", "Google Analytics", "Google Analytics 4 (GA4)", "GA 4"),
        ids.GA4,
        "`tid` of `/g/collect` or a `v=2` `/collect` (google-analytics.com or any sGTM host, one hit per body "
        "line); "
        "`id` of `gtag/js`",
    ),
    Vendor(
        "universal_analytics", "Universal Analytics", "analytics",
        (
            P(None, r"(?:^|/)(?:r/|j/)?(?:collect|batch)$", require={"p:v": "^1$", "p:tid": "^[Uu][Aa]-"},
              ids="p:tid", events=("p:ea", "p:t"), split="lines"),
            P(None, r"/__utm\.gif$", require={"p:utmac": "^[Uu][Aa]-"}, ids="p:utmac", events="p:utmt"),
            P(None, _GTAG, require={"q:id": "^[Uu][Aa]-"}, ids="q:id"),
            P(host_re("google-analytics.com"), r"^/(?:analytics|ga|urchin|analytics_debug)\.js$"),
        ),
        ("UA", "Google Analytics (UA)", "Google Universal Analytics", "analytics.js"),
        ids.UA,
        "`tid` of `/collect` (v=1) or `utmac` of `__utm.gif`; `id` of `gtag/js`",
    ),
    Vendor(
        "google_tag_manager", "Google Tag Manager", "tag manager",
        (P(None, r"(?:^|/)(?:gtm\.js|ns\.html)$", require={"q:id": "^[Gg][Tt][Mm]-"}, ids="q:id"),),
        ("GTM", "Google Tag Manager (GTM)"),
        ids.GTM,
        "`id` of `gtm.js` / `ns.html` (googletagmanager.com or first-party)",
    ),
    Vendor(
        "google_tag", "Google Tag", "tag manager",
        (P(None, _GTAG, require={"q:id": "^[Gg][Tt]-"}, ids="q:id"),),
        ("gtag.js", "Google tag (GT-)", "Google Tag Gateway"),
        ids.GOOGLE_TAG,
        "`id=GT-...` of `gtag/js`",
    ),
    Vendor(
        "google_ads", "Google Ads", "advertising",
        (
            P(_ADS_HOSTS, r"^/pagead/[a-z0-9-]+/(?:AW-)?[0-9]+(?:/|$)",
              ids=r"path:^/pagead/[a-z0-9-]+/((?:AW-)?[0-9]+)",
              events=("p:en", "p:data~event=([^;]+)", "p:label", r"path:^/pagead/([a-z0-9-]+)/")),
            P(_ADS_HOSTS, r"^/rmkt/collect/[0-9]+", ids=r"path:^/rmkt/collect/([0-9]+)",
              events=("p:en", "const:remarketing")),
            P(host_re("googleadservices.com"), r"^/pagead/conversion(?:_async)?\.js$"),
            P(None, _GTAG, require={"q:id": "^[Aa][Ww]-"}, ids="q:id"),
        ),
        ("AdWords", "Google AdWords", "Google Ads Conversion", "Google Ads Remarketing"),
        ids.AW,
        "path of `/pagead/conversion/<id>/`, `/pagead/viewthroughconversion/<id>/` (`<id>` with or without `AW-`), "
        "`/pagead/1p-conversion/<id>/`, `/rmkt/collect/<id>/`; `id=AW-...` of `gtag/js`",
    ),
    Vendor(
        "floodlight", "Floodlight (Campaign Manager 360)", "advertising",
        (
            P(r"(?:^|\.)(?:ad|fls)\.doubleclick\.net$|^adservice\.google\.[a-z.]+$",
              r"^/(?:ddm/)?activityi?[;/]|^/ddm/fls/", ids="p:src", events="p:cat"),
            P(None, _GTAG, require={"q:id": "^[Dd][Cc]-"}, ids="q:id"),
        ),
        ("DoubleClick", "DoubleClick Floodlight", "Campaign Manager", "Campaign Manager 360", "CM360", "Google Marketing Platform",
         "Search Ads 360", "Display & Video 360"),
        ids.DC,
        "`src=` path parameter of `ad.doubleclick.net/activity;src=...` / `fls.doubleclick.net`; "
        "`id=DC-...` of `gtag/js`",
    ),
    Vendor(
        "google_optimize", "Google Optimize", "optimization",
        (P(host_re("googleoptimize.com"), r"^/optimize\.js$", ids="q:id"),),
        ("Optimize",),
        ids.pattern("(?:OPT|GTM)-[A-Z0-9]{4,9}", case="upper", example="OPT-AB12CD3"),
        "`id` of `googleoptimize.com/optimize.js`",
    ),
)
