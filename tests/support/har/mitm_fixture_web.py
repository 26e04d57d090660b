"""mitmproxy addon: every server is the fixture web (``127.0.0.1:<fixture_port>``), as
``--host-resolver-rules`` makes it for Chrome.  Used once to make the fixtures in this
folder (README.md); the tests never load it.

    mitmdump -s mitm_fixture_web.py --set fixture_port=PORT --ssl-insecure --set hardump=OUT.har
"""
from mitmproxy import ctx


def load(loader):
    loader.add_option("fixture_port", int, 0, "port of the fixture web (tests/support/web/server.py)")


def server_connect(data):
    """Connect to the fixture web; the request (Host, SNI, URL) stays as the browser sent it."""
    data.server.address = ("127.0.0.1", ctx.options.fixture_port)
