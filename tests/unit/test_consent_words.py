"""A word test per language file (``tagcrawl/engine/consent/words/<lang>.json``):
its "accept only necessary" phrasing is a refusal in its own file's words and
never an accept phrase, its banner sentence carries one of its consent words (or "cookie"),
and every required language has a file.  The same labels go through the
scanner in Chrome in tests/browser/test_consent_words.py."""
from __future__ import annotations

import re

import pytest

from tagcrawl.engine.consent.rules import ACCEPT_PHRASES, WORDS

from tests.support.consent_words import ONLY_NECESSARY
from tests.unit.test_consent_rules import key

#: Every official EU language, plus the ones issue 27 names.
EU_OFFICIAL = ("bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr", "hu", "it", "lt", "lv", "mt",
               "nl", "pl", "pt", "ro", "sk", "sl", "sv")
MORE = ("cy", "ca", "eu", "gl", "tr", "no", "is", "ja", "ko", "zh", "pt-br")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _contains(words, text: str) -> bool:
    """scan.js ``wordsIn``: a word starting at a word boundary (anywhere in CJK), labels up to 80 characters."""
    k = key(text)
    return len(k) <= 80 and any((w in k) if CJK.search(w) else (" " + w) in " " + k for w in map(key, words) if w)


def test_every_required_language_has_a_file_and_every_file_a_word_test():
    assert set(EU_OFFICIAL) | set(MORE) <= set(WORDS)
    assert set(ONLY_NECESSARY) == set(WORDS)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_accept_only_necessary_is_a_refusal_in_its_own_language(lang):
    sentence, label = ONLY_NECESSARY[lang]
    words = WORDS[lang]
    assert _contains(words["reject"], label), f"{lang}: {label!r} matches no reject word of words/{lang}.json"
    accept = {key(p).replace(" ", "") for phrases in ACCEPT_PHRASES.values() for p in phrases}
    assert key(label).replace(" ", "") not in accept
    own = [*words["consent"], "cookie"]  # the loanword counts in every language (en.json's)
    assert any(key(w) in key(sentence) for w in own), f"{lang}: none of its consent words in {sentence!r}"
    assert len(words["accept"]) >= 5 and words["save"], lang
    assert not _contains(words["reject"], words["accept"][0]), f"{lang}: its first accept phrase is refused"


@pytest.mark.parametrize("lang, accept, reject", [
    ("en", "Accept additional cookies", "Reject additional cookies"),  # GOV.UK's design system
    ("en", "Accept All Additional Cookies", "Reject All Additional Cookies"),
    ("sv", "Godkänn alla ytterligare cookies", "Avvisa alla ytterligare cookies"),
    ("de", "Alle zusätzlichen Cookies akzeptieren", "Zusätzliche Cookies ablehnen"),
])
def test_accept_additional_cookies_is_an_accept_phrase_and_its_refusal_a_refusal(lang, accept, reject):
    """The "additional / optional cookies" pair (the necessary ones are set anyway): scan.js takes an accept
    label only when it is exactly a phrase (``isAccept``), the refusal by its reject word."""
    phrases = {key(p).replace(" ", "") for p in WORDS[lang]["accept"]}
    assert key(accept).replace(" ", "") in phrases
    assert key(reject).replace(" ", "") not in phrases and _contains(WORDS[lang]["reject"], reject)
