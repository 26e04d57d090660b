"""Collector ``datalayer``: the items of ``window.dataLayer`` in the page and
its frames, as the page hooks report them (``engine/capture/page_hooks.js`` reads the
array, never wraps it, and sends ``{"dl": <item>}`` over the crawl's binding
for each item it had not sent yet).

Bounds (docs/security.md "Work after the deadline, and the report's size"):
the hooks send at most 1,000 items per document, each up to 1 MiB serialised
once its strings are cut at 4,096 characters with the truncation mark
(``page_hooks.js``; a binding message past ``hooks.MAX_MESSAGE_CHARS`` is not
parsed); at most :data:`MAX_PUSHES` items are kept per crawl; a kept value is
``truncation.cap_json``-ed: strings cut at ``truncation.DATALAYER_STRING_MAX``
characters with the truncation mark, at most ``JSON_NODES_MAX`` nodes,
``JSON_DEPTH_MAX`` levels.  Validation rules (``DataLayer``) read the capped
values.  ``notes()`` says what was cut or left out.
"""
from __future__ import annotations

from tagcrawl.core.truncation import cap_json
from tagcrawl.engine.collectors.base import Collector, Context

#: Items kept per crawl.
MAX_PUSHES = 1000


class DataLayerCollector(Collector):
    """``get_data`` -> ``list`` of the items (JSON-decoded, capped), in the order
    the hooks saw them.

    Attributes:
        cut: kept items whose value was capped.
        dropped: items not kept: past :data:`MAX_PUSHES`, or not sent by the hooks
            (past 1,000 per document, or longer than 1 MiB serialised).
    """

    name = "datalayer"

    def __init__(self):
        super().__init__()
        self.pushes: list = []
        self.dropped = 0
        self.cut = 0
        self.events = {"Runtime.bindingCalled": self._binding}

    def _binding(self, params: dict, _session: str | None) -> None:
        message = self.hub.message(params)
        if not isinstance(message, dict):
            return
        if isinstance(message.get("dlCut"), int):
            with self.hub.cond:
                self.dropped += max(0, message["dlCut"])
            return
        if "dl" not in message:
            return
        with self.hub.cond:
            if len(self.pushes) >= MAX_PUSHES:
                self.dropped += 1
                return
        value, changed = cap_json(message["dl"])
        with self.hub.cond:
            self.pushes.append(value)
            self.cut += changed or message.get("c") == 1  # "c": the hooks cut a string of it already

    def notes(self) -> list[str]:
        """What the bounds left out, as sentences for the report's ``message``."""
        out = []
        if self.cut:
            out.append(f"dataLayer: {self.cut} pushed values cut (docs/api.md)")
        if self.dropped:
            out.append(f"dataLayer: {self.dropped} items not kept (more than {MAX_PUSHES} per crawl, "
                       "more than 1,000 per document, or over 1 MiB)")
        return out

    def get_data(self, ctx: Context | None) -> list:
        with self.hub.cond:
            return list(self.pushes)
