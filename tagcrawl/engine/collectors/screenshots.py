"""Collector ``screenshots``: with ``options.screenShots``, a PNG of the
viewport before and after the consent step, stored by ``save(png) -> URL``
(``crawl/screenshots.py``: a random name under ``SCREENSHOT_DIR``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tagcrawl.engine.collectors.base import Collector


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

    def init(self, ctx) -> None:
        self.enabled = bool(ctx.options.get("screenShots"))

    def snapshot(self, ctx, moment: str) -> Screenshots | None:
        if not self.enabled:
            return None
        setattr(self.shots, moment, self.save(ctx.session.driver.get_screenshot_as_png()))
        return self.shots if moment == "after" else None

    def get_data(self, ctx) -> Screenshots | None:
        return self.shots if self.enabled else None
