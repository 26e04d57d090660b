"""Validation-rules engine: evaluate caller-supplied rules against a crawl.

A rule (already validated by the API schema) is a dict::

    {"rule_id": "<uuid4>", "vendor": "Meta", "key": "event",
     "value": "PageView|Purchase", "condition": "OR", "rule_type": "Pixel"}

``condition`` is one of :data:`CONDITIONS` (default/None -> "OR") and
``rule_type`` one of :data:`RULE_TYPES` (default/None -> "Pixel"); both are
compared exactly (case-sensitive).  See ``docs/rules.md`` for the semantics.

Patterns (``value``, and the cookie-name ``key`` of Cookie rules) are
case-sensitive globs matched with RE2 in linear time (``crawl/globs.py``).
Caller input is capped by the API schema: :data:`PATTERN_MAX` characters per
pattern, :data:`RULES_MAX` rules, :data:`PATH_SEGMENTS_MAX` dataLayer path
segments (``docs/security.md``).
"""
from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any, Callable, Iterable

from tagcrawl.engine.vendors import find_vendor  # resolves keys, display names, aliases

from tagcrawl.crawl.globs import pattern_matches, to_text  # noqa: F401 (public here)
from tagcrawl.core.types import (CONDITIONS, DEFAULT_CONDITION, DEFAULT_RULE_TYPE, PATH_SEGMENTS_MAX, PATTERN_MAX,  # noqa: E402,F401
                     RULE_TYPES, RULES_MAX)
#: ``key`` of a Consent rule: a consent phase; "violations" = "after_reject".
CONSENT_PHASES = ("before_consent", "after_accept", "after_reject", "no_banner", "violations")

_MISSING = object()  # sentinel: the dataLayer path is absent


class RulesLate(Exception):
    """The crawl deadline passed while a rule was being evaluated."""


def _check(values: Iterable[Any], matches: Callable[[Any], bool], condition: str,
           deadline: float = math.inf) -> bool:
    """OR: some candidate matches.  AND: there is a candidate and all match.

    ``_MISSING`` candidates are skipped (they are not candidates).  Raises
    ``RulesLate`` when ``deadline`` (monotonic s) has passed before a candidate.
    """
    seen = False
    for value in values:
        if time.monotonic() >= deadline:
            raise RulesLate
        if value is _MISSING:
            continue
        ok = matches(value)
        if condition == "OR" and ok:
            return True
        if condition == "AND" and not ok:
            return False
        seen = True
    return condition == "AND" and seen


# --- Pixel
def _vendor_matcher(vendor: str) -> Callable[[Any], bool]:
    """Return a predicate telling whether a Hit belongs to ``vendor``.

    ``vendor`` may be a catalog key, display name or alias (case-insensitive),
    resolved with ``tagcrawl.engine.vendors.find_vendor``; additionally the name is
    compared case-insensitively with the hit's own ``vendor_key`` and
    ``vendor_name`` (which is all that happens if the catalog is unavailable).
    """
    wanted = vendor.strip()
    names = {wanted.casefold()}
    catalog_key = None
    if wanted:
        try:
            catalog_key = getattr(find_vendor(wanted), "key", None)
        except Exception:  # noqa: BLE001 - fall back to the hit's own names
            catalog_key = None

    def belongs(hit: Any) -> bool:
        key = getattr(hit, "vendor_key", None)
        if catalog_key is not None and key == catalog_key:
            return True
        own = (key, getattr(hit, "vendor_name", None))
        return any(isinstance(n, str) and n.casefold() in names for n in own)

    return belongs


def _hit_field(hit: Any, key: str) -> str | None:
    """Return the text of field ``key`` of ``hit``, or None when missing.

    ``account_id`` and ``event`` read the Hit attributes; any other key is a
    decoded parameter name looked up (exactly) in ``hit.params``.  None values
    count as missing; non-str values are converted with :func:`to_text`.
    """
    if key in ("account_id", "event"):
        value = getattr(hit, key, None)
    else:
        params = getattr(hit, "params", None)
        value = params.get(key) if isinstance(params, Mapping) else None
    return None if value is None else to_text(value)


def _eval_pixel(rule: dict, hits: list, condition: str, deadline: float = math.inf) -> bool:
    vendor, key, pattern = rule.get("vendor"), rule.get("key"), rule.get("value")
    if not all(isinstance(x, str) for x in (vendor, key, pattern)):
        return False
    belongs = _vendor_matcher(vendor)
    mine = [h for h in hits if belongs(h)]
    # The vendor's beacons are what a rule checks; its library loads (script
    # URLs such as gtag/js?id=) count only when the vendor sent no beacon.
    beacons = [h for h in mine if getattr(h, "transport", None) != "script"]
    # A hit of the vendor missing the field still counts (and fails) for AND.
    fields = (_hit_field(h, key) for h in (beacons or mine))
    return _check(fields, lambda text: pattern_matches(pattern, text), condition, deadline)


# --- Cookie
def _eval_cookie(rule: dict, cookies: list, condition: str, deadline: float = math.inf) -> bool:
    name_pattern, pattern = rule.get("key"), rule.get("value")
    if not isinstance(name_pattern, str) or not isinstance(pattern, str):
        return False
    values = []
    for cookie in cookies:
        if not isinstance(cookie, dict):
            continue
        name = cookie.get("name")
        if isinstance(name, str) and pattern_matches(name_pattern, name):
            value = cookie.get("value")
            values.append(None if value is None else to_text(value))
    return _check(values, lambda text: pattern_matches(pattern, text), condition, deadline)


