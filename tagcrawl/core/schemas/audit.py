"""Site audits (docs/audits.md): the request body of ``POST /api/v1/audits`` and of a schedule,
shared by the web views and the CLI, and the documented answers.

Bounds (caller input, docs/security.md): ``AUDIT_URLS_MAX`` start URLs and sitemaps,
``AUDIT_GLOBS_MAX`` include/exclude globs of ``PATTERN_MAX`` characters each,
``EXPECTATIONS_MAX`` expectations, ``RULES_MAX`` validation rules; ``maxPages`` at most
``MAX_PAGES_LIMIT`` here and under the operator's cap (``audit/limits.py``) in ``audit/config.py``.
"""
from __future__ import annotations

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from tagcrawl.core.schemas.coded import Coded, CodedSchema
from tagcrawl.core.schemas.common import STRING_MAX, TOO_LONG_MSG, CappedList, HttpUrl, StrictBoolean
from tagcrawl.core.schemas.crawl import OptionsSchema, ValidationRuleSchema
from tagcrawl.core.types import PATTERN_MAX, RULES_MAX

AUDIT_URLS_MAX = 50
AUDIT_GLOBS_MAX = 50
EXPECTATIONS_MAX = 50
MAX_PAGES_LIMIT = 100_000
MAX_DEPTH_LIMIT = 20
CRON_MAX = 120
#: Python and ECMA regexes agree on it: fields are separated by single spaces, ``(?![\s\S])`` is the end.
CRON_PATTERN = r"^(?:@(?:hourly|daily|weekly|monthly|yearly|annually|midnight)|[^ ]+(?: [^ ]+){4})(?![\s\S])"
EXPECTATION_TYPES = ("vendorOnEveryPage", "noPixelBeforeConsent")
CONSENT_ACTIONS = ("accept", "reject", "none")
_PATTERN = validate.Length(max=PATTERN_MAX, error=TOO_LONG_MSG)


class ExpectationSchema(CodedSchema):
    """A site-level rule, evaluated on the report (``audit/expectations.py``).

    ``vendorOnEveryPage``: ``vendor`` (catalog key), optional ``accountId``, fired on every crawled
    page whose URL matches ``pages`` (a glob, default ``*``).  ``noPixelBeforeConsent``: no pixel
    before the visitor's choice on the pages matching ``pages``."""

    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.OneOf(EXPECTATION_TYPES))
    vendor = fields.String(load_default=None, allow_none=True,
                           validate=validate.Length(min=1, max=STRING_MAX, error=TOO_LONG_MSG))
    accountId = fields.String(load_default=None, allow_none=True,
                              validate=validate.Length(max=STRING_MAX, error=TOO_LONG_MSG))
    pages = fields.String(load_default="*", validate=_PATTERN, metadata={"description": "URL glob (rule globs)."})

    @validates_schema
    def _vendor_needed(self, data, **_kwargs):
        if data.get("type") == "vendorOnEveryPage" and not data.get("vendor"):
            raise ValidationError(Coded("vendorOnEveryPage needs a vendor.", "missing"), field_name="vendor")


