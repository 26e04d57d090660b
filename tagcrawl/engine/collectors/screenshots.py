"""Collector ``screenshots``: with ``options.screenShots``, a PNG of the
viewport before and after the consent step, stored by ``save(png) -> URL``
(``crawl/screenshots.py``: a random name under ``SCREENSHOT_DIR``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tagcrawl.engine.collectors.base import Collector, Context


@dataclass
class Screenshots:
    """URLs of the two screenshots (``crawl/screenshots.py``: absolute with ``SCREENSHOT_URL`` or
    ``PUBLIC_URL``, else ``/screenshots/<name>``)."""

    before: str | None = None
    after: str | None = None


class ScreenshotCollector(Collector):
    """Args: ``save``: ``fn(png: bytes) -> URL``.  Off unless the crawl's
    ``options.screenShots`` is true (``init``).  ``snapshot(ctx, "after")``
    and ``get_data`` -> ``Screenshots`` (None when off)."""

    name = "screenshots"

    def __init__(self, save: Callable[[bytes], str]):
        super().__init__()
        self.save = save
        self.enabled = False
        self.shots = Screenshots()

    def init(self, ctx: Context) -> None:
        self.enabled = bool(ctx.options.get("screenShots"))

    def snapshot(self, ctx: Context, moment: str) -> Screenshots | None:
        if not self.enabled:
            return None
        url = self.save(ctx.session.driver.get_screenshot_as_png())
        if moment == "after":
            self.shots.after = url
            return self.shots
        self.shots.before = url
        return None

    def get_data(self, ctx: Context) -> Screenshots | None:
        return self.shots if self.enabled else None
