"""Matching a crawl's requests within its deadline and its decode budget.

The matcher (``matcher.py``) decodes what a page sends: query strings,
bodies, base64 / gzip / lz-string parameters.  A hostile page can send many
large requests, so the crawl's matching loop (:func:`match_within`) is bounded:

- **deadline**: checked before each request; past it the loop stops and the
  requests not looked at are left out (:attr:`MatchRun.stopped` = "deadline").
  One request's own work is bounded by the decoders' caps
  (``decode.MAX_BODY``, ``encodings.MAX_INPUT`` / ``MAX_DECODED``,
  ``request_context.CANDIDATE_ENTRIES_MAX``), and the loop runs inside a
  ``budget.decode_budget`` with the same deadline, so a decoder that has not
  started by the deadline is refused: the loop ends at most one decoder's work
  after the deadline.
- **decode budget** (``Settings.decode_budget_bytes``): each request costs
  :func:`request_cost` (its URL and body length), charged before it is
  decoded; a request that does not fit in what is left is matched on its URL's
  host and path only (``match_with(..., decode_params=False)``): a vendor is
  still recognised, with no account id or event.
- **hits**: at most :data:`MAX_HITS` hits, holding at most
  :data:`MAX_HIT_PARAMS` decoded parameters in all, per crawl; past either
  the loop stops (``stopped`` = "hits").
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from tagcrawl.engine.vendors.budget import decode_budget
from tagcrawl.engine.vendors.matcher import CompiledPattern, match_with
from tagcrawl.engine.vendors.request_context import own_entries
from tagcrawl.engine.vendors.types import Hit, Request

#: Hits kept per crawl.
MAX_HITS = 20_000
#: Decoded parameter entries held by the kept hits, per crawl.
MAX_HIT_PARAMS = 500_000


def request_cost(req: Request) -> int:
    """What decoding ``req`` costs the budget: characters (or bytes) of its URL
    plus its body.  O(1)."""
    url = req.url if isinstance(req.url, str) else ""
    body = req.post_data if isinstance(req.post_data, (str, bytes, bytearray)) else b""
    return len(url) + len(body)


@dataclass
class MatchRun:
    """The outcome of :func:`match_within`.

    Attributes:
        hits: the hits, in request order.
        total: requests given.
        looked_at: requests matched (decoded, or by shape), from the first on.
        shape_only: of those, how many were past the decode budget.
        decoded_bytes: the budget spent (:func:`request_cost` of the decoded ones).
        budget_bytes: the budget.
        stopped: None, "deadline" or "hits": why the loop ended early.
    """

    hits: list[Hit] = field(default_factory=list)
    total: int = 0
    looked_at: int = 0
    shape_only: int = 0
    decoded_bytes: int = 0
    budget_bytes: int = 0
    stopped: str | None = None

    def notes(self) -> list[str]:
        """What was cut, as sentences for the report's ``message`` (``[]`` when nothing)."""
        out = []
        if self.stopped == "deadline":
            out.append(f"deadline reached while matching: {self.looked_at} of {self.total} requests matched")
        elif self.stopped == "hits":
            out.append(f"hit cap reached while matching ({MAX_HITS} hits or {MAX_HIT_PARAMS} decoded parameters): "
                       f"{self.looked_at} of {self.total} requests matched")
        if self.shape_only:
            out.append(f"decode budget of {self.budget_bytes / 1048576:g} MiB reached: {self.shape_only} requests "
                       "matched on their URL's host and path only (no account id or event)")
        return out


def match_within(compiled: tuple[CompiledPattern, ...], reqs: Iterable[Request], deadline: float,
                 budget_bytes: int, clock: Callable[[], float] = time.monotonic) -> MatchRun:
    """Match ``reqs`` in order within ``deadline`` and ``budget_bytes`` (module docstring).

    Args:
        compiled: ``matcher.compile_catalog`` output.
        reqs: the crawl's captured requests (a sized iterable: its ``len`` is ``total``).
        deadline: monotonic seconds (``clock``) after which no new request is looked at.
        budget_bytes: decode budget of the crawl (``Settings.decode_budget_bytes``).
        clock: the monotonic clock.
    Returns:
        :class:`MatchRun`.  Never raises for what a request holds.
    """
    reqs = list(reqs)
    run = MatchRun(total=len(reqs), budget_bytes=budget_bytes)
    with decode_budget(sys.maxsize, deadline if clock is time.monotonic else None):
        _match_all(compiled, reqs, deadline, run, clock)
    return run


def _match_all(compiled, reqs: list[Request], deadline: float, run: MatchRun, clock) -> None:
    """The loop of :func:`match_within`, filling ``run``."""
    params = 0
    for req in reqs:
        if clock() >= deadline:
            run.stopped = "deadline"
            break
        if len(run.hits) >= MAX_HITS or params >= MAX_HIT_PARAMS:
            run.stopped = "hits"
            break
        cost = request_cost(req)
        decode = run.decoded_bytes + cost <= run.budget_bytes
        if decode:
            run.decoded_bytes += cost
        else:
            run.shape_only += 1
        hits = match_with(compiled, req, decode_params=decode)
        seen: set[int] = set()
        for hit in hits[: MAX_HITS - len(run.hits)]:
            if id(hit.params) not in seen:  # the hits of one candidate share its mapping
                seen.add(id(hit.params))
                params += own_entries(hit.params)
            run.hits.append(hit)
        run.looked_at += 1
