"""Collector ``datalayer``: the items of ``window.dataLayer`` in the page and
its frames, as the page hooks report them (``browser/page_hooks.js`` reads the
array, never wraps it, and sends ``{"dl": <item>}`` over the crawl's binding
for each item it had not sent yet)."""
from __future__ import annotations

import logging

from .base import Collector

log = logging.getLogger(__name__)


class DataLayerCollector(Collector):
    """``get_data`` -> ``list`` of the items (JSON-decoded), in the order the
    hooks saw them.

    Attributes:
        cut: items the hooks did not send (past 1,000 per document, or longer
            than 1 MiB serialised; ``page_hooks.js``).
    """

    name = "datalayer"

    def __init__(self):
        super().__init__()
        self.pushes: list = []
        self.cut = 0
        self.events = {"Runtime.bindingCalled": self._binding}

    def _binding(self, params: dict, _session: str | None) -> None:
        message = self.hub.hooks.message(params)
        if not isinstance(message, dict):
            return
        with self.hub.cond:
            if "dl" in message:
                self.pushes.append(message["dl"])
            elif isinstance(message.get("dlCut"), int):
                self.cut += message["dlCut"]

    def get_data(self, ctx) -> list:
        with self.hub.cond:
            if self.cut:
                log.info("dataLayer: %d items not reported (per-document cap)", self.cut)
            return list(self.pushes)
