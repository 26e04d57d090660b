"""Query-string arguments of the list endpoints (``GET /api/v1/crawls``,
``GET /api/v1/events``), validated exactly as the OpenAPI document states them.

- ``TimeArg``: an RFC 3339 date-time (``2024-05-01T12:00:00Z``; lower-case
  ``t``/``z`` allowed, any fraction digits, ``±hh:mm`` offset), or a full date
  (``2024-05-01``, midnight UTC), or (``durations=True``) a duration back from
  now: digits and one unit of ``s m h d w`` (``90s``, ``24h``, ``7d``).
  Anything else is refused (Python's ``fromisoformat`` alone would also take
  ``20240501`` or ``2024-W18``, which the document does not describe).
- An argument the endpoint does not know is refused (400), as the document
  (no other parameters) says.
- ``StrictInt``: ASCII digits with an optional ``-`` (``int()`` would also take
  ``+5``, `` 5`` and ``5_0``), within ``minimum``.
- ``CursorArg``: ``<digits>_<digits>`` (``CURSOR_PATTERN``, at most 19 digits
  each, stated in the document): a position, range-checked when it is
  decoded (``stream/events.py``), so no value reaches the database out of
  its column's range.

A failed load raises marshmallow's ``ValidationError``; the views answer 400
ErrorMessage ``"<arg>: <message>"`` (``first_error``).
"""
from __future__ import annotations

import re
from datetime import datetime

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from tagcrawl.core.utctime import to_utc
from tagcrawl.core.schemas.coded import Coded

DATE_TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})\Z")
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
DURATION_PATTERN = "^[0-9]{1,9}[smhdw]$"
DURATION_RE = re.compile(r"[0-9]{1,9}[smhdw]\Z")
INT_RE = re.compile(r"-?[0-9]{1,4000}\Z")  # Python converts at most 4,300 digits
#: An events cursor: a position ``<µs since 1970-01-01 UTC>_<row id>`` (``stream/events.py``).  Every
#: string of this shape is a position the API accepts (out-of-range parts are clamped there).
CURSOR_PATTERN = "^-?[0-9]{1,19}_[0-9]{1,19}$"
CURSOR_RE = re.compile(r"(-?[0-9]{1,19})_([0-9]{1,19})\Z")

TIME_MSG = Coded("Must be an RFC 3339 date-time (2024-05-01T12:00:00Z) or a date (2024-05-01).", "datetime_parsing")
TIME_OR_DURATION_MSG = Coded("Must be an RFC 3339 date-time (2024-05-01T12:00:00Z), a date (2024-05-01) "
                              "or a duration back from now (24h, 7d).", "datetime_parsing")
INT_MSG = Coded("Not a valid integer.", "int_parsing")
CURSOR_MSG = Coded("Must be a cursor of this API, <microseconds>_<id> (the next_cursor of the previous page).",
                   "string_pattern_mismatch")


class TimeArg(fields.String):
    """A time query argument (see the module docstring).  Loads to the string
    as given (the endpoint parses it: durations are relative to its clock)."""

    def __init__(self, durations: bool = False, **kwargs):
        self.durations = durations
        alternatives = [{"type": "string", "format": "date-time"}, {"type": "string", "format": "date"}]
        if durations:
            alternatives.append({"type": "string", "pattern": DURATION_PATTERN})
        kwargs.setdefault("metadata", {})["anyOf"] = alternatives
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        message = TIME_OR_DURATION_MSG if self.durations else TIME_MSG
        if self.durations and DURATION_RE.match(text):
            return text
        if not (DATE_TIME_RE.match(text) or DATE_RE.match(text)):
            raise ValidationError(message)
        try:
            datetime.fromisoformat(text.upper().replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError(message) from None
        return text


class StrictInt(fields.Integer):
    """An integer query argument: optional ``-`` and ASCII digits only."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not INT_RE.match(value):
            raise ValidationError(INT_MSG)
        return super()._deserialize(value, attr, data, **kwargs)


class CursorArg(fields.String):
    """The ``cursor`` argument: a string matching ``CURSOR_PATTERN`` (at most 40 characters)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {})["pattern"] = CURSOR_PATTERN
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not CURSOR_RE.match(text):
            raise ValidationError(CURSOR_MSG)
        return text


def parse_rfc3339(text: str) -> datetime:
    """An aware UTC datetime from a ``TimeArg`` date or date-time (naive = UTC;
    before year 1 in UTC: ``datetime.min``)."""
    return to_utc(datetime.fromisoformat(text.upper().replace("Z", "+00:00")))


class CrawlListArgsSchema(Schema):
    """``GET /api/v1/crawls``: ``since`` (inclusive), ``limit`` (clamped to 1..500, default 100)."""

    class Meta:
        unknown = RAISE  # an unknown argument (a typo: ``limt``) is a 400, not silently ignored

    since = TimeArg(metadata={"description": "Inclusive: RFC 3339 date-time or date (UTC midnight)."})
    limit = StrictInt(load_default=100, metadata={"description": "At most this many (clamped to 1..500)."})


class EventListArgsSchema(Schema):
    """``GET /api/v1/events`` (see ``web/views/events.py``)."""

    class Meta:
        unknown = RAISE  # an unknown argument (a typo: ``limt``) is a 400, not silently ignored

    customer = fields.String(metadata={"description": "Customer name (one the API key is granted)."})
    domain = fields.String(metadata={"description": "Registrable domain or host."})
    vendor = fields.String(metadata={"description": "Catalog key."})
    event = fields.String(metadata={"description": "Event name."})
    since = TimeArg(durations=True, metadata={"description": "Inclusive: RFC 3339 date-time, date, or a duration "
                                                             "back from now (`24h`, `7d`)."})
    until = TimeArg(durations=True, metadata={"description": "Exclusive: as `since`."})
    limit = StrictInt(load_default=100, validate=validate.Range(min=1, error="Must be 1 or more."),
                      metadata={"description": "Page size, 1 or more (over 1000 is capped)."})
    cursor = CursorArg(metadata={"description": "`next_cursor` of the previous page: the position "
                                                "`<microseconds since 1970-01-01 UTC>_<row id>` after which the "
                                                "page starts. Any value of this form is accepted."})


def first_error(err: ValidationError) -> str:
    """``"<arg>: <message>"`` of the first problem of a query-args load."""
    name, messages = next(iter(err.messages.items()))
    message = messages[0] if isinstance(messages, list) else str(messages)
    return f"{name}: {message.rstrip('.')}"
