"""marshmallow schemas for every resource of spec.md section 2.

Shared by the ``crawl`` and ``stream`` blueprints and by the OpenAPI document.
Load schemas validate request bodies; the response schemas document (and dump)
what the service returns.  Error ``type`` codes are assigned in ``errors.py``.
"""
from __future__ import annotations

import uuid

import pycountry
from marshmallow import EXCLUDE, INCLUDE, Schema, ValidationError, fields, validate

from .crawl.rules import CONDITIONS, RULE_TYPES

URL_MAX = 2048
STRING_MAX = 1024
ARRAY_MAX = 100

#: Messages raised by our own validators, mapped to their stable 422/400 type code.
MESSAGE_TYPES: dict[str, str] = {}


def _coded(message: str, type_code: str) -> str:
    MESSAGE_TYPES[message] = type_code
    return message


UUID4_MSG = _coded("Must be a version 4 UUID.", "uuid_version")
COUNTRY_MSG = _coded("Must be an ISO 3166-1 alpha-2 country code, e.g. 'DE'.", "country_code")
EMPTY_MSG = _coded("Must not be empty.", "string_too_short")
TOO_LONG_MSG = _coded("Too long.", "too_long")
DEPTH_MSG = _coded("Nested too deeply.", "too_deep")
OBJECT_ITEMS_MSG = _coded("Every item must be an object.", "dict_type")
CONDITION_MSG = _coded(f"Must be one of: {', '.join(CONDITIONS)}.", "enum")
RULE_TYPE_MSG = _coded(f"Must be one of: {', '.join(RULE_TYPES)}.", "enum")
NOT_STRING_MSG = _coded("Not a valid string.", "string_type")
_coded("Invalid input type.", "dict_type")  # marshmallow's message for a non-object nested value


def validate_uuid4(value: uuid.UUID) -> None:
    """Refuse UUIDs of other versions (a uuid1 is well-formed but not uuid4)."""
    if value.version != 4:
        raise ValidationError(UUID4_MSG)


def validate_country(value: str) -> None:
    """ISO 3166-1 alpha-2, case-insensitive (``de`` is accepted as ``DE``)."""
    if len(value) != 2 or pycountry.countries.get(alpha_2=value.upper()) is None:
        raise ValidationError(COUNTRY_MSG)


def _length(maximum: int, minimum: int | None = None):
    return validate.Length(min=minimum, max=maximum, error=TOO_LONG_MSG if minimum is None else EMPTY_MSG)


class HttpUrl(fields.Url):
    """Absolute http(s) URL, at most 2,048 characters."""

    def __init__(self, **kwargs):
        super().__init__(schemes={"http", "https"}, require_tld=False,
                         validate=validate.Length(max=URL_MAX, error=TOO_LONG_MSG), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str):
            raise ValidationError(NOT_STRING_MSG)
        return super()._deserialize(value, attr, data, **kwargs)


class OptionsSchema(Schema):
    """Spec 2.2 Options.  Every field optional and nullable."""

    class Meta:
        unknown = EXCLUDE

    screenShots = fields.Boolean(allow_none=True, load_default=False)
    byPassConsent = fields.Boolean(allow_none=True, load_default=True)
    country = fields.String(allow_none=True, load_default=None, validate=validate_country)
    proxy = fields.Boolean(allow_none=True, load_default=True)
    webhook = fields.Boolean(allow_none=True, load_default=False)


class ValidationRuleSchema(Schema):
    """Spec 2.3 ValidationRule; semantics in ``crawl/rules.py``."""

    class Meta:
        unknown = EXCLUDE

    rule_id = fields.UUID(required=True, validate=validate_uuid4)
    vendor = fields.String(required=True, validate=validate.Length(max=STRING_MAX, error=TOO_LONG_MSG))
    key = fields.String(required=True, validate=validate.Length(max=STRING_MAX, error=TOO_LONG_MSG))
    value = fields.String(required=True, validate=validate.Length(max=STRING_MAX, error=TOO_LONG_MSG))
    condition = fields.String(allow_none=True, load_default="OR",
                              validate=validate.OneOf(CONDITIONS, error=CONDITION_MSG))
    rule_type = fields.String(allow_none=True, load_default="Pixel",
                              validate=validate.OneOf(RULE_TYPES, error=RULE_TYPE_MSG))


class CrawlRequestSchema(Schema):
    """Spec 2.1 CrawlRequest.  ``session_id`` must be present; null or a uuid4."""

    class Meta:
        unknown = EXCLUDE

    url = HttpUrl(required=True)
    session_id = fields.UUID(required=True, allow_none=True, validate=validate_uuid4)
    user = fields.Dict(allow_none=True, load_default=None)
    options = fields.Nested(OptionsSchema, allow_none=True, load_default=None)
    validationRules = fields.List(fields.Nested(ValidationRuleSchema), allow_none=True,
                                  load_default=None,
                                  validate=validate.Length(max=ARRAY_MAX, error=TOO_LONG_MSG))


class ButtonAttributesSchema(Schema):
    button_text = fields.String(allow_none=True, required=True)
    consent_banner = fields.Boolean(required=True)
    error_message = fields.String(allow_none=True, required=True,
                                  validate=validate.OneOf(["recaptcha", "accessDenied"]))


class MarketingPixelSchema(Schema):
    vendor = fields.String(allow_none=True)
    account_id = fields.String(allow_none=True)
    page = fields.String(allow_none=True)


class ValidationResultSchema(Schema):
    rule_id = fields.UUID(required=True)
    success = fields.Boolean(required=True)


class ScreenShotUrlsSchema(Schema):
    screenShotBefore = fields.String(required=True)
    screenShotAfter = fields.String(required=True)


