"""The payload of ``sites/heavy.example/posthog.html``: a ``data=`` value of
valid lz-string (``compressToBase64`` of the real npm package, run by node) that
decompresses past the matcher's cap, so each request costs the decoder the most
it can.  Made once per process (node takes a second or two) and served at
``https://heavy.example/lz-payload.txt?kb=<KiB>`` by :func:`route`, which a
test installs as ``fixture_web.extra_route``; the page then only sends it.
"""
from __future__ import annotations

import functools
import shutil
import subprocess

from .npm_cdn import NPM_ROOT

_SCRIPT = r"""
const LZ = require(process.argv[1]);
let seed = 7, words = [];
const word = () => { let s = ""; for (let i = 0; i < 8; i++) { seed = (seed * 1103515245 + 12345) % 2147483648;
  s += String.fromCharCode(97 + seed % 26); } return s; };
while (words.length * 11 < 270 * 1024) words.push(word());  // low-redundancy text: decompresses past 256 KiB
const token = "phc_HeavyFlood00000000000000000000000000000";
process.stdout.write(LZ.compressToBase64(JSON.stringify({ event: "$pageview", properties: { token, filler: words } })));
"""


@functools.lru_cache(maxsize=4)
def lz_payload(kb: int) -> str:
    """``kb`` KiB of base64 text: the compressed document, repeated and cut to size.

    Raises:
        LookupError: node or the npm lz-string package is missing.
    """
    node = shutil.which("node")
    if node is None or not (NPM_ROOT / "lz-string").is_dir():
        raise LookupError("node and the npm fixture lz-string are needed")
    packed = subprocess.run([node, "-e", _SCRIPT, str(NPM_ROOT / "lz-string")], capture_output=True, text=True,
                            check=True, timeout=60).stdout
    return (packed * (kb * 1024 // len(packed) + 1))[: kb * 1024]


def route(host, path, query, method, body, headers, web):
    """``GET https://heavy.example/lz-payload.txt?kb=<n>``, else None (other routes answer)."""
    if host == "heavy.example" and path == "/lz-payload.txt":
        return 200, {"Content-Type": "text/plain"}, lz_payload(int(query.get("kb") or 256))
    return None
