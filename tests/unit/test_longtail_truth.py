"""The long-tail truth file and its scoring (tests/support/longtail.py, bench/long_tail.py),
without Chrome: every page exists and names catalog vendors, and the scoring counts what it says."""
from __future__ import annotations

from bench.long_tail import score_page
from tests.support.longtail import WEB, false_entries, found, matches, tuning_pages, vendor_names


def test_every_tuning_page_exists_and_names_catalog_vendors():
    pages = tuning_pages()
    assert len(pages) >= 8
    names = vendor_names()
    for page in pages:
        assert (WEB / "sites" / page["host"] / "index.html").is_file(), page["host"]
        every = page["before_consent"] + page["accept"]["pixels"] + page["reject"]["pixels"]
        assert all(p["vendor"] in names for p in every if "vendor" in p), page["host"]
        assert all(p in page["accept"]["pixels"] and p in page["reject"]["pixels"] for p in page["before_consent"])
        assert all(p in page["reject"]["pixels"] for p in page["reject"]["violations"])
        if page["banner"]:
            assert len(page["reject"]["violations"]) == 1, "one tag after a refusal per consent page"
        else:  # an npm-SDK vendor page: no banner, so nothing before a choice and no violation
            assert page["before_consent"] == [] and page["reject"]["violations"] == [], page["host"]
            assert page["accept"]["pixels"] == page["reject"]["pixels"] and not page["refusal_verifiable"]


def test_the_npm_sdk_vendor_pages_are_in_the_tuning_corpus():
    from tests.browser.test_npm_sdk_vendors import SDK_VENDORS, _fields

    truth = {p["host"]: p for p in tuning_pages()}
    for host, vendor, account, _ in map(_fields, SDK_VENDORS):
        assert truth[host]["accept"]["pixels"] == [{"vendor": vendor, "account": account}], host


def test_a_catalog_pixel_matches_by_display_name_and_id_only():
    truth = {"vendor": "facebook", "account": "1"}
    name = vendor_names()["facebook"]
    assert matches(truth, {"vendor": name, "account_id": "1"})
    assert not matches(truth, {"vendor": name, "account_id": "2"})
    assert not matches(truth, {"vendor": "Other", "account_id": "1"})


def test_a_heuristic_pixel_matches_by_organisation_or_host_and_id():
    truth = {"organisation": "Aptabase", "host": "eu.aptabase.com", "account": "A-EU-1"}
    assert matches(truth, {"vendor": "Aptabase", "account_id": "A-EU-1", "recognised": "heuristic"})
    assert matches(truth, {"vendor": None, "host": "eu.aptabase.com", "account_id": "A-EU-1"})
    assert matches(truth, {"vendor": "aptabase.com", "account_id": "A-EU-1"})
    assert not matches(truth, {"vendor": "Aptabase", "account_id": "other"})
    assert not matches(truth, {"vendor": "Segment", "host": "api.segment.io", "account_id": "A-EU-1"})


def test_false_entries_count_only_entries_with_an_id():
    truth = [{"vendor": "facebook", "account": "1"}]
    name = vendor_names()["facebook"]
    entries = [{"vendor": name, "account_id": "1"}, {"vendor": name, "account_id": None},
               {"vendor": "X", "account_id": "9"}]
    assert found(truth, entries) == truth
    assert false_entries(truth, entries) == [{"vendor": "X", "account_id": "9"}]


def test_score_page_counts_each_measure():
    fb, li = vendor_names()["facebook"], vendor_names()["linkedin"]
    truth = {"host": "x.example", "banner": True, "refusal_verifiable": True,
             "before_consent": [{"vendor": "facebook", "account": "1"}],
             "accept": {"pixels": [{"vendor": "facebook", "account": "1"}, {"vendor": "linkedin", "account": "2"}],
                        "violations": []},
             "reject": {"pixels": [{"vendor": "facebook", "account": "1"}, {"vendor": "linkedin", "account": "2"}],
                        "violations": [{"vendor": "linkedin", "account": "2"}]}}
    accept = {"marketingPixels": [{"vendor": fb, "account_id": "1"}, {"vendor": li, "account_id": "2"}],
              "consent": {"banner": True, "verified": True, "violations": [],
                          "before_consent": [{"type": "pixel", "vendor": fb, "account_id": "1"}]}}
    reject = {"marketingPixels": [{"vendor": fb, "account_id": "1"}, {"vendor": "Z", "account_id": "7"}],
              "consent": {"banner": True, "verified": False,
                          "violations": [{"type": "cookie", "vendor": None, "name": "cmp"}],
                          "before_consent": [{"type": "pixel", "vendor": fb, "account_id": "1"}]}}
    counts = score_page(truth, {"accept": accept, "reject": reject})
    assert counts == {"pixels": 4, "pixels_found": 3, "false_pixels": 1, "banners": 2, "banners_found": 2,
                      "refusals": 1, "refusals_verified": 0, "violations": 1, "violations_found": 0,
                      "false_violations": 1, "before": 2, "before_found": 2, "false_before": 0}
