"""Consent signals carried by pixels and pages, decoded.

- Google Consent Mode v2, on Google hits (GA4 ``/g/collect``, Google Ads,
  Floodlight): ``gcs`` = ``G1<ad_storage><analytics_storage>`` (1 granted,
  0 denied); ``gcd`` = ``1<d><ad_storage><d><analytics_storage><d><ad_user_data><d>
  <ad_personalization><d>``, one letter per signal (table ``GCD_LETTERS``,
  as tag diagnostics and Google's own Tag Assistant show them).
- IAB TCF on any pixel: ``gdpr`` (0/1) and ``gdpr_consent`` (a TC string,
  decoded by ``tcf.py``).
- US Privacy (CCPA) string, IAB "US Privacy String" spec: 4 characters,
  version ``1``, then notice given, opted out of sale, LSPA covered, each ``Y``, ``N`` or ``-``.
- GPP string (IAB Global Privacy Platform): header ``DBA...`` then one segment
  per section, ``~`` separated; reported with its applicable section ids, the
  sections the page's CMP decoded itself (``__gpp('ping')``'s ``parsedSections``)
  and tagcrawl's own decoding of its US and uspv1 sections (``gpp.py``).  Where
  no ``__gpp`` API answered, the string of a cookie or of a pixel's ``gpp``
  parameter is decoded (:func:`gpp_signal`).

Bounds: gcs/gcd/US Privacy are read only at their fixed lengths; a GPP string is
counted whole (``str.count``, no copy) but only its first :data:`GPP_SCAN_MAX`
characters and :data:`GPP_MAX_SECTIONS` sections are split (``gpp.py`` has the
decoder's own bounds); TC strings are bounded by ``tcf.py`` (``MAX_LENGTH``,
``MAX_VENDOR_IDS``).  Nothing here raises on page input.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any
from urllib.parse import unquote

from tagcrawl.core.truncation import CONSENT_STRING_MAX, SECTIONS_MAX, cut, is_cut
from tagcrawl.engine.compliance import gpp, tcf

#: gcd letter -> (default state, update state, effective state).
GCD_LETTERS = {
    "l": (None, None, None),            # signal not set
    "p": ("denied", None, "denied"),    # denied by default, no update
    "q": ("denied", "denied", "denied"),
    "t": ("granted", None, "granted"),
    "r": ("denied", "granted", "granted"),
    "m": (None, "denied", "denied"),    # no default, denied by an update
    "n": (None, "granted", "granted"),
    "u": ("granted", "denied", "denied"),
    "v": ("granted", "granted", "granted"),
}
#: Most GPP sections looked at for the uspv1 section, and most applicable
#: section ids reported (the GPP section ids run to 27 today).
GPP_MAX_SECTIONS = gpp.MAX_SECTIONS
#: Most characters of a GPP string split into sections (a tcfeuv2 section is a
#: few KB; a page may answer ``__gpp`` with megabytes).
GPP_SCAN_MAX = gpp.SCAN_MAX
CONSENT_MODE_SIGNALS = ("ad_storage", "analytics_storage", "ad_user_data", "ad_personalization")
GOOGLE_VENDORS = {"google_analytics", "universal_analytics", "google_ads", "floodlight", "google_tag"}


def decode_gcs(gcs: str | None) -> dict[str, str] | None:
    """``G1xy`` -> ``{"ad_storage": "granted"|"denied", "analytics_storage": ...}``; None when malformed."""
    if not isinstance(gcs, str) or len(gcs) != 4 or not gcs.startswith("G1") or any(c not in "01" for c in gcs[2:]):
        return None
    state = {"1": "granted", "0": "denied"}
    return {"ad_storage": state[gcs[2]], "analytics_storage": state[gcs[3]]}


def decode_gcd(gcd: str | None) -> dict[str, dict] | None:
    """``13r3r3r3r5`` -> ``{signal: {"default", "update", "state"}}`` for the four
    Consent Mode v2 signals (None values: not set); None when malformed."""
    if not isinstance(gcd, str) or len(gcd) < 10 or not gcd[0] == "1":
        return None
    letters = gcd[2:10:2]
    if any(c not in GCD_LETTERS for c in letters):
        return None
    out = {}
    for signal, letter in zip(CONSENT_MODE_SIGNALS, letters):
        default, update, state = GCD_LETTERS[letter]
        out[signal] = {"default": default, "update": update, "state": state}
    return out


def consent_mode(params: dict[str, Any]) -> dict | None:
    """Consent Mode state of one Google hit from its decoded parameters.

    Returns:
        ``{"gcs": raw, "gcd": raw, "ad_storage", "analytics_storage",
        "ad_user_data", "ad_personalization"}`` (each "granted", "denied" or
        None when not sent; ``gcs`` wins over ``gcd`` for the storage signals),
        or None when the hit carries neither parameter.
    """
    gcs, gcd = params.get("gcs"), params.get("gcd")
    if not gcs and not gcd:
        return None
    out: dict[str, Any] = {"gcs": gcs, "gcd": gcd, **{s: None for s in CONSENT_MODE_SIGNALS}}
    for signal, value in (decode_gcd(gcd) or {}).items():
        out[signal] = value["state"]
    out.update(decode_gcs(gcs) or {})
    return out


def claims_storage(state: dict | None) -> bool:
    """Does a Consent Mode state claim granted ad or analytics storage?"""
    return bool(state) and "granted" in (state.get("ad_storage"), state.get("analytics_storage"))


def tcf_params(params: dict[str, Any]) -> dict | None:
    """IAB TCF parameters of a pixel: ``{"gdpr": "0"|"1"|None, "gdpr_consent": raw,
    "tcf": TCString.summary() or None}``; None when neither is present.  Macros
    left unreplaced (``${GDPR_CONSENT_755}``) are reported raw, undecoded."""
    gdpr, consent = params.get("gdpr"), params.get("gdpr_consent")
    if gdpr in (None, "") and not consent:
        return None
    decoded = tcf.try_decode(consent) if isinstance(consent, str) else None
    return {"gdpr": None if gdpr is None else str(gdpr), "gdpr_consent": consent,
            "tcf": decoded.summary() if decoded else None}


@dataclass(frozen=True)
class USPrivacy:
    """A US Privacy string: ``version`` 1, then ``notice``, ``opt_out_sale``,
    ``lspa``, each True (Y), False (N) or None (-)."""

    raw: str
    version: int
    notice: bool | None
    opt_out_sale: bool | None
    lspa: bool | None


def decode_usp(text: str | None) -> USPrivacy | None:
    """``"1YNN"`` -> USPrivacy; None when malformed."""
    if not isinstance(text, str) or len(text) != 4 or text[0] != "1" or any(c not in "YNyn-" for c in text[1:]):
        return None
    flag = {"Y": True, "N": False, "-": None}
    return USPrivacy(text, 1, *(flag[c.upper()] for c in text[1:]))


def gpp_summary(gpp_string: str | None, sections: list | None = None, parsed: dict | None = None,
                source: str = "__gpp") -> dict | None:
    """``{"source", "gpp_string", "applicable_sections", "sections", "us_privacy",
    "section_ids", "parsed_sections", "decoded", "decode_error"}`` of a GPP string.

    - ``sections`` counts the ``~``-separated section segments after the header
      (the whole string is counted);
    - ``us_privacy`` is the first segment that is a US Privacy string (uspv1,
      section 6) among the first :data:`GPP_MAX_SECTIONS` sections of the first
      :data:`GPP_SCAN_MAX` characters;
    - ``section_ids``, ``decoded`` (``{prefix: {field: value} | None}``, or None)
      and ``decode_error``: ``gpp.decode``; a cut string (it ends with the
      truncation mark) is not decoded;
    - ``parsed_sections``: what the page's CMP decoded (``parsed``, already
      bounded by ``consent.signals.bounded_parsed``), None when not a dict.

    None when there is no string.  Bounds: ``gpp_string`` is reported up to
    ``CONSENT_STRING_MAX`` characters (cut with the truncation mark),
    ``applicable_sections`` (a list from the page) up to ``min(SECTIONS_MAX,
    GPP_MAX_SECTIONS)`` entries; the decoder's own (``gpp.py``)."""
    if not isinstance(gpp_string, str) or not gpp_string:
        return None
    parts = gpp_string[:GPP_SCAN_MAX].split("~", GPP_MAX_SECTIONS + 1)[:GPP_MAX_SECTIONS + 1]  # header + sections
    usp = next((u for u in map(decode_usp, parts[1:]) if u is not None), None)
    decoded = ({"section_ids": None, "sections": {}, "error": "the string was cut (docs/api.md): not decoded"}
               if is_cut(gpp_string) else gpp.decode(gpp_string))
    return {"source": source, "gpp_string": cut(gpp_string, CONSENT_STRING_MAX),
            "applicable_sections": _first(sections, min(SECTIONS_MAX, GPP_MAX_SECTIONS)),
            "sections": gpp_string.count("~") if parts[0].startswith("DB") else None,
            "us_privacy": usp.raw if usp else None, "section_ids": decoded["section_ids"],
            "parsed_sections": parsed if isinstance(parsed, dict) else None,
            "decoded": decoded["sections"] or None, "decode_error": decoded["error"]}


