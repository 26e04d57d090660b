"""The egress proxy without Chrome: host-resolver rules, the policy, and the
proxy server end to end over real sockets (HTTP, CONNECT, keep-alive)."""
from __future__ import annotations

import http.server
import socket
import threading

import pytest

from tagcrawl.engine.egress.chrome import (
    CONTAINMENT_SWITCHES,
    chrome_args,
    context_proxy,
    policy_for,
)
from tagcrawl.engine.egress.policy import EgressPolicy, EgressRefused, Unresolvable
from tagcrawl.engine.egress.rules import parse_rules, split_rules
from tagcrawl.engine.egress.server import EgressServer
from tagcrawl.engine.egress.status import egress_error
from tests.support.config import settings

FIXTURE_RULES = "MAP * 127.0.0.1:8443, EXCLUDE localhost"


def resolver(table: dict):
    """A resolver from a table, counting its calls per name."""
    calls: dict[str, int] = {}

    def resolve(host):
        calls[host] = calls.get(host, 0) + 1
        answers = table.get(host)
        if answers is None:
            raise Unresolvable(f"host {host} does not resolve")
        return answers[min(calls[host], len(answers)) - 1]
    resolve.calls = calls
    return resolve


# --- rules -----------------------------------------------------------------

def test_rules_map_names_and_keep_or_replace_the_port():
    rules = parse_rules("MAP *.cdn.test 10.9.9.9, MAP api.test:8080 127.0.0.1:9000, " + FIXTURE_RULES)
    assert rules.rewrite("img.cdn.test", 443) == ("10.9.9.9", 443)
    assert rules.rewrite("api.test", 8080) == ("127.0.0.1", 9000)  # host:port pattern
    assert rules.rewrite("api.test", 443) == ("127.0.0.1", 8443)  # falls through to MAP *
    assert rules.rewrite("shop.example", 80) == ("127.0.0.1", 8443)
    assert rules.rewrite("localhost", 80) is None  # EXCLUDE wins over MAP *


def test_wildcards_map_ip_literals_only_when_private_targets_are_allowed():
    rules = parse_rules(FIXTURE_RULES + ", MAP 10.1.2.3 127.0.0.1:1")
    assert rules.rewrite("127.0.0.1", 9999) is None
    assert rules.rewrite("::1", 9999) is None
    assert rules.rewrite("10.1.2.3", 80) == ("127.0.0.1", 1)  # named exactly: the operator's choice
    assert rules.rewrite("127.0.0.1", 9999, map_literals=True) == ("127.0.0.1", 8443)  # Chrome's own behaviour


def test_bad_rules_are_skipped_and_notfound_is_honoured():
    rules = parse_rules("MAP onlytwo, BOGUS a b, MAP gone.test ~NOTFOUND, MAP [x] [::1]:70, MAP v6.test [::1]:71")
    assert [r.pattern for r in rules.maps] == ["gone.test", "[x]", "v6.test"]
    assert rules.rewrite("v6.test", 1) == ("::1", 71)
    assert rules.rewrite("x", 1) is None  # "[" is literal in Chrome's patterns, not a class
    with pytest.raises(EgressRefused, match="NOTFOUND"):
        EgressPolicy(rules).decide("gone.test", 443)


def test_the_last_host_resolver_rules_switch_counts_and_is_taken_out():
    split = split_rules(["--a", "--host-resolver-rules=MAP * 1.1.1.1", "--host-resolver-rules=MAP x 2.2.2.2"])
    assert split.others == ["--a"]
    assert split.rules.rewrite("x", 1) == ("2.2.2.2", 1) and split.rules.rewrite("y", 1) is None


# --- policy ----------------------------------------------------------------

@pytest.mark.parametrize("host", [
    "127.0.0.1", "127.1.2.3", "::1", "[::1]", "10.0.0.1", "172.16.5.4", "192.168.1.1", "100.64.0.1",
    "169.254.169.254", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "::", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
    "64:ff9b::a00:1", "2002:7f00:1::", "fe80::1", "fc00::1", "224.0.0.1", "240.0.0.1", "2130706433", "0x7f.1",
    "localhost", "db.localhost", "metadata.google.internal", "metadata", "anything.internal",
])
def test_internal_destinations_are_refused(host):
    with pytest.raises(EgressRefused):  # (a MAP * would map the names: operator mappings are trusted)
        EgressPolicy(parse_rules("MAP *.example 127.0.0.1:8443, EXCLUDE localhost")).decide(host, 80)


