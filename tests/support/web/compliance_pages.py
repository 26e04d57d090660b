"""Fixture-web routes of the consent-compliance tests (``tests/browser/test_consent_compliance.py``).

Every page installs three tags (``compliance/tags.js``): one fired before any
choice (Meta Pixel), one only on consent to marketing (TikTok Pixel) and one
on any choice, refusal included (Google tag): before_consent, after_accept
and the violation.  The CMPs are the real published libraries, served
unmodified by the npm CDN route (``npm_cdn.cdn_url``):

- ``cc-vanilla.example``: vanilla-cookieconsent v3; ``cc-vanilla-layered.example``:
  the same with no "Reject all" in its first layer (reject in the second layer);
- ``cc-klaro.example``: Klaro; ``cc-tarteaucitron.example``: tarteaucitron.js;
- ``cc-osano.example``: Osano's open-source cookieconsent; ``cc-orejime.example``: Orejime;
- ``cc-tcf.example``: a TCF v2.2 CMP built on ``@iabtcf/cmpapi`` and ``@iabtcf/core``;
- ``cc-decoy.example``: a TrustArc-style consent frame whose first ``a.call`` is
  "More options" (label drawn by CSS), the second "Agree and Proceed";
- ``cc-frame.example``: a site banner in a cross-site iframe
  (``consent-widget.example/reject.html``) whose refusal is posted to the page;
  ``cc-closed-shadow.example``: a site banner in a closed shadow root;
  ``cc-nostore.example``: a banner whose "Decline" only hides it (stores nothing);
- ``cc-gpp.example``: a US privacy CMP on ``@iabgpp/cmpapi`` (GPP, uspv1 section);
- ``cc-gpp-us.example``: a US CMP on ``@iabgpp/cmpapi`` with the usnat and usca sections;
- ``cc-gpp-cookie.example`` / ``cc-gpp-pixel.example``: no GPP API, only a GPP string
  (:data:`GPP_STRING`) in the ``OTGPPConsent`` cookie / in a Meta pixel's ``gpp`` parameter;
- ``cc-gcm.example``: a site banner and Google hits carrying Consent Mode
  ``gcs``/``gcd`` in several states (what gtag.js sends; gtag.js is not on npm).

vanilla-cookieconsent hides itself from ``navigator.webdriver`` browsers
(``hideFromBots``, default true); the page sets its documented option
``hideFromBots: false`` so that these tests do not depend on stealth.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from . import npm_cdn

HERE = Path(__file__).with_name("compliance")
HTML = {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}
JS = {"Content-Type": "application/javascript; charset=utf-8", "Cache-Control": "no-store"}
DECOY_FRAME = "https://consent-pref.trustarc.com/?type=decoy&site=cc-decoy.example"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<script src="/__compliance/tags.js"></script>
<script>ccTags.before();</script>
{head}
</head>
<body>
<h1>{title}</h1>
<p>Wool socks, trail shoes and hats. Free shipping over 50 EUR.</p>
{body}
</body></html>
"""


def _vanilla(layered: bool) -> tuple[str, str]:
    first = {"title": "We use cookies", "description": "We use cookies for marketing and to measure our audience.",
             "acceptAllBtn": "Accept all", "showPreferencesBtn": "Manage preferences"}
    if not layered:
        first["acceptNecessaryBtn"] = "Reject all"
    config = {
        "hideFromBots": False,  # documented option: show the banner to WebDriver browsers too
        "categories": {"necessary": {"enabled": True, "readOnly": True}, "marketing": {}},
        "language": {"default": "en", "translations": {"en": {
            "consentModal": first,
            "preferencesModal": {"title": "Cookie preferences", "acceptAllBtn": "Accept all",
                                 "acceptNecessaryBtn": "Reject all", "savePreferencesBtn": "Save preferences",
                                 "closeIconLabel": "Close",
                                 "sections": [{"title": "Strictly necessary", "description": "Needed.",
                                               "linkedCategory": "necessary"},
                                              {"title": "Marketing", "description": "Advertising pixels.",
                                               "linkedCategory": "marketing"}]}}}},
    }
    head = f'<link rel="stylesheet" href="{npm_cdn.cdn_url("vanilla-cookieconsent", "dist/cookieconsent.css")}">'
    body = f"""<script src="{npm_cdn.cdn_url("vanilla-cookieconsent", "dist/cookieconsent.umd.js")}"></script>
<script>
  var config = {json.dumps(config)};
  config.onConsent = function () {{
    ccTags.anyChoice();
    if (CookieConsent.acceptedCategory("marketing")) ccTags.accepted();
  }};
  CookieConsent.run(config);
</script>"""
    return head, body


