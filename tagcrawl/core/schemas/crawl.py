"""Crawl side: the CrawlRequest and CrawlResponse schemas."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_dump, validate, validates_schema

from tagcrawl.core.schemas.coded import CodedSchema
from tagcrawl.core.schemas.crawl_consent import capped, kept
from tagcrawl.core.schemas.crawl_parties import StorageWriteSchema, ThirdPartyDataSchema, ThirdPartySchema
from tagcrawl.core.truncation import (LIST_MAX, MESSAGE_MAX, REDIRECTS_MAX, STORAGE_WRITES_MAX, TEXT_MAX,
                                     THIRD_PARTIES_MAX, URL_MAX)
from tagcrawl.core.schemas.crawl_consent import (ConsentItemSchema, ConsentReportSchema, CookieSchema,  # noqa: F401
                                                 GppSignalSchema, TcfSignalSchema, TcfSummarySchema)
from tagcrawl.core.schemas.crawl_pixels import (ConsentModeStateSchema, MarketingPixelSchema,  # noqa: F401
                                                PixelTcfSchema, SyncSchema)
from tagcrawl.core.schemas.common import (CONDITION_MSG, COUNTRY_PATTERN, PATH_DEPTH_MSG, RULE_TYPE_MSG, STRING_MAX, TOO_LONG_MSG,
                     CappedList, HttpUrl, StrictBoolean, validate_country, validate_uuid4)
from tagcrawl.core.types import CONDITIONS, PATH_SEGMENTS_MAX, PATTERN_MAX, RULE_TYPES, RULES_MAX, SERVICE_ERROR_CODES


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
    button_text = fields.String(allow_none=True, required=True, metadata={"description": capped(TEXT_MAX)})
    consent_banner = fields.Boolean(required=True)
    error_message = fields.String(allow_none=True, required=True,
                                  validate=validate.OneOf(["recaptcha", "accessDenied"]))


class ValidationResultSchema(Schema):
    rule_id = fields.UUID(required=True)
    success = fields.Boolean(required=True)


class ScreenShotUrlsSchema(Schema):
    """Where the two screenshots are: absolute with ``SCREENSHOT_URL`` or ``PUBLIC_URL``, else a path on this
    service (``/screenshots/<name>``); never from the request's ``Host`` (``crawl/screenshots.py``)."""

    screenShotBefore = fields.String(required=True, attribute="before")
    screenShotAfter = fields.String(required=True, attribute="after")


class ErrorMessageSchema(Schema):
    """Spec ErrorMessage: ``{"error": true, "message": "..."}``, with ``code`` when
    the service (not the page) failed (``SERVICE_ERROR_CODES``; left out otherwise)."""

    error = fields.Boolean(required=True)
    message = fields.String(required=True)
    code = fields.String(validate=validate.OneOf(SERVICE_ERROR_CODES), metadata={
        "description": "tagcrawl extension: why the service could not crawl, a stable code. With 503 "
                       "(`Retry-After`): `browser_unavailable` (no browser can be started), `grid_unreachable` "
                       "(the Selenium Grid cannot be reached or gave no session), `pool_busy` (every browser "
                       "stayed busy past the wait), `egress_unavailable` (the egress proxy could not start); "
                       "with 504: `deadline_exceeded` (the crawl deadline passed before any report). Absent on "
                       "other errors (docs/api.md, \"Status codes\")."})

    @post_dump
    def _absent(self, data, **_kwargs):
        """``code`` appears only on a service failure."""
        if data.get("code") is None:
            data.pop("code", None)
        return data


class RedirectSchema(Schema):
    """One HTTP redirect of the main document (``crawl.report.RedirectHop``)."""

    url = fields.String(required=True, metadata={"description": capped(URL_MAX, "The URL that answered with a "
                                                                                "redirect.")})
    status = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Its HTTP status (301, 302, 303, 307, 308); null when unknown."})


class HealthCheckResponseSchema(Schema):
    status = fields.Integer(required=True)


MESSAGE_DOC = (
    "A note: an unverified consent click, the error's message, a collector that failed, and what the crawl had to "
    "leave out or cut: `deadline reached while matching: 37 of 150 requests matched`, `decode budget of 16 MiB "
    "reached: …`, `deadline reached while evaluating rules: …`, `report truncated (docs/api.md): <paths>`, "
    "`answer larger than <n> bytes, shrunk: <paths>` (docs/api.md). Sentences are separated by `; `. "
    f"At most {MESSAGE_MAX} characters.")


