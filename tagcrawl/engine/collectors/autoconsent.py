"""Collector ``autoconsent``: DuckDuckGo autoconsent's content script in every
frame of the crawl, driven over its message protocol (as tracker-radar-collector's
``CookiePopupsCollector`` does; autoconsent's ``docs/api.md``).

Injection: for every page and iframe target (out-of-process iframes too),
``Runtime.addBinding`` restricted to a random isolated world name and
``Page.addScriptToEvaluateOnNewDocument`` with that ``worldName``: the host
end (``autoconsent_host.js``) and the content script run in an isolated world
of each frame, before the page's own scripts.  The page's world sees neither
the binding nor the script (tests/browser/test_stealth_traces.py).

Messages (``Runtime.bindingCalled`` of that binding, per isolated context):
``init`` -> ``initResp`` (config with ``autoAction: null``: tagcrawl decides when
to act; the rules ``autoconsent_rules.RuleBase.rules_for`` the frame);
``cmpDetected``, ``popupFound``, ``optInResult``/``optOutResult``,
``autoconsentDone``, ``selfTestResult``, ``report`` (lifecycle only) are
recorded; ``eval`` runs the rule's snippet in the main world of the same frame
(the protocol: ``Runtime.evaluate`` with ``returnByValue``, 1 s timeout) and
answers ``evalResp``.

Bounds (the page can make frames and drive autoconsent's messages):
``MAX_FRAMES`` instances answered per crawl, ``MAX_MESSAGES`` messages handled,
``MAX_MESSAGE_CHARS`` per message, ``MAX_EVALS`` evals of at most
``MAX_EVAL_CHARS`` characters; per frame at most ``MAX_DETECTED`` CMP names.
What is dropped is counted in ``notes()``.  ``consent/auto.py`` drives it.
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field

from tagcrawl.engine.collectors.autoconsent_rules import RuleBase, load
from tagcrawl.engine.collectors.base import Collector, Command, Context, Target
from tagcrawl.engine.scripts import script

MAX_FRAMES = 64
MAX_MESSAGES = 2000
MAX_MESSAGE_CHARS = 16384
MAX_EVALS = 200
MAX_EVAL_CHARS = 8192
MAX_DETECTED = 8
EVAL_TIMEOUT_MS = 1000
#: The initResp config (autoconsent ``lib/types.ts`` Config): no automatic action,
#: no prehiding (it would write a style element into the page), no cosmetic rules
#: (hiding is not a choice), no heuristics (tagcrawl has its own), no logs.
CONFIG = {"enabled": True, "autoAction": None, "disabledCmps": [], "enablePrehide": False,
          "enableCosmeticRules": False, "enableGeneratedRules": True, "enableHeuristicDetection": False,
          "heuristicMode": "off", "detectRetries": 20, "isMainWorld": False, "enablePopupMutationObserver": False,
          "visualTest": False, "logs": {k: False for k in ("lifecycle", "rulesteps", "detectionsteps", "evals",
                                                           "errors", "messages", "waits")}}
VISIBLE_JS = script(__file__, "autoconsent_visible.js")


@dataclass
class AutoFrame:
    """autoconsent's instance in one frame's isolated world.

    Attributes:
        session, context: CDP session and isolated ``executionContextId``.
        frame_id: the frame's id; top: it is the top document.
        url: from ``init``; detected: CMP rule names (``cmpDetected``, at most
            ``MAX_DETECTED``); popup: the rule whose popup is open (``popupFound``).
        lifecycle: the last ``report``'s; result: ``optInResult``/``optOutResult``
            (None before); done: ``autoconsentDone`` came; self_test: ``selfTestResult``;
            label: text of the element autoconsent clicked last (``autoconsent_host.js``).
    """

    session: str | None
    context: int
    frame_id: str
    top: bool = False
    url: str = ""
    detected: list[str] = field(default_factory=list)
    popup: str | None = None
    lifecycle: str = ""
    result: bool | None = None
    done: bool = False
    self_test: bool | None = None
    label: str = ""


class AutoconsentCollector(Collector):
    """Off (nothing injected) when ``Settings.autoconsent`` is false or the
    package is missing (``available`` False).  ``get_data`` -> None."""

    name = "autoconsent"

    def __init__(self):
        super().__init__()
        self.base: RuleBase | None = None
        self.world = "w" + secrets.token_hex(8)
        self.binding = "b" + secrets.token_hex(8)
        self.frames: dict[tuple, AutoFrame] = {}
        self._main: dict[tuple, int] = {}  # (session, frameId) -> the page world's context id
        self._world_frames: dict[tuple, str] = {}  # (session, isolated context id) -> frameId
        self.messages = self.evals = self.dropped = 0
        self.events = {"Runtime.executionContextCreated": self._created,
                       "Runtime.executionContextDestroyed": self._destroyed,
                       "Runtime.executionContextsCleared": self._cleared, "Runtime.bindingCalled": self._binding}

    @property
    def available(self) -> bool:
        """autoconsent runs in this crawl."""
        return self.base is not None

    def init(self, ctx: Context) -> None:
        self.base = load(ctx.settings.npm_dir) if ctx.settings.autoconsent else None

    def add_target(self, target: Target) -> list[Command]:
        if self.base is None or target.type not in ("page", "iframe"):
            return []
        source = script(__file__, "autoconsent_host.js").replace("__BINDING__", self.binding) + "\n" + self.base.script
        return [("Runtime.addBinding", {"name": self.binding, "executionContextName": self.world}),
                ("Page.addScriptToEvaluateOnNewDocument", {"source": source, "worldName": self.world,
                                                           "runImmediately": True})]

    # -- contexts --------------------------------------------------------------------
    def _created(self, params: dict, session: str | None) -> None:
        context = params.get("context") or {}
        aux = context.get("auxData") or {}
        with self.hub.cond:
            if aux.get("isDefault"):
                self._main[(session, aux.get("frameId"))] = context.get("id")
            elif context.get("name") == self.world and len(self._world_frames) < 4 * MAX_FRAMES:
                self._world_frames[(session, context.get("id"))] = aux.get("frameId")

    def _destroyed(self, params: dict, session: str | None) -> None:
        gone = params.get("executionContextId")
        with self.hub.cond:
            self._world_frames.pop((session, gone), None)
            self.frames.pop((session, gone), None)
            self._main = {k: v for k, v in self._main.items() if not (k[0] == session and v == gone)}

    def _cleared(self, _params: dict, session: str | None) -> None:
        with self.hub.cond:
            self._main = {k: v for k, v in self._main.items() if k[0] != session}
            self._world_frames = {k: v for k, v in self._world_frames.items() if k[0] != session}
            self.frames = {k: v for k, v in self.frames.items() if k[0] != session}

    # -- messages --------------------------------------------------------------------
    def _binding(self, params: dict, session: str | None) -> None:
        if params.get("name") != self.binding or self.base is None:
            return
        payload, key = params.get("payload") or "", (session, params.get("executionContextId"))
        with self.hub.cond:
            self.messages += 1
            frame_id = self._world_frames.get(key)
            if self.messages > MAX_MESSAGES or len(payload) > MAX_MESSAGE_CHARS or frame_id is None:
                self.dropped += 1
                return
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if isinstance(message, dict):
            self._handle(key, frame_id, message)

    def _handle(self, key: tuple, frame_id: str, message: dict) -> None:
        kind = message.get("type")
        with self.hub.cond:
            frame = self.frames.get(key)
            if kind == "init" and frame is None:
                if len(self.frames) >= MAX_FRAMES:
                    self.dropped += 1
                    return
                frame = self.frames[key] = AutoFrame(key[0], key[1], frame_id, message.get("top") is True,
                                                     str(message.get("url") or "")[:2048])
            if frame is None:
                return
            name = str(message.get("cmp") or "")[:200]
            if kind == "cmpDetected" and name and name not in frame.detected and len(frame.detected) < MAX_DETECTED:
                frame.detected.append(name)
            elif kind == "popupFound" and frame.popup is None:
                frame.popup = name
            elif kind in ("optInResult", "optOutResult"):
                frame.result = message.get("result") is True
                frame.label = str(message.get("label") or "")[:300]
            elif kind == "autoconsentDone":
                frame.done = True
            elif kind == "selfTestResult":
                frame.self_test = message.get("result") is True
            elif kind == "report":
                frame.lifecycle = str(message.get("lifecycle") or "")[:40]
            self.hub.cond.notify_all()
        if kind == "init":
            rules = self.base.rules_for(frame.url, frame.top)
            self.send(frame, {"type": "initResp", "config": CONFIG, "rules": {"autoconsent": rules}})
        elif kind == "eval":
            self._eval(frame, message)

    def _eval(self, frame: AutoFrame, message: dict) -> None:
        """Run an ``eval`` request's code in the page world of the same frame
        and answer ``evalResp`` (false on any error, an over-long code, past
        ``MAX_EVALS``, or a frame whose page world is unknown)."""
        code, ident = message.get("code"), message.get("id")
        with self.hub.cond:
            self.evals += 1
            main = self._main.get((frame.session, frame.frame_id))
        answer = lambda ok: self.send(frame, {"type": "evalResp", "id": ident, "result": ok})  # noqa: E731
        if not isinstance(code, str) or len(code) > MAX_EVAL_CHARS or self.evals > MAX_EVALS or main is None:
            answer(False)
            return

        def done(future) -> None:
            try:
                reply = future.result()
                value = (reply.get("result") or {}).get("value") if "exceptionDetails" not in reply else False
            except Exception:
                value = False
            answer(bool(value))

        self.hub.send("Runtime.evaluate", {"expression": code, "contextId": main, "returnByValue": True,
                                           "awaitPromise": True, "silent": True, "timeout": EVAL_TIMEOUT_MS,
                                           "allowUnsafeEvalBlockedByCSP": True}, frame.session).add_done_callback(done)

    def send(self, frame: AutoFrame, message: dict):
        """``autoconsentReceiveMessage(message)`` in ``frame``'s isolated world; the reply's future."""
        expression = f"window.autoconsentReceiveMessage && window.autoconsentReceiveMessage({json.dumps(message)})"
        return self.hub.send("Runtime.evaluate", {"expression": expression, "contextId": frame.context,
                                                  "silent": True}, frame.session)

    # -- what consent/auto.py uses ---------------------------------------------------------
    def popup(self) -> AutoFrame | None:
        """The frame whose popup autoconsent found first (the top document first), or None."""
        with self.hub.cond:
            found = [f for f in self.frames.values() if f.popup]
            return sorted(found, key=lambda f: not f.top)[0] if found else None

    def detecting(self) -> bool:
        """Some frame detected a CMP whose popup is not (yet) reported."""
        with self.hub.cond:
            return any(f.detected and not f.popup and f.lifecycle not in ("done", "nothingDetected")
                       for f in self.frames.values())

    def wait(self, predicate, deadline: float) -> bool:
        """Wait (on the hub's condition) until ``predicate()`` or the monotonic
        ``deadline``; returns the predicate's last value."""
        with self.hub.cond:
            return self.hub.cond.wait_for(predicate, max(0.0, deadline - time.monotonic()))

    def act(self, frame: AutoFrame, action: str) -> None:
        """Send ``optIn`` ("accept") or ``optOut`` (otherwise) to ``frame``."""
        with self.hub.cond:
            frame.result, frame.done, frame.label = None, False, ""
        self.send(frame, {"type": "optIn" if action == "accept" else "optOut"})

    def popup_shown(self, frame: AutoFrame, timeout_s: float) -> bool | None:
        """Is the popup of ``frame.popup`` still shown (its rule's ``detectPopup``
        selectors, checked in the isolated world)?  None: unknown (a code-based
        CMP, the frame gone, no answer within ``timeout_s``)."""
        selectors = self.base.popup_selectors(frame.popup or "") if self.base else []
        if not selectors:
            return None
        try:
            reply = self.send_expression(frame, f"({VISIBLE_JS})({json.dumps(selectors)})").result(timeout_s)
        except Exception:
            return None
        value = (reply.get("result") or {}).get("value")
        return value if isinstance(value, bool) else None

    def send_expression(self, frame: AutoFrame, expression: str):
        """Evaluate ``expression`` in ``frame``'s isolated world (``returnByValue``); the reply's future."""
        return self.hub.send("Runtime.evaluate", {"expression": expression, "contextId": frame.context,
                                                  "returnByValue": True, "silent": True}, frame.session)

    def notes(self) -> list[str]:
        if not self.dropped:
            return []
        return [f"autoconsent: {self.dropped} messages or frames not handled (past the bounds, docs/consent.md)"]
