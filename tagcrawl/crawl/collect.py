"""The end of a crawl: ``Collect`` (the last step: every collector's
``post_load`` and ``get_data``, with the browser) and ``build`` (after the
browser is released: pixels and ID syncs from the requests
(``vendors.match_within``, within the crawl deadline and decode budget) and
the consent compliance report into the ``CrawlReport``)."""
from __future__ import annotations

from tagcrawl.engine.chrome.cdp import CDPError
from tagcrawl.engine.collectors import guarded
from tagcrawl.engine.collectors.cookies import CookieJar
from tagcrawl.engine.compliance import report as compliance
from tagcrawl.engine.vendors import match_within, pixels_from_hits, syncs_from_hits
from tagcrawl.crawl.context import CrawlContext, Step
from tagcrawl.crawl.report import MarketingPixel, Sync


class Collect(Step):
    """Gather every collector's part (a failing collector loses only its own:
    recorded in ``ctx.failures``): cookies, requests, dataLayer pushes, and
    what the collectors had to leave out (``notes()``, into ``ctx.notes``).
    Raises ``CDPError`` when the DevTools connection closed meanwhile (the
    browser is gone: a browser error).  Matching is ``build``, after the browser."""

    name = phase = "collect"

    def run(self, ctx: CrawlContext) -> None:
        found = ctx.collectors
        for collector in found:
            guarded(collector, ctx.failures, "post_load", collector.post_load, ctx)
        jar, requests, datalayer = ctx.part(found.cookies), ctx.part(found.requests), ctx.part(found.datalayer)
        cdp = ctx.session.capture.cdp
        if ctx.failures and (cdp is None or cdp.closed):
            raise CDPError("DevTools connection closed")
        jar = jar if isinstance(jar, CookieJar) else CookieJar()
        ctx.cookies, ctx.report.cookies_after = jar.cookies, jar.after
        ctx.requests = requests or []
        ctx.datalayer = datalayer or []
        for collector in found:
            ctx.notes += guarded(collector, ctx.failures, "notes", collector.notes, default=[]) or []
        ctx.collected = True


def build(ctx: CrawlContext) -> None:
    """Pixels and the consent report from what ``Collect`` gathered.

    Matching runs within ``ctx.deadline`` (checked before each request) and
    ``Settings.decode_budget_bytes`` (``vendors.bounded``); what it had to
    leave out goes to ``ctx.notes`` ("deadline reached while matching: 37 of
    150 requests matched").  The rest is linear in the hits (at most
    ``bounded.MAX_HITS``), pixels and cookies.  Does nothing when ``Collect``
    did not run.
    """
    if not ctx.collected:
        return
    run = match_within(ctx.requests, ctx.deadline, ctx.settings.decode_budget_bytes)
    ctx.hits = run.hits
    ctx.notes += run.notes()
    pixels, syncs = pixels_from_hits(ctx.hits), syncs_from_hits(ctx.hits)  # syncs are never pixels (docs/vendors.md)
    consent = ctx.consent
    part = compliance.build(pixels, ctx.hits, ctx.cookies, ctx.request["url"], compliance.ConsentFacts(
        banner=consent.banner, action=consent.action, verified=consent.verified,
        choice_ms=consent.choice_ms, cookies_at_choice=consent.cookies_at_choice,
        cmp=consent.cmp, button_text=consent.button_text, frames=ctx.frames,
        choice_cookies=consent.stored_cookies(),
        stored_choice=[s.as_dict() for s in consent.stored_choice]), syncs)
    ctx.report.marketing_pixels = [MarketingPixel.of(p, c) for p, c in zip(pixels, part.pixels)]
    ctx.report.syncs = [Sync.of(s, phase) for s, phase in zip(syncs, part.syncs)]
    ctx.report.cookies, ctx.report.consent = part.cookies, part.consent