def test_a_name_is_resolved_once_and_refused_when_any_answer_is_internal():
    resolve = resolver({"mixed.test": [["93.184.216.34", "10.0.0.7"]], "public.test": [["93.184.216.34"]]})
    policy = EgressPolicy(resolve=resolve)
    with pytest.raises(EgressRefused, match="private address"):
        policy.decide("mixed.test", 443)
    target = policy.decide("public.test", 443)
    assert (target.address, target.port, target.mapped) == ("93.184.216.34", 443, False)
    assert resolve.calls == {"mixed.test": 1, "public.test": 1}


def test_operator_mapped_names_are_trusted_page_choices_are_not():
    policy = EgressPolicy(parse_rules(FIXTURE_RULES), resolve=resolver({}))
    target = policy.decide("shop.example", 443)
    assert (target.address, target.port, target.mapped) == ("127.0.0.1", 8443, True)
    with pytest.raises(EgressRefused, match="loopback"):
        policy.decide("127.0.0.1", 8443)  # the same address, picked by the page
    with pytest.raises(EgressRefused, match="loopback"):
        policy.decide("localhost", 8443)  # excluded from the mapping


def test_allow_private_lets_internal_addresses_through_and_maps_like_chrome():
    policy = EgressPolicy(parse_rules(FIXTURE_RULES), allow_private=True, resolve=resolver({"localhost": [["::1"]]}))
    assert policy.decide("localhost", 5000).address == "::1"
    assert policy.decide("10.0.0.1", 80).address == "127.0.0.1"  # MAP * maps the literal, as in Chrome
    assert EgressPolicy(allow_private=True).decide("10.0.0.1", 80).address == "10.0.0.1"


def test_an_upstream_proxy_is_an_operator_choice_mapped_but_never_refused():
    policy = EgressPolicy(parse_rules("MAP de.proxy.test 127.0.0.1:3129, " + FIXTURE_RULES), resolve=resolver({}))
    hop = policy.trusted("de.proxy.test", 3128)
    assert (hop.address, hop.port) == ("127.0.0.1", 3129)


# --- Chrome wiring ---------------------------------------------------------

def test_chrome_gets_the_proxy_by_ip_literal_and_no_resolver_rules():
    config = {"CHROME_ARGS": [f"--host-resolver-rules={FIXTURE_RULES}"], "ALLOW_PRIVATE_TARGETS": False}
    args = chrome_args(settings(config), ["--headless=new", *config["CHROME_ARGS"], "--proxy-bypass-list=*"])
    assert not any(a.startswith("--host-resolver-rules") for a in args)  # MAP * would remap the proxy itself
    [proxy] = [a for a in args if a.startswith("--proxy-server=")]
    assert proxy.startswith("--proxy-server=http://127.0.0.1:")
    assert [a for a in args if a.startswith("--proxy-bypass-list")] == ["--proxy-bypass-list=<-loopback>"]
    assert set(CONTAINMENT_SWITCHES) <= set(args)
    assert policy_for(settings(config)).rules.text == FIXTURE_RULES
    # Each country proxy gets its own route (port); the direct route is the browser's.
    direct, de = context_proxy(settings(config), None), context_proxy(settings(config), "http://de.proxy.test:3128")
    assert proxy == f"--proxy-server={direct}" and de != direct
    assert context_proxy(settings(config), "http://de.proxy.test:3128") == de


def test_shared_and_off_modes():
    shared = {"EGRESS_PROXY_URL": "http://egress.internal:3128", "CHROME_ARGS": []}
    assert "--proxy-server=http://egress.internal:3128" in chrome_args(settings(shared), [])
    assert context_proxy(settings(shared), "http://de.proxy.test:3128") == "http://egress.internal:3128"
    off = {"EGRESS_PROXY_URL": "off", "CHROME_ARGS": ["--host-resolver-rules=MAP * 1.1.1.1"]}
    assert "--host-resolver-rules=MAP * 1.1.1.1" in chrome_args(settings(off), off["CHROME_ARGS"])
    assert context_proxy(settings(off), "http://p:1") == "http://p:1" and context_proxy(settings(off), None) is None


# --- the proxy over real sockets --------------------------------------------

