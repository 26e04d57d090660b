"""POST bodies as DevTools reports them (``Network.Request.postDataEntries``,
``Network.getRequestPostData``): text when UTF-8, else raw bytes."""
from __future__ import annotations

import base64


def text_or_bytes(raw: bytes) -> str | bytes:
    """A body as text when it is UTF-8, else the raw bytes (gzip, binary)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def decode_entries(entries: list[dict]) -> str | bytes | None:
    """``postDataEntries`` (CDP ``Network.Request``: base64 ``bytes`` per entry)
    -> text or bytes; None when undecodable."""
    try:
        return text_or_bytes(b"".join(base64.b64decode(e.get("bytes", "")) for e in entries))
    except Exception:
        return None
