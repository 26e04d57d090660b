"""A budget of decoding work, per crawl (or any other unit the caller picks).

Every decoder that expands or parses a page's data (``encodings.inflate``,
``encodings.b64_text``, ``lzstring.lz_decompress``, the JSON parses of
``decode.parse_json`` and ``encodings.unwrap_json``) calls :func:`charge` with
the size of the input it is about to read (characters or bytes, after its own
input cap), before reading it.

- Without a budget (the default), :func:`charge` always allows: each decoder is
  still bounded by its own caps (``docs/security.md``, "Decoders: bounded by
  output").
- Inside ``with decode_budget(max_bytes) as budget:``, the decoders may read
  ``max_bytes`` in all (and nothing after ``deadline``, a ``time.monotonic()``
  value). A decoder refused by the budget returns what it returns for input it
  cannot decode (None, a "raw" body), so matching goes on with what is left
  (URL parameters); ``budget.refused`` counts the refusals, so the caller can
  say in its report that decoding was cut.

The budget is held in a ``ContextVar``: it covers the calls made by the thread
(or asyncio task) that entered the ``with``, and nothing else.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class DecodeBudget:
    """Decoding work allowed and done.

    Attributes:
        max_bytes: the most input (characters or bytes) the decoders may read in all.
        deadline: ``time.monotonic()`` after which every decoder is refused, or None.
        spent: input read so far.
        refused: decodings refused (over ``max_bytes`` or past ``deadline``).
    """

    max_bytes: int
    deadline: float | None = None
    spent: int = 0
    refused: int = 0

    def charge(self, n: int) -> bool:
        """Allow reading ``n`` more bytes (True, and count them) or refuse (False)."""
        if self.spent + n > self.max_bytes or (self.deadline is not None and time.monotonic() >= self.deadline):
            self.refused += 1
            return False
        self.spent += n
        return True


_current: ContextVar[DecodeBudget | None] = ContextVar("tagcrawl_decode_budget", default=None)


@contextmanager
def decode_budget(max_bytes: int, deadline: float | None = None) -> Iterator[DecodeBudget]:
    """Run the block's decoding under a new :class:`DecodeBudget` (yielded)."""
    budget = DecodeBudget(max_bytes, deadline)
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def charge(n: int) -> bool:
    """``charge(n)`` on the current budget; True when there is none."""
    budget = _current.get()
    return budget is None or budget.charge(n)
