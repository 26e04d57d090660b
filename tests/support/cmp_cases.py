"""Fixture cases for the consent and blocking tests, as data.

- ``CMP_CASES``: one per known CMP, read from the ``fixture`` key of its
  rule file ``tagcrawl/engine/consent/cmps/<slug>.json``.  The page
  ``https://cmp-<slug>.example/`` loads the CMP from its real script URL; the
  fixture web answers that URL with ``tests/support/web/vendor_libs/cmp/emulate.js``,
  which draws the CMP's real DOM from ``tests/support/web/cmps/<slug>.html``
  (for a CMP drawn in its own cross-site iframe, that iframe's document
  follows the ``<!-- frame document`` line of the same file) and, on accept,
  writes the CMP's consent cookies and storage entries, answers TCF
  listeners and fires the page's gated Meta pixel.
- ``LANGUAGE_BANNERS``: a site's own banner per language, on
  ``https://consent-<lang>.example/`` (no CMP: the text heuristic finds it).
- ``BLOCK_CASES``: bot walls and CAPTCHA walls, served from
  ``tests/support/web/sites/<host>/index.html`` with the HTTP status given here.

``crawl_all`` runs many crawls at once on the browser pool; ``crawl_settings``
gives the browser tests their settings.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tagcrawl.engine.consent.rules import CMPS
from tests.support.config import settings



@dataclass(frozen=True)
class CmpCase:
    """One CMP fixture.

    Attributes:
        name: the CMP's ``name`` (``rules.CMPS``).
        slug: page host ``cmp-<slug>.example``, markup file ``<slug>.html``.
        script: the CMP's real script URL (host and path are routed).
        accept: selector of the accept button in the markup (the frame's,
            for ``frame`` cases), wired by the emulation.
        accept_text: the visible label the crawl must report.
        cookies / storage: what the CMP writes on consent.
        mount: "body", "shadow" (declarative ``<template shadowrootmode>``
            in the markup becomes an attached shadow root) or "frame".
        frame: URL of the CMP's iframe document (``frame`` mount).
        tcf: the CMP also implements the IAB TCF API (``cmp_id``).
        hide: how the CMP closes: "remove" its DOM or "hide" (display none).
    """

    name: str
    slug: str
    script: str
    accept: str
    accept_text: str
    cookies: dict = field(default_factory=dict)
    storage: dict = field(default_factory=dict)
    mount: str = "body"
    frame: str | None = None
    tcf: bool = False
    cmp_id: int | None = None
    hide: str = "remove"

    @property
    def host(self) -> str:
        return f"cmp-{self.slug}.example"

    @property
    def url(self) -> str:
        return f"https://{self.host}/"

    @property
    def pixel(self) -> str:
        return "9" + str(1000 + CMP_CASES.index(self)) + "0000000001"


def _case(cmp) -> CmpCase:
    """The case of a CMP, from the ``fixture`` of its ``cmps/<slug>.json``."""
    fixture = cmp.fixture
    return CmpCase(cmp.name, cmp.slug, fixture["script"], fixture["accept"], fixture["accept_text"],
                   fixture["cookies"], fixture["storage"], fixture["mount"], fixture["frame"],
                   fixture["tcf_cmp_id"] is not None, fixture["tcf_cmp_id"], fixture["hide"])


#: One per CMP file with a ``fixture``, in match order (the pixel ids follow it).
CMP_CASES: list[CmpCase] = [_case(cmp) for cmp in CMPS if cmp.fixture]


@dataclass(frozen=True)
class LanguageBanner:
    """A site's own cookie banner in one language (settings, reject, accept);
    ``variant`` tells apart two banners of one language (``site``: the
    language, then ``-variant``; the page is ``consent-<site>.example``)."""

    lang: str
    text: str
    settings: str
    reject: str
    accept: str
    variant: str = ""

    @property
    def site(self) -> str:
        return f"{self.lang}-{self.variant}" if self.variant else self.lang

    @property
    def url(self) -> str:
        return f"https://consent-{self.site}.example/"

    @property
    def pixel(self) -> str:
        if self in LANGUAGE_BANNERS:
            return "8" + str(1000 + LANGUAGE_BANNERS.index(self)) + "0000000001"
        return "8" + str(1100 + NEW_LANGUAGE_BANNERS.index(self)) + "0000000001"


L = LanguageBanner
LANGUAGE_BANNERS: list[LanguageBanner] = [
    L("en", "We use cookies to improve your experience and to show you relevant ads.", "Manage preferences",
      "Reject all", "Accept all cookies"),
    L("de", "Wir verwenden Cookies, um Inhalte zu personalisieren und Zugriffe zu analysieren.", "Einstellungen",
      "Nur notwendige", "Alle akzeptieren"),
    L("fr", "Nous utilisons des cookies pour mesurer l'audience et personnaliser les publicités.", "Personnaliser",
      "Tout refuser", "Tout accepter"),
    L("es", "Utilizamos cookies propias y de terceros para analizar el tráfico.", "Configurar", "Rechazar",
      "Aceptar todas"),
    L("it", "Utilizziamo i cookie per migliorare la tua esperienza.", "Personalizza", "Rifiuta", "Accetta tutti"),
    L("pt", "Utilizamos cookies para melhorar a sua experiência.", "Definições", "Rejeitar", "Aceitar todos"),
    L("nl", "Wij gebruiken cookies om onze website te verbeteren.", "Instellingen", "Weigeren", "Alles accepteren"),
    L("pl", "Używamy plików cookie, aby zapewnić najlepszą jakość usług.", "Ustawienia", "Odrzuć", "Akceptuję"),
    L("sv", "Vi använder cookies för att förbättra din upplevelse.", "Inställningar", "Neka", "Acceptera alla"),
    L("da", "Vi bruger cookies til at forbedre din oplevelse.", "Indstillinger", "Afvis", "Tillad alle"),
    L("no", "Vi bruker informasjonskapsler for å forbedre opplevelsen din.", "Innstillinger", "Avvis", "Godta alle"),
    L("fi", "Käytämme evästeitä parantaaksemme käyttökokemusta.", "Asetukset", "Hylkää", "Hyväksy kaikki"),
    L("cs", "Používáme soubory cookie ke zlepšení vašeho zážitku.", "Nastavení", "Odmítnout", "Přijmout vše"),
    L("hu", "Sütiket használunk a felhasználói élmény javítására.", "Beállítások", "Elutasítás",
      "Összes elfogadása"),
    L("ro", "Folosim cookie-uri pentru a îmbunătăți experiența ta.", "Setări", "Resping", "Accept toate"),
    L("el", "Χρησιμοποιούμε cookies για να βελτιώσουμε την εμπειρία σας.", "Ρυθμίσεις", "Απόρριψη",
      "ΑΠΟΔΟΧΗ ΟΛΩΝ"),
    L("ru", "Мы используем файлы cookie, чтобы улучшить работу сайта.", "Настройки", "Отклонить", "Принять все"),
    L("tr", "Deneyiminizi iyileştirmek için çerezler kullanıyoruz.", "Ayarlar", "Reddet", "TÜMÜNÜ KABUL ET"),
    L("ja", "当サイトではサービス向上のためにクッキーを使用しています。", "設定", "拒否する", "すべて同意する"),
    L("zh", "我们使用 Cookie 来改善您的浏览体验。", "设置", "拒绝", "全部接受"),
]
#: Issue 27: banners in languages added later, and "accept only necessary" as the refusal
#: (tests/browser/test_consent_languages.py accepts and refuses each).
NEW_LANGUAGE_BANNERS: list[LanguageBanner] = [
    L("cy", "Rydym yn defnyddio cwcis i wella eich profiad ac i ddangos hysbysebion.", "Gosodiadau cwcis",
      "Gwrthod cwcis ychwanegol", "Derbyn cwcis ychwanegol"),
    L("cy", "Rydym yn defnyddio cwcis hanfodol a chwcis dadansoddi.", "Rheoli cwcis",
      "Derbyn cwcis hanfodol yn unig", "Derbyn pob cwci", variant="hanfodol"),
    L("tr", "Deneyiminizi iyileştirmek için çerezler kullanıyoruz.", "Çerez ayarları",
      "Sadece zorunlu çerezleri kabul et", "Tümünü kabul et", variant="zorunlu"),
    L("pt-br", "Usamos cookies para melhorar sua experiência, conforme a LGPD.", "Personalizar",
      "Somente os necessários", "Aceitar todos os cookies"),
    L("ca", "Utilitzem galetes pròpies i de tercers per analitzar el trànsit.", "Configuració",
      "Acceptar només les necessàries", "Acceptar totes les galetes"),
    L("et", "Kasutame küpsiseid, et parandada teie kogemust.", "Seaded", "Nõustu ainult vajalikega",
      "Nõustu kõigiga"),
    L("ga", "Úsáidimid fianáin chun do thaithí a fheabhsú.", "Socruithe", "Diúltaigh do gach fianán",
      "Glac le gach fianán"),
    L("lv", "Mēs izmantojam sīkdatnes, lai uzlabotu jūsu pieredzi.", "Iestatījumi",
      "Pieņemt tikai nepieciešamās", "Pieņemt visas sīkdatnes"),
    L("mt", "Nużaw il-cookies biex intejbu l-esperjenza tiegħek.", "Preferenzi", "Irrifjuta kollox",
      "Aċċetta kollox"),
]


@dataclass(frozen=True)
class BlockCase:
    """A block page: host (``tests/support/web/sites/<host>/index.html``), HTTP status,
    expected ``error_message`` (None for the traps, which are not blocks)."""

    host: str
    status: int
    expected: str | None

    @property
    def url(self) -> str:
        return f"https://{self.host}/"


BLOCK_CASES: list[BlockCase] = [
    BlockCase("block-akamai.example", 403, "accessDenied"),
    BlockCase("block-cloudflare.example", 403, "accessDenied"),
    BlockCase("block-cf-challenge.example", 403, "recaptcha"),
    BlockCase("block-imperva.example", 200, "accessDenied"),
    BlockCase("block-datadome.example", 403, "recaptcha"),
    BlockCase("block-perimeterx.example", 403, "recaptcha"),
    BlockCase("block-recaptcha.example", 200, "recaptcha"),
    BlockCase("block-hcaptcha.example", 200, "recaptcha"),
    BlockCase("block-turnstile.example", 200, "recaptcha"),
    BlockCase("block-ratelimit.example", 429, "accessDenied"),
    BlockCase("trap-recaptcha-v3.example", 200, None),
    BlockCase("trap-article.example", 200, None),
]
BLOCK_STATUS = {case.host: case.status for case in BLOCK_CASES}


@dataclass
class Crawled:
    """A crawl's CrawlResponse and the ConsentResult its consent step returned."""

    response: dict
    consent: object | None


