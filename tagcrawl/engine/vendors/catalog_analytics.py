"""Catalog: web / product analytics and audience measurement (non-Google,
non-Adobe).  Matomo, Piwik PRO, AT Internet/Piano, Webtrends, Snowplow and
Plausible are matched on path + parameter shape on any host (self-hosted or
first-party collection)."""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

_UUID_RX = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_DOMAIN = ids.pattern("(?:[a-z0-9-]+\\.)+[a-z]{2,24}", case="lower", example="acme.com")

VENDORS = (
    Vendor(
        "matomo", "Matomo", "analytics",
        (P(None, r"(?:^|/)(?:matomo|piwik)\.php$", require={"p:idsite": "^[0-9]+$"}, ids="p:idsite",
           events=("p:e_a", "p:e_c")),),
        ("Piwik", "Matomo Analytics", "Matomo Cloud"),
        ids.digits(1, 6, example="1"),
        "`idsite` (numeric) of `matomo.php` / `piwik.php` on any host",
    ),
    Vendor(
        "piwik_pro", "Piwik PRO", "analytics",
        (
            P(None, r"(?:^|/)(?:ppms|piwik)\.php$", require={"p:idsite": _UUID_RX}, ids="p:idsite",
              events=("p:e_a", "p:e_c")),
            P(None, r"(?:^|/)ppms\.php$", require={"p:idsite": "^[0-9]+$"}, ids="p:idsite",
              events=("p:e_a", "p:e_c")),
            P(host_re("piwik.pro"), r"(?:^|/)ppms\.php$", ids="p:idsite", events=("p:e_a", "p:e_c")),
            P(host_re("piwik.pro"), r"^/ppms\.js$"),
        ),
        ("PiwikPRO", "Piwik PRO Analytics"),
        ids.pattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9]{1,9}", case="lower",
                    example="0f8fad5b-d9cb-469f-a165-70867728950e"),
        "`idsite` (UUID, or numeric on older installs) of `ppms.php`; UUID `idsite` of `piwik.php`",
    ),
    Vendor(
        "at_internet", "AT Internet (Piano Analytics)", "analytics",
        (
            P(None, r"(?:^|/)hit\.xiti$", require={"p:s": "^[0-9]+$"}, ids="p:s", events=("p:type", "const:page")),
            P(None, r"^/event/?$", require={"q:s": "^[0-9]+$", "q:idclient": ""}, ids="q:s",
              events="json:name", split="json:events"),
            P(host_re("aticdn.net"), r"/(?:smarttag|piano-analytics)\.js$", ids=r"path:^/([0-9]+)/"),
        ),
        ("AT Internet", "Piano Analytics", "Piano", "XiTi", "ATInternet"),
        ids.digits(3, 9, example="123456"),
        "`s` (site) of `*.xiti.com/hit.xiti` or of the Piano `/event?s=` collection endpoint",
    ),
    Vendor(
        "webtrends", "Webtrends", "analytics",
        (
            P(host_re("webtrends.com", "webtrendslive.com"), r"/dcs\.gif$", ids=r"path:^/([^/]+)/dcs\.gif$",
              events="p:WT.dl"),
            P(None, r"/dcs\.gif$", require={"p:dcsuri": ""}, ids=r"path:^/([^/]+)/dcs\.gif$", events="p:WT.dl"),
            P(None, r"/dcs\.gif$", require={"p:dcsdat": "^[0-9]+$"}, ids=r"path:^/([^/]+)/dcs\.gif$",
              events="p:WT.dl"),
            P(host_re("webtrends.com", "webtrendslive.com"), r"\.js$"),
        ),
        ("Webtrends OnDemand", "WebTrends Analytics"),
        ids.pattern("[A-Za-z0-9_]{4,40}", case="lower", example="dcs222abcdefghijklmnop_1a2b"),
        "DCS id: path of `/<dcsid>/dcs.gif` (`*.webtrendslive.com`, or any host with `dcsuri` / `dcsdat`)",
    ),
    Vendor(
        "comscore", "Comscore", "analytics",
        (
            P(host_re("scorecardresearch.com"), r"^/(?:b2?|p2?)$", ids="p:c2", events="p:ns_type"),
            P(host_re("scorecardresearch.com"), r"\.js$"),
        ),
        ("comScore", "Scorecard Research", "Comscore Direct"),
        ids.digits(4, 10, example="1234567"),
        "`c2` of `sb.scorecardresearch.com/b`",
    ),
    Vendor(
        "nielsen", "Nielsen", "analytics",
        (
            P(host_re("imrworldwide.com"), r"^/cgi-bin/(?:gn|m|cfg|o)$", ids=("p:ci", "p:apid"), events="p:at"),
            P(host_re("imrworldwide.com"), r"\.js$"),
        ),
        ("Nielsen DCR", "Nielsen Digital Content Ratings", "imrworldwide"),
        ids.pattern("[A-Za-z0-9-]{3,60}", example="us-123456"),
        "`ci` (client id) or `apid` of `*.imrworldwide.com/cgi-bin/gn`",
    ),
    Vendor(
        "quantcast", "Quantcast", "advertising",
        (
            P(host_re("pixel.quantserve.com", "pixel.quantcount.com"), r"^/pixel",
              ids=("p:a", r"path:/(p-[A-Za-z0-9_-]{8,16})\.gif$"), events="p:labels"),
            P(host_re("quantserve.com", "quantcount.com"), r"^/(?:quant\.js|rules-p-[A-Za-z0-9_-]+\.js)$",
              ids=r"path:^/rules-(p-[A-Za-z0-9_-]+)\.js$"),
        ),
        ("Quantcast Measure", "Quantcast Advertise"),
        ids.pattern("p-[A-Za-z0-9_-]{8,16}", example="p-AbCdEfGh12345"),
        "`a=p-...` of `pixel.quantserve.com/pixel`",
    ),
    Vendor(
        "heap", "Heap", "analytics",
        (
            P(host_re("heapanalytics.com", "heap-api.com"), r"^/(?:h|api/[a-z_/]+)$",
              ids=("p:a", "json:app_id", "json:appId"), events=("json:event", "p:k")),
            P(host_re("heapanalytics.com", "heap-api.com"), r"^/js/heap-[0-9]+\.js$",
              ids=r"path:^/js/heap-([0-9]+)\.js$"),
            P(host_re("heap-api.com", "heapanalytics.com"), r"^/config/[0-9]+/", ids=r"path:^/config/([0-9]+)/",
              config=True),
        ),
        ("Heap Analytics",),
        ids.digits(5, 12, example="2345678901"),
        "`a` of `heapanalytics.com/h`; path of `cdn.heapanalytics.com/js/heap-<id>.js`",
    ),
    Vendor(
        "amplitude", "Amplitude", "analytics",
        (
            P(host_re("amplitude.com"), r"^/(?:2/httpapi|batch)?/?$", ids=("json:api_key", "p:client"),
              events=("json:event_type",), split="json:events", embedded="e"),
            P(host_re("cdn.amplitude.com"), r"^/script/[a-f0-9]{32}\.", ids=r"path:^/script/([a-f0-9]{32})\."),
            P(r"^sr-client-cfg(?:\.eu)?\.amplitude\.com$", r"^/config/[^/]+$", ids=r"path:^/config/([^/]+)$",
              config=True),
            P(host_re("cdn.amplitude.com"), r"^/libs/"),
        ),
        ("Amplitude Analytics",),
        ids.HEX32,
        "`api_key` in the JSON body of `api2.amplitude.com/2/httpapi` / `/batch`, or `client` form field of "
        "`api.amplitude.com`; remote config `sr-client-cfg.amplitude.com/config/<api_key>`",
    ),
    Vendor(
        "mixpanel", "Mixpanel", "analytics",
        (
            P(host_re("mixpanel.com"), r"^/(?:track|engage|import|groups)/?$",
              ids=("json:properties.token", "json:$token", "p:token"), events="json:event",
              split="json:", embedded="data"),
            P(host_re("mixpanel.com"), r"^/decide/?$", ids="p:token", config=True),
            # session recording: gzip body, the project token only as Basic auth (mixpanel-browser _sendRequest)
            P(host_re("mixpanel.com"), r"^/record/?$", ids="auth:basic", events="const:session recording"),
            P(host_re("mxpnl.com", "mixpanel.com"), r"^/libs/mixpanel"),
        ),
        (),
        ids.HEX32,
        "`properties.token` of the (base64) JSON `data` param/body of `api-js.mixpanel.com/track` / `/engage`; "
        "Basic auth user of `/record` (session replay, gzip body)",
    ),
    Vendor(
        "kissmetrics", "Kissmetrics", "analytics",
        (
            P(host_re("kissmetrics.io", "kissmetrics.com"), r"^/[esa]$", ids="p:_k", events="p:_n"),
            P(host_re("kissmetrics.io", "kissmetrics.com"), r"^/[a-f0-9]{40}\.[0-9]\.js$",
              ids=r"path:^/([a-f0-9]{40})\."),
            P(host_re("kissmetrics.io", "kissmetrics.com"), r"^/i\.js$"),
        ),
        ("KISSmetrics",),
        ids.pattern("[a-f0-9]{40}", case="lower", example="0123456789abcdef0123456789abcdef01234567"),
        "`_k` of `trk.kissmetrics.io/e`; path of `scripts.kissmetrics.io/<key>.2.js`",
    ),
    Vendor(
        "indicative", "Indicative", "analytics",
        (P(host_re("api.indicative.com"), r"^/service/event(?:/batch)?/?$", ids="json:apiKey",
           events="json:eventName", split="json:events"),),
        (),
        ids.UUID,
        "`apiKey` in the JSON body of `api.indicative.com/service/event`",
    ),
    Vendor(
        "yandex_metrica", "Yandex Metrica", "analytics",
        (
            P(r"(?:^|\.)mc\.yandex\.[a-z.]+$|(?:^|\.)mc\.webvisor\.(?:org|com)$", r"^/(?:watch|webvisor|clmap)/[0-9]+",
              ids=r"path:^/[a-z]+/([0-9]+)", events=r"path:^/([a-z]+)/"),
            P(r"(?:^|\.)mc\.yandex\.[a-z.]+$", r"^/metrika/(?:tag|watch)[a-z_]*\.js$"),
        ),
        ("Yandex", "Yandex.Metrica", "Yandex Metrika", "Metrika"),
        ids.digits(4, 10, example="12345678"),
        "path of `mc.yandex.ru/watch/<id>`",
    ),
    Vendor(
        "snowplow", "Snowplow", "analytics",
        (
            P(None, r"(?:^|/)com\.snowplowanalytics\.snowplow/tp2$", require={"json:schema": "snowplow"},
              ids="json:aid", events="json:e",
              split="json:data"),
            P(None, r"(?:^|/)i$", require={"p:e": "^(?:pv|pp|se|ue|tr|ti|ad)$", "p:tv": "^[a-z]+-[0-9]"},
              ids="p:aid", events="p:e"),
        ),
        ("Snowplow Analytics",),
        ids.pattern("[A-Za-z0-9_.:-]{1,100}", example="shop-web"),
        "app id `aid` of `/i` or of the `tp2` JSON payload (any collector host)",
    ),
    Vendor(
        "posthog", "PostHog", "analytics",
        (
            P(host_re("posthog.com"), r"^/(?:e|i/v0/e|batch|capture|track|engage|s)/?$",
              ids=("json:api_key", "json:token", "json:properties.token", "p:token"), events="json:event",
              split="json:batch", embedded="data"),
            P(host_re("posthog.com"), r"^/(?:decide|flags)/?$", ids=("json:token", "json:api_key", "p:token"),
              embedded="data", config=True),
            P(host_re("posthog.com"), r"^/(?:static/array\.js|array/phc_[A-Za-z0-9]+/)",
              ids=r"path:^/array/(phc_[A-Za-z0-9]+)/"),
            # a first-party reverse proxy (``/ingest/e/``): the project token decides
            P(None, r"(?:^|/)(?:e|i/v0/e|batch|capture)/?$", require={"json:properties.token": "^phc_"},
              ids="json:properties.token", events="json:event", split="json:batch", embedded="data"),
            P(None, r"(?:^|/)(?:e|i/v0/e|batch|capture)/?$", require={"json:api_key": "^phc_"},
              ids="json:api_key", events="json:event", split="json:batch", embedded="data"),
            P(None, r"(?:^|/)(?:decide|flags)/?$", require={"json:token": "^phc_"}, ids="json:token",
              embedded="data", config=True),
        ),
        ("Posthog",),
        ids.pattern("phc_[A-Za-z0-9]{20,60}", example="phc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcde"),
        "project `api_key` / `token` of `/e/`, `/i/v0/e/`, `/batch/`, `/flags` (JSON body, gzip body with "
        "`compression=gzip-js`, base64 or lz-string `data=`; any host when the token starts `phc_`)",
    ),
    Vendor(
        "plausible", "Plausible Analytics", "analytics",
        (
            P(None, r"(?:^|/)api/event$", require={"json:n": "", "json:d": "", "json:u": "^https?://"},
              ids="json:d", events="json:n", id_sep=","),
            P(None, r"(?:^|/)api/event$", require={"json:name": "", "json:domain": "", "json:url": "^https?://"},
              ids="json:domain", events="json:name", id_sep=","),
            P(host_re("plausible.io"), r"^/js/"),
        ),
        ("Plausible",),
        _DOMAIN,
        "site domain `d` (or `domain`) in the JSON (`text/plain`) body of `/api/event` (plausible.io or a "
        "first-party proxy)",
    ),
    Vendor(
        "parsely", "Parse.ly", "analytics",
        (
            P(host_re("parsely.com"), r"^/(?:px|plogger)/?$", ids="p:idsite", events="p:action"),
            P(host_re("cdn.parsely.com"), r"^/keys/[a-z0-9.-]+/", ids=r"path:^/keys/([a-z0-9.-]+)/"),
        ),
        ("Parsely",),
        _DOMAIN,
        "site id `idsite` of `p1.parsely.com/px/`",
    ),
    Vendor(
        "chartbeat", "Chartbeat", "analytics",
        (
            P(host_re("ping.chartbeat.net"), r"^/ping$", ids="p:g"),
            P(host_re("static.chartbeat.com"), r"\.js$"),
        ),
        (),
        ids.digits(3, 10, example="12345"),
        "account uid `g` of `ping.chartbeat.net/ping`",
    ),
    Vendor(
        "fathom", "Fathom Analytics", "analytics",
        (
            P(host_re("cdn.usefathom.com"), r"^/$", require={"p:sid": ""}, ids="p:sid", events="p:name"),
            P(host_re("cdn.usefathom.com"), r"^/script\.js$"),
        ),
        ("Fathom",),
        ids.pattern("[A-Z0-9]{5,10}", case="upper", example="ABCDEFGH"),
        "site id `sid` of the `cdn.usefathom.com/?` beacon",
    ),
)
