"""The typed parts of a crawl's compliance report (``report.build`` returns
them; ``crawl/report.py`` puts them into the ``CrawlReport``)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PixelConsent:
    """The consent part of one MarketingPixel.

    Attributes:
        phase: phase of the pixel's first hit (``PHASES``).
        consent_mode: Google pixels: each distinct Consent Mode state its hits
            declared, ``[{gcs, gcd, ad_storage, analytics_storage, ad_user_data,
            ad_personalization, phase}]`` (at most 10), or None.
        tcf: ``{gdpr, gdpr_consent, tcf}`` carried by its hits, or None.
    """

    phase: str
    consent_mode: list[dict] | None = None
    tcf: dict | None = None


@dataclass
class Cookie:
    """One cookie at the end of the crawl (spec Cookie; ``CookieSchema``).

    Attributes:
        name, domain: as Chrome reports them.
        party: "first" or "third" (registrable domain against the crawled URL).
        session: a session cookie (or no usable expiry).
        expires: ISO 8601 UTC (``2100-01-01T00:00:00Z``) or None.
        phase: its consent phase (``PHASES``).
        vendor: display name of the vendor whose well-known cookie it is, or None.
        stores_consent: the CMP stored the visitor's choice in it.
    """

    name: str
    domain: str
    party: str
    session: bool
    expires: str | None
    phase: str
    vendor: str | None
    stores_consent: bool


@dataclass
class ConsentSummary:
    """The ``consent`` object of a CrawlResponse (``ConsentReportSchema``).

    ``violations`` / ``before_consent``: ``[{type: "pixel", vendor, account_id}
    | {type: "sync", vendor, account_id} | {type: "cookie", vendor, name, domain}]``; ``granted_before_consent``:
    ``[{vendor, account_id, gcs, gcd}]``; ``tcf``: ``[{source, frame, cmp_id,
    event_status, gdpr_applies, tc_string, decoded}]`` (at most 10);
    ``us_privacy``: ``{string, notice, opt_out_sale, lspa}`` or None; ``gpp``:
    ``signals.gpp_summary`` or None; ``stored_choice``: ``[{type, name,
    domain}]``, the cookies and storage keys the consent click wrote (at most 20).
    """

    cmp: str | None
    action: str
    button_text: str | None
    verified: bool
    banner: bool
    violations: list[dict]
    before_consent: list[dict]
    granted_before_consent: list[dict]
    tcf: list[dict]
    us_privacy: dict | None
    gpp: dict | None
    stored_choice: list[dict] = field(default_factory=list)


@dataclass
class Compliance:
    """What ``build`` returns: one ``PixelConsent`` per pixel (same order as
    the pixels given), the cookie list, the summary, and the phase of each
    sync given (same order; ``PHASES``)."""

    pixels: list[PixelConsent]
    cookies: list[Cookie]
    consent: ConsentSummary
    syncs: list[str] = field(default_factory=list)
