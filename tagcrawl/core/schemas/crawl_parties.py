"""Crawl side (tagcrawl extension, issue 27): the ``thirdParties`` list of a
CrawlResponse, the dataset behind it and the ``storage`` writes (``engine/parties``;
docs/third-parties.md).  Strings and lists are capped like the rest of the
answer (``core/truncation.py``, docs/api.md "Truncated values")."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from tagcrawl.core.schemas.crawl_consent import PHASE, capped, kept
from tagcrawl.core.truncation import STORAGE_KEY_MAX, TEXT_MAX, THIRD_PARTY_DOMAINS_MAX, URL_MAX

#: third-party-web 0.30.0's categories.
CATEGORIES = ("ad", "analytics", "cdn", "consent-provider", "content", "customer-success", "hosting", "marketing",
              "other", "social", "tag-manager", "utility", "video")


class ThirdPartySchema(Schema):
    """One third party of the page: a third-party-web entity, or an unknown registrable domain."""

    organisation = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "The organisation (third-party-web's `company`, else its entity name); null when the dataset "
                  "does not know the domain.")})
    entity = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "third-party-web's entity (product) name, e.g. `Google Analytics`; null when unknown.")})
    category = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "third-party-web's category (" + ", ".join(f"`{c}`" for c in CATEGORIES) + "; a newer "
                  "dataset may add others); null when unknown.")})
    domains = fields.List(fields.String(), metadata={
        "description": kept(THIRD_PARTY_DOMAINS_MAX, "Registrable domains contacted or holding its cookies, first "
                                                     f"seen first; each at most {TEXT_MAX} characters."),
        "maxItems": THIRD_PARTY_DOMAINS_MAX})
    requests = fields.Integer(metadata={"description": "Requests the page sent to it (Chrome's own excluded)."})
    cookies = fields.Integer(metadata={"description": "Cookies of its domains at the end of the crawl."})
    phase = fields.String(allow_none=True, validate=PHASE, metadata={
        "description": "Consent phase of its first request (`before_consent`, `after_accept`, `after_reject`, "
                       "`no_banner`); null when it only holds cookies."})
    identifier = fields.Boolean(metadata={
        "description": "A request to it carried an account id (read by the catalog or the generic beacon "
                       "detector)."})
    storageWrites = fields.Integer(attribute="storage_writes", metadata={
        "description": "localStorage and sessionStorage writes (`setItem`) by scripts served from its hosts "
                       "(the `storage` list; at most 500 writes are counted per crawl)."})


class StorageWriteSchema(Schema):
    """One localStorage or sessionStorage write of the page or a frame, attributed to the writing script."""

    area = fields.String(validate=validate.OneOf(["local", "session"]), metadata={
        "description": "`local` (localStorage) or `session` (sessionStorage)."})
    key = fields.String(metadata={"description": capped(STORAGE_KEY_MAX, "The key written.")})
    bytes = fields.Integer(metadata={"description": "UTF-8 size of the value written, in bytes (the value itself "
                                                    "is never reported)."})
    script = fields.String(allow_none=True, metadata={"description": capped(
        URL_MAX, "URL of the script that wrote it (the first frame of its stack; an inline script names its "
                 "document); null when the stack named none.")})
    thirdParty = fields.Boolean(attribute="third_party", metadata={
        "description": "The script's host is a third party of the page (docs/third-parties.md)."})
    organisation = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "The script host's organisation (third-party-web), null when unknown.")})
    entity = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "third-party-web's entity of the script's host, null when unknown.")})
    category = fields.String(allow_none=True, metadata={"description": capped(
        TEXT_MAX, "third-party-web's category of that entity, null when unknown.")})
    phase = fields.String(validate=PHASE, metadata={
        "description": "Consent phase of the write (`before_consent`, `after_accept`, `after_reject`, "
                       "`no_banner`)."})


class ThirdPartyDataSchema(Schema):
    """The dataset that attributed ``thirdParties``."""

    source = fields.String(validate=validate.OneOf(["third-party-web"]))
    version = fields.String(allow_none=True, metadata={"description": "The installed version (npm/package.json "
                                                                      "pins it), null when unknown."})
    loaded = fields.Boolean(metadata={
        "description": "False when the dataset is not installed or cannot be read: `thirdParties` is then empty "
                       "(the service logs a warning; docs/third-parties.md)."})
