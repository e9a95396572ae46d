"""Numbers coordinated with a result (rule coordinated-result of :mod:`pipeline.analyse.extraction.rules`): a
plain decimal in a list with a plain result, after "vs." or alone in brackets after it is a result too ("F1
scores of 70.0 and 72.9", "(98.38 vs. 87.98 AUC)", "an NMI of 0.705 (0.431) on CIFAR-10 (CIFAR-100)"); and the lists of rows, which share the head's change kind,
metric, data set, qualifier and baseline (:func:`list_groups`, :func:`share_in_groups`)."""

from __future__ import annotations

import re

from pipeline.analyse.extraction.patterns import NUMBER, QUAL_WORDS, SPREAD
from pipeline.analyse.extraction.roles import accept_plain
from pipeline.analyse.extraction.rows import SET_AT_NUMBER, MetricDraft
from pipeline.analyse.extraction.tokens import SETUP_UNCERTAINTY, Tok

# the gap between two numbers of one list: "A% and B%", "A% on X, B% on Y", "by A% and B%", and the head's own
# metric before the joint when nothing but "by" follows it ("saving 77.3% training time and 76.0% memory"); a
# bracketed metric may close a member ("9.8%/6.3% (AUC), 23.3%/8.8% (EAO) ... relative improvements")
_LIST_SEP = r"\s*(?:,\s*and|,|and|or|&|/)\s*"
_LIST_GAP = re.compile(
    r"\s*(?:\([\w@-]+\)\s*)?(?:(?:on|in|for)\s+(?:the\s+)?[^,;.()%]{1,40}?|(?P<own>(?:[A-Za-z][\w@\-.]*\s+)?[A-Za-z][\w@\-.]*))?"
    rf"{_LIST_SEP}(?:by\s+)?(?:(?:{QUAL_WORDS})\s*)*"
)
# two numbers of a list with nothing but a separator between them ("10.0% and 20.0%", "3.1, 2.4")
_PLAIN_SEP = re.compile(_LIST_SEP)

#: The rule name a token accepted for its coordination carries (``Tok.why``).
COORDINATED = "coordinated-result"
#: What joins two coordinated numbers: a list separator, "vs."/"versus".
_COORDINATION = re.compile(r"\s*(?:,|,?\s*(?:and|or|/)|vs\.?|versus)\s*")
#: A comma list that goes on to its "and"/"or" end after a number: "51.25, 22.17 and 40.65".
_LIST_ENDS = re.compile(rf"(?:\s*,\s*[-+]?{NUMBER})*\s*,?\s*(?:and|or)\s+[-+]?\.?\d")
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


def list_groups(text: str, rows: list[MetricDraft]) -> list[list[int]]:
    """Indexes of the rows of each coordinated list: same sentence, bracket and unit, joined by a list gap.

    A bare space joins two numbers only in a list that a separator closes later ("by 5.88% 5.96% and 5.32%",
    commas lost in the listing); "10% 40%" alone (a range whose dash was lost) is no list."""

    def same_place(i: int) -> bool:
        a, b = rows[i - 1], rows[i]
        return a["_s0"] == b["_s0"] and a["_paren"] == b["_paren"] and a["unit"] == b["unit"]

    n = len(rows)
    # seps[i]: the list gap before rows[i]; spaced[i]: only spaces (on one line) before it
    seps = [None] + [
        _LIST_GAP.fullmatch(text, rows[i - 1]["end"], rows[i]["start"]) if same_place(i) else None
        for i in range(1, n)
    ]
    spaced = [False] + [
        same_place(i) and re.fullmatch(r" +", text[rows[i - 1]["end"] : rows[i]["start"]]) is not None
        for i in range(1, n)
    ]
    closed = [False] * (n + 1)  # closed[i]: rows[i] reaches a separator through bare spaces
    for i in range(n - 1, 0, -1):
        closed[i] = seps[i] is not None or (spaced[i] and closed[i + 1])
    groups: list[list[int]] = []
    for i, r in enumerate(rows):
        g = seps[i]
        if (
            i
            and (g is not None or (spaced[i] and closed[i]))
            # after the head's own metric only a change spreads forward: "82.5% top-1 accuracy, 1.2% and
            # 0.96% higher" is a level, then two deltas
            and not (g is not None and g["own"] and rows[i - 1]["kind"] == "score" and r["kind"] != "score")
        ):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _list_dataset_after(text: str, members: list[MetricDraft]) -> None:
    """A data set named right after a list of numbers ("gains of 10.0% and 20.0% on AMC23") is the set of
    every number of that list, not the set an earlier number of the sentence took from before it."""
    for a, b in zip(members[-2::-1], members[:0:-1]):
        if (
            b["dataset"]
            and "dataset-after" in b["rules"]
            and a["dataset"] != b["dataset"]
            and not {"dataset-after", "dataset-before-bracket"} & set(a["rules"])
            and _PLAIN_SEP.fullmatch(text[a["end"] : b["start"]])
        ):
            a["dataset"] = b["dataset"]
            a["rules"] = [r for r in a["rules"] if r != "dataset-before"] + ["list-dataset-after"]


