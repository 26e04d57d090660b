"""Crawl side: the consent parts of a CrawlResponse (cookies, the consent
report, the CMP signals; the pixels are ``crawl_pixels.py``).  Values a page supplies are capped
(``tagcrawl/core/truncation.py``, ``crawl/report_caps.py``; docs/api.md "Truncated
values"): each description says its cap."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from tagcrawl.core.truncation import (CONSENT_STRING_MAX, GPP_PARSED_DEPTH_MAX, GPP_PARSED_SECTIONS_MAX,
                                     GPP_PARSED_STRING_MAX, GPP_SECTION_VALUES_MAX, LIST_MAX, SECTIONS_MAX, TEXT_MAX,
                                     URL_MAX)


def capped(n: int, what: str = "") -> str:
    """The description of a page-supplied string cut at ``n`` characters."""
    return (what + " " if what else "") + (f"At most {n} characters: a longer value is cut and ends with "
                                           "`…[truncated K chars]` (docs/api.md).")


def kept(n: int, what: str = "") -> str:
    """The description of a list kept to ``n`` items."""
    return (what + " " if what else "") + (f"At most {n} items; `message` names a list that was cut "
                                           "(docs/api.md).")


PHASE = validate.OneOf(["before_consent", "after_accept", "after_reject", "no_banner"])
_PHASE_DOC = ("Consent phase in which it first appeared: `before_consent` (before the consent click, or no choice was made), "
              "`after_accept`, `after_reject` (after the consent click of that kind) or `no_banner`.")
_STATE = fields.String(allow_none=True, validate=validate.OneOf(["granted", "denied"]))


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


class CookieSchema(Schema):
    """One cookie at the end of the crawl (every domain)."""

    name = fields.String(required=True, metadata={"description": capped(TEXT_MAX)})
    domain = fields.String(required=True, metadata={"description": capped(TEXT_MAX)})
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
    """A pixel, ID sync or cookie named in a consent summary."""

    type = fields.String(required=True, validate=validate.OneOf(["pixel", "sync", "cookie"]))
    vendor = fields.String(allow_none=True)
    account_id = fields.String(allow_none=True)
    name = fields.String()
    domain = fields.String()
    recognised = fields.String(validate=validate.OneOf(["catalog", "heuristic"]), metadata={
        "description": "Present, `heuristic`, on a pixel the generic beacon detector found (absent: the catalog's)."})


class TcfSignalSchema(Schema):
    """A TC string read from a frame's `__tcfapi('getTCData')` or the `euconsent-v2` cookie."""

    source = fields.String()
    frame = fields.String(allow_none=True, metadata={"description": capped(URL_MAX, "URL of the frame.")})
    cmp_id = fields.Integer(allow_none=True)
    event_status = fields.String(allow_none=True, metadata={"description": capped(TEXT_MAX)})
    gdpr_applies = fields.Boolean(allow_none=True)
    tc_string = fields.String(allow_none=True, metadata={
        "description": capped(CONSENT_STRING_MAX, "As the page answered it (a cut one is not decoded).")})
    decoded = fields.Nested(TcfSummarySchema, allow_none=True)


