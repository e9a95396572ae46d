"""Linking metric rows to the names of their sentence: respectively-lists, one metric name for several numbers,
the metric of a clause or of the phrase a number refers back to (the data sets are linked in
:mod:`pipeline.analyse.extraction.dataset_linking`).

Pure functions over the rows :func:`pipeline.analyse.extraction.metrics.extract_metrics` builds
(:class:`pipeline.analyse.extraction.rows.MetricDraft`: ``start``, ``end``, ``metric``, ``dataset``, ``rules``,
and the private ``_s0``/``_s1`` sentence bounds). Each function
changes rows in place and appends the name of the rule that decided a value to the row's ``rules``
(:data:`pipeline.analyse.extraction.rules.RULES` gives each rule's reason and examples).
"""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.names import metric_share_of
from pipeline.analyse.extraction.patterns import LOWER_PREFIX_NAME, SIGNIFICANCE_SYMBOLS
from pipeline.analyse.extraction.rows import SET_AT_NUMBER, MetricDraft

RULES_VERSION = "17"  # bump when outputs change (docs/execution.md)

_LEX_WORDS = V.alternation(V.METRIC_NAMES)
_LEX = V.words(V.METRIC_NAMES)
_MODEL = re.compile(rf"\b{V.alternation(V.MODEL_NAMES)}(?![a-z])")
_NOT_DATASET_AFTER = re.compile(rf"\s+{V.alternation(V.NOT_DATASET_HEADS)}\b", re.I)
_GENERIC_CAP = set(V.GENERIC_CAPITALS)
_TASKS = set(V.TASK_ACRONYMS)

#: A capitalised name ("CMU Mocap", "Human3.6M", "MultiWOZ2.1", "Pascal VOC 2007", "ImageNet-100").
NAME = rf"(?:(?:[A-Z0-9]|{LOWER_PREFIX_NAME})[\w'’.+→-]*[\w+](?:\s(?:[A-Z0-9][\w'’.+→-]*[\w+]|v\d[\w.]*))*)"
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)"
# A list of data-set names is introduced by a preposition or a "datasets:"-like head, or followed by one:
# "on Flower, Animal Faces, and VGGFace", "benchmarks, BC40 and CB513" (never "X, Y and Z achieve").
# an item may have its own article and singular head word: "on the MultiWOZ benchmark and the SGD benchmark"
# (a plural head after the last item is shared by the list and ends it: "on the PGPS9K and Geometry3K datasets")
_HEAD = r"(?:\s(?:dataset|benchmark|corpus|data\s+set)(?![\w-]))?"
_NAME_LIST = re.compile(
    rf"(?:\b(?i:on|in|for|across|using|of|from)\s+(?i:the\s+|both\s+)?|"
    rf"\b(?:datasets?|benchmarks?|corpora)\s*(?::|,)?\s+(?:the\s+|both\s+)?)"
    rf"(?P<list>{NAME}{_HEAD}(?:{_SEP}(?:the\s+)?{NAME}{_HEAD})+)(?![\w-])"
)
# A list after a preposition and lowercase modifiers, closed by a plural set head: "on the widely used WMT'14
# English-French, WMT'16 English-German and NIST Chinese-to-English benchmarks".
_HEADED_LIST = re.compile(
    rf"\b(?i:on|in|for|across|using|of|from)\s+(?:the\s+)?(?:[a-z][\w-]*\s+){{1,3}}"
    rf"(?P<list>{NAME}(?:{_SEP}(?:the\s+)?{NAME})+)(?=\s+(?:datasets|benchmarks|corpora)\b)"
)
_METRIC_ITEM = rf"(?:(?!(?:of|in|on|for|at|by|to|and|or|the)\s)[\w@-]+\s)?{_LEX_WORDS}(?:\s\([\w@-]+\))?"
_METRIC_LIST = re.compile(rf"(?<![\w-]){_METRIC_ITEM}(?:{_SEP}{_METRIC_ITEM})+(?![\w-])", re.I)
# "human and robot performance", "AP and AP90 scores": two modifiers sharing one metric head.
_SHARED_HEAD = re.compile(rf"(?<![\w-])([\w-]+)\s+and\s+([\w-]+)\s+({_LEX_WORDS})(?![\w-])", re.I)
# "on strict 5 ◦ 2cm and 5 ◦ 5cm metrics": two names the text calls metrics.
_NAMED_METRICS = re.compile(
    r"\b(?:on|in|for)\s+(?:the\s+)?(?:strict\s+)?(?P<a>[^,;()%]{1,25}?)\s+and\s+"
    r"(?P<b>[^,;()%]{1,25}?)\s+(?:metrics|scores|measures)\b",
    re.I,
)
_RESPECTIVELY = re.compile(r"\b(?:respectively|resp\.)", re.I)
# "4.6%, 4.6%, 2.2% on these three datasets": the numbers follow the order of a list named before.
_ON_THESE = re.compile(
    r"\s*(?:\([^()]*\)\s*)?(?:on|in|for|across)\s+(?:these|those|the|all)\s+(?:\w+\s+)?"
    r"(?:datasets|benchmarks|tasks|corpora)\b",
    re.I,
)
_SPLIT = re.compile(_SEP)
_ANAPHOR = re.compile(
    r"\b(?:these|those|both|the two|the three|all three|all four|each of the)\s+"
    r"(?:\w+\s+)?(?:datasets|benchmarks|tasks|corpora|settings)\b",
    re.I,
)
# Gaps between numbers of one coordinated group: separators, optionally a metric name or "on X".
# A slash pair's halves are one group too, and a bracketed metric may follow it ("9.8%/6.3% (AUC), 23.3%/...").
_GROUP_GAP = re.compile(
    rf"\s*/\s*|\s*(?:\([\w@-]+\)\s*)?(?:[\w@-]+\s+)?{_SEP}?\s*(?:(?:{_LEX_WORDS})\s+)?", re.I
)