def crawl_all(config: dict, requests: dict[str, dict], workers: int = 2) -> dict[str, Crawled]:
    """Run ``run_crawl`` for each ``{key: CrawlRequest}``, ``workers`` at a time
    (the browser pool holds ``POOL_SIZE`` browsers).  The consent step is
    wrapped to record its ``ConsentResult`` per crawl (same thread)."""
    from tagcrawl.crawl import service, steps

    real, local = steps.handle_consent, threading.local()

    def recording(*args, **kwargs):
        local.consent = real(*args, **kwargs)
        return local.consent

    def crawl(request: dict) -> Crawled:
        local.consent = None
        return Crawled(service.run_crawl(settings(config), request).response, local.consent)

    steps.handle_consent = recording
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {key: pool.submit(crawl, request) for key, request in requests.items()}
            return {key: future.result() for key, future in futures.items()}
    finally:
        steps.handle_consent = real


def request(url: str, **options) -> dict:
    """A CrawlRequest for ``url``."""
    return {"url": url, "session_id": None, "options": options or None}


def pixels(response: dict) -> set[tuple]:
    """(vendor, account id) of the marketing pixels in a CrawlResponse."""
    return {(p["vendor"], p["account_id"]) for p in response["marketingPixels"]}


def crawl_settings(fixture_web, directory) -> dict:
    """App settings pointing Chrome at the fixture web (SQLite: these tests
    call ``run_crawl`` directly and store nothing).  Only called by tests:
    the fixture web imports this module without pytest installed."""
    from tagcrawl import create_app

    from .chrome import browser_config

    config = browser_config(fixture_web, directory)
    return create_app(dict(config, SQLALCHEMY_DATABASE_URI="sqlite://")).config
