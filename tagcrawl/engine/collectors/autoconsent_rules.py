"""DuckDuckGo autoconsent's content script and rule base, read from the
service's pinned npm data (``npm/package.json``: ``@duckduckgo/autoconsent``
16.23.0, MPL-2.0; installed by ``make install``, never copied into the
repository).

- ``dist/autoconsent.playwright.js``: the content script to inject into every
  frame; it expects ``window.autoconsentSendMessage`` and defines
  ``window.autoconsentReceiveMessage`` (docs/api.md of autoconsent).
- ``rules/rules.json``: ``{"autoconsent": [rule, ...]}``, about 800 declarative
  rules with ``detectCmp``, ``detectPopup``, ``optIn``, ``optOut``, ``test``
  (docs/rule-syntax.md of autoconsent).  Unlike ``compact-rules.json`` it has the
  opt-in steps.

``rules_for(url, top)`` is what the host sends a frame in ``initResp``: the
rules whose ``runContext`` admits the frame (top or not) and whose
``urlPattern`` (a JavaScript regular expression, compiled here with ``re``)
matches its URL; cosmetic rules (they only hide a banner) are left out.
"""
from __future__ import annotations

import functools
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

PACKAGE = "@duckduckgo/autoconsent"
#: Bounds of what is read from disk (the pinned files are 137 KB and 685 KB).
MAX_SCRIPT_BYTES = 1 << 20
MAX_RULES_BYTES = 8 << 20
#: A frame URL longer than this is matched on its first MAX_URL characters.
MAX_URL = 2048


@dataclass(frozen=True)
class Rule:
    """One declarative rule: its JSON (sent as is), its frame context and its
    compiled ``urlPattern`` (None: every URL; a pattern ``re`` cannot compile
    matches nothing)."""

    data: dict
    main: bool
    frame: bool
    pattern: re.Pattern | None
    site_specific: bool

    def admits(self, url: str, top: bool) -> bool:
        """Does the rule run in a frame at ``url`` (top document or not)?"""
        if not (self.main if top else self.frame):
            return False
        if not self.site_specific:
            return True
        return self.pattern is not None and self.pattern.search(url[:MAX_URL]) is not None


@dataclass(frozen=True)
class RuleBase:
    """The loaded package: ``script`` (the content script's text), ``rules``
    (non-cosmetic declarative rules, file order), ``by_name`` (rule name ->
    ``Rule``), ``version`` (the package's)."""

    script: str
    rules: tuple[Rule, ...]
    by_name: dict
    version: str

    def rules_for(self, url: str, top: bool) -> list[dict]:
        """The rule JSONs for a frame at ``url`` (``initResp.rules.autoconsent``)."""
        return [r.data for r in self.rules if r.admits(url or "", top)]

    def popup_selectors(self, name: str) -> list[str]:
        """The ``visible`` / ``exists`` selectors of rule ``name``'s ``detectPopup``
        steps (strings only, at most 8): where its banner is.  ``[]`` for a
        code-based CMP or an unknown name."""
        rule = self.by_name.get(name)
        steps = (rule.data.get("detectPopup") or []) if rule else []
        found = [s.get("visible") or s.get("exists") for s in steps if isinstance(s, dict)]
        return [s for s in found if isinstance(s, str) and s][:8]


def _rule(data: dict) -> Rule | None:
    if not isinstance(data, dict) or data.get("cosmetic") or not isinstance(data.get("name"), str):
        return None
    context = data.get("runContext") or {}
    source = context.get("urlPattern") or ""
    pattern = None
    if source:
        try:
            pattern = re.compile(source)
        except re.error:
            log.debug("autoconsent rule %s: urlPattern %r does not compile", data["name"], source)
    return Rule(data, bool(context.get("main", True)), bool(context.get("frame", False)), pattern, bool(source))


def package_dir(npm_dir: str | None) -> Path:
    """``<npm_dir>/@duckduckgo/autoconsent``; ``npm_dir`` None: the ``npm/node_modules``
    folder of the source tree that holds this package (``make install``)."""
    base = Path(npm_dir) if npm_dir else Path(__file__).resolve().parents[3] / "npm" / "node_modules"
    return base / PACKAGE


def _read(path: Path, limit: int) -> str:
    if path.stat().st_size > limit:
        raise OSError(f"{path} is larger than {limit} bytes")
    return path.read_text(encoding="utf-8")


@functools.cache
def load(npm_dir: str | None = None) -> RuleBase | None:
    """The rule base, read once per process and folder; None (logged once)
    when the package is missing or unreadable: the crawl then runs without it.
    Files over ``MAX_SCRIPT_BYTES`` / ``MAX_RULES_BYTES`` are refused."""
    root = package_dir(npm_dir)
    try:
        script = _read(root / "dist" / "autoconsent.playwright.js", MAX_SCRIPT_BYTES)
        data = json.loads(_read(root / "rules" / "rules.json", MAX_RULES_BYTES))
        version = json.loads(_read(root / "package.json", 1 << 20)).get("version") or "?"
    except (OSError, ValueError) as exc:
        log.warning("autoconsent is not available (%s): consent uses tagcrawl's own rules", exc)
        return None
    rules = tuple(r for r in map(_rule, data.get("autoconsent") or []) if r is not None)
    return RuleBase(script, rules, {r.data["name"]: r for r in rules}, str(version))
