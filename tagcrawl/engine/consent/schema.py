"""The file formats of the consent rules, as marshmallow schemas: one CMP per
file (``cmps/<slug>.json``, ``CmpSchema``) and one language per file
(``words/<lang>.json``, ``WordsSchema``).

Every key is named; a key the schema does not know is refused (marshmallow's
``unknown = RAISE``), so a misspelt ``"rejcet"`` fails the load instead of
silently dropping the refusal path.  Each field's ``description`` is the
documentation: ``tools/cmp_table.py`` writes the rule syntax of
docs/consent.md from it.  Bounds (the files are the repository's own data,
still checked before use): ``MAX_ITEMS`` entries per list, ``MAX_TEXT``
characters per string.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

#: Entries per list of a rule file (selectors, globals, cookie names, words).
MAX_ITEMS = 200
#: Characters per string of a rule file.
MAX_TEXT = 2048
_TEXT = validate.Length(min=1, max=MAX_TEXT)


def _texts(description: str, *, required: bool = True, min_items: int = 0) -> fields.List:
    """A list of non-empty strings (at most ``MAX_ITEMS`` of ``MAX_TEXT`` characters)."""
    optional = {} if required else {"load_default": list}
    return fields.List(fields.String(validate=_TEXT), required=required, validate=validate.Length(min=min_items,
                       max=MAX_ITEMS), metadata={"description": description}, **optional)


@dataclass(frozen=True)
class FrameRules:
    """A CMP's rules inside its own cross-site iframe documents (host suffixes
    ``hosts``; there the banner is the whole document)."""

    hosts: tuple[str, ...] = ()
    accept: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    save: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cmp:
    """One known CMP, as its file ``cmps/<slug>.json`` declares it (the
    field meanings are the schema's descriptions, docs/consent.md)."""

    slug: str
    name: str
    priority: int
    selectors: tuple[str, ...]
    globals: tuple[str, ...]
    accept: tuple[str, ...]
    reject: tuple[str, ...]
    settings: tuple[str, ...]
    save: tuple[str, ...]
    cookies: tuple[str, ...]
    storage: tuple[str, ...]
    frames: FrameRules = FrameRules()
    comment: str | None = None
    fixture: dict | None = field(default=None, compare=False)

    def scanner_rule(self) -> dict:
        """The shape ``scan.js`` reads: ``{name, selectors, globals, accept,
        reject, settings, save, frames: {hosts, accept, reject, settings, save}}``."""
        keys = ("accept", "reject", "settings", "save")
        return {"name": self.name, "selectors": list(self.selectors), "globals": list(self.globals),
                **{k: list(getattr(self, k)) for k in keys},
                "frames": {k: list(getattr(self.frames, k)) for k in ("hosts", *keys)}}


class DetectSchema(Schema):
    """``detect``: how the CMP is recognised."""

    selectors = _texts("CSS selectors of its banner (or of the container of its iframe), searched in the document, "
                       "its open shadow roots and the closed ones the page hooks recorded; the first one shown wins "
                       "(after a \"Settings\" click, one not shown before). Only markup specific to this CMP: a "
                       "bare `#cookie-notice` is any site's banner, `#cookie-notice:has(#cn-notice-text)` is Cookie "
                       "Notice's", min_items=1)
    globals = _texts("JS globals its script defines (dotted paths allowed): name the CMP when the text heuristic "
                     "found its banner (only when exactly one CMP's globals are present; `__tcfapi`, `__uspapi`, "
                     "`__gpp` and `__cmp` never name one). Only names specific to this CMP: `CookieConsent` is "
                     "Cookiebot's, vanilla-cookieconsent's and cookie-consent-js's global, `Cookiebot` is "
                     "Cookiebot's alone", min_items=1)


class FramesSchema(Schema):
    """``frames``: the CMP's own cross-site iframe documents."""

    hosts = _texts("host suffixes of its iframe documents; in such a document the banner is the whole document",
                   min_items=1)
    accept = _texts("accept-all selectors in its iframe documents", min_items=1)
    reject = _texts("reject-all selectors in its iframe documents", required=False)
    settings = _texts("selectors of the button that opens its second layer, in its iframe documents", required=False)
    save = _texts("second-layer save selectors in its iframe documents", required=False)


class FixtureSchema(Schema):
    """``fixture``: the test page of the CMP (read by the tests only)."""

    script = fields.String(required=True, validate=_TEXT, metadata={
        "description": "the CMP's real script URL: the fixture web answers it with `emulate.js` drawing "
                       "`tests/support/web/cmps/<slug>.html` on `https://cmp-<slug>.example/`"})
    accept = fields.String(required=True, validate=_TEXT,
                           metadata={"description": "selector of the accept button in the markup (wired by the emulation)"})
    accept_text = fields.String(required=True, validate=_TEXT,
                                metadata={"description": "the button label the crawl must report"})
    cookies = fields.Dict(keys=fields.String(validate=_TEXT), values=fields.String(validate=validate.Length(max=MAX_TEXT)),
                          load_default=dict, validate=validate.Length(max=MAX_ITEMS),
                          metadata={"description": "cookies the emulation writes on accept, name -> value"})
    storage = fields.Dict(keys=fields.String(validate=_TEXT), values=fields.String(validate=validate.Length(max=MAX_TEXT)),
                          load_default=dict, validate=validate.Length(max=MAX_ITEMS),
                          metadata={"description": "localStorage entries the emulation writes on accept, key -> value"})
    mount = fields.String(load_default="body", validate=validate.OneOf(["body", "shadow", "frame"]), metadata={
        "description": "`body`, `shadow` (a declarative `<template shadowrootmode>` becomes a shadow root) or `frame` "
                       "(the markup after the `<!-- frame document -->` line is the iframe's document)"})
    frame = fields.String(load_default=None, validate=_TEXT,
                          metadata={"description": "URL of the CMP's iframe document (`mount: frame`)"})
    tcf_cmp_id = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=1, max=4095),
                                metadata={"description": "the emulation also implements the IAB TCF API with this CMP id"})
    hide = fields.String(load_default="remove", validate=validate.OneOf(["remove", "hide"]),
                         metadata={"description": "how the banner closes: `remove` its DOM or `hide` it (display none)"})

    @validates_schema
    def _frame_mount(self, data, **_kwargs):
        if (data.get("mount") == "frame") != (data.get("frame") is not None):
            raise ValidationError("a frame URL goes with mount \"frame\", and only there", "frame")


