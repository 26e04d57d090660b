"""The typed result of one crawl: ``CrawlReport`` (the CrawlResponse of docs/api.md).

The steps (``steps.py``) and the collectors (``tagcrawl/engine/collectors``) fill its
fields; ``CrawlResponseSchema`` (``core/schemas/crawl.py``) dumps it into the JSON
answer, mapping the snake_case attributes to the documented camelCase names.
The answer is that dump, made once (``CrawlOutcome.response``); the screenshot
URLs in it are built from settings before the dump (``crawl/screenshots.py``),
so no layer above rewrites the answer.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tagcrawl.engine.collectors.screenshots import Screenshots
from tagcrawl.engine.compliance.parts import ConsentSummary, Cookie, PixelConsent
from tagcrawl.engine.parties.attribution import ThirdParty
from tagcrawl.engine.parties.storage import StorageEntry


class FailureKind(enum.Enum):
    """Whose failure a failed crawl is (``crawl/outcome.py``): ``PAGE`` (what
    the page answered, or that it cannot be crawled: block, timeout, refused
    target, DNS failure) or ``SERVICE`` (tagcrawl could not crawl: retry later
    or fix the set-up)."""

    PAGE = "page"
    SERVICE = "service"


@dataclass
class Button:
    """Spec ButtonAttributes: the consent button and the blocking kind.

    Attributes:
        button_text: label of the consent button (clicked or found), or None.
        consent_banner: a consent banner was found.
        error_message: ``"recaptcha"`` / ``"accessDenied"`` when the page is blocked, else None.
    """

    button_text: str | None = None
    consent_banner: bool = False
    error_message: str | None = None


@dataclass
class ErrorMessage:
    """Spec ErrorMessage: ``{"error": true, "message": "..."}``; ``code``: the
    stable code of a service failure (``core.types.SERVICE_ERROR_CODES``), else
    None (left out of the answer)."""

    message: str
    error: bool = True
    code: str | None = None


@dataclass
class RedirectHop:
    """One HTTP redirect of the main document (tagcrawl extension): the URL
    asked for and the 3xx status it answered (None when unknown)."""

    url: str
    status: int | None


@dataclass
class MarketingPixel:
    """Spec MarketingPixel: one (vendor, account id) with its consent phase.

    Attributes:
        vendor: the vendor's display name.
        account_id: as the page sent it, or None.
        page: frame URL of the pixel's first hit.
        warnings: why the account id is unusual (``engine/vendors/ids.py``), ``[]`` when normal.
        consent: phase of the first hit (``compliance.report.PHASES``).
        consent_mode: Google pixels: the distinct Consent Mode states, or None (left out of the answer).
        tcf: TCF parameters the hits carried, or None (left out of the answer).
        recognised: ``"catalog"`` (a catalog entry matched) or ``"heuristic"`` (the generic beacon
            detector, ``engine/beacons``).
        organisation: third-party-web's organisation of the pixel's first hit's host, or None.
    """

    vendor: str | None
    account_id: str | None
    page: str | None
    warnings: list[str] = field(default_factory=list)
    consent: str | None = None
    consent_mode: list[dict] | None = None
    tcf: dict | None = None
    recognised: str = "catalog"
    organisation: str | None = None

    @classmethod
    def of(cls, pixel: dict, consent: PixelConsent | None = None) -> "MarketingPixel":
        """From a ``vendors.pixels_from_hits`` entry ``{vendor, account_id, page, warnings}`` (plus
        ``recognised`` and ``organisation`` when set) and its consent part (``compliance.report.build``)."""
        out = cls(vendor=pixel.get("vendor"), account_id=pixel.get("account_id"), page=pixel.get("page"),
                  warnings=list(pixel.get("warnings") or []), recognised=pixel.get("recognised") or "catalog",
                  organisation=pixel.get("organisation"))
        if consent is not None:
            out.consent, out.consent_mode, out.tcf = consent.phase, consent.consent_mode, consent.tcf
        return out


@dataclass
class Sync:
    """One cookie / ID sync: tracking between ad-tech parties, reported
    apart from the pixels (``vendors.syncs_from_hits``; ``SyncSchema``).

    Attributes:
        vendor: display name of the vendor whose sync endpoint was called.
        account_id: the account it carried, as sent (e.g. the Audience Manager
            partner of ``<partner>.demdex.net``), or None.
        partner: the other party of the sync as sent (``google_nid``), or None.
        page: frame URL of its first hit.
        warnings: why the account id is unusual (``engine/vendors/ids.py``).
        consent: phase of its first hit (``compliance.report.PHASES``).
    """

    vendor: str | None
    account_id: str | None
    partner: str | None
    page: str | None
    warnings: list[str] = field(default_factory=list)
    consent: str | None = None

    @classmethod
    def of(cls, sync: dict, phase: str | None = None) -> "Sync":
        """From a ``vendors.syncs_from_hits`` entry and its phase (``compliance.report.build``)."""
        return cls(vendor=sync.get("vendor"), account_id=sync.get("account_id"), partner=sync.get("partner"),
                   page=sync.get("page"), warnings=list(sync.get("warnings") or []), consent=phase)


@dataclass
class ThirdPartyData:
    """Which dataset attributed ``thirdParties``: ``loaded`` False when it was missing (the list is then
    empty; docs/third-parties.md)."""

    source: str = "third-party-web"
    version: str | None = None
    loaded: bool = False


@dataclass
class CrawlReport:
    """Spec 2.4 CrawlResponse, typed.  Dumped by ``CrawlResponseSchema``.

    Attributes:
        session_id: the request's ``session_id`` or a new uuid4 (str).
        url: the requested URL.
        success: the crawl ran to the end and the page was not blocked.
        button: consent button and blocking kind.
        marketing_pixels: pixels found, in first-seen order.
        cookies_before, cookies_after: cookie counts after the first quiet wait
            and at the end (every domain), or None when not reached.
        time_taken: wall-clock milliseconds of the whole crawl.
        error: why the crawl failed or the page is blocked, else None.
        validation_results: ``[{"rule_id", "success"}]`` (``crawl.rules``).
        screenshots: with ``options.screenShots``, else None.
        message: a note (unverified consent click) or the error's message.
        cookies: every cookie at the end with its consent phase, or None.
        consent: the consent compliance summary, or None.
        syncs: cookie / ID syncs found (never in ``marketing_pixels``), in first-seen order.
        page_status: the main document's HTTP status (the last answer, after the
            redirects), or None when it never answered.
        final_url: the URL the main document was last asked for (after the
            redirects), or None before it started.
        redirects: the main document's HTTP redirect hops, in order (``[]`` without
            redirects), or None before it started.
        third_parties: every third party contacted or holding a cookie (``engine/parties``), or None.
        third_party_data: the dataset behind ``third_parties``, or None when not reached.
        storage: localStorage/sessionStorage writes with their script's organisation
            (``engine/parties/storage.py``), or None when not reached.
        links: the page's ``<a href>`` URLs after load (absolute, at most 1,000 of at most
            2,048 characters; ``engine/collectors/links``), for site audits; None when not read.
        canonical: the page's ``<link rel=canonical>`` URL, for site audits; None without one.
        failure: the ``FailureKind`` of the ``CrawlFailed`` that ended the crawl, else None;
            not part of the JSON answer.  Read it through ``crawl.outcome.failure_kind``
            (which also counts a finished crawl that is not a success, a block, as ``PAGE``).
    """

    session_id: str
    url: str
    success: bool = False
    button: Button = field(default_factory=Button)
    marketing_pixels: list[MarketingPixel] = field(default_factory=list)
    cookies_before: int | None = None
    cookies_after: int | None = None
    time_taken: int | None = None
    error: ErrorMessage | None = None
    validation_results: list[dict] = field(default_factory=list)
    screenshots: Screenshots | None = None
    message: str | None = None
    cookies: list[Cookie] | None = None
    consent: ConsentSummary | None = None
    syncs: list[Sync] = field(default_factory=list)
    page_status: int | None = None
    final_url: str | None = None
    redirects: list[RedirectHop] | None = None
    third_parties: list[ThirdParty] | None = None
    third_party_data: ThirdPartyData | None = None
    storage: list[StorageEntry] | None = None
    links: list[str] | None = None
    canonical: str | None = None
    failure: FailureKind | None = None
