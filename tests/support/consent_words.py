"""One banner sentence and one "accept only necessary" refusal per language
file ``tagcrawl/engine/consent/words/<lang>.json``, for the word tests
(tests/unit/test_consent_words.py on the data, tests/browser/test_consent_words.py
through the scanner in Chrome).  Every language file has an entry: adding a
file without one fails the unit test.

The refusal labels are phrased the way banners say it ("Accept only the
necessary cookies"): they contain an accept verb, and must still be read as a
refusal, never as an accept button.
"""
from __future__ import annotations

#: lang -> (a banner sentence in that language, an "accept only necessary" label).
ONLY_NECESSARY: dict[str, tuple[str, str]] = {
    "bg": ("Използваме бисквитки, за да подобрим услугите си.", "Приемам само необходимите"),
    "ca": ("Utilitzem galetes per millorar la teva experiència.", "Acceptar només les necessàries"),
    "cs": ("Používáme soubory cookie ke zlepšení vašeho zážitku.", "Přijmout pouze nezbytné"),
    "cy": ("Rydym yn defnyddio cwcis i wella eich profiad.", "Derbyn cwcis hanfodol yn unig"),
    "da": ("Vi bruger cookies til at forbedre din oplevelse.", "Accepter kun nødvendige"),
    "de": ("Wir verwenden Cookies, um Inhalte zu personalisieren.", "Nur notwendige Cookies akzeptieren"),
    "el": ("Χρησιμοποιούμε cookies για να βελτιώσουμε την εμπειρία σας.", "Αποδοχή μόνο των απαραίτητων"),
    "en": ("We use cookies to improve your experience.", "Accept only necessary cookies"),
    "es": ("Utilizamos cookies propias y de terceros para analizar el tráfico.", "Aceptar solo las necesarias"),
    "et": ("Kasutame küpsiseid, et parandada teie kogemust.", "Nõustu ainult vajalikega"),
    "eu": ("Cookieak erabiltzen ditugu zure esperientzia hobetzeko.", "Beharrezkoak soilik onartu"),
    "fi": ("Käytämme evästeitä parantaaksemme käyttökokemusta.", "Hyväksy vain välttämättömät"),
    "fr": ("Nous utilisons des cookies pour mesurer l'audience.", "Accepter uniquement les cookies nécessaires"),
    "ga": ("Úsáidimid fianáin chun do thaithí a fheabhsú.", "Glac leis na fianáin riachtanacha amháin"),
    "gl": ("Usamos cookies e pedimos o teu consentimento.", "Aceptar só as necesarias"),
    "hr": ("Koristimo kolačiće za bolje iskustvo.", "Prihvati samo nužne"),
    "hu": ("Sütiket használunk a felhasználói élmény javítására.", "Csak a szükségesek elfogadása"),
    "is": ("Við notum vafrakökur til að bæta upplifun þína.", "Samþykkja aðeins nauðsynlegar"),
    "it": ("Utilizziamo i cookie per migliorare la tua esperienza.", "Accetta solo i necessari"),
    "ja": ("当サイトではサービス向上のためにクッキーを使用しています。", "必要なCookieのみ受け入れる"),
    "ko": ("당사는 더 나은 서비스를 위해 쿠키를 사용합니다.", "필수 쿠키만 허용"),
    "lt": ("Naudojame slapukus, kad pagerintume jūsų patirtį.", "Priimti tik būtinus"),
    "lv": ("Mēs izmantojam sīkdatnes, lai uzlabotu jūsu pieredzi.", "Pieņemt tikai nepieciešamās"),
    "mt": ("Nużaw il-cookies biex intejbu l-esperjenza tiegħek.", "Aċċetta biss il-cookies meħtieġa"),
    "nl": ("Wij gebruiken cookies om onze website te verbeteren.", "Alleen noodzakelijke cookies accepteren"),
    "no": ("Vi bruker informasjonskapsler for å forbedre opplevelsen din.", "Godta kun nødvendige"),
    "pl": ("Używamy plików cookie, aby zapewnić najlepszą jakość usług.", "Akceptuj tylko niezbędne"),
    "pt": ("Utilizamos cookies para melhorar a sua experiência.", "Aceitar apenas os necessários"),
    "pt-br": ("Usamos cookies para melhorar sua experiência, conforme a LGPD.", "Aceitar somente os necessários"),
    "ro": ("Folosim cookie-uri pentru a îmbunătăți experiența ta.", "Acceptă doar cele necesare"),
    "ru": ("Мы используем файлы cookie, чтобы улучшить работу сайта.", "Принять только необходимые"),
    "sk": ("Používame súbory cookie na zlepšenie služieb.", "Prijať len nevyhnutné"),
    "sl": ("Uporabljamo piškotke za boljšo izkušnjo.", "Sprejmi samo nujne"),
    "sv": ("Vi använder cookies för att förbättra din upplevelse.", "Godkänn endast nödvändiga"),
    "tr": ("Deneyiminizi iyileştirmek için çerezler kullanıyoruz.", "Sadece zorunlu çerezleri kabul et"),
    "uk": ("Ми використовуємо файли cookie.", "Прийняти лише необхідні"),
    "zh": ("我们使用 Cookie 来改善您的浏览体验。", "仅接受必要的Cookie"),
}
