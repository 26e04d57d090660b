"""Crawl side: the pixel parts of a CrawlResponse (``marketingPixels`` and
``syncs``, with their Consent Mode and TCF readings).  Values a page supplies
are capped (``tagcrawl/core/truncation.py``, ``crawl/report_caps.py``;
docs/api.md "Truncated values"): each description says its cap."""
from __future__ import annotations

from marshmallow import Schema, fields, post_dump, validate

from tagcrawl.core.schemas.crawl_consent import _PHASE_DOC, _STATE, PHASE, TcfSummarySchema, capped
from tagcrawl.core.truncation import CONSENT_STRING_MAX, TEXT_MAX, URL_MAX


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
        "description": "Why the account id is unusual for the vendor (tagcrawl extension, docs/vendors.md); empty when it "
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
    recognised = fields.String(validate=validate.OneOf(["catalog", "heuristic"]), metadata={
        "description": "`catalog`: a catalog entry matched its requests; `heuristic`: the generic beacon detector "
                       "found a beacon no catalog entry describes (vendor: the third-party-web entity, else the "
                       "domain; account id: the identifier stable across its requests; docs/third-parties.md)."})
    organisation = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "third-party-web's organisation of the host of its first request; null when unknown.")})

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
