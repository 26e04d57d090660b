"""Crawl side, spec 2.4 (and tagcrawl's extensions): the parts of a CrawlResponse
that report pixels, cookies and consent.  Values a page supplies are capped
(``tagcrawl/core/truncation.py``, ``crawl/report_caps.py``; docs/api.md "Truncated
values"): each description says its cap."""
from __future__ import annotations

from marshmallow import Schema, fields, post_dump, validate

from tagcrawl.core.truncation import CONSENT_STRING_MAX, LIST_MAX, SECTIONS_MAX, TEXT_MAX, URL_MAX


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


class ConsentModeStateSchema(Schema):
    """Google Consent Mode v2 state of Google hits (decoded `gcs`/`gcd`)."""

    gcs = fields.String(allow_none=True, metadata={
        "description": capped(TEXT_MAX, "Raw `gcs` (`G1<ad_storage><analytics_storage>`).")})
    gcd = fields.String(allow_none=True, metadata={"description": capped(TEXT_MAX, "Raw `gcd` (one letter per signal).")})
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

    gdpr = fields.String(allow_none=True, metadata={"description": capped(TEXT_MAX)})
    gdpr_consent = fields.String(allow_none=True, metadata={"description": capped(CONSENT_STRING_MAX, "The TC string.")})
    tcf = fields.Nested(TcfSummarySchema, allow_none=True)


class MarketingPixelSchema(Schema):
    """Spec MarketingPixel (dumps ``crawl.report.MarketingPixel``); fields in answer order."""

    vendor = fields.String(allow_none=True)
    account_id = fields.String(allow_none=True, metadata={
        "description": "The account id exactly as the page sent it (well-formed ids in canonical form, "
                       "e.g. `AW-` prefix); null when no request of this vendor on the page carried one. "
                       "At most 200 characters (a longer one is cut, with a warning)."})
    page = fields.String(allow_none=True, metadata={"description": capped(URL_MAX, "URL of the frame that sent "
                                                                                   "the pixel's first hit.")})
    warnings = fields.List(fields.String(), metadata={
        "description": "Why the account id is unusual for the vendor (tagcrawl extension, issue 19); empty when it "
                       "looks normal. Sentences: `account id has <n> characters; <ids> have <m>`, `account id lacks "
                       "the \"<prefix>\" prefix of <ids>`, `account id does not match the format of <ids> (example: "
                       "<id>)`, `account id looks like a placeholder`, `account id looks like a test id`, `account id "
                       "is longer than 200 characters; truncated` (docs/vendors.md).",
        "example": ["account id has 18 characters; TikTok pixel codes have 20"], "maxItems": 20})
    consent = fields.String(validate=PHASE, metadata={"description": _PHASE_DOC + " Decided by the first hit."})
    consent_mode = fields.List(fields.Nested(ConsentModeStateSchema), metadata={
        "description": "Google pixels: each distinct Consent Mode state its hits declared, with the phase (at most "
                       "10).", "maxItems": 10})
    tcf = fields.Nested(PixelTcfSchema, metadata={"description": "TCF parameters carried by the pixel's hits."})

    @post_dump
    def _absent(self, data, **_kwargs):
        """``consent_mode`` and ``tcf`` appear only when the pixel's hits carried them."""
        for key in ("consent_mode", "tcf"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


class SyncSchema(Schema):
    """A cookie / ID sync (issue 27; dumps ``crawl.report.Sync``): the vendor's sync endpoint was called."""

    vendor = fields.String(allow_none=True, metadata={"description": capped(TEXT_MAX)})
    account_id = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "The account it carried as sent (e.g. the Adobe Audience Manager partner of "
                  "`<partner>.demdex.net/dest5.html`), null when none.")})
    partner = fields.String(metadata={"description": capped(
        TEXT_MAX, "The other party of the sync as sent (`google_nid`, `ttd_pid`); left out when unknown.")})
    page = fields.String(allow_none=True, metadata={"description": capped(URL_MAX, "URL of the frame that sent "
                                                                                   "its first hit.")})
    warnings = fields.List(fields.String(), metadata={"description": "As for a pixel: why the account id is "
                                                                     "unusual.", "maxItems": 20})
    consent = fields.String(validate=PHASE, metadata={"description": _PHASE_DOC + " Decided by the first hit."})

    @post_dump
    def _absent(self, data, **_kwargs):
        """``partner`` appears only when the sync named one."""
        if data.get("partner") is None:
            data.pop("partner", None)
        return data


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
    gpp = fields.Dict(allow_none=True, metadata={
        "description": "GPP from `__gpp('ping')`: `{gpp_string, applicable_sections, sections, us_privacy}` "
                       f"(`us_privacy`: its uspv1 section). `gpp_string` is read and reported up to {CONSENT_STRING_MAX} "
                       f"characters (a longer one ends with `…[truncated K chars]`), `applicable_sections` up to "
                       f"{SECTIONS_MAX} entries (docs/api.md)."})


