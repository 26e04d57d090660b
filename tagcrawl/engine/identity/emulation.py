"""Per-crawl emulation: country -> Accept-Language, locale, timezone; the
user agent without the "Headless" marker; the proxy for a country.

Country data comes from CLDR through babel (official languages and zones of a
territory).  Countries with several zones use their most populous one.
"""
from __future__ import annotations

import re

from babel.core import get_global
from babel.languages import get_official_languages

#: CLDR lists zones alphabetically; for these, the most populous zone.
MAIN_ZONES = {"US": "America/New_York", "CA": "America/Toronto", "AU": "Australia/Sydney",
              "BR": "America/Sao_Paulo", "RU": "Europe/Moscow", "MX": "America/Mexico_City",
              "CN": "Asia/Shanghai", "ID": "Asia/Jakarta", "AR": "America/Argentina/Buenos_Aires",
              "ES": "Europe/Madrid", "PT": "Europe/Lisbon", "DE": "Europe/Berlin", "KZ": "Asia/Almaty",
              "CL": "America/Santiago", "EC": "America/Guayaquil", "NZ": "Pacific/Auckland"}


def country_locale(country: str) -> dict:
    """Locale settings for an ISO 3166-1 alpha-2 ``country``.

    Returns ``{"locale": "de-DE", "accept_language": "de-DE,de;q=0.9,en;q=0.8",
    "timezone": "Europe/Berlin"}``; English when CLDR knows no language.
    """
    code = country.upper()
    languages = get_official_languages(code, de_facto=True) or ("en",)
    language = languages[0].split("_")[0]
    zones = get_global("territory_zones").get(code) or ["UTC"]
    locale = f"{language}-{code}"
    accept = f"{locale},{language};q=0.9" + (",en;q=0.8" if language != "en" else "")
    return {"locale": locale, "accept_language": accept, "timezone": MAIN_ZONES.get(code, zones[0])}


def page_setup_commands(user_agent: str | None, country: str | None,
                        client_hints: dict | None = None) -> list[tuple[str, dict]]:
    """CDP commands sent to every page/iframe target before it runs.

    Args:
        user_agent: the browser's UA (``navigator.userAgent``); "HeadlessChrome"
            is replaced by "Chrome" so vendors serve their normal tags.
        country: ISO alpha-2 or None.
        client_hints: ``Emulation.UserAgentMetadata`` (``stealth.BrowserIdentity.metadata()``)
            for the ``Sec-CH-UA*`` headers and ``navigator.userAgentData``; None leaves Chrome's own.
    Returns:
        ``[(method, params)]``; the ``Network.setUserAgentOverride`` entry (first
        when present) also applies to workers (``worker_setup_commands``).
    """
    commands: list[tuple[str, dict]] = []
    override: dict = {}
    if user_agent:
        override["userAgent"] = user_agent.replace("HeadlessChrome", "Chrome")
    if country:
        settings = country_locale(country)
        # Chrome wants the bare list ("de-DE,de,en") and adds the q-values to
        # the header itself; q-values given here would be doubled.
        override["acceptLanguage"] = ",".join(p.split(";")[0] for p in settings["accept_language"].split(","))
        override.setdefault("userAgent", "")
        commands.append(("Emulation.setLocaleOverride", {"locale": settings["locale"].replace("-", "_")}))
        commands.append(("Emulation.setTimezoneOverride", {"timezoneId": settings["timezone"]}))
    if override.get("userAgent"):
        if client_hints:
            override["userAgentMetadata"] = client_hints
        commands.insert(0, ("Network.setUserAgentOverride", override))
    return commands


def worker_setup_commands(page_setup: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The part of ``page_setup`` that workers take (their Network domain:
    user agent, Client Hints, Accept-Language; workers have no Emulation domain)."""
    return [(m, p) for m, p in page_setup if m == "Network.setUserAgentOverride"]


def proxy_for(proxy_url: str | None, use_proxy: bool, country: str | None) -> str | None:
    """The proxy for one crawl: ``TAGCRAWL_PROXY_URL`` with ``{country}``
    replaced by the lower-case country code, or None when no proxy is
    configured or ``options.proxy`` is false.

    Without a country, ``{country}`` becomes empty, and a host label it leaves
    empty is dropped: ``http://{country}.proxy.example:3128`` gives
    ``http://proxy.example:3128`` (the provider's default exit), not the
    invalid ``http://.proxy.example:3128``."""
    if not proxy_url or not use_proxy:
        return None
    if country:
        return proxy_url.replace("{country}", country.lower())
    return re.sub(r"(^|//|\.)\{country\}\.", r"\1", proxy_url).replace("{country}", "")
