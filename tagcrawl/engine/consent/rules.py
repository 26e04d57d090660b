"""Consent rules as data: the multilingual vocabulary of the text heuristic.

Known CMPs live in ``consent_rules_cmps.CMPS`` (re-exported here).  This
module holds the words:

- ``ACCEPT_PHRASES``: accept-button labels per language.  A button matches
  when its *whole* label equals a phrase, after normalisation (lower case,
  accents, punctuation, emoji and spaces removed), so "Accept offer" or
  "OK, subscribe" never match "accept" or "ok".
- ``NEVER_WORDS``: a label that contains one of these at the start of a word
  (anywhere, for Chinese, Japanese and Korean) is never clicked (reject,
  settings, manage, pay/subscribe, policy links, age gates), even when a
  CMP's own accept selector matched it; a label that is exactly an accept
  phrase ("Accept recommended settings") is always allowed.
- ``CONSENT_WORDS``: the heuristic only accepts a button whose fixed, sticky
  or dialog container talks about cookies or consent in one of these words.
- ``AGE_GATE_WORDS``: a container that contains one of these is an age gate.
- ``CONSENT_STORAGE_PATTERN``: names of cookies and storage entries that
  count as "consent stored" when the CMP is not known.
- The refusal (``options.consentAction: "reject"``): a button whose label
  contains a ``REJECT_WORDS`` word (at the start of a word) refuses; when the
  banner has none, a ``SETTINGS_WORDS`` button opens its second layer, where
  a ``SAVE_WORDS`` button ("Save", "Confirm my choices") also refuses, since
  the toggles of a second layer are off by default.

Adding a language is one entry in each of these.
"""
from __future__ import annotations

from tagcrawl.engine.consent.phrases import ACCEPT_PHRASES, LANGUAGES
from tagcrawl.engine.consent.cmps import CMPS

__all__ = ["CMPS", "ACCEPT_PHRASES", "NEVER_WORDS", "CONSENT_WORDS", "AGE_GATE_WORDS",
           "CONSENT_STORAGE_PATTERN", "LANGUAGES", "REJECT_WORDS", "SETTINGS_WORDS", "SAVE_WORDS"]

REJECT_WORDS = [
    "reject", "decline", "deny", "refuse", "disagree", "dismiss all", "necessary", "essential", "required only",
    "without", "do not", "don't", "no thanks", "no, thanks", "opt out", "opt-out", "ablehnen", "alle ablehnen",
    "nur notwendige", "nur essenzielle", "ohne", "nicht", "refuser", "tout refuser", "sans", "continuer sans",
    "rechazar", "sin", "rifiuta", "rifiuto", "senza", "rejeitar", "recusar", "sem", "weigeren", "afwijzen",
    "weiger", "odrzuć", "odrzucam", "nie zgadzam", "avvisa", "neka", "avböj", "afvis", "avvis", "avslå", "hylkää",
    "kieltäydy", "odmítnout", "odmítám", "odmietnuť", "elutasít", "elutasítás",
    "nein", "non merci", "no gracias", "only required", "nem fogad", "respinge", "resping",
    "refuz", "odbij", "odbaci", "откажи", "отхвърл", "απόρριψη", "απορρίπτω", "отклонить", "отказаться", "отказ",
    "отхилити", "відхилити", "reddet", "kabul etme", "拒否", "拒絶", "同意しない", "拒绝", "拒絕", "不同意", "不接受", "거부",
]

#: Second-layer buttons that store the current (default: refused) choices.
SAVE_WORDS = [
    "save", "confirm", "submit", "accept selected", "accept selection", "allow selection", "speichern",
    "auswahl speichern", "bestätigen", "auswahl erlauben", "enregistrer", "confirmer", "valider", "guardar",
    "confirmar", "salva", "conferma", "salvar", "opslaan", "bevestig", "zapisz", "potwierdź", "spara",
    "bekräfta", "gem", "bekræft", "lagre", "bekreft", "tallenna", "vahvista", "uložit", "potvrdit", "uložiť",
    "potvrdiť", "mentés", "megerősít", "salvează", "confirmă", "spremi", "potvrdi", "запази", "потвърди",
    "αποθήκευση", "επιβεβαίωση", "сохранить", "подтвердить", "зберегти", "підтвердити", "kaydet", "保存", "確認",
    "确认", "저장",
]

