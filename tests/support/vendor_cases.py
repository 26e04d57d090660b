"""Recorded request shapes for the vendor catalog tests.

``POSITIVE``: requests that must produce hits of ``vendor`` whose
account ids are exactly ``ids`` (in order) and whose first event is
``event`` (``ANY`` = not checked).

``NEGATIVE``: look-alikes (wrong host / path / parameter shape) that must
produce no hit of ``vendor``.

``MALFORMED``: recognised requests (right host, path and shape) whose id is
outside the vendor's usual format (issue 19): the id is reported exactly as
sent (``ids``) and flagged with warnings, never dropped.  Before issue 19
these were negatives.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from urllib.parse import quote

ANY = object()


@dataclass(frozen=True)
class Case:
    vendor: str
    url: str
    ids: tuple = ()
    event: object = ANY
    body: str | None = None
    method: str | None = None
    headers: dict = field(default_factory=dict, hash=False, compare=False)
    note: str = ""

    @property
    def http_method(self) -> str:
        return self.method or ("POST" if self.body is not None else "GET")

    def __str__(self) -> str:  # readable pytest ids
        return f"{self.vendor}:{self.note or self.url[:60]}"


def pos(vendor, url, ids, event=ANY, body=None, **kw) -> Case:
    if not isinstance(ids, tuple):
        ids = (ids,)
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
    return Case(vendor, url, ids, event, body, **kw)


def neg(vendor, url, body=None, note="", **kw) -> Case:
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
    return Case(vendor, url, body=body, note=note, **kw)


def bad(vendor, url, body=None, note="", sent=None, **kw) -> Case:
    """A recognised request whose id is outside the vendor's usual format: it
    must be reported as ``sent`` (a tuple for several ids), flagged."""
    case = neg(vendor, url, body, note, **kw)
    return Case(case.vendor, case.url, sent if isinstance(sent, tuple) else (sent,), ANY, case.body, case.method,
                case.headers, note or "malformed id")


def b64(doc) -> str:
    return base64.b64encode(json.dumps(doc).encode()).decode()


def basic(user: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:".encode()).decode()}


UUID = "0f8fad5b-d9cb-469f-a165-70867728950e"
HEX32 = "0123456789abcdef0123456789abcdef"
META_ID = "123456789012345"
TT = "C1A2B3C4D5E6F7G8H9I0"
OB1, OB2 = "00f0ccd36f7a89d3c1b7f96ad1c12f9c53", "00a0ccd36f7a89d3c1b7f96ad1c12f9c5b"
SEG_KEY = "AbCdEf0123456789AbCdEf0123456789"
PHC = "phc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcde"
PAGE = quote("https://shop.example/", safe="")
RS_KEY = "2AbCdEfGhIjKlMnOpQrStUvWxYz"
HT_KEY = "4f0a1b2c3d4e5f60718293a4b5c6d7e8"

POSITIVE = [
    # -- Google ---------------------------------------------------------------
    pos("google_analytics", "https://region1.google-analytics.com/g/collect?v=2&tid=G-ABC123XYZ9&gtm=45je&_p=1"
        f"&cid=1.2&en=page_view&dl={PAGE}", "G-ABC123XYZ9", "page_view"),
    pos("google_analytics", "https://www.googletagmanager.com/gtag/js?id=g-abc123xyz9&l=dataLayer", "G-ABC123XYZ9", None),
    pos("universal_analytics", "https://www.google-analytics.com/collect?v=1&_v=j101&a=1&t=event&ec=video&ea=play"
        "&tid=UA-12345678-1&cid=1.2", "UA-12345678-1", "play"),
    pos("universal_analytics", "https://www.google-analytics.com/r/collect?v=1&t=pageview&tid=UA-12345678-1",
        "UA-12345678-1", "pageview"),
    pos("universal_analytics", "https://www.googletagmanager.com/gtag/js?id=UA-12345678-2", "UA-12345678-2"),
    pos("universal_analytics", "https://www.google-analytics.com/__utm.gif?utmwv=5&utmac=UA-1234567-3&utmt=event",
        "UA-1234567-3", "event"),
    pos("google_tag_manager", "https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD3&l=dataLayer", "GTM-AB12CD3"),
    pos("google_tag_manager", "https://shop.example/metrics/gtm.js?id=GTM-AB12CD3", "GTM-AB12CD3", note="sGTM"),
    pos("google_tag_manager", "https://www.googletagmanager.com/ns.html?id=GTM-AB12CD3", "GTM-AB12CD3"),
    pos("google_tag", "https://www.googletagmanager.com/gtag/js?id=GT-ABCD1234", "GT-ABCD1234"),
    pos("google_ads", "https://www.googleadservices.com/pagead/conversion/123456789/?label=AbC-D_efG&guid=ON",
        "AW-123456789", "AbC-D_efG"),
    pos("google_ads", "https://googleads.g.doubleclick.net/pagead/viewthroughconversion/123456789/?random=1&cv=11"
        "&en=page_view", "AW-123456789", "page_view"),
    pos("google_ads", "https://www.google.com/pagead/1p-conversion/123456789/?label=xyz", "AW-123456789", "xyz"),
    pos("google_ads", "https://www.google.com/rmkt/collect/123456789/?random=1", "AW-123456789", "remarketing"),
    pos("google_ads", "https://www.googletagmanager.com/gtag/js?id=AW-123456789", "AW-123456789"),
    pos("floodlight", "https://ad.doubleclick.net/activity;src=1234567;type=sales;cat=purch0;ord=1?",
        "DC-1234567", "purch0"),
    pos("floodlight", "https://1234567.fls.doubleclick.net/activityi;src=1234567;type=invmedia;cat=landi0;ord=1?",
        "DC-1234567", "landi0"),
    pos("floodlight", "https://ad.doubleclick.net/ddm/activity/src=1234567;type=sales;cat=purch0;ord=1",
        "DC-1234567", "purch0"),
    pos("floodlight", "https://www.googletagmanager.com/gtag/js?id=DC-1234567", "DC-1234567"),
    pos("google_optimize", "https://www.googleoptimize.com/optimize.js?id=OPT-AB12CD3", "OPT-AB12CD3"),
    # -- Adobe ------------------------------------------------------------------
    pos("adobe_analytics", "https://metrics.shop.example/b/ss/shopprod/1/JS-2.22.0/s12345?AQB=1&pageName=home",
        "shopprod", "pageview", note="CNAME"),
    pos("adobe_analytics", "https://shop.sc.omtrdc.net/b/ss/shopprod,shopglobal/1/JS-2.22.0/s1?pe=lnk_o",
        ("shopprod", "shopglobal"), "lnk_o"),
    pos("adobe_heartbeat", "https://shop.hb.omtrdc.net/?s:sc:rsid=shopprod&s:event:type=start", "shopprod", "start"),
    pos("adobe_heartbeat", "https://shop.hb-api.omtrdc.net/api/v1/sessions",
        body={"eventType": "sessionStart", "params": {"analytics.reportSuite": "shopprod"}}, ids="shopprod",
        event="sessionStart"),
    pos("adobe_web_sdk", f"https://edge.adobedc.net/ee/v1/interact?configId={UUID}&requestId=1", UUID,
        "web.webpagedetails.pageViews", body={"events": [{"xdm": {"eventType": "web.webpagedetails.pageViews"}}]}),
    pos("adobe_audience_manager", "https://shop.demdex.net/event?d_stuff=1&d_dst=1&d_rtbd=json", "shop"),
    pos("adobe_experience_cloud_id", "https://dpm.demdex.net/id?d_visid_ver=5.2.0&d_orgid=0123456789ABCDEF01234567"
        "%40AdobeOrg", "0123456789ABCDEF01234567@AdobeOrg"),
    pos("adobe_target", "https://shop.tt.omtrdc.net/rest/v1/delivery?client=shop&sessionId=abc",
        "shop", "hero-banner", body={"execute": {"mboxes": [{"name": "hero-banner", "index": 0}]}}),
    pos("adobe_target", "https://shop.tt.omtrdc.net/m2/shop/mbox/json?mbox=target-global-mbox&mboxSession=1",
        "shop", "target-global-mbox"),
    pos("adobe_launch", "https://assets.adobedtm.com/0123456789ab/cdef01234567/launch-0123456789ab.min.js",
        "0123456789ab"),
    pos("adobe_launch", "https://assets.adobedtm.com/launch-EN0123456789abcdef0123456789abcdef.min.js",
        "EN0123456789abcdef0123456789abcdef"),
    pos("adobe_dtm", "https://assets.adobedtm.com/0123456789abcdef0123456789abcdef01234567/satelliteLib-"
        "0123456789abcdef0123456789abcdef01234567.js", "0123456789abcdef0123456789abcdef01234567"),
    # -- advertising platforms ----------------------------------------------------
    pos("facebook", f"https://www.facebook.com/tr/?id={META_ID}&ev=PageView&dl={PAGE}", META_ID, "PageView"),
    pos("facebook", "https://www.facebook.com/tr/", META_ID, "Purchase",
        body=f"id={META_ID}&ev=Purchase&cd[value]=1", note="form body"),
    pos("facebook", "https://connect.facebook.net/signals/config/1234567890123456?v=2.9.1&r=stable",
        "1234567890123456"),
    pos("facebook", "https://connect.facebook.net/en_US/fbevents.js", (None,)),
    pos("tiktok", "https://analytics.tiktok.com/api/v2/pixel", TT, "ViewContent",
        body={"event": "ViewContent", "context": {"pixel": {"code": TT}}}),
    pos("tiktok", "https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=D1A2B3C4D5E6F7G8H9I0&lib=ttq",
        "D1A2B3C4D5E6F7G8H9I0"),
    pos("linkedin", f"https://px.ads.linkedin.com/collect?v=2&fmt=js&pid=1234567&time=1&url={PAGE}", "1234567",
        "pageview"),
    pos("linkedin", f"https://px.ads.linkedin.com/attribution_trigger?pid=1234567&time=1&url={PAGE}", "1234567"),
    pos("linkedin", "https://px.ads.linkedin.com/collect/?pid=1234567&conversionId=7654321&fmt=gif", "1234567",
        "7654321"),
    pos("linkedin", "https://px.ads.linkedin.com/wa/", "1234567", "pageview", body={"pids": [1234567]}),
    pos("twitter", "https://t.co/i/adsct?bci=3&eci=2&events=%5B%5B%22pageview%22%2C%7B%7D%5D%5D&p_id=Twitter"
        "&p_user_id=0&txn_id=o1a2b&type=javascript&version=2.3.29", "o1a2b", "pageview"),
    pos("twitter", "https://analytics.twitter.com/i/adsct?txn_id=o1a2b&p_id=Twitter&tw_sale_amount=0", "o1a2b"),
    pos("bing", "https://bat.bing.com/action/0?ti=12345678&tm=gtm002&Ver=2&mid=x&evt=pageLoad", "12345678",
        "pageLoad"),
    pos("bing", "https://bat.bing.com/action/0?ti=12345678&Ver=2&evt=custom&ea=purchase", "12345678", "purchase"),
    pos("bing", "https://www.clarity.ms/tag/uet/12345678", "12345678"),
    pos("pinterest", "https://ct.pinterest.com/v3/?event=init&tid=2612345678901&pd=%7B%7D&cb=1", "2612345678901",
        "init"),
    pos("snapchat", "https://tr.snapchat.com/p", UUID, "PAGE_VIEW", body=f"pid={UUID}&ev=PAGE_VIEW&v=1.5"),
    pos("snapchat", f"https://tr.snapchat.com/cm/i?pid={UUID}", UUID),
    pos("reddit", "https://alb.reddit.com/rp.gif?ts=1&id=t2_abc123&event=PageVisit", "t2_abc123", "PageVisit"),
    pos("quora", f"https://q.quora.com/_/ad/{HEX32}/pixel?tag=ViewContent&noscript=1", HEX32, "ViewContent"),
    pos("yahoo_dot", "https://sp.analytics.yahoo.com/sp.pl?a=10000&d=Tue&.yp=10012345&enc=UTF-8&ea=purchase",
        "10012345", "purchase"),
    pos("yahoo_japan", "https://b97.yahoo.co.jp/pagead/conversion/1001234567/?value=0&label=AbCdEf&guid=ON",
        "1001234567", "AbCdEf"),
    pos("yahoo_japan", "https://b90.yahoo.co.jp/c?yahoo_ydn_conv_io=AbCdEfGh.&yahoo_ydn_conv_label=XYZ",
        "AbCdEfGh.", "XYZ"),
    pos("amazon_ads", "https://s.amazon-adsystem.com/iu3?pid=6a1b2c3d-0000-4e5f-8a9b-0c1d2e3f4a5b&event=PageView",
        "6a1b2c3d-0000-4e5f-8a9b-0c1d2e3f4a5b", "PageView"),
    pos("spotify", "https://pixels.spotify.com/v1/ingest", "a1b2c3d4e5f6", "view",
        body={"batch": [{"action": "view", "pixel_id": "a1b2c3d4e5f6", "url": "https://shop.example/"}]}),
    pos("line", f"https://tr.line.me/tag.gif?c_t=lap&t_id={UUID}&e=pv&_ts=1", UUID, "pv"),
    pos("seznam_sklik", f"https://c.seznam.cz/retargeting?id=123456&url={PAGE}", "123456", "retargeting"),
    pos("teads", "https://t.teads.tv/track?action=page_view&env=js&tag_version=5&buyer_pixel_id=12345", "12345",
        "page_view"),
    # -- ad tech ---------------------------------------------------------------------
    pos("criteo", "https://sslwidget.criteo.com/event?a=12345&v=5.23.0&p0=e%3Dexd%26site_type%3Dd&p1=e%3Dvh"
        "&tld=shop.example", "12345", "vh"),
    pos("criteo", "https://dynamic.criteo.com/js/ld/ld.js?a=12345", "12345"),
    pos("the_trade_desk", f"https://insight.adsrvr.org/track/up?adv=abc1d2e&ref={PAGE}&upid=xyz9876&upv=1.1.0",
        "abc1d2e", "up"),
    pos("the_trade_desk", "https://insight.adsrvr.org/track/pxl/?adv=abc1d2e&ct=0:xyz98765&fmt=3", "abc1d2e",
        "0:xyz98765"),
    pos("the_trade_desk", "https://js.adsrvr.org/up_loader.1.1.0.js", (None,)),
    pos("taboola", "https://trc.taboola.com/1234567/log/3/unip?en=page_view&tim=1", "1234567", "page_view"),
    pos("taboola", "https://cdn.taboola.com/libtrc/unip/1234567/tfa.js", "1234567"),
    pos("outbrain", f"https://tr.outbrain.com/unifiedPixel?marketerId={OB1}&obApiVersion=1.1&name=PAGE_VIEW", OB1,
        "PAGE_VIEW"),
    pos("outbrain", f"https://tr.outbrain.com/unifiedPixel?marketerId={OB1},{OB2}&name=PAGE_VIEW", (OB1, OB2),
        "PAGE_VIEW", note="comma list"),
    pos("zemanta", "https://p1.zemanta.com/v2/p/ns/12345/PAGE_VIEW/", "12345", "PAGE_VIEW"),
    pos("sizmek", "https://bs.serving-sys.com/Serving/ActivityServer.bs?cn=as&ActivityID=1234567&ns=1", "1234567",
        "as"),
    pos("adroll", "https://s.adroll.com/j/ABCDEFGHIJKLMNOPQRSTUV/roundtrip.js", "ABCDEFGHIJKLMNOPQRSTUV"),
    pos("xandr", "https://secure.adnxs.com/px?id=1234567&t=2", "1234567"),
    pos("xandr", "https://ib.adnxs.com/seg?add=1234567,7654321&t=2", ("1234567", "7654321")),
    pos("mediamath", "https://pixel.mathtag.com/event/js?mt_id=1234567&mt_adid=123456&mt_exem=&v1=", "123456"),
    pos("adform", "https://track.adform.net/Serving/TrackPoint/?pm=123456&ADFPageName=Home&ADFdivider=|",
        "123456", "Home"),
    pos("stackadapt", "https://tags.srv.stackadapt.com/saq_pxl?uid=aBcDeFgHiJkLmNoPqRsTuV&is_js=true",
        "aBcDeFgHiJkLmNoPqRsTuV"),
    pos("rtb_house", "https://creativecdn.com/tags?id=pr_AbCdEf123_home&ncm=1", "pr_AbCdEf123", "home"),
    pos("sojern", "https://beacon.sojern.com/pixel/p/123456?f_v=v6_js&p_v=1", "123456"),
    pos("awin", "https://www.dwin1.com/12345.js", "12345"),
    pos("awin", "https://www.awin1.com/sread.img?tt=ns&tv=2&merchant=12345&amount=10.00&ref=ORDER1", "12345", "ns"),
    pos("cj", "https://www.emjcd.com/u?CID=1234567&TYPE=654321&METHOD=IMG&OID=ORDER1", "1234567", "654321"),
    pos("cj", "https://www.mczbf.com/tags/123456789/tag.js", "123456789"),
    pos("impact", "https://utt.impactcdn.com/A1234567-abcd-1234-abcd-1234567890ab1.js",
        "A1234567-abcd-1234-abcd-1234567890ab1"),
    pos("demandbase", "https://tag.demandbase.com/a1b2c3d4e5f60718.min.js", "a1b2c3d4e5f60718"),
    pos("demandbase", "https://api.company-target.com/api/v2/ip.json?key=a1b2c3d4e5f60718", "a1b2c3d4e5f60718"),
    pos("sixsense", f"https://b.6sc.co/v1/beacon/img.gif?token={HEX32}&svisitor=x", HEX32),
    pos("sixsense", "https://epsilon.6sense.com/v3/company/details", HEX32, method="GET",
        headers={"Authorization": f"Token {HEX32}"}),
    # -- analytics ------------------------------------------------------------------
    pos("matomo", "https://shop.example/matomo.php?action_name=Home&idsite=3&rec=1&r=123", "3", None,
        note="self-hosted"),
    pos("matomo", "https://analytics.shop.example/piwik.php?idsite=1&rec=1&e_c=Video&e_a=Play", "1", "Play"),
    pos("matomo", "https://shop.matomo.cloud/matomo.php", "2", body="idsite=2&rec=1&action_name=x"),
    pos("piwik_pro", f"https://shop.piwik.pro/ppms.php?idsite={UUID}&rec=1&action_name=Home", UUID),
    pos("piwik_pro", f"https://shop.example/ppms.php?idsite={UUID}&rec=1", UUID, note="first-party"),
    pos("piwik_pro", "https://stats.shop.example/ppms.php?action_name=&idsite=1&rec=1&r=037654", "1",
        note="numeric site id (older installs)"),
    pos("at_internet", "https://logs1412.xiti.com/hit.xiti?s=123456&s2=1&p=home&idclient=x", "123456", "page"),
    pos("at_internet", "https://collect.shop.example/event?s=123456&idclient=abc", ("123456", "123456"),
        "page.display", body={"events": [{"name": "page.display", "data": {}}, {"name": "click.action"}]}),
    pos("webtrends", "https://statse.webtrendslive.com/dcs222abcdefghijklmnop_1a2b/dcs.gif?dcsuri=%2Fhome&WT.dl=0",
        "dcs222abcdefghijklmnop_1a2b", "0"),
    pos("comscore", "https://sb.scorecardresearch.com/b?c1=2&c2=1234567&ns__t=1&c8=Home", "1234567"),
    pos("nielsen", "https://secure-dcr.imrworldwide.com/cgi-bin/gn?prd=dcr&ci=us-123456&at=view&rt=banner",
        "us-123456", "view"),
    pos("quantcast", "https://pixel.quantserve.com/pixel;r=1234;a=p-AbCdEfGh12345;labels=_fp.event.PageView;fpan=1",
        "p-AbCdEfGh12345", "_fp.event.PageView"),
    pos("heap", "https://heapanalytics.com/h?a=1234567890&u=1&v=2&s=3&b=web", "1234567890"),
    pos("heap", "https://cdn.heapanalytics.com/js/heap-1234567890.js", "1234567890"),
    pos("amplitude", "https://api2.amplitude.com/2/httpapi", (HEX32, HEX32), "Page Viewed",
        body={"api_key": HEX32, "events": [{"event_type": "Page Viewed", "user_id": "u"}, {"event_type": "Add"}]}),
    pos("amplitude", "https://api.amplitude.com/", HEX32, "session_start",
        body=f"client={HEX32}&e={quote(json.dumps([{'event_type': 'session_start'}]))}&v=2&upload_time=1"),
    pos("mixpanel", "https://api-js.mixpanel.com/track/?data="
        + quote(b64({"event": "Page View", "properties": {"token": HEX32, "distinct_id": "x"}})) + "&ip=1",
        HEX32, "Page View"),
    pos("mixpanel", "https://api-js.mixpanel.com/track/?ip=1", (HEX32, HEX32), "A",
        body="data=" + quote(json.dumps([{"event": "A", "properties": {"token": HEX32}},
                                          {"event": "B", "properties": {"token": HEX32}}]))),
    pos("kissmetrics", "https://trk.kissmetrics.io/e?_n=Signed%20Up&_k=0123456789abcdef0123456789abcdef01234567"
        "&_p=user", "0123456789abcdef0123456789abcdef01234567", "Signed Up"),
    pos("indicative", "https://api.indicative.com/service/event", UUID, "Signup",
        body={"apiKey": UUID, "eventName": "Signup", "eventUniqueId": "u1"}),
    pos("yandex_metrica", f"https://mc.yandex.ru/watch/12345678?page-url={PAGE}&charset=utf-8", "12345678", "watch"),
    pos("yandex_metrica", "https://mc.yandex.com/webvisor/12345678?rn=1", "12345678", "webvisor"),
    pos("snowplow", f"https://collector.shop.example/i?e=pv&url={PAGE}&tv=js-3.1.0&tna=sp1&aid=shop-web&p=web",
        "shop-web", "pv"),
    pos("snowplow", "https://collector.shop.example/com.snowplowanalytics.snowplow/tp2", ("shop-web", "shop-web"),
        "pv", body={"schema": "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4",
                    "data": [{"e": "pv", "aid": "shop-web", "tv": "js-3"}, {"e": "se", "aid": "shop-web"}]}),
    pos("posthog", "https://us.i.posthog.com/e/?ip=1&ver=1.100.0", PHC, "$pageview",
        body={"event": "$pageview", "properties": {"token": PHC, "distinct_id": "x"}}),
    pos("posthog", "https://eu.i.posthog.com/e/?ip=1", PHC, "$autocapture",
        body="data=" + quote(b64({"event": "$autocapture", "properties": {"token": PHC}}))),
    pos("plausible", "https://plausible.io/api/event", "shop.example", "pageview",
        body={"n": "pageview", "u": "https://shop.example/", "d": "shop.example", "r": None}),
    pos("plausible", "https://shop.example/proxy/api/event", "shop.example", "pageview", note="first-party",
        body={"n": "pageview", "u": "https://shop.example/", "d": "shop.example"}),
    pos("parsely", f"https://p1.parsely.com/px/?rand=1&idsite=shop.example&url={PAGE}&action=pageview",
        "shop.example", "pageview"),
    pos("chartbeat", "https://ping.chartbeat.net/ping?h=shop.example&p=%2F&u=abc&d=shop.example&g=12345&n=1",
        "12345"),
    pos("fathom", "https://cdn.usefathom.com/?h=https%3A%2F%2Fshop.example&p=%2F&r=&sid=ABCDEFGH&qs=%7B%7D",
        "ABCDEFGH"),
    # -- tag managers / session replay ------------------------------------------------
    pos("tealium_iq", "https://tags.tiqcdn.com/utag/mycompany/main/prod/utag.js", "mycompany/main"),
    pos("tealium_iq", "https://shop.example/utag/mycompany/main/prod/utag.sync.js", "mycompany/main",
        note="self-hosted"),
    pos("tealium_eventstream", "https://collect.tealiumiq.com/event", "mycompany", "page_view",
        body={"tealium_account": "mycompany", "tealium_profile": "main", "tealium_event": "page_view"}),
    pos("ensighten", "https://nexus.ensighten.com/mycompany/prod/Bootstrap.js", "mycompany"),
    pos("piwik_pro_tag_manager", f"https://shop.containers.piwik.pro/{UUID}.js", UUID),
    pos("commanders_act", "https://cdn.tagcommander.com/1234/tc_Shop_1.js", "1234"),
    pos("hotjar", "https://static.hotjar.com/c/hotjar-1234567.js?sv=6", "1234567"),
    pos("hotjar", "https://in.hotjar.com/api/v2/client/sites/1234567/visit-data?sv=7", "1234567"),
    pos("microsoft_clarity", "https://www.clarity.ms/tag/abcde12345", "abcde12345"),
    pos("microsoft_clarity", "https://a.clarity.ms/collect", (None,), body="\x00\x01binary"),
    pos("fullstory", "https://rs.fullstory.com/rec/page?OrgId=o-1ABCDE-na1&UserId=1", "o-1ABCDE-na1", "page"),
    pos("crazy_egg", "https://script.crazyegg.com/pages/scripts/0012/3456.js?123", "00123456"),
    pos("mouseflow", f"https://cdn.mouseflow.com/projects/{UUID}.js", UUID),
    pos("lucky_orange", "https://tools.luckyorange.com/core/lo.js?site-id=a1b2c3d4", "a1b2c3d4"),
    pos("contentsquare", "https://t.contentsquare.net/uxa/a1b2c3d4e5f60.js", "a1b2c3d4e5f60"),
    pos("quantum_metric", "https://cdn.quantummetric.com/qscripts/quantum-mycompany.js", "mycompany"),
    pos("medallia_dxa", "https://cdn.decibelinsight.net/i/12345/67890/di.js", "12345"),
    pos("ensighten_server_side", "https://nexus.ensighten.com/pc/mycompany/sst?sstVersion=1.2&events[0].name=pv",
        "mycompany", "pv"),
    pos("glassbox", "https://report.shop.example/cls_report?clsjsv=5.1.0&r=x", (None,)),
    # -- CDP / marketing automation / experimentation ----------------------------------
    pos("invoca", "https://solutions.invocacdn.com/js/networks/1234/tags/5678901234/tag-live.js",
        "1234/5678901234", "live"),
    pos("merkle_merkury", "https://shop.example/tpTracking/loader/load.js?sv_cid=1234_56789&url=x", "1234_56789"),
    pos("omniconvert", "https://app.omniconvert.com/mktzsave/?id_website=12345&event=view", "12345", "view"),
    pos("split_io", "https://events.split.io/api/events/beacon", ("abcdefghijklmnopqrstuvwxyz0123456789",) * 2,
        "checkout", body={"token": "abcdefghijklmnopqrstuvwxyz0123456789", "sdk": "js",
                          "entries": [{"eventTypeId": "checkout"}, {"eventTypeId": "view"}]}),
    pos("segment", "https://api.segment.io/v1/t", SEG_KEY, "Order Completed",
        body={"event": "Order Completed", "type": "track", "writeKey": SEG_KEY}),
    pos("segment", "https://api.segment.io/v1/p", SEG_KEY, "page", body={"type": "page"}, headers=basic(SEG_KEY),
        note="basic auth"),
    pos("segment", f"https://cdn.segment.com/analytics.js/v1/{SEG_KEY}/analytics.min.js", SEG_KEY),
    pos("rudderstack", "https://shopabc.dataplane.rudderstack.com/v1/track", "2AbCdEfGhIjKlMnOpQrStUvWxYz",
        "Product Viewed", body={"event": "Product Viewed", "type": "track"},
        headers=basic("2AbCdEfGhIjKlMnOpQrStUvWxYz")),
    pos("mparticle", f"https://jssdks.mparticle.com/v3/JS/us1-{HEX32}/events", f"us1-{HEX32}", "Clicked",
        body={"events": [{"event_type": "custom_event", "data": {"event_name": "Clicked"}}]}),
    pos("lytics", "https://c.lytics.io/c/a1b2c3d4e5f6?_e=pv&_ref=shop.example", "a1b2c3d4e5f6", "pv"),
    pos("braze", "https://sdk.iad-01.braze.com/api/v3/data/", UUID, "ss",
        body={"api_key": UUID, "events": [{"name": "ss", "data": {}}]}),
    pos("klaviyo", "https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=AbC123", "AbC123"),
    pos("klaviyo", "https://a.klaviyo.com/client/events/?company_id=AbC123", "AbC123", "Viewed Product",
        body={"data": {"type": "event", "attributes": {"metric": {"data": {"type": "metric", "attributes":
                                                                          {"name": "Viewed Product"}}}}}}),
    pos("hubspot", "https://js.hs-scripts.com/1234567.js", "1234567"),
    pos("hubspot", "https://track.hubspot.com/__ptq.gif?a=1234567&k=1&n=pe1234567_signup", "1234567",
        "pe1234567_signup"),
    pos("marketo", "https://123-abc-456.mktoresp.com/webevents/visitWebPage?_mchNc=1&_mchId=123-ABC-456",
        "123-ABC-456", "visitWebPage"),
    pos("pardot", "https://pi.pardot.com/analytics?ver=3&visitor_id=&campaign_id=1234&account_id=123456",
        "123456"),
    pos("brevo", "https://sibautomation.com/sa.js?key=abcdef0123456789ghij", "abcdef0123456789ghij"),
    pos("intercom", "https://widget.intercom.io/widget/abc123de", "abc123de"),
    pos("drift", "https://js.driftt.com/include/1700000000000/abc123def456.js", "abc123def456"),
    pos("vibes", "https://tagtracking.vibescm.com/track?company_id=abc123&event=page", "abc123"),
    pos("optimizely", "https://logx.optimizely.com/v1/events", "12345678901", "purchase",
        body={"account_id": "12345678901", "visitors": [{"snapshots": [{"events": [{"key": "purchase"}]}]}]}),
    pos("optimizely", "https://cdn.optimizely.com/js/12345678901.js", "12345678901"),
    pos("vwo", f"https://dev.visualwebsiteoptimizer.com/j.php?a=123456&u={PAGE}&vn=2", "123456"),
    pos("ab_tasty", f"https://try.abtasty.com/{HEX32}.js", HEX32),
    pos("dynamic_yield", "https://cdn.dynamicyield.com/api/8765432/api_dynamic.js", "8765432"),
    pos("kameleoon", "https://abcdef1234.kameleoon.eu/kameleoon.js", "abcdef1234"),
    # -- issue 19: request shapes the catalog missed (real shapes: the vendors' SDK code, Omnibug's test URLs) ----
    pos("tiktok", "https://analytics.tiktok.com/api/v1/track", "BT24M8TQUU2IQ2BVG9NG", "AddToCart",
        body={"event": "AddToCart", "context": {"ad": {"ad_id": "", "log_extra": "{}"}, "user": {"user_id": ""},
              "pixel": {"code": "BT24M8TQUU2IQ2BVG9NG"}, "page": {"url": PAGE, "referrer": ""},
              "library": {"version": "0.0.24", "name": "pixel.js"}}, "timestamp": "2020-09-04T11:22:12.961Z"},
        note="api/v1/track JSON"),
    pos("adobe_heartbeat", "https://shop.hb.omtrdc.net/?s:sc:rsid=shopprod%2Cshopglobal&s:sc:tracking_server="
        "shop.sc.omtrdc.net&h:sc:ssl=1&s:event:type=start&l:event:duration=0&s:asset:type=main",
        ("shopprod", "shopglobal"), "start", note="s:sc:rsid comma list"),
    pos("piwik_pro_tag_manager", f"https://shop.piwik.pro/containers/{UUID}.js", UUID, note="containers/<uuid>.js"),
    pos("adobe_experience_cloud_id", "https://dpm.demdex.net/id?d_visid_ver=3.3.0&d_fieldgroup=MC&d_rtbd=json&d_ver=2"
        "&mcorgid=0123456789ABCDEF01234567%40AdobeOrg&d_nsid=0", "0123456789ABCDEF01234567@AdobeOrg", note="mcorgid"),
    pos("adobe_audience_manager", "https://shop.demdex.net/ibs:dpid=411&dpuuid=XY1234", "shop", note="ibs:"),
    pos("adobe_audience_manager", "https://dpm.demdex.net/ibs:dpid=411&dpuuid=XY1234", (None,),
        note="dpm ibs: (no partner)"),
    pos("google_analytics", "https://www.google-analytics.com/collect", "G-ABC123XYZ9", "page_view",
        body="v=2&tid=G-ABC123XYZ9&gtm=2oe7v2&_p=1844589572&cid=1473268947.1550531325&_s=1&en=page_view&dl=" + PAGE,
        note="v=2 on /collect"),
    pos("webtrends", "https://statse.webtrendslive.com/dcs222abcdefghijklmnop_1a2b/dcs.gif?&dcsdat=1566720825934",
        "dcs222abcdefghijklmnop_1a2b", note="dcs.gif without dcsuri"),
    pos("google_ads", "https://googleads.g.doubleclick.net/pagead/viewthroughconversion/AW-123456789/?random=1&cv=9"
        "&fst=1&num=1", "AW-123456789", note="AW- in the path"),
    pos("adobe_launch", "https://assets.adoberesources.cn/launch-EN0123456789abcdef0123456789abcdef.min.js",
        "EN0123456789abcdef0123456789abcdef", note="adoberesources.cn"),
    pos("amplitude", "https://api2.amplitude.com/batch", (HEX32, HEX32), "Page Viewed",
        body={"api_key": HEX32, "events": [{"event_type": "Page Viewed", "device_id": "d1"},
                                           {"event_type": "Signed Up", "device_id": "d1"}]}, note="batch API"),
    pos("amplitude", f"https://sr-client-cfg.amplitude.com/config/{HEX32}?config_group=browser", HEX32,
        note="remote config (analytics-core RemoteConfigClient.getUrlParams)"),
    pos("mixpanel", "https://api-js.mixpanel.com/engage/?verbose=1&ip=1", HEX32,
        body="data=" + quote(json.dumps([{"$token": HEX32, "$distinct_id": "u1", "$set": {"plan": "pro"}}])),
        note="engage JSON"),
    pos("posthog", "https://us.i.posthog.com/i/v0/e/?ip=0&ver=1.449.2", PHC, "$pageview",
        body={"event": "$pageview", "properties": {"token": PHC, "$current_url": "https://shop.example/"}},
        note="/i/v0/e/"),
    pos("posthog", "https://us.i.posthog.com/batch/", (PHC, PHC), "$pageview",
        body={"api_key": PHC, "batch": [{"event": "$pageview", "properties": {}}, {"event": "$pageleave"}]},
        note="/batch/"),
    pos("posthog", "https://us.i.posthog.com/flags/?v=2&config=true", PHC, body={"token": PHC, "distinct_id": "u1"},
        note="/flags (config fetch)"),
    pos("posthog", "https://shop.example/ingest/e/?ip=0", PHC, "$pageview",
        body={"event": "$pageview", "properties": {"token": PHC}}, note="first-party proxy"),
    pos("segment", "https://api.segment.io/v1/batch", (SEG_KEY, SEG_KEY), "page",
        body={"batch": [{"type": "page", "messageId": "ajs-next-1"}, {"type": "track", "event": "Clicked",
                                                                     "messageId": "ajs-next-2"}],
              "writeKey": SEG_KEY, "sentAt": "2026-11-24T20:00:00.000Z"}, note="/v1/batch"),
    pos("segment", "https://seg.shop.example/v1/t", SEG_KEY, "Clicked",
        body={"type": "track", "event": "Clicked", "messageId": "ajs-next-9", "writeKey": SEG_KEY},
        note="first-party proxy"),
    pos("rudderstack", "https://shopabc.dataplane.rudderstack.com/v1/batch", (RS_KEY, RS_KEY), "Clicked",
        body={"batch": [{"type": "track", "event": "Clicked", "rudderId": "r1"}, {"type": "page", "rudderId": "r1"}],
              "sentAt": "2026-11-24T20:00:00.000Z"}, headers=basic(RS_KEY), note="/v1/batch, Basic auth"),
    pos("rudderstack", "https://events.shop.example/v1/page", RS_KEY, "page",
        body={"type": "page", "rudderId": "r1", "channel": "web"}, headers=basic(RS_KEY), note="own data plane"),
    pos("rudderstack", "https://api.rudderstack.com/sourceConfig/?p=npm&v=3.34.1&build=modern", RS_KEY,
        headers=basic(RS_KEY), note="sourceConfig, key only in Basic auth"),
    pos("plausible", "https://shop.example/api/event", "shop.example", "pageview",
        body={"name": "pageview", "url": "https://shop.example/", "domain": "shop.example", "referrer": None},
        note="long field names"),
    pos("hightouch", "https://us-east-1.hightouch-events.com/v1/track", HT_KEY, "Clicked",
        body={"type": "track", "event": "Clicked"}, headers=basic(HT_KEY), note="Basic auth only"),
    pos("adobe_heartbeat", "https://shop.hb-api.omtrdc.net/api/v1/sessions", (None,), note="v3 session, no body"),
    pos("adobe_experience_cloud_id", "https://dpm.demdex.net/id?d_visid_ver=3.3.0&d_fieldgroup=MC&d_nsid=0", (None,),
        note="dpm /id without an org id"),
    pos("optimizely", "https://logx.optimizely.com/log/event", "12345678901", "purchase",
        body={"account_id": "12345678901", "visitors": [{"snapshots": [{"events": [{"key": "purchase"}]}]}]},
        note="/log/event"),
    pos("google_analytics", "https://www.google-analytics.com/g/collect?tid=G-ABC123XYZ9", "G-ABC123XYZ9", "event",
        body="v=1&_v=j68&t=event&_s=2", note="/g/collect on Google's host, protocol version in the body"),
]

NEGATIVE = [
    neg("google_analytics", "https://sgtm.shop.example/g/collect?v=1&tid=G-ABC123XYZ9", note="first-party v=1"),
    neg("google_analytics", "https://sgtm.shop.example/g/collect?v=2&tid=UA-1234-1", note="UA tid"),
    bad("google_analytics", "https://www.googletagmanager.com/gtag/js?id=G-12", note="short id", sent='G-12'),
    neg("google_analytics", "https://shop.example/blog/g/collection?v=2&tid=G-ABC123XYZ9", note="path"),
    neg("universal_analytics", "https://www.google-analytics.com/collect?v=1&t=pageview&tid=G-ABC123XYZ9"),
    bad("universal_analytics", "https://shop.example/collect?v=1&t=pageview&tid=UA-xx", note="bad id", sent='UA-xx'),
    bad("google_tag_manager", "https://www.googletagmanager.com/gtm.js?id=GTM-!!", sent='GTM-!!'),
    neg("google_tag_manager", "https://shop.example/gtm.js?id=ABC", note="no GTM- id"),
    neg("google_tag", "https://www.googletagmanager.com/gtag/js?id=GX-ABCD1234"),
    neg("google_ads", "https://www.googleadservices.com/pagead/conversion/abc/"),
    neg("google_ads", "https://evil.example/pagead/conversion/123456789/", note="wrong host"),
    neg("floodlight", "https://ad.doubleclick.net/ddm/trackclk/N1234.5678/B1;dc_trk_aid=1"),
    bad("floodlight", "https://ad.doubleclick.net/activity;src=abc;cat=x", note="bad src", sent='abc'),
    bad("google_optimize", "https://www.googleoptimize.com/optimize.js?id=XYZ", sent='XYZ'),
    neg("adobe_analytics", "https://shop.example/blog/b/ss/shopprod/1/", note="not at root"),
    neg("adobe_analytics", "https://shop.example/b/ss/", note="no rsid"),
    neg("adobe_heartbeat", "https://shop.example/api/v1/sessions", body="not json"),
    bad("adobe_web_sdk", "https://edge.adobedc.net/ee/v1/interact?configId=notauuid", sent="notauuid"),
    neg("adobe_web_sdk", "https://edge.shop.example/ee/v1/interact?configId=notauuid", note="first-party, no UUID"),
    neg("adobe_audience_manager", "https://dpm.demdex.net/event?d_stuff=1", note="dpm"),
    bad("adobe_experience_cloud_id", "https://dpm.demdex.net/id?d_orgid=xyz", sent="xyz"),
    neg("adobe_experience_cloud_id", "https://shop.example/id?d_orgid=xyz", note="first-party, no @AdobeOrg"),
    neg("adobe_target", "https://shop.example/rest/v1/delivery?client=shop", note="no sessionId"),
    neg("adobe_launch", "https://cdn.example.com/launch-0123456789ab.min.js"),
    neg("adobe_dtm", "https://assets.adobedtm.com/x/satelliteLib-xyz.js"),
    bad("facebook", f"https://www.facebook.com/tr/?id=abc&ev=PageView", note="malformed id", sent='abc'),
    neg("facebook", f"https://www.notfacebook.com/tr/?id={META_ID}&ev=PageView", note="host"),
    neg("facebook", f"https://shop.example/tr/?id={META_ID}&ev=PageView", note="first-party look-alike"),
    bad("facebook", "https://www.facebook.com/tr/?id=12345&ev=PageView", note="too short", sent='12345'),
    bad("tiktok", "https://analytics.tiktok.com/api/v2/pixel", body={"context": {"pixel": {"code": "abc"}}}, sent='abc'),
    neg("tiktok", "https://analytics.tiktok.example/api/v2/pixel", body={"context": {"pixel": {"code": TT}}}),
    bad("linkedin", "https://px.ads.linkedin.com/collect?pid=abc", sent='abc'),
    neg("linkedin", "https://px.ads.linkedin.example.com/collect?pid=1234567"),
    bad("twitter", "https://t.co/i/adsct?txn_id=!!&p_id=Twitter", sent='!!'),
    neg("twitter", "https://t.co/abc123"),
    bad("bing", "https://bat.bing.com/action/0?ti=abc&evt=pageLoad", sent='abc'),
    neg("bing", "https://www.bing.com/search?q=ti"),
    bad("pinterest", "https://ct.pinterest.com/v3/?tid=abc&event=init", sent='abc'),
    neg("pinterest", "https://www.pinterest.com/v3/?tid=2612345678901"),
    bad("snapchat", "https://tr.snapchat.com/p", body="pid=not-a-uuid&ev=PAGE_VIEW", sent='not-a-uuid'),
    neg("snapchat", "https://tr.snapchat.example/p", body=f"pid={UUID}&ev=PAGE_VIEW"),
    bad("reddit", "https://alb.reddit.com/rp.gif?id=12345&event=PageVisit", sent='12345'),
    neg("reddit", "https://www.reddit.com/rp.gif?id=t2_abc123"),
    neg("quora", "https://q.quora.com/_/ad/xyz/pixel?tag=ViewContent"),
    bad("yahoo_dot", "https://sp.analytics.yahoo.com/sp.pl?a=10000&.yp=abc", sent='abc'),
    neg("yahoo_japan", "https://www.yahoo.co.jp/pagead/conversion/x/"),
    bad("amazon_ads", "https://s.amazon-adsystem.com/iu3?pid=x!&event=PageView", sent='x!'),
    neg("amazon_ads", "https://aax.amazon-adsystem.com/e/dtb/bid?src=600", note="publisher bid"),
    neg("spotify", "https://pixels.spotify.example/v1/ingest", body={"batch": [{"pixel_id": "a1b2c3d4e5f6"}]}),
    bad("line", "https://tr.line.me/tag.gif?t_id=xyz&e=pv", sent='xyz'),
    bad("seznam_sklik", "https://c.seznam.cz/retargeting?id=abc", sent='abc'),
    bad("teads", "https://t.teads.tv/track?buyer_pixel_id=abc", sent='abc'),
    bad("criteo", "https://sslwidget.criteo.com/event?a=abc", sent='abc'),
    bad("the_trade_desk", "https://insight.adsrvr.org/track/up?adv=AB!", sent='AB!'),
    neg("the_trade_desk", "https://match.adsrvr.org/track/cmf/generic?ttd_pid=x", note="cookie sync"),
    neg("taboola", "https://cdn.taboola.com/libtrc/shop-example/loader.js", note="publisher widget"),
    bad("outbrain", "https://tr.outbrain.com/unifiedPixel?marketerId=xyz&name=PAGE_VIEW", sent='xyz'),
    neg("zemanta", "https://p1.zemanta.com/v2/p/ns/abc/PAGE_VIEW/"),
    bad("sizmek", "https://bs.serving-sys.com/Serving/ActivityServer.bs?cn=as&ActivityID=abc", sent='abc'),
    neg("adroll", "https://s.adroll.com/j/short/roundtrip.js"),
    bad("xandr", "https://secure.adnxs.com/px?id=abc&t=2", sent='abc'),
    neg("xandr", "https://ib.adnxs.com/getuid?https://x", note="sync"),
    bad("mediamath", "https://pixel.mathtag.com/event/js?mt_adid=abc", sent='abc'),
    bad("adform", "https://track.adform.net/Serving/TrackPoint/?pm=abc", sent='abc'),
    bad("stackadapt", "https://tags.srv.stackadapt.com/saq_pxl?uid=x", sent='x'),
    bad("rtb_house", "https://creativecdn.com/tags?id=xyz_home", sent='xyz_home'),
    neg("sojern", "https://beacon.sojern.com/pixel/p/abc"),
    bad("awin", "https://www.awin1.com/sread.img?tt=ns&merchant=abc", sent='abc'),
    bad("cj", "https://www.emjcd.com/u?CID=abc", sent='abc'),
    neg("impact", "https://utt.impactcdn.com/B1234567.js"),
    bad("demandbase", "https://tag.demandbase.com/x.min.js", sent="x"),
    bad("sixsense", "https://b.6sc.co/v1/beacon/img.gif?token=short", sent='short'),
    neg("matomo", "https://shop.example/matomo.php?idsite=abc&rec=1"),
    neg("matomo", "https://shop.example/matomo.js"),
    neg("piwik_pro", "https://shop.example/ppms.php?idsite=abc", note="idsite neither numeric nor UUID"),
    neg("at_internet", "https://logs.xiti.com/hit.xiti?s=abc"),
    neg("at_internet", "https://shop.example/event?s=123", note="no idclient"),
    neg("webtrends", "https://shop.example/dcs.gif?foo=1"),
    bad("comscore", "https://sb.scorecardresearch.com/b?c1=2&c2=abc", sent='abc'),
    bad("nielsen", "https://secure-dcr.imrworldwide.com/cgi-bin/gn?ci=bad%20id!", sent='bad id!'),
    bad("quantcast", "https://pixel.quantserve.com/pixel;a=xyz", sent='xyz'),
    bad("heap", "https://heapanalytics.com/h?a=abc", sent='abc'),
    bad("amplitude", "https://api2.amplitude.com/2/httpapi", body={"api_key": "xyz", "events": [{"event_type": "x"}]}, sent='xyz'),
    bad("mixpanel", "https://api-js.mixpanel.com/track/?data=" + quote(b64({"event": "x", "properties":
                                                                           {"token": "bad"}})), sent="bad"),
    bad("kissmetrics", "https://trk.kissmetrics.io/e?_n=x&_k=abc", sent='abc'),
    bad("indicative", "https://api.indicative.com/service/event", body={"apiKey": "nope", "eventName": "x"}, sent='nope'),
    neg("yandex_metrica", "https://mc.yandex.ru/watch/abc"),
    neg("yandex_metrica", "https://yandex.ru/watch/12345678", note="host"),
    neg("snowplow", "https://shop.example/i?e=pv", note="no tv"),
    neg("snowplow", "https://shop.example/i?e=zz&tv=js-3"),
    bad("posthog", "https://us.i.posthog.com/e/", body={"event": "x", "properties": {"token": "xyz"}}, sent='xyz'),
    neg("plausible", "https://shop.example/api/event", body={"name": "x"}),
    neg("hightouch", "https://us-east-1.hightouch-events.example/v1/track", body={"type": "track"},
        headers=basic(HT_KEY), note="look-alike host"),
    neg("posthog", "https://shop.example/ingest/e/", body={"event": "x", "api_key": "sk_live_abc"},
        note="first-party /e/ without a phc_ token"),
    bad("parsely", "https://p1.parsely.com/px/?idsite=not%20a%20domain", sent='not a domain'),
    bad("chartbeat", "https://ping.chartbeat.net/ping?h=shop.example&g=abc", sent='abc'),
    bad("fathom", "https://cdn.usefathom.com/?sid=ab!", sent='ab!'),
    neg("tealium_iq", "https://tags.tiqcdn.com/utag/mycompany/"),
    bad("tealium_eventstream", "https://collect.tealiumiq.com/event", body={"tealium_account": "!!"}, sent='!!'),
    neg("ensighten", "https://nexus.ensighten.example/mycompany/prod/Bootstrap.js"),
    neg("piwik_pro_tag_manager", "https://shop.containers.piwik.pro/notauuid.js"),
    neg("commanders_act", "https://cdn.tagcommander.com/abc/tc_Shop_1.js"),
    neg("hotjar", "https://static.hotjar.com/c/hotjar-abc.js?sv=6"),
    neg("microsoft_clarity", "https://www.clarity.ms/tag/uet/12345678", note="UET via Clarity = Bing"),
    bad("fullstory", "https://rs.fullstory.com/rec/page?OrgId=%21%21", sent='!!'),
    neg("crazy_egg", "https://script.crazyegg.com/pages/scripts/ab/cd.js"),
    neg("mouseflow", f"https://cdn.mouseflow.example/projects/{UUID}.js"),
    bad("lucky_orange", "https://tools.luckyorange.com/core/lo.js?site-id=!!", sent='!!'),
    neg("contentsquare", "https://t.contentsquare.example/uxa/a1b2c3d4e5f60.js"),
    neg("quantum_metric", "https://cdn.quantummetric.com/qscripts/other.js"),
    neg("medallia_dxa", "https://cdn.decibelinsight.net/i/abc/67890/di.js"),
    neg("ensighten_server_side", "https://shop.example/pc/mycompany/sst", note="no sstVersion"),
    neg("glassbox", "https://shop.example/cls_report", note="no clsjsv"),
    neg("invoca", "https://solutions.invocacdn.com/js/invoca-latest.min.js"),
    neg("merkle_merkury", "https://shop.example/tpTracking/loader/load.js", note="no sv_cid"),
    neg("omniconvert", "https://shop.example/mktzsave/?id_website=abc"),
    bad("split_io", "https://events.split.io/api/events/beacon", body={"token": "short", "entries": []}, sent='short'),
    bad("segment", "https://cdn.segment.com/analytics.js/v1/ab/analytics.min.js", note="short key", sent='ab'),
    neg("segment", "https://api.segment.example/v1/t", body={"writeKey": SEG_KEY}),
    bad("rudderstack", "https://shopabc.dataplane.rudderstack.com/v1/track", body={"event": "x"},
        headers=basic("short"), sent="short"),
    bad("mparticle", "https://jssdks.mparticle.com/v3/JS/xyz/events", sent='xyz'),
    bad("lytics", "https://c.lytics.io/c/%21%21", sent='%21%21'),
    bad("braze", "https://sdk.iad-01.braze.com/api/v3/data/", body={"api_key": "nope"}, sent='nope'),
    bad("klaviyo", "https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=toolong123", sent='toolong123'),
    neg("hubspot", "https://js.hs-scripts.com/abc.js"),
    bad("marketo", "https://123-abc-456.mktoresp.com/webevents/visitWebPage?_mchId=12-AB-4", sent='12-AB-4'),
    bad("pardot", "https://pi.pardot.com/analytics?account_id=abc", sent='abc'),
    bad("brevo", "https://sibautomation.com/sa.js?key=short", sent='short'),
    bad("intercom", "https://widget.intercom.io/widget/ab", sent="ab"),
    bad("drift", "https://js.driftt.com/include/1700000000000/ab.js", sent="ab"),
    neg("vibes", "https://tagtracking.vibescm.example/track"),
    neg("optimizely", "https://cdn.optimizely.com/js/abc.js"),
    bad("vwo", "https://dev.visualwebsiteoptimizer.com/j.php?a=abc", sent='abc'),
    neg("ab_tasty", "https://try.abtasty.com/xyz.js"),
    neg("dynamic_yield", "https://cdn.dynamicyield.example/api/8765432/api_dynamic.js"),
    bad("kameleoon", "https://abc.kameleoon.eu/kameleoon.js", sent="abc"),
    # CORS preflights of JSON POSTs (seen in Chrome): the URL alone must not make a hit
    neg("tiktok", "https://analytics.tiktok.com/api/v2/pixel", method="OPTIONS", note="CORS preflight"),
    neg("klaviyo", "https://a.klaviyo.com/client/events/?company_id=AbC123", method="OPTIONS", note="CORS preflight"),
    neg("amplitude", "https://api2.amplitude.com/2/httpapi", method="options", note="CORS preflight, lower case"),
]

MALFORMED = [c for c in NEGATIVE if c.note == "malformed id" or c.ids]
NEGATIVE = [c for c in NEGATIVE if c not in MALFORMED]


def _host_lookalike(case: Case) -> Case:
    """``case`` with its host's top-level domain replaced by ``.example``
    (``api2.amplitude.com`` -> ``api2.amplitude.example``): a look-alike host
    that must not be taken for the vendor, whatever the id."""
    scheme, _, rest = case.url.partition("://")
    host, sep, tail = rest.partition("/")
    return Case(case.vendor, f"{scheme}://{host.rsplit('.', 1)[0]}.example{sep}{tail}", (), ANY, case.body,
                case.method, case.headers, "look-alike host")


#: Vendors whose only look-alike used to be a malformed id: a look-alike host of their first recorded request.
NEGATIVE += [_host_lookalike(next(c for c in POSITIVE if c.vendor == v)) for v in (
    "adform", "awin", "braze", "brevo", "chartbeat", "cj", "comscore", "criteo", "fathom", "fullstory",
    "google_optimize", "heap", "indicative", "kissmetrics", "line", "lucky_orange", "lytics", "marketo", "mediamath",
    "mixpanel", "mparticle", "nielsen", "outbrain", "pardot", "parsely", "quantcast", "rtb_house",
    "rudderstack", "seznam_sklik", "sixsense", "sizmek", "split_io", "stackadapt", "teads", "tealium_eventstream",
    "vwo", "yahoo_dot", "demandbase", "intercom", "drift", "kameleoon")]
