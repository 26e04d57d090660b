"""Stream side: the body that the browser tag sends (docs/stream.md, "Request fields").

Each field names the ``stream_events`` column it fills (``stored_as``); the
stream's normalizer copies the fields from these names (``stream/normalize.py``)."""
from __future__ import annotations

import uuid

from marshmallow import INCLUDE, Schema, ValidationError, fields, missing, validate, validates_schema

from tagcrawl.core.schemas.common import *  # noqa: F401,F403  (limits, messages)
from tagcrawl.core.schemas.stream_limits import *  # noqa: F401,F403  (stream caps, messages, Capped, json_bounds_problem)
from tagcrawl.core.schemas.stream_limits import _bounded_json

#: Returned by a field's ``quick`` for a value it leaves to marshmallow's full load.
SLOW = object()


def stored_as(column: str | None, *, copied: bool = True) -> dict:
    """Field metadata naming the ``stream_events`` column (``models.StreamEvent``)
    that a request field fills: ``{"column": column, "copied": copied}``.

    Args:
        column: the column's name; None for a field stored in no column of its own.
        copied: True when the column holds the value as the schema loads it
            (``normalize.COPIED``); False when ``stream/normalize.py`` converts it.
    The OpenAPI document leaves these keys out (apispec keeps only JSON Schema
    keywords and ``x-`` extensions)."""
    return {"column": column, "copied": copied}


class _DirectValidation:
    """Field mixin: run the validators one by one, and the quick path of a field.

    ``_validate`` has the same outcome as marshmallow's default (every
    validator runs, their messages are collected), without building an
    ``And`` validator for every value.

    ``quick(value)`` is what ``Field.deserialize`` does for a present, non-null
    value (the field's own ``_deserialize``, then its validators), without
    marshmallow's per-field bookkeeping: the loaded value, or :data:`SLOW`
    when the field refuses the value (``StreamEventRequestSchema.load`` then
    says why).  Subclasses may check the common case faster, giving the same
    result (tests/unit/test_stream_body.py compares them with ``load``).
    """

    def quick(self, value):
        try:
            loaded = self._deserialize(value, None, None)
            self._validate(loaded)
        except ValidationError:
            return SLOW
        return loaded

    def _validate(self, value) -> None:
        errors: list = []
        for validator in self.validators:
            try:
                validator(value)
            except ValidationError as err:
                errors.extend(err.messages if isinstance(err.messages, list) else [err.messages])
        if errors:
            raise ValidationError(errors)


class StreamString(_DirectValidation, fields.String):
    """A string field of the stream schema, ``minimum`` to ``maximum`` characters.

    Args:
        maximum, minimum: length bounds (``Capped``); other keyword arguments
            go to ``fields.String``.
    """

    def __init__(self, maximum: int, minimum: int = 0, **kwargs):
        self.cap = Capped(maximum, minimum)
        # The document states the bounds (``Capped`` is not a validator apispec knows).
        kwargs["metadata"] = {"maxLength": maximum, **({"minLength": minimum} if minimum else {}),
                              **kwargs.get("metadata", {})}
        super().__init__(validate=self.cap, **kwargs)

    def quick(self, value):
        if type(value) is str and self.cap.minimum <= len(value) <= self.cap.maximum:
            return value  # the cap is the only validator
        return SLOW


class StreamUUID(_DirectValidation, fields.UUID):
    """A uuid field of the stream schema (loaded as ``uuid.UUID``)."""

    def quick(self, value):
        if type(value) is not str or self.validators:
            return super().quick(value)
        try:
            return uuid.UUID(value)  # what fields.UUID does with a string
        except ValueError:
            return SLOW


def canonical_token(value) -> str | None:
    """The one spelling of the ingestion token ``t``, or None when ``value`` is not a token.

    ``StreamUUID`` (``uuid.UUID``) accepts a token in upper or lower case,
    with or without hyphens, in braces and with a ``urn:uuid:`` prefix; all
    these spellings are one token, and this gives its canonical text
    (lower-case, hyphenated: ``str(uuid.UUID(value))``).  The stream rate
    limit keys on it, so 30 spellings share one bucket.

    Args:
        value: ``t`` as sent (any JSON value); its length is bounded by the
            stream body cap (``STREAM_MAX_BYTES``), and ``uuid.UUID`` is linear in it.
    Returns:
        e.g. ``"6f1c...-..."`` (36 characters), or None for a non-string or
        a string that ``uuid.UUID`` refuses.
    """
    if type(value) is not str:
        return None
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None


def _integral(value):
    """``value`` as an int when it is a JSON integer: an int, or a float with no
    fraction (JSON Schema counts ``255.0`` as an integer); else ``value``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class StreamInteger(_DirectValidation, fields.Integer):
    """An integer field of the stream schema (``255.0`` is the integer 255)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(_integral(value), attr, data, **kwargs)


class StreamUrl(_DirectValidation, HttpUrl):
    """An absolute http(s) URL of the stream schema, at most 2,048 characters."""


