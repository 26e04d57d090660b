"""Catalog: advertising platforms' conversion / audience pixels (social,
search, retail media, audio)."""
from __future__ import annotations

from tagcrawl.engine.vendors import ids
from tagcrawl.engine.vendors.model import P, Vendor, host_re

_UUID_PATH = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

VENDORS = (
    Vendor(
        "facebook", "Meta Pixel", "advertising",
        (
            P(host_re("facebook.com"), r"^/tr/?$", ids="p:id", events="p:ev"),
            P(host_re("facebook.net"), r"^/signals/config/[0-9]+", ids=r"path:^/signals/config/([0-9]+)", config=True),
            P(host_re("facebook.net"), r"/fbevents(?:\.[a-z.]+)?\.js$"),
        ),
        ("Facebook", "Meta", "Facebook Pixel", "Meta Ads", "Facebook Ads", "Meta (Facebook)"),
        ids.META,
        "`id` of `facebook.com/tr` (query or form body); path of `connect.facebook.net/signals/config/<id>`",
    ),
    Vendor(
        "tiktok", "TikTok Pixel", "advertising",
        (
            P(host_re("tiktok.com"), r"^/api/v[0-9]+/(?:pixel|track)(?:/[a-z_]+)?/?$",
              ids=("json:context.pixel.code", "json:pixel_code", "p:sdkid"), events=("json:event", "p:event"),
              split="json:batch"),
            P(host_re("tiktok.com"), r"^/i18n/pixel/", ids="q:sdkid"),
        ),
        ("TikTok", "TikTok Ads", "TikTok for Business"),
        ids.TIKTOK,
        "`context.pixel.code` in the JSON body of `analytics.tiktok.com/api/v2/pixel` / `/api/v1/track`; "
        "`sdkid` of `i18n/pixel/events.js`",
    ),
    Vendor(
        "linkedin", "LinkedIn Insight Tag", "advertising",
        (
            P(host_re("ads.linkedin.com"), r"^/(?:collect|attribution_trigger)/?$", ids="p:pid",
              events=("p:conversionId", "const:pageview"), id_sep=","),
            P(host_re("ads.linkedin.com"), r"^/wa/?$", ids=("json:pids", "p:pid"),
              events=("json:conversionId", "const:pageview")),
            P(host_re("licdn.com"), r"^/li\.lms-analytics/insight(?:\.beta)?(?:\.min)?\.js$"),
        ),
        ("LinkedIn", "LinkedIn Ads", "LinkedIn Insight", "LinkedIn Conversions"),
        ids.digits(3, 10, example="1234567"),
        "`pid` of `px.ads.linkedin.com/collect` / `/attribution_trigger`; `pids` in the `/wa/` JSON body",
    ),
    Vendor(
        "twitter", "X (Twitter) Pixel", "advertising",
        (
            P(host_re("t.co", "twitter.com", "x.com"), r"^/(?:1/)?i/adsct/?$", ids="p:txn_id",
              events=('p:events~^\\[\\["([^"]+)"', "p:event~^([A-Za-z_]+)$")),
            P(host_re("ads-twitter.com"), r"^/(?:uwt|oct)\.js$"),
        ),
        ("Twitter", "X", "X Ads", "Twitter Ads", "Twitter Pixel", "X Pixel"),
        ids.pattern("(?:tw-)?[a-z0-9]{4,8}(?:-[a-z0-9]{4,8})?", case="lower", example="o1a2b"),
        "`txn_id` of `t.co/i/adsct` / `analytics.twitter.com/i/adsct`",
    ),
    Vendor(
        "bing", "Microsoft Advertising (Bing UET)", "advertising",
        (
            P(host_re("bat.bing.com", "bat.bing.net", "bat.r.msn.com"), r"^/action/", ids="p:ti",
              events=("p:ea", "p:evt")),
            P(host_re("bat.bing.com"), r"^/p/action/[0-9]+\.js$", ids=r"path:^/p/action/([0-9]+)\.js$"),
            P(host_re("clarity.ms"), r"^/tag/uet/[0-9]+", ids=r"path:^/tag/uet/([0-9]+)"),
            P(host_re("bat.bing.com"), r"^/bat\.js$"),
        ),
        ("Bing", "Microsoft", "Microsoft Advertising", "Bing Ads", "UET", "Microsoft UET", "Bing UET"),
        ids.digits(4, 12, example="12345678"),
        "`ti` of `bat.bing.com/action/0`; path of `bat.bing.com/p/action/<ti>.js`",
    ),
    Vendor(
        "pinterest", "Pinterest Tag", "advertising",
        (
            P(host_re("ct.pinterest.com"), r"^/(?:v3|user)/?$", ids="p:tid", events="p:event"),
            P(host_re("pinimg.com"), r"^/ct/(?:core\.js|lib/)"),
        ),
        ("Pinterest", "Pinterest Ads", "Pinterest Pixel"),
        ids.digits(10, 16, example="2612345678901"),
        "`tid` of `ct.pinterest.com/v3/` / `/user/`",
    ),
    Vendor(
        "snapchat", "Snap Pixel", "advertising",
        (
            P(host_re("tr.snapchat.com", "tr-shadow.snapchat.com"), r"^/(?:p|cm/[a-z]+|[a-z]+/p)/?$",
              ids="p:pid", events="p:ev"),
            P(host_re("tr.snapchat.com"), rf"^/config/[a-z]+/{_UUID_PATH}\.js$",
              ids=rf"path:^/config/[a-z]+/({_UUID_PATH})\.js$"),
            P(host_re("sc-static.net"), r"^/scevent\.min\.js$"),
        ),
        ("Snapchat", "Snap", "Snap Ads", "Snapchat Pixel"),
        ids.UUID,
        "`pid` of `tr.snapchat.com/p` (form body) or `/cm/i`",
    ),
    Vendor(
        "reddit", "Reddit Pixel", "advertising",
        (
            P(host_re("alb.reddit.com"), r"^/(?:rp|snoo)\.gif$", ids="p:id", events="p:event"),
            P(host_re("pixel-config.reddit.com"), r"^/pixels/[a-z0-9_]+/config",
              ids=r"path:^/pixels/([a-z0-9_]+)/", config=True),
            P(host_re("redditstatic.com"), r"^/ads/(?:v2/)?pixel\.js$"),
        ),
        ("Reddit", "Reddit Ads"),
        ids.pattern("(?:t2|a2)_[a-z0-9]{3,16}", case="lower", example="t2_abc123"),
        "`id` of `alb.reddit.com/rp.gif`",
    ),
    Vendor(
        "quora", "Quora Pixel", "advertising",
        (
            P(host_re("q.quora.com"), r"^/_/ad/[0-9a-f]{32}/pixel", ids=r"path:^/_/ad/([0-9a-f]{32})/",
              events="p:tag"),
            P(host_re("a.quora.com"), r"^/qevents\.js$"),
        ),
        ("Quora", "Quora Ads"),
        ids.HEX32,
        "path of `q.quora.com/_/ad/<id>/pixel`",
    ),
    Vendor(
        "yahoo_dot", "Yahoo Dot Tag", "advertising",
        (
            P(host_re("sp.analytics.yahoo.com"), r"^/sp\.pl$", ids="p:.yp", events="p:ea"),
            P(host_re("s.yimg.com"), r"^/wi/ytc\.js$"),
        ),
        ("Yahoo", "Yahoo Dot", "Yahoo DSP", "Yahoo Gemini", "Verizon Media", "Oath"),
        ids.digits(4, 12, example="10012345"),
        "`.yp` of `sp.analytics.yahoo.com/sp.pl`",
    ),
    Vendor(
        "yahoo_japan", "Yahoo! JAPAN Ads", "advertising",
        (
            P(host_re("yahoo.co.jp"), r"^/pagead/conversion/[0-9]+", ids=r"path:^/pagead/conversion/([0-9]+)",
              events="p:label"),
            P(host_re("yahoo.co.jp"), r"^/c$", ids="p:yahoo_ydn_conv_io", events="p:yahoo_ydn_conv_label"),
            P(host_re("yahoo.co.jp"), r"^/rt/?$", ids="p:p", events="p:label"),
            P(host_re("s.yimg.jp"), r"^/images/listing/tool/cv/ytag\.js$"),
        ),
        ("Yahoo JP", "Yahoo Japan", "Yahoo! JAPAN", "LY Corporation", "YDA", "YDN"),
        ids.pattern("[A-Za-z0-9._-]{4,40}", example="1001234567"),
        "path of `b97.yahoo.co.jp/pagead/conversion/<id>/`; `yahoo_ydn_conv_io` of `b90.yahoo.co.jp/c`; "
        "`p` of `/rt/`",
    ),
    Vendor(
        "amazon_ads", "Amazon Ads", "advertising",
        (
            P(host_re("amazon-adsystem.com"), r"^/iui?3$",
              ids=("p:pid", "p:ex-fargs~(?:^|[?&])id=([A-Za-z0-9-]+)"),
              events=("p:event", "p:ex-fargs~event=([^&]+)")),
            P(host_re("c.amazon-adsystem.com"), r"^/aat/amzn\.js$"),
        ),
        ("Amazon", "Amazon Ad Tag", "Amazon Advertising", "Amazon DSP", "AAT"),
        ids.pattern("[A-Za-z0-9-]{8,40}", example="6a1b2c3d-0000-4e5f-8a9b-0c1d2e3f4a5b"),
        "`pid` of `s.amazon-adsystem.com/iu3`",
    ),
    Vendor(
        "spotify", "Spotify Pixel", "advertising",
        (
            P(host_re("pixels.spotify.com"), r"^/v1/ingest",
              ids=("json:pixel_id", "json:pid", "json:key", "p:pid"), events=("json:action", "json:event_name"),
              split="json:batch"),
            P(host_re("pixels.spotify.com"), r"^/v1/config/", ids=r"path:^/v1/config/([A-Za-z0-9-]+)", config=True),
            P(host_re("pixel.byspotify.com"), r"\.js$"),
        ),
        ("Spotify", "Spotify Ad Analytics", "Podsights"),
        ids.pattern("[A-Za-z0-9-]{6,40}", example="a1b2c3d4e5f6"),
        "`pixel_id` / `pid` of the `pixels.spotify.com/v1/ingest` JSON batch",
    ),
    Vendor(
        "line", "LINE Tag", "advertising",
        (
            P(host_re("tr.line.me"), r"^/tag\.gif$", ids="p:t_id", events="p:e"),
            P(host_re("line-scdn.net"), r"^/n/line_tag/"),
        ),
        ("LINE", "LINE Ads", "LINE Tag"),
        ids.UUID,
        "`t_id` of `tr.line.me/tag.gif`",
    ),
    Vendor(
        "seznam_sklik", "Seznam Sklik", "advertising",
        (P(host_re("c.seznam.cz"), r"^/(?:retargeting|conv)$", ids="p:id", events=r"path:^/([a-z]+)$"),),
        ("Sklik", "Seznam"),
        ids.digits(3, 10, example="123456"),
        "`id` of `c.seznam.cz/retargeting` / `/conv`",
    ),
    Vendor(
        "teads", "Teads Pixel", "advertising",
        (
            P(host_re("t.teads.tv"), r"^/track$", ids=("p:buyer_pixel_id", "p:pid"), events="p:action"),
            P(host_re("p.teads.tv"), r"^/teads-fellow\.js$"),
        ),
        ("Teads",),
        ids.digits(3, 10, example="12345"),
        "`buyer_pixel_id` of `t.teads.tv/track`",
    ),
)
