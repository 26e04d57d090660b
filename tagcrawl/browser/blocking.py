"""Blocking detection: is the page a bot wall (``accessDenied``) or a
CAPTCHA wall (``recaptcha``)?

Signals are combined: the main document's HTTP status, the title and markers
of known block pages (Akamai, Cloudflare, Imperva/Incapsula, DataDome,
PerimeterX), and a *visible, page-blocking* CAPTCHA widget (reCAPTCHA v2
challenge, hCaptcha, Turnstile).  Text alone never makes a block: an article
that says "Access Denied" is content, and an invisible reCAPTCHA v3 badge on
a contact form is not a wall.
"""
from __future__ import annotations

import re

#: Block-page fingerprints: (vendor, title regex, marker regex over HTML).
#: A fingerprint matches when its title OR its marker matches.
BLOCK_PAGES = [
    ("Akamai", r"^access denied$", r"reference\s*#\s*[0-9a-f]+\.[0-9a-f]+\.[0-9a-f]+|errors\.edgesuite\.net"),
    ("Cloudflare", r"attention required! \| cloudflare|sorry, you have been blocked",
     r"cf-error-details|cf-wrapper.*you have been blocked|/cdn-cgi/l/chk_jschl"),
    ("Cloudflare challenge", r"^just a moment\.\.\.?$|^un instant…?$|^einen moment", r"cf-chl-|challenge-platform|cf_chl_opt"),
    ("Imperva", r"^$|imperva|incapsula", r"_incapsula_resource|incident id:|powered by imperva|incapsula incident"),
    ("DataDome", r"", r"captcha-delivery\.com|geo\.captcha-delivery|datadome"),
    ("PerimeterX", r"access to this page has been denied", r"px-captcha|_pxcaptcha|perimeterx|/_px\d?/"),
]

CAPTCHA_KINDS = ("recaptcha", "hcaptcha", "turnstile", "px-captcha", "datadome")

#: Collects what the classifier needs from the page (runs in the main frame).
PROBE_JS = r"""
const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
  return r.width > 30 && r.height > 30 && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0; };
const walls = [];
for (const f of document.querySelectorAll('iframe')) {
  const src = f.src || '';
  let kind = null;
  if (/google\.com\/recaptcha\/(api2|enterprise)\/(bframe|anchor)/.test(src)) kind = 'recaptcha';
  else if (/hcaptcha\.com/.test(src)) kind = 'hcaptcha';
  else if (/challenges\.cloudflare\.com/.test(src)) kind = 'turnstile';
  else if (/captcha-delivery\.com/.test(src)) kind = 'datadome';
  if (kind && visible(f) && !/size=invisible/.test(src)) walls.push(kind);
}
for (const el of document.querySelectorAll('#px-captcha, .g-recaptcha:not([data-size=invisible]), .h-captcha, .cf-turnstile'))
  if (visible(el)) walls.push(el.id === 'px-captcha' ? 'px-captcha' : el.className.split(' ')[0]);
const text = (document.body ? document.body.innerText : '').trim();
return { title: document.title || '', html: document.documentElement.outerHTML.slice(0, 200000),
         captchas: walls, textLength: text.length };
"""


def classify(status: int | None, probe: dict | None) -> tuple[str | None, str | None]:
    """Classify a loaded page.

    Args:
        status: HTTP status of the main document (None if unknown).
        probe: the result of ``PROBE_JS`` (title, html, captchas, textLength).
    Returns:
        ``(error_message, reason)``: ``("recaptcha", "...")`` for a CAPTCHA
        wall, ``("accessDenied", "...")`` for a block page, ``(None, None)``.
    """
    probe = probe or {}
    title = (probe.get("title") or "").strip().lower()
    html = (probe.get("html") or "").lower()
    captchas = probe.get("captchas") or []
    short_page = (probe.get("textLength") or 0) < 3000
    for vendor, title_re, marker_re in BLOCK_PAGES:
        title_hit = bool(title_re) and bool(re.search(title_re, title)) and (title or vendor != "Imperva")
        marker_hit = bool(marker_re) and bool(re.search(marker_re, html))
        if vendor == "Imperva":
            hit = marker_hit and short_page
        elif vendor in ("DataDome", "PerimeterX"):
            hit = marker_hit and (bool(captchas) or (status in (403, 429)) or title_hit)
        else:
            hit = (title_hit and (marker_hit or status in (403, 429, 503))) or (marker_hit and short_page and status in (403, 429, 503))
            if vendor == "Akamai":
                hit = title_hit and marker_hit or (marker_hit and status == 403)
        if hit:
            kind = "recaptcha" if captchas and vendor in ("DataDome", "PerimeterX", "Cloudflare challenge") else "accessDenied"
            return kind, f"blocked by {vendor} (HTTP {status})"
    if captchas and short_page:
        return "recaptcha", f"a {captchas[0]} CAPTCHA blocks the page"
    if status in (401, 403, 429, 503) and short_page:
        return "accessDenied", f"the page answered HTTP {status}"
    return None, None
