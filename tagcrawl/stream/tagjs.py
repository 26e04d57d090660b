"""``GET /stream/tag.js``: the browser tag, rendered from the vendor catalog.

The script is ``tag_template.js`` with two placeholders filled in once per
process: the tag's version (``mv``) and the catalog's URL patterns
(:func:`tagcrawl.vendors.browser_patterns`, compacted by :func:`compact_vendors`),
so the tag and the crawler share one list of vendors.  :func:`minify` drops
comments and white space and shortens the tag's local (``$``) names.

Caching: ``ETag`` is the content hash (``<hash>-gz`` for the gzip copy) and ``mv`` is ``<__version__>+<hash>``.
``/stream/tag.js`` is cached 5 minutes (``public, max-age=300``);
``/stream/tag.js?v=<hash>`` (see :func:`tag_path`) is immutable for a year.
A gzip copy is served to clients that accept it.  ``Access-Control-Allow-Origin: *``.
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

from flask import Blueprint, Response, request

from .. import __version__
from ..vendors import browser_patterns

bp = Blueprint("stream_tag", __name__, url_prefix="/stream")

TEMPLATE = Path(__file__).with_name("tag_template.js")
VERSION_MARK = "__TAGCRAWL_VERSION__"
VENDORS_MARK = "__TAGCRAWL_VENDORS__"
SHORT_MAX_AGE_S = 300
IMMUTABLE_MAX_AGE_S = 365 * 24 * 3600

#: ``(?:^|\.)(?:a\.com|b\.net)$`` (what ``vendors.model.host_re`` builds) is sent as ``a.com|b.net``.
_HOST_LIST = re.compile(r"^\(\?:\^\|\\\.\)\(\?:((?:[a-z0-9-]+(?:\\\.[a-z0-9-]+)*)(?:\|[a-z0-9-]+(?:\\\.[a-z0-9-]+)*)*)\)\$$")
_PLAIN = re.compile(r"^[a-z0-9.|-]+$")
#: Separators of the tag's vendor table (see :func:`compact_vendors`).
SEPARATORS = "\n\t~"


@dataclass(frozen=True)
class RenderedTag:
    """The served script: ``body`` (UTF-8), its ``gzipped`` copy, ``digest``
    (12 hex of its SHA-256: ETag and ``?v=``) and ``version`` (``mv``)."""

    body: bytes
    gzipped: bytes
    digest: str
    version: str


def _top_level_alternation(regex: str) -> bool:
    depth, i = 0, 0
    while i < len(regex):
        char = regex[i]
        if char == "\\":
            i += 2
            continue
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
        i += 1
    return False


def library_load(pattern: dict) -> bool:
    """True for a pattern that only matches script files (``...\\.js$``).

    The tag reports hits (beacons, pixels, API calls); loading a vendor's
    library is not an event, and scripts are not among the requests the tag
    observes, so these patterns are left out of the script.
    """
    path = pattern.get("path") or ""
    return bool(re.search(r"\\\.js\)?\$$", path)) and not _top_level_alternation(path)


def _host(regex: str | None) -> str:
    """"" (any host), a plain ``a.com|b.net`` list, or a regex source."""
    if not regex:
        return ""
    found = _HOST_LIST.match(regex)
    if found:
        return found.group(1).replace("\\.", ".")
    return f"(?:{regex})" if _PLAIN.match(regex) else regex


def _field(value: str, what: str, forbidden: str = SEPARATORS) -> str:
    if any(char in value for char in forbidden) or "`" in value or "${" in value or value.endswith("\\"):
        raise ValueError(f"vendor catalog {what} {value!r} holds a character the tag's table reserves")
    return value


def _pairs(mapping: dict, what: str) -> str:
    return "&".join(f"{_field(k, what, SEPARATORS + '&=')}={_field(v, what, SEPARATORS + '&')}"
                    for k, v in mapping.items())


def compact_vendors(patterns: list[dict]) -> str:
    """``browser_patterns()`` as the tag's table (a string, in catalog order).

    Vendors are separated by newlines: ``name TAB pattern TAB pattern ...``;
    a pattern is ``host~path~require~require_body~event_param`` without
    trailing empty fields.  ``host`` is empty (any host: first-party), ``=``
    (the previous pattern's host), a ``|``-separated list of domains (each
    matched with its subdomains) or a regex source; ``require`` and
    ``require_body`` are ``name=regex&name=regex``.  Library loads
    (:func:`library_load`) are left out.  Account ids are not in the table:
    the tag sends the decoded parameters (``dt``) and leaves id validation to
    the crawler's matcher.

    Raises:
        ValueError: a catalog value holds a reserved character (newline, tab,
            ``~``, a backtick, ``${``, or ``&``/``=`` in a require pair).
    """
    vendors: dict[str, list[str]] = {}
    previous: dict[str, str] = {}
    for pattern in patterns:
        if library_load(pattern):
            continue
        name = _field(pattern["name"], "name")
        host = _field(_host(pattern["host"]), "host")
        fields = ["=" if host and previous.get(name) == host else host, _field(pattern["path"] or "", "path"),
                  _pairs(pattern["require"], "require"), _pairs(pattern["require_body"], "require_body"),
                  _field(pattern["event_param"] or "", "event_param")]
        previous[name] = host
        while fields and not fields[-1]:
            fields.pop()
        vendors.setdefault(name, []).append("~".join(fields))
    return "\n".join("\t".join([name, *rows]) for name, rows in vendors.items())


_WORD = re.compile(r"[A-Za-z0-9_$]")
_PUNCTUATORS = sorted("""=== !== ... => == != <= >= && || ?? ?. ++ -- += -= *= /= %= &= |= ^= << >> >>>
    { } ( ) [ ] ; , < > + - * / % & | ^ ! ~ ? : = . @""".split(), key=len, reverse=True)
#: After these tokens a ``/`` starts a regex literal (else it divides).
_REGEX_AFTER = frozenset("""( , = : [ ! & | ? { } ; + - * % < > ~ ^ => && || ?? == === != !== += -=
    return typeof case do else in of new delete void throw""".split())
#: A line break next to these tokens is never needed (no automatic semicolon can depend on it).
_NO_BREAK_AFTER = frozenset("{ ( [ , ; : = => && || ?? ? + - * ! . += -= === !== == != < > <= >= |".split())
_NO_BREAK_BEFORE = frozenset("} ) ] , ; : . ? && || ?? = => === !== == != + * ?.".split())
_RESERVED = frozenset("do if in of as is".split())


def _tokens(source: str) -> list[tuple[str, bool]]:
    """``(token, line break before it)`` for the template's JavaScript.

    Enough of a tokenizer for a template written for it: strings, template
    literals without ``${``, regex literals (told from division by the
    previous token), comments, words and punctuators.
    """
    out: list[tuple[str, bool]] = []
    i, size, brk, prev = 0, len(source), False, None
    while i < size:
        char = source[i]
        if char in " \t\r\n":
            brk, i = brk or char == "\n", i + 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = size if end < 0 else end
            continue
        if source.startswith("/*", i):
            end = source.index("*/", i + 2)
            brk, i = brk or "\n" in source[i:end], end + 2
            continue
        if char in "\"'`" or (char == "/" and (prev is None or prev in _REGEX_AFTER)):
            j, in_class = i + 1, False
            while source[j] != char or in_class:
                if source[j] == "\n" and char != "`":
                    raise ValueError(f"unterminated literal at offset {i}")
                if source[j] == "\\":
                    j += 1
                elif char == "/" and source[j] in "[]":
                    in_class = source[j] == "["
                j += 1
            j += 1
            while char == "/" and j < size and _WORD.match(source[j]):
                j += 1
        elif _WORD.match(char):
            j = i
            while j < size and _WORD.match(source[j]):
                j += 1
        else:
            j = i + len(next(p for p in _PUNCTUATORS if source.startswith(p, i)))
        prev = source[i:j]
        out.append((prev, brk))
        i, brk = j, False
    return out


def _short_names(used: set[str]):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for name in [*letters, *(a + b for a in letters for b in letters + "0123456789_")]:
        if name not in used and name not in _RESERVED:
            yield name


def minify(source: str) -> str:
    """Minify the template: no comments, no spaces or line breaks that are not
    needed, and every ``$name`` (a local of the tag, never a property) renamed
    to a short name that no other identifier of the source uses."""
    tokens = _tokens(source)
    words = {t for t, _ in tokens if _WORD.match(t[0]) and not t[0].isdigit()}
    counts: dict[str, int] = {}
    for token, _ in tokens:
        if token.startswith("$"):
            counts[token] = counts.get(token, 0) + 1
    names = dict(zip(sorted(counts, key=lambda t: (-counts[t], t)), _short_names(words)))
    out: list[str] = []
    prev = None
    for index, (token, brk) in enumerate(tokens):
        if token.startswith("$") and not (index and tokens[index - 1][0] in (".", "?.")):
            token = names[token]
        if prev is not None:
            if brk and prev not in _NO_BREAK_AFTER and token not in _NO_BREAK_BEFORE:
                out.append("\n")
            elif (_WORD.match(prev[-1]) and _WORD.match(token[0])) or (prev[-1] in "+-" and token[0] == prev[-1]):
                out.append(" ")
        out.append(token)
        prev = token
    return "".join(out) + "\n"


def render(patterns: list[dict] | None = None, template: str | None = None) -> RenderedTag:
    """Render the tag (no caching; see :func:`rendered`).

    Args:
        patterns: ``browser_patterns()`` (default) or a test's own list.
        template: the template source (default: ``tag_template.js``).
    """
    source = minify(template if template is not None else TEMPLATE.read_text(encoding="utf-8"))
    data = compact_vendors(browser_patterns() if patterns is None else patterns)
    if source.count(VENDORS_MARK) != 1 or source.count(VERSION_MARK) != 1:
        raise ValueError("tag template must hold each placeholder exactly once")
    source = source.replace(VENDORS_MARK, data)
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    version = f"{__version__}+{digest}"
    body = source.replace(VERSION_MARK, version).encode()
    return RenderedTag(body, gzip.compress(body, 9, mtime=0), digest, version)


@lru_cache(maxsize=1)
def rendered() -> RenderedTag:
    """The tag of this process (rendered on first use)."""
    return render()


def tag_path(immutable: bool = True) -> str:
    """Path of the script: ``/stream/tag.js?v=<hash>`` (cache for a year) or ``/stream/tag.js``."""
    return f"/stream/tag.js?v={rendered().digest}" if immutable else "/stream/tag.js"


@bp.route("/tag.js", methods=["GET", "HEAD"])
def tag_js():
    """The browser tag.  ``?v=`` equal to the current hash makes the answer immutable."""
    tag = rendered()
    immutable = request.args.get("v") == tag.digest
    cache = (f"public, max-age={IMMUTABLE_MAX_AGE_S}, immutable" if immutable
             else f"public, max-age={SHORT_MAX_AGE_S}")
    use_gzip = "gzip" in (request.headers.get("Accept-Encoding") or "").lower()
    response = Response(tag.gzipped if use_gzip else tag.body, mimetype="application/javascript")
    if use_gzip:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{tag.digest}-gz" if use_gzip else tag.digest)
    response.headers.update({"Cache-Control": cache, "Access-Control-Allow-Origin": "*",
                             "X-Content-Type-Options": "nosniff", "X-Tag-Version": tag.version})
    return response.make_conditional(request)