# --- DataLayer
def _lookup(obj: Any, path: str) -> Any:
    """Follow dotted ``path`` into ``obj``; return the value or ``_MISSING``.

    On a dict the longest run of segments that is itself a key wins (so
    ``gtm.start`` finds GTM's literal ``"gtm.start"`` key), else one segment.
    On a list, a segment of ASCII digits is an index.  Anything else (scalar,
    bad index, absent key, empty path) is missing.
    """
    if not path:
        return _MISSING
    segments, current, i = path.split("."), obj, 0
    while i < len(segments):
        if isinstance(current, dict):
            for j in range(len(segments), i, -1):
                name = ".".join(segments[i:j])
                if name in current:
                    current, i = current[name], j
                    break
            else:
                return _MISSING
        elif isinstance(current, (list, tuple)):
            seg = segments[i]
            if not (seg.isascii() and seg.isdigit()) or int(seg) >= len(current):
                return _MISSING
            current, i = current[int(seg)], i + 1
        else:
            return _MISSING
    return current


def _eval_datalayer(rule: dict, datalayer: list, condition: str, deadline: float = math.inf) -> bool:
    path, pattern = rule.get("key"), rule.get("value")
    if not isinstance(path, str) or not isinstance(pattern, str) or path.count(".") >= PATH_SEGMENTS_MAX:
        return False
    found = (_lookup(push, path) for push in datalayer)
    return _check(found, lambda value: pattern_matches(pattern, to_text(value)),
                  condition, deadline)


# --- Consent
def _eval_consent(rule: dict, consent: list) -> bool:
    """Success when nothing first seen in phase ``key`` matches the glob
    ``value`` (a pixel's vendor name, key or account id; a cookie's name or
    vendor).  ``vendor`` and ``condition`` are not used."""
    phase, pattern = rule.get("key"), rule.get("value")
    if phase == "violations":
        phase = "after_reject"
    if phase not in CONSENT_PHASES or not isinstance(pattern, str):
        return False
    return not any(item.get("phase") == phase and any(pattern_matches(pattern, n) for n in item.get("names") or [])
                   for item in consent if isinstance(item, dict))


# --- API
def evaluate_rule(rule: dict, hits: list, cookies: list, datalayer: list, consent: list | None = None,
                  deadline: float = math.inf) -> bool:
    """Return one rule's success (see :func:`evaluate_rules`).  Raises only
    ``RulesLate``: ``deadline`` (monotonic s) passed during the rule."""
    try:
        if not isinstance(rule, dict):
            return False
        condition = rule.get("condition")
        condition = DEFAULT_CONDITION if condition is None else condition
        rule_type = rule.get("rule_type")
        rule_type = DEFAULT_RULE_TYPE if rule_type is None else rule_type
        if condition not in CONDITIONS:
            return False
        if rule_type == "Pixel":
            return _eval_pixel(rule, hits, condition, deadline)
        if rule_type == "Cookie":
            return _eval_cookie(rule, cookies, condition, deadline)
        if rule_type == "DataLayer":
            return _eval_datalayer(rule, datalayer, condition, deadline)
        if rule_type == "Consent":
            return _eval_consent(rule, _as_list(consent))
        return False
    except RulesLate:
        raise
    except Exception:  # noqa: BLE001 - odd data must never break a crawl
        return False


def evaluate_rules(rules: list[dict] | None, hits: list | None,
                   cookies: list[dict] | None, datalayer: list | None,
                   crawl_succeeded: bool = True, consent: list[dict] | None = None) -> list[dict]:
    """:func:`evaluate_rules_until` without a deadline: every rule is evaluated."""
    return evaluate_rules_until(rules, hits, cookies, datalayer, crawl_succeeded, consent)[0]


def evaluate_rules_until(rules: list[dict] | None, hits: list | None,
                         cookies: list[dict] | None, datalayer: list | None,
                         crawl_succeeded: bool = True, consent: list[dict] | None = None,
                         deadline: float = math.inf) -> tuple[list[dict], int]:
    """Evaluate validation rules against the results of one crawl.

    Args:
        rules: rule dicts ``{"rule_id", "vendor", "key", "value", "condition",
            "rule_type"}`` (see module docstring); None or [] -> [].
        hits: ``tagcrawl.engine.vendors.types.Hit`` objects captured by the crawl.
        cookies: CDP cookie dicts (``name``, ``value``, ``domain``, ...) present
            at the end of the crawl.
        datalayer: every value pushed to ``window.dataLayer`` (JSON values).
        crawl_succeeded: when False every rule fails.
        consent: for ``Consent`` rules, ``[{"phase", "names"}]`` per pixel and
            cookie (``compliance.report.rule_items``).
        deadline: monotonic seconds; checked before each candidate value of
            each rule.  The rules not finished by then get ``success: False``.

    Returns:
        ``([{"rule_id": <rule's rule_id or None>, "success": bool}, ...],
        rules evaluated)``, one entry per rule, in the order of ``rules``.
        Never raises; a rule that cannot be evaluated gets ``success: False``.
    """
    rules = _as_list(rules)
    hits = _as_list(hits)
    cookies = _as_list(cookies)
    datalayer = _as_list(datalayer)
    results, evaluated, late = [], 0, False
    for rule in rules:
        rule_id = rule.get("rule_id") if isinstance(rule, dict) else None
        success = False
        late = late or (bool(crawl_succeeded) and time.monotonic() >= deadline)
        if not late:
            try:
                success = bool(crawl_succeeded) and evaluate_rule(rule, hits, cookies, datalayer, consent, deadline)
                evaluated += 1
            except RulesLate:
                late = True
        results.append({"rule_id": rule_id, "success": success})
    return results, evaluated


def _as_list(value: Any) -> list:
    """Lists as-is, tuples/sets listed, anything else (None, str, ...) -> []."""
    if isinstance(value, list):
        return value
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    return []
