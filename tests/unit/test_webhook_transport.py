"""One webhook POST (``tagcrawl.webhooks.transport``), without a database:
resolve once and connect to the checked address (TLS still for the name), and
a total deadline per attempt that a trickling or silent receiver cannot stretch.
Through the queue, with PostgreSQL: tests/db/test_webhook_bounds.py."""
from __future__ import annotations

import errno
import socket
import ssl
import time

import pytest
import trustme

from tagcrawl.webhooks.transport import post
from tests.support.webhook_receiver import Receiver, hang, table_resolver, trickle

DEADLINE_S = 2.0


def _send(url, resolve=None, deadline_s=DEADLINE_S, allow_private=True, body=b'{"success":true}', **kwargs):
    extra = {"resolve": resolve} if resolve is not None else {}
    return post(url, body, {"Content-Type": "application/json"}, deadline_s=deadline_s,
                allow_private=allow_private, **extra, **kwargs)


@pytest.fixture
def twin_receivers():
    """Receivers on 127.0.0.1 and 127.0.0.2, same port: a name can answer either."""
    for _ in range(20):
        first = Receiver()
        try:
            second = Receiver(host="127.0.0.2", port=first.port)
        except OSError as exc:
            first.stop()
            if exc.errno != errno.EADDRINUSE:
                raise
            continue
        yield first, second
        first.stop()
        second.stop()
        return
    pytest.fail("no port free on both 127.0.0.1 and 127.0.0.2")


@pytest.mark.slow
def test_the_post_goes_to_the_checked_answer_never_a_new_one(twin_receivers):
    """DNS rebinding, made visible: the name answers 127.0.0.1, then 127.0.0.2.
    It is resolved once per attempt and the POST goes to the first answer,
    with the name in the Host header."""
    first, second = twin_receivers
    resolve = table_resolver({"hook.test": [["127.0.0.1"], ["127.0.0.2"]]})
    outcome = _send(f"http://hook.test:{first.port}/hook", resolve)
    assert outcome.status == 200 and outcome.address == f"127.0.0.1:{first.port}"
    assert resolve.calls == {"hook.test": 1}
    assert len(first.received) == 1 and second.received == []
    assert first.received[0]["headers"]["Host"] == f"hook.test:{first.port}"
    assert first.received[0]["body"] == b'{"success":true}'


@pytest.mark.slow
def test_a_public_answer_then_loopback_never_reaches_loopback(twin_receivers):
    """With the address check on: the first answer (public) is checked and
    used; the loopback answer is never asked for, nothing reaches loopback."""
    first, _second = twin_receivers
    resolve = table_resolver({"rebind.test": [["1.1.1.1"], ["127.0.0.1"]]})
    outcome = _send(f"http://rebind.test:{first.port}/hook", resolve, allow_private=False)
    assert outcome.status is None and outcome.address == f"1.1.1.1:{first.port}"
    assert resolve.calls == {"rebind.test": 1}
    assert first.received == []


@pytest.mark.parametrize("answers, reason", [
    ([["93.184.216.34", "127.0.0.1"]], "loopback"), ([["10.0.0.7"]], "private"),
    ([["169.254.169.254"]], "cloud metadata"),
])
def test_a_name_with_any_internal_answer_is_refused_before_connecting(answers, reason):
    resolve = table_resolver({"mixed.test": answers})
    outcome = _send("http://mixed.test/hook", resolve, allow_private=False)
    assert outcome.refused and not outcome.retryable and outcome.address == ""
    assert outcome.error.startswith("refused target: host mixed.test is a ") and reason in outcome.error


def test_a_name_that_does_not_resolve_is_refused():
    """Refused (nothing sent), and worth asking again later (DNS may come back)."""
    outcome = _send("http://gone.test/hook", table_resolver({}))
    assert outcome.refused and outcome.retryable and outcome.status is None
    assert outcome.error == "refused target: host gone.test does not resolve"


@pytest.mark.parametrize("url", ["ftp://hook.test/x", "http:///nohost", "javascript:alert(1)", "not a url"])
def test_urls_that_are_not_http_are_refused(url):
    outcome = _send(url, table_resolver({"hook.test": [["127.0.0.1"]]}))
    assert outcome.refused and not outcome.retryable and outcome.error.startswith("refused target: ")


def test_https_to_the_pinned_address_keeps_sni_and_verifies_the_name(tmp_path):
    """Connecting to the address does not weaken TLS: SNI carries the name and
    the certificate must be valid for the name."""
    ca = trustme.CA()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("hook.test").configure_cert(context)
    names = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    receiver = Receiver(ssl_context=context)
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    resolve = table_resolver({"hook.test": [["127.0.0.1"]], "other.test": [["127.0.0.1"]]})
    try:
        good = _send(f"https://hook.test:{receiver.port}/hook", resolve, verify=str(bundle))
        assert good.status == 200, good.error
        assert names == ["hook.test"]
        assert receiver.received[0]["headers"]["Host"] == f"hook.test:{receiver.port}"
        wrong = _send(f"https://other.test:{receiver.port}/hook", resolve, verify=str(bundle))
        assert wrong.status is None and "SSLError" in wrong.error and "other.test" in wrong.error
        assert len(receiver.received) == 1
    finally:
        receiver.stop()


@pytest.mark.slow
@pytest.mark.parametrize("behaviour", ["trickles its headers", "never answers", "never reads the body"])
def test_an_attempt_ends_within_its_deadline_whatever_the_receiver_does(behaviour):
    """A total deadline, not per read: bytes every 0.1 s do not stretch it."""
    if behaviour == "never reads the body":
        listener = socket.create_server(("127.0.0.1", 0))
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        url, body, stop = f"http://127.0.0.1:{listener.getsockname()[1]}/hook", b"x" * (8 << 20), listener.close
    else:
        answer = trickle if behaviour == "trickles its headers" else hang
        receiver = Receiver(answer=answer)
        url, body, stop = receiver.url, b"{}", receiver.stop
    try:
        started = time.monotonic()
        outcome = _send(url, body=body)
        elapsed = time.monotonic() - started
    finally:
        stop()
    assert outcome.status is None
    assert outcome.error.startswith("deadline: no complete answer from 127.0.0.1:") or "timed out" in outcome.error
    assert elapsed < DEADLINE_S + 2, elapsed


def _bind(handler, receiver) -> bool:
    handler.receiver.release = receiver.release
    return True
