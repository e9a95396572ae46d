"""Linking metric rows to the data sets of their sentence and abstract: one set shared by the numbers of a
sentence, a set named again ("on the same dataset"), a named contest, the set the abstract introduces, the one set
a clause names.

Pure functions over the rows :func:`pipeline.analyse.extraction.metrics.extract_metrics` builds, as in
:mod:`pipeline.analyse.extraction.linking` (whose ``RULES_VERSION`` covers this module): each changes rows in
place and appends the name of the rule that decided a value to the row's ``rules``
(:data:`pipeline.analyse.extraction.rules.RULES` gives each rule's reason and examples).
"""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.dataset_names import contest_names, sets_named_in
from pipeline.analyse.extraction.keys import dataset_key
from pipeline.analyse.extraction.linking import NAME, dataset_item
from pipeline.analyse.extraction.rows import MetricDraft

_SET_WORD = r"(?:datasets?|benchmarks?|corpus|corpora|suite|collection)"
_ONE_SET = (
    r"(?:dataset|benchmark|corpus|suite|collection)"  # singular: "datasets, FairFace, UTKFace" is a list
)
# Data sets the abstract introduces (its own), the name in group "n". Named first, then apposed to a data-set
# word: "we introduce ESTER, a ... dataset"; "we introduce a dataset for our task, EMU, with ...", "our
# resulting dataset, Possible Stories, consists ...", "a dataset, called PaCo, consisting ...", "a new corpus
# WLP-MSTG", "a new ... dataset ... which we call CCSum".
_INTRODUCE_VERB = r"\b(?:introduce|present|propose|release|construct|build|create|collect|annotate|curate)\w*"
_INTRODUCED = re.compile(
    rf"{_INTRODUCE_VERB}\s+(?P<n>{NAME}),?\s+"
    rf"(?:a|an|the)\s+(?:[\w()-]+\s+){{0,6}}?{_SET_WORD}\b"
)
# ... or named inside the introducing phrase: "we also introduce the EDGAR10-Q dataset", "we annotate a large
# dataset FinReason for evaluation"
_INTRODUCED_INSIDE = (
    re.compile(rf"{_INTRODUCE_VERB}\s+(?:the|a|an|our)\s+(?:new\s+)?(?P<n>{NAME})\s+{_ONE_SET}\b"),
    re.compile(
        rf"{_INTRODUCE_VERB}\s+(?:a|an|our)\s+(?:[\w-]+\s+){{0,3}}?{_ONE_SET}\s+(?:called\s+|named\s+|dubbed\s+)?"
        rf"(?P<n>{NAME})"
    ),
)
_APPOSED = (
    re.compile(
        rf"\b(?i:a|an|our|this|the resulting|the new)\s+(?:[\w-]+\s+){{0,4}}?{_ONE_SET}"
        rf"(?:\s+for\s+(?:our|the|this)\s+[\w-]+)?,\s+(?:called\s+|named\s+|dubbed\s+|termed\s+)?"
        rf"(?P<n>{NAME})(?=\s*,|\s+(?:with|which|that|consisting|containing|comprising|consists|contains)\b)"
    ),
    re.compile(
        rf"\b(?i:a|an|our)\s+new\s+(?:[\w-]+\s+){{0,3}}?{_ONE_SET}\s+(?:called\s+|named\s+|dubbed\s+)?"
        rf"(?P<n>{NAME})"
    ),
    re.compile(
        rf"\b(?i:a|an|our)\s+(?:new\s+)?(?:[\w-]+\s+){{0,6}}?{_ONE_SET}\b"
        rf"(?:(?!\b(?:model|method|network|framework|approach|system|algorithm|architecture)s?\b)[^.;]){{0,120}}?"
        rf"\b(?:which we (?:call|name|dub|term)|called|named|dubbed|termed)\s+(?P<n>{NAME})"
    ),
)


