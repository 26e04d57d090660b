"""The fixture web serves the pinned npm packages as a public npm CDN does."""
from tests.support.web import npm_cdn


def test_serves_installed_version_only(npm_packages):
    version = npm_packages.package_version("lz-string")
    ok = npm_cdn.route("cdn.jsdelivr.net", f"/npm/lz-string@{version}/libs/lz-string.min.js", {}, "GET", b"", {}, None)
    assert ok[0] == 200 and b"LZString" in ok[2]
    assert ok[1]["Access-Control-Allow-Origin"] == "*"
    scoped = npm_cdn.route("unpkg.com", f"/@iabtcf/core@{npm_packages.package_version('@iabtcf/core')}/package.json",
                           {}, "GET", b"", {}, None)
    assert scoped[0] == 200
    assert npm_cdn.route("cdn.jsdelivr.net", "/npm/lz-string@0.0.1/libs/lz-string.min.js", {}, "GET", b"", {}, None) is None


def test_refuses_traversal_and_other_hosts(npm_packages):
    version = npm_packages.package_version("lz-string")
    assert npm_cdn.route("cdn.jsdelivr.net", f"/npm/lz-string@{version}/../../package.json", {}, "GET", b"", {},
                         None)[0] == 404
    assert npm_cdn.route("shop.example", "/npm/lz-string@1.5.0/x.js", {}, "GET", b"", {}, None) is None
