"""The SSRF guard (``tagcrawl.core.netguard.url_refusal``), without a browser.

Hosts are read the way Chrome reads them (numeric IPv4 forms, percent
escapes, full-width characters, backslashes), so that no spelling of an
internal address gets past the check.  Fixture host names do not resolve in
Python's DNS (the tests are offline): such hosts are let through, as Chrome
would fail to load them too.  Against Chrome's own URL parser:
tests/browser/test_netguard_browser.py.
"""
from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from tagcrawl.core.netguard import address_reason, canonical_host, url_refusal

REFUSED = {
    # loopback
    "http://127.0.0.1/": "loopback",
    "http://127.255.0.9:8080/x": "loopback",
    "http://[::1]/": "loopback",
    "http://localhost/": "loopback",
    "http://LOCALHOST.:5000/": "loopback",
    "http://app.localhost/": "loopback",
    # private (RFC 1918, ULA)
    "http://10.0.0.5/": "private",
    "https://172.16.3.4/": "private",
    "http://192.168.1.1/admin": "private",
    "http://[fd12:3456::1]/": "private",
    # link-local, CGNAT, unspecified, multicast
    "http://169.254.10.20/": "link-local",
    "http://[fe80::1]/": "link-local",
    "http://[fe80::1%25eth0]/": "link-local",
    "http://100.64.0.1/": "CGNAT",
    "http://100.127.255.254/": "CGNAT",
    "http://0.0.0.0/": "unspecified",
    "http://[::]/": "unspecified",
    "http://224.0.0.1/": "multicast",
    # cloud metadata, by address and by name
    "http://169.254.169.254/latest/meta-data/": "cloud metadata",
    "http://[fd00:ec2::254]/": "cloud metadata",
    "http://100.100.100.200/": "cloud metadata",
    "http://metadata.google.internal/computeMetadata/v1/": "metadata",
    "http://METADATA.google.internal./": "metadata",
    "http://metadata/": "metadata",
    "http://instance-data/": "metadata",
    "http://instance-data.ec2.internal/": "metadata",
    # IPv6 forms that carry an IPv4 address
    "http://[::ffff:127.0.0.1]/": "loopback",
    "http://[::ffff:7f00:1]/": "loopback",
    "http://[::ffff:a9fe:a9fe]/": "cloud metadata",
    "http://[::ffff:10.1.1.1]/": "private",
    "http://[64:ff9b::a9fe:a9fe]/": "cloud metadata",
    "http://[2002:c0a8:101::1]/": "private",
    "http://[::127.0.0.1]/": "reserved",
    # numeric IPv4 forms Chrome accepts and Python's ipaddress does not
    "http://2130706433/": "loopback",
    "http://0x7f000001/": "loopback",
    "http://0x7F.0.0.1/": "loopback",
    "http://0177.0.0.1/": "loopback",
    "http://127.1/": "loopback",
    "http://127.0.1/": "loopback",
    "http://0xa9.0xfe.0xa9.0xfe/": "cloud metadata",
    "http://2852039166/": "cloud metadata",
    "http://0/": "unspecified",
    "http://012.0x0.1/": "private",
    # spellings that browsers normalise
    "http://127.0.0.%31/": "loopback",
    "http://%6c%6f%63%61%6c%68%6f%73%74/": "loopback",
    "http://\uff11\uff12\uff17\u3002\uff10\u3002\uff10\u3002\uff11/": "loopback",
    "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/": "loopback",
    "http://127.0.0.1\\@public.example/": "loopback",
    "http:\\\\127.0.0.1/": "loopback",
    "http://public.example@127.0.0.1/": "loopback",
    "  http://127.0.0.1/": "loopback",
    "http://127.0.\t0.1/": "loopback",
    "HTTP://127.0.0.1/": "loopback",
    # not http(s), or no usable host
    "file:///etc/passwd": "scheme",
    "ftp://ftp.example/": "scheme",
    "gopher://127.0.0.1:25/": "scheme",
    "javascript:alert(1)": "scheme",
    "data:text/html,hi": "scheme",
    "shop.example/": "scheme",
    "http:///path": "no host",
    "http://[::1/": "malformed",
    "http://1.2.3.4.5/": "malformed",
    "http://256.0.0.1/": "malformed",
    "http://1.2.3.08/": "malformed",
}

ALLOWED = [
    "https://example.com/",            # public names that do not resolve offline
    "https://shop.example/",           # fixture hosts: unresolvable in Python, served to Chrome
    "http://8.8.8.8/",
    "http://100.128.0.1/",             # just above CGNAT
    "http://100.63.255.255/",          # just below CGNAT
    "http://[2606:4700:4700::1111]/",
    "http://[::ffff:8.8.8.8]/",
    "https://1.1.1.1:8443/dns-query?x=1",
    "http://134744072/",               # 8.8.8.8 as one number
    "http://0x1g/",                    # not a number: a (non-resolving) name, as for Chrome
]


