"""Collector ``storage``: the localStorage and sessionStorage writes of the page
and its frames, as the page hooks report them (``engine/capture/storage_hooks.js``
wraps ``Storage.prototype.setItem`` and sends ``{"st": {...}}`` over the
crawl's binding: area, key, the value's size in bytes, the writer's stack
frame; never the value).

The writer's script URL is read from its stack frame (``script_url``); the
organisation is attributed later, from that URL's host (``engine/parties``).

Bounds (docs/third-parties.md "Storage writes"): the hooks send at most 500
writes per document, keys cut at 256 characters and frames at 2,048; at most
:data:`MAX_WRITES` writes are kept per crawl, a key longer than :data:`KEY_MAX`
characters ends with the truncation mark (``…[truncated K chars]``,
``core/truncation.py``), script URLs are cut at :data:`URL_MAX`; ``notes()``
says how many writes were left out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tagcrawl.core.truncation import MARK, STORAGE_KEY_MAX, STORAGE_WRITES_MAX, cut, is_cut
from tagcrawl.engine.collectors.base import Collector, Context

#: Writes kept per crawl; characters kept of a key (then the truncation mark); of a script URL.
MAX_WRITES = STORAGE_WRITES_MAX
KEY_MAX = STORAGE_KEY_MAX
URL_MAX = 2048
#: Bytes a reported value size is clamped to (a value cannot exceed Chrome's 10 MiB origin quota).
SIZE_MAX = 1 << 30
_URL = re.compile(r"(https?://[^\s()]+?):\d+(?::\d+)?(?:\)|$)")


@dataclass(frozen=True)
class StorageWrite:
    """One ``setItem`` call the hooks reported.

    Attributes:
        area: ``"local"`` or ``"session"``.
        key: the key, at most :data:`KEY_MAX` characters then the truncation mark when it was longer.
        bytes: UTF-8 size of the stored value, bytes.
        script: URL of the script that wrote it (its stack frame), at most :data:`URL_MAX` characters, or None.
        timestamp: epoch ms of the write (the page's clock).
    """

    area: str
    key: str
    bytes: int
    script: str | None
    timestamp: float


def script_url(frame: object) -> str | None:
    """The http(s) script URL of a V8 stack frame line (``"    at f (https://x/a.js:1:2)"``,
    ``"    at https://x/a.js:1:2"``; for code run by ``eval`` the URL of the script that
    called it), cut at :data:`URL_MAX` characters; None without one (an extension, an
    ``eval`` without a source, no frame).  Reads at most 2,048 + 64 characters of ``frame``."""
    if not isinstance(frame, str):
        return None
    match = _URL.search(frame[:URL_MAX + 64])
    return match.group(1)[:URL_MAX] if match else None


def write_of(message: object) -> StorageWrite | None:
    """The write of a hooks message ``{"st": {"a", "k", "n", "f", "t", "l"?}}`` (``l``: the
    key's length when the hooks cut it), or None for another message or a malformed one
    (wrong area, no string key)."""
    body = message.get("st") if isinstance(message, dict) else None
    if not isinstance(body, dict) or body.get("a") not in ("local", "session") or not isinstance(body.get("k"), str):
        return None
    key, size, stamp, full = cut(body["k"], KEY_MAX), body.get("n"), body.get("t"), body.get("l")
    if isinstance(full, int) and not isinstance(full, bool) and full > len(key) and not is_cut(key):
        key += MARK.format(n=full - len(key))
    size = min(max(size, 0), SIZE_MAX) if isinstance(size, int) and not isinstance(size, bool) else 0
    stamp = float(stamp) if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) else 0.0
    return StorageWrite(area=body["a"], key=key, bytes=size, script=script_url(body.get("f")), timestamp=stamp)


class StorageCollector(Collector):
    """``get_data`` -> ``list[StorageWrite]`` in the order the hooks reported them.

    Attributes:
        dropped: writes not kept: past :data:`MAX_WRITES`, or not sent by the hooks (past 500 per document).
    """

    name = "storage"

    def __init__(self):
        super().__init__()
        self.writes: list[StorageWrite] = []
        self.dropped = 0
        self._cut_by_session: dict[str | None, int] = {}
        self.events = {"Runtime.bindingCalled": self._binding}

    def _binding(self, params: dict, session: str | None) -> None:
        raw = params.get("payload") if isinstance(params, dict) else None
        if not isinstance(raw, str) or not raw.startswith(('{"st"', '{"stCut"')):
            return  # not a storage message: not parsed here (dataLayer items can be 1 MiB)
        message = self.hub.message(params)
        if isinstance(message, dict) and isinstance(message.get("stCut"), int):
            with self.hub.cond:  # a running count per document; kept per session as its highest
                before = self._cut_by_session.get(session, 0)
                self._cut_by_session[session] = max(before, message["stCut"])
                self.dropped += max(0, self._cut_by_session[session] - before)
            return
        write = write_of(message)
        if write is None:
            return
        with self.hub.cond:
            if len(self.writes) >= MAX_WRITES:
                self.dropped += 1
                return
            self.writes.append(write)

    def notes(self) -> list[str]:
        """What the bounds left out, as sentences for the report's ``message``."""
        if not self.dropped:
            return []
        return [f"storage: {self.dropped} writes not kept (more than {MAX_WRITES} per crawl or 500 per document)"]

    def get_data(self, ctx: Context | None) -> list[StorageWrite]:
        with self.hub.cond:
            return list(self.writes)
