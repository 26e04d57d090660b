"""Per-phase timings of one crawl: logged with the crawl and sent to the
caller in a ``Server-Timing`` response header (W3C Server Timing)."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

#: Phases in crawl order (``Server-Timing`` metric names).
PHASES = ("checkout", "browser", "navigate", "quiet", "screenshot", "probe", "consent", "quiet_after", "flush",
          "collect", "report")


@dataclass
class PhaseTimings:
    """Milliseconds spent in each phase of one crawl.

    Attributes:
        phases: phase name -> wall-clock ms (a phase entered twice adds up).
        starts: phase name -> ms from ``created`` to the phase's first start.
        created: monotonic seconds when the crawl started.
    """

    phases: dict[str, float] = field(default_factory=dict)
    starts: dict[str, float] = field(default_factory=dict)
    created: float = field(default_factory=time.monotonic)

    @contextlib.contextmanager
    def phase(self, name: str):
        """Time the ``with`` block as phase ``name`` (recorded even when it raises)."""
        started = time.monotonic()
        self.starts.setdefault(name, (started - self.created) * 1000)
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + (time.monotonic() - started) * 1000

    @contextlib.contextmanager
    def around(self, name: str, manager: contextlib.AbstractContextManager[T]) -> Iterator[T]:
        """Use ``manager`` in a ``with``, its entering and its leaving timed as
        phase ``name`` and the block in between not: ``with timings.around(
        "browser", CrawlSession(...)) as session:``.  Exceptions pass as
        through ``manager`` itself."""
        left: list[float] = []
        with contextlib.ExitStack() as stack:
            stack.callback(lambda: left and self.add(name, left[0]))  # runs last: after manager's exit
            with self.phase(name):
                value = stack.enter_context(manager)
            stack.callback(lambda: left.append(time.monotonic()))  # runs first: before manager's exit
            yield value

    def add(self, name: str, since: float) -> None:
        """Record phase ``name`` as lasting from ``since`` (monotonic s) to now."""
        now = time.monotonic()
        self.starts.setdefault(name, (since - self.created) * 1000)
        self.phases[name] = self.phases.get(name, 0.0) + (now - since) * 1000

    def server_timing(self) -> str:
        """``Server-Timing`` header value, e.g. ``navigate;dur=412, quiet;dur=503``
        (durations in ms, RFC/W3C Server Timing syntax)."""
        return ", ".join(f"{name};dur={ms:.0f}" for name, ms in self.phases.items())

    def summary(self) -> str:
        """One log-line fragment: ``navigate=412ms quiet=503ms ...``."""
        return " ".join(f"{name}={ms:.0f}ms" for name, ms in self.phases.items())