def _items(match: re.Match) -> list[tuple[str, int]]:
    """Items of a list match with their offsets."""
    out, pos = [], match.start()
    for part in _SPLIT.split(match[0]):
        i = match.string.find(part, pos)
        out.append((part.strip(), i))
        pos = i + len(part)
    return [(p, i) for p, i in out if p]


def dataset_item(name: str) -> str | None:
    """A list item that can be a dataset name: not a model, a metric, or a generic capitalised word."""
    name = re.sub(
        r"\s(?:datasets?|benchmarks?|sets?|corpus)$", "", re.sub(r"^the\s+", "", name.strip(" .,'’"))
    )
    if (
        not name
        or name.split()[0] in _GENERIC_CAP
        or name in _TASKS
        or _MODEL.search(name)
        or _LEX.fullmatch(name)
    ):
        return None
    if re.fullmatch(r"\d+(?:\.\d+)?%?", name) or not re.search(r"[A-Z]", name):
        return None  # a number, or a setting such as "1-shot"
    return name


def _lists(text: str, lo: int, hi: int, avoid: list[tuple[int, int]]) -> tuple[list, list]:
    """Dataset-name lists and metric-name lists in ``text[lo:hi]`` outside the ``avoid`` spans."""

    def free(m):
        return all(m.end() <= a or m.start() >= b for a, b in avoid)

    names, metrics = [], []
    for m in _METRIC_LIST.finditer(text, lo, hi):
        if free(m):
            metrics.append([p for p, _ in _items(m)])
    for m in _SHARED_HEAD.finditer(text, lo, hi):
        if free(m):
            metrics.append([f"{m[1]} {m[3]}", f"{m[2]} {m[3]}"])
    for m in _NAMED_METRICS.finditer(text, lo, hi):
        if free(m):
            metrics.append([m["a"].strip(), m["b"].strip()])
    for m in [*_NAME_LIST.finditer(text, lo, hi), *_HEADED_LIST.finditer(text, lo, hi)]:
        if not free(m) or _NOT_DATASET_AFTER.match(text, m.end()):
            continue
        items = [dataset_item(p) for p in _SPLIT.split(m["list"]) if p.strip()]
        if all(items):
            names.append(items)
    return names, metrics