def _klaro() -> tuple[str, str]:
    head = """<script>
  var klaroConfig = {
    storageMethod: "cookie", cookieName: "klaro", default: false, mustConsent: false, acceptAll: true,
    translations: {zz: {privacyPolicyUrl: "/privacy"}, en: {consentNotice: {description:
      "We use cookies and similar technologies for {purposes}. You can accept or decline."},
      purposes: {marketing: "marketing"}}},
    services: [{name: "tiktok", title: "TikTok Pixel", purposes: ["marketing"], cookies: ["_ttp"],
                callback: function (consent) { if (consent) ccTags.accepted(); }}]
  };
</script>"""
    body = f"""<script src="{npm_cdn.cdn_url("klaro", "dist/klaro.js")}"></script>
<script>
  klaro.getManager().watch({{update: function (manager, name) {{ if (name === "saveConsents") ccTags.anyChoice(); }}}});
</script>"""
    return head, body


def _tarteaucitron() -> tuple[str, str]:
    head = f"""<script src="{npm_cdn.cdn_url("tarteaucitronjs", "tarteaucitron.js")}"></script>
<script>
  tarteaucitron.init({{privacyUrl: "", bodyPosition: "top", hashtag: "#tarteaucitron", cookieName: "tarteaucitron",
    orientation: "bottom", showAlertSmall: false, cookieslist: false, showIcon: false, DenyAllCta: true,
    AcceptAllCta: true, highPrivacy: true, handleBrowserDNTRequest: false, removeCredit: true, moreInfoLink: false,
    mandatory: true, mandatoryCta: false, useExternalCss: false, useExternalJs: false}});
  tarteaucitron.services.fixturetiktok = {{key: "fixturetiktok", type: "ads", name: "TikTok Pixel",
    uri: "https://www.tiktok.com/legal/privacy-policy", needConsent: true, cookies: ["_ttp"],
    js: function () {{ ccTags.accepted(); }}}};
  (tarteaucitron.job = tarteaucitron.job || []).push("fixturetiktok");
  /* the violating tag: fires on any click in the consent alert, refusal included */
  document.addEventListener("click", function (event) {{
    if (event.target.closest && event.target.closest("#tarteaucitronAlertBig")) ccTags.anyChoice();
  }}, true);
</script>"""
    return head, ""


def _osano() -> tuple[str, str]:
    head = f'<link rel="stylesheet" href="{npm_cdn.cdn_url("cookieconsent", "build/cookieconsent.min.css")}">'
    body = f"""<script src="{npm_cdn.cdn_url("cookieconsent", "build/cookieconsent.min.js")}"></script>
<script>
  window.cookieconsent.initialise({{type: "opt-in",
    content: {{message: "This website uses cookies for advertising.", allow: "Allow cookies", deny: "Decline",
               link: "Learn more", href: "https://cc-osano.example/privacy"}},
    onStatusChange: function () {{ ccTags.anyChoice(); if (this.hasConsented()) ccTags.accepted(); }}}});
</script>"""
    return head, body


def _orejime() -> tuple[str, str]:
    head = f"""<link rel="stylesheet" href="{npm_cdn.cdn_url("orejime", "dist/orejime-standard.css")}">
<script>
  window.orejimeConfig = {{privacyPolicyUrl: "/privacy",
    purposes: [{{id: "ads", title: "Advertising", description: "TikTok Pixel.", cookies: ["_ttp"]}}]}};
</script>"""
    body = f"""<template data-purpose="ads"><script>ccTags.accepted();</script></template>
<script src="{npm_cdn.cdn_url("orejime", "dist/orejime-standard-en.js")}"></script>
<script>
  document.addEventListener("DOMContentLoaded", function () {{  /* after Orejime's own start-up */
    Promise.resolve(window.orejime).then(function (orejime) {{
      orejime.manager.on("update", function () {{ ccTags.anyChoice(); }});
    }});
  }});
</script>"""
    return head, body


