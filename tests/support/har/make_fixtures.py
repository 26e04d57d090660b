"""Make the third-party HAR fixtures of this folder (README.md), offline, from the fixture web.

    PYTHONPATH=. .venv/bin/python tests/support/har/make_fixtures.py \\
        --mitmdump /tmp/venv/bin/mitmdump --har-tools /tmp/npm-dir [https://encodings.example/ ...]

For each page: headless Chromium loads it once through ``mitmdump`` (``--set hardump``:
``mitmproxy/<host>.har``) and once with its DevTools events recorded and written by chrome-har
(``chrome-har/<host>.har``, from the events in ``chrome-har/<host>.events.json``).  The tests never run this; they read the files it wrote.
"""
from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

from tagcrawl.engine.chrome.driver_factory import BASE_CHROME_ARGS
from tests.support.web.server import FixtureWeb

HERE = Path(__file__).parent
#: The switches of tagcrawl's crawl browsers (they keep most of Chrome's own traffic out).
QUIET_CHROME = [a for a in BASE_CHROME_ARGS if a not in ("--headless=new", "--no-sandbox")]
#: mitmproxy flow filter of what a proxy sees of Chromium itself (clock, component updater, sign-in, with the
#: machine's details): left out of the hardump.
CHROME_OWN = r"!(~d google\.com$ | ~d googleapis\.com$)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _capture(tools: str, url: str, out: str, chrome_args: list[str], events: str = "") -> None:
    subprocess.run(["node", str(HERE / "capture_cdp.mjs"), url, out, *([events] if events else []), "--",
                    *QUIET_CHROME, *chrome_args],
                   env={"HAR_TOOLS": tools, "PATH": "/usr/bin:/bin"}, check=True, timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mitmdump", required=True)
    parser.add_argument("--har-tools", required=True, help="a folder whose node_modules has chrome-har and "
                                                           "chrome-remote-interface")
    parser.add_argument("pages", nargs="*", default=["https://encodings.example/"])
    args = parser.parse_args()
    web = FixtureWeb().start()
    confdir = tempfile.TemporaryDirectory()  # mitmproxy's CA: thrown away
    try:
        for url in args.pages:
            host = urlsplit(url).hostname
            (HERE / "chrome-har").mkdir(exist_ok=True)
            (HERE / "mitmproxy").mkdir(exist_ok=True)
            _capture(args.har_tools, url, str(HERE / "chrome-har" / f"{host}.har"), web.chrome_args(),
                     str(HERE / "chrome-har" / f"{host}.events.json"))
            port = _free_port()
            proxy = subprocess.Popen([args.mitmdump, "--listen-host", "127.0.0.1", "-p", str(port), "--ssl-insecure",
                                      "--set", f"confdir={confdir.name}",
                                      "-s", str(HERE / "mitm_fixture_web.py"), "--set", f"fixture_port={web.port}",
                                      "--set", f"hardump={HERE / 'mitmproxy' / f'{host}.har'}",
                                      "--set", f"save_stream_filter={CHROME_OWN}"],
                                     stdout=subprocess.PIPE, text=True)
            for line in proxy.stdout:  # "HTTP(S) proxy listening at 127.0.0.1:<port>."
                if "listening at" in line:
                    break
            threading.Thread(target=proxy.stdout.read, daemon=True).start()  # the rest of its log
            _capture(args.har_tools, url, "-", [f"--proxy-server=http://127.0.0.1:{port}",
                                                "--ignore-certificate-errors"])
            proxy.send_signal(signal.SIGINT)  # mitmdump writes the hardump on exit
            proxy.wait(timeout=60)
    finally:
        web.stop()
        confdir.cleanup()


if __name__ == "__main__":
    main()