class CrawlResponseSchema(Schema):
    """Spec 2.4 CrawlResponse.  ``timeTaken`` is milliseconds.  Dumps a
    ``crawl.report.CrawlReport`` (snake_case attributes); the fields are
    declared in the order of the JSON answer.  The whole answer is at most
    ``REPORT_MAX_BYTES`` of JSON (default 2 MiB; docs/api.md "Truncated values")."""

    sessionId = fields.UUID(allow_none=True, attribute="session_id")
    url = fields.String(allow_none=True, metadata={"description": capped(URL_MAX)})
    success = fields.Boolean(dump_default=False)
    button = fields.Nested(ButtonAttributesSchema, allow_none=True)
    marketingPixels = fields.List(fields.Nested(MarketingPixelSchema), allow_none=True, attribute="marketing_pixels",
                                  metadata={"description": kept(LIST_MAX), "maxItems": LIST_MAX})
    cookiesBefore = fields.Integer(allow_none=True, attribute="cookies_before")
    cookiesAfter = fields.Integer(allow_none=True, attribute="cookies_after")
    timeTaken = fields.Integer(allow_none=True, attribute="time_taken")
    error = fields.Nested(ErrorMessageSchema, allow_none=True)
    validationResults = fields.List(fields.Nested(ValidationResultSchema), allow_none=True,
                                    attribute="validation_results")
    screenShotUrls = fields.Nested(ScreenShotUrlsSchema, allow_none=True, attribute="screenshots")
    message = fields.String(allow_none=True, metadata={"description": MESSAGE_DOC})
    cookies = fields.List(fields.Nested(CookieSchema), allow_none=True, metadata={
        "description": kept(LIST_MAX, "Every cookie at the end, with its consent phase."), "maxItems": LIST_MAX})
    consent = fields.Nested(ConsentReportSchema, allow_none=True,
                            metadata={"description": "Consent compliance summary."})
    syncs = fields.List(fields.Nested(SyncSchema), allow_none=True, metadata={
        "description": kept(LIST_MAX, "Cookie and ID syncs between ad-tech parties (tagcrawl extension, docs/vendors.md), "
                                      "one per vendor, account id and partner: tracking, counted in `consent`, but "
                                      "never among `marketingPixels`."), "maxItems": LIST_MAX})
    pageStatus = fields.Integer(allow_none=True, attribute="page_status", metadata={
        "description": "tagcrawl extension: the HTTP status of the main document's last answer (after the "
                       "redirects); null when it never answered (DNS failure, refused, timed out with no "
                       "response). A 4xx or 5xx page is `success: false` with `error.message` `the page answered "
                       "HTTP <status>`, and its pixels and cookies are still reported (docs/api.md)."})
    finalUrl = fields.String(allow_none=True, attribute="final_url", metadata={
        "description": capped(URL_MAX, "tagcrawl extension: the URL the main document was last asked for, after "
                                       "its HTTP redirects and the page's own navigations; null when no "
                                       "request started.")})
    redirects = fields.List(fields.Nested(RedirectSchema), allow_none=True, metadata={
        "description": f"tagcrawl extension: the main document's HTTP redirect hops, in order (`[]` without "
                       f"redirects; null when no request started). At most {REDIRECTS_MAX} hops, Chrome's own "
                       f"limit; `message` names a longer chain (docs/api.md).", "maxItems": REDIRECTS_MAX})
    thirdParties = fields.List(fields.Nested(ThirdPartySchema), allow_none=True, attribute="third_parties", metadata={
        "description": kept(THIRD_PARTIES_MAX, "Every third party the page contacted or that holds a cookie, "
                                               "attributed to its organisation by third-party-web, first contacted "
                                               "first (docs/third-parties.md)."), "maxItems": THIRD_PARTIES_MAX})
    thirdPartyData = fields.Nested(ThirdPartyDataSchema, allow_none=True, attribute="third_party_data", metadata={
        "description": "The dataset behind `thirdParties`; `loaded` false: it is missing and the list is empty."})
    storage = fields.List(fields.Nested(StorageWriteSchema), allow_none=True, metadata={
        "description": kept(STORAGE_WRITES_MAX, "Every localStorage and sessionStorage write (`setItem`) of the "
                                                "page and its frames, in the order written, with the writing "
                                                "script and its organisation; never the value "
                                                "(docs/third-parties.md)."), "maxItems": STORAGE_WRITES_MAX})
    links = fields.List(fields.String(), allow_none=True, metadata={
        "description": f"tagcrawl extension, for site audits (docs/audits.md): the absolute http(s) URLs of the "
                       f"page's `<a href>` after load, in document order, distinct; at most {LIST_MAX} of at most "
                       f"2048 characters each (longer ones are skipped). Only in the crawls of audit pages: "
                       f"absent from the answers of `/api/v1/crawl` and its webhook crawls.", "maxItems": LIST_MAX})
    canonical = fields.String(allow_none=True, metadata={
        "description": capped(URL_MAX, "tagcrawl extension, for site audits (docs/audits.md): the page's "
                                       "`<link rel=canonical>` URL, absolute; null without one. Only in the "
                                       "crawls of audit pages, with `links`.")})

    @post_dump
    def _audit_only(self, data, **_kwargs):
        """``links`` and ``canonical`` appear only when the links were read (an audit page's crawl)."""
        if data.get("links") is None:
            data.pop("links", None)
            data.pop("canonical", None)
        return data


class HTTPValidationErrorSchema(Schema):
    """The 422 body: ``{"detail": [{"loc": [...], "msg": str, "type": str}]}``."""

    detail = fields.List(fields.Nested("ValidationErrorItemSchema"), required=True)