def abstract_datasets(
    text: str, shapes: tuple[re.Pattern, ...] = (_INTRODUCED, *_INTRODUCED_INSIDE)
) -> dict[str | None, tuple[str, int]]:
    """Data sets the abstract introduces in one of ``shapes`` (default: named by the introducing verb,
    :data:`_INTRODUCED` and :data:`_INTRODUCED_INSIDE`):
    {:func:`pipeline.analyse.extraction.keys.dataset_key` (None for a name with an empty key): (the name as first
    written, its offset)}."""
    found = sorted((m.start("n"), m["n"]) for rx in shapes for m in rx.finditer(text))
    out: dict[str | None, tuple[str, int]] = {}
    for at, raw in found:
        name = dataset_item(raw)
        if name:
            out.setdefault(dataset_key(name), (name, at))
    return out


# A sentence that counts the sets it measures on ("on a diverse set of 20 downstream tasks", "on 8 standard WS
# benchmarks"): not the one set.
_MANY_SETS = re.compile(
    rf"\b(?:{V.alternation(V.COUNT_WORDS)}|\d+)\s+(?:[\w-]+\s+){{0,2}}(?:datasets|benchmarks|tasks|corpora)\b",
    re.I,
)
# A sentence that speaks of the abstract's own data: "on our dataset", "from our corpus", "on our tasks", "the
# resulting dataset", "this benchmark", "the same dataset".
_OWN_DATA = re.compile(
    r"\b(?:our|this|the (?:resulting|proposed|new|same))\s+(?:[\w-]+\s+)?(?:datasets?|benchmarks?|corpus|tasks?)\b",
    re.I,
)


def share_abstract_dataset(text: str, rows: list[MetricDraft], sentences: list[tuple[int, int]]) -> None:
    """Rows with no dataset take the data set the abstract introduces when it introduces exactly one and no row
    names another. Named first ("We present Cryptonite, a large-scale dataset ...") it is shared with every such
    row; apposed to a data-set word (:data:`_APPOSED`, looked for only when no set is named first) only with
    the rows of the introducing sentence, the next one, or a sentence that names the set again or speaks of the
    abstract's own data (:data:`_OWN_DATA`); never a sentence that counts its sets (:data:`_MANY_SETS`): "We introduce a dataset for our task, EMU, ... Our model obtains
    promising results on our dataset, with ... 48.2% of the time", never a result four sentences on."""

    if not rows or any(r["dataset"] for r in rows):
        return
    names, anywhere = abstract_datasets(text), True
    if not names:
        names, anywhere = abstract_datasets(text, _APPOSED), False
    if len(names) != 1:
        return
    ((name, at),) = names.values()
    starts = [a for a, _ in sentences]
    intro = next((i for i, (a, b) in enumerate(sentences) if a <= at < b), -1)
    for r in rows:
        near = r["_s0"] in starts and 0 <= starts.index(r["_s0"]) - intro <= 1
        own = _OWN_DATA.search(text, r["_s0"], r["_s1"]) or name in text[r["_s0"] : r["_s1"]]
        if (anywhere or near or own) and not _MANY_SETS.search(text, r["_s0"], r["_s1"]):
            r["dataset"] = name
            r["rules"].append("abstract-dataset")


_ACROSS_MANY = re.compile(
    rf"[^.;()]{{0,40}}?\b(?:across|on|over|in)\s+(?:all\s+|the\s+)?"
    rf"(?:{V.alternation(V.COUNT_WORDS)}|all|\d+)\s+(?:[\w-]+\s+)?"
    r"(?:benchmarks|datasets|tasks|corpora|languages|domains)\b",
    re.I,
)

# ... or named just before it: "top performance across three ACOS datasets, averaging 1.48% F1 improvement".
_ACROSS_MANY_BEFORE = re.compile(
    rf"\b(?:across|on|over|in)\s+(?:all\s+|the\s+)?(?:{V.alternation(V.COUNT_WORDS)}|all|\d+)\s+(?:[\w-]+\s+)?"
    r"(?:benchmarks|datasets|tasks|corpora|languages|domains)\b[^.;()\d%]{0,30}$",
    re.I,
)


