"""Collector ``datalayer``: every ``dataLayer.push`` of the page and its
frames, as the page hooks report it (``browser/page_hooks.js`` calls the
``__tcActivity`` binding with ``{"dl": <pushed value>}``).

Bounds (docs/security.md "Work after the deadline, and the report's size"):
at most :data:`MAX_PUSHES` pushes are kept; a message longer than
:data:`MAX_MESSAGE` characters is not parsed (counted as dropped); a kept
value is ``truncation.cap_json``-ed: strings cut at
``truncation.DATALAYER_STRING_MAX`` characters with the truncation mark, at
most ``JSON_NODES_MAX`` nodes, ``JSON_DEPTH_MAX`` levels.  Validation rules
(``DataLayer``) read the capped values.  ``notes()`` says what was cut.
"""
from __future__ import annotations

from ..browser.capture import BINDING, binding_message
from ..truncation import cap_json
from .base import Collector

#: Pushes kept per crawl.
MAX_PUSHES = 1000
#: Characters of one binding message parsed (a 1 MB value fits; a larger message is dropped unread).
MAX_MESSAGE = 4 * 1024 * 1024


class DataLayerCollector(Collector):
    """``get_data`` -> ``list`` of the pushed values (JSON-decoded, capped), in push order."""

    name = "datalayer"

    def __init__(self):
        super().__init__()
        self.pushes: list = []
        self.dropped = 0
        self.cut = 0
        self.events = {"Runtime.bindingCalled": self._binding}

    def _binding(self, params: dict, _session: str | None) -> None:
        payload = params.get("payload")
        if isinstance(payload, str) and len(payload) > MAX_MESSAGE:  # not parsed again
            if params.get("name") == BINDING and '"dl"' in payload[:64]:
                with self.hub.cond:
                    self.dropped += 1
            return
        message = binding_message(params)
        if not isinstance(message, dict) or "dl" not in message:
            return
        with self.hub.cond:
            if len(self.pushes) >= MAX_PUSHES:
                self.dropped += 1
                return
        value, changed = cap_json(message["dl"])
        with self.hub.cond:
            self.pushes.append(value)
            self.cut += changed

    def notes(self) -> list[str]:
        """What the bounds left out, as sentences for the report's ``message``."""
        out = []
        if self.cut:
            out.append(f"dataLayer: {self.cut} pushed values cut (docs/api.md)")
        if self.dropped:
            out.append(f"dataLayer: {self.dropped} pushes not kept (more than {MAX_PUSHES}, "
                       f"or over {MAX_MESSAGE} characters)")
        return out

    def get_data(self, ctx) -> list:
        with self.hub.cond:
            return list(self.pushes)