def fixture_gvl() -> dict:
    """A small Global Vendor List (spec v3, policy 5 = TCF v2.2) with real vendor ids."""
    def entries(n):
        return {str(i): {"id": i, "name": f"Purpose {i}", "description": "", "illustrations": []}
                for i in range(1, n + 1)}

    def vendor(vid, name):
        return {"id": vid, "name": name, "purposes": [1, 2, 3, 4, 7, 9, 10], "legIntPurposes": [],
                "flexiblePurposes": [], "specialPurposes": [1], "features": [], "specialFeatures": [1],
                "usesCookies": True, "cookieRefresh": False, "usesNonCookieAccess": False, "cookieMaxAgeSeconds": 3600}
    return {"gvlSpecificationVersion": 3, "vendorListVersion": 150, "tcfPolicyVersion": 5,
            "lastUpdated": "2024-05-01T10:00:00Z", "purposes": entries(11), "specialPurposes": entries(3),
            "features": entries(3), "specialFeatures": entries(2), "stacks": {}, "dataCategories": {},
            "vendors": {str(v): vendor(v, n) for v, n in ((1, "Exponential"), (2, "Captify"), (755, "Google"),
                                                           (793, "Amazon"))}}


def _tcf() -> tuple[str, str]:
    imports = {"imports": {"@iabtcf/core": npm_cdn.cdn_url("@iabtcf/core", "lib/mjs/index.js")}}
    head = f"""<script src="{npm_cdn.cdn_url("@iabtcf/stub", "lib/stub.js")}"></script>
<script type="importmap">{json.dumps(imports)}</script>
<script>
  window.FIXTURE_GVL = {json.dumps(fixture_gvl())};
  __tcfapi("addEventListener", 2, function (tcData, ok) {{
    if (!ok || tcData.eventStatus !== "useractioncomplete") return;
    ccTags.anyChoice();
    if (tcData.purpose.consents[1] && tcData.vendor.consents[755]) {{
      ccTags.accepted(); ccTags.tcfPixel(tcData.tcString);
    }}
  }});
</script>
<script type="module" src="/__compliance/tcf_cmp.js"></script>"""
    body = """<div id="tcf-banner" role="dialog"
     style="display:none;position:fixed;bottom:0;left:0;right:0;background:#fff;padding:16px;z-index:1000">
  <p>We and our 4 partners store and/or access information on a device, such as cookies, and process personal
  data for personalised advertising and content, measurement and audience research.</p>
  <button type="button" data-tcf="reject">Reject all</button>
  <button type="button" data-tcf="accept">Accept all</button>
</div>"""
    return head, body


DECOY_TOP = f"""<div class="truste_overlay"
     style="position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:1000001"></div>
<div class="truste_box_overlay" style="position:fixed;top:10%;left:10%;right:10%;z-index:1000002">
  <iframe src="{DECOY_FRAME}" class="truste_popframe" title="TrustArc Cookie Consent Manager"
          style="width:100%;height:320px;border:0;background:#fff"></iframe>
</div>
<script>
  window.addEventListener("message", function (event) {{
    if (!event.data || event.data.fixtureCmp !== "accept") return;
    document.cookie = "notice_preferences=2:; path=/; max-age=31536000";
    document.cookie = "notice_gdpr_prefs=0,1,2:; path=/; max-age=31536000";
    document.querySelectorAll(".truste_overlay,.truste_box_overlay").forEach(function (n) {{ n.remove(); }});
    ccTags.anyChoice(); ccTags.accepted();
  }});
</script>"""

DECOY_FRAME_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TrustArc</title>
<style>a.call.more::after { content: "More options"; } #options { display: none; }</style></head>
<body style="font:14px sans-serif;padding:16px">
<div class="pdynamicpane"><h2>Your Privacy</h2>
<p>This site uses cookies and related technologies for site operation, analytics and advertising.</p>
<div class="pdynamicbutton">
  <a class="call more" role="button" href="javascript:void(0)"></a>
  <a class="call" role="button" href="javascript:void(0)">Agree and Proceed</a>
</div>
<div id="options"><label><input type="checkbox"> Advertising</label></div></div>
<script>
  document.querySelector("a.call.more").addEventListener("click", function () {
    document.getElementById("options").style.display = "block";
  });
  document.querySelector("a.call:not(.more)").addEventListener("click", function () {
    parent.postMessage({fixtureCmp: "accept"}, "*");
  });
</script></body></html>"""

GCM_HITS = """<script>
  /* What gtag.js sends under Consent Mode v2: gcs/gcd on every Google hit. */
  function googleHit(url) { new Image().src = url + "&_p=" + Date.now(); }
  var ga = "https://region1.google-analytics.com/g/collect?v=2&tid=G-CMODE0001&cid=1.2&en=page_view";
  googleHit(ga + "&gcs=G100&gcd=13p3p3p3p5");  /* defaults: all denied */
  googleHit("https://googleads.g.doubleclick.net/pagead/viewthroughconversion/123456789/?cv=11&gcs=G111&gcd=13t3t3t3t5");
  window.addEventListener("fixtureconsent", function () {
    googleHit(ga + "&gcs=G111&gcd=13r3r3r3r5&gcu=1");  /* updated: all granted */
    googleHit("https://region1.google-analytics.com/g/collect?v=2&tid=G-CMODE0002&cid=1.2&en=page_view&gcs=G101&gcd=13q3r3m3n5");
  });