def share_sentence_dataset(text: str, rows: list[MetricDraft]) -> None:
    """A row with no dataset takes the one data set the other rows of its sentence are measured on ("N on X" or
    a list), when they name exactly one ("improves the mAP of YOLOv2 by 3.8% and of YOLOv3 by 2.2% on MSCOCO")."""
    by_sentence: dict[int, list[MetricDraft]] = {}
    for r in rows:
        by_sentence.setdefault(r["_s0"], []).append(r)
    for rs in by_sentence.values():
        # only names read as "N on <Name>" or from a list are shared, never a guess from earlier in the sentence
        named = {
            (r["dataset"], r["_paren"] >= 0)
            for r in rs
            if r["dataset"] and {"dataset-after", "respectively-datasets"} & set(r["rules"])
        }
        if len({n for n, _ in named}) != 1:
            continue
        (name, in_brackets), *_ = named
        for r in rs:
            # never from a bracketed aside to the main claim, never to a number measured across many sets
            if (
                not r["dataset"]
                and (r["_paren"] >= 0) == in_brackets
                and not _ACROSS_MANY.match(text, r["end"])
                and not _ACROSS_MANY_BEFORE.search(text, max(r["_s0"], r["start"] - 100), r["start"])
            ):
                r["dataset"] = name
                r["rules"].append("sentence-dataset")


_SAME_SET = re.compile(
    r"\s*(?:on|in|for)\s+the\s+same\s+(?:dataset|benchmark|data set|test set|corpus)\b", re.I
)


def share_same_dataset(text: str, rows: list[MetricDraft]) -> None:
    """A number "on the same dataset" takes the data set of the nearest earlier row that has one ("a BLEU score
    of 34.8 on ... the WMT-14 dataset ... a phrase-based SMT system achieves a BLEU score of 33.3 on the same
    dataset")."""
    for i, r in enumerate(rows):
        if r["dataset"] is None and _SAME_SET.match(text, r["end"]):
            earlier = next((x["dataset"] for x in reversed(rows[:i]) if x["dataset"]), None)
            if earlier:
                r["dataset"] = earlier
                r["rules"].append("same-dataset")


def share_contest_dataset(text: str, rows: list[MetricDraft]) -> None:
    """A row with no dataset in a sentence that names one contest (:func:`.dataset_names.contest_names`: "we won
    the 1st place in the NeurIPS 2018 Adversarial Vision Challenge", "outperforms the winning method of the
    OpenImages Relationship Detection Challenge by 4.7%") is a result on that contest."""
    for r in rows:
        if r["dataset"] is None:
            names = set(contest_names(text, r["_s0"], r["_s1"]))
            if not names and _CONTEST_ANAPHOR.search(text, r["_s0"], r["_s1"]):
                # "In the final official evaluation of the shared task, our system achieves 42% F1": the one
                # contest the abstract names
                names = set(contest_names(text, 0, len(text)))
            if len(names) == 1:
                r["dataset"] = names.pop()
                r["rules"].append("contest-dataset")


#: A contest referred back to without its name: "of the shared task", "in the challenge".
_CONTEST_ANAPHOR = re.compile(rf"\b(?i:the|this)\s+{V.alternation(V.CONTEST_HEADS)}\b")


_VS_GAP = re.compile(r"\s*(?:\(\s*)?(?:compared (?:with|to)|vs\.?|versus|against)\s+(?:the\s+)?$", re.I)


def share_baseline_dataset(text: str, rows: list[MetricDraft]) -> None:
    """A number compared with a baseline's right after it ("81.43% compared with 80.47% of the existing method on
    CULane") is measured on the data set the pair names after the baseline's number, unless it names its own."""
    for r, b in zip(rows, rows[1:]):
        if b["subject"] != "baseline" or r["subject"] != "ours" or b["_s0"] != r["_s0"]:
            continue
        if not _VS_GAP.search(text[r["end"] : b["start"]]) or "dataset-after" not in b["rules"]:
            continue
        if r["dataset"] is None or "dataset-before" in r["rules"] or "sentence-dataset" in r["rules"]:
            r["dataset"] = b["dataset"]
            r["rules"].append("baseline-pair-dataset")