@pytest.mark.parametrize("url,reason", sorted(REFUSED.items()))
def test_internal_targets_are_refused_with_the_reason(url, reason):
    refusal = url_refusal(url)
    assert refusal is not None, url
    assert reason in refusal, (url, refusal)


@pytest.mark.parametrize("url", ALLOWED)
def test_public_and_unresolvable_targets_are_allowed(url):
    assert url_refusal(url) is None


@pytest.mark.parametrize("url", ["http://127.0.0.1/", "http://10.1.2.3/", "http://169.254.169.254/",
                                 "http://localhost:8000/", "http://metadata.google.internal/",
                                 "http://2130706433/", "http://[::1]/"])
def test_allow_private_lets_internal_addresses_through(url):
    assert url_refusal(url, allow_private=True) is None


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://10.0.0.1/", "javascript:alert(1)", "http:///x"])
def test_allow_private_still_refuses_non_http_and_hostless_urls(url):
    assert url_refusal(url, allow_private=True) is not None


@pytest.mark.parametrize("allow_private", [False, True])
def test_webhook_urls_must_resolve(allow_private):
    """``require_resolvable`` (webhook URLs): a name that does not resolve is
    refused, private targets allowed or not; an address literal needs no lookup."""
    assert url_refusal("http://gone.invalid/hook", allow_private, require_resolvable=True) == \
        "host gone.invalid does not resolve"
    assert url_refusal("http://gone.invalid/hook", allow_private) is None  # crawl targets: Chrome reports it
    assert url_refusal("http://8.8.8.8/hook", allow_private, require_resolvable=True) is None
    assert (url_refusal("http://127.0.0.1/hook", allow_private, require_resolvable=True) is None) == allow_private


def test_refusal_message_names_the_host_and_the_kind_of_address():
    assert url_refusal("http://10.0.0.5/") == "host 10.0.0.5 is a private address"
    assert url_refusal("http://0x7f000001/") == "host 127.0.0.1 is a loopback address"
    assert "cloud metadata" in url_refusal("http://[::ffff:169.254.169.254]/")


@pytest.mark.parametrize("raw,host", [
    ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0300.0250.1.1", "192.168.1.1"),
    ("10.1", "10.0.0.1"), ("0x", "0.0.0.0"), ("4294967295", "255.255.255.255"),
    ("shop.example", "shop.example"), ("WWW.Example.COM.", "www.example.com"),
    ("%31%30.0.0.1", "10.0.0.1"), ("::1", "::1"), ("x1.example", "x1.example"),
])
def test_canonical_host_reads_hosts_like_a_browser(raw, host):
    assert canonical_host(raw) == host


@pytest.mark.parametrize("raw", ["4294967296", "1.2.3.4.5", "1.256.0.0", "09", "foo.0x10", "1..2"])
def test_canonical_host_rejects_what_browsers_reject(raw):
    with pytest.raises(ValueError):
        canonical_host(raw)


@pytest.mark.parametrize("address,reason", [
    ("127.0.0.1", "loopback"), ("::ffff:169.254.169.254", "cloud metadata"), ("100.64.1.1", "CGNAT"),
    ("64:ff9b::a00:1", "private"), ("8.8.8.8", None), ("2001:4860:4860::8888", None), ("64:ff9b::808:808", None),
])
def test_address_reason(address, reason):
    assert address_reason(ipaddress.ip_address(address)) == reason


def _hosts_file_names(kind):
    """Names in /etc/hosts (other than localhost) whose address is ``kind``."""
    try:
        lines = Path("/etc/hosts").read_text().splitlines()
    except OSError:
        return []
    names = []
    for line in lines:
        fields = line.split("#")[0].split()
        if len(fields) < 2:
            continue
        try:
            reason = address_reason(ipaddress.ip_address(fields[0].split("%")[0]))
        except ValueError:
            continue
        names += [n for n in fields[1:] if reason == kind and "localhost" not in n.lower()]
    return names


def test_a_name_that_resolves_to_loopback_is_refused():
    """Resolution is real: a name from /etc/hosts pointing at 127.x goes
    through ``getaddrinfo`` and is refused for its address."""
    names = _hosts_file_names("loopback")
    if not names:
        pytest.skip("no non-localhost loopback name in /etc/hosts")
    refusal = url_refusal(f"http://{names[0]}/")
    assert refusal is not None and "loopback" in refusal and "127." in refusal