class CmpSchema(Schema):
    """One CMP file, ``cmps/<slug>.json``."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=100),
                         metadata={"description": "reported as the CMP (`consent.cmp`); unique"})
    priority = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=1_000_000), metadata={
        "description": "match order, unique: where two CMPs' banners are shown, the lower number wins"})
    comment = fields.String(load_default=None, validate=_TEXT, metadata={"description": "a note for maintainers"})
    detect = fields.Nested(DetectSchema, required=True,
                           metadata={"description": "`{selectors, globals}`: how the CMP is recognised"})
    accept = _texts("accept-all selectors, best first, searched inside the banner first, then in the whole "
                    "document; empty (generated class names): the button is found by its label inside the banner")
    reject = _texts("reject-all selectors (`options.consentAction: \"reject\"`); empty: found by its label "
                    "(`words/*.json` `reject`)")
    settings = _texts("selectors of the button that opens the second layer, clicked when no reject button is shown")
    save = _texts("second-layer \"Save\"/\"Confirm\" selectors, clicked when it has no reject button; its "
                  "toggles that are on (not the locked \"necessary\" ones) are switched off first")
    frames = fields.Nested(FramesSchema, load_default=None, metadata={
        "description": "`{hosts, accept, reject, settings, save}` for a CMP drawn in its own cross-site iframe"})
    cookies = _texts("names (or prefixes) of the cookies it writes to store the choice: verify the click")
    storage = _texts("names (or prefixes) of the localStorage entries it writes to store the choice")
    fixture = fields.Nested(FixtureSchema, load_default=None,
                            metadata={"description": "its test page (below); every CMP has one"})

    @post_load
    def _make(self, data, **_kwargs) -> dict:
        frames = data.pop("frames") or {}
        detect = data.pop("detect")
        data["frames"] = FrameRules(**{k: tuple(v) for k, v in frames.items()})
        data["selectors"], data["globals"] = tuple(detect["selectors"]), tuple(detect["globals"])
        for key in ("accept", "reject", "settings", "save", "cookies", "storage"):
            data[key] = tuple(data[key])
        return data


class WordsSchema(Schema):
    """One language file, ``words/<lang>.json``.  A label is compared after
    normalisation (lower case, accents, punctuation and emoji removed); a word
    matches at the start of a word of the label (anywhere, for Chinese,
    Japanese and Korean)."""

    language = fields.String(required=True, validate=validate.Length(min=1, max=100),
                             metadata={"description": "the language's English name, for the documentation"})
    accept = _texts("accept-button labels: a button matches when its *whole* label is one of them, so "
                    "\"Accept offer\" never matches \"accept\"", min_items=1)
    reject = _texts("refusal words (\"reject\", \"continue without\", and the \"accept only necessary\" phrasing: "
                    "\"necessary\", Turkish \"sadece zorunlu\"): a label containing one refuses, even one that also "
                    "says \"accept\"; never clicked when accepting")
    save = _texts("second-layer buttons that store the current (refused) choices; never also a reject word")
    settings = _texts("buttons that open the second layer (settings, manage, more information); never clicked "
                      "when accepting")
    paywall = _texts("subscribe, pay, buy, offers, sign up, log in: never clicked")
    policy = _texts("links to policies: never clicked")
    age = _texts("age-gate buttons (\"I am over 18\"): never clicked")
    consent = _texts("the heuristic clicks only in a fixed, sticky or dialog layer whose text contains one of these "
                     "(cookies, consent, personal data)")
    age_gate = _texts("a layer whose text contains one of these is an age gate, never a consent banner")
