"""The browser tag (served at ``GET /stream/tag.js``), rendered from the vendor catalog.

The script is ``template.js`` with its placeholders filled in once per
process: the tag's version (``mv``) and the vendor catalog's request shapes
(:func:`vendor_table`: the crawler's own patterns, so there is no second list),
after :func:`minify` (rjsmin, then shorter names for the tag's ``$`` locals).

Caching: ``ETag`` is the content hash (``<hash>-gz`` for the gzip copy, served
to clients that accept it) and ``mv`` is ``<__version__>+<hash>``.
``/stream/tag.js`` is cached 5 minutes; ``/stream/tag.js?v=<hash>`` (see
:func:`tag_path`) is immutable for a year.  ``Access-Control-Allow-Origin: *``.
What the tag sends is documented in ``docs/tag.md``.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import rjsmin

from tagcrawl.core.version import __version__
from tagcrawl.engine.vendors import CATALOG
from tagcrawl.engine.vendors.model import library_load


TEMPLATE = Path(__file__).with_name("template.js")
MARKS = ("__TAGCRAWL_VERSION__", "__TAGCRAWL_VENDORS__", "__TAGCRAWL_DICTIONARY__")
SHORT_MAX_AGE_S = 300
IMMUTABLE_MAX_AGE_S = 365 * 24 * 3600

#: Separators of the vendor table: vendors, patterns, fields, list items.
VENDOR_SEP, PATTERN_SEP, FIELD_SEP, ITEM_SEP = "\n", "\t", "\x1f", "\x1e"
#: Frequent strings of the vendor table, sent as the control characters of
#: :data:`CODES` (the tag expands them first).  Any list is correct; this one
#: was chosen greedily (most bytes saved first) for the current catalog.
DICTIONARY = (".com", "event", "json:", "(?:", "[0-9]+", "^/", "[0-9a-fA-F]{", "p:", "[a-z", "nalytics", "ixel",
              "[A-Za-z", "at", "/?$", "er", "on", "\\.", "^|/)", "in", "]+", "track", "0-9", "en", "ag",
              ".mboxes.0.name", "et")
#: \x01-\x1d without tab, newline and carriage return (the template's regex lists the same).
CODES = tuple(chr(c) for c in (*range(1, 9), 11, 12, *range(14, 30)))

#: ``(?:^|\.)(?:a\.com|b\.net)$`` (what ``vendors.model.host_re`` builds) is sent as ``a.com|b.net``.
_DOMAIN = r"[a-z0-9-]+(?:\\\.[a-z0-9-]+)*"
_HOST_LIST = re.compile(rf"^\(\?:\^\|\\\.\)\(\?:({_DOMAIN}(?:\|{_DOMAIN})*)\)\$$")
_PLAIN = re.compile(r"^[a-z0-9.|-]+$")


@dataclass(frozen=True)
class RenderedTag:
    """The served script: ``body`` (UTF-8), its ``gzipped`` copy, ``digest``
    (12 hex of its SHA-256: ETag and ``?v=``) and ``version`` (``mv``)."""

    body: bytes
    gzipped: bytes
    digest: str
    version: str


# --- the vendor table ------------------------------------------------------------------

def _host(regex: str | None) -> str:
    if not regex:
        return ""
    found = _HOST_LIST.match(regex)
    if found:
        return found.group(1).replace("\\.", ".")
    return f"(?:{regex})" if _PLAIN.match(regex) or regex == "=" else regex


def _checked(value: str) -> str:
    reserved = (VENDOR_SEP, PATTERN_SEP, FIELD_SEP, ITEM_SEP, "\r", "`", "${", *CODES)
    if any(r in value for r in reserved) or value.endswith("\\"):
        raise ValueError(f"vendor catalog value {value!r} holds a character that the tag's table reserves")
    return value


def vendor_table(catalog=CATALOG) -> str:
    """The catalog's request shapes as the tag's table (catalog order, uncompressed).

    One line per vendor: ``name TAB pattern TAB pattern ...``.  A pattern's
    fields (``\\x1f`` between them, trailing empty ones dropped) are those of
    :class:`tagcrawl.engine.vendors.model.Pattern`: host, path, require (``spec,
    regex, spec, regex ...``), events (source specs), embedded, split; list
    items are separated by ``\\x1e``.  The host is empty (any host), ``=`` (the
    previous pattern's), a ``|`` list of domains (each with its subdomains)
    or a regex.  Library loads (:func:`library_load`) are left out, and so
    are account ids: the tag sends the decoded parameters (``dt``), the
    crawler validates ids.  Every regex of the catalog is JavaScript-compatible
    (``engine/vendors/model.py``).

    Raises:
        ValueError: a catalog value holds a reserved character.
    """
    lines = []
    for vendor in catalog:
        rows, previous = [], None
        for pattern in vendor.patterns:
            if library_load(pattern.path) or getattr(pattern, "config", False):  # no events there
                continue
            host = _checked(_host(pattern.host))
            lists = ([part for pair in pattern.require for part in pair], pattern.events, pattern.embedded)
            fields = ["=" if host and host == previous else host, _checked(pattern.path or ""),
                      *(ITEM_SEP.join(map(_checked, items)) for items in lists), _checked(pattern.split or "")]
            previous = host
            while fields and not fields[-1]:
                fields.pop()
            rows.append(FIELD_SEP.join(fields))
        if rows:
            lines.append(PATTERN_SEP.join([_checked(vendor.name), *rows]))
    return VENDOR_SEP.join(lines)


def compress(table: str) -> str:
    """Replace each :data:`DICTIONARY` string, in order, by its code (see :func:`expand`)."""
    for code, text in zip(CODES, DICTIONARY):
        table = table.replace(text, code)
    return table


def expand(packed: str) -> str:
    """What the tag does first: each code back to its dictionary string (one pass)."""
    codes = dict(zip(CODES, DICTIONARY))
    return "".join(codes.get(char, char) for char in packed)


# --- minifying the template ------------------------------------------------------------

#: In rjsmin's output: a string, template or regex literal (left as it is), an
#: identifier (a name the short names must not shadow), or a ``$`` local of the
#: tag; a name after ``.`` is a property (but not after ``...``, a spread).  A regex literal there follows a punctuator (rjsmin drops the spaces);
#: the template holds no ``$name`` inside a regex literal.
_SCAN = re.compile(r"""
    (?P<literal> "(?:[^"\\\n]|\\.)*" | '(?:[^'\\\n]|\\.)*' | `(?:[^`\\]|\\.)*`
      | (?<=[(,=:\[!&|?{};+\-*%<>~^])/(?![/*])(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]* )
  | (?<![\w$])(?:(?<=\.\.\.)|(?<!\.))(?P<local>\$[A-Za-z_][\w$]*)
  | (?<![\w$])(?:(?<=\.\.\.)|(?<!\.))(?P<word>[A-Za-z_][\w$]*)
""", re.VERBOSE)
_RESERVED = frozenset("do if in of as is".split())


def _short_names(used: set[str]):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for name in [*letters, *(a + b for a in letters for b in letters + "0123456789_")]:
        if name not in used and name not in _RESERVED:
            yield name


def minify(source: str) -> str:
    """Minify the template: rjsmin drops comments and the spaces and line breaks
    that are not needed; then every ``$name`` (a variable of the tag, never a
    property) is renamed to a short name that no other identifier uses, most
    frequent first."""
    packed = rjsmin.jsmin(source)
    found = [m for m in _SCAN.finditer(packed) if not m.group("literal")]
    words = {m.group("word") for m in found if m.group("word")}
    counts: dict[str, int] = {}
    for match in found:
        if match.group("local"):
            counts[match.group("local")] = counts.get(match.group("local"), 0) + 1
    names = dict(zip(sorted(counts, key=lambda t: (-counts[t], t)), _short_names(words)))
    return _SCAN.sub(lambda m: names.get(m.group("local"), m.group(0)) if m.group("local") else m.group(0),
                     packed) + "\n"


# --- rendering and serving -------------------------------------------------------------

def render(catalog=CATALOG, template: str | None = None) -> RenderedTag:
    """Render the tag (uncached; see :func:`rendered`)."""
    source = minify(template if template is not None else TEMPLATE.read_text(encoding="utf-8"))
    if any(source.count(mark) != 1 for mark in MARKS):
        raise ValueError("the tag template must hold each placeholder exactly once")
    slots = [""] * (ord(CODES[-1]) + 1)
    for code, text in zip(CODES, DICTIONARY):
        slots[ord(code)] = json.dumps(text)
    source = (source.replace(MARKS[2], "[" + ",".join(slots) + "]")
              .replace(MARKS[1], compress(vendor_table(catalog))))
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    version = f"{__version__}+{digest}"
    body = source.replace(MARKS[0], version).encode()
    return RenderedTag(body, gzip.compress(body, 9, mtime=0), digest, version)


@lru_cache(maxsize=1)
def rendered() -> RenderedTag:
    """The tag of this process (rendered on first use)."""
    return render()


def tag_path(immutable: bool = True) -> str:
    """Path of the script: ``/stream/tag.js?v=<hash>`` (cached a year) or ``/stream/tag.js``."""
    return f"/stream/tag.js?v={rendered().digest}" if immutable else "/stream/tag.js"
