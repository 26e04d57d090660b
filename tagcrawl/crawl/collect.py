"""The last step: every collector's ``post_load`` and ``get_data``, then
pixels (``vendors.match_requests``) and the consent compliance report into
the ``CrawlReport``."""
from __future__ import annotations

from ..browser.capture import guarded
from ..browser.cdp import CDPError
from ..collectors.cookies import CookieJar
from ..compliance import report as compliance
from ..vendors import match_requests, pixels_from_hits
from .context import CrawlContext, Step
from .report import MarketingPixel


class Collect(Step):
    """Gather every collector's part (a failing collector loses only its own:
    recorded in ``ctx.failures``) and build the report's pixels, cookie
    counts, cookie list and consent summary.  Raises ``CDPError`` when the
    DevTools connection closed meanwhile (the browser is gone: a browser error)."""

    name = phase = "collect"

    def run(self, ctx: CrawlContext) -> None:
        for collector in ctx.collectors:
            guarded(collector, ctx.failures, "post_load", collector.post_load, ctx)
        data = {c.name: guarded(c, ctx.failures, "get_data", c.get_data, ctx) for c in ctx.collectors}
        cdp = ctx.session.capture.cdp
        if ctx.failures and (cdp is None or cdp.closed):
            raise CDPError("DevTools connection closed")
        jar = data.get("cookies") or CookieJar()
        ctx.cookies, ctx.report.cookies_after = jar.cookies, jar.after
        ctx.requests = data.get("requests") or []
        ctx.datalayer = data.get("datalayer") or []
        ctx.hits = match_requests(ctx.requests)
        pixels = pixels_from_hits(ctx.hits)
        consent = ctx.consent
        part = compliance.build(pixels, ctx.hits, ctx.cookies, ctx.request["url"], compliance.ConsentFacts(
            banner=consent.banner, action=consent.action, verified=consent.verified,
            choice_ms=consent.choice_ms, cookies_at_choice=consent.cookies_at_choice,
            cmp=consent.cmp, button_text=consent.button_text, frames=ctx.frames,
            choice_cookies={e[len("cookie "):] for e in consent.evidence if e.startswith("cookie ")}))
        ctx.report.marketing_pixels = [MarketingPixel.of(p, c) for p, c in zip(pixels, part.pixels)]
        ctx.report.cookies, ctx.report.consent = part.cookies, part.consent
