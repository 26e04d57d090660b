"""What the consent step returns: ``ConsentResult`` and its typed ``Evidence``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

#: The kinds of evidence, in the order ``choice.evidence`` lists them.
EvidenceKind = Literal["banner hidden", "cookie", "storage", "tcf useractioncomplete"]


@dataclass(frozen=True)
class Evidence:
    """One sign that a click worked.

    Attributes:
        kind: "banner hidden" (the banner is gone or hidden), "cookie" (a
            consent cookie appeared or changed), "storage" (a consent
            localStorage entry did) or "tcf useractioncomplete" (the TCF API
            reported it).
        name: the cookie's name or the storage key; "" for the other kinds.
    """

    kind: EvidenceKind
    name: str = ""

    def __str__(self) -> str:
        """``"banner hidden"``, ``"cookie <name>"``, ``"storage <key>"``, ``"tcf useractioncomplete"`` (logs)."""
        return f"{self.kind} {self.name}" if self.name else self.kind


BANNER_HIDDEN = Evidence("banner hidden")
TCF_COMPLETE = Evidence("tcf useractioncomplete")


@dataclass
class ConsentResult:
    """Outcome of the consent step.

    Attributes:
        banner: a consent banner was found.
        action: "accept", "reject" or "none" (``options.consentAction``).
        button_text: visible text of the button whose click was verified;
            else of the first candidate (found, or clicked without effect),
            whitespace-normalised.
        cmp: CMP name when known ("OneTrust", "TCF CMP 10"), else None.
        clicked: a candidate was clicked.
        verified: a click was verified: for accept, ``evidence`` holds at least
            one signal; for reject, the banner is gone and a choice was stored.
        how: "cmp", "tcf" or "heuristic".
        evidence: what showed the last click worked (``Evidence``, each once,
            banner first, then cookies, storage, TCF).
        rounds: how many times the page was scanned (1 + DOM changes waited for).
        attempts: labels of the buttons clicked, in order (settings included).
        unticked: labels of the second-layer toggles switched off before a
            "Save" click, when refusing ("" for a toggle without a label).
        choice_ms: epoch milliseconds of the verified click, else of the click
            after which the banner was gone (a refusal the CMP did not store);
            None without either: the boundary between ``before_consent`` and
            ``after_<action>``.
        cookies_at_choice: (name, domain) of the cookies present just before
            that click.
        stored_choice: what the last click wrote (``stored.StoredChoice``:
            cookies, localStorage and sessionStorage keys, at most
            ``stored.MAX_STORED``): the stored choice, never a violation.
        rules: "autoconsent" when autoconsent's rule made the choice, else "tagcrawl".
    """

    banner: bool = False
    action: str = "accept"
    button_text: str | None = None
    cmp: str | None = None
    clicked: bool = False
    verified: bool = False
    how: str | None = None
    evidence: list[Evidence] = field(default_factory=list)
    rounds: int = 0
    attempts: list[str] = field(default_factory=list)
    unticked: list[str] = field(default_factory=list)
    choice_ms: float | None = None
    cookies_at_choice: set = field(default_factory=set)
    stored_choice: list = field(default_factory=list)
    rules: str = "tagcrawl"

    def stored_cookies(self) -> set[str]:
        """Names of the cookies whose change verified the click (``kind`` "cookie")."""
        return {e.name for e in self.evidence if e.kind == "cookie"}
