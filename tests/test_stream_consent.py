"""A stream event whose ``cn`` is a TC string is stored with the string decoded."""
from __future__ import annotations

import pytest

from .test_stream_support import issued, minimal, post_event, stored, stream_app
from .test_tcf import IAB_EXAMPLE

FIXTURES = (issued, stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres


def test_cn_tc_string_is_decoded_into_extra(app, client, issued):
    assert post_event(client, dict(minimal(issued), cn=IAB_EXAMPLE)).status_code == 204
    [row] = stored(app)
    assert row.consent_state == IAB_EXAMPLE
    assert row.extra["cn_decoded"]["tcf"]["cmp_id"] == 880
    assert row.extra["cn_decoded"]["tcf"]["vendors"] == [1, 2, 3, 4]
