"""One vendor file of the catalog (``catalog/<key>.toml``): validated, then
turned into the :class:`~tagcrawl.engine.vendors.model.Vendor` the matcher uses.

The format is documented in ``docs/vendors.md`` ("Catalog files").  Every key
of the file is checked here: an unknown key, a value of the wrong type, a
regex that does not compile (or is not JavaScript-compatible: the tag and
:func:`~tagcrawl.engine.vendors.browser_patterns` run them in a browser), a
source spec of an unknown kind or an id example that its own format refuses
raise :class:`CatalogError`, whose message names the file and the key
(``facebook.toml: pattern[1].path: ...``).  The case tables (``positive``,
``negative``, ``malformed``, ``snippet``, ``beacon``, ``script_id``) are
checked for keys and types only; the tests give them their meaning
(``tests/support/vendor_cases.py``, ``tests/support/vendor_pages.py``).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tagcrawl.engine.vendors.ids import HEX32, UUID, IdFormat
from tagcrawl.engine.vendors.model import CATEGORIES, KINDS, Pattern, Vendor, host_re
from tagcrawl.engine.vendors.sources import FLAGS, compile_spec

#: Largest vendor file read, in bytes (the biggest today holds a 3 KB vendor snippet).
MAX_FILE_BYTES = 64 * 1024


class CatalogError(ValueError):
    """A catalog file breaks the format; the message starts ``<file>: <key>: ``."""


@dataclass(frozen=True)
class Entry:
    """One vendor file, read and validated.

    Attributes:
        vendor: the catalog entry (what the matcher uses).
        priority: the file's ``priority`` (see ``catalog/__init__.py``).
        cases: the file's case tables, as read (keys ``positive``,
            ``negative``, ``malformed``, ``script_id``: lists of tables;
            ``snippet``, ``beacon``: a table or absent).
        path: the file.
    """

    vendor: Vendor
    priority: int
    cases: dict[str, Any]
    path: Path


# -- key tables: key -> type ("str", "int", "bool", "strs" = a string or a list of strings,
#    "list" = list of strings, "map" = table of strings, "table", "tables" = list of tables) --

_TOP_REQUIRED = {"key": "str", "name": "str", "category": "str", "priority": "int", "id_source": "str",
                 "pattern": "tables", "positive": "tables", "negative": "tables"}
_TOP_OPTIONAL = {"aliases": "list", "id": "table", "malformed": "tables", "snippet": "table",
                 "beacon": "table", "script_id": "tables"}
_PATTERN = {"domains": "list", "host": "str", "path": "str", "require": "map", "ids": "strs", "events": "strs",
            "split": "str", "id_sep": "str", "embedded": "strs", "config": "bool", "kind": "str",
            "partner": "strs"}
_ID_COMMON = {"prefix": "str", "prefix_required": "bool", "case": "str", "remove": "str", "noun": "str"}
_ID_KINDS = {
    "digits": ({"min": "int", "max": "int", "example": "str"}, _ID_COMMON),
    "regex": ({"regex": "str", "example": "str"}, _ID_COMMON),
    "uuid": ({}, {}),
    "hex32": ({}, {}),
}
_REQUEST = {"body": "str", "method": "str", "headers": "map", "basic_auth": "str", "data": "str",
            "data_encoding": "str", "note": "str"}
_CASES = {
    "positive": ({"url": "str"}, {**_REQUEST, "ids": "list", "event": "str", "kind": "str", "partner": "str"}),
    "negative": ({"url": "str"}, _REQUEST),
    "malformed": ({"url": "str", "sent": "strs"}, _REQUEST),
    "script_id": ({"account": "str", "url": "str"}, {}),
}
_SNIPPET = ({"account": "str", "html": "str", "transport": "str"}, {"event": "str", "raw_id": "str"})
_BEACON = ({"account": "str", "event": "str"}, {"get": "str", "post": "table"})
_POST = ({"url": "str", "body": "str", "type": "str"}, {})

#: Regex syntax Python has and JavaScript lacks (named groups, inline flags,
#: ``\\A``/``\\Z``, atomic groups, possessive quantifiers, comments).
_PY_ONLY = re.compile(r"\(\?P|\(\?[aiLmsux]+[):]|\\[AZ]|\(\?>|[*+?}]\+|\(\?#")
_KEY = re.compile(r"[a-z][a-z0-9_]{1,40}")
_DOMAIN = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+")
_TRANSPORTS = ("image", "ping", "script", "document", "fetch", "xhr")


def _is(value: Any, kind: str) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "strs":
        return isinstance(value, str) or _is(value, "list")
    if kind == "list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "map":
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    if kind == "table":
        return isinstance(value, dict)
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)  # tables


def _table(where: str, table: Any, required: dict[str, str], optional: dict[str, str]) -> dict[str, Any]:
    """``table`` checked against its key tables; returns it.  ``where`` is the
    table's place (``"x.toml: pattern[0]"``, or ``"x.toml: "`` for the file).
    Raises CatalogError."""
    head = where.rstrip(": ")
    if not isinstance(table, dict):
        raise CatalogError(f"{head}: expected a table")
    for key, value in table.items():
        kind = required.get(key) or optional.get(key)
        at = f"{where}{key}" if where.endswith(": ") else f"{where}.{key}"
        if kind is None:
            known = ", ".join(sorted({*required, *optional}))
            raise CatalogError(f"{at}: unknown key (known: {known})")
        if not _is(value, kind):
            raise CatalogError(f"{at}: expected {kind}, got {type(value).__name__}")
    missing = [k for k in required if k not in table]
    if missing:
        raise CatalogError(f"{head}: missing {', '.join(missing)}")
    return table


def _regex(where: str, source: str) -> str:
    """``source`` when it compiles and is JavaScript-compatible; else CatalogError."""
    try:
        re.compile(source, FLAGS)
    except re.error as e:
        raise CatalogError(f"{where}: invalid regex {source!r}: {e}") from None
    if _PY_ONLY.search(source):
        raise CatalogError(f"{where}: Python-only regex syntax in {source!r} (it must run in JavaScript too)")
    return source


def _specs(where: str, value: str | list[str]) -> tuple[str, ...]:
    """Source specs (one string or a list) as a tuple, each parsed once to check it."""
    specs = (value,) if isinstance(value, str) else tuple(value)
    for i, spec in enumerate(specs):
        try:
            compiled = compile_spec(spec)
        except (ValueError, re.error) as e:
            raise CatalogError(f"{where}[{i}]: {e}") from None
        if compiled.rx is not None and _PY_ONLY.search(compiled.rx.pattern):
            raise CatalogError(f"{where}[{i}]: Python-only regex syntax in {spec!r} (it must run in JavaScript too)")
    return specs


def _pattern(where: str, raw: Any) -> Pattern:
    """One ``[[pattern]]`` table as a :class:`Pattern` (``domains`` become the host regex)."""
    t = _table(where, raw, {}, _PATTERN)
    if "domains" in t and "host" in t:
        raise CatalogError(f"{where}: give `domains` or `host`, not both")
    if t.get("domains") == []:
        raise CatalogError(f"{where}.domains: empty (leave it out for a pattern on any host)")
    for d in t.get("domains", ()):
        if not _DOMAIN.fullmatch(d):
            raise CatalogError(f"{where}.domains: {d!r} is not a lower-case domain name")
    host = host_re(*t["domains"]) if t.get("domains") else t.get("host")
    if host is not None:
        _regex(f"{where}.host", host)
    path = _regex(f"{where}.path", t["path"]) if "path" in t else None
    require = tuple(t.get("require", {}).items())
    for spec, rx in require:
        _specs(f"{where}.require", spec)
        _regex(f"{where}.require.{spec}", rx)
    ids = _specs(f"{where}.ids", t.get("ids", ()))
    if host is None and not require and not any(s.startswith("path:") for s in ids):
        raise CatalogError(f"{where}: a pattern without `domains`/`host` needs `require` or a `path:` id "
                           "(else it matches any host)")
    split = t.get("split")
    if split is not None and split != "lines" and not split.startswith("json:"):
        raise CatalogError(f"{where}.split: expected \"lines\" or \"json:<path>\", got {split!r}")
    if t.get("id_sep") == "":
        raise CatalogError(f"{where}.id_sep: empty")
    embedded = t.get("embedded", ())
    embedded = (embedded,) if isinstance(embedded, str) else tuple(embedded)
    events = _specs(f"{where}.events", t.get("events", ()))
    kind = t.get("kind", "pixel")
    if kind not in KINDS:
        raise CatalogError(f"{where}.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    if "partner" in t and kind != "sync":
        raise CatalogError(f"{where}.partner: only a `kind = \"sync\"` pattern has a partner")
    return Pattern(host=host, path=path, require=require, ids=ids, events=events, split=split,
                   id_sep=t.get("id_sep"), embedded=embedded, config=t.get("config", False), kind=kind,
                   partner=_specs(f"{where}.partner", t.get("partner", ())))


def _id_format(where: str, raw: Any) -> IdFormat:
    """The ``[id]`` table as an :class:`IdFormat` (kinds: :data:`_ID_KINDS`)."""
    kind = raw.get("kind") if isinstance(raw, dict) else None
    if kind not in _ID_KINDS:
        raise CatalogError(f"{where}.kind: expected one of {', '.join(_ID_KINDS)}, got {kind!r}")
    required, optional = _ID_KINDS[kind]
    t = _table(where, {k: v for k, v in raw.items() if k != "kind"}, required, optional)
    if kind in ("uuid", "hex32"):
        return UUID if kind == "uuid" else HEX32
    if t.get("case") not in (None, "upper", "lower"):
        raise CatalogError(f"{where}.case: expected \"upper\" or \"lower\", got {t['case']!r}")
    if kind == "digits":
        if not 0 < t["min"] <= t["max"] <= 200:
            raise CatalogError(f"{where}: expected 0 < min <= max <= 200")
        body = f"[0-9]{{{t['min']},{t['max']}}}"
    else:
        body = _regex(f"{where}.regex", t["regex"])
    fmt = IdFormat(body=body, example=t["example"], **{k: v for k, v in t.items() if k in _ID_COMMON})
    if fmt.normalise(fmt.example) != fmt.example:
        raise CatalogError(f"{where}.example: {fmt.example!r} is not an id of this format (canonical form)")
    return fmt


def _cases(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """The file's case tables, checked for keys and types; returned as read."""
    for kind, (required, optional) in _CASES.items():
        for i, case in enumerate(doc.get(kind, ())):
            _table(f"{name}: {kind}[{i}]", case, required, optional)
            if case.get("data_encoding", "base64") not in ("base64", "percent"):
                raise CatalogError(f"{name}: {kind}[{i}].data_encoding: expected \"base64\" or \"percent\"")
            if ("data" in case) != ("data_encoding" in case):
                raise CatalogError(f"{name}: {kind}[{i}]: `data` and `data_encoding` go together")
    if not doc["positive"] or not doc["negative"]:
        raise CatalogError(f"{name}: every vendor needs at least one positive and one negative case")
    if "snippet" in doc:
        _table(f"{name}: snippet", doc["snippet"], *_SNIPPET)
        if doc["snippet"]["transport"] not in _TRANSPORTS:
            raise CatalogError(f"{name}: snippet.transport: expected one of {', '.join(_TRANSPORTS)}")
    if "beacon" in doc:
        beacon = _table(f"{name}: beacon", doc["beacon"], *_BEACON)
        if "post" in beacon:
            _table(f"{name}: beacon.post", beacon["post"], *_POST)
        if "get" not in beacon and "post" not in beacon:
            raise CatalogError(f"{name}: beacon: needs `get` or `post`")
    return {k: doc[k] for k in ("positive", "negative", "malformed", "snippet", "beacon", "script_id") if k in doc}


