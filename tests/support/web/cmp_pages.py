"""Fixture-web routes for the consent and blocking tests (data in ``tests/support/cmp_cases.py``,
which reads each CMP's ``fixture`` from its ``tagcrawl/engine/consent/cmps/<slug>.json``).

- ``https://cmp-<slug>.example/``: a shop page that loads a CMP from its real
  script URL and gates a Meta pixel behind the CMP's consent.
- the CMP's script URL, requested by that page (its ``Referer``), answers
  ``vendor_libs/cmp/emulate.js`` configured for the case; other pages that
  load the same URL (``shop.example`` and OneTrust) fall through to the
  vendor routes.
- the CMP's own iframe document (Sourcepoint, TrustArc, LiveRamp), requested
  from that page: the part of ``cmps/<slug>.html`` after its ``FRAME_MARK`` line.
- ``https://consent-<lang>.example/``: a site's own banner in one language.
- ``/__consent/site.js`` on every host: the site banner helper.
- block pages: ``sites/<host>/index.html`` answered with the case's status.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from urllib.parse import urlsplit

from tagcrawl.engine.consent.rules import CMPS

from ..cmp_cases import BLOCK_STATUS, CMP_CASES, LANGUAGE_BANNERS, NEW_LANGUAGE_BANNERS, CmpCase, LanguageBanner

CMP_DIR = Path(__file__).with_name("vendor_libs") / "cmp"
#: The CMPs' real DOM, ``<slug>.html`` each.
MARKUP_DIR = Path(__file__).with_name("cmps")
#: The line of ``<slug>.html`` after which the CMP's own iframe document follows.
FRAME_MARK = "<!-- frame document"
SITES = Path(__file__).with_name("sites")
CASES_BY_HOST = {case.host: case for case in CMP_CASES}
BANNERS_BY_HOST = {urlsplit(b.url).hostname: b for b in [*LANGUAGE_BANNERS, *NEW_LANGUAGE_BANNERS]}
GLOBALS = {c.name: list(c.globals) for c in CMPS}
HTML = {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}
JS = {"Content-Type": "application/javascript; charset=utf-8", "Cache-Control": "no-store"}

META_PIXEL = """!function(f,b,e,v,n,t,s)
    {if(f.fbq)return;n=f.fbq=function(){n.callMethod?
    n.callMethod.apply(n,arguments):n.queue.push(arguments)};
    if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';
    n.queue=[];t=b.createElement(e);t.async=!0;
    t.src=v;s=b.getElementsByTagName(e)[0];
    s.parentNode.insertBefore(t,s)}(window, document,'script',
    'https://connect.facebook.net/en_US/fbevents.js');
    fbq('init', '%s');
    fbq('track', 'PageView');"""

CMP_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<script>
  /* Meta Pixel Code, fired only once the CMP reports consent */
  window.addEventListener("fixtureconsent", function () {{
    {pixel}
  }}, {{once: true}});
</script>
<script src="{script}" charset="UTF-8"></script>
</head>
<body>
<header><h1>{title}</h1></header>
<main><p>Wool socks, trail shoes and hats. Free shipping over 50 EUR.</p>
<ul><li>Wool socks: 9.99 EUR</li><li>Trail shoes: 89.00 EUR</li></ul></main>
</body>
</html>
"""

FRAME_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title></head>
<body>
{markup}
<script>
  document.querySelector({accept}).addEventListener("click", function (event) {{
    event.preventDefault();
    parent.postMessage({{fixtureCmp: "accept"}}, "*");
  }});
</script>
</body>
</html>
"""

LANGUAGE_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{lang}: fixture magazine</title>
<meta name="fixture-pixel" content="{pixel}">
<script src="/__consent/site.js"></script>
</head>
<body>
<h1>Fixture magazine ({lang})</h1>
<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>
<div id="cookie-banner" class="cookie-banner"
     style="position:fixed;bottom:0;left:0;right:0;background:#fff;border-top:1px solid #ccc;padding:16px;z-index:1000">
  <p>{text}</p>
  <button type="button" data-consent="settings">{settings}</button>
  <button type="button" data-consent="reject">{reject}</button>
  <button type="button" data-consent="accept">{accept}</button>
</div>
<script>siteConsent.wire(document, document.getElementById("cookie-banner"));</script>
</body>
</html>
"""


def cmp_page(case: CmpCase) -> str:
    """The shop page of a CMP case."""
    return CMP_PAGE.format(title=html.escape(f"{case.name} fixture shop"), pixel=META_PIXEL % case.pixel,
                           script=html.escape(case.script, quote=True))


def markup(case: CmpCase, frame: bool = False) -> str:
    """The CMP's DOM from ``cmps/<slug>.html``: the banner, or with ``frame``
    its own iframe document (after the ``FRAME_MARK`` line)."""
    text = (MARKUP_DIR / f"{case.slug}.html").read_text(encoding="utf-8")
    banner, _mark, document = text.partition(FRAME_MARK)
    if frame:
        return document.partition("\n")[2]
    return banner.replace("{{frame}}", html.escape(case.frame or "", quote=True))


def emulation(case: CmpCase) -> str:
    """``emulate.js`` configured for ``case``."""
    config = {"name": case.name, "markup": markup(case), "accept": case.accept, "mount": case.mount,
              "cookies": case.cookies, "storage": case.storage, "tcf": case.tcf, "cmpId": case.cmp_id,
              "hide": case.hide, "globals": GLOBALS.get(case.name, [])}
    return (CMP_DIR / "emulate.js").read_text(encoding="utf-8").replace("__CONFIG__", json.dumps(config))


def frame_page(case: CmpCase) -> str:
    """The CMP's own cross-site iframe document; accepting posts to the page."""
    return FRAME_PAGE.format(title=html.escape(case.name), markup=markup(case, frame=True),
                             accept=json.dumps(case.accept))


def language_page(banner: LanguageBanner) -> str:
    """A magazine page with its own cookie banner in ``banner.lang``."""
    fields = {k: html.escape(getattr(banner, k)) for k in ("lang", "text", "settings", "reject", "accept", "pixel")}
    return LANGUAGE_PAGE.format(**fields)


def _same(url: str, host: str, path: str) -> bool:
    parts = urlsplit(url)
    return parts.hostname == host and parts.path == path


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see the module docstring); None when not ours."""
    if path == "/__consent/site.js":
        return 200, JS, (CMP_DIR / "site-banner.js").read_bytes()
    if host in BLOCK_STATUS and path == "/":
        return BLOCK_STATUS[host], HTML, (SITES / host / "index.html").read_bytes()
    if path == "/" and host in CASES_BY_HOST:
        return 200, HTML, cmp_page(CASES_BY_HOST[host])
    if path == "/" and host in BANNERS_BY_HOST:
        return 200, HTML, language_page(BANNERS_BY_HOST[host])
    case = CASES_BY_HOST.get(urlsplit(headers.get("Referer") or "").hostname or host)
    if case is None:
        return None
    if _same(case.script, host, path):
        return 200, JS, emulation(case)
    if case.frame and _same(case.frame, host, path):
        return 200, HTML, frame_page(case)
    return None
