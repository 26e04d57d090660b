"""Accept-button phrases of the consent text heuristic, per language (data).

Labels are compared with the whole normalised label of a button (case,
accents, punctuation and emoji ignored); see ``consent_scan.js``.
"""
from __future__ import annotations

#: Language code -> English name, for the documentation.
LANGUAGES = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
    "nl": "Dutch", "pl": "Polish", "sv": "Swedish", "da": "Danish", "no": "Norwegian", "fi": "Finnish",
    "cs": "Czech", "sk": "Slovak", "hu": "Hungarian", "ro": "Romanian", "hr": "Croatian", "bg": "Bulgarian",
    "el": "Greek", "ru": "Russian", "uk": "Ukrainian", "tr": "Turkish", "ja": "Japanese", "zh": "Chinese",
    "ko": "Korean",
}

ACCEPT_PHRASES: dict[str, list[str]] = {
    "en": [
        "accept", "accept all", "accept all cookies", "accept cookies", "accept and close", "accept & close",
        "accept and continue", "accept all and close", "accept all & close", "accept all and continue",
        "accept recommended settings", "allow", "allow all", "allow all cookies", "allow cookies", "agree",
        "i agree", "agree and close", "agree & close", "agree and continue", "agree and proceed", "agree to all",
        "yes, i agree", "i accept", "consent", "ok", "okay", "ok, got it", "got it", "got it!", "i understand",
        "that's ok", "ok for me", "ok, accept all", "yes, i accept", "accept & continue", "sounds good",
        "continue with cookies", "i'm ok with that", "accept cookies and close", "agree to all cookies",
    ],
    "de": [
        "akzeptieren", "alle akzeptieren", "alles akzeptieren", "alle cookies akzeptieren", "cookies akzeptieren",
        "akzeptieren und schließen", "akzeptieren und weiter", "alle akzeptieren und weiter", "zustimmen",
        "allen zustimmen", "allem zustimmen", "zustimmen und weiter", "zustimmen & weiter", "alle zulassen",
        "alle erlauben", "cookies zulassen", "alle cookies zulassen", "einverstanden", "ich bin einverstanden",
        "ich stimme zu", "annehmen", "alle annehmen", "verstanden", "alles klar", "akzeptieren & schließen",
        "ja, ich stimme zu",
    ],
    "fr": [
        "accepter", "tout accepter", "accepter tout", "accepter et fermer", "accepter & fermer",
        "accepter et continuer", "accepter les cookies", "accepter tous les cookies", "tout accepter et fermer",
        "j'accepte", "je suis d'accord", "d'accord", "autoriser", "tout autoriser", "autoriser tous les cookies",
        "ok, tout accepter", "ok pour moi", "oui, j'accepte", "j'ai compris", "accepter et poursuivre",
    ],
    "es": [
        "aceptar", "aceptar todo", "aceptar todas", "aceptar todas las cookies", "aceptar cookies",
        "aceptar y cerrar", "aceptar y continuar", "acepto", "de acuerdo", "estoy de acuerdo", "permitir todas",
        "permitir todo", "permitir cookies", "permitir todas las cookies", "entendido", "aceptar todos",
        "sí, acepto",
    ],
    "it": [
        "accetta", "accetta tutto", "accetta tutti", "accetta tutti i cookie", "accetta i cookie", "accetto",
        "acconsento", "accetta e chiudi", "accetta e continua", "consenti", "consenti tutti", "ho capito",
        "va bene", "sono d'accordo", "ok, accetto", "accetta tutti i cookies",
    ],
    "pt": [
        "aceitar", "aceitar tudo", "aceitar todos", "aceitar todos os cookies", "aceitar cookies", "aceito",
        "concordo", "eu concordo", "permitir todos", "permitir tudo", "aceitar e fechar", "aceitar e continuar",
        "entendi", "ok, entendi", "aceitar todas", "aceito todos",
    ],
    "nl": [
        "accepteren", "alles accepteren", "alle cookies accepteren", "accepteer", "accepteer alles",
        "accepteer alle cookies", "akkoord", "ga akkoord", "ik ga akkoord", "alles toestaan", "toestaan",
        "cookies toestaan", "alle cookies toestaan", "akkoord en sluiten", "oké", "ja, ik ga akkoord", "prima",
        "cookies accepteren", "accepteren en doorgaan",
    ],
    "pl": [
        "akceptuję", "akceptuj", "akceptuj wszystkie", "zaakceptuj", "zaakceptuj wszystkie", "akceptuję wszystkie",
        "zgadzam się", "zgoda", "zezwól na wszystkie", "zaakceptuj i zamknij", "rozumiem",
        "akceptuję i przechodzę do serwisu", "przechodzę do serwisu", "przejdź do serwisu", "akceptuj wszystko",
        "zaakceptuj wszystko", "zezwól na wszystko",
    ],
    "sv": [
        "acceptera", "acceptera alla", "acceptera alla cookies", "acceptera cookies", "godkänn", "godkänn alla",
        "godkänn alla cookies", "jag godkänner", "tillåt alla", "tillåt alla cookies", "jag förstår", "okej",
        "ok, jag förstår", "jag accepterar", "godta alla", "acceptera alla kakor", "godkänn kakor",
    ],
    "da": [
        "accepter", "accepter alle", "accepter alle cookies", "acceptér", "acceptér alle", "tillad alle",
        "tillad alle cookies", "tillad", "jeg accepterer", "forstået", "godkend", "godkend alle", "jeg forstår",
        "accepter og luk", "accepter cookies", "ja tak", "ja, accepter",
    ],
    "no": [
        "godta", "godta alle", "godta alle informasjonskapsler", "aksepter", "aksepter alle", "jeg godtar",
        "tillat alle", "tillat alle informasjonskapsler", "ok, jeg forstår", "greit", "jeg samtykker", "godkjenn",
        "godkjenn alle", "aksepter alle informasjonskapsler",
    ],
    "fi": [
        "hyväksy", "hyväksy kaikki", "hyväksy evästeet", "hyväksy kaikki evästeet", "hyväksyn", "salli kaikki",
        "salli evästeet", "salli kaikki evästeet", "ymmärrän", "selvä", "hyväksy ja sulje", "hyväksyn kaikki",
    ],
    "cs": [
        "přijmout", "přijmout vše", "přijmout všechny", "přijmout všechny cookies", "přijmout cookies", "souhlasím",
        "souhlasím se vším", "povolit vše", "povolit všechny", "povolit všechny cookies", "rozumím",
        "přijmout a zavřít", "souhlasím a pokračovat", "přijmout vše a zavřít",
    ],
    "sk": [
        "prijať", "prijať všetko", "prijať všetky", "súhlasím", "povoliť všetko", "povoliť všetky", "rozumiem",
        "prijať všetky cookies", "súhlasím so všetkým",
    ],
    "hu": [
        "elfogadom", "elfogad", "összes elfogadása", "az összes elfogadása", "mindet elfogadom", "elfogadás",
        "mind elfogadása", "engedélyezem", "összes engedélyezése", "rendben", "egyetértek",
        "minden süti elfogadása", "elfogadom és bezárom", "összes süti elfogadása", "mindent elfogadok",
    ],
    "ro": [
        "accept", "accept tot", "accept toate", "acceptă", "acceptă tot", "acceptă toate", "acceptați",
        "acceptați tot", "acceptați toate", "sunt de acord", "de acord", "permite toate", "permiteți toate",
        "am înțeles", "accept cookie-urile", "acceptă toate cookie-urile", "accept toate cookie-urile",
    ],
    "hr": [
        "prihvati", "prihvati sve", "prihvaćam", "slažem se", "dopusti sve", "prihvati kolačiće", "prihvaćam sve",
        "razumijem",
    ],
    "bg": [
        "приемам", "приеми", "приемане", "приемане на всички", "приеми всички", "съгласен съм", "разбрах",
        "разреши всички",
    ],
    "el": [
        "αποδοχή", "αποδοχή όλων", "αποδέχομαι", "αποδέχομαι όλα", "αποδοχή όλων των cookies", "αποδοχή cookies",
        "συμφωνώ", "εντάξει", "το κατάλαβα", "αποδέχομαι τα cookies", "επιτρέψτε όλα", "αποδοχή και κλείσιμο",
        "αποδοχή όλων και κλείσιμο", "να επιτρέπονται όλα",
    ],
    "ru": [
        "принять", "принять все", "принимаю", "я принимаю", "согласен", "я согласен", "согласна", "соглашаюсь",
        "согласиться", "разрешить все", "разрешить", "принять все cookie", "принять cookie", "принять cookies",
        "принять все файлы cookie", "понятно", "хорошо", "ок", "принять и закрыть", "принять все куки",
        "согласен и закрыть",
    ],
    "uk": [
        "прийняти", "прийняти все", "прийняти всі", "приймаю", "погоджуюсь", "погоджуюся", "дозволити все",
        "зрозуміло", "прийняти всі файли cookie", "я погоджуюсь",
    ],
    "tr": [
        "kabul et", "kabul ediyorum", "tümünü kabul et", "hepsini kabul et", "tüm çerezleri kabul et",
        "çerezleri kabul et", "kabul", "onayla", "onaylıyorum", "tümüne izin ver", "izin ver", "anladım", "tamam",
        "kabul et ve kapat", "tümünü kabul ediyorum", "hepsine izin ver",
    ],
    "ja": [
        "同意する", "同意します", "すべて同意する", "全て同意する", "すべてに同意", "すべてに同意する", "すべて許可", "すべて許可する", "すべてのcookieを許可",
        "すべてのcookieを受け入れる", "すべてのクッキーを受け入れる", "受け入れる", "すべて受け入れる", "承諾", "承諾する", "同意", "許可する", "了解", "同意して閉じる",
        "cookieを受け入れる", "クッキーを受け入れる", "同意して続行", "ok", "閉じて同意",
    ],
    "zh": [
        "接受", "全部接受", "接受全部", "接受所有", "接受所有cookie", "接受所有 cookies", "同意", "我同意", "全部同意", "同意并继续", "同意並繼續", "允许所有",
        "允許所有", "允许全部", "允許全部", "接受全部cookie", "我接受", "好的", "知道了", "确定", "確定", "接受并关闭", "接受並關閉", "接受cookie",
        "接受 cookies", "同意所有", "全部允许", "全部允許",
    ],
    "ko": [
        "동의", "동의합니다", "모두 동의", "모두 허용", "모두 수락", "수락", "허용", "확인", "쿠키 허용",
    ],
}

#: Reject, refuse, necessary only, continue without.
