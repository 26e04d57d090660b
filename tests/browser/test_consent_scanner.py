"""The consent scanner against the whole vocabulary, in one page: every accept
phrase of every language (as written and upper-cased) is found, and reject,
settings, subscribe, policy and age-gate labels never are.  One browser
context; each label is one call of the scanner (scripts.SCAN) inside the page."""
from __future__ import annotations

import pytest

from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.consent.flow import RULES_ARG
from tagcrawl.engine.consent.scripts import SCAN as SCAN_JS
from tagcrawl.engine.consent.rules import ACCEPT_PHRASES
from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.engine.chrome.session import CrawlSession

from tests.support.cmp_cases import LANGUAGE_BANNERS, NEW_LANGUAGE_BANNERS, crawl_settings
from tests.support.config import settings
from tests.support.consent_words import ONLY_NECESSARY

pytestmark = pytest.mark.browser

#: A banner sentence per language file (tests/support/consent_words.py), the site banners' own first.
SENTENCES = {lang: sentence for lang, (sentence, _label) in ONLY_NECESSARY.items()} | {
    b.lang: b.text for b in LANGUAGE_BANNERS}
NEVER_LABELS = [
    "Accept offer", "OK, subscribe", "Accept and subscribe", "Subscribe for 2.99 EUR/month", "Cookie policy",
    "Privacy Policy", "Read our cookie policy", "Reject all", "Decline", "Only necessary", "Continue without accepting",
    "Manage options", "Cookie settings", "Customize", "More information", "I am over 18", "Enter site",
    "Alle ablehnen", "Nur notwendige Cookies", "Tout refuser", "Continuer sans accepter", "Rechazar todas",
    "Rifiuta tutto", "Odrzuć wszystkie", "Neka alla", "Hylkää kaikki", "Отклонить все", "Tümünü reddet",
    "すべて拒否", "全部拒绝", "Abonnieren", "S'abonner", "Buy now", "Sign up", "Log in",
] + [label for b in [*LANGUAGE_BANNERS, *NEW_LANGUAGE_BANNERS] for label in (b.settings, b.reject)]

MATRIX_JS = """
const [source, rules, cases] = arguments;
const scan = new Function(source);
const banner = document.createElement("div");
banner.setAttribute("style", "position:fixed;bottom:0;left:0;right:0;background:#fff;padding:12px;z-index:9");
document.body.appendChild(banner);
const found = cases.map((c) => {
  banner.textContent = "";
  const text = document.createElement("p"); text.textContent = c.text; banner.appendChild(text);
  const button = document.createElement("button"); button.textContent = c.label; banner.appendChild(button);
  const result = scan(rules);
  return result && result.button ? result.text : null;
});
banner.remove();
return found;
"""


@pytest.fixture(scope="module")
def crawl_config(fixture_web, tmp_path_factory):
    """Settings pointing Chrome at the fixture web, shared by this module's crawls."""
    return crawl_settings(fixture_web, tmp_path_factory.mktemp("crawls"))


@pytest.fixture(scope="module")
def scan_labels(crawl_config):
    """``scan_labels([(sentence, label), ...], action="accept")`` -> the button text found for each
    (the first candidate for ``action``)."""
    with get_pool(settings(crawl_config)).browser() as handle, CrawlSession(handle, NetworkCapture()) as session:
        session.driver.get("https://plain.example/")

        def scan(cases, action="accept"):
            payload = [{"text": text, "label": label} for text, label in cases]
            return session.driver.execute_script(MATRIX_JS, SCAN_JS, dict(RULES_ARG, action=action), payload)
        yield scan


@pytest.mark.parametrize("lang", sorted(ACCEPT_PHRASES))
def test_every_accept_phrase_is_found_as_written_and_upper_cased(lang, scan_labels):
    labels = [p for phrase in ACCEPT_PHRASES[lang] for p in (phrase, phrase.upper())]
    found = scan_labels([(SENTENCES[lang], label) for label in labels])
    assert [label for label, text in zip(labels, found) if text != label] == []


def test_reject_settings_paywall_policy_and_age_labels_are_never_found(scan_labels):
    found = scan_labels([("We use cookies for ads and analytics.", label) for label in NEVER_LABELS])
    assert [label for label, text in zip(NEVER_LABELS, found) if text is not None] == []


@pytest.mark.parametrize("lang", sorted(ONLY_NECESSARY))
def test_accept_only_necessary_is_a_refusal_never_an_accept(lang, scan_labels):
    # the word test of words/<lang>.json through the scanner: "Sadece zorunlu çerezleri kabul et"
    # (Turkish: accept only the necessary cookies) is the refuse button, never the accept one
    sentence, label = ONLY_NECESSARY[lang]
    cases = [(sentence, label), (sentence, label.upper())]
    assert scan_labels(cases, action="reject") == [label, label.upper()]
    assert scan_labels(cases) == [None, None]


def test_an_accept_label_outside_a_cookie_or_consent_layer_is_not_found(scan_labels):
    cases = [("Welcome back! Your basket was saved.", "OK"),
             ("Age verification: you must be 18 or older to enter. We use cookies.", "I agree"),
             ("Are you over 21? Verify your age to continue. Cookies help us remember it.", "Accept")]
    assert scan_labels(cases) == [None, None, None]
