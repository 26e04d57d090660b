"""A stream event whose ``cn`` is a TC string is stored with the string decoded."""
from __future__ import annotations

import pytest

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
    from tagcrawl.schemas.stream_limits import STREAM_CN_MAX

    answer = post_event(client, dict(minimal(issued), cn="C" * (STREAM_CN_MAX + 1)))
    assert answer.status_code == 400 and "cn" in answer.get_json()["message"]
    assert stored(app) == []
