"""Cost of tagcrawl's lz-string decoder (``tagcrawl.engine.vendors.encodings.lz_decompress``).

``python -m bench.lz_string [repeats]`` times the decoder on 256 KB inputs:

- ``posthog``: PostHog-shaped events (uuids, URLs, properties) compressed by
  the real npm package (``compressToBase64``), cut to 256 KB; it decompresses
  past ``MAX_DECODED``, so the default limit refuses it; with a 16 MiB limit
  it is decoded to its end (then refused: the cut stream has no end marker);
- ``small``: the same kind of payload that fits under the limit;
- ``junk``: 256 KB of random base64 alphabet characters;
- ``zeros``: 256 KB of ``A`` (no end marker; every code a literal).

Needs ``node`` and the pinned npm packages (``tests/support/web/npm``). Prints
the median and fastest CPU time of each in ms (``time.process_time``: the
process's own CPU, so other load on the machine inflates it less than wall
time; the fastest is the steadier figure).  Not a test: numbers go to reports, never into
assertions.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from tagcrawl.engine.vendors import encodings
from tests.support.web import npm_cdn

VECTORS = Path(__file__).parents[1] / "tests" / "support" / "web" / "encodings" / "lz_vectors.js"
SIZE = 256 * 1024


def events(n: int, rng: random.Random) -> str:
    """A PostHog batch of ``n`` events as JSON text."""
    batch = [{"event": rng.choice(["$pageview", "$autocapture", "$pageleave"]),
              "properties": {"token": "phc_" + uuid.UUID(int=rng.getrandbits(128)).hex,
                             "distinct_id": str(uuid.UUID(int=rng.getrandbits(128))),
                             "$current_url": f"https://shop.example/p/{rng.randrange(10**6)}?q={rng.random()}",
                             "$screen_width": rng.choice([1280, 1920, 390]), "$lib": "web"}}
             for _ in range(n)]
    return json.dumps(batch)


def compress(texts: list[str]) -> list[dict]:
    done = subprocess.run(["node", str(VECTORS)], input=json.dumps({"compress": texts}), capture_output=True,
                          text=True, check=True, env=dict(os.environ, NODE_PATH=str(npm_cdn.NPM_ROOT)), timeout=120)
    return json.loads(done.stdout)["compressed"]


def timed(value: str, repeats: int, decoder=encodings.lz_decompress, **kwargs) -> tuple[float, float, object]:
    """``(median ms, fastest ms, output)`` of ``repeats`` runs of ``decoder``."""
    runs, out = [], None
    for _ in range(repeats):
        start = time.process_time()
        out = decoder(value, **kwargs)
        runs.append((time.process_time() - start) * 1000)
    return statistics.median(runs), min(runs), out


def cases() -> list[tuple[str, str, dict]]:
    """``(name, input, keyword arguments)`` of each measured decoding."""
    rng = random.Random(7)
    big, small = compress([events(4000, rng), events(500, rng)])
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    cases = [
        ("posthog, 256 KB, default limit", big["base64"][:SIZE], {}),
        ("posthog, 256 KB, 16 MiB limit", big["base64"][:SIZE], {"limit": 16 * 1024 * 1024}),
        (f"small, {len(small['base64']) // 1024} KB, whole", small["base64"], {}),
        (f"small uri, {len(small['uri']) // 1024} KB, whole", small["uri"], {"uri_safe": True}),
        ("junk, 256 KB", "".join(rng.choice(alphabet) for _ in range(SIZE)), {}),
        ("zeros, 256 KB", "A" * SIZE, {}),
    ]
    return cases


def main(repeats: int = 5) -> None:
    print("| input | median ms | fastest ms | result |\n|---|---|---|---|")
    for name, value, kwargs in cases():
        median, fastest, out = timed(value, repeats, **kwargs)
        print(f"| {name} | {median:.1f} | {fastest:.1f} | {'None' if out is None else f'{len(out):,} chars'} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
