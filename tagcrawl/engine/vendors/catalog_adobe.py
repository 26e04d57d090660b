"""Catalog: Adobe Experience Cloud (Analytics, Heartbeat/Media, Web SDK,
Audience Manager, Experience Cloud ID, Target, Launch, DTM).

Adobe Analytics is matched on the path shape ``/b/ss/<rsid>/<n>/`` on any
host, so CNAME'd first-party tracking servers (``metrics.shop.example``) are
caught; a comma list of report suites gives one hit per suite.
"""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

_UUID_RX = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

VENDORS = (
    Vendor(
        "adobe_analytics", "Adobe Analytics", "analytics",
        (P(None, r"^/b/ss/[^/]+/[0-9]+/", ids=r"path:^/b/ss/([^/]+)/", events=("p:pe", "const:pageview"),
           id_sep=","),),
        ("Omniture", "SiteCatalyst", "Adobe SiteCatalyst", "AppMeasurement"),
        ids.pattern("[a-z0-9][a-z0-9._-]{1,39}", case="lower", example="mycompanyprod"),
        "report suite id from the path `/b/ss/<rsid>/<n>/` (any host, comma list = one hit per suite)",
    ),
    Vendor(
        "adobe_heartbeat", "Adobe Heartbeat (Media Analytics)", "analytics",
        (
            P(host_re("hb.omtrdc.net"), None, ids="p:s:sc:rsid", events="p:s:event:type", id_sep=","),
            P(None, r"^/api/v1/sessions(?:/[^/]+/events)?/?$", require={"json:eventType": ""},
              ids="json:params.analytics.reportSuite", events="json:eventType"),
            P(host_re("hb-api.omtrdc.net"), r"^/api/v1/sessions(?:/[^/]+/events)?/?$",
              ids="json:params.analytics.reportSuite", events="json:eventType"),
        ),
        ("Adobe Media Analytics", "Adobe Heartbeat", "Adobe Streaming Media"),
        ids.pattern("[a-z0-9][a-z0-9._-]{1,39}", case="lower", example="mycompanyprod"),
        "`s:sc:rsid` of `*.hb.omtrdc.net` (comma list = one hit per suite) or `params.analytics.reportSuite` of the Media Collection "
        "API `/api/v1/sessions` JSON body",
    ),
    Vendor(
        "adobe_web_sdk", "Adobe Experience Platform Web SDK", "analytics",
        (P(host_re("adobedc.net", "adobedc.cn"), r"^/ee/(?:[a-z0-9]+/)?v[0-9]+/(?:interact|collect)$",
           ids="q:configId", events="json:events.0.xdm.eventType"),
         P(None, r"^/ee/(?:[a-z0-9]+/)?v[0-9]+/(?:interact|collect)$", require={"q:configId": _UUID_RX},
           ids="q:configId", events="json:events.0.xdm.eventType")),
        ("Adobe Web SDK", "Alloy", "AEP Web SDK", "Adobe Edge Network"),
        ids.pattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?::[a-z]+)?", case="lower",
                    example="0f8fad5b-d9cb-469f-a165-70867728950e"),
        "datastream `configId` of `edge.adobedc.net/ee/v1/interact` (or a first-party edge CNAME)",
    ),
    Vendor(
        "adobe_audience_manager", "Adobe Audience Manager", "customer data platform",
        (P(r"^(?!dpm\.)[a-z0-9-]+\.demdex\.net$", r"^/(?:event|ibs:)", ids=r"host:^([a-z0-9-]+)\.demdex\.net$",
           events="p:d_event"),
         P(host_re("dpm.demdex.net"), r"^/ibs:")),
        ("AAM", "Demdex"),
        ids.pattern("[a-z0-9-]{2,40}", case="lower", example="mycompany"),
        "partner sub-domain of `<partner>.demdex.net/event` or `/ibs:`; `dpm.demdex.net/ibs:` carries none",
    ),
    Vendor(
        "adobe_experience_cloud_id", "Adobe Experience Cloud ID Service", "analytics",
        (P(None, r"^/id/?$", require={"p:d_orgid": "@AdobeOrg$"}, ids="p:d_orgid"),
         P(None, r"^/id/?$", require={"p:mcorgid": "@AdobeOrg$"}, ids="p:mcorgid"),
         P(host_re("dpm.demdex.net"), r"^/id/?$", ids=("p:d_orgid", "p:mcorgid"))),
        ("ECID", "Adobe ECID", "Adobe Visitor ID", "Marketing Cloud ID", "Adobe Experience ID"),
        ids.pattern("[A-Fa-f0-9]{24}@AdobeOrg", example="0123456789ABCDEF01234567@AdobeOrg"),
        "`d_orgid` or `mcorgid` of `dpm.demdex.net/id` (or a first-party CNAME)",
    ),
    Vendor(
        "adobe_target", "Adobe Target", "optimization",
        (
            P(r"(?:^|\.)tt\.omtrdc\.net$", r"^/(?:m2/|rest/v[0-9]+/delivery)",
              ids=(r"host:^([a-z0-9]+)\.tt\.omtrdc\.net$", "q:client", r"path:^/m2/([^/]+)/"),
              events=("p:mbox", "json:execute.mboxes.0.name", "json:prefetch.mboxes.0.name")),
            P(None, r"^/rest/v[0-9]+/delivery/?$", require={"q:client": "", "q:sessionId": ""}, ids="q:client",
              events=("json:execute.mboxes.0.name", "json:prefetch.mboxes.0.name")),
        ),
        ("Target", "Test&Target", "Adobe Test and Target"),
        ids.pattern("[a-z0-9]{2,40}", case="lower", example="mycompany"),
        "client code: sub-domain of `<client>.tt.omtrdc.net` or `client` of `/rest/v1/delivery`",
    ),
    Vendor(
        "adobe_launch", "Adobe Experience Platform Tags (Launch)", "tag manager",
        (P(host_re("adobedtm.com", "adobedtm.cn", "adoberesources.cn"), r"/launch-[A-Za-z0-9]+(?:-[a-z]+)?(?:\.min)?\.js$",
           ids=r"path:/launch-((?:EN)?[A-Fa-f0-9]{12,40})(?:-[a-z]+)?(?:\.min)?\.js$"),),
        ("Adobe Launch", "Adobe Tags", "Launch", "Adobe Experience Platform Launch"),
        ids.pattern("(?:EN)?[A-Fa-f0-9]{12,40}", example="EN0123456789abcdef0123456789abcdef"),
        "library id in `assets.adobedtm.com/.../launch-<id>.min.js` (China: `assets.adoberesources.cn`)",
    ),
    Vendor(
        "adobe_dtm", "Adobe Dynamic Tag Management", "tag manager",
        (P(host_re("adobedtm.com"), r"/satelliteLib-[a-f0-9]{40}(?:-staging)?\.js$",
           ids=r"path:/satelliteLib-([a-f0-9]{40})(?:-staging)?\.js$"),),
        ("DTM", "Adobe DTM", "Dynamic Tag Management"),
        ids.pattern("[a-f0-9]{40}", case="lower", example="0123456789abcdef0123456789abcdef01234567"),
        "hash in `assets.adobedtm.com/<org>/satelliteLib-<id>.js`",
    ),
)
