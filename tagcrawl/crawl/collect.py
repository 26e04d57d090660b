"""The end of a crawl: ``Collect`` (the last step: every collector's
``post_load`` and ``get_data``, with the browser) and ``build`` (after the
browser is released: pixels and ID syncs from the requests
(``vendors.match_within``, within the crawl deadline and decode budget, then
the generic beacon detector ``engine/beacons``), the consent compliance report,
the third parties and the attributed storage writes (``engine/parties``) into the ``CrawlReport``)."""
from __future__ import annotations

from tagcrawl.engine.chrome.cdp import CDPError
from tagcrawl.engine.collectors import guarded
from tagcrawl.engine.collectors.cookies import CookieJar
from tagcrawl.engine.collectors.links import PageLinks
from tagcrawl.engine.compliance import report as compliance
from tagcrawl.engine.beacons import BeaconRun, detect
from tagcrawl.engine.parties import entities
from tagcrawl.engine.parties.attribution import attribute
from tagcrawl.engine.parties.hosts import Party
from tagcrawl.engine.parties.storage import attribute_writes
from tagcrawl.engine.parties.pixels import labelled_pixels
from tagcrawl.engine.vendors import match_within, syncs_from_hits
from tagcrawl.crawl.context import CrawlContext, Step
from tagcrawl.crawl.report import MarketingPixel, Sync, ThirdPartyData


class Collect(Step):
    """Gather every collector's part (a failing collector loses only its own:
    recorded in ``ctx.failures``): cookies, requests, dataLayer pushes, and
    what the collectors had to leave out (``notes()``, into ``ctx.notes``), and
    the page's links and canonical URL (``links``, ``canonical``: for site audits).
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
        ctx.storage = ctx.part(found.storage) or []
        page_links = ctx.part(found.links)
        if isinstance(page_links, PageLinks):  # for site audits (tagcrawl/audit/discovery)
            ctx.report.links, ctx.report.canonical = page_links.links, page_links.canonical
        for collector in found:
            ctx.notes += guarded(collector, ctx.failures, "notes", collector.notes, default=[]) or []
        ctx.collected = True


def build(ctx: CrawlContext) -> None:
    """Pixels, the consent report and the third parties from what ``Collect`` gathered.

    Matching runs within ``ctx.deadline`` (checked before each request) and
    ``Settings.decode_budget_bytes`` (``vendors.bounded``); the generic beacon
    detector (``Settings.generic_beacons``) after it, within the same deadline
    and what is left of the budget; what they had to leave out goes to
    ``ctx.notes`` ("deadline reached while matching: 37 of 150 requests
    matched").  The rest is linear in the hits (at most ``bounded.MAX_HITS``),
    pixels, requests and cookies.  third-party-web's entities are read once per
    process (``parties.entities.load``).  Does nothing when ``Collect`` did not run.
    """
    if not ctx.collected:
        return
    run = match_within(ctx.requests, ctx.deadline, ctx.settings.decode_budget_bytes)
    ctx.hits = run.hits
    ctx.notes += run.notes()
    syncs = syncs_from_hits(ctx.hits)  # syncs are never pixels (docs/vendors.md)
    index = entities.load(ctx.settings.npm_dir)
    beacons = BeaconRun()
    if ctx.settings.generic_beacons:
        beacons = detect(ctx.requests, ctx.hits, ctx.request["url"], index, ctx.deadline,
                         max(0, ctx.settings.decode_budget_bytes - run.decoded_bytes))
        ctx.notes += beacons.notes()
    pixels = labelled_pixels(ctx.hits, "catalog", index) + labelled_pixels(beacons.hits, "heuristic", index)
    every_hit = ctx.hits + beacons.hits
    consent = ctx.consent
    facts = compliance.ConsentFacts(
        banner=consent.banner, action=consent.action, verified=consent.verified,
        choice_ms=consent.choice_ms, cookies_at_choice=consent.cookies_at_choice,
        cmp=consent.cmp, button_text=consent.button_text, frames=ctx.frames,
        choice_cookies=consent.stored_cookies(),
        stored_choice=[s.as_dict() for s in consent.stored_choice])
    part = compliance.build(pixels, every_hit, ctx.cookies, ctx.request["url"], facts, syncs)
    ctx.report.marketing_pixels = [MarketingPixel.of(p, c) for p, c in zip(pixels, part.pixels)]
    ctx.report.syncs = [Sync.of(s, phase) for s, phase in zip(syncs, part.syncs)]
    ctx.report.cookies, ctx.report.consent = part.cookies, part.consent
    parties = attribute(ctx.requests, ctx.cookies, every_hit, ctx.request["url"], index, facts.phase_at,
                        ctx.storage)
    ctx.report.third_parties = parties.parties
    ctx.report.storage = attribute_writes(ctx.storage, Party(ctx.request["url"], index), facts.phase_at)
    ctx.report.third_party_data = ThirdPartyData(version=index.version, loaded=index.loaded)
    ctx.notes += parties.notes()
