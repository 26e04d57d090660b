"""Export stored events as JSON Lines or CSV (``flask events export``).

``export_events(flt, fmt, out, progress)`` writes every matching event to the
text stream ``out`` and calls ``progress(n)`` after each written event, so the
CLI can drive a progress bar.  CSV has a header row with ``events.FIELDS``;
the JSON columns (``details``, ``extra``) are JSON text in CSV cells.
"""
from __future__ import annotations

import csv
import json
from typing import Callable, TextIO

from tagcrawl.stream.events import FIELDS, EventFilter, iter_events

FORMATS = ("jsonl", "csv")


def export_events(flt: EventFilter, fmt: str, out: TextIO,
                  progress: Callable[[int], None] | None = None) -> int:
    """Write the events matching ``flt`` to ``out`` in ``fmt``.

    Args:
        flt: which events.
        fmt: ``"jsonl"`` (one JSON object a line) or ``"csv"``.
        out: a text stream (opened with ``newline=""`` for CSV files).
        progress: called with 1 after each event.
    Returns:
        the number of events written.
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    writer = None
    if fmt == "csv":
        writer = csv.writer(out)
        writer.writerow(FIELDS)
    written = 0
    for event in iter_events(flt):
        if writer is None:
            out.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        else:
            writer.writerow([_cell(event[name]) for name in FIELDS])
        written += 1
        if progress is not None:
            progress(1)
    return written


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