def _gpp_text(value) -> str | None:
    """``value`` when it is a GPP string whose header decodes (URL-decoded
    first when it holds ``%``: cookies often store ``~`` as ``%7E``), else None.
    Only the first ``GPP_SCAN_MAX`` characters are looked at."""
    if not isinstance(value, str) or len(value) < 4:
        return None
    text = unquote(value[:GPP_SCAN_MAX]) if "%" in value[:GPP_SCAN_MAX] else value
    if not text.startswith("DB"):
        return None
    try:
        gpp.section_ids(text.split("~", 1)[0])
    except gpp.GppError:
        return None
    return text


def _sid(value) -> list[int]:
    """A pixel's ``gpp_sid`` (``"7,8"``, also ``_``-separated) as section ids; at most GPP_MAX_SECTIONS."""
    if not isinstance(value, str):
        return []
    parts = value[:1024].replace("_", ",").split(",", GPP_MAX_SECTIONS)[:GPP_MAX_SECTIONS]
    return [int(p) for p in (x.strip() for x in parts) if p.isascii() and p.isdigit() and len(p) <= 6]


def gpp_signal(frames: list[dict], cookies: list[dict], hits: list) -> dict | None:
    """``consent.gpp``: :func:`gpp_summary` of the first frame whose ``__gpp``
    answered a string (source ``"__gpp"``, with its ``parsedSections``); else
    of the first cookie whose value is a GPP string (source ``"cookie
    <name>"``, e.g. OneTrust's ``OTGPPConsent``); else of the first pixel hit
    with a ``gpp`` parameter (source ``"pixel <vendor>"``, applicable sections
    from ``gpp_sid``).  None when there is none.

    Args:
        frames: ``consent.signals.collect_signals`` output (bounded).
        cookies: CDP cookies (``{name, value, ...}``).
        hits: ``vendors.Hit`` objects (``params``, ``vendor_name``).
    Work: one header decode per cookie and per hit carrying ``gpp`` until one is found.
    """
    for frame in frames:
        answer = frame.get("gpp") if isinstance(frame, dict) else None
        if isinstance(answer, dict) and answer.get("gppString"):
            return gpp_summary(answer.get("gppString"), answer.get("applicableSections"),
                               answer.get("parsedSections"))
    for cookie in cookies:
        text = _gpp_text(cookie.get("value"))
        if text:
            return gpp_summary(text, [], source=f"cookie {cookie.get('name')}")
    for hit in hits:
        params = hit.params or {}
        text = _gpp_text(params.get("gpp"))
        if text:
            return gpp_summary(text, _sid(params.get("gpp_sid")), source=f"pixel {hit.vendor_name}")
    return None


def _first(items, count: int) -> list:
    """The first ``count`` entries of a page-supplied list (a str gives its characters), [] for anything else."""
    try:
        return list(islice(items or [], count))
    except TypeError:
        return []
