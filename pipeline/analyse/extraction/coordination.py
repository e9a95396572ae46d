"""Numbers coordinated with a result (rule coordinated-result of :mod:`pipeline.analyse.extraction.rules`): a
plain decimal in a list with a plain result, after "vs." or alone in brackets after it is a result too ("F1
scores of 70.0 and 72.9", "(98.38 vs. 87.98 AUC)", "an NMI of 0.705 (0.431) on CIFAR-10 (CIFAR-100)")."""

from __future__ import annotations

import re

from pipeline.analyse.extraction.patterns import SPREAD
from pipeline.analyse.extraction.roles import accept_plain
from pipeline.analyse.extraction.rows import MetricDraft
from pipeline.analyse.extraction.tokens import SETUP_UNCERTAINTY, Tok

#: The rule name a token accepted for its coordination carries (``Tok.why``).
COORDINATED = "coordinated-result"
#: What joins two coordinated numbers: a list separator, "vs."/"versus".
_COORDINATION = re.compile(r"\s*(?:,|,?\s*(?:and|or|/)|vs\.?|versus)\s*")
#: A comma list that goes on to its "and"/"or" end after a number: "51.25, 22.17 and 40.65".
_LIST_ENDS = re.compile(r"(?:\s*,\s*[-+]?\d+(?:\.\d+)?)*\s*,?\s*(?:and|or)\s+[-+]?\d")
#: The bracketed name right after a data set's name: "CIFAR-10 (CIFAR-100)".
_PARTNER_NAME = re.compile(r"\s*\(\s*(?P<name>[A-Z][\w.\-+]*(?:\s[A-Z0-9][\w.\-+]*)?)\s*\)")


def accept_coordinated(text: str, toks: list[Tok]) -> None:
    """Accept, in place, the plain decimals of ``toks`` (number tokens of ``text`` in text order) coordinated
    with a plain result: before it ("92.4, 88.7 and 85.1 on SST-2", "(98.38 vs. 87.98 AUC)") and after it ("F1
    scores of 70.0 and 72.9", "an NMI of 0.705 (0.431)"); the spread of a number is skipped ("Dice scores of
    93.34+-0.05 and 89.73+-0.04"). Sets ``accepted`` and ``why``; raises nothing."""
    toks = [t for t in toks if t.setup_rule != SETUP_UNCERTAINTY]
    for j in range(len(toks) - 2, -1, -1):
        t, n = toks[j], toks[j + 1]
        if _plain_decimal(t) and n.unit is None and not n.setup and _coordinated(text, t, n):
            if n.accepted or accept_plain(text, n, 0):
                n.accepted = t.accepted = True
                t.why = t.why or COORDINATED
    for j in range(1, len(toks)):
        t, n = toks[j - 1], toks[j]
        if (
            t.unit is None
            and not t.measure
            and t.decimal
            and not t.setup
            and _plain_decimal(n)
            and _coordinated(text, t, n, forward=True)
            and (t.accepted or accept_plain(text, t, 0))
        ):
            n.accepted = True
            n.why = n.why or COORDINATED


def _plain_decimal(t: Tok) -> bool:
    """A decimal with no unit that no rule has accepted or rejected yet."""
    return not t.accepted and not t.setup and t.unit is None and not t.measure and t.decimal


def _coordinated(text: str, t: Tok, n: Tok, forward: bool = False) -> bool:
    """Whether the tokens ``t`` and ``n`` (in this order) are coordinated: only a separator between them. Read
    ``forward`` (``n`` takes ``t``'s status), a bare comma counts only inside a list that ends in "and"/"or"
    ("recall 75.9% at IOU 0.1, 47.9 average IDs" is no list)."""
    between = text[t.span_end : n.span_start]
    between = between[m.end() :] if (m := SPREAD.match(between)) else between  # "93.34+-0.05 and 89.73"
    if _COORDINATION.fullmatch(between):
        return not forward or between.strip() != "," or _LIST_ENDS.match(text, n.span_end) is not None
    return bracket_partner(text, t, n)


def bracket_partner(text: str, t: Tok, n: Tok) -> bool:
    """Whether ``n`` stands alone in brackets right after ``t``: "0.705 (0.431)"."""
    return bool(
        re.fullmatch(r"\s*\(\s*", text[t.span_end : n.span_start])
        and re.match(r"\s*\)", text[n.span_end : n.span_end + 3])
    )


def partner_dataset(text: str, row: MetricDraft, partner: MetricDraft, s1: int) -> str | None:
    """The data set of the bracketed ``partner`` of ``row``: the bracketed name after ``row``'s set when the two
    share it ("0.705 (0.431) on CIFAR-10 (CIFAR-100)" → CIFAR-100), else the partner's own; ``s1`` ends the
    sentence."""
    d = row["dataset"]
    if not d or partner["dataset"] != d:
        return partner["dataset"]
    at = text.find(d, partner["end"], s1)
    m = _PARTNER_NAME.match(text, at + len(d)) if at >= 0 else None
    return m["name"] if m else d
