"""Crawl side, spec 2.1-2.4: the CrawlRequest and CrawlResponse schemas."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_dump, validate, validates_schema

from .coded import CodedSchema
from .common import (CONDITION_MSG, COUNTRY_PATTERN, PATH_DEPTH_MSG, RULE_TYPE_MSG, STRING_MAX, TOO_LONG_MSG,
                     CappedList, HttpUrl, StrictBoolean, validate_country, validate_uuid4)
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
    consentAction = fields.String(
        allow_none=True, load_default=None, validate=validate.OneOf(["accept", "reject", "none"]),
        metadata={"enum": ["accept", "reject", "none", None],
                  "description": "What to do with a consent banner: `accept`, `reject` (the refuse button, through "
                                 "a second layer if needed) or `none` (report it, click nothing). Absent or null: "
                                 "`byPassConsent` true means `accept`, false means `none`."})


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
    validationRules = CappedList(fields.Nested(ValidationRuleSchema), RULES_MAX, allow_none=True, load_default=None)


class ButtonAttributesSchema(Schema):
    button_text = fields.String(allow_none=True, required=True)
    consent_banner = fields.Boolean(required=True)
    error_message = fields.String(allow_none=True, required=True,
                                  validate=validate.OneOf(["recaptcha", "accessDenied"]))


PHASE = validate.OneOf(["before_consent", "after_accept", "after_reject", "no_banner"])
_PHASE_DOC = ("Consent phase in which it first appeared: `before_consent` (before the consent click, or no choice was made), "
              "`after_accept`, `after_reject` (after the consent click of that kind) or `no_banner`.")
_STATE = fields.String(allow_none=True, validate=validate.OneOf(["granted", "denied"]))


class ConsentModeStateSchema(Schema):
    """Google Consent Mode v2 state of Google hits (decoded `gcs`/`gcd`)."""

    gcs = fields.String(allow_none=True, metadata={"description": "Raw `gcs` (`G1<ad_storage><analytics_storage>`)."})
    gcd = fields.String(allow_none=True, metadata={"description": "Raw `gcd` (one letter per signal)."})
    ad_storage = _STATE
    analytics_storage = _STATE
    ad_user_data = _STATE
    ad_personalization = _STATE
    phase = fields.String(validate=PHASE)


class TcfSummarySchema(Schema):
    """A decoded IAB TCF v2 TC string (core segment)."""

    cmp_id = fields.Integer()
    cmp_version = fields.Integer()
    policy_version = fields.Integer()
    vendor_list_version = fields.Integer()
    purposes = fields.List(fields.Integer(), metadata={"description": "Purpose ids with consent."})
    legitimate_interests = fields.List(fields.Integer())
    special_features = fields.List(fields.Integer())
    vendors = fields.List(fields.Integer(), metadata={"description": "Vendor ids with consent (first 200)."})
    vendor_count = fields.Integer()
    created = fields.String(metadata={"format": "date-time"})
    last_updated = fields.String(metadata={"format": "date-time"})


class PixelTcfSchema(Schema):
    """The `gdpr` / `gdpr_consent` parameters a pixel carried."""

    gdpr = fields.String(allow_none=True)
    gdpr_consent = fields.String(allow_none=True)
    tcf = fields.Nested(TcfSummarySchema, allow_none=True)


class MarketingPixelSchema(Schema):
    """Spec MarketingPixel (dumps ``crawl.report.MarketingPixel``); fields in answer order."""

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
    consent = fields.String(validate=PHASE, metadata={"description": _PHASE_DOC + " Decided by the first hit."})
    consent_mode = fields.List(fields.Nested(ConsentModeStateSchema), metadata={
        "description": "Google pixels: each distinct Consent Mode state its hits declared, with the phase."})
    tcf = fields.Nested(PixelTcfSchema, metadata={"description": "TCF parameters carried by the pixel's hits."})

    @post_dump
    def _absent(self, data, **_kwargs):
        """``consent_mode`` and ``tcf`` appear only when the pixel's hits carried them."""
        for key in ("consent_mode", "tcf"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


class CookieSchema(Schema):
    """One cookie at the end of the crawl (every domain)."""

    name = fields.String(required=True)
    domain = fields.String(required=True)
    party = fields.String(required=True, validate=validate.OneOf(["first", "third"]),
                          metadata={"description": "By registrable domain, against the crawled URL."})
    session = fields.Boolean(required=True)
    expires = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    phase = fields.String(required=True, validate=PHASE, metadata={"description": _PHASE_DOC})
    vendor = fields.String(required=True, allow_none=True,
                           metadata={"description": "Vendor whose well-known cookie name it is."})
    stores_consent = fields.Boolean(metadata={"description": "The CMP stored the visitor's choice in it (never a "
                                                             "violation)."})


class ConsentItemSchema(Schema):
    """A pixel or cookie named in a consent summary."""

    type = fields.String(required=True, validate=validate.OneOf(["pixel", "cookie"]))
    vendor = fields.String(allow_none=True)
    account_id = fields.String(allow_none=True)
    name = fields.String()
    domain = fields.String()


class TcfSignalSchema(Schema):
    """A TC string read from a frame's `__tcfapi('getTCData')` or the `euconsent-v2` cookie."""

    source = fields.String()
    frame = fields.String(allow_none=True)
    cmp_id = fields.Integer(allow_none=True)
    event_status = fields.String(allow_none=True)
    gdpr_applies = fields.Boolean(allow_none=True)
    tc_string = fields.String(allow_none=True)
    decoded = fields.Nested(TcfSummarySchema, allow_none=True)


class ConsentReportSchema(Schema):
    """The consent compliance summary of a crawl."""

    cmp = fields.String(allow_none=True)
    action = fields.String(validate=validate.OneOf(["accept", "reject", "none"]))
    button_text = fields.String(allow_none=True, metadata={"description": "Label of the button whose click worked."})
    verified = fields.Boolean(metadata={"description": "The click was verified (banner gone; for reject, a "
                                                       "refusal stored too)."})
    banner = fields.Boolean()
    violations = fields.List(fields.Nested(ConsentItemSchema),
                             metadata={"description": "Pixels and cookies first seen after the refusal."})
    before_consent = fields.List(fields.Nested(ConsentItemSchema),
                                 metadata={"description": "Pixels and cookies first seen before any choice."})
    granted_before_consent = fields.List(fields.Dict(), metadata={
        "description": "Google pixels whose hits claimed granted ad/analytics storage (Consent Mode) before any "
                       "consent: `{vendor, account_id, gcs, gcd}`."})
    tcf = fields.List(fields.Nested(TcfSignalSchema))
    us_privacy = fields.Dict(allow_none=True, metadata={
        "description": "US Privacy string from `__uspapi` (else GPP's uspv1 section): `{string, notice, "
                       "opt_out_sale, lspa}`."})
    gpp = fields.Dict(allow_none=True, metadata={
        "description": "GPP from `__gpp('ping')`: `{gpp_string, applicable_sections, sections, us_privacy}` "
                       "(`us_privacy`: its uspv1 section)."})


class ValidationResultSchema(Schema):
    rule_id = fields.UUID(required=True)
    success = fields.Boolean(required=True)


class ScreenShotUrlsSchema(Schema):
    """Where the two screenshots are: absolute with ``SCREENSHOT_URL`` or ``PUBLIC_URL``, else a path on this
    service (``/screenshots/<name>``); never from the request's ``Host`` (``crawl/screenshots.py``)."""

    screenShotBefore = fields.String(required=True, attribute="before")
    screenShotAfter = fields.String(required=True, attribute="after")


class ErrorMessageSchema(Schema):
    """Spec ErrorMessage: ``{"error": true, "message": "..."}``."""

    error = fields.Boolean(required=True)
    message = fields.String(required=True)


class HealthCheckResponseSchema(Schema):
    status = fields.Integer(required=True)


class CrawlResponseSchema(Schema):
    """Spec 2.4 CrawlResponse.  ``timeTaken`` is milliseconds.  Dumps a
    ``crawl.report.CrawlReport`` (snake_case attributes); the fields are
    declared in the order of the JSON answer."""

    sessionId = fields.UUID(allow_none=True, attribute="session_id")
    url = fields.String(allow_none=True)
    success = fields.Boolean(dump_default=False)
    button = fields.Nested(ButtonAttributesSchema, allow_none=True)
    marketingPixels = fields.List(fields.Nested(MarketingPixelSchema), allow_none=True, attribute="marketing_pixels")
    cookiesBefore = fields.Integer(allow_none=True, attribute="cookies_before")
    cookiesAfter = fields.Integer(allow_none=True, attribute="cookies_after")
    timeTaken = fields.Integer(allow_none=True, attribute="time_taken")
    error = fields.Nested(ErrorMessageSchema, allow_none=True)
    validationResults = fields.List(fields.Nested(ValidationResultSchema), allow_none=True,
                                    attribute="validation_results")
    screenShotUrls = fields.Nested(ScreenShotUrlsSchema, allow_none=True, attribute="screenshots")
    message = fields.String(allow_none=True)
    cookies = fields.List(fields.Nested(CookieSchema), allow_none=True,
                          metadata={"description": "Every cookie at the end, with its consent phase."})
    consent = fields.Nested(ConsentReportSchema, allow_none=True,
                            metadata={"description": "Consent compliance summary."})


class HTTPValidationErrorSchema(Schema):
    """The 422 body: ``{"detail": [{"loc": [...], "msg": str, "type": str}]}``."""

    detail = fields.List(fields.Nested("ValidationErrorItemSchema"), required=True)
