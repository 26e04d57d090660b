"""The page hooks of one crawl: their script and what they report.

The script (``native_mask.js``, ``page_hooks.js`` then ``storage_hooks.js``, in one strict arrow
function) runs in every document of the crawl's page before the page's own
scripts (``Page.addScriptToEvaluateOnNewDocument``).  It reports over a CDP
binding (``Runtime.addBinding``) whose name is random per crawl and which the
script takes and deletes from the window before any page script runs; the
crawler's own scripts reach the hooks' state (closed shadow roots, consent
state, the flush) with ``Function.prototype.toString[key]``, a property that
exists for no other reader (or ``Storage.prototype.setItem[key]`` when the
page replaced ``toString``, as core-js 3 does: ``PageHooks.api``).  Nothing of it is enumerable from the page
(docs/stealth.md lists what a page can still see).
"""
from __future__ import annotations

import json
import secrets
import string
from dataclasses import dataclass, field

from tagcrawl.engine.scripts import script

_SOURCE = "\n".join(script(__file__, name) for name in ("native_mask.js", "page_hooks.js", "storage_hooks.js"))
#: Longest binding payload parsed, in characters (a dataLayer item is at most 1 MiB, ``page_hooks.js``).
MAX_MESSAGE_CHARS = (1 << 20) + 64


def _token(length: int) -> str:
    """A random identifier: a letter, then letters and digits (``length`` characters)."""
    letters, alnum = string.ascii_letters, string.ascii_letters + string.digits
    return secrets.choice(letters) + "".join(secrets.choice(alnum) for _ in range(length - 1))


@dataclass(frozen=True)
class PageHooks:
    """The hooks of one crawl (one browser context).

    Attributes:
        binding: the CDP binding's name (random, 16 characters).
        key: the property of ``Function.prototype.toString`` that holds the
            hooks' API in a hooked document (random, 24 characters).
        source: the script's name in stack traces (``//# sourceURL``), "VM<n>".
        script: the script, with the timer horizons (ms) put in.
    """

    binding: str
    key: str
    source: str
    script: str = field(repr=False)

    @classmethod
    def new(cls, timer_horizon_ms: int, late_horizon_ms: int) -> "PageHooks":
        """Fresh random names; timers up to ``timer_horizon_ms`` count as pending,
        up to ``late_horizon_ms`` as late (ms)."""
        binding, key, source = _token(16), _token(24), f"VM{10000 + secrets.randbelow(90000)}"
        body = (_SOURCE.replace("__KEY__", key).replace("__SOURCE__", source).replace("__BINDING__", binding)
                .replace("__HORIZON__", str(int(timer_horizon_ms))).replace("__LATE__", str(int(late_horizon_ms))))
        script = f'(() => {{\n"use strict";\n{body}\n}})();\n//# sourceURL={source}\n'
        return cls(binding, key, source, script)

    def message(self, params: dict):
        """The JSON message of a ``Runtime.bindingCalled`` event of these hooks, or
        None for another binding, a payload over ``MAX_MESSAGE_CHARS`` or no JSON.

        Messages: ``{"w": id, "t": ms, "l": ms}`` (the last pending timer of
        document ``w`` is due in ``t`` ms, the last late one in ``l`` ms),
        ``{"dom": 1}`` (DOM mutations), ``{"dl": value}`` (a dataLayer item),
        ``{"dlCut": n}`` (dataLayer items not sent: past the per-document count
        or size cap), ``{"st": {...}}`` (a localStorage/sessionStorage write,
        ``storage_hooks.js``), ``{"stCut": n}`` (writes not sent in a document)."""
        payload = params.get("payload") or "{}"
        if params.get("name") != self.binding or len(payload) > MAX_MESSAGE_CHARS:
            return None
        try:
            return json.loads(payload)
        except ValueError:
            return None

    def is_item(self, params: dict) -> bool:
        """A ``Runtime.bindingCalled`` of these hooks carrying a dataLayer item
        (told by its start, without parsing it)."""
        return params.get("name") == self.binding and (params.get("payload") or "").startswith('{"dl"')

    def api(self) -> str:
        """A JS expression for the hooks' API in the current document (undefined
        where the hooks are not installed): ``Function.prototype.toString[key]``,
        else ``Storage.prototype.setItem[key]`` (a page that bundles core-js 3
        replaces ``Function.prototype.toString``; ``storage_hooks.js``)."""
        key = json.dumps(self.key)
        return f"(Function.prototype.toString[{key}] || Storage.prototype.setItem[{key}])"


def _ms(value) -> int:
    """A page-reported delay in ms, clamped to 0..1 day (anything else: 0)."""
    return min(max(value, 0), 86_400_000) if isinstance(value, int) and not isinstance(value, bool) else 0


def timer_update(message: dict) -> tuple[str | None, int, int] | None:
    """``(document id, ms until the last pending timer is due, same for late
    timers)`` of a timers message (``PageHooks.message``), delays clamped to
    0..1 day; None for another message."""
    if "t" not in message:
        return None
    document = message.get("w")
    return (document if isinstance(document, str) else None), _ms(message["t"]), _ms(message.get("l"))