class AuditRequestSchema(CodedSchema):
    """The body of ``POST /api/v1/audits`` (docs/audits.md, "The request")."""

    class Meta:
        unknown = EXCLUDE

    startUrls = CappedList(HttpUrl(), AUDIT_URLS_MAX, required=True, validate=validate.Length(
        min=1, error=Coded("At least one start URL.", "too_short")))
    sitemaps = CappedList(HttpUrl(), AUDIT_URLS_MAX, load_default=None, allow_none=True, metadata={
        "description": "Absent or null: from robots.txt `Sitemap:` lines and `/sitemap.xml`."})
    include = CappedList(fields.String(validate=_PATTERN), AUDIT_GLOBS_MAX, load_default=list, metadata={
        "description": "URL globs (as rule globs: `*`, `?`, `|`); empty: every URL."})
    exclude = CappedList(fields.String(validate=_PATTERN), AUDIT_GLOBS_MAX, load_default=list)
    maxPages = fields.Integer(load_default=500, validate=validate.Range(min=1, max=MAX_PAGES_LIMIT), metadata={
        "description": "Pages (URLs) crawled at most; also capped by the operator (`TAGCRAWL_AUDIT_MAX_PAGES`)."})
    maxDepth = fields.Integer(load_default=3, validate=validate.Range(min=0, max=MAX_DEPTH_LIMIT))
    consentActions = CappedList(fields.String(validate=validate.OneOf(CONSENT_ACTIONS)), len(CONSENT_ACTIONS),
                                load_default=lambda: ["accept"], validate=validate.Length(min=1),
                                metadata={"uniqueItems": True, "description": "Each page is crawled once per "
                                                                              "action: the consent scenarios."})
    options = fields.Nested(OptionsSchema, load_default=None, allow_none=True)
    validationRules = CappedList(fields.Nested(ValidationRuleSchema), RULES_MAX, load_default=list)
    expectations = CappedList(fields.Nested(ExpectationSchema), EXPECTATIONS_MAX, load_default=list)
    respectRobots = StrictBoolean(load_default=True)
    webhook = StrictBoolean(load_default=False, metadata={
        "description": "Post the summary to the API key's webhook when the audit ends (signed as crawls)."})

    @validates_schema
    def _distinct_actions(self, data, **_kwargs):
        actions = data.get("consentActions") or []
        if len(set(actions)) != len(actions):
            raise ValidationError(Coded("Each consent action at most once.", "value_error"),
                                  field_name="consentActions")


class AuditScheduleRequestSchema(CodedSchema):
    """The body of ``POST /api/v1/audit-schedules``: a cron expression (5 fields, UTC) and an audit body."""

    class Meta:
        unknown = EXCLUDE

    cron = fields.String(required=True, validate=[validate.Length(min=1, max=CRON_MAX), validate.Regexp(
        CRON_PATTERN, error=Coded("Not a cron expression: 5 fields, or @hourly, @daily...", "cron_invalid"))],
        metadata={"pattern": CRON_PATTERN, "description": "5 fields (minute hour day month weekday, UTC) or "
                                                         "`@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`."})
    audit = fields.Nested(AuditRequestSchema, required=True)


class AuditCreatedSchema(Schema):
    auditId = fields.String(required=True)


class AuditCountsSchema(Schema):
    discovered = fields.Integer()
    queued = fields.Integer()
    running = fields.Integer()
    done = fields.Integer()
    failed = fields.Integer()
    excluded = fields.Integer()


class AuditStatusSchema(Schema):
    """An audit's progress: ``rate`` in pages per minute, ``eta`` in seconds (null when unknown)."""

    auditId = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ["queued", "running", "done", "failed", "cancelled"]))
    pages = fields.Nested(AuditCountsSchema)
    rate = fields.Float(allow_none=True, metadata={"description": "Pages finished per minute."})
    eta = fields.Integer(allow_none=True, metadata={"description": "Seconds until every queued page is done."})
    createdAt = fields.String()
    startedAt = fields.String(allow_none=True)
    finishedAt = fields.String(allow_none=True)
    summary = fields.Dict(allow_none=True)
    error = fields.String(allow_none=True)


class AuditScheduleSchema(Schema):
    scheduleId = fields.String(required=True)
    cron = fields.String(required=True)
    nextRunAt = fields.String(required=True)
    lastAuditId = fields.String(allow_none=True)
    enabled = fields.Boolean()


class AuditShareSchema(Schema):
    htmlUrl = fields.String(required=True, metadata={"description": "The HTML report, readable without a key."})
    expiresAt = fields.String(required=True)


#: JSON Schema of what ``ExpectationSchema._vendor_needed`` checks (web/openapi.py adds it to ``Expectation``).
EXPECTATION_RULE = {"if": {"properties": {"type": {"const": "vendorOnEveryPage"}}, "required": ["type"]},
                    "then": {"required": ["vendor"], "properties": {"vendor": {"type": "string"}}}}

#: OpenAPI components of the audit resource, by name (``web/openapi.py``).
AUDIT_COMPONENTS = {
    "AuditRequest": AuditRequestSchema, "Expectation": ExpectationSchema,
    "AuditScheduleRequest": AuditScheduleRequestSchema, "AuditCreated": AuditCreatedSchema,
    "AuditCounts": AuditCountsSchema, "AuditStatus": AuditStatusSchema, "AuditSchedule": AuditScheduleSchema,
    "AuditShare": AuditShareSchema,
}
