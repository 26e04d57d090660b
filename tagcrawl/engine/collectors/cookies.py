"""Collector ``cookies``: the context's cookies (every domain, CDP
``Storage.getCookies``), counted once the page has loaded (``before`` the
consent step) and read in full at the end."""
from __future__ import annotations

from dataclasses import dataclass, field

from tagcrawl.engine.collectors.base import Collector, Context


@dataclass
class CookieJar:
    """``before``: cookie count at the "before" snapshot (None if not reached);
    ``after``: count at the end; ``cookies``: CDP cookie dicts at the end."""

    before: int | None = None
    after: int | None = None
    cookies: list[dict] = field(default_factory=list)


class CookieCollector(Collector):
    """``snapshot(ctx, "before")`` returns the count; ``post_load`` reads the
    final list; ``get_data`` -> ``CookieJar``."""

    name = "cookies"

    def __init__(self):
        super().__init__()
        self.jar = CookieJar()

    def snapshot(self, ctx: Context, moment: str) -> int | None:
        if moment != "before":
            return None
        self.jar.before = len(ctx.session.cookies())
        return self.jar.before

    def post_load(self, ctx: Context) -> None:
        self.jar.cookies = ctx.session.cookies()
        self.jar.after = len(self.jar.cookies)

    def get_data(self, ctx: Context) -> CookieJar:
        return self.jar