class ErrorMessageSchema(Schema):
    """Spec ErrorMessage: ``{"error": true, "message": "..."}``."""

    error = fields.Boolean(required=True)
    message = fields.String(required=True)


class HealthCheckResponseSchema(Schema):
    status = fields.Integer(required=True)


class CrawlResponseSchema(Schema):
    """Spec 2.4 CrawlResponse.  ``timeTaken`` is milliseconds."""

    sessionId = fields.UUID(allow_none=True)
    button = fields.Nested(ButtonAttributesSchema, allow_none=True)
    success = fields.Boolean(dump_default=False)
    marketingPixels = fields.List(fields.Nested(MarketingPixelSchema), allow_none=True)
    url = fields.String(allow_none=True)
    cookiesBefore = fields.Integer(allow_none=True)
    cookiesAfter = fields.Integer(allow_none=True)
    timeTaken = fields.Integer(allow_none=True)
    error = fields.Nested(ErrorMessageSchema, allow_none=True)
    validationResults = fields.List(fields.Nested(ValidationResultSchema), allow_none=True)
    screenShotUrls = fields.Nested(ScreenShotUrlsSchema, allow_none=True)
    message = fields.String(allow_none=True)


class HTTPValidationErrorSchema(Schema):
    """The 422 body: ``{"detail": [{"loc": [...], "msg": str, "type": str}]}``."""

    detail = fields.List(fields.Dict(), required=True)


# --------------------------------------------------------------------------
# Stream ingestion (spec 2.5): the body that the browser tag sends.
# --------------------------------------------------------------------------
from marshmallow import validates_schema  # noqa: E402  (stream section appended below the crawl schemas)

#: Caps of the stream body.  Short strings match their stored column sizes.
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


class ObjectList(_DirectValidation, fields.List):
    """An array of free-form JSON objects, capped (items, depth, sizes)."""

    def __init__(self, **kwargs):
        super().__init__(fields.Dict(error_messages={"invalid": OBJECT_ITEMS_MSG}),
                         validate=[_capped(STREAM_ARRAY_MAX), _bounded_json], **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and len(value) > STREAM_ARRAY_MAX:
            raise ValidationError(TOO_MANY_MSG)  # before validating every item
        return super()._deserialize(value, attr, data, **kwargs)


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


# --------------------------------------------------------------------------
# Response bodies of the endpoints beyond spec.md (documented in the OpenAPI
# document, see ``openapi.py``); dump-only, never used to load requests.
# --------------------------------------------------------------------------
class ValidationErrorItemSchema(Schema):
    """One entry of the 422 ``detail`` list."""

    loc = fields.List(fields.Raw(metadata={"anyOf": [{"type": "string"}, {"type": "integer"}]}), required=True)
    msg = fields.String(required=True)
    type = fields.String(required=True)


class VendorSchema(Schema):
    """One vendor of the catalog (``GET /api/v1/vendors``)."""

    key = fields.String(required=True)
    name = fields.String(required=True)
    aliases = fields.List(fields.String(), required=True)
    category = fields.String(required=True)


class CrawlSummarySchema(Schema):
    """One crawl of ``GET /api/v1/crawls``."""

    sessionId = fields.String(required=True)
    url = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["queued", "running", "done", "failed"]))
    success = fields.Boolean(required=True, allow_none=True)
    createdAt = fields.String(required=True, metadata={"format": "date-time"})


def _nullable_str(**metadata) -> fields.String:
    return fields.String(required=True, allow_none=True, metadata=metadata)


def _nullable_int() -> fields.Integer:
    return fields.Integer(required=True, allow_none=True)


class StoredEventSchema(Schema):
    """One stored event, as ``GET /api/v1/events`` lists it (``stream/events.py``)."""

    event_id = fields.String(required=True)
    customer = _nullable_str()
    received_at = fields.String(required=True, metadata={"format": "date-time"})
    event_timestamp = fields.String(required=True, metadata={"format": "date-time"})
    client_timestamp = _nullable_int()
    clock_skew_ms = _nullable_int()
    vendor = fields.String(required=True)
    vendor_name = fields.String(required=True)
    event_name = fields.String(required=True)
    domain = _nullable_str()
    host = _nullable_str()
    page_url = _nullable_str()
    page_path = _nullable_str()
    vendor_url = _nullable_str()
    http_method = _nullable_str()
    deployment_method = _nullable_str()
    tag_version = _nullable_str()
    deployment_version = _nullable_str()
    release = _nullable_str()
    environment = _nullable_str()
    container = _nullable_str()
    execution_ms = _nullable_int()
    vendor_event_id = _nullable_str()
    consent_state = _nullable_str()
    session_id = _nullable_str()
    customer_ref = _nullable_str()
    system = _nullable_str()
    details = fields.Raw(required=True, allow_none=True)
    extra = fields.Raw(required=True, allow_none=True)
    browser_family = _nullable_str()
    browser_version = _nullable_str()
    os_family = _nullable_str()
    os_version = _nullable_str()
    device_family = _nullable_str()
    is_bot = fields.Boolean(required=True, allow_none=True)
    ip_prefix = _nullable_str()
    user_agent = _nullable_str()


class EventPageSchema(Schema):
    """``GET /api/v1/events``: one page of events and the cursor of the next."""

    events = fields.List(fields.Nested(StoredEventSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


# --------------------------------------------------------------------------
# JSON that the database cannot store: refused with 422 (crawl) / 400 (stream)
# instead of failing at commit time.
# --------------------------------------------------------------------------
import math  # noqa: E402
import re as _re  # noqa: E402

UNICODE_MSG = _coded("Strings must not contain NUL characters (\\u0000) or unpaired surrogates.", "string_unicode")
_NOT_STORABLE = _re.compile("[\x00\ud800-\udfff]")


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
