"""Catalog: tag managers (non-Google, non-Adobe) and session replay /
experience analytics tools."""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

VENDORS = (
    # -- tag managers -----------------------------------------------------------
    Vendor(
        "tealium_iq", "Tealium iQ", "tag manager",
        (P(None, r"^/utag/[a-z0-9_-]+/[a-z0-9_.-]+/[a-z0-9_-]+/utag(?:\.[a-z0-9_]+)?\.js$",
           ids=r"path:^/utag/([a-z0-9_-]+)/([a-z0-9_.-]+)/"),),
        ("Tealium", "utag.js", "Tealium iQ Tag Management"),
        ids.pattern("[a-z0-9_-]{2,40}/[a-z0-9_.-]{1,40}", case="lower", example="mycompany/main"),
        "`<account>/<profile>` from `tags.tiqcdn.com/utag/<account>/<profile>/<env>/utag.js` (any host)",
    ),
    Vendor(
        "tealium_eventstream", "Tealium EventStream", "customer data platform",
        (
            P(host_re("tealiumiq.com"), r"^/(?:event|vdata/i\.gif)", ids=("p:tealium_account", "json:tealium_account"),
              events=("p:tealium_event", "json:tealium_event")),
            P(host_re("tealiumiq.com"), r"^/[a-z0-9_-]+/[a-z0-9_-]+/[0-9]+/i\.gif$",
              ids=r"path:^/([a-z0-9_-]+)/"),
        ),
        ("Tealium AudienceStream", "Tealium Collect", "Tealium CDP"),
        ids.pattern("[a-z0-9_-]{2,40}", case="lower", example="mycompany"),
        "`tealium_account` of `collect.tealiumiq.com/event`",
    ),
    Vendor(
        "ensighten", "Ensighten Manage", "tag manager",
        (
            P(host_re("ensighten.com"), r"/Bootstrap\.js$", ids=r"path:^/([^/]+)/(?:[^/]+/)?Bootstrap\.js$"),
            P(host_re("ensighten.com"), r"^/[^/]+/(?:[^/]+/)?serverComponent\.php", ids=r"path:^/([^/]+)/"),
        ),
        ("Ensighten", "Cheq Ensighten"),
        ids.pattern("[A-Za-z0-9_-]{2,40}", case="lower", example="mycompany"),
        "client from `nexus.ensighten.com/<client>/<profile>/Bootstrap.js`",
    ),
    Vendor(
        "piwik_pro_tag_manager", "Piwik PRO Tag Manager", "tag manager",
        (P(host_re("piwik.pro"), rf"^/(?:containers/)?{_UUID}(?:\.sync)?\.js$", ids=rf"path:^/(?:containers/)?({_UUID})"),),
        ("Piwik PRO TM",),
        ids.UUID,
        "container UUID in `<account>.containers.piwik.pro/<uuid>.js` or `<account>.piwik.pro/containers/<uuid>.js`",
    ),
    Vendor(
        "commanders_act", "Commanders Act TagCommander", "tag manager",
        (P(host_re("tagcommander.com", "commander1.com"), r"^/[0-9]+/tc_[A-Za-z0-9_]+\.js$",
           ids=r"path:^/([0-9]+)/"),),
        ("TagCommander", "Commanders Act"),
        ids.digits(1, 8, example="1234"),
        "site id in `cdn.tagcommander.com/<site>/tc_<name>_<n>.js`",
    ),
    Vendor(
        "ensighten_server_side", "Ensighten Server Side", "tag manager",
        (P(None, r"(?:^|/)sst/?$", require={"q:sstVersion": ""}, ids=r"path:^/pc/([^/]+)/sst",
           events="p:events[0].name"),),
        ("Ensighten SST", "Cheq Server Side"),
        ids.pattern("[A-Za-z0-9_-]{2,40}", case="lower", example="mycompany"),
        "client from the `/pc/<client>/sst?sstVersion=` path (any host)",
    ),
    # -- session replay / experience analytics ---------------------------------
    Vendor(
        "glassbox", "Glassbox", "session replay",
        (P(None, r"(?:^|/)cls_report/?$", require={"q:clsjsv": ""}),),
        (),
        None,
        "not exposed (the `cls_report?clsjsv=` beacon carries no account id)",
    ),
    Vendor(
        "hotjar", "Hotjar", "session replay",
        (
            P(host_re("hotjar.com"), r"^/c/hotjar-[0-9]+\.js$", ids=r"path:^/c/hotjar-([0-9]+)\.js$"),
            P(host_re("hotjar.com", "hotjar.io"), r"/sites/[0-9]+/", ids=r"path:/sites/([0-9]+)/"),
        ),
        ("Hotjar Observe", "Contentsquare Hotjar"),
        ids.digits(4, 10, example="1234567"),
        "site id in `static.hotjar.com/c/hotjar-<id>.js?sv=` and `/sites/<id>/` API paths",
    ),
    Vendor(
        "microsoft_clarity", "Microsoft Clarity", "session replay",
        (
            P(host_re("clarity.ms"), r"^/tag/(?!uet/)[a-z0-9]{6,16}(?:/|$)", ids=r"path:^/tag/([a-z0-9]{6,16})"),
            P(host_re("clarity.ms"), r"^/collect$|/clarity\.js$"),
        ),
        ("Clarity", "MS Clarity"),
        ids.pattern("[a-z0-9]{6,16}", case="lower", example="abcde12345"),
        "project id in `www.clarity.ms/tag/<id>`",
    ),
    Vendor(
        "fullstory", "FullStory", "session replay",
        (
            P(host_re("fullstory.com"), r"^/rec/", ids=("p:OrgId", "json:OrgId"), events=r"path:^/rec/([A-Za-z]+)"),
            P(host_re("fullstory.com"), r"^/s/settings/[A-Za-z0-9-]+/", ids=r"path:^/s/settings/([A-Za-z0-9-]+)/"),
            P(host_re("fullstory.com"), r"^/s/fs\.js$"),
        ),
        ("Fullstory", "Full Story"),
        ids.pattern("[A-Za-z0-9-]{4,24}", example="o-1ABCDE-na1"),
        "`OrgId` of `rs.fullstory.com/rec/*`",
    ),
    Vendor(
        "crazy_egg", "Crazy Egg", "session replay",
        (P(host_re("crazyegg.com", "cetrk.com"), r"^/pages/(?:data-)?scripts/[0-9]+/[0-9]+\.js$",
           ids=r"path:^/pages/(?:data-)?scripts/([0-9]+/[0-9]+)\.js$"),),
        ("CrazyEgg",),
        ids.IdFormat(body="[0-9]{6,10}", remove="/", example="00123456"),
        "account number from `script.crazyegg.com/pages/scripts/<0012>/<3456>.js`",
    ),
    Vendor(
        "mouseflow", "Mouseflow", "session replay",
        (
            P(host_re("mouseflow.com"), rf"^/projects/{_UUID}\.js$", ids=rf"path:^/projects/({_UUID})"),
            P(host_re("mouseflow.com"), None, ids=("p:website", "p:websiteId")),
        ),
        (),
        ids.UUID,
        "website UUID in `cdn.mouseflow.com/projects/<uuid>.js`",
    ),
    Vendor(
        "lucky_orange", "Lucky Orange", "session replay",
        (P(host_re("luckyorange.com", "luckyorange.net"), None, ids=("p:site-id", "p:siteId")),),
        ("LuckyOrange",),
        ids.pattern("[a-z0-9]{6,12}", case="lower", example="a1b2c3d4"),
        "`site-id` of `tools.luckyorange.com/core/lo.js`",
    ),
    Vendor(
        "contentsquare", "Contentsquare", "session replay",
        (
            P(host_re("contentsquare.net"), r"^/uxa/[a-f0-9]{10,16}\.js$", ids=r"path:^/uxa/([a-f0-9]{10,16})\.js$"),
            P(host_re("contentsquare.net"), r"^/(?:pageview|events|v2/recording|mobile)", ids="p:pid"),
        ),
        ("Content Square", "ContentSquare UXA"),
        ids.pattern("[a-f0-9]{10,16}|[0-9]{1,9}", case="lower", example="a1b2c3d4e5f60"),
        "tag id in `t.contentsquare.net/uxa/<id>.js`; project `pid` of collection hits",
    ),
    Vendor(
        "quantum_metric", "Quantum Metric", "session replay",
        (P(host_re("quantummetric.com"), r"^/qscripts/quantum-[a-z0-9_-]+\.js$",
           ids=r"path:^/qscripts/quantum-([a-z0-9_-]+)\.js$"),),
        (),
        ids.pattern("[a-z0-9_-]{2,40}", case="lower", example="mycompany"),
        "subscription in `cdn.quantummetric.com/qscripts/quantum-<sub>.js`",
    ),
    Vendor(
        "medallia_dxa", "Medallia DXA", "session replay",
        (P(None, r"^/i/[0-9]+/[0-9]+/di\.js$", ids=r"path:^/i/([0-9]+)/"),),
        ("Decibel", "Decibel Insight", "Medallia Digital Experience Analytics"),
        ids.digits(2, 10, example="12345"),
        "account id in `cdn.decibelinsight.net/i/<account>/<property>/di.js`",
    ),
)