class GppSignalSchema(Schema):
    """The page's GPP string (IAB Global Privacy Platform) and its sections (docs/compliance.md, "GPP")."""

    source = fields.String(metadata={"description": capped(
        TEXT_MAX, "Where the string was read: `__gpp` (a frame's `__gpp('ping')`), `cookie <name>` (a cookie whose "
                  "value is a GPP string, when no `__gpp` answered) or `pixel <vendor>` (a pixel's `gpp` parameter, "
                  "when neither).")})
    gpp_string = fields.String(allow_none=True, metadata={"description": capped(CONSENT_STRING_MAX, "The GPP string.")})
    applicable_sections = fields.List(fields.Raw(), metadata={
        "description": kept(SECTIONS_MAX, "`applicableSections` as `__gpp` answered it (a pixel's: its `gpp_sid`; "
                                          "a cookie's: empty)."), "maxItems": SECTIONS_MAX})
    sections = fields.Integer(allow_none=True, metadata={
        "description": "Section segments after the header (the `~` count); null when the string has no `DB` header."})
    us_privacy = fields.String(allow_none=True, metadata={"description": "Its uspv1 section (a US Privacy string)."})
    section_ids = fields.List(fields.Integer(), allow_none=True, metadata={
        "description": "Section ids the header names, in order (7 usnat, 8 usca, ...); null when it cannot be "
                       "read. At most 64.", "maxItems": 64})
    parsed_sections = fields.Dict(allow_none=True, metadata={
        "description": "`parsedSections` of `__gpp('ping')`: the sections the page's CMP decoded itself, by API "
                       "prefix, exactly as it answered them, bounded: at most "
                       f"{GPP_PARSED_SECTIONS_MAX} sections, {GPP_SECTION_VALUES_MAX} values each (later ones left "
                       f"out), strings and keys cut at {GPP_PARSED_STRING_MAX} characters, objects nested more than "
                       f"{GPP_PARSED_DEPTH_MAX} levels below a section null; `message` says when one was cut. Null "
                       "when the string was not read from `__gpp` or it answered none.",
        "example": {"usnat": {"Version": 1, "SaleOptOut": 2, "Gpc": False}}})
    decoded = fields.Dict(allow_none=True, metadata={
        "description": "tagcrawl's own decoding of the string, by API prefix: each US section (usnat, usca, usva, "
                       "usco, usut, usct and the other states, ids 7-27) and uspv1 as the IAB's @iabgpp/cmpapi "
                       "decodes it (`{field: value}`; 0 not applicable, then as the specifications say: e.g. "
                       "opt-outs 1 opted out, 2 did not), plus `GpcSegmentIncluded` / "
                       "`SensitiveDataConsentSegmentIncluded`; null for a section not decoded here (TCF: see `tcf`) "
                       "or malformed. Null when nothing was decoded (or the string was cut).",
        "example": {"usnat": {"Version": 1, "SaleOptOutNotice": 1, "SaleOptOut": 2, "GpcSegmentIncluded": True,
                              "Gpc": False}}})
    decode_error = fields.String(allow_none=True, metadata={
        "description": "What could not be decoded (`header: ...`, `usca: ...`, a section count that does not "
                       "match the header); null when all was."})


class StoredChoiceSchema(Schema):
    """A key the consent click wrote: the stored choice."""

    type = fields.String(validate=validate.OneOf(["cookie", "localStorage", "sessionStorage"]))
    name = fields.String(metadata={"description": "The cookie's name or the storage key (at most 200 characters)."})
    domain = fields.String(allow_none=True, metadata={"description": "The cookie's domain; null for storage."})


class ConsentReportSchema(Schema):
    """The consent compliance summary of a crawl."""

    cmp = fields.String(allow_none=True)
    action = fields.String(validate=validate.OneOf(["accept", "reject", "none"]))
    button_text = fields.String(allow_none=True, metadata={
        "description": capped(TEXT_MAX, "Label of the button whose click worked.")})
    verified = fields.Boolean(metadata={"description": "The click was verified (banner gone; for reject, a "
                                                       "refusal stored too)."})
    banner = fields.Boolean()
    violations = fields.List(fields.Nested(ConsentItemSchema), metadata={
        "description": kept(LIST_MAX, "Pixels, ID syncs and cookies first seen after the refusal."),
        "maxItems": LIST_MAX})
    before_consent = fields.List(fields.Nested(ConsentItemSchema), metadata={
        "description": kept(LIST_MAX, "Pixels, ID syncs and cookies first seen before any choice."),
        "maxItems": LIST_MAX})
    granted_before_consent = fields.List(fields.Dict(), metadata={
        "description": kept(LIST_MAX, "Google pixels whose hits claimed granted ad/analytics storage (Consent Mode) "
                                      "before any consent: `{vendor, account_id, gcs, gcd}`."), "maxItems": LIST_MAX})
    tcf = fields.List(fields.Nested(TcfSignalSchema), metadata={
        "description": kept(10, "TC strings read from each frame's `__tcfapi` and the `euconsent-v2` cookie."),
        "maxItems": 10})
    us_privacy = fields.Dict(allow_none=True, metadata={
        "description": "US Privacy string from `__uspapi` (else GPP's uspv1 section): `{string, notice, "
                       "opt_out_sale, lspa}`."})
    gpp = fields.Nested(GppSignalSchema, allow_none=True, metadata={
        "description": "GPP: from `__gpp('ping')` (with the CMP's own `parsed_sections`), else from a cookie or a "
                       "pixel's `gpp` parameter; `decoded`: its US sections decoded by tagcrawl."})
    stored_choice = fields.List(fields.Nested(StoredChoiceSchema), metadata={
        "description": "What the consent click wrote in the moment after it (from the click until the page settled): "
                       "first-party cookies and the top document's localStorage and sessionStorage keys that "
                       "appeared or changed, whatever their names, except known vendors' cookies. It is the stored "
                       "choice: it verifies the choice and is never a violation. At most 20.", "maxItems": 20})


