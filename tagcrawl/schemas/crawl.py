"""Crawl side, spec 2.1-2.4: the CrawlRequest and CrawlResponse schemas."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

from .coded import CodedSchema
from .common import (CONDITION_MSG, COUNTRY_PATTERN, PATH_DEPTH_MSG, RULE_TYPE_MSG, STRING_MAX, TOO_LONG_MSG,
                     HttpUrl, StrictBoolean, validate_country, validate_uuid4)
from ..types import CONDITIONS, PATH_SEGMENTS_MAX, PATTERN_MAX, RULE_TYPES, RULES_MAX


class OptionsSchema(CodedSchema):
    """Spec 2.2 Options.  Every field optional and nullable."""

    class Meta:
        unknown = EXCLUDE

    screenShots = StrictBoolean(allow_none=True, load_default=False)
    byPassConsent = StrictBoolean(allow_none=True, load_default=True)
    country = fields.String(allow_none=True, load_default=None, validate=validate_country,
                            metadata={"pattern": COUNTRY_PATTERN})
    proxy = StrictBoolean(allow_none=True, load_default=True)
    webhook = StrictBoolean(allow_none=True, load_default=False)


class ValidationRuleSchema(CodedSchema):
    """Spec 2.3 ValidationRule; semantics in ``crawl/rules.py``."""

    class Meta:
        unknown = EXCLUDE

    rule_id = fields.UUID(required=True, validate=validate_uuid4)
    vendor = fields.String(required=True, validate=validate.Length(max=STRING_MAX, error=TOO_LONG_MSG))
    # key and value are patterns (or a dataLayer path): PATTERN_MAX characters.
    key = fields.String(required=True, validate=validate.Length(max=PATTERN_MAX, error=TOO_LONG_MSG))
    value = fields.String(required=True, validate=validate.Length(max=PATTERN_MAX, error=TOO_LONG_MSG))
    condition = fields.String(allow_none=True, load_default="OR",
                              validate=validate.OneOf(CONDITIONS, error=CONDITION_MSG))
    rule_type = fields.String(allow_none=True, load_default="Pixel",
                              validate=validate.OneOf(RULE_TYPES, error=RULE_TYPE_MSG))

    @validates_schema
    def _path_depth(self, data, **_kwargs):
        """A DataLayer ``key`` has at most PATH_SEGMENTS_MAX dotted segments."""
        if data.get("rule_type") == "DataLayer" and str(data.get("key", "")).count(".") >= PATH_SEGMENTS_MAX:
            raise ValidationError(PATH_DEPTH_MSG, field_name="key")


class CrawlRequestSchema(CodedSchema):
    """Spec 2.1 CrawlRequest.  ``session_id`` must be present; null or a uuid4."""

    class Meta:
        unknown = EXCLUDE

    url = HttpUrl(required=True)
    session_id = fields.UUID(required=True, allow_none=True, validate=validate_uuid4)
    user = fields.Dict(allow_none=True, load_default=None)
    options = fields.Nested(OptionsSchema, allow_none=True, load_default=None)
    validationRules = fields.List(fields.Nested(ValidationRuleSchema), allow_none=True,
                                  load_default=None,
                                  validate=validate.Length(max=RULES_MAX, error=TOO_LONG_MSG))


class ButtonAttributesSchema(Schema):
    button_text = fields.String(allow_none=True, required=True)
    consent_banner = fields.Boolean(required=True)
    error_message = fields.String(allow_none=True, required=True,
                                  validate=validate.OneOf(["recaptcha", "accessDenied"]))


class MarketingPixelSchema(Schema):
    vendor = fields.String(allow_none=True)
    account_id = fields.String(allow_none=True, metadata={
        "description": "The account id exactly as the page sent it (well-formed ids in canonical form, "
                       "e.g. `AW-` prefix); null when no request of this vendor on the page carried one."})
    page = fields.String(allow_none=True)
    warnings = fields.List(fields.String(), metadata={
        "description": "Why the account id is unusual for the vendor (tagcrawl extension, issue 19); empty when it "
                       "looks normal. Sentences: `account id has <n> characters; <ids> have <m>`, `account id lacks "
                       "the \"<prefix>\" prefix of <ids>`, `account id does not match the format of <ids> (example: "
                       "<id>)`, `account id looks like a placeholder`, `account id looks like a test id`, `account id "
                       "is longer than 200 characters; truncated` (docs/vendors.md).",
        "example": ["account id has 18 characters; TikTok pixel codes have 20"]})


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

    detail = fields.List(fields.Nested("ValidationErrorItemSchema"), required=True)
