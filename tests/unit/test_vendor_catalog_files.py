"""The vendor catalog as files (``tagcrawl/engine/vendors/catalog/<key>.toml``):
the match order, and the loader's refusals (each names the file and the key).
The matching itself: test_vendor_catalog.py."""
from __future__ import annotations

import pytest

from tagcrawl.engine.vendors import CATALOG, ids
from tagcrawl.engine.vendors.catalog import CATALOG_DIR, CatalogError, read_folder
from tagcrawl.engine.vendors.catalog.schema import MAX_FILE_BYTES, read_entry
from tagcrawl.engine.vendors.model import host_re

#: The match order of the catalog when it was Python (``catalog_google.VENDORS + catalog_adobe.VENDORS +
#: ...``), computed from that code before the files replaced it.
ORDER_BEFORE_THE_FILES = (
    'google_analytics', 'universal_analytics', 'google_tag_manager', 'google_tag', 'google_ads',
    'floodlight', 'google_optimize', 'adobe_analytics', 'adobe_heartbeat', 'adobe_web_sdk',
    'adobe_audience_manager', 'adobe_experience_cloud_id', 'adobe_target', 'adobe_launch', 'adobe_dtm',
    'facebook', 'tiktok', 'linkedin', 'twitter', 'bing', 'pinterest', 'snapchat', 'reddit', 'quora',
    'yahoo_dot', 'yahoo_japan', 'amazon_ads', 'spotify', 'line', 'seznam_sklik', 'teads', 'criteo',
    'the_trade_desk', 'taboola', 'outbrain', 'zemanta', 'sizmek', 'adroll', 'xandr', 'mediamath',
    'adform', 'stackadapt', 'rtb_house', 'sojern', 'awin', 'cj', 'impact', 'demandbase', 'sixsense',
    'matomo', 'piwik_pro', 'at_internet', 'webtrends', 'comscore', 'nielsen', 'quantcast', 'heap',
    'amplitude', 'mixpanel', 'kissmetrics', 'indicative', 'yandex_metrica', 'snowplow', 'posthog',
    'plausible', 'parsely', 'chartbeat', 'fathom', 'tealium_iq', 'tealium_eventstream', 'ensighten',
    'piwik_pro_tag_manager', 'commanders_act', 'ensighten_server_side', 'glassbox', 'hotjar',
    'microsoft_clarity', 'fullstory', 'crazy_egg', 'mouseflow', 'lucky_orange', 'contentsquare',
    'quantum_metric', 'medallia_dxa', 'segment', 'rudderstack', 'hightouch', 'mparticle', 'lytics',
    'braze', 'klaviyo', 'hubspot', 'marketo', 'pardot', 'brevo', 'intercom', 'drift', 'vibes',
    'invoca', 'merkle_merkury', 'omniconvert', 'split_io', 'optimizely', 'vwo', 'ab_tasty',
    'dynamic_yield', 'kameleoon',
)


def test_catalog_order_is_the_order_before_the_files():
    """The vendors of that time keep their match order; vendors added since (issue 27) fall in between."""
    assert tuple(v.key for v in CATALOG if v.key in ORDER_BEFORE_THE_FILES) == ORDER_BEFORE_THE_FILES


def test_one_file_per_vendor_named_after_its_key():
    assert sorted(p.stem for p in CATALOG_DIR.glob("*.toml")) == sorted(v.key for v in CATALOG)


def test_files_stay_small():
    for path in CATALOG_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) < 300 and len(text.encode()) < MAX_FILE_BYTES, path.name


ACME = """\
key = "acme"
name = "Acme Pixel"
category = "advertising"
priority = 3500
aliases = ["Acme"]
id_source = "`id` of `px.acme.example/p`"

[id]
kind = "digits"
min = 4
max = 8
example = "1234"

[[pattern]]
domains = ["px.acme.example", "acme-cdn.example"]
path = '^/p$'
ids = "p:id"
events = ["p:ev", 'p:e~^([a-z]+)']

[[positive]]
url = "https://px.acme.example/p?id=1234&ev=view"
ids = ["1234"]
event = "view"

[[negative]]
url = "https://px.acme.example.evil/p?id=1234"
"""


def _write(folder, text, name="acme"):
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_becomes_the_vendor_the_matcher_uses(tmp_path):
    entry = read_entry(_write(tmp_path, ACME))
    v = entry.vendor
    assert (v.key, v.name, v.category, v.aliases, entry.priority) == ("acme", "Acme Pixel", "advertising", ("Acme",),
                                                                      3500)
    [p] = v.patterns
    assert p.host == host_re("px.acme.example", "acme-cdn.example") and p.path == "^/p$"
    assert (p.ids, p.events, p.require, p.split, p.config) == (("p:id",), ("p:ev", "p:e~^([a-z]+)"), (), None, False)
    assert v.id_format == ids.IdFormat(body="[0-9]{4,8}", example="1234")
    assert entry.cases["positive"] == [{"url": "https://px.acme.example/p?id=1234&ev=view", "ids": ["1234"],
                                        "event": "view"}]


@pytest.mark.parametrize("kind,expected", [("uuid", ids.UUID), ("hex32", ids.HEX32)])
def test_named_id_kinds(tmp_path, kind, expected):
    text = ACME.replace('kind = "digits"\nmin = 4\nmax = 8\nexample = "1234"', f'kind = "{kind}"')
    assert read_entry(_write(tmp_path, text)).vendor.id_format == expected


