"""Present the crawl browser as the regular Chrome it is: no "Headless" in the
user agent, User-Agent Client Hints with brands, and ``navigator.webdriver``
false in every frame and worker.

``--disable-blink-features=AutomationControlled`` (driver_factory) already
makes ``navigator.webdriver`` false; the user agent and its Client Hints come
from ``Network.setUserAgentOverride`` with ``userAgentMetadata``, sent to every
target (page, iframes, out-of-process iframes, workers) by the capture.  What
stays detectable is in docs/stealth.md.
"""
from __future__ import annotations

import functools
import re
import subprocess
import sys
from dataclasses import dataclass

#: Chromium's GREASE brand rules (components/embedder_support/user_agent_utils.cc,
#: ``GetGreasedUserAgentBrandVersion``): characters and versions of the
#: "Not.A/Brand" entry, and the brand order, all chosen from the major version.
_GREASE_CHARS = (" ", "(", ":", "-", ".", "/", ")", ";", "=", "?", "_")
_GREASE_VERSIONS = ("8", "99", "24")
_ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))

#: The platform part of Chrome's reduced user agent (UA reduction freezes it), by ``sys.platform``.
_UA_PLATFORMS = {"linux": "X11; Linux x86_64", "darwin": "Macintosh; Intel Mac OS X 10_15_7",
                 "win32": "Windows NT 10.0; Win64; x64"}
#: Longest wait for ``chrome --version``, seconds.
VERSION_TIMEOUT_S = 10

#: UA platform token -> (Client Hints platform, architecture, bitness).
_PLATFORMS = (
    (r"Windows NT", "Windows", "x86", "64"),
    (r"Macintosh", "macOS", "arm", "64"),
    (r"CrOS", "Chrome OS", "x86", "64"),
    (r"Android", "Android", "", ""),
    (r"Linux (x86_64|amd64)", "Linux", "x86", "64"),
    (r"Linux (aarch64|arm)", "Linux", "arm", "64"),
    (r"Linux", "Linux", "x86", "64"),
)


@dataclass(frozen=True)
class BrowserIdentity:
    """The user agent a crawl presents.

    Attributes:
        user_agent: the navigator.userAgent string, "HeadlessChrome" replaced by "Chrome".
        full_version: Chrome's full version, e.g. "156.0.8078.79" (WebDriver
            capability ``browserVersion``).
    """

    user_agent: str
    full_version: str

    @property
    def major(self) -> str:
        return self.full_version.split(".")[0]

    def metadata(self) -> dict:
        """CDP ``Emulation.UserAgentMetadata`` for this browser: what
        ``Sec-CH-UA*`` headers and ``navigator.userAgentData`` report.

        Brands are those of Google Chrome of the same version: GREASE entry,
        "Chromium" and "Google Chrome", ordered as Chrome orders them.
        """
        platform, arch, bitness = "Linux", "x86", "64"
        for pattern, name, architecture, bits in _PLATFORMS:
            if re.search(pattern, self.user_agent):
                platform, arch, bitness = name, architecture, bits
                break
        return {"brands": greased_brands(self.major, self.major),
                "fullVersionList": greased_brands(self.major, self.full_version),
                "fullVersion": self.full_version, "platform": platform, "platformVersion": "",
                "architecture": arch, "model": "", "mobile": "Android" in self.user_agent,
                "bitness": bitness, "wow64": False}


def greased_brands(major: str, version: str) -> list[dict]:
    """Chrome's brand list for ``major``: ``[{brand, version}]`` x 3, with
    ``version`` for Chromium and Google Chrome (major or full version)."""
    seed = int(major) if major.isdigit() else 0
    grease = {"brand": f"Not{_GREASE_CHARS[seed % 11]}A{_GREASE_CHARS[(seed + 1) % 11]}Brand",
              "version": _GREASE_VERSIONS[seed % 3]}
    if "." in version:
        grease["version"] += ".0.0.0"
    entries = [None, None, None]
    order = _ORDERS[seed % 6]
    entries[order[0]] = grease
    entries[order[1]] = {"brand": "Chromium", "version": version}
    entries[order[2]] = {"brand": "Google Chrome", "version": version}
    return entries


def browser_identity(driver) -> BrowserIdentity | None:
    """The identity to present for a WebDriver session (local or Grid), or
    None when the browser does not answer.  One round trip (the user agent);
    the version is a session capability."""
    try:
        agent = driver.execute_script("return navigator.userAgent")
    except Exception:
        return None
    version = str(driver.capabilities.get("browserVersion") or "")
    if not re.fullmatch(r"\d+(\.\d+){3}", version):
        found = re.search(r"Chrome/(\d+[.\d]*)", agent or "")
        version = found.group(1) if found else "0.0.0.0"
    return BrowserIdentity(user_agent=(agent or "").replace("HeadlessChrome", "Chrome"), full_version=version)


@functools.lru_cache(maxsize=8)
def launch_user_agent(binary: str) -> str | None:
    """The user agent a person's Chrome of ``binary``'s version sends, for the
    ``--user-agent`` switch: Chrome's own requests that no DevTools override
    reaches (the ``CONNECT`` to a proxy) then carry the same user agent as the
    page's, not "HeadlessChrome".  The reduced form:
    ``Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/<major>.0.0.0 Safari/537.36``.

    Args:
        binary: the Chrome/Chromium executable; ``<binary> --version`` is run
            once per binary (at most ``VERSION_TIMEOUT_S``) and cached.
    Returns:
        The user agent, or None when the version cannot be read.
    """
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"(\d+)\.\d+\.\d+\.\d+", out or "")
    if not found:
        return None
    platform = _UA_PLATFORMS.get(sys.platform, _UA_PLATFORMS["linux"])
    return (f"Mozilla/5.0 ({platform}) AppleWebKit/537.36 (KHTML, like Gecko) "
            f"Chrome/{found.group(1)}.0.0.0 Safari/537.36")
