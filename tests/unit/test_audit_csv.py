"""CSV exports of an audit (tagcrawl/audit/csv.py): the matrix, the cookies, injection-safe cells."""
from __future__ import annotations

import csv
import io

import pytest

from tagcrawl.audit.csv import cookies_csv, report_csv, safe_cell
from tagcrawl.audit.report import build_report
from tests.support.audit_pages import Row, audit, cookie, crawl_response, page_result, pixel, site


@pytest.mark.parametrize("value, cell", [("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
                                         ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
                                         ("\tx", "'\tx"), ("ok", "ok"), (None, ""), (True, "true"),
                                         (["a", "b"], "a;b"), (3, "3")])
def test_cells_are_formula_safe(value, cell):
    assert safe_cell(value) == cell


def test_the_matrix_has_a_row_per_page_and_scenario_and_a_column_per_vendor_account():
    report = build_report(audit(actions=("accept", "reject")), site())
    rows = list(csv.reader(io.StringIO(report_csv(report))))
    assert rows[0][:6] == ["url", "scenario", "status", "pageStatus", "finalUrl", "error"]
    assert rows[0][6:] == ["meta:111222333", "ga4:G-SHOP1"]  # most pages first
    assert len(rows) == 1 + 16
    contact = next(r for r in rows if r[0].endswith("/contact") and r[1] == "accept")
    assert contact[6:] == ["after_accept", ""]
    promo = next(r for r in rows if r[0].endswith("/promo") and r[1] == "reject")
    assert promo[6:] == ["before_consent", ""]


def test_hostile_cookie_names_and_urls_are_neutralised():
    url = "https://shop.example/=cmd"
    rows = [Row(url, result=page_result(crawl_response(url, pixels=[pixel("ga4", "-2+3")],
                                                       cookies=[cookie("=1+2", "@evil.example", None)])))]
    report = build_report(audit(), rows)
    cookies = list(csv.reader(io.StringIO(cookies_csv(report))))
    assert cookies[0] == ["name", "domain", "organisation", "party", "vendor", "expires", "pageCount", "phases",
                          "scenarios"]
    assert cookies[1][:2] == ["'=1+2", "'@evil.example"]
    matrix = list(csv.reader(io.StringIO(report_csv(report))))
    assert matrix[0][6] == "ga4:-2+3"
    assert matrix[1][0] == url
