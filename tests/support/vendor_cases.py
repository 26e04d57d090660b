"""Recorded request shapes for the vendor catalog tests, read from the
vendor files (``tagcrawl/engine/vendors/catalog/<key>.toml``: ``[[positive]]``,
``[[negative]]``, ``[[malformed]]``; format in ``docs/vendors.md``).

``POSITIVE``: requests that must produce hits of ``vendor`` whose
account ids are exactly ``ids`` (in order) and whose first event is
``event`` (``ANY`` = not checked), of ``kind`` (``"pixel"``, or ``"sync"``
for a cookie / ID sync) and, for a sync, naming ``partner`` (``ANY`` = not
checked).  In a file, no ``ids`` means one hit without an account id (a
library load) and ``event = ""`` a hit without an event name.

``NEGATIVE``: look-alikes (wrong host / path / parameter shape) that must
produce no hit of ``vendor``.

``MALFORMED``: recognised requests (right host, path and shape) whose id is
outside the vendor's usual format: the id is reported exactly as sent
(``ids``, the file's ``sent``) and flagged with warnings, never dropped.

Lists are in catalog order, each vendor's cases in file order.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from tagcrawl.engine.vendors.catalog import entries

ANY = object()


@dataclass(frozen=True)
class Case:
    vendor: str
    url: str
    ids: tuple = ()
    event: object = ANY
    body: str | None = None
    method: str | None = None
    headers: dict = field(default_factory=dict, hash=False, compare=False)
    note: str = ""
    kind: str = "pixel"
    partner: object = ANY

    @property
    def http_method(self) -> str:
        return self.method or ("POST" if self.body is not None else "GET")

    def __str__(self) -> str:  # readable pytest ids
        return f"{self.vendor}:{self.note or self.url[:60]}"


def basic(user: str) -> dict:
    """``Authorization: Basic base64(<user>:)`` (a write key sent as the user name)."""
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:".encode()).decode()}


def _filled(text: str | None, case: dict[str, Any]) -> str | None:
    """``text`` with ``{data}`` replaced by the case's ``data``, encoded as
    its ``data_encoding`` says (``base64``: URL-quoted base64 of the text;
    ``percent``: the URL-quoted text)."""
    if text is None or "data" not in case:
        return text
    data = case["data"]
    if case["data_encoding"] == "base64":
        data = base64.b64encode(data.encode()).decode()
    return text.replace("{data}", quote(data))


def _case(vendor: str, kind: str, raw: dict[str, Any]) -> Case:
    headers = dict(raw.get("headers", {}))
    if "basic_auth" in raw:
        headers.update(basic(raw["basic_auth"]))
    if kind == "positive":
        ids = tuple(raw.get("ids", ())) or (None,)
        event = (raw["event"] or None) if "event" in raw else ANY
    elif kind == "malformed":
        sent = raw["sent"]
        ids, event = (sent,) if isinstance(sent, str) else tuple(sent), ANY
    else:
        ids, event = (), ANY
    note = raw.get("note", "malformed id" if kind == "malformed" else "")
    return Case(vendor, _filled(raw["url"], raw), ids, event, _filled(raw.get("body"), raw), raw.get("method"),
                headers, note, raw.get("kind", "pixel"), raw.get("partner", ANY))


def _cases(kind: str) -> list[Case]:
    return [_case(e.vendor.key, kind, raw) for e in entries() for raw in e.cases.get(kind, ())]


POSITIVE = _cases("positive")
NEGATIVE = _cases("negative")
MALFORMED = _cases("malformed")

# -- ids shared with other tests (test_har.py, test_encodings.py) --------------------
UUID = "0f8fad5b-d9cb-469f-a165-70867728950e"
HEX32 = "0123456789abcdef0123456789abcdef"
META_ID = "123456789012345"
TT = "C1A2B3C4D5E6F7G8H9I0"
SEG_KEY = "AbCdEf0123456789AbCdEf0123456789"
PHC = "phc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcde"
