"""A minimal Chrome DevTools Protocol client over one browser-level websocket.

Selenium's ``execute_cdp_cmd`` can send commands but cannot receive events, and
only talks to the page target.  tagcrawl needs events from every target (page,
iframes including out-of-process ones, workers), so it opens its own
connection to the browser endpoint and uses flattened sessions
(``Target.setAutoAttach(flatten=True)``): every message carries a
``sessionId`` and one socket serves all targets.
"""
from __future__ import annotations

import itertools
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

import websocket

log = logging.getLogger(__name__)

EventHandler = Callable[[str, dict, "str | None"], None]


class CDPError(RuntimeError):
    """A CDP command failed (``error`` in the reply) or the socket closed."""


class CDPConnection:
    """One websocket to a browser's DevTools endpoint, read by a daemon thread.

    Args:
        ws_url: ``ws://host:port/devtools/browser/<id>`` (local Chrome) or the
            ``se:cdp`` URL of a Selenium Grid session.
        on_event: called on the reader thread as ``on_event(method, params,
            session_id)`` for every event.  Must not block on CDP replies.
    """

    def __init__(self, ws_url: str, on_event: EventHandler | None = None, connect_timeout_s: float = 10):
        # skip_utf8_validation: websocket-client's own check is pure Python (about 1 s per 10 MB, on the
        # one reader thread, so a page sending large bodies starved every CDP reply); a text frame is
        # still decoded as strict UTF-8 (in C) before json.loads.
        self._ws = websocket.create_connection(ws_url, timeout=connect_timeout_s, suppress_origin=True,
                                               enable_multithread=True, skip_utf8_validation=True)
        self._ws.settimeout(None)
        self._ids = itertools.count(1)
        self._pending: dict[int, Future] = {}
        self._lock = threading.Lock()
        self.on_event = on_event
        self.closed = False
        self._reader = threading.Thread(target=self._read_loop, name="cdp-reader", daemon=True)
        self._reader.start()

    def _read_loop(self) -> None:
        while True:
            try:
                raw = self._ws.recv()
            except Exception:  # socket closed or browser gone
                break
            if not raw:
                break
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if "id" in message:
                with self._lock:
                    future = self._pending.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif self.on_event is not None:
                try:
                    self.on_event(message.get("method", ""), message.get("params", {}), message.get("sessionId"))
                except Exception:
                    log.exception("CDP event handler failed for %s", message.get("method"))
        self._fail_pending()

    def _fail_pending(self) -> None:
        self.closed = True
        with self._lock:
            pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(CDPError("DevTools connection closed"))

    def send(self, method: str, params: dict | None = None, session_id: str | None = None) -> Future:
        """Send a command without waiting; the Future resolves to the reply dict."""
        future: Future = Future()
        if self.closed:
            future.set_exception(CDPError("DevTools connection closed"))
            return future
        message_id = next(self._ids)
        message = {"id": message_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        with self._lock:
            self._pending[message_id] = future
        try:
            self._ws.send(json.dumps(message))
        except Exception as exc:
            with self._lock:
                self._pending.pop(message_id, None)
            if not future.done():  # the reader may have failed it meanwhile (socket closed)
                future.set_exception(CDPError(f"send failed: {exc}"))
        return future

    def call(self, method: str, params: dict | None = None, session_id: str | None = None,
             timeout_s: float = 10) -> dict:
        """Send a command and wait for its ``result``.

        Raises:
            CDPError: the browser answered with an error, the socket closed, or
                no reply came within ``timeout_s`` seconds.
        """
        try:
            reply = self.send(method, params, session_id).result(timeout=timeout_s)
        except FutureTimeout as exc:
            raise CDPError(f"{method}: no reply in {timeout_s}s") from exc
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def close(self) -> None:
        """Close the socket; pending calls fail with CDPError."""
        try:
            self._ws.close()
        except Exception:
            pass
        self._fail_pending()