class _Origin(http.server.ThreadingHTTPServer):
    daemon_threads = True


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = f"{self.headers.get('Host')} {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def origin():
    server = _Origin(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


def _exchange(port: int, payload: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(payload)
        chunks = []
        while True:
            data = sock.recv(65536)
            if not data:
                return b"".join(chunks)
            chunks.append(data)
            if b"\r\n\r\n" in b"".join(chunks) and payload.startswith(b"CONNECT") and b"200" in chunks[0]:
                return b"".join(chunks)


@pytest.fixture
def proxy(origin):
    resolve = resolver({"rebind.test": [["1.1.1.1"], ["127.0.0.1"]]})
    server = EgressServer(EgressPolicy(parse_rules(f"MAP *.example 127.0.0.1:{origin}, EXCLUDE localhost"),
                                       resolve=resolve))
    server.resolve = resolve
    yield server
    server.stop()


def test_plain_http_to_a_mapped_name_is_forwarded(proxy):
    answer = _exchange(proxy.port_for(None), b"GET http://shop.example/x HTTP/1.1\r\nHost: shop.example\r\n"
                                            b"Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"shop.example /x")


@pytest.mark.parametrize("request_line", [
    b"GET http://127.0.0.1:{port}/ HTTP/1.1", b"GET http://[::1]:{port}/ HTTP/1.1",
    b"GET http://localhost:{port}/ HTTP/1.1", b"CONNECT 127.0.0.1:{port} HTTP/1.1",
    b"CONNECT [::1]:{port} HTTP/1.1", b"CONNECT localhost:{port} HTTP/1.1",
    b"CONNECT 169.254.169.254:80 HTTP/1.1", b"GET http://2130706433:{port}/ HTTP/1.1",
])
def test_internal_destinations_get_403_and_no_connection(proxy, origin, request_line):
    line = request_line.replace(b"{port}", str(origin).encode())
    answer = _exchange(proxy.port_for(None), line + b"\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 403")
    assert b"\r\nProxy-Status: tagcrawl-egress; error=destination_ip_prohibited; details=\"refused: host " in answer


def test_the_proxy_connects_to_the_address_it_checked_not_a_new_answer(proxy, origin):
    """DNS rebinding: the second answer (127.0.0.1) is never asked for; the
    connection goes to the first, checked one (which is not reachable here)."""
    answer = _exchange(proxy.port_for(None), f"CONNECT rebind.test:{origin} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert not answer.startswith(b"HTTP/1.1 200")
    assert proxy.resolve.calls == {"rebind.test": 1}


def test_a_kept_alive_connection_is_closed_when_the_next_request_names_another_host(proxy, origin):
    with socket.create_connection(("127.0.0.1", proxy.port_for(None)), timeout=10) as sock:
        sock.sendall(b"GET http://a.example/1 HTTP/1.1\r\nHost: a.example\r\n\r\n")
        first = b""
        while not first.endswith(b"/1"):
            first += sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200") and first.endswith(b"a.example /1")
        sock.sendall(f"GET http://127.0.0.1:{origin}/2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        assert sock.recv(65536) == b""  # closed: never sent to a.example's connection nor to 127.0.0.1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_destination_is_a_502_naming_the_net_error():
    port = _closed_port()
    server = EgressServer(EgressPolicy(parse_rules(f"MAP *.example 127.0.0.1:{port}")))
    try:
        answer = _exchange(server.port_for(None), b"GET http://down.example/ HTTP/1.1\r\nHost: down.example\r\n\r\n")
    finally:
        server.stop()
    head = answer.split(b"\r\n\r\n")[0].decode()
    assert head.startswith("HTTP/1.1 502")
    headers = dict(line.split(": ", 1) for line in head.split("\r\n")[1:])
    assert egress_error(headers).startswith("net::ERR_CONNECTION_REFUSED (egress proxy: down.example:80 unreachable")
    assert egress_error({"proxy-status": 'other-proxy; error=connection_refused'}) is None  # not ours
    assert egress_error({}) is None


def test_connect_tunnel_to_a_mapped_name(proxy):
    with socket.create_connection(("127.0.0.1", proxy.port_for(None)), timeout=10) as sock:
        sock.sendall(b"CONNECT shop.example:443 HTTP/1.1\r\nHost: shop.example:443\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /t HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):  # until the origin closes (Connection: close)
            answer += chunk
        assert answer.endswith(b"shop.example /t")  # the origin speaks plain http here


def test_stop_closes_the_listeners(origin):
    server = EgressServer(EgressPolicy())
    port = server.port_for(None)
    server.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2)
    with pytest.raises(RuntimeError):
        server.port_for(None)


@pytest.mark.slow
def test_the_shared_proxy_command_serves_on_its_port_and_stops_on_sigterm(origin):
    import signal
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tagcrawl.engine.egress", "--listen", f"127.0.0.1:{port}",
                             "--host-resolver-rules", f"MAP *.example 127.0.0.1:{origin}"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == f"tagcrawl egress proxy on 127.0.0.1:{port}"
        answer = _exchange(port, b"GET http://a.example/s HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n")
        assert answer.endswith(b"a.example /s")
        assert _exchange(port, b"CONNECT 127.0.0.1:22 HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 403")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
