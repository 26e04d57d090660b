"""``ProxyFetcher``: the service's own GETs (robots.txt, sitemaps) through the
egress proxy, like Chrome's traffic (docs/audits.md "Fetches"; docs/security.md).

- Route: the proxy tagcrawl owns (``engine/egress/chrome.owned_egress``: its
  address checks, and the operator's ``--host-resolver-rules`` from
  ``TAGCRAWL_CHROME_ARGS``), the shared one (``TAGCRAWL_EGRESS_PROXY_URL``), or
  direct when the proxy is ``off`` (benches only: then neither the checks nor
  the host mappings apply, as for Chrome).
- TLS is verified (never switched off): against ``REQUESTS_CA_BUNDLE``, else
  ``SSL_CERT_FILE``, else the system CA bundle (OpenSSL's default file), else
  certifi's.  Environment proxies and ``.netrc`` are not read
  (``trust_env`` off): a ``NO_PROXY`` must not route around the egress proxy.
- Bounds: a connect and a read timeout on every fetch, and a whole-fetch
  deadline checked per 64 KiB chunk; at most ``max_bytes`` of body
  (decoded: a ``Content-Encoding: gzip`` answer is inflated chunk by chunk by
  urllib3 and cut at the cap); at most ``MAX_REDIRECTS`` redirects.
- An answer the egress proxy made itself (RFC 9209 ``Proxy-Status`` naming
  ``tagcrawl-egress``: a refused or unreachable address) is an error, not a page.
"""
from __future__ import annotations

import os
import ssl
import time

import requests

from tagcrawl.audit.discovery.types import FetchResult
from tagcrawl.core.version import __version__
from tagcrawl.engine.egress.chrome import egress_mode, owned_egress
from tagcrawl.engine.egress.status import PROXY_NAME

MAX_REDIRECTS = 5
_CHUNK = 64 * 1024


def ca_bundle() -> str | bool:
    """The CA file TLS is verified against (module docstring); True: certifi's."""
    for name in ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"):
        if os.environ.get(name):
            return os.environ[name]
    default = ssl.get_default_verify_paths().cafile
    return default if default and os.path.isfile(default) else True


def proxy_for(settings) -> str | None:
    """The proxy URL the service's fetches use (None: direct, the proxy is off)."""
    mode = egress_mode(settings)
    if mode == "owned":
        return owned_egress(settings).proxy_url(None)
    return settings.egress_proxy_url if mode == "shared" else None


class ProxyFetcher:
    """A ``types.Fetcher`` on requests.

    Args:
        settings: ``Settings`` (the egress proxy's mode, rules and address checks).
        connect_timeout_s, read_timeout_s: requests' timeouts, seconds.
        total_s: the whole fetch, seconds (checked between chunks).
        verify: CA file or True; None: ``ca_bundle()``.
    """

    def __init__(self, settings, connect_timeout_s: float = 5.0, read_timeout_s: float = 10.0,
                 total_s: float = 20.0, verify: str | bool | None = None):
        self.timeouts = (connect_timeout_s, read_timeout_s)
        self.total_s = total_s
        self.session = requests.Session()
        self.session.trust_env = False
        self.session.max_redirects = MAX_REDIRECTS
        self.session.verify = ca_bundle() if verify is None else verify
        proxy = proxy_for(settings)
        self.session.proxies = {"http": proxy, "https": proxy} if proxy else {}
        self.session.headers["User-Agent"] = f"tagcrawl/{__version__} (site audit)"

    def get(self, url: str, max_bytes: int) -> FetchResult:
        """GET ``url``, reading at most ``max_bytes`` bytes (``types.Fetcher``)."""
        deadline = time.monotonic() + self.total_s
        try:
            with self.session.get(url, stream=True, timeout=self.timeouts) as resp:
                headers = {k.lower(): v for k, v in resp.headers.items()}
                if PROXY_NAME in headers.get("proxy-status", ""):
                    return FetchResult(None, resp.url, headers=headers,
                                       error=f"refused by the egress proxy: {headers['proxy-status']}")
                body, truncated = bytearray(), False
                for chunk in resp.iter_content(_CHUNK):
                    if len(body) + len(chunk) > max_bytes:
                        body += chunk[: max_bytes - len(body)]
                        truncated = True
                        break
                    body += chunk
                    if time.monotonic() > deadline:
                        return FetchResult(resp.status_code, resp.url, bytes(body), headers, True,
                                           error=f"timed out after {self.total_s:g} s")
                return FetchResult(resp.status_code, resp.url, bytes(body), headers, truncated)
        except requests.exceptions.SSLError as exc:
            return FetchResult(None, url, error=f"TLS verification failed: {exc}")
        except requests.exceptions.TooManyRedirects:
            return FetchResult(None, url, error=f"more than {MAX_REDIRECTS} redirects")
        except requests.exceptions.ProxyError as exc:
            return FetchResult(None, url, error=f"refused by the egress proxy: {exc}")
        except (requests.RequestException, OSError, ValueError) as exc:
            return FetchResult(None, url, error=f"{exc.__class__.__name__}: {exc}")

    def close(self) -> None:
        """Close the connection pool."""
        self.session.close()