#: Settings, manage, customise, more information.
SETTINGS_WORDS = [
    "settings", "setting", "manage", "preferences", "preference", "customize", "customise", "configure", "options",
    "more info", "more information", "learn more", "details", "show purposes", "purposes", "selection", "auswahl",
    "einstellungen", "anpassen", "verwalten", "mehr erfahren", "details anzeigen", "individuelle", "paramètres",
    "personnaliser", "gérer", "en savoir plus", "configurar", "configuración", "gestionar", "personalizar",
    "más información", "impostazioni", "gestisci", "personalizza", "scopri di più", "definições", "configurações",
    "gerir", "gerenciar", "saiba mais", "instellingen", "aanpassen", "beheren", "meer informatie", "ustawienia",
    "zarządzaj", "dostosuj", "więcej informacji", "inställningar", "hantera", "anpassa", "indstillinger", "tilpas",
    "administrer", "innstillinger", "tilpass", "asetukset", "muokkaa", "hallinnoi", "lisätietoja", "nastavení",
    "přizpůsobit", "spravovat", "nastavenia", "beállítások", "testreszab", "setări", "personaliz", "postavke",
    "настройки", "ρυθμίσεις", "διαχείριση", "προσαρμογή", "настроить", "управлять", "подробнее", "налаштування",
    "ayarlar", "yönet", "özelleştir", "設定", "管理", "カスタマイズ", "詳細", "设置", "自定义", "管理选项", "了解更多", "설정",
]

#: Paywalls, newsletters and shops: subscribe, pay, buy, offers, accounts.
PAYWALL_WORDS = [
    "subscribe", "subscription", "pay", "buy", "purchase", "offer", "sign up", "register", "log in", "login",
    "sign in", "abonnieren", "abonnement", "abo", "kaufen", "bezahlen", "angebot", "s'abonner", "abonnez",
    "acheter", "payer", "offre", "suscrib", "comprar", "pagar", "oferta", "abbonati", "abbonamento", "acquista",
    "paga", "offerta", "assinar", "assine", "abonneren", "kopen", "betalen", "aanbieding", "subskryb", "kup",
    "zapłać", "prenumerera", "köp", "betala", "erbjudande", "abonner", "køb", "betal", "tilbud", "kjøp", "tilaa",
    "osta", "maksa", "tarjous", "předplat", "koupit", "zaplatit", "nabídka", "feliratkoz", "vásárl", "fizet",
    "ajánlat", "abonea", "cumpără", "plătește", "ofertă", "подписаться", "подписка", "купить", "оплатить",
    "предложение", "συνδρομή", "αγορά", "abone", "satın al", "öde", "teklif", "購読", "購入", "支払", "订阅", "訂閱", "购买",
    "購買", "支付",
]

#: Links to policies.
POLICY_WORDS = [
    "policy", "privacy statement", "cookie statement", "datenschutzerklärung", "cookie-richtlinie", "politique",
    "política", "informativa", "privacybeleid", "polityka", "integritetspolicy", "privatlivspolitik", "personvern",
    "tietosuojaseloste", "zásady", "adatvédelmi", "politica", "политика", "πολιτική", "politika", "ポリシー", "政策",
    "条款",
]

#: Age gates.
AGE_WORDS = [
    "i am over", "i'm over", "i am 18", "i am 21", "years old", "years of age", "18+", "21+", "enter site",
    "enter the site", "legal age", "ich bin über", "ich bin 18", "j'ai plus de", "tengo más de", "ho più di",
]

NEVER_WORDS: list[str] = REJECT_WORDS + SETTINGS_WORDS + PAYWALL_WORDS + POLICY_WORDS + AGE_WORDS

CONSENT_WORDS: list[str] = [
    "cookie", "consent", "gdpr", "personal data", "tracking technolog", "store and/or access information",
    "einwilligung", "zustimmung", "datenschutz", "personenbezogene", "traceur", "consentement",
    "données personnelles", "consentimiento", "datos personales", "consenso", "dati personali", "consentimento",
    "dados pessoais", "toestemming", "persoonsgegevens", "ciasteczk", "zgod", "dane osobowe", "kakor", "samtycke",
    "personuppgifter", "samtykke", "personoplysninger", "informasjonskapsler", "personopplysninger", "eväste",
    "suostumus", "henkilötie", "souhlas", "osobní údaj", "súhlas", "süti", "hozzájárul", "személyes adat",
    "consimțământ", "date personale", "kolačić", "privol", "бисквитк", "συγκατάθεση", "προσωπικά δεδομένα", "куки",
    "согласие", "персональн", "файли cookie", "згод", "çerez", "kişisel veri", "クッキー", "個人情報", "个人信息", "個人資料", "隐私",
    "隱私", "쿠키", "개인정보",
]

AGE_GATE_WORDS: list[str] = [
    "legal drinking age", "age verification", "verify your age", "confirm your age", "date of birth",
    "are you over 18", "are you over 21", "are you 18", "are you 21", "you must be 18", "you must be 21",
    "of legal age", "18 years or older", "21 years or older", "altersverifikation", "altersprüfung",
    "bist du über 18", "sind sie über 18", "mindestens 18", "vérification de l'âge", "avez-vous plus de 18",
    "êtes-vous majeur", "verificación de edad", "mayor de edad", "verifica dell'età", "maggiorenne", "年齢確認",
    "20歳以上", "年龄验证", "已满18",
]

#: Cookie and storage names that mean "consent was stored" when the CMP is
#: not known (a JS regular expression, case-insensitive).
CONSENT_STORAGE_PATTERN = r"consent|cookie|gdpr|privacy|cmp|accept|agree|opt.?in|tcf|notice|eu.?cookie"