</script>
<div id="cookie-banner" style="position:fixed;bottom:0;left:0;right:0;background:#fff;padding:16px;z-index:1000">
  <p>We use cookies for analytics and advertising.</p>
  <button type="button" data-consent="reject">Reject all</button>
  <button type="button" data-consent="accept">Accept all</button>
</div>
<script src="/__consent/site.js"></script>
<script>
  siteConsent.wire(document, document.getElementById("cookie-banner"));
  document.querySelector("[data-consent=accept]").addEventListener("click", function () {
    window.dispatchEvent(new Event("fixtureconsent"));
  });
</script>"""

FRAME_TOP = """<iframe id="consent-frame" src="https://consent-widget.example/reject.html" title="Consent"
        style="position:fixed;bottom:0;left:0;width:100%;height:150px;border:0;z-index:1000;background:#fff"></iframe>
<script src="/__consent/site.js"></script>
<script>
  window.addEventListener("message", function (event) {
    if (event.origin !== "https://consent-widget.example") return;
    var frame = document.getElementById("consent-frame");
    ccTags.anyChoice();
    if (event.data === "consent:granted") { siteConsent.grant(frame); ccTags.accepted(); }
    if (event.data === "consent:denied") siteConsent.deny(frame);
  });
</script>"""

FRAME_BANNER = """<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Cookies</title></head>
<body style="margin:0;font:14px sans-serif;padding:12px">
<p>Wir verwenden Cookies f\u00fcr Statistik und Werbung.</p>
<button type="button" id="deny">Alle ablehnen</button> <button type="button" id="grant">Alle akzeptieren</button>
<script>
  document.getElementById("grant").onclick = function () { parent.postMessage("consent:granted", "*"); };
  document.getElementById("deny").onclick = function () { parent.postMessage("consent:denied", "*"); };
</script></body></html>"""

CLOSED_SHADOW = """<consent-box></consent-box>
<script src="/__consent/site.js"></script>
<script>
  customElements.define("consent-box", class extends HTMLElement {
    connectedCallback() {
      var root = this.attachShadow({mode: "closed"});
      root.innerHTML = '<div style="position:fixed;bottom:0;left:0;right:0;background:#fff;z-index:1000">' +
        '<p>Nous utilisons des cookies pour la mesure d\\'audience et la publicit\u00e9.</p>' +
        '<button type="button" data-consent="reject">Continuer sans accepter</button> ' +
        '<button type="button" data-consent="accept">Tout accepter</button></div>';
      var box = this;
      root.addEventListener("click", function (event) {
        var choice = event.target.getAttribute("data-consent");
        if (!choice) return;
        ccTags.anyChoice();
        if (choice === "accept") { siteConsent.grant(box); ccTags.accepted(); } else siteConsent.deny(box);
      });
    }
  });
</script>"""

NO_STORE = """<div id="bar" role="dialog" style="position:fixed;bottom:0;left:0;right:0;background:#fff;z-index:1000">
  <p>We use cookies for advertising.</p>
  <button type="button" id="no">Decline</button> <button type="button" id="yes">Accept</button>
</div>
<script>
  /* refusing only hides the banner: nothing is stored */
  document.getElementById("no").onclick = function () { document.getElementById("bar").remove(); ccTags.anyChoice(); };
  document.getElementById("yes").onclick = function () {
    document.cookie = "cookie_consent=yes; path=/; max-age=86400";
    document.getElementById("bar").remove(); ccTags.anyChoice(); ccTags.accepted();
  };
</script>"""

GPP_STUB = """<script>
  /* A minimal __gpp stub (fixture code): queues calls and listeners until the CMP loads. */
  (function () {
    var queue = [], events = [], next = 0;
    window.__gpp = function (command, callback, parameter) {
      if (!arguments.length) return queue;
      if (command === "events") return events;
      if (command === "addEventListener") { events.push({id: ++next, callback: callback, parameter: parameter}); return; }
      queue.push(Array.prototype.slice.call(arguments));
    };
  })();
</script>"""


def _gpp(module: str = "gpp_cmp.js") -> tuple[str, str]:
    head = GPP_STUB + f'\n<script type="module" src="/__compliance/{module}"></script>'
    body = """<div id="gpp-banner" role="dialog" style="position:fixed;bottom:0;left:0;right:0;background:#fff;z-index:1000">
  <p>We use cookies and share personal information with advertising partners.</p>
  <button type="button" data-gpp="reject">Do not sell my personal information</button>
  <button type="button" data-gpp="accept">Accept</button>