@pytest.mark.parametrize("old,new,message", [
    ('aliases = ["Acme"]', 'colour = "red"', "acme.toml: colour: unknown key"),
    ('path = \'^/p$\'', "path = '^/p$'\nhots = 'x'", "acme.toml: pattern[0].hots: unknown key"),
    ('event = "view"', 'event = "view"\nevnet = "x"', "acme.toml: positive[0].evnet: unknown key"),
    ("priority = 3500", 'priority = "3500"', "acme.toml: priority: expected int, got str"),
    ("priority = 3500", "priority = true", "acme.toml: priority: expected int, got bool"),
    ('ids = "p:id"', "ids = 5", "acme.toml: pattern[0].ids: expected strs, got int"),
    ('name = "Acme Pixel"\n', "", "acme.toml: missing name"),
    ("path = '^/p$'", "path = '^/p($'", "acme.toml: pattern[0].path: invalid regex"),
    ("path = '^/p$'", "path = '^/(?P<x>p)$'", "acme.toml: pattern[0].path: Python-only regex syntax"),
    ('ids = "p:id"', "ids = 'path:(?i)^/x'", "acme.toml: pattern[0].ids[0]: Python-only regex syntax"),
    ('ids = "p:id"', 'ids = "param:id"', "acme.toml: pattern[0].ids[0]: unknown source spec kind"),
    ('ids = "p:id"', "ids = 'p:id~(['", "acme.toml: pattern[0].ids[0]: "),
    ('key = "acme"', 'key = "acme2"', "acme.toml: key: 'acme2' must be the file name"),
    ('category = "advertising"', 'category = "ads"', "acme.toml: category: 'ads' is not one of"),
    ('kind = "digits"', 'kind = "digit"', "acme.toml: id.kind: expected one of digits, regex, uuid, hex32"),
    ('example = "1234"', 'example = "12"', "acme.toml: id.example: '12' is not an id of this format"),
    ("min = 4", "min = 4\nregex = 'x'", "acme.toml: id.regex: unknown key"),
    ('domains = ["px.acme.example", "acme-cdn.example"]', 'domains = ["px.acme.example"]\nhost = "x"',
     "acme.toml: pattern[0]: give `domains` or `host`, not both"),
    ('domains = ["px.acme.example", "acme-cdn.example"]', 'domains = ["Acme.example"]',
     "acme.toml: pattern[0].domains: 'Acme.example' is not a lower-case domain name"),
    ('domains = ["px.acme.example", "acme-cdn.example"]\n', "", "acme.toml: pattern[0]: a pattern without"),
    ('[[negative]]\nurl = "https://px.acme.example.evil/p?id=1234"\n', "", "acme.toml: missing negative"),
    ('event = "view"', 'event = "view"\ndata = "{}"', "acme.toml: positive[0]: `data` and `data_encoding` go together"),
    ("[id]", "[id", "acme.toml: not a TOML file"),
])
def test_a_broken_file_is_refused_naming_file_and_key(tmp_path, old, new, message):
    assert old in ACME
    with pytest.raises(CatalogError) as refused:
        read_entry(_write(tmp_path, ACME.replace(old, new, 1)))
    assert str(refused.value).startswith(message), str(refused.value)


def test_a_vendor_without_a_negative_case_is_refused(tmp_path):
    text = ACME.split("[[negative]]")[0].replace('aliases = ["Acme"]', 'aliases = ["Acme"]\nnegative = []')
    with pytest.raises(CatalogError, match=r"^acme\.toml: every vendor needs at least one positive and one negative"):
        read_entry(_write(tmp_path, text))


def test_a_file_too_big_is_refused(tmp_path):
    path = _write(tmp_path, ACME + "#" * MAX_FILE_BYTES + "\n")
    with pytest.raises(CatalogError, match=r"^acme\.toml: [0-9]+ bytes, more than"):
        read_entry(path)


def test_priority_orders_the_vendors_and_ties_go_by_key(tmp_path):
    _write(tmp_path, ACME)
    zeta = ACME.replace('"acme"', '"zeta"').replace("Acme", "Zeta")
    _write(tmp_path, zeta, "zeta")
    _write(tmp_path, zeta.replace('"zeta"', '"beta"').replace("Zeta", "Beta").replace("3500", "3000"), "beta")
    assert [e.vendor.key for e in read_folder(tmp_path)] == ["beta", "acme", "zeta"]
    _write(tmp_path, zeta.replace("3500", "9000"), "zeta")
    assert [e.vendor.key for e in read_folder(tmp_path)] == ["beta", "acme", "zeta"]
    _write(tmp_path, zeta.replace("3500", "100"), "zeta")
    assert [e.vendor.key for e in read_folder(tmp_path)] == ["zeta", "beta", "acme"]


def test_two_vendors_sharing_an_alias_are_refused(tmp_path):
    _write(tmp_path, ACME)
    _write(tmp_path, ACME.replace('"acme"', '"other"').replace('name = "Acme Pixel"', 'name = "Other"'), "other")
    with pytest.raises(CatalogError, match=r"^other\.toml: name or alias 'Acme' is also acme's"):
        read_folder(tmp_path)
