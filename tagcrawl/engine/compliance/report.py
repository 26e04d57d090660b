"""The compliance report of a crawl: the consent phase of every pixel and
cookie, the cookie list, and the summary ``consent`` object.

Phases (``PHASES``):

- ``no_banner``: the crawl found no consent banner;
- ``before_consent``: first seen before the consent click (or there was a
  banner and no click took effect: no choice was ever made);
- ``after_accept`` / ``after_reject``: first seen after the click that was
  verified, or after which the banner was gone (``consent.verified`` tells
  which).

A pixel's moment is its first hit's timestamp (epoch ms, CDP ``wallTime``);
the click's is taken just before the click.  A cookie's phase is decided by
the cookie snapshots: present just before that click -> before.
"""
from __future__ import annotations

import json

from dataclasses import dataclass, field
from datetime import datetime, timezone
from urllib.parse import urlsplit

from tagcrawl.engine.vendors import find_vendor
from tagcrawl.engine.vendors.syncs import is_sync
from tagcrawl.engine.vendors.cookies import cookie_vendor_key
from tagcrawl.engine.compliance import signals, tcf
from tagcrawl.engine.compliance.parts import Compliance, ConsentSummary, Cookie, PixelConsent
from tagcrawl.engine.compliance.party import party as cookie_party

PHASES = ("before_consent", "after_accept", "after_reject", "no_banner")


@dataclass
class ConsentFacts:
    """What the consent step established (from ``ConsentResult``).

    Attributes:
        banner: a banner was found.
        action: "accept", "reject" or "none".
        verified: the click was verified.
        choice_ms: epoch ms of the click that took effect (verified, or the
            banner gone), else None.
        cookies_at_choice: (name, domain) present just before that click.
        cmp, button_text: as reported.
        frames: ``signals.collect_signals`` output.
        choice_cookies: names of the cookies in which the CMP stored the
            choice (the click's evidence): never a violation.
        stored_choice: what the click wrote (``consent.stored``), as
            ``[{type, name, domain}]``: the report's ``consent.stored_choice``.
    """

    banner: bool = False
    action: str = "none"
    verified: bool = False
    choice_ms: float | None = None
    cookies_at_choice: set = field(default_factory=set)
    cmp: str | None = None
    button_text: str | None = None
    frames: list = field(default_factory=list)
    choice_cookies: set = field(default_factory=set)
    stored_choice: list = field(default_factory=list)

    def phase_at(self, ms: float) -> str:
        """Phase of something first seen at epoch ``ms``."""
        if not self.banner:
            return "no_banner"
        if self.choice_ms is None or ms < self.choice_ms:
            return "before_consent"
        return f"after_{self.action}"

    def cookie_phase(self, key: tuple) -> str:
        if not self.banner:
            return "no_banner"
        if self.choice_ms is None or key in self.cookies_at_choice:
            return "before_consent"
        return f"after_{self.action}"


def _first_hits(pixels: list[dict], hits: list) -> list:
    """The hits of each pixel, in capture order (same vendor display name and
    account id; a pixel without id: all the vendor's hits).  Linear in hits
    and pixels (one grouping pass)."""
    by_vendor: dict = {}
    by_id: dict = {}
    for h in hits:
        by_vendor.setdefault(h.vendor_name, []).append(h)
        by_id.setdefault((h.vendor_name, h.account_id), []).append(h)
    return [by_vendor.get(p.get("vendor"), []) if p.get("account_id") is None
            else by_id.get((p.get("vendor"), p.get("account_id")), []) for p in pixels]


def _pixel_signals(pixel: dict, own: list, facts: ConsentFacts, part: PixelConsent) -> list[dict]:
    """Consent Mode and TCF parameters of a pixel's hits (into ``part``); returns
    the Google hits that claim granted storage before any consent."""
    flagged, states, tcf_seen = [], [], None
    for hit in own:
        params = hit.params or {}
        phase = facts.phase_at(hit.timestamp)
        if hit.vendor_key in signals.GOOGLE_VENDORS:
            mode = signals.consent_mode(params)
            if mode:
                entry = dict(mode, phase=phase)
                if entry not in states:
                    states.append(entry)
                if phase == "before_consent" and facts.banner and signals.claims_storage(mode):
                    flagged.append({"vendor": pixel["vendor"], "account_id": pixel.get("account_id"),
                                    "gcs": mode["gcs"], "gcd": mode["gcd"]})
        tcf_seen = tcf_seen or signals.tcf_params(params)
    if states:
        part.consent_mode = states[:10]
    if tcf_seen:
        part.tcf = tcf_seen
    return flagged


