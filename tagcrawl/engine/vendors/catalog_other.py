"""Catalog: customer data platforms, marketing automation / messaging and
experimentation (A/B testing) tools."""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

_SEG_CALLS = r"(?:t|p|i|g|a|s|b|m|track|page|identify|group|alias|screen|batch|import)"

VENDORS = (
    # -- customer data platforms -----------------------------------------------
    Vendor(
        "segment", "Segment", "customer data platform",
        (
            P(host_re("segment.io", "segment.com", "segmentapis.com"), rf"^/v1/{_SEG_CALLS}/?$",
              ids=("json:writeKey", "auth:basic"), events=("json:event", "json:type", r"path:^/v1/([a-z]+)"),
              split="json:batch"),
            P(host_re("cdn.segment.com", "cdn.segment.io"), r"^/analytics\.js/v1/[A-Za-z0-9]+/analytics(?:\.min)?\.js$",
              ids=r"path:^/analytics\.js/v1/([A-Za-z0-9]+)/"),
            P(host_re("cdn.segment.com", "cdn.segment.io"), r"^/v1/projects/[A-Za-z0-9]+/settings$",
              ids=r"path:^/v1/projects/([A-Za-z0-9]+)/", config=True),
            # a first-party proxy of api.segment.io: analytics.js message ids start "ajs-"
            P(None, rf"(?:^|/)v1/{_SEG_CALLS}/?$", require={"json:writeKey": "", "json:messageId": "^ajs-"},
              ids=("json:writeKey", "auth:basic"), events=("json:event", "json:type"), split="json:batch"),
        ),
        ("Twilio Segment", "Segment.io", "analytics.js (Segment)"),
        ids.pattern("[A-Za-z0-9]{16,40}", example="AbCdEf0123456789AbCdEf0123456789"),
        "write key: `cdn.segment.com/analytics.js/v1/<key>/analytics.min.js`, `writeKey` in the "
        "`api.segment.io/v1/*` JSON body or the Basic auth user",
    ),
    Vendor(
        "rudderstack", "RudderStack", "customer data platform",
        (
            P(host_re("rudderstack.com", "rudderlabs.com"), rf"^/v1/{_SEG_CALLS}/?$",
              ids=("auth:basic", "json:writeKey"), events=("json:event", "json:type", r"path:^/v1/([a-z]+)"),
              split="json:batch"),
            P(host_re("rudderlabs.com", "rudderstack.com"), r"^/sourceConfig/?$", ids=("p:writeKey", "auth:basic"),
              config=True),
            # a customer's own data plane: RudderStack events carry ``rudderId``
            P(None, rf"(?:^|/)v1/{_SEG_CALLS}/?$", require={"json:rudderId": ""},
              ids=("auth:basic", "json:writeKey"), events=("json:event", "json:type"), split="json:batch"),
            P(host_re("rudderlabs.com"), r"rudder-analytics(?:\.min)?\.js$"),
        ),
        ("Rudder Stack", "Rudderlabs"),
        ids.pattern("[A-Za-z0-9]{20,40}", example="2AbCdEfGhIjKlMnOpQrStUvWxYz"),
        "write key: Basic auth user of `*.dataplane.rudderstack.com/v1/*` (or any data plane host: events carry "
        "`rudderId`), `writeKey` or Basic auth of `sourceConfig`",
    ),
    Vendor(
        "hightouch", "Hightouch Events", "customer data platform",
        (P(host_re("hightouch-events.com"), rf"^/v1/{_SEG_CALLS}/?$", ids=("auth:basic", "json:writeKey"),
           events=("json:event", "json:type", r"path:^/v1/([a-z]+)"), split="json:batch"),),
        ("Hightouch",),
        ids.pattern("[A-Za-z0-9_-]{16,80}", example="4f0a1b2c3d4e5f60718293a4b5c6d7e8"),
        "write key: Basic auth user (or `writeKey`) of `us-east-1.hightouch-events.com/v1/*`",
    ),
    Vendor(
        "mparticle", "mParticle", "customer data platform",
        (
            P(host_re("mparticle.com"), r"^/v[0-9]/JS/[A-Za-z0-9-]+/[Ee]vents$",
              ids=r"path:^/v[0-9]/JS/([A-Za-z0-9-]+)/",
              events=("json:n", "json:events.0.data.event_name", "json:events.0.event_type")),
            P(host_re("mparticle.com"), r"^/js/v[0-9]/[A-Za-z0-9-]+/mparticle(?:\.min)?\.js$",
              ids=r"path:^/js/v[0-9]/([A-Za-z0-9-]+)/"),
        ),
        ("Mparticle", "mParticle CDP"),
        ids.pattern("(?:[a-z]{2}[0-9]-)?[a-f0-9]{32}", case="lower", example="us1-0123456789abcdef0123456789abcdef"),
        "API key in `jssdks.mparticle.com/v3/JS/<key>/events`",
    ),
    Vendor(
        "lytics", "Lytics", "customer data platform",
        (
            P(host_re("lytics.io"), r"^/c/[^/]+", ids=r"path:^/c/([^/]+)", events="p:_e"),
            P(host_re("lytics.io"), r"^/api/tag/[^/]+/", ids=r"path:^/api/tag/([^/]+)/"),
        ),
        (),
        ids.pattern("[A-Za-z0-9]{3,40}", example="a1b2c3d4e5f6"),
        "account id in `c.lytics.io/c/<cid>`",
    ),
    # -- marketing automation / messaging --------------------------------------
    Vendor(
        "braze", "Braze", "marketing automation",
        (
            P(host_re("braze.com", "braze.eu", "appboy.com"), r"^/api/v3/", ids="json:api_key",
              events="json:events.0.name"),
            P(host_re("appboycdn.com", "braze.com"), r"/(?:braze|appboy)(?:\.core)?(?:\.min)?\.js$"),
        ),
        ("Appboy",),
        ids.UUID,
        "`api_key` in the JSON body of `sdk.*.braze.com/api/v3/data`",
    ),
    Vendor(
        "klaviyo", "Klaviyo", "marketing automation",
        (
            P(host_re("klaviyo.com"), r"^/onsite/js/(?:[A-Za-z0-9]{6}/)?klaviyo\.js$",
              ids=("q:company_id", r"path:^/onsite/js/([A-Za-z0-9]{6})/")),
            P(host_re("klaviyo.com"), r"^/client/[a-z-]+/?$", ids="q:company_id",
              events="json:data.attributes.metric.data.attributes.name"),
            P(host_re("klaviyo.com"), r"^/api/(?:track|identify)/?$", ids=("json:token", "p:company_id"),
              events="json:event", embedded="data"),
        ),
        (),
        ids.pattern("[A-Za-z0-9]{6}", example="AbC123"),
        "public key `company_id` of `static.klaviyo.com/onsite/js/klaviyo.js` / `a.klaviyo.com/client/*`",
    ),
    Vendor(
        "hubspot", "HubSpot", "marketing automation",
        (
            P(host_re("hs-scripts.com"), r"^/[0-9]+\.js$", ids=r"path:^/([0-9]+)\.js$"),
            P(host_re("hs-analytics.net"), r"^/analytics/[0-9]+/[0-9]+\.js$", ids=r"path:/([0-9]+)\.js$"),
            P(r"(?:^|\.)track(?:-[a-z0-9]+)?\.hubspot\.com$", r"^/__ptq\.gif$", ids="p:a", events="p:n"),
        ),
        ("Hubspot", "HubSpot Analytics", "HubSpot Tracking Code"),
        ids.digits(3, 10, example="1234567"),
        "hub id in `js.hs-scripts.com/<id>.js`; `a` of `track.hubspot.com/__ptq.gif`",
    ),
    Vendor(
        "marketo", "Marketo Munchkin", "marketing automation",
        (
            P(host_re("mktoresp.com"), r"^/webevents/", ids="p:_mchId", events=r"path:^/webevents/([A-Za-z]+)"),
            P(host_re("munchkin.marketo.net"), r"munchkin(?:-beta)?\.js$"),
        ),
        ("Marketo", "Adobe Marketo", "Munchkin"),
        ids.pattern("[0-9]{3}-[A-Z]{3}-[0-9]{3}", case="upper", example="123-ABC-456"),
        "Munchkin id `_mchId` of `<id>.mktoresp.com/webevents/visitWebPage`",
    ),
    Vendor(
        "pardot", "Pardot", "marketing automation",
        (
            P(host_re("pardot.com"), r"^/analytics$", ids=("p:account_id", "p:piAId")),
            P(host_re("pardot.com"), r"^/pd\.js$"),
        ),
        ("Salesforce Pardot", "Marketing Cloud Account Engagement", "Account Engagement"),
        ids.digits(3, 10, example="123456"),
        "`account_id` of `pi.pardot.com/analytics`",
    ),
    Vendor(
        "brevo", "Brevo", "marketing automation",
        (
            P(host_re("sibautomation.com"), r"^/sa\.js$", ids="p:key"),
            P(host_re("in-automate.brevo.com", "in-automate.sendinblue.com"), None, ids=("p:key", "json:key"),
              events=("p:event", "json:event")),
        ),
        ("Sendinblue",),
        ids.pattern("[A-Za-z0-9]{10,40}", example="abcdef0123456789ghij"),
        "tracker `key` of `sibautomation.com/sa.js` / `in-automate.brevo.com`",
    ),
    Vendor(
        "intercom", "Intercom", "marketing automation",
        (
            P(host_re("widget.intercom.io"), r"^/widget/[a-z0-9]{6,12}$", ids=r"path:^/widget/([a-z0-9]{6,12})$"),
            P(host_re("intercom.io"), r"^/messenger/web/", ids=("p:app_id", "json:app_id")),
        ),
        (),
        ids.pattern("[a-z0-9]{6,12}", case="lower", example="abc123de"),
        "app id in `widget.intercom.io/widget/<app_id>` / `app_id` of messenger pings",
    ),
    Vendor(
        "drift", "Drift", "marketing automation",
        (P(host_re("js.driftt.com"), r"^/include/[0-9]+/[a-z0-9]{8,16}\.js$", ids=r"path:/([a-z0-9]{8,16})\.js$"),),
        ("Salesloft Drift",),
        ids.pattern("[a-z0-9]{8,16}", case="lower", example="abc123def456"),
        "embed id in `js.driftt.com/include/<ts>/<id>.js`",
    ),
    Vendor(
        "vibes", "Vibes", "marketing automation",
        (P(r"^tagtracking\.(?:vibescm\.com|eu\.vibes\.com)$", r"^/track", ids=("p:company_id", "json:company_id")),),
        ("Vibes Mobile Marketing",),
        None,
        "not exposed in the URL (`company_id` if present)",
    ),
    Vendor(
        "invoca", "Invoca", "marketing automation",
        (P(host_re("solutions.invocacdn.com"), r"/[0-9]+/(?:tags/)?[0-9]+/tag-(?:draft|live)\.js$",
           ids=r"path:/([0-9]+)/(?:tags/)?([0-9]+)/tag-", events=r"path:/tag-([a-z]+)\.js$"),),
        ("Invoca Call Tracking",),
        ids.pattern("[0-9]{1,10}/[0-9]{1,10}", example="1234/5678901234"),
        "`<network>/<tag>` from `solutions.invocacdn.com/js/networks/<network>/tags/<tag>/tag-live.js`",
    ),
    Vendor(
        "merkle_merkury", "Merkle Merkury", "customer data platform",
        (P(None, r"/tpTracking/loader/load\.js$", require={"q:sv_cid": ""}, ids="q:sv_cid"),),
        ("Merkury",),
        ids.pattern("[A-Za-z0-9_-]{2,40}", example="1234_56789"),
        "`sv_cid` of `/tpTracking/loader/load.js` (any host)",
    ),
    # -- experimentation ----------------------------------------------------------
    Vendor(
        "omniconvert", "Omniconvert", "optimization",
        (P(None, r"(?:^|/)mktzsave/?$", require={"p:id_website": "^[0-9]+$"}, ids="p:id_website",
           events="p:event"),),
        ("Omniconvert Explore",),
        ids.digits(1, 10, example="12345"),
        "`id_website` of the `mktzsave` beacon (any host)",
    ),
    Vendor(
        "split_io", "Split", "optimization",
        (P(host_re("events.split.io"), r"^/api/(?:events/(?:beacon|bulk)|testImpressions/(?:count/beacon|beacon|bulk))$",
           ids="json:token", events=("json:eventTypeId", "json:f"), split="json:entries"),),
        ("Split.io", "SplitIO", "Harness Feature Management"),
        ids.pattern("[A-Za-z0-9]{16,64}", example="abcdefghijklmnopqrstuvwxyz0123456789"),
        "SDK key `token` of the `events.split.io/api/*/beacon` JSON body",
    ),
    Vendor(
        "optimizely", "Optimizely", "optimization",
        (
            P(host_re("logx.optimizely.com"), r"^/(?:v1/events|log/event)$", ids="json:account_id",
              events="json:visitors.0.snapshots.0.events.0.key"),
            P(host_re("cdn.optimizely.com"), r"^/js/[0-9]+\.js$", ids=r"path:^/js/([0-9]+)\.js$"),
            P(host_re("cdn.optimizely.com"), r"^/public/[0-9]+/", ids=r"path:^/public/([0-9]+)/"),
        ),
        ("Optimizely X", "Optimizely Web"),
        ids.digits(5, 14, example="12345678901"),
        "`account_id` in the `logx.optimizely.com/v1/events` JSON body; snippet id in "
        "`cdn.optimizely.com/js/<id>.js`",
    ),
    Vendor(
        "vwo", "VWO", "optimization",
        (P(host_re("visualwebsiteoptimizer.com"), None, ids=("p:a", r"path:^/lib/([0-9]+)\.js$")),),
        ("Visual Website Optimizer", "Wingify"),
        ids.digits(3, 9, example="123456"),
        "account `a` of `dev.visualwebsiteoptimizer.com/j.php`",
    ),
    Vendor(
        "ab_tasty", "AB Tasty", "optimization",
        (
            P(host_re("try.abtasty.com"), r"^/[a-f0-9]{32}\.js$", ids=r"path:^/([a-f0-9]{32})\.js$"),
            P(host_re("ariane.abtasty.com"), None, ids=("json:cid", "p:cid"), events=("json:t", "p:t")),
        ),
        ("ABTasty",),
        ids.HEX32,
        "client id in `try.abtasty.com/<id>.js`; `cid` of `ariane.abtasty.com` hits",
    ),
    Vendor(
        "dynamic_yield", "Dynamic Yield", "optimization",
        (
            P(host_re("dynamicyield.com"), r"^/api/[0-9]+/api_(?:dynamic|static)\.js$", ids=r"path:^/api/([0-9]+)/"),
            P(host_re("dynamicyield.com"), None, ids="p:sec"),
        ),
        ("DynamicYield", "Dynamic Yield by Mastercard"),
        ids.digits(4, 10, example="8765432"),
        "site id in `cdn.dynamicyield.com/api/<id>/api_dynamic.js`; `sec` of beacons",
    ),
    Vendor(
        "kameleoon", "Kameleoon", "optimization",
        (P(r"^[a-z0-9]{10}\.kameleoon\.(?:eu|io|com|net)$", r"/kameleoon\.js$",
           ids=r"host:^([a-z0-9]{10})\.kameleoon\."),),
        (),
        ids.pattern("[a-z0-9]{10}", case="lower", example="abcdef1234"),
        "site code sub-domain of `<sitecode>.kameleoon.eu/kameleoon.js`",
    ),
)