def read_entry(path: Path) -> Entry:
    """Read and validate one vendor file.

    Args:
        path: ``catalog/<key>.toml`` (at most :data:`MAX_FILE_BYTES`).
    Returns:
        the :class:`Entry`.
    Raises:
        CatalogError: the file is too big, is not TOML or breaks the format;
            the message names the file and the key.
    """
    name = path.name
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise CatalogError(f"{name}: {size} bytes, more than {MAX_FILE_BYTES}")
    raw = path.read_bytes()
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise CatalogError(f"{name}: not a TOML file: {e}") from None
    where = f"{name}: "
    _table(where, doc, _TOP_REQUIRED, _TOP_OPTIONAL)
    if doc["key"] != path.stem or not _KEY.fullmatch(doc["key"]):
        raise CatalogError(f"{where}key: {doc['key']!r} must be the file name (lower case, digits, _)")
    if doc["category"] not in CATEGORIES:
        raise CatalogError(f"{where}category: {doc['category']!r} is not one of {', '.join(CATEGORIES)}")
    if not doc["name"].strip():
        raise CatalogError(f"{where}name: empty")
    patterns = tuple(_pattern(f"{where}pattern[{i}]", p) for i, p in enumerate(doc["pattern"]))
    if not patterns:
        raise CatalogError(f"{where}pattern: at least one pattern")
    fmt = _id_format(f"{where}id", doc["id"]) if "id" in doc else None
    vendor = Vendor(key=doc["key"], name=doc["name"], category=doc["category"], patterns=patterns,
                    aliases=tuple(doc.get("aliases", ())), id_format=fmt, id_source=doc["id_source"])
    return Entry(vendor=vendor, priority=doc["priority"], cases=_cases(name, doc), path=path)