def pixel_consent(pixels: list[dict], hits: list, facts: ConsentFacts) -> tuple[list[PixelConsent], list[dict]]:
    """The consent part of each MarketingPixel: the phase of its first hit,
    and ``consent_mode`` / ``tcf`` where its hits carry them.

    Args:
        pixels: ``vendors.pixels_from_hits`` entries (``{vendor, account_id, ...}``; not changed).
        hits: every hit of the crawl.
    Returns:
        (one ``PixelConsent`` per pixel, the Google hits claiming granted
        storage before any consent: ``[{vendor, account_id, gcs, gcd}]``, one per pixel).
    """
    parts, flagged = [], []
    for pixel, own in zip(pixels, _first_hits(pixels, hits)):
        part = PixelConsent(phase=facts.phase_at(own[0].timestamp) if own else facts.phase_at(0))
        flagged += _pixel_signals(pixel, own, facts, part)[:1]
        parts.append(part)
    return parts, flagged


def _expiry(cookie: dict) -> str | None:
    expires = cookie.get("expires")
    if cookie.get("session") or expires in (None, -1) or expires <= 0:
        return None
    try:
        return datetime.fromtimestamp(float(expires), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


def cookie_entries(cookies: list[dict], page_url: str, facts: ConsentFacts) -> list[Cookie]:
    """The ``cookies`` list of a CrawlResponse.

    Args:
        cookies: CDP ``Storage.getCookies`` cookies at the end of the crawl.
        page_url: the crawled URL (first party = same registrable domain).
        facts: the consent step's facts.
    Returns:
        ``Cookie`` entries sorted by phase order, then name and domain.
    """
    page_host = urlsplit(page_url).hostname or ""
    out = []
    for cookie in cookies:
        name, domain = cookie.get("name"), cookie.get("domain") or ""
        key = cookie_vendor_key(name)
        vendor = find_vendor(key) if key else None
        party = cookie_party(domain, page_host)
        session = bool(cookie.get("session")) or _expiry(cookie) is None
        out.append(Cookie(name=name, domain=domain, party=party, session=session, expires=_expiry(cookie),
                          phase=facts.cookie_phase((name, cookie.get("domain"))),
                          vendor=vendor.name if vendor else None, stores_consent=name in facts.choice_cookies))
    out.sort(key=lambda c: (PHASES.index(c.phase), c.name or "", c.domain))
    return out


def _items(pixels: list[dict], parts: list[PixelConsent], cookies: list[Cookie], phase: str,
           syncs: tuple = ()) -> list[dict]:
    items = [{"type": "pixel", "vendor": p.get("vendor"), "account_id": p.get("account_id"),
              **({"recognised": "heuristic"} if p.get("recognised") == "heuristic" else {})}
             for p, part in zip(pixels, parts) if part.phase == phase]
    items += [{"type": "sync", "vendor": s.get("vendor"), "account_id": s.get("account_id")}
              for s, sync_phase in syncs if sync_phase == phase]
    items += [{"type": "cookie", "vendor": c.vendor, "name": c.name, "domain": c.domain}
              for c in cookies if c.phase == phase and not c.stores_consent]
    return items


def _page_int(value) -> int | None:
    """A page-supplied number (``__tcfapi``'s ``cmpId``) as an int, else None: the
    page's API may answer anything, and the report's field is an integer."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 9:
        return int(value.strip())
    return None


def _page_text(value) -> str | None:
    """A page-supplied string field as text (None stays None; other JSON values as JSON text)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value)[:200]


def _tcf_entries(frames: list[dict], cookies_raw: list[dict]) -> list[dict]:
    out = []
    for frame in frames:
        data = frame.get("tcf") or {}
        if not isinstance(data, dict):
            continue
        decoded = tcf.try_decode(data.get("tcString") if isinstance(data.get("tcString"), str) else None)
        if data:
            applies = data.get("gdprApplies")
            out.append({"source": "__tcfapi", "frame": _page_text(frame.get("url")),
                        "cmp_id": _page_int(data.get("cmpId")), "event_status": _page_text(data.get("eventStatus")),
                        "gdpr_applies": applies if isinstance(applies, bool) else None,
                        "tc_string": _page_text(data.get("tcString")),
                        "decoded": decoded.summary() if decoded else None})
    for cookie in cookies_raw:
        if cookie.get("name") == "euconsent-v2":
            decoded = tcf.try_decode(cookie.get("value"))
            out.append({"source": "cookie euconsent-v2", "frame": None, "cmp_id": decoded.cmp_id if decoded else None,
                        "event_status": None, "gdpr_applies": None, "tc_string": cookie.get("value"),
                        "decoded": decoded.summary() if decoded else None})
    return out


