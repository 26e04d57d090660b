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
  per section, ``~`` separated; reported with its applicable section ids.

Bounds: gcs/gcd/US Privacy are read only at their fixed lengths; a GPP string is
counted whole (``str.count``, no copy) but only its first :data:`GPP_SCAN_MAX`
characters and :data:`GPP_MAX_SECTIONS` sections are split; TC strings are
bounded by ``tcf.py`` (``MAX_LENGTH``, ``MAX_VENDOR_IDS``).  Nothing here raises
on page input.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any

from tagcrawl.core.truncation import CONSENT_STRING_MAX, SECTIONS_MAX, cut
from tagcrawl.engine.compliance import tcf

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
#: section ids reported (the GPP section ids run to about 20 today).
GPP_MAX_SECTIONS = 64
#: Most characters of a GPP string split into sections (a tcfeuv2 section is a
#: few KB; a page may answer ``__gpp`` with megabytes).
GPP_SCAN_MAX = 64 * 1024
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


def gpp_summary(gpp_string: str | None, sections: list | None = None) -> dict | None:
    """``{"gpp_string", "applicable_sections", "sections", "us_privacy"}`` of a
    GPP string: ``sections`` counts the ``~``-separated section segments after
    the header (the whole string is counted); ``us_privacy`` is the US Privacy
    section (uspv1, section 6, whose segment is the 4-character US Privacy
    string) when one is among the first :data:`GPP_MAX_SECTIONS` sections of
    the first :data:`GPP_SCAN_MAX` characters.  None when there is no string.
    Bounds: ``gpp_string`` is reported up to ``CONSENT_STRING_MAX`` characters
    (cut with the truncation mark), ``applicable_sections`` (a list from the
    page) up to ``min(SECTIONS_MAX, GPP_MAX_SECTIONS)`` entries."""
    if not isinstance(gpp_string, str) or not gpp_string:
        return None
    parts = gpp_string[:GPP_SCAN_MAX].split("~", GPP_MAX_SECTIONS + 1)[:GPP_MAX_SECTIONS + 1]  # header + sections
    usp = next((u for u in map(decode_usp, parts[1:]) if u is not None), None)
    return {"gpp_string": cut(gpp_string, CONSENT_STRING_MAX),
            "applicable_sections": _first(sections, min(SECTIONS_MAX, GPP_MAX_SECTIONS)),
            "sections": gpp_string.count("~") if parts[0].startswith("DB") else None,
            "us_privacy": usp.raw if usp else None}


def _first(items, count: int) -> list:
    """The first ``count`` entries of a page-supplied list (a str gives its characters), [] for anything else."""
    try:
        return list(islice(items or [], count))
    except TypeError:
        return []