def share_sentence_named_dataset(text: str, rows: list[MetricDraft]) -> None:
    """A row still with no dataset takes the one data set the clause around it names, wherever the clause names
    it ("achieves the best performance with 77.4% accuracy, indicating ... room to improve for LLMs on
    MiMoTable"; "a mask AP of 50.1% ... on the Youtube-VIS 2019 dataset"): "on/in X" or "X dataset/benchmark"
    (:func:`pipeline.analyse.extraction.dataset_names.sets_named_in`). The clause is the sentence cut at
    semicolons. Never for a measure with a physical unit (a speed or a time is measured on hardware: "runs at 30
    FPS on a commodity graphics card"), never in a clause that counts its sets (:data:`_MANY_SETS`) or names
    several at once ("on CIFAR10 and CIFAR100 datasets", "CROHME 2014/2016"): all names are compared by
    :func:`pipeline.analyse.extraction.keys.dataset_key`."""
    for r in rows:
        if r["dataset"] is not None or "measure-unit" in r["rules"]:
            continue
        lo = text.rfind(";", r["_s0"], r["start"]) + 1 or r["_s0"]
        hi = text.find(";", r["end"], r["_s1"])
        hi = r["_s1"] if hi < 0 else hi
        names = _sets_by_key(text, lo, hi)
        if len(names) == 1:
            r["dataset"] = next(iter(names.values()))
            r["rules"].append("sentence-named-dataset")


def _sets_by_key(text: str, lo: int, hi: int) -> dict[str | None, str]:
    """The data sets ``text[lo:hi]`` names (:func:`pipeline.analyse.extraction.dataset_names.sets_named_in`) by
    :func:`pipeline.analyse.extraction.keys.dataset_key`, each first as written; empty when the span counts its
    sets (:data:`_MANY_SETS`) or names several at once."""
    if _MANY_SETS.search(text, lo, hi):
        return {}
    return {dataset_key(name): name for name in reversed(sets_named_in(text, lo, hi) or [])}


#: A sentence that opens by elaborating on the one before: "Particularly, ...", "For example, ...".
_ELABORATION = re.compile(
    r"\s*(?:Particularly|In particular|Specifically|More specifically|Concretely|For example|For instance|"
    r"Notably|Especially|Namely|E\.g\.|In detail)\b,?",
)


#: A sentence that says where its numbers are measured, by a generic name ("on dense prediction tasks").
_OTHER_SETS = re.compile(
    r"\b(?:on|in|across|over)\s+(?:[\w-]+\s+){0,3}(?:tasks|datasets|benchmarks|domains)\b", re.I
)


def share_elaborated_dataset(text: str, rows: list[MetricDraft], sentences: list[tuple[int, int]]) -> None:
    """A row still with no dataset, in a sentence that opens by elaborating on the one before
    (:data:`_ELABORATION`: "Experimental results ... on the CommonGen benchmark strongly demonstrate ....
    Particularly, KGR4 obtains 33.56 SPICE in the official leaderboard"), takes the one data set the sentence
    before names (:func:`pipeline.analyse.extraction.dataset_names.sets_named_in`, or its rows' sets). Never
    when that sentence names several or counts them, never for a physical measure, and never when the row's own
    sentence says where it is measured by a generic name (:data:`_OTHER_SETS`: "on dense prediction tasks")."""
    starts = [a for a, _ in sentences]
    for r in rows:
        if r["dataset"] is not None or "measure-unit" in r["rules"]:
            continue
        if not _ELABORATION.match(text, r["_s0"]) or r["_s0"] not in starts:
            continue
        if _OTHER_SETS.search(text, r["_s0"], r["_s1"]):
            continue
        i = starts.index(r["_s0"])
        if i == 0:
            continue
        a, b = sentences[i - 1]
        if _MANY_SETS.search(text, a, b):
            continue  # the rows' sets of a sentence that counts its sets are not its one set either
        names = _sets_by_key(text, a, b)
        names.update(
            {dataset_key(x["dataset"]): x["dataset"] for x in rows if x["_s0"] == a and x["dataset"]}
        )
        name = next(iter(names.values())) if len(names) == 1 else None
        if name and " and " not in name:
            r["dataset"] = name
            r["rules"].append("elaboration-dataset")
