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

from tests.support.cmp_cases import LANGUAGE_BANNERS, crawl_settings
from tests.support.config import settings

pytestmark = pytest.mark.browser

SENTENCES = {b.lang: b.text for b in LANGUAGE_BANNERS} | {
    "sk": "Používame súbory cookie na zlepšenie služieb.", "hr": "Koristimo kolačiće za bolje iskustvo.",
    "bg": "Използваме бисквитки, за да подобрим услугите си.", "uk": "Ми використовуємо файли cookie.",
    "ko": "당사는 더 나은 서비스를 위해 쿠키를 사용합니다.",
}
NEVER_LABELS = [
    "Accept offer", "OK, subscribe", "Accept and subscribe", "Subscribe for 2.99 EUR/month", "Cookie policy",
    "Privacy Policy", "Read our cookie policy", "Reject all", "Decline", "Only necessary", "Continue without accepting",
    "Manage options", "Cookie settings", "Customize", "More information", "I am over 18", "Enter site",
    "Alle ablehnen", "Nur notwendige Cookies", "Tout refuser", "Continuer sans accepter", "Rechazar todas",
    "Rifiuta tutto", "Odrzuć wszystkie", "Neka alla", "Hylkää kaikki", "Отклонить все", "Tümünü reddet",
    "すべて拒否", "全部拒绝", "Abonnieren", "S'abonner", "Buy now", "Sign up", "Log in",
] + [label for b in LANGUAGE_BANNERS for label in (b.settings, b.reject)]

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
    """``scan_labels([(sentence, label), ...])`` -> the accept text found for each."""
    with get_pool(settings(crawl_config)).browser() as handle, CrawlSession(handle, NetworkCapture()) as session:
        session.driver.get("https://plain.example/")

        def scan(cases):
            payload = [{"text": text, "label": label} for text, label in cases]
            return session.driver.execute_script(MATRIX_JS, SCAN_JS, RULES_ARG, payload)
        yield scan


@pytest.mark.parametrize("lang", sorted(ACCEPT_PHRASES))
def test_every_accept_phrase_is_found_as_written_and_upper_cased(lang, scan_labels):
    labels = [p for phrase in ACCEPT_PHRASES[lang] for p in (phrase, phrase.upper())]
    found = scan_labels([(SENTENCES[lang], label) for label in labels])
    assert [label for label, text in zip(labels, found) if text != label] == []


def test_reject_settings_paywall_policy_and_age_labels_are_never_found(scan_labels):
    found = scan_labels([("We use cookies for ads and analytics.", label) for label in NEVER_LABELS])
    assert [label for label, text in zip(NEVER_LABELS, found) if text is not None] == []


def test_an_accept_label_outside_a_cookie_or_consent_layer_is_not_found(scan_labels):
    cases = [("Welcome back! Your basket was saved.", "OK"),
             ("Age verification: you must be 18 or older to enter. We use cookies.", "I agree"),
             ("Are you over 21? Verify your age to continue. Cookies help us remember it.", "Accept")]
    assert scan_labels(cases) == [None, None, None]
