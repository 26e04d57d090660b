"""A stream event whose ``cn`` is a TC string is stored with the string decoded."""
from __future__ import annotations

import time

import pytest

from tests.support import peak_rss
from tests.support.tc_strings import range_bomb
from tests.support.stream_support import issued, minimal, post_event, stored, stream_app
from tests.unit.test_tcf import IAB_EXAMPLE

FIXTURES = (issued, stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres


def test_cn_tc_string_is_decoded_into_extra(app, client, issued):
    assert post_event(client, dict(minimal(issued), cn=IAB_EXAMPLE)).status_code == 204
    [row] = stored(app)
    assert row.consent_state == IAB_EXAMPLE
    assert row.extra["cn_decoded"]["tcf"]["cmp_id"] == 880
    assert row.extra["cn_decoded"]["tcf"]["vendors"] == [1, 2, 3, 4]


def test_a_cn_longer_than_255_characters_is_stored(app, client, issued):
    """Real TC strings with vendor consents are often longer than 255 characters."""
    long_cn = IAB_EXAMPLE + "." + "A" * 700
    assert post_event(client, dict(minimal(issued), cn=long_cn)).status_code == 204
    [row] = stored(app)
    assert row.consent_state == long_cn


def test_a_cn_over_its_cap_is_a_400(app, client, issued):
    from tagcrawl.core.schemas.stream_limits import STREAM_CN_MAX

    answer = post_event(client, dict(minimal(issued), cn="C" * (STREAM_CN_MAX + 1)))
    assert answer.status_code == 400 and "cn" in answer.get_json()["message"]
    assert stored(app) == []


def test_a_cn_range_bomb_is_stored_undecoded_quickly_with_bounded_memory(app, client, issued):
    """A 4 KB ``cn`` whose range section names 48 million vendor ids made a worker allocate 1.9 GB and
    answer after 2-5 s (issue 24).  Now the decoder refuses it before expanding: the event is stored with
    ``cn`` as sent and no ``cn_decoded``, the worker's peak RSS grows by less than 200 MB, and the answer
    comes well within a second or two.  The same string again is answered from the decoding cache."""
    from tagcrawl.stream.normalize import _decode_consent

    bomb = range_bomb()
    assert len(bomb) <= 4096
    start = time.monotonic()
    answer, growth_mb = peak_rss.in_this_process(lambda: post_event(client, dict(minimal(issued), cn=bomb)))
    elapsed = time.monotonic() - start
    assert answer.status_code == 204
    assert growth_mb < 200
    assert elapsed < 2  # generous: the refusal costs milliseconds; the old decoder took 2-5 s
    hits = _decode_consent.cache_info().hits
    assert post_event(client, dict(minimal(issued), cn=bomb)).status_code == 204
    assert _decode_consent.cache_info().hits == hits + 1
    rows = stored(app)
    assert [row.consent_state for row in rows] == [bomb, bomb]
    assert all("cn_decoded" not in (row.extra or {}) for row in rows)