class JsonNumber(_DirectValidation, fields.Field):
    """A JSON number (int or float, not a boolean nor a numeric string), finite."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
                or value in (float("inf"), float("-inf")):
            raise ValidationError(NUMBER_MSG)
        return value


class StringOrInteger(_DirectValidation, fields.Field):
    """A JSON string or integer (not a boolean; ``7.0`` is the integer 7), loaded as its text."""

    def _deserialize(self, value, attr, data, **kwargs):
        value = _integral(value)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValidationError(STRING_OR_INT_MSG)
        return str(value)


class ObjectList(_DirectValidation, fields.Field):
    """An array of free-form JSON objects, capped (items, depth, sizes).

    Errors, in this order: "Not a valid list." (not an array), "Too many
    items." (over ``STREAM_ARRAY_MAX``), ``{index: ["Every item must be an
    object."]}`` (reported as ``dt.0``), then the first cap of
    ``json_bounds_problem`` that the array breaks.  The items are kept as
    sent (JSON parsing already made them plain dicts).
    """

    default_error_messages = {"invalid": "Not a valid list."}

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise self.make_error("invalid")
        if len(value) > STREAM_ARRAY_MAX:
            raise ValidationError(TOO_MANY_MSG)  # before looking at every item
        not_objects = {i: [OBJECT_ITEMS_MSG] for i, item in enumerate(value) if not isinstance(item, dict)}
        if not_objects:
            raise ValidationError(not_objects)
        _bounded_json(value)
        return value


class StreamEventRequestSchema(Schema):
    """StreamEventRequest: the event that the browser tag sends (docs/stream.md, "Request fields").

    ``t``, ``vn`` and ``e`` are required; ``vid``, ``cn`` and ``cid`` may be
    null, no other field may.  Undeclared keys are kept (``unknown = INCLUDE``)
    and must respect the free-form caps; at most ``STREAM_EXTRA_KEYS_MAX`` of
    them.  Loads to a dict: ``t`` a ``uuid.UUID``, ``rl`` a str, the rest as sent.

    ``quick_load`` gives ``load``'s result for a body that every check
    accepts, at a third of its cost, and None otherwise.
    """

    class Meta:
        unknown = INCLUDE

    t = StreamUUID(required=True, metadata=stored_as(None))  # names the customer: customer_id
    vn = StreamString(STREAM_NAME_MAX, 1, required=True, metadata=stored_as("vendor_name"))
    e = StreamString(STREAM_NAME_MAX, 1, required=True, metadata=stored_as("event_name"))
    dm = StreamString(STREAM_SHORT_MAX, metadata=stored_as("deployment_method"))
    mv = StreamString(STREAM_SHORT_MAX, metadata=stored_as("tag_version"))
    sv = StreamString(STREAM_SHORT_MAX, metadata=stored_as("deployment_version"))
    tm = JsonNumber(validate=validate.Range(min=0, max=STREAM_TM_MAX, error=RANGE_TM_MSG),
                    metadata=stored_as("client_timestamp", copied=False))  # integer ms; also the event time
    m = StreamString(STREAM_METHOD_MAX, metadata=stored_as("http_method", copied=False))  # upper case
    vu = StreamUrl(metadata=stored_as("vendor_url"))
    u = StreamUrl(metadata=stored_as("page_url"))
    p = StreamString(URL_MAX, metadata=stored_as("page_path", copied=False))  # else the path of u
    dt = ObjectList(metadata=stored_as("details"))
    np = ObjectList(metadata=stored_as(None))  # never stored
    s = StreamString(STREAM_NAME_MAX, metadata=stored_as("system"))
    rl = StringOrInteger(validate=Capped(STREAM_SHORT_MAX), metadata=stored_as("release"))
    env = StreamString(STREAM_SHORT_MAX, metadata=stored_as("environment"))
    do = StreamString(STREAM_NAME_MAX, metadata=stored_as("container"))
    et = StreamInteger(strict=True, validate=validate.Range(min=0, max=STREAM_ET_MAX, error=RANGE_ET_MSG),
                       metadata=stored_as("execution_ms"))
    vid = StreamString(STREAM_NAME_MAX, allow_none=True, metadata=stored_as("vendor_event_id"))
    cn = StreamString(STREAM_CN_MAX, allow_none=True, metadata=stored_as("consent_state"))
    sid = StreamUUID(metadata=stored_as("session_id", copied=False))  # canonical text
    cid = StreamString(STREAM_NAME_MAX, allow_none=True, metadata=stored_as("customer_ref"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.load_fields.items():
            if field.data_key is not None or field.attribute is not None or field.load_default is not missing:
                raise TypeError(f"{name}: quick_load reads a field under its own name, with no default")
        self._quick_plan = tuple((name, field.quick, field.required, field.allow_none)
                                 for name, field in self.load_fields.items())

    def quick_load(self, data: dict) -> dict | None:
        """``load(data)`` for a valid event, without marshmallow's bookkeeping.

        Runs each field's own checks (``quick``) in schema order, keeps the
        undeclared keys, then the schema check on them (``_check_extra``).

        Args:
            data: a parsed JSON object.
        Returns:
            the dict that ``load(data)`` returns, or None when any check
            fails: ``load`` then raises the ValidationError that names the field.
        """
        loaded = {}
        for name, quick, required, allow_none in self._quick_plan:
            value = data.get(name, missing)
            if value is missing:
                if required:
                    return None
            elif value is None:
                if not allow_none:
                    return None
                loaded[name] = None
            else:
                value = quick(value)
                if value is SLOW:
                    return None
                loaded[name] = value
        if len(data) != len(loaded):  # undeclared keys
            for key, value in data.items():
                if key not in self.load_fields:
                    loaded[key] = value
            try:
                self._check_extra(loaded, data)
            except ValidationError:
                return None
        return loaded

    @validates_schema(pass_original=True)
    def _check_extra(self, data, original, **kwargs):
        """Caps on the undeclared keys (kept as the record's ``extra``)."""
        extra = [key for key in original if key not in self.load_fields]
        if len(extra) > STREAM_EXTRA_KEYS_MAX:
            raise ValidationError(EXTRA_KEYS_MSG, "_schema")
        errors = {}
        for key in extra:
            problem = TOO_LONG_MSG if len(key) > STREAM_KEY_MAX else json_bounds_problem(original[key])
            if problem is not None:
                errors[key] = [problem]
        if errors:
            raise ValidationError(errors)
