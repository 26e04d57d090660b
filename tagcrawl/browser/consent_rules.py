"""Consent rules as data: known CMPs and the multilingual accept vocabulary.

Each CMP entry: ``name``; ``presence`` CSS selectors of its banner (searched
in the document, open shadow roots and frames); ``accept`` CSS selectors of
its accept-all button, in order of preference; ``globals``: JS globals that
reveal the CMP's script; ``consent_cookies``: names (prefixes) of the cookies
it writes on consent, used to verify the click.  Adding a CMP is one entry
here plus one fixture page in tests/web/.
"""
from __future__ import annotations

CMPS: list[dict] = [
    {"name": "OneTrust", "presence": ["#onetrust-banner-sdk", "#onetrust-consent-sdk"],
     "accept": ["#onetrust-accept-btn-handler", "#accept-recommended-btn-handler"],
     "globals": ["OneTrust", "Optanon"], "consent_cookies": ["OptanonAlertBoxClosed", "OptanonConsent"]},
    {"name": "Cookiebot", "presence": ["#CybotCookiebotDialog"],
     "accept": ["#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll",
                "#CybotCookiebotDialogBodyButtonAccept", "#CybotCookiebotDialogBodyLevelButtonAccept"],
     "globals": ["Cookiebot", "CookieConsent"], "consent_cookies": ["CookieConsent"]},
]

#: Accept-button labels, lower-case, compared with the whole normalised label
#: (punctuation and emoji stripped).  Keep them specific: "accept offer" or
#: "ok, subscribe" must not match.
ACCEPT_PHRASES: dict[str, list[str]] = {
    "en": ["accept", "accept all", "accept all cookies", "accept cookies", "allow all", "allow all cookies",
           "allow cookies", "i accept", "i agree", "agree", "agree and close", "agree & close", "accept and close",
           "accept & close", "accept and continue", "ok", "okay", "got it", "i understand", "allow", "yes, i agree",
           "accept recommended settings", "consent", "agree to all", "accept all and close"],
}

#: Words that disqualify a button (reject, settings, paywalls, age gates).
NEVER_WORDS: list[str] = [
    "reject", "decline", "deny", "refuse", "necessary only", "only necessary", "essential only", "settings",
    "manage", "preferences", "customize", "customise", "options", "more info", "learn more", "policy",
    "subscribe", "pay", "buy", "purchase", "offer", "sign up", "register", "log in", "login",
    "i am over", "i'm over", "years old", "18+", "enter site",
]

#: Words that show a container is about cookies/consent (any language).
CONSENT_WORDS: list[str] = ["cookie", "consent", "privacy", "gdpr", "tracking", "personal data"]
