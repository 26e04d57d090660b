"""Shared pieces of the schemas: limits, stable error type codes, validators,
fields (http(s) URLs, finite numbers, storable unicode)."""
from __future__ import annotations

import functools
import json
import math
import re
import uuid

from babel import Locale
from marshmallow import ValidationError, fields, validate

from tagcrawl.core.types import CONDITIONS, RULE_TYPES
from tagcrawl.core.schemas.coded import Coded

URL_MAX = 2048
STRING_MAX = 1024
ARRAY_MAX = 100

#: Messages raised by tagcrawl's own validators, each with its stable 422 type code.
UUID4_MSG = Coded("Must be a version 4 UUID.", "uuid_version")
COUNTRY_MSG = Coded("Must be an ISO 3166-1 alpha-2 country code, e.g. 'DE'.", "country_code")
EMPTY_MSG = Coded("Must not be empty.", "string_too_short")
TOO_LONG_MSG = Coded("Too long.", "too_long")
DEPTH_MSG = Coded("Nested too deeply.", "too_deep")
PATH_DEPTH_MSG = Coded("A dataLayer path has too many segments.", "too_deep")
OBJECT_ITEMS_MSG = Coded("Every item must be an object.", "dict_type")
CONDITION_MSG = Coded(f"Must be one of: {', '.join(CONDITIONS)}.", "enum")
RULE_TYPE_MSG = Coded(f"Must be one of: {', '.join(RULE_TYPES)}.", "enum")
NOT_STRING_MSG = Coded("Not a valid string.", "string_type")
#: The crawl body as a whole (``loc: ["body"]``).
JSON_MSG = Coded("Body is not valid JSON.", "json_invalid")
OBJECT_MSG = Coded("Body must be a JSON object.", "dict_type")


def validate_uuid4(value: uuid.UUID) -> None:
    """Refuse UUIDs of other versions (a uuid1 is well-formed but not uuid4)."""
    if value.version != 4:
        raise ValidationError(UUID4_MSG)


#: ISO 3166-1's codes that are not countries: "exceptionally reserved" (AC, CP, CQ, DG, EA, EU, EZ, FX,
#: IC, SU, TA, UK, UN) and "user-assigned" (AA, QM-QZ, XA-XZ, ZZ; Kosovo's XK is one).  CLDR's territory
#: list (babel's) has some of them besides every assigned code.
NOT_COUNTRIES = frozenset({"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "FX", "IC", "SU", "TA", "UK", "UN", "AA", "ZZ",
                           *(f"Q{c}" for c in "MNOPQRSTUVWXYZ"), *(f"X{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")})


def _country_codes() -> list[str]:
    """The officially assigned ISO 3166-1 alpha-2 codes (249 with babel 2.18): CLDR's
    two-letter territories (``babel.Locale("en").territories``; three digits are UN M.49 regions)
    less ``NOT_COUNTRIES``."""
    return sorted(code for code in Locale("en").territories
                  if len(code) == 2 and code.isalpha() and code not in NOT_COUNTRIES)


#: Every ISO 3166-1 alpha-2 code, upper case then lower case: the accepted
#: values of ``options.country``.  The document states them as ``COUNTRY_PATTERN``
#: (a ``pattern``, not an ``enum``: client generators turn enum values into
#: names, and ``AD``/``ad`` would clash).
COUNTRY_CODES = _country_codes()
COUNTRY_CODES += [code.lower() for code in COUNTRY_CODES]
COUNTRY_PATTERN = "^(?:" + "|".join(COUNTRY_CODES) + ")$"
_COUNTRY_SET = frozenset(COUNTRY_CODES)


def validate_country(value: str) -> None:
    """ISO 3166-1 alpha-2 in upper or lower case (``de`` is taken as ``DE``);
    exactly ``COUNTRY_CODES`` (``WR`` is two letters but no country)."""
    if value not in _COUNTRY_SET:
        raise ValidationError(COUNTRY_MSG)


def too_many_msg(maximum: int) -> Coded:
    """The message of an array over its cap: ``"Too many items (at most <maximum>)."``, type ``too_long``."""
    return Coded(f"Too many items (at most {maximum}).", "too_long")