def consent_summary(facts: ConsentFacts, pixels: list[dict], parts: list[PixelConsent], cookies: list[Cookie],
                    cookies_raw: list[dict], granted_before: list[dict], hits: list = (),
                    syncs: tuple = ()) -> ConsentSummary:
    """The ``consent`` object of a CrawlResponse.  ``violations``: pixels, ID
    syncs (``syncs``: ``(sync, phase)`` pairs) and cookies first seen after a
    refusal; ``before_consent``: those first seen before any choice; ``gpp``:
    ``signals.gpp_signal`` (``__gpp``, else a cookie, else a pixel's ``gpp``
    parameter among ``hits``)."""
    gpp = signals.gpp_signal(facts.frames, cookies_raw, hits)
    usp = next((signals.decode_usp(f["usp"]) for f in facts.frames if f.get("usp")), None)
    usp = usp or signals.decode_usp((gpp or {}).get("us_privacy"))  # GPP's uspv1 section
    return ConsentSummary(
        cmp=facts.cmp, action=facts.action, button_text=facts.button_text, verified=facts.verified,
        banner=facts.banner, violations=_items(pixels, parts, cookies, "after_reject", syncs),
        before_consent=_items(pixels, parts, cookies, "before_consent", syncs), granted_before_consent=granted_before,
        tcf=_tcf_entries(facts.frames, cookies_raw),  # at most MAX_FRAMES + the cookies; the answer keeps 10
        us_privacy=None if usp is None else {"string": usp.raw, "notice": usp.notice,
                                             "opt_out_sale": usp.opt_out_sale, "lspa": usp.lspa},
        gpp=gpp, stored_choice=list(facts.stored_choice))


def build(pixels: list[dict], hits: list, cookies_raw: list[dict], page_url: str, facts: ConsentFacts,
          syncs: list[dict] = ()) -> Compliance:
    """The compliance parts of a crawl.

    Args:
        pixels: ``vendors.pixels_from_hits(hits)`` (not changed).
        hits: every hit, with ``timestamp`` (epoch ms); sync hits are not a
            pixel's (``vendors.syncs.is_sync``).
        cookies_raw: CDP cookies at the end of the crawl.
        page_url: the crawled URL.
        facts: what the consent step established.
        syncs: ``vendors.syncs_from_hits(hits)``: ID syncs are tracking, so
            they are phased and listed in ``violations`` / ``before_consent``
            (``type: "sync"``) like pixels; linear in them.
    Returns:
        ``Compliance``: a ``PixelConsent`` per pixel, the ``Cookie`` list, the
        ``ConsentSummary``, the phase of each sync.
    """
    parts, granted_before = pixel_consent(pixels, [h for h in hits if not is_sync(h)], facts)
    cookies = cookie_entries(cookies_raw, page_url, facts)
    phased = tuple((s, facts.phase_at(s.get("timestamp") or 0)) for s in syncs)
    return Compliance(pixels=parts, cookies=cookies, syncs=[phase for _, phase in phased],
                      consent=consent_summary(facts, pixels, parts, cookies, cookies_raw, granted_before, hits, phased))


def rule_items(report) -> list[dict]:
    """What ``Consent`` validation rules match against: ``[{"phase", "names"}]``,
    one per pixel (names: vendor display name, catalog key, account id) and per
    cookie (names: cookie name, vendor display name and key when known).

    Args:
        report: a ``crawl.report.CrawlReport`` (read: ``marketing_pixels[*]``
            ``.vendor/.account_id/.consent``, ``cookies[*].name/.vendor/.phase``).
    """
    items = []
    for pixel in report.marketing_pixels or []:
        vendor = find_vendor(pixel.vendor or "")
        names = [pixel.vendor, vendor.key if vendor else None, pixel.account_id]
        items.append({"phase": pixel.consent, "names": [n for n in names if n]})
    for cookie in report.cookies or []:
        vendor = find_vendor(cookie.vendor or "") if cookie.vendor else None
        names = [cookie.name, cookie.vendor, vendor.key if vendor else None]
        items.append({"phase": cookie.phase, "names": [n for n in names if n]})
    return items
