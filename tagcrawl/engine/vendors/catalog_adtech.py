"""Catalog: programmatic / native / retargeting / ABM / affiliate pixels."""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

VENDORS = (
    Vendor(
        "criteo", "Criteo OneTag", "advertising",
        (
            P(host_re("criteo.com", "criteo.net"), r"^/event$", ids="p:a",
              events=("p:p1~(?:^|&)e=([A-Za-z_]+)", "p:p0~(?:^|&)e=([A-Za-z_]+)")),
            P(host_re("criteo.com", "criteo.net"), r"^/js/ld/ld\.js$", ids="p:a"),
        ),
        ("Criteo",),
        ids.digits(2, 8, example="12345"),
        "`a` of `sslwidget.criteo.com/event` / `dynamic.criteo.com/js/ld/ld.js`",
    ),
    Vendor(
        "the_trade_desk", "The Trade Desk", "advertising",
        (
            P(host_re("insight.adsrvr.org"), r"^/track/[a-z]+", ids=("p:adv", "json:adv", "json:data.0.adv"),
              events=("p:ct", r"path:^/track/([a-z]+)")),
            P(host_re("js.adsrvr.org"), r"^/(?:up_loader|universal_pixel)[0-9a-z.]*\.js$"),
        ),
        ("TTD", "Trade Desk", "The Trade Desk Universal Pixel"),
        ids.pattern("[a-z0-9]{5,10}", case="lower", example="abc1d2e"),
        "`adv` of `insight.adsrvr.org/track/up|pxl|conv`",
    ),
    Vendor(
        "taboola", "Taboola Pixel", "advertising",
        (
            P(host_re("trc.taboola.com"), r"^/[0-9]{4,9}/log/3/unip", ids=r"path:^/([0-9]+)/log/",
              events="p:en"),
            P(host_re("trc.taboola.com"), r"^/actions-handler/log/3/unip", ids="p:id", events="p:en"),
            P(host_re("cdn.taboola.com"), r"^/libtrc/unip/[0-9]+/tfa\.js$", ids=r"path:^/libtrc/unip/([0-9]+)/"),
        ),
        ("Taboola",),
        ids.digits(4, 9, example="1234567"),
        "path of `trc.taboola.com/<id>/log/3/unip` / `cdn.taboola.com/libtrc/unip/<id>/tfa.js`",
    ),
    Vendor(
        "outbrain", "Outbrain Pixel", "advertising",
        (
            P(host_re("tr.outbrain.com"), r"^/(?:unifiedPixel|pixel)$", ids="p:marketerId", events="p:name",
              id_sep=","),
            P(host_re("amplify.outbrain.com"), r"^/cp/obtp\.js$"),
        ),
        ("Outbrain", "Outbrain Amplify"),
        ids.pattern("[0-9a-f]{20,40}", case="lower", example="00f0ccd36f7a89d3c1b7f96ad1c12f9c53"),
        "`marketerId` of `tr.outbrain.com/unifiedPixel` (comma list: one pixel per id)",
    ),
    Vendor(
        "zemanta", "Zemanta Pixel", "advertising",
        (P(host_re("zemanta.com"), r"^/(?:v[0-9]+/)?p/(?:[a-z]+/)?[0-9]+/",
           ids=r"path:^/(?:v[0-9]+/)?p/(?:[a-z]+/)?([0-9]+)/",
           events=r"path:/[0-9]+/([A-Za-z_]+)"),),
        ("Zemanta", "Outbrain DSP"),
        ids.digits(3, 10, example="12345"),
        "path of `p1.zemanta.com/v2/p/ns/<id>/<EVENT>/`",
    ),
    Vendor(
        "sizmek", "Sizmek (Amazon Ad Server)", "advertising",
        (P(host_re("serving-sys.com"), r"/[Aa]ctivity[Ss]erver\.bs$",
           ids=("p:ActivityID", "p:activityid", "p:activityID"), events="p:cn"),),
        ("Sizmek", "MediaMind", "Amazon Ad Server"),
        ids.digits(3, 12, example="1234567"),
        "`ActivityID` of `bs.serving-sys.com/Serving/ActivityServer.bs`",
    ),
    Vendor(
        "adroll", "AdRoll", "advertising",
        (
            P(host_re("s.adroll.com"), r"^/j/[A-Z0-9]{20,26}/roundtrip\.js$",
              ids=r"path:^/j/([A-Z0-9]{20,26})/"),
            P(host_re("d.adroll.com"), None, ids=("p:adroll_adv_id", "p:adv_id", r"path:/([A-Z0-9]{20,26})(?:/|$)")),
        ),
        ("AdRoll", "NextRoll"),
        ids.pattern("[A-Z0-9]{20,26}", case="upper", example="ABCDEFGHIJKLMNOPQRSTUV"),
        "advertisable id in `s.adroll.com/j/<adv>/roundtrip.js` and `d.adroll.com` paths",
    ),
    Vendor(
        "xandr", "Xandr (AppNexus)", "advertising",
        (
            P(host_re("adnxs.com"), r"^/px$", ids="p:id"),
            P(host_re("adnxs.com"), r"^/seg$", ids="p:add", id_sep=","),
        ),
        ("AppNexus", "Xandr", "Microsoft Invest", "Microsoft Curate"),
        ids.digits(3, 10, example="1234567"),
        "`id` of `secure.adnxs.com/px` (conversion) / `add` of `/seg` (segment)",
    ),
    Vendor(
        "mediamath", "MediaMath", "advertising",
        (P(host_re("pixel.mathtag.com"), r"^/event/(?:js|img)$", ids=("p:mt_adid", "p:mt_id")),),
        ("MathTag",),
        ids.digits(3, 10, example="123456"),
        "`mt_adid` (advertiser) else `mt_id` of `pixel.mathtag.com/event/js`",
    ),
    Vendor(
        "adform", "Adform", "advertising",
        (
            P(host_re("adform.net"), r"^/[Ss]erving/[Tt]rack[Pp]oint/?$", ids="p:pm",
              events=("p:ADFPageName", "p:pagename")),
            P(host_re("adform.net"), r"^/[Ss]erving/[Ss]cripts/[Tt]rackpoint/"),
        ),
        ("Adform Tracking Point",),
        ids.digits(3, 10, example="123456"),
        "`pm` of `track.adform.net/Serving/TrackPoint/`",
    ),
    Vendor(
        "stackadapt", "StackAdapt", "advertising",
        (
            P(host_re("srv.stackadapt.com"), r"^/(?:saq_pxl|conv|rt)$", ids=("p:uid", "p:sid"), events="p:event"),
            P(host_re("srv.stackadapt.com"), r"^/events\.js$"),
        ),
        (),
        ids.pattern("[A-Za-z0-9_-]{8,40}", example="aBcDeFgHiJkLmNoPqRsTuV"),
        "`uid` of `tags.srv.stackadapt.com/saq_pxl`",
    ),
    Vendor(
        "rtb_house", "RTB House", "advertising",
        (P(host_re("creativecdn.com"), r"^/tags(?:/v2)?/?$", ids="p:id~^(pr_[A-Za-z0-9]+)",
           events="p:id~^pr_[A-Za-z0-9]+_([A-Za-z0-9_]+)"),),
        ("RTBHouse",),
        ids.pattern("pr_[A-Za-z0-9]{4,40}", example="pr_AbCdEf123"),
        "`id=pr_<hash>_<event>` of `creativecdn.com/tags`",
    ),
    Vendor(
        "sojern", "Sojern", "advertising",
        (
            P(host_re("beacon.sojern.com"), r"^/pixel/p/[0-9]+", ids=r"path:^/pixel/p/([0-9]+)"),
            P(host_re("static.sojern.com"), r"^/sdk/"),
        ),
        (),
        ids.digits(3, 10, example="123456"),
        "path of `beacon.sojern.com/pixel/p/<id>`",
    ),
    Vendor(
        "awin", "Awin", "affiliate",
        (
            P(host_re("dwin1.com"), r"^/[0-9]+\.js$", ids=r"path:^/([0-9]+)\.js$"),
            P(host_re("awin1.com"), r"^/sread\.(?:img|php|js)$", ids="p:merchant", events="p:tt"),
        ),
        ("Affiliate Window", "Awin MasterTag"),
        ids.digits(2, 8, example="12345"),
        "path of `www.dwin1.com/<merchant>.js`; `merchant` of `www.awin1.com/sread.img`",
    ),
    Vendor(
        "cj", "CJ Affiliate", "affiliate",
        (
            P(host_re("emjcd.com"), r"^/(?:u|tags/c)$", ids=("p:CID", "p:cid"), events=("p:TYPE", "p:type")),
            P(host_re("mczbf.com"), r"^/tags/[0-9]+/tag\.js$", ids=r"path:^/tags/([0-9]+)/"),
        ),
        ("CJ", "Commission Junction"),
        ids.digits(3, 10, example="1234567"),
        "`CID` of `www.emjcd.com/u`; path of `www.mczbf.com/tags/<id>/tag.js`",
    ),
    Vendor(
        "impact", "Impact", "affiliate",
        (P(host_re("impactcdn.com"), r"^/A[0-9][A-Za-z0-9-]{5,60}\.js$",
           ids=r"path:^/(A[0-9][A-Za-z0-9-]{5,60})\.js$"),),
        ("Impact Radius", "impact.com"),
        ids.pattern("A[0-9][A-Za-z0-9-]{5,60}", example="A1234567-abcd-1234-abcd-1234567890ab1"),
        "path of `utt.impactcdn.com/<account sid>.js`",
    ),
    Vendor(
        "demandbase", "Demandbase", "advertising",
        (
            P(host_re("tag.demandbase.com"), r"^/[A-Za-z0-9]{8,40}\.min\.js$",
              ids=r"path:^/([A-Za-z0-9]{8,40})\.min\.js$"),
            P(host_re("company-target.com"), r"^/api/v[0-9]+/ip\.json$", ids=("p:key", "p:auth")),
        ),
        ("Demandbase Engagement", "Company-Target"),
        ids.pattern("[A-Za-z0-9]{8,40}", example="a1b2c3d4e5f60718"),
        "path of `tag.demandbase.com/<key>.min.js`; `key` of `api.company-target.com/api/v2/ip.json`",
    ),
    Vendor(
        "sixsense", "6sense", "advertising",
        (
            P(host_re("6sc.co"), r"^/v1/beacon/img\.gif$", ids="p:token"),
            P(host_re("6sc.co"), r"^/j/[0-9a-f-]{36}\.js$", ids=r"path:^/j/([0-9a-f-]{36})\.js$"),
            P(host_re("6sense.com"), r"^/v[0-9]+/company/details",
              ids="hdr:authorization~^Token ([A-Za-z0-9]+)"),
            P(host_re("j.6sc.co"), r"^/6si\.min\.js$"),
        ),
        ("Six Sense", "6si"),
        ids.pattern("[A-Za-z0-9-]{16,40}", case="lower", example="0123456789abcdef0123456789abcdef"),
        "`token` of `b.6sc.co/v1/beacon/img.gif`; path of `j.6sc.co/j/<id>.js`",
    ),
)