</div>"""
    return head, body


#: A GPP string encoded by @iabgpp/cmpapi 3.2.0 (GppModel.encode) with usnat {SharingNotice: 1,
#: SaleOptOutNotice: 1, SaleOptOut: 1, SensitiveDataProcessing[0]: 2, Gpc: true} and usca {SaleOptOutNotice: 1,
#: SaleOptOut: 1, SharingOptOut: 2, MspaCoveredTransaction: 2}: what a CMP stores and passes to pixels.
GPP_STRING = "DBABrw~CUAQgAAAAABA.YA~BQYAAACA.QA"


def _gpp_string_only(where: str) -> tuple[str, str]:
    """No __gpp API: the GPP string in the OTGPPConsent cookie (``where="cookie"``, URL-encoded as OneTrust
    stores it) or in a pixel's gpp / gpp_sid parameters (``"pixel"``)."""
    if where == "cookie":
        script = f'document.cookie = "OTGPPConsent=" + encodeURIComponent("{GPP_STRING}") + "; path=/";'
    else:
        script = f'ccTags.gppPixel("{GPP_STRING}", "7,8");'
    return f"<script>{script}</script>", ""


BUILDERS = {
    "cc-vanilla.example": ("vanilla-cookieconsent", lambda: _vanilla(False)),
    "cc-vanilla-layered.example": ("vanilla-cookieconsent, reject in the second layer", lambda: _vanilla(True)),
    "cc-klaro.example": ("Klaro", _klaro),
    "cc-tarteaucitron.example": ("tarteaucitron.js", _tarteaucitron),
    "cc-osano.example": ("Osano cookieconsent", _osano),
    "cc-orejime.example": ("Orejime", _orejime),
    "cc-tcf.example": ("IAB TCF CMP (@iabtcf/cmpapi)", _tcf),
    "cc-decoy.example": ("TrustArc-style decoy", lambda: ("", DECOY_TOP)),
    "cc-gcm.example": ("Google Consent Mode", lambda: ("", GCM_HITS)),
    "cc-frame.example": ("Banner in a cross-site iframe", lambda: ("", FRAME_TOP)),
    "cc-closed-shadow.example": ("Banner in a closed shadow root", lambda: ("", CLOSED_SHADOW)),
    "cc-nostore.example": ("A refusal that is not stored", lambda: ("", NO_STORE)),
    "cc-gpp.example": ("IAB GPP CMP (@iabgpp/cmpapi), US Privacy section", _gpp),
    "cc-gpp-us.example": ("IAB GPP CMP (@iabgpp/cmpapi), US national and California sections",
                          lambda: _gpp("gpp_us_cmp.js")),
    "cc-gpp-cookie.example": ("A GPP string in a cookie, no GPP API", lambda: _gpp_string_only("cookie")),
    "cc-gpp-pixel.example": ("A GPP string in a pixel, no GPP API", lambda: _gpp_string_only("pixel")),
}


def page(host: str) -> str:
    """The fixture page of ``host`` (a key of ``BUILDERS``)."""
    title, build = BUILDERS[host]
    head, body = build()
    return PAGE.format(title=title, head=head, body=body)


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None when not ours."""
    if path == "/__compliance/tags.js":
        return 200, JS, (HERE / "tags.js").read_bytes()
    if path == "/__compliance/tcf_cmp.js":
        text = (HERE / "tcf_cmp.js").read_text().replace(
            "__CMPAPI__", npm_cdn.cdn_url("@iabtcf/cmpapi", "lib/mjs/index.js"))
        return 200, JS, text
    if path in ("/__compliance/gpp_cmp.js", "/__compliance/gpp_us_cmp.js"):
        text = (HERE / path.rsplit("/", 1)[1]).read_text().replace(
            "__GPPAPI__", npm_cdn.cdn_url("@iabgpp/cmpapi", "lib/mjs/index.js"))
        return 200, JS, text
    if host == "consent-widget.example" and path == "/reject.html":
        return 200, HTML, FRAME_BANNER
    if path == "/" and host in BUILDERS:
        return 200, HTML, page(host)
    referer = urlsplit(headers.get("Referer") or "").hostname
    if host == "consent-pref.trustarc.com" and referer == "cc-decoy.example" and query.get("type") == "decoy":
        return 200, HTML, DECOY_FRAME_PAGE
    return None
