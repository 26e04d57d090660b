"""Shared pieces of the schemas: limits, stable error type codes, validators,
fields (http(s) URLs, finite numbers, storable unicode)."""
from __future__ import annotations

import functools
import json
import math
import re
import uuid

import pycountry
from marshmallow import ValidationError, fields, validate

from ..types import CONDITIONS, RULE_TYPES
from .coded import Coded

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


#: Every ISO 3166-1 alpha-2 code, upper case then lower case: the accepted
#: values of ``options.country``.  The document states them as ``COUNTRY_PATTERN``
#: (a ``pattern``, not an ``enum``: client generators turn enum values into
#: names, and ``AD``/``ad`` would clash).
COUNTRY_CODES = sorted(c.alpha_2 for c in pycountry.countries)
COUNTRY_CODES += [code.lower() for code in COUNTRY_CODES]
COUNTRY_PATTERN = "^(?:" + "|".join(COUNTRY_CODES) + ")$"
_COUNTRY_SET = frozenset(COUNTRY_CODES)


def validate_country(value: str) -> None:
    """ISO 3166-1 alpha-2 in upper or lower case (``de`` is taken as ``DE``);
    exactly ``COUNTRY_CODES`` (``WR`` is two letters but no country)."""
    if value not in _COUNTRY_SET:
        raise ValidationError(COUNTRY_MSG)


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


UNICODE_MSG = Coded("Strings must not contain NUL characters (\\u0000) or unpaired surrogates.", "string_unicode")
_NOT_STORABLE = re.compile("[\x00\ud800-\udfff]")


def unicode_problem(value, text: str | None = None) -> str | None:
    """``UNICODE_MSG`` when a string or key anywhere in ``value`` holds U+0000
    or a lone surrogate (neither can be stored in PostgreSQL text or jsonb,
    nor encoded as UTF-8), else None.

    Args:
        value: a parsed JSON value.
        text: the JSON text it was parsed from, if known: both can only come
            from ``\\u`` escapes, so a text without one is not walked.
    """
    if text is not None and "\\u" not in text:
        return None
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if _NOT_STORABLE.search(node):
                return UNICODE_MSG
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
    return None


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