class CappedList(fields.List):
    """A JSON array of at most ``maximum`` items, counted before any item is loaded.

    marshmallow's ``List`` loads every item, then runs its validators: a
    ``Length`` cap saw 60,000 ``{}`` rules only after six errors per item had
    been built (5 s, a 27 MB answer).  Here an array over the cap is refused
    with one message (``too_many_msg``) before the first item is touched; the
    document states the cap as ``maxItems``.

    Args:
        inner: the item field, as for ``fields.List``.
        maximum: the largest accepted number of items.
    """

    def __init__(self, inner, maximum: int, **kwargs):
        self.maximum = maximum
        kwargs["metadata"] = {"maxItems": maximum, **kwargs.get("metadata", {})}
        super().__init__(inner, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and len(value) > self.maximum:
            raise ValidationError(too_many_msg(self.maximum))
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Boolean):
    """A JSON boolean only: ``0``, ``1``, ``"true"`` are refused (marshmallow's
    Boolean takes them, the document says ``type: boolean``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


def _length(maximum: int, minimum: int | None = None):
    return validate.Length(min=minimum, max=maximum, error=TOO_LONG_MSG if minimum is None else EMPTY_MSG)


class HeadCachedURL(validate.URL):
    """marshmallow's absolute-URL validator, with the verdict on the URL's head memoized.

    marshmallow's pattern is ``scheme://[userinfo@]host[:port]`` followed by
    ``(?:/?|[/?#]\\S+)\\Z``; the head cannot hold ``/``, ``?`` nor ``#``, so the
    URL splits at the first of them after ``://``.  The head (few distinct
    values: the vendors' hosts, the customers' sites) goes through
    marshmallow's full check once and is remembered (``HEAD_CACHE`` entries);
    the rest is checked against the same tail pattern.  Same verdict as
    ``validate.URL`` for every input, at a fraction of the cost (its pattern
    carries large Unicode classes: 10-20 µs per URL).
    """

    HEAD_CACHE = 4096
    HEAD_MAX = 512  # longer heads are checked every time, not remembered
    _TAIL = re.compile(r"(?:/?|[/?#]\S+)\Z")
    _HEAD_END = re.compile(r"[/?#]")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._head_ok = functools.lru_cache(maxsize=self.HEAD_CACHE)(self._valid)

    def _valid(self, value: str) -> bool:
        try:
            super().__call__(value)
        except ValidationError:
            return False
        return True

    def __call__(self, value: str) -> str:
        start = value.find("://") if isinstance(value, str) else -1
        if start < 0 or self.relative:
            return super().__call__(value)
        end = self._HEAD_END.search(value, start + 3)
        head, tail = (value, "") if end is None else (value[:end.start()], value[end.start():])
        ok = (self._head_ok(head) if len(head) <= self.HEAD_MAX else self._valid(head)) and self._TAIL.match(tail)
        if not ok:
            raise ValidationError(self._format_error(value))
        return value


class HttpUrl(fields.Url):
    """Absolute http(s) URL, at most 2,048 characters (validated by ``HeadCachedURL``)."""

    def __init__(self, **kwargs):
        super().__init__(schemes={"http", "https"}, require_tld=False,
                         validate=validate.Length(max=URL_MAX, error=TOO_LONG_MSG), **kwargs)
        self.validators[0] = HeadCachedURL(relative=False, absolute=True, schemes={"http", "https"},
                                           require_tld=False, error=Coded(self.error_messages["invalid"], "url_parsing"))

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str):
            raise ValidationError(NOT_STRING_MSG)
        return super()._deserialize(value, attr, data, **kwargs)


UNICODE_MSG = Coded("Strings must not contain NUL characters (\\u0000).", "string_unicode")
_NUL = "\x00"
#: A ``\\u`` escape of a UTF-16 surrogate (U+D800-U+DFFF) in JSON text; without one, no lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def unicode_problem(value, text: str | None = None) -> str | None:
    """``UNICODE_MSG`` when a string or key anywhere in ``value`` holds U+0000
    (PostgreSQL text and jsonb cannot store it), else None.

    Args:
        value: a parsed JSON value.
        text: the JSON text it was parsed from, if known: a NUL can only come
            from a ``\\u0000`` escape, so a text without ``\\u`` is not walked.
    Bound: one iterative walk of ``value`` (sized by the body cap of the caller).
    """
    if text is not None and "\\u" not in text:
        return None
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if _NUL in node:
                return UNICODE_MSG
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
    return None


def _replaced(text: str) -> str:
    return _LONE_SURROGATE.sub(REPLACEMENT, text) if _LONE_SURROGATE.search(text) else text


def replace_lone_surrogates(value, text: str | None = None):
    """``value`` with every lone surrogate in its strings and keys replaced by U+FFFD.

    JSON may escape half of a UTF-16 pair (``"\\ud83d"``: a JavaScript
    string cut in the middle of an emoji, which ``JSON.stringify`` writes
    so); ``json.loads`` joins real pairs, so any surrogate left is alone.
    UTF-8 (and PostgreSQL) cannot hold one: it becomes U+FFFD, as a
    browser's UTF-8 encoder and the URL standard do.  Two keys of one object
    that differ only there become one key (the later value wins, as for a
    repeated key in JSON).

    Args:
        value: a parsed JSON value; lists and dicts are changed in place.
        text: the JSON text it was parsed from, if known: without a
            surrogate escape in it, ``value`` is returned as it is, not walked.
    Returns:
        ``value`` (a new string when ``value`` itself is a string).
    Bound: one iterative walk (no recursion), sized by the body cap of the caller.
    """
    if text is not None and ("\\u" not in text or not _SURROGATE_ESCAPE.search(text)):
        return value
    if isinstance(value, str):
        return _replaced(value)
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if any(_LONE_SURROGATE.search(key) for key in node):
                pairs = list(node.items())
                node.clear()
                node.update((_replaced(key), item) for key, item in pairs)
            slots = node.items()
        elif isinstance(node, list):
            slots = enumerate(node)
        else:
            continue
        for slot, item in list(slots):
            if isinstance(item, str):
                if _LONE_SURROGATE.search(item):
                    node[slot] = _replaced(item)
            elif isinstance(item, (dict, list)):
                stack.append(item)
    return value


def finite_float(text: str) -> float:
    """``parse_float`` for ``json.loads``: a number too large for a double
    (``1e400``) raises ValueError instead of becoming ``inf``, which is not JSON."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def strict_json_loads(text: str):
    """``json.loads`` that refuses what the database cannot store as JSON:
    ``NaN``/``Infinity`` and numbers out of a double's range (ValueError).
    Deep nesting still raises RecursionError."""
    return json.loads(text, parse_constant=_refuse_constant, parse_float=finite_float)
