"""Fixture cases for the consent and blocking tests, as data.

- ``CMP_CASES``: one per known CMP.  The page ``https://cmp-<slug>.example/``
  loads the CMP from its real script URL; the fixture web answers that URL
  with ``tests/support/web/vendor_libs/cmp/emulate.js``, which draws the CMP's real
  DOM from ``vendor_libs/cmp/markup/<slug>.html`` (its own cross-site iframe
  document from ``<slug>.frame.html``) and, on accept, writes the CMP's
  consent cookies and storage entries, answers TCF listeners and fires the
  page's gated Meta pixel.
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
from tests.support.config import settings



@dataclass(frozen=True)
class CmpCase:
    """One CMP fixture.

    Attributes:
        name: the CMP's name in ``consent_rules_cmps.CMPS``.
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


C = CmpCase
TCF = {"euconsent-v2": "CQfixtureAAAAAAAAAAAAAAAAA.YAAAAAAAAAAA"}
CMP_CASES: list[CmpCase] = [
    C("OneTrust", "onetrust", "https://cdn.cookielaw.org/scripttemplates/otSDKStub.js",
      "#onetrust-accept-btn-handler", "Accept All Cookies",
      {"OptanonAlertBoxClosed": "2024-05-01T10:00:00.000Z", "OptanonConsent": "groups=C0001:1,C0002:1,C0004:1"},
      hide="hide"),
    C("Cookiebot", "cookiebot", "https://consent.cookiebot.com/uc.js",
      "#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll", "Allow all",
      {"CookieConsent": "{stamp:'fixture',necessary:true,preferences:true,statistics:true,marketing:true}"},
      hide="hide"),
    C("Didomi", "didomi", "https://sdk.privacy-center.org/6a5d1ba4-fixture/loader.js?target=cmp-didomi.example",
      "#didomi-notice-agree-button", "Agree and close", {"didomi_token": "eyJ1c2VyX2lkIjoiZml4dHVyZSJ9", **TCF},
      tcf=True, cmp_id=7),
    C("Usercentrics", "usercentrics", "https://app.usercentrics.eu/browser-ui/latest/loader.js",
      "[data-testid=uc-accept-all-button]", "Accept All", {},
      {"uc_settings": '{"controllerId":"fixture","services":[{"status":true}]}', "uc_user_interaction": "true"},
      mount="shadow"),
    C("Quantcast Choice (InMobi)", "quantcast",
      "https://cmp.inmobi.com/choice/p-fixture/cmp-quantcast.example/choice.js?tag_version=V3",
      ".qc-cmp2-summary-buttons button[mode=primary]", "AGREE", {**TCF, "addtl_consent": "1~"}, tcf=True,
      cmp_id=10),
    C("Sourcepoint", "sourcepoint", "https://cdn.privacy-mgmt.com/unified/wrapperMessagingWithoutDetection.js",
      "button.sp_choice_type_11", "Accept all", {"consentUUID": "0f8fad5b-d9cb-469f-a165-70867728950e", **TCF},
      mount="frame", tcf=True, cmp_id=6,
      frame="https://cdn.privacy-mgmt.com/index.html?message_id=912345&consentUUID=null&requestUUID=fixture"
            "&preload_message=true&version=v1"),
    C("TrustArc", "trustarc", "https://consent.trustarc.com/notice?domain=cmp-trustarc.example&c=teconsent&js=nj",
      ".pdynamicbutton .call", "Agree and Proceed",
      {"notice_preferences": "2:", "notice_gdpr_prefs": "0,1,2:", "cmapi_cookie_privacy": "permit 1,2,3"},
      mount="frame", frame="https://consent-pref.trustarc.com/?type=fixture&layout=gdpr&site=cmp-trustarc.example"),
    C("Google Funding Choices", "fundingchoices", "https://fundingchoicesmessages.google.com/i/pub-1234567890123456",
      "button.fc-cta-consent", "Consent", {"FCCDCF": "%5Bnull%2Cnull%2Cnull%5D", **TCF}, tcf=True, cmp_id=300),
    C("CookieYes", "cookieyes", "https://cdn-cookieyes.com/client_data/8f1e2d3c4b5a/script.js",
      "[data-cky-tag=accept-button]", "Accept All", {"cookieyes-consent": "consent:yes,action:yes"}),
    C("Complianz", "complianz",
      "https://cmp-complianz.example/wp-content/plugins/complianz-gdpr/cookiebanner/js/complianz.min.js",
      ".cmplz-accept", "Accept", {"cmplz_banner-status": "dismissed", "cmplz_marketing": "allow"}, hide="hide"),
    C("Osano", "osano", "https://cmp.osano.com/AzZdRbSORDOYs2jUS/0b7c9e8f/osano.js", ".osano-cm-accept-all",
      "Accept All", {"osano_consentmanager": "fixture-consent", "osano_consentmanager_uuid": "0f8fad5b"}),
    C("iubenda", "iubenda", "https://cdn.iubenda.com/cs/iubenda_cs.js", ".iubenda-cs-accept-btn", "Accept",
      {"_iub_cs-12345678": '{"timestamp":"2024-05-01","consent":true}'}, {"IUB_DATA": "fixture"}),
    C("consentmanager", "consentmanager", "https://cdn.consentmanager.net/delivery/autoblocking/5a0f1e2d3c4b.js",
      ".cmpboxbtnyes", "Accept all", {"__cmpconsentx12345": "CQfixture", "__cmpcccx12345": "aBQAAAAA", **TCF},
      tcf=True, cmp_id=31),
    C("Cookie-Script", "cookiescript", "https://cdn.cookie-script.com/s/7e3f1f8a2b4c5d6e.js", "#cookiescript_accept",
      "Accept all", {"CookieScriptConsent": '{"action":"accept","categories":"[\\"targeting\\"]"}'}),
    C("Civic Cookie Control", "civic", "https://cc.cdn.civiccomputing.com/9/cookieControl-9.x.min.js",
      "#ccc-notify-accept", "Accept Recommended Settings",
      {"CookieControl": '{"necessaryCookies":[],"optionalCookies":{"marketing":"accepted"}}'}),
    C("Ezoic", "ezoic", "https://the.gatekeeperconsent.com/cmp.min.js", "#ez-accept-all", "Accept All",
      {"ezCMPCCS": "true", **TCF}, tcf=True, cmp_id=347),
    C("CookieFirst", "cookiefirst", "https://consent.cookiefirst.com/sites/cmp-cookiefirst.example-1a2b/consent.js",
      "[data-cookiefirst-action=accept]", "Accept all", {"cookiefirst-consent": "%7B%22advertising%22%3Atrue%7D"},
      {"cookiefirst-consent": '{"advertising":true}'}),
    C("Klaro", "klaro", "https://cdn.kiprotect.com/klaro/v0.7/klaro.js", ".cm-btn-success", "That's ok",
      {"klaro": '{"facebook-pixel":true}'}),
    C("Ketch", "ketch", "https://global.ketchcdn.com/web/v3/config/fixture_org/website_smart_tag/boot.js",
      "#ketch-consent-banner button.ketch-accept", "Accept All",
      {"_ketch_consent_v1_": "eyJhbmFseXRpY3MiOnsic3RhdHVzIjoiZ3JhbnRlZCJ9fQ"}, mount="shadow"),
    C("Termly", "termly", "https://app.termly.io/resource-blocker/3b8e4f1a-fixture?autoBlock=on",
      '[data-tid="banner-accept"]', "Accept", {}, {"TERMLY_API_CACHE": '{"consent":"all"}'}),
    C("Borlabs Cookie", "borlabs",
      "https://cmp-borlabs.example/wp-content/plugins/borlabs-cookie/assets/javascript/borlabs-cookie.min.js",
      "a[data-cookie-accept-all]", "Accept all", {"borlabs-cookie": '{"consents":{"marketing":["facebook-pixel"]}}'},
      hide="hide"),
    C("Axeptio", "axeptio", "https://static.axept.io/sdk.js", "#axeptio_btn_acceptAll", "OK for me",
      {"axeptio_cookies": '{"$$completed":true,"facebook_pixel":true}',
       "axeptio_authorized_vendors": ",facebook_pixel,"}),
    C("Cookie Information", "cookieinformation", "https://policy.app.cookieinformation.com/uc.js",
      "button.coi-banner__accept", "Accept all",
      {"CookieInformationConsent": '{"consents_approved":["cookie_cat_marketing"]}'}),
    C("Piwik PRO Consent Manager", "piwikpro", "https://fixture.containers.piwik.pro/2b8f1c3d-fixture.js",
      "#ppms_cm_agree-to-all", "Agree to all", {"ppms_privacy_2b8f1c3d": '{"consents":{"marketing":{"status":1}}}'}),
    C("Commanders Act TrustCommander", "trustcommander",
      "https://cdn.trustcommander.net/privacy/1234/privacy_v2_5.js", "#footer_tc_privacy_button", "Accept all",
      {"TC_PRIVACY": "0%40012%7C1%7C2%401%2C2%2C3%40", "TC_PRIVACY_CENTER": "1%2C2%2C3"}),
    C("Sirdata", "sirdata", "https://choices.consentframework.com/js/pa/12345/c/67890/cmp",
      "#sd-cmp .sd-cmp-JnaLO", "Accept & Close", TCF, tcf=True, cmp_id=92),
    C("LiveRamp Privacy Manager", "liveramp",
      "https://gdpr-wrapper.privacymanager.io/gdpr/3e2b1a0f-fixture/gdpr-liveramp.js", "#save", "Accept All",
      TCF, {"gdpr-auditId": '{"data":"fixture"}', "cconsent-v2": '{"data":"CQfixture"}'}, mount="frame", tcf=True,
      cmp_id=3, frame="https://gdpr.privacymanager.io/1/gdpr.html?id=3e2b1a0f-fixture"),
    C("Admiral", "admiral", "https://succeedscene.com/v2/t6P1o8S0c1H2f3.js", "button.Button__StyledButton-accept",
      "Accept all", TCF, tcf=True, cmp_id=409),
    C("CookieHub", "cookiehub", "https://cookiehub.net/c2/4d5e6f7a.js", ".ch2-allow-all-btn", "Allow all",
      {"cookiehub": "eyJhbnN3ZXJlZCI6dHJ1ZX0="}),
    C("GDPR Cookie Compliance (Moove)", "moove",
      "https://cmp-moove.example/wp-content/plugins/gdpr-cookie-compliance/dist/scripts/main.js",
      ".moove-gdpr-infobar-allow-all", "Accept", {"moove_gdpr_popup": '{"strict":"1","thirdparty":"1"}'}),
    C("Real Cookie Banner", "realcookiebanner",
      "https://cmp-realcookiebanner.example/wp-content/plugins/real-cookie-banner/public/dist/banner.pro.js",
      "a.a-x3m9p", "Accept all", {"real_cookie_banner-v:3_blog:1_path:fixture": "uuid:1,2,3"}),
    C("Cookie Notice (WordPress)", "cookienotice",
      "https://cmp-cookienotice.example/wp-content/plugins/cookie-notice/js/front.min.js", "#cn-accept-cookie", "Ok",
      {"cookie_notice_accepted": "true"}),
    C("CookieLawInfo (GDPR Cookie Consent)", "cookielawinfo",
      "https://cmp-cookielawinfo.example/wp-content/plugins/cookie-law-info/legacy/public/js/cookie-law-info-public.js",
      "#wt-cli-accept-all-btn", "Accept All",
      {"viewed_cookie_policy": "yes", "cookielawinfo-checkbox-advertisement": "yes"}, hide="hide"),
    C("Shopify privacy banner", "shopify", "https://cdn.shopify.com/shopifycloud/privacy-banner/storefront-banner.js",
      "#shopify-pc__banner__btn-accept", "Accept", {"_tracking_consent": '{"con":{"CMP":{"m":"1","s":"1"}}}'}),
    C("HubSpot cookie banner", "hubspot", "https://js.hs-banner.com/v2/4567890/banner.js",
      "#hs-eu-confirmation-button", "Accept", {"__hs_cookie_cat_pref": "1:true,2:true,3:true",
                                              "__hs_initial_opt_in": "true"}),
    C("cookieconsent (Osano open source)", "cookieconsent",
      "https://cdn.jsdelivr.net/npm/cookieconsent@3/build/cookieconsent.min.js", ".cc-allow", "Allow cookies",
      {"cookieconsent_status": "allow"}),
    C("tarteaucitron", "tarteaucitron", "https://tarteaucitron.io/load.js?domain=cmp-tarteaucitron.example&uuid=fx",
      "#tarteaucitronPersonalize2", "OK, accept all", {"tarteaucitron": "!facebookpixel=true"}),
    C("Orejime", "orejime", "https://unpkg.com/orejime@2.3.0/dist/orejime.js", ".orejime-Notice-saveButton",
      "Accept", {"orejime": '{"facebook-pixel":true}'}),
    C("Transcend", "transcend", "https://transcend-cdn.com/cm/7b6a5c4d-fixture/airgap.js",
      "button.primary", "Accept All", {}, {"tcmConsent": '{"purposes":{"Advertising":true}}'},
      mount="shadow"),
    C("Crownpeak (Evidon)", "evidon", "https://c.evidon.com/sitenotice/evidon-sitenotice-tag.js",
      "#_evidon-accept-button", "Accept", {"_evidon_consent_cookie": '{"consent_type":1,"categories":{}}'}),
    C("CookieConsent v3 (orestbida)", "orestbida",
      "https://cdn.jsdelivr.net/gh/orestbida/cookieconsent@3.0.1/dist/cookieconsent.umd.js",
      "#cc-main [data-role=all]", "Accept all", {"cc_cookie": '{"categories":["necessary","analytics","ads"]}'}),
    C("EU Cookie Compliance (Drupal)", "eucookiecompliance",
      "https://cmp-eucookiecompliance.example/modules/contrib/eu_cookie_compliance/js/eu_cookie_compliance.min.js",
      ".agree-button", "Accept", {"cookie-agreed": "2", "cookie-agreed-categories": '["marketing"]'}),
    C("Ensighten Privacy", "ensighten", "https://nexus.ensighten.com/fixture/prod/Bootstrap.js", "#ensAcceptAll",
      "Accept All", {"ENSIGHTEN_PRIVACY_BANNER_VIEWED": "1", "ENSIGHTEN_PRIVACY_Advertising": "1"}),
    C("TermsFeed Cookie Consent", "termsfeed",
      "https://www.termsfeed.com/public/cookie-consent/4.1.0/cookie-consent.js", ".cc-nb-okagree", "I agree",
      {"cookie_consent_user_accepted": "true", "cookie_consent_level": '{"targeting":true}'}),
]


@dataclass(frozen=True)
class LanguageBanner:
    """A site's own cookie banner in one language (settings, reject, accept)."""

    lang: str
    text: str
    settings: str
    reject: str
    accept: str

    @property
    def url(self) -> str:
        return f"https://consent-{self.lang}.example/"

    @property
    def pixel(self) -> str:
        return "8" + str(1000 + LANGUAGE_BANNERS.index(self)) + "0000000001"


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