def _groups(text: str, rows: list[MetricDraft]) -> list[list[MetricDraft]]:
    """Consecutive rows of one sentence whose gaps are list separators (optionally naming a metric)."""
    groups: list[list[MetricDraft]] = []
    for r in rows:
        prev = groups[-1][-1] if groups else None
        if (
            prev is not None
            and prev["_s0"] == r["_s0"]
            and _GROUP_GAP.fullmatch(text[prev["end"] : r["start"]])
            and not _RESPECTIVELY.search(text[prev["end"] : r["start"]])
        ):
            groups[-1].append(r)
        else:
            groups.append([r])
    return groups


def link_respectively(text: str, rows: list[MetricDraft], sentences: list[tuple[int, int]]) -> None:
    """Map a "respectively" list of numbers pairwise onto the list of names of the same length in its sentence
    (metric names, dataset names), or in blocks when the numbers are k per name; datasets may come from the
    previous sentence's list when the sentence refers back ("on these datasets")."""
    for g in _groups(text, rows):
        if len(g) < 2:
            continue
        s0, s1 = g[0]["_s0"], g[0]["_s1"]
        tail = text[g[-1]["end"] : s1]
        # "respectively" after the numbers, or just before them ("our models respectively obtain 27.59, ...")
        before = text[max(s0, g[0]["start"] - 40) : g[0]["start"]]
        if (
            not _RESPECTIVELY.search(tail[:200])
            and not _RESPECTIVELY.search(before)
            and not _ON_THESE.match(tail)
        ):
            # "41.2% and 37.9% on COCO and LVIS": a list of as many names right after the numbers
            m = _NAME_LIST.match(text, g[-1]["end"] + (len(tail) - len(tail.lstrip())))
            items = [dataset_item(p) for p in _SPLIT.split(m["list"]) if p.strip()] if m else []
            if m and len(items) == len(g) and all(items) and not _NOT_DATASET_AFTER.match(text, m.end()):
                for r, it in zip(g, items):
                    r["dataset"] = it
                    r["rules"].append("respectively-datasets")
            else:
                _pair_with_list_before(text, g)
            continue
        avoid = [(g[0]["start"], g[-1]["end"])]
        names, metrics = _lists(text, s0, s1, avoid)
        n = len(g)
        # a statistic named by its symbol ("r = 0.99 and 0.96, respectively") keeps it: the list names what
        # it correlates, not what each number measures
        symbol = any("correlation-symbol" in r["rules"] for r in g)
        for items in metrics:
            if len(items) == n and not symbol:
                for r, it in zip(g, items):
                    r["metric"] = it
                    r["rules"].append("respectively-metrics")
                break
        chosen = next((items for items in names if len(items) == n), None)
        # a slash pair is one item of the list ("obtain 27.59/27.15, 19.65/23.42 and 22.40 BLEU" on three sets)
        units = _slash_units(text, g)
        if chosen is None and len(units) < n:
            per_unit = next((items for items in names if len(items) == len(units)), None)
            if per_unit is not None:
                for unit, name in zip(units, per_unit):
                    for r in unit:
                        r["dataset"] = name
                        r["rules"].append("respectively-datasets")
                continue
        if chosen is None:
            chosen = next((items for items in names if 1 < len(items) < n and n % len(items) == 0), None)
        if chosen is None and (_ANAPHOR.search(text[s0:s1]) or _ON_THESE.match(tail)):
            near = next(((a, b) for a, b in sentences if b <= s0 and b > s0 - 400), None)
            prev = [(a, b) for a, b in sentences if b <= s0][-1:] if near else []
            for a, b in prev:
                cands, _ = _lists(text, a, b, [])
                chosen = next((items for items in cands if len(items) == n), None)
        if chosen:
            k = n // len(chosen)
            for i, r in enumerate(g):
                r["dataset"] = chosen[i // k]
                r["rules"].append("respectively-datasets")


def _slash_units(text: str, g: list[MetricDraft]) -> list[list[MetricDraft]]:
    """The rows of one coordinated group split into list items: a slash binds its numbers into one item."""
    units = [[g[0]]]
    for a, b in zip(g, g[1:]):
        if re.fullmatch(r"\s*/\s*", text[a["end"] : b["start"]]):
            units[-1].append(b)
        else:
            units.append([b])
    return units


# Two or more numbers of one list: separators only ("5.5% and 9.8%", "2%, 4%, and 3%", "25%/13.8%").
_BARE_GAP = re.compile(rf"{_SEP}|\s*/\s*")


def _pair_with_list_before(text: str, g: list[MetricDraft]) -> None:
    """Rows of a bare list of numbers ("improves the baseline about 5.5% and 9.8%") that share one data set, or
    have none, take the data sets of the last coordinated list of as many names before them in the sentence,
    in order ("on both V-COCO and HICO-DET benchmarks"): the numbers follow the names as with "respectively".
    A list joined by commas only is an apposition, not a list ("On the WSJ'93 dataset, DSD improved ..."); a
    set read right at a number (:data:`pipeline.analyse.extraction.rows.SET_AT_NUMBER`) is kept."""
    if not all(_BARE_GAP.fullmatch(text[a["end"] : b["start"]]) for a, b in zip(g, g[1:])):
        return
    lists = [
        m
        for m in _NAME_LIST.finditer(text, g[0]["_s0"], g[0]["start"])
        if not _NOT_DATASET_AFTER.match(text, m.end()) and re.search(r"\s(?:and|or|&)\s", m["list"])
    ]
    if not lists:
        return
    items = [dataset_item(p) for p in _SPLIT.split(lists[-1]["list"]) if p.strip()]
    sets = {r["dataset"] for r in g}
    if (
        len(items) != len(g)
        or not all(items)
        or len(sets) != 1
        or not sets <= {None, *items}
        or any(SET_AT_NUMBER & set(r["rules"]) for r in g)
    ):
        return
    for r, it in zip(g, items):
        r["dataset"] = it
        r["rules"].append("respectively-datasets")


#: Metric words too generic to be shared with another number of the clause ("our model scores 82.9%", "the
#: overall score"); a metric word before the head names a metric ("F1 score", "BLEU scores") and is shared.
_GENERIC_METRIC = re.compile(
    rf"(?i)(?:(?!(?:{_LEX_WORDS})\s)\w+\s)?(?:scores?|results?|margins?|parameters?|costs?)"
)


def lends_metric(row: MetricDraft) -> bool:
    """Whether ``row``'s metric may be given to another row (shared in its clause or sentence, inherited by a
    bracket or a comparison after it): not the time a task takes (rule metric-time-taken), which names that
    time only ("in <= 5 minutes using <= 10GB", "requires 2 minutes and ... by a large margin (10%)"), nor a rate
    read from the words after a percentage alone (rule metric-rate-after: "96% accurate ..., with 7% false alarm
    rate"), nor a significance level ("r(44) = -0.82, p < 0.0001": the p is of the test, not of the score)."""
    if row["metric"] in SIGNIFICANCE_SYMBOLS and "correlation-symbol" in row["rules"]:
        return False
    return not {"metric-time-taken", "metric-rate-after"} & set(row["rules"])


def share_clause_metric(text: str, rows: list[MetricDraft]) -> None:
    """A row with no metric takes the one metric its clause names: the metric of another row of the clause
    with the same unit and kind ("75.2% mAP on X, and 74.5% on Y"), else the one metric-name word the clause
    writes when no other row of the clause has a metric ("the mAP of our model reaches 41.2% and 37.9%")."""
    for r in rows:
        if r["metric"] or r["kind"] == "multiplier":
            continue
        lo, hi = r["_lo"], r["_hi"]
        peers = [x for x in rows if x is not r and x["_lo"] == lo and x["_s0"] == r["_s0"]]
        named = {
            x["metric"]
            for x in peers
            if x["metric"]
            and x["unit"] == r["unit"]
            and x["kind"] == r["kind"]
            and x["subject"] == r["subject"]
            and not _GENERIC_METRIC.fullmatch(x["metric"])
            and lends_metric(x)
        }
        if len(named) == 1:
            r["metric"] = named.pop()
            r["rules"].append("clause-metric-peer")
            continue
        if any(x["metric"] for x in peers if x["unit"] == r["unit"]):
            continue
        # in the order written: the clause may write the word twice in two cases ("Precision ... precision"),
        # and the first one is kept (a set's order would differ between processes: str hashes are salted)
        lex = [m[0] for m in _LEX.finditer(text, lo, hi) if not _GENERIC_METRIC.fullmatch(m[0])]
        if len({w.lower() for w in lex}) == 1:
            r["metric"] = lex[0]
            r["rules"].append("clause-metric-word")


_LIST_GAP = re.compile(rf"{_SEP}|\s*/\s*")
_OF_AFTER = re.compile(r"\s*of\s")


def share_sentence_metric(text: str, rows: list[MetricDraft]) -> None:
    """A row still with no metric takes the one metric the other rows of its sentence with the same unit name
    ("an F1 score of 54.53% ... over previous models - DyGIE++:28.17%; spERT:27.81%"; "improves the accuracy
    by 17.0%, lifting the state of the art to 98.78%"); never when they name two, never for a multiplier.
    Measured: on the three dev gold files it raises metric-name accuracy on each; on 20,000 dev-corpus
    abstracts it names 135 more rows (null metric 27.6% -> 24.8%), about two in three of them right.

    A share's name (rule metric-share-of) reaches only levels, written after it ("less than 1% of the
    summaries ..., compared to 5.5% to 15.4%") or listed with it ("99.9% and 99.4% of the poses"), never a
    change ("in 94% of all datasets, on average by 214%"), another number before it ("an error lower than 7%
    at 95% of confidence") nor a share of other things ("79% of six repetitions ..., and 100% of its training
    syllables")."""
    for r in rows:
        if r["metric"] or r["kind"] == "multiplier":
            continue
        named = {
            x["metric"].lower(): x["metric"]
            for x in rows
            if x is not r
            and x["_s0"] == r["_s0"]
            and x["metric"]
            and x["unit"] == r["unit"]
            and x["kind"] != "multiplier"
            and not _GENERIC_METRIC.fullmatch(x["metric"])
            and lends_metric(x)
            and (
                "metric-share-of" not in x["rules"]
                or (
                    r["kind"] in ("score", "range")
                    and not _OF_AFTER.match(text, r["end"])
                    and (x["start"] < r["start"] or _LIST_GAP.fullmatch(text, r["end"], x["start"]))
                )
            )
        }
        if len(named) == 1:
            (r["metric"],) = named.values()
            r["rules"].append("sentence-metric")


_RELATIVE_CLAUSE = re.compile(r",\s*(?:which|that)\s+[^,;()]*$")


def share_antecedent_metric(text: str, rows: list[MetricDraft]) -> None:
    """A number with no metric in a relative clause (", which outperforms the state-of-the-art method by
    62.97%") takes the one metric word the clause it refers back to writes ("We achieve an average accuracy
    of 9.98m ... on RobotCar dataset, which ..."), when no other row of the sentence names a metric."""
    for r in rows:
        if r["metric"] or r["kind"] == "multiplier":
            continue
        rel = _RELATIVE_CLAUSE.search(text, r["_s0"], r["start"])
        if rel is None or any(x["metric"] for x in rows if x is not r and x["_s0"] == r["_s0"]):
            continue
        lex = [
            m[0] for m in _LEX.finditer(text, r["_s0"], rel.start()) if not _GENERIC_METRIC.fullmatch(m[0])
        ]
        if len({w.lower() for w in lex}) == 1:
            r["metric"] = lex[0]
            r["rules"].append("antecedent-metric")


def share_of_metric(text: str, rows: list[MetricDraft]) -> None:
    """A percentage still with no metric after the other rules is a share of the things it names ("less than 1%
    of the summaries have major factual inconsistencies", "in 99.7% of the frames"): metric "summaries",
    "frames" (:func:`pipeline.analyse.extraction.names.metric_share_of`)."""
    for r in rows:
        if r["metric"] is None and r["unit"] == "%":
            name = metric_share_of(text, r["end"], r["_hi"])
            if name:
                r["metric"] = name
                r["rules"].append("metric-share-of")
