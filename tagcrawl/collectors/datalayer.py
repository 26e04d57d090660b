"""Collector ``datalayer``: every ``dataLayer.push`` of the page and its
frames, as the page hooks report it (``browser/page_hooks.js`` calls the
``__tcActivity`` binding with ``{"dl": <pushed value>}``)."""
from __future__ import annotations

from ..browser.capture import binding_message
from .base import Collector


class DataLayerCollector(Collector):
    """``get_data`` -> ``list`` of the pushed values (JSON-decoded), in push order."""

    name = "datalayer"

    def __init__(self):
        super().__init__()
        self.pushes: list = []
        self.events = {"Runtime.bindingCalled": self._binding}

    def _binding(self, params: dict, _session: str | None) -> None:
        message = binding_message(params)
        if isinstance(message, dict) and "dl" in message:
            with self.hub.cond:
                self.pushes.append(message["dl"])

    def get_data(self, ctx) -> list:
        with self.hub.cond:
            return list(self.pushes)
