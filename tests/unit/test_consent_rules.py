"""The consent rules are complete, consistent data, and docs/consent.md lists them."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tagcrawl.engine.consent.rules import (
    ACCEPT_PHRASES, AGE_GATE_WORDS, CMPS, CONSENT_WORDS, LANGUAGES, NEVER_WORDS,
)

REQUIRED_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "no", "fi", "cs", "hu", "ro",
                      "el", "ru", "tr", "ja", "zh")
REQUIRED_CMPS = (
    "OneTrust", "Cookiebot", "Didomi", "Usercentrics", "Quantcast", "Sourcepoint", "TrustArc", "Funding Choices",
    "CookieYes", "Complianz", "Osano", "iubenda", "consentmanager", "Cookie-Script", "Civic", "Ezoic",
    "CookieFirst", "Klaro", "Ketch", "Termly", "Borlabs", "Axeptio", "Cookie Information", "Piwik PRO",
    "TrustCommander", "Sirdata", "LiveRamp", "Admiral", "CookieHub", "Moove", "Real Cookie Banner",
    "Cookie Notice", "CookieLawInfo", "Shopify", "HubSpot", "cookieconsent", "tarteaucitron", "Orejime",
    "Transcend", "Evidon",
)
DOC = Path(__file__).resolve().parents[2] / "docs" / "consent.md"


def key(text: str) -> str:
    """The scanner's label normalisation (scan.js ``key``), in Python."""
    text = unicodedata.normalize("NFD", text)
    text = "".join(ch for ch in text if not ("\u0300" <= ch <= "\u036f")).lower().replace("ı", "i").replace("ß", "ss")
    text = "".join(" " if unicodedata.category(ch)[0] in "PS" else ch for ch in text)
    return " ".join(text.split())


def test_every_required_cmp_has_presence_accept_and_globals():
    names = [cmp.name for cmp in CMPS]
    assert len(names) == len(set(names)) >= 40
    for required in REQUIRED_CMPS:
        assert any(required in name for name in names), required
    for cmp in CMPS:
        assert cmp.selectors and cmp.globals, cmp.name
        assert not cmp.frames.hosts or cmp.frames.accept, cmp.name
    with_selectors = [c for c in CMPS if c.accept or c.frames.accept]
    assert len(with_selectors) >= 40


def test_every_required_language_has_phrases_and_consent_words():
    assert set(REQUIRED_LANGUAGES) <= set(ACCEPT_PHRASES) == set(LANGUAGES)
    for lang in REQUIRED_LANGUAGES:
        assert len(ACCEPT_PHRASES[lang]) >= 5, lang


@pytest.mark.slow
def test_no_accept_phrase_is_refused_by_a_never_word_except_on_purpose():
    never = [key(w) for w in NEVER_WORDS]
    refused = {phrase for phrases in ACCEPT_PHRASES.values() for phrase in phrases
               if any((" " + key(phrase)).find(" " + w) >= 0 for w in never if w)}
    assert refused == {"accept recommended settings"}  # Civic Cookie Control's accept-all


def test_age_gate_and_consent_words_do_not_overlap():
    assert not {key(w) for w in AGE_GATE_WORDS} & {key(w) for w in CONSENT_WORDS}


def test_docs_list_every_cmp_and_language():
    doc = DOC.read_text(encoding="utf-8")
    section = doc.split("## Supported CMPs")[1].split("\n## ")[0]
    rows = re.findall(r"^\| ([^|`]+?) \| `", section, flags=re.M)
    assert sorted(rows) == sorted(cmp.name for cmp in CMPS)
    for code, name in LANGUAGES.items():
        assert f"| `{code}` | {name} |" in doc


#: Globals that several libraries (or sites' own code) define: never evidence of one CMP.
SHARED_GLOBALS = {"CookieConsent", "cookieConsent", "__cmp", "CLI", "tC", "Bootstrapper", "semaphore", "consentApi",
                  "privacyBanner", "cookieconsent", "gdpr", "consent"}
#: Selectors any site's own banner may carry.
SHARED_SELECTORS = {"#cookie-notice", "#cookie-banner", ".cookie-banner", "#cookie-consent", ".cookie-consent",
                    "#sliding-popup", "#privacy-iframe", "#consent-banner", ".consent-banner", "#gdpr"}


def test_a_cmp_is_named_only_from_evidence_specific_to_it():
    # issue 27: a page whose consent library's global is CookieConsent was named "Cookiebot"
    for cmp in CMPS:
        assert not SHARED_GLOBALS & set(cmp.globals), cmp.name
        assert not SHARED_SELECTORS & set(cmp.selectors), cmp.name
    cookiebot = next(c for c in CMPS if c.name == "Cookiebot")
    assert cookiebot.globals == ("Cookiebot",) and cookiebot.selectors == ("#CybotCookiebotDialog",)
