"""Well-known cookie names per vendor (data), and the lookup of a cookie's vendor.

Each entry is ``(pattern, vendor key)``: ``pattern`` is a glob over the whole
cookie name (``*`` any run of characters, ``?`` one character, case-sensitive),
the vendor key is a ``CATALOG`` key.  The first pattern that matches wins, so
specific names come before wildcards.  Sources are the vendors' own cookie
documentation (Google "Cookies used by Google Analytics" and "How Google uses
cookies", Meta "Cookies policy" (``_fbp``/``_fbc``), TikTok "Cookies" (``_ttp``),
Microsoft UET, Pinterest, LinkedIn, Snap, Segment, Mixpanel, PostHog, Amplitude,
Snowplow, Hotjar, Clarity, HubSpot, Matomo and the others named below).

Adding a vendor's cookie is one line here.
"""
from __future__ import annotations

import re
from functools import lru_cache

#: (cookie-name glob, vendor key), in matching order.
COOKIE_VENDORS: tuple[tuple[str, str], ...] = (
    # Google
    ("_ga", "google_analytics"), ("_ga_*", "google_analytics"), ("_gid", "universal_analytics"),
    ("_gat", "universal_analytics"), ("_gat_*", "universal_analytics"), ("__utm?", "universal_analytics"),
    ("_gcl_au", "google_ads"), ("_gcl_aw", "google_ads"), ("_gcl_dc", "floodlight"), ("_gcl_gb", "google_ads"),
    ("_gcl_gs", "google_ads"), ("_gcl_ag", "google_ads"), ("IDE", "floodlight"), ("test_cookie", "floodlight"),
    ("FPID", "google_tag"), ("FPLC", "google_tag"), ("FPAU", "google_ads"), ("FPGCLAW", "google_ads"),
    # Adobe
    ("s_cc", "adobe_analytics"), ("s_sq", "adobe_analytics"), ("s_vi", "adobe_analytics"),
    ("s_fid", "adobe_analytics"), ("AMCV_*", "adobe_experience_cloud_id"), ("AMCVS_*", "adobe_experience_cloud_id"),
    ("demdex", "adobe_audience_manager"), ("dextp", "adobe_audience_manager"), ("mbox", "adobe_target"),
    ("kndctr_*", "adobe_web_sdk"),
    # Ad platforms
    ("_fbp", "facebook"), ("_fbc", "facebook"), ("fr", "facebook"),
    ("_ttp", "tiktok"), ("ttcsid", "tiktok"), ("ttcsid_*", "tiktok"), ("_tt_enable_cookie", "tiktok"),
    ("_uetsid", "bing"), ("_uetvid", "bing"), ("_uetmsclkid", "bing"), ("MUID", "bing"),
    ("_pin_unauth", "pinterest"), ("_pinterest_ct_ua", "pinterest"), ("_epik", "pinterest"),
    ("_derived_epik", "pinterest"),
    ("li_fat_id", "linkedin"), ("li_sugr", "linkedin"), ("bcookie", "linkedin"), ("lidc", "linkedin"),
    ("UserMatchHistory", "linkedin"), ("AnalyticsSyncHistory", "linkedin"), ("_li_dcdm_c", "linkedin"),
    ("_scid", "snapchat"), ("_scid_r", "snapchat"), ("_sctr", "snapchat"), ("sc_at", "snapchat"),
    ("_rdt_uuid", "reddit"), ("_rdt_cid", "reddit"), ("muc_ads", "twitter"), ("personalization_id", "twitter"),
    ("guest_id*", "twitter"), ("cto_bundle", "criteo"), ("cto_bidid", "criteo"), ("__adroll*", "adroll"),
    ("__ar_v4", "adroll"), ("t_gid", "taboola"), ("taboola_*", "taboola"), ("obuid", "outbrain"),
    ("TDID", "the_trade_desk"), ("TDCPM", "the_trade_desk"), ("uuid2", "xandr"), ("anj", "xandr"),
    ("_qca", "quantcast"), ("mc", "quantcast"), ("_yjsu_yjad", "yahoo_japan"), ("A3", "yahoo_dot"),
    ("_tq_id.*", "teads"),
    # Analytics and product analytics
    ("ajs_anonymous_id", "segment"), ("ajs_user_id", "segment"), ("ajs_group_id", "segment"),
    ("mp_*_mixpanel", "mixpanel"), ("ph_*_posthog", "posthog"), ("AMP_*", "amplitude"), ("amp_*", "amplitude"),
    ("_sp_id.*", "snowplow"), ("_sp_ses.*", "snowplow"), ("sp", "snowplow"),
    ("_hjSessionUser_*", "hotjar"), ("_hjSession_*", "hotjar"), ("_hj*", "hotjar"),
    ("_clck", "microsoft_clarity"), ("_clsk", "microsoft_clarity"), ("CLID", "microsoft_clarity"),
    ("_pk_id.*", "matomo"), ("_pk_ses.*", "matomo"), ("_pk_ref.*", "matomo"), ("MATOMO_SESSID", "matomo"),
    ("_pk_cvar.*", "matomo"), ("_ym_uid", "yandex_metrica"), ("_ym_d", "yandex_metrica"),
    ("_ym_isad", "yandex_metrica"), ("_ym_visorc", "yandex_metrica"), ("_ym_*", "yandex_metrica"),
    ("_fs_*", "fullstory"), ("fs_uid", "fullstory"), ("_cs_id", "contentsquare"), ("_cs_s", "contentsquare"),
    ("_cs_c", "contentsquare"), ("_uetvid_*", "bing"), ("_hp2_id.*", "heap"), ("_hp2_ses_props.*", "heap"),
    ("_parsely_*", "parsely"), ("_chartbeat2", "chartbeat"), ("_cb", "chartbeat"), ("_cb_svref", "chartbeat"),
    ("atuserid", "at_internet"), ("atidvisitor", "at_internet"), ("WT_FPC", "webtrends"),
    ("_vwo_*", "vwo"), ("_vis_opt_*", "vwo"), ("optimizelyEndUserId", "optimizely"), ("ABTasty*", "ab_tasty"),
    ("_dy*", "dynamic_yield"), ("kameleoonVisitorCode", "kameleoon"), ("_mkto_trk", "marketo"),
    ("visitor_id*", "pardot"), ("__hstc", "hubspot"), ("hubspotutk", "hubspot"), ("__hssc", "hubspot"),
    ("__hssrc", "hubspot"), ("__kla_id", "klaviyo"), ("intercom-id-*", "intercom"),
    ("intercom-session-*", "intercom"), ("utag_main", "tealium_iq"), ("mf_*", "mouseflow"),
    ("_lo_uid", "lucky_orange"), ("_ce.s", "crazy_egg"), ("_ce.clock_data", "crazy_egg"),
)


def _regex(pattern: str) -> str:
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


_COMPILED = [(re.compile(_regex(p) + r"\Z", re.DOTALL), key) for p, key in COOKIE_VENDORS]


@lru_cache(maxsize=4096)
def cookie_vendor_key(name: str) -> str | None:
    """Catalog key of the vendor that sets a cookie called ``name``.

    Args:
        name: the cookie name as the browser stores it (``"_ga_ABC123"``).
    Returns:
        the vendor key (``"google_analytics"``) or None when no entry of
        ``COOKIE_VENDORS`` matches.  Linear in the number of entries.
    """
    if not isinstance(name, str):
        return None
    for regex, key in _COMPILED:
        if regex.match(name):
            return key
    return None
