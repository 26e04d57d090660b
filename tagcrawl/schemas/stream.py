"""Stream side, spec 2.5: the body that the browser tag sends."""
from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from .common import *  # noqa: F401,F403  (limits, messages, _coded)
from .common import _coded

STREAM_NAME_MAX = 255       # vn, e, do, vid, cn, cid, s
STREAM_SHORT_MAX = 64       # dm, mv, sv, rl, env
STREAM_METHOD_MAX = 16      # m
STREAM_ARRAY_MAX = 100      # items of dt / np, and of any array inside them or in extra keys
STREAM_OBJECT_KEYS_MAX = 100  # keys of any object inside dt / np / extra keys
STREAM_FREE_STRING_MAX = 4096  # any string inside dt / np / extra keys
STREAM_KEY_MAX = 128        # length of any object key
STREAM_EXTRA_KEYS_MAX = 50  # undeclared top-level keys
STREAM_DEPTH_MAX = 8        # nesting levels of one top-level value ({"a": [1]} is 2)
STREAM_TM_MAX = 253402300799999  # 9999-12-31T23:59:59.999Z in epoch ms
STREAM_ET_MAX = 2 ** 53

TOO_MANY_MSG = _coded("Too many items.", "too_long")
EXTRA_KEYS_MSG = _coded(f"Too many undeclared keys (at most {STREAM_EXTRA_KEYS_MAX}).", "too_long")
NUMBER_MSG = _coded("Not a valid number.", "float_type")
STRING_OR_INT_MSG = _coded("Must be a string or an integer.", "string_type")
RANGE_TM_MSG = _coded(f"Must be an epoch time in milliseconds between 0 and {STREAM_TM_MAX}.", "number_invalid")
RANGE_ET_MSG = _coded(f"Must be an integer between 0 and {STREAM_ET_MAX}.", "number_invalid")


def _capped(maximum: int, minimum: int = 0):
    """Length validator: "Must not be empty." below ``minimum``, "Too long." above ``maximum``."""

    def check(value) -> None:
        if len(value) < minimum:
            raise ValidationError(EMPTY_MSG)
        if len(value) > maximum:
            raise ValidationError(TOO_LONG_MSG)

    return check


def json_bounds_problem(value) -> str | None:
    """The first cap that the free-form JSON ``value`` breaks, or None.

    Walks ``value`` iteratively (no recursion) and checks nesting depth
    (``STREAM_DEPTH_MAX``), array length (``STREAM_ARRAY_MAX``), object size
    (``STREAM_OBJECT_KEYS_MAX``), key length (``STREAM_KEY_MAX``) and string
    length (``STREAM_FREE_STRING_MAX``).  Returns one of the schema messages.
    """
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            if len(node) > STREAM_FREE_STRING_MAX:
                return TOO_LONG_MSG
            continue
        if not isinstance(node, (dict, list)):
            continue
        if depth + 1 > STREAM_DEPTH_MAX:
            return DEPTH_MSG
        if isinstance(node, list):
            if len(node) > STREAM_ARRAY_MAX:
                return TOO_MANY_MSG
            stack.extend((item, depth + 1) for item in node)
        else:
            if len(node) > STREAM_OBJECT_KEYS_MAX:
                return TOO_MANY_MSG
            if any(len(k) > STREAM_KEY_MAX for k in node):
                return TOO_LONG_MSG
            stack.extend((item, depth + 1) for item in node.values())
    return None


def _bounded_json(value) -> None:
    problem = json_bounds_problem(value)
    if problem is not None:
        raise ValidationError(problem)


class _DirectValidation:
    """Field mixin: run the validators one by one.

    Same outcome as marshmallow's default (every validator runs, their
    messages are collected), without building an ``And`` validator for every
    value, which is most of the cost of a 22-field load.
    """

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
    """A string field of the stream schema."""


class StreamUUID(_DirectValidation, fields.UUID):
    """A uuid field of the stream schema (loaded as ``uuid.UUID``)."""


class StreamInteger(_DirectValidation, fields.Integer):
    """An integer field of the stream schema."""


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
    """A JSON string or integer (not a boolean), loaded as its text."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValidationError(STRING_OR_INT_MSG)
        return str(value)


class ObjectList(fields.Field):
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


def _str(maximum: int, minimum: int = 0, **kwargs) -> StreamString:
    return StreamString(validate=_capped(maximum, minimum), **kwargs)


class StreamEventRequestSchema(Schema):
    """Spec 2.5 StreamEventRequest: the event that the browser tag sends.

    ``t``, ``vn`` and ``e`` are required; ``vid``, ``cn`` and ``cid`` may be
    null, no other field may.  Undeclared keys are kept (``unknown = INCLUDE``)
    and must respect the free-form caps; at most ``STREAM_EXTRA_KEYS_MAX`` of
    them.  Loads to a dict: ``t`` a ``uuid.UUID``, ``rl`` a str, the rest as sent.
    """

    class Meta:
        unknown = INCLUDE

    t = StreamUUID(required=True)
    vn = _str(STREAM_NAME_MAX, 1, required=True)
    e = _str(STREAM_NAME_MAX, 1, required=True)
    dm = _str(STREAM_SHORT_MAX)
    mv = _str(STREAM_SHORT_MAX)
    sv = _str(STREAM_SHORT_MAX)
    tm = JsonNumber(validate=validate.Range(min=0, max=STREAM_TM_MAX, error=RANGE_TM_MSG))
    m = _str(STREAM_METHOD_MAX)
    vu = StreamUrl()
    u = StreamUrl()
    p = _str(URL_MAX)
    dt = ObjectList()
    np = ObjectList()
    s = _str(STREAM_NAME_MAX)
    rl = StringOrInteger(validate=_capped(STREAM_SHORT_MAX))
    env = _str(STREAM_SHORT_MAX)
    do = _str(STREAM_NAME_MAX)
    et = StreamInteger(strict=True, validate=validate.Range(min=0, max=STREAM_ET_MAX, error=RANGE_ET_MSG))
    vid = _str(STREAM_NAME_MAX, allow_none=True)
    cn = _str(STREAM_NAME_MAX, allow_none=True)
    sid = StreamUUID()
    cid = _str(STREAM_NAME_MAX, allow_none=True)

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