# "3.92% mean error with 0.39% failure rate on COFW": a result, its own metric words, then "with" and the next
_WITH_GAP = re.compile(r"\s*(?:[\w@-]+\s+){0,3}?with\s+(?:(?:only|just|a|an)\s+)?")
# "a DSC of 83.47% and a Hausdorff distance 95th percentile (HD95) of 3.83 on the FUMPE dataset": two levels
# named by their metrics, coordinated
_AND_LEVEL_GAP = re.compile(r"\s*,?\s*and\s+(?:an?\s+|the\s+|its\s+)?(?:[\w@()-]+\s+){1,6}?(?:of|=)\s+")


def share_set_with_partner(text: str, rows: list[MetricDraft]) -> None:
    """A result joined by "with" to the next number of its sentence, which names the data set right after it
    ("achieves 3.92% mean error with 0.39% failure rate on COFW dataset"), is measured on that set too,
    not on a set named earlier in the sentence (rule list-dataset-after)."""
    for a, b in zip(rows, rows[1:]):
        if (
            a["_s0"] == b["_s0"]
            and b["dataset"]
            and "dataset-after" in b["rules"]
            # not a baseline's ("compared with 80.47% of X on CULane": rule baseline-pair-dataset)
            and b["subject"] != "baseline"
            and a["dataset"] != b["dataset"]
            and not SET_AT_NUMBER & set(a["rules"])
            and (
                _WITH_GAP.fullmatch(text, a["end"], b["start"])
                or (
                    a["kind"] == b["kind"] == "score" and _AND_LEVEL_GAP.fullmatch(text, a["end"], b["start"])
                )
            )
        ):
            a["dataset"] = b["dataset"]
            a["rules"] = [r for r in a["rules"] if r != "dataset-before"] + ["list-dataset-after"]


def share_in_groups(text: str, rows: list[MetricDraft], groups: list[list[int]]) -> None:
    """A list shares the head's change kind, metric, dataset, qualifier "up to" and baseline."""
    for g in groups:
        if len(g) < 2:
            continue
        members = [rows[i] for i in g]
        _list_dataset_after(text, members)
        head = members[0]
        change = next((m["kind"] for m in members if m["kind"] in ("delta", "relative_change")), None)
        metric = next((m["metric"] for m in members if m["metric"]), None)
        dataset = next((m["dataset"] for m in members if m["dataset"]), None)
        for m in members:
            m["dataset"] = m["dataset"] or dataset
            if change and m["kind"] == "score" and "kind-level-of" not in m["rules"]:  # a named level stays
                m["kind"], m["direction"] = change, head["direction"]
            m["metric"] = m["metric"] or metric
            if head["qualifier"] == "up to" and m["qualifier"] is None:
                m["qualifier"] = "up to"
            if m["subject"] == head["subject"]:
                m["baseline"] = m["baseline"] or head["baseline"]


def share_elided_change(text: str, rows: list[MetricDraft]) -> None:
    """A level after ", and" that repeats the words after a change before it is that change again, its verb and
    noun left out ("1.8% gain of F1 accuracy on top of the BiDAF reader, and 1.0% on top of the BERT base model"):
    it takes the change's kind, direction and metric (rule elided-change)."""
    for a, b in zip(rows, rows[1:]):
        if (
            a["_s0"] != b["_s0"]
            or a["kind"] not in ("delta", "relative_change")
            or b["kind"] != "score"
            or "kind-level-of" in b["rules"]
            or b["unit"] != a["unit"]
        ):
            continue
        gap = text[a["end"] : b["start"]]
        after = _NEXT_WORDS.match(text, b["end"])
        if (
            not re.search(r",?\s(?:and|while)\s+(?:by\s+)?$", gap)
            or not after
            or after["w"].startswith("of ")
        ):
            continue  # "N% of the X" is a share
        if re.search(rf"\s{re.escape(after['w'])}\s", gap):
            b["kind"], b["direction"] = a["kind"], a["direction"]
            b["metric"] = b["metric"] or a["metric"]
            b["rules"].append("elided-change")


#: The two lower-case words right after a row's span ("on top", "over the").
_NEXT_WORDS = re.compile(r"\s(?P<w>[a-z]+\s[a-z]+)\b")
