"""Vocabulary tables compiled once into the patterns several extraction modules share (metric names, amounts,
up/down words, qualifiers, model names, correlation symbols). The words are data in
:mod:`pipeline.analyse.extraction.vocabulary`; nothing here spells a word of its own."""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V

# Vocabulary tables (pipeline.analyse.extraction.vocabulary) compiled once.
LEX_WORDS = V.alternation(V.METRIC_NAMES)
LEX = V.words(V.METRIC_NAMES)
LEX_GLUED = re.compile(rf"(?:{LEX_WORDS})(?![\w-])", re.I)
#: A vocabulary metric as a whole name, perhaps with a suffix ("BLEU-4", "ROUGE-L", "FPR95", "R@1", "F0.5").
SUFFIXED_METRIC = re.compile(rf"(?:{LEX_WORDS})(?:-\w+|@?\d+)?|F\d+(?:\.\d+)?", re.I)
LEX_AT_END = re.compile(rf"(?<![\w-])(?:{LEX_WORDS})\s*(?:\([^()]*\))?\s*$", re.I)
AMOUNT = V.words(V.AMOUNT_WORDS)
UP = V.words(V.UP_WORDS)
DOWN = V.words(V.DOWN_WORDS)

QUALIFIERS = tuple((re.compile(rf"{rx}\s*$", re.I), q) for rx, q in V.QUALIFIERS)
#: Every qualifier written before a number, as one alternation (no group).
QUAL_WORDS = "|".join(rx for rx, _ in V.QUALIFIERS)
#: A run of qualifiers ending a text ("by over ~11 points": "over ~").
QUAL_TEXT = re.compile(rf"(?:(?:{QUAL_WORDS})\s*)+$", re.I)
#: A number as written, with or without its leading zero ("0.46", ".46", "46"): no sign, no unit.
NUMBER = r"(?:\d+(?:\.\d+)?|\.\d+)"
#: The sign of a spread: "88.1 ± 0.3", "95.12+-0.02", "88.1 +/- 0.3".
SPREAD_SIGN = r"(?:±|\+-|\+/-)"
#: A spread written right after a number (its sign and the uncertainty).
SPREAD = re.compile(rf"\s?{SPREAD_SIGN}\s?{NUMBER}")

MODEL_NAME = re.compile(rf"\b{V.alternation(V.MODEL_NAMES)}(?![a-z])|(?:^|[-\s])\d+(?:\.\d+)?[BM]\b|×\d")
GENERIC_CAP = set(V.GENERIC_CAPITALS)
TASK_NAMES = set(V.TASK_ACRONYMS)  # a name that is only a task acronym is no data set ("QA", "NER")
# The start of a name written with a lower-case prefix before its capitals ("nuScenes", "miniImageNet",
# "tieredImageNet", "iNaturalist", "bAbI"): a capital and a later small letter follow, so a prefixed acronym
# ("fMRI", "kNN", "mBERT") is no such name. Case-sensitive inside any pattern.
LOWER_PREFIX_NAME = r"(?-i:[a-z]{1,8}(?=[A-Z][\w+]*[a-z]))"
CORR_END = re.compile(r"(?:=|≈|of|:|<|≤)\s*$")
# "<metric>=N" ("F1 = 0.71", "FID=9.91", "macro-F1=54%"): a metric of the vocabulary given its value, never a
# cut-off after "@" ("AP@0.5"), nor after "at" when it is one (metric_equals: "a 4.1% AP gain at IoU=0.8")
#: Metrics that are cut-offs after "at" ("AP at IoU=0.5", "TPR at FPR=1%", "precision at recall=0.9").
_CUT_OFF = re.compile(r"IoU|FPR|TPR|FAR|FRR|recall|precision|overlap|threshold", re.I)
_METRIC_EQUALS = re.compile(
    rf"(?<![\w@.\-])(?<!@)(?P<name>(?:[a-z]+-)?(?:{LEX_WORDS})(?:\s(?:score|value))?)\s?=\s?$",
    re.I,
)


def metric_equals(text: str, pos: int) -> str | None:
    """The metric name written with "=" right before ``pos`` ("FID=9.91", "F1 = 0.71"), or None. After "at"
    only a metric that is never a cut-off names a level ("performing at F1 = 73.5%"; "at IoU=0.8" is a
    threshold)."""
    if not text[max(0, pos - 3) : pos].rstrip().endswith("="):
        return None
    m = _METRIC_EQUALS.search(text, max(0, pos - 30), pos)
    if m and re.search(r"\bat\s$", text[max(0, m.start() - 3) : m.start()]) and _CUT_OFF.search(m["name"]):
        return None
    return m["name"] if m else None


def correlation_before(text: str, lo: int, pos: int):
    """The correlation symbol written right before ``pos`` ("r = ", "Spearman's ρ of "), or None (a cheap
    end check first: most numbers have no "=", "of" or ":" before them)."""
    if not CORR_END.search(text, max(lo, pos - 5), pos):
        return None
    m = CORRELATION.search(text, max(lo, pos - 30), pos)
    if m and m["sym"] in SIGNIFICANCE_SYMBOLS:
        # a significance level: a decimal up to vocabulary.SIGNIFICANCE_MAX ("p = .0083", "p < 0.001"), not a
        # parameter ("p = 0.5", "p=3")
        num = re.match(r"0?\.\d+(?![\d.])", text[pos : pos + 12])
        return m if num and float(num[0]) <= V.SIGNIFICANCE_MAX else None
    if m and m["rel"] in ("<", "≤"):
        return None  # a bound is a result only for a significance level ("p < .001"), not "r < 0.3"
    return m


#: The symbols of a significance level among the correlation symbols (vocabulary CORRELATION_SYMBOLS).
SIGNIFICANCE_SYMBOLS = ("p", "P")
CORRELATION = re.compile(
    rf"(?<![\w'’])(?P<sym>{V.alternation(V.CORRELATION_SYMBOLS)})\s*(?P<rel>=|≈|of|:|<|≤)\s*$"
)
HEADS = V.alternation(V.METRIC_HEADS)

LIST_SEP = re.compile(r"\s*(?:,|,?\s*(?:and|or|/))\s*")
#: "N <metric> points" right after a number ("52.7 accuracy points", "6 BLEU points", "3 claim-F1 points"): the
#: metric and the word.
METRIC_POINTS = re.compile(
    rf"\s(?P<metric>(?:(?!(?:on|of|in|the|an?|and|or|for|to|by|with|at)\s)[a-z]+\s){{0,2}}(?:[a-z]+-)?"
    rf"(?:{LEX_WORDS}))(?:\s*\([^()]{{1,12}}\))?\s+(?P<points>points?|pts)\b",
    re.I,
)
#: A metric name then points or a comparative right after a number: "6 BLEU points", "3 mAP higher" (rule
#: metric-points: a change of that metric).
METRIC_THEN_CHANGE = re.compile(
    rf"\s(?:[a-z]+-)?(?:{LEX_WORDS})\s+(?:points?|pts|higher|lower|better|worse|gains?|improvements?|increases?|drops?|"
    r"decreases?|reductions?)\b",
    re.I,
)
#: A metric whose points are units of its own scale ("BLEU points"), not percentage points.
POINT_SCALE_METRIC = re.compile(V.alternation(V.POINT_SCALE_METRICS), re.I)

HEAD_WORD = V.words(V.METRIC_HEADS)

BAD_NP = re.compile(
    r"\b(?:we|it|this|that|which|method|approach|results?|framework|system|one|"
    r"previous|prior art|the art|baselines?|SOTA|they|them|itself)\b",
    re.I,
)

#: The time a task takes (vocabulary TIME_TAKEN_BEFORE, TIME_TAKEN_UNITS): the words before the number, and its
#: unit after it (group ``unit``), never an amount "of" something ("40 minutes of demonstration data").
TIME_TAKEN_BEFORE = re.compile(
    rf"\b(?:{V.alternation(V.TIME_TAKEN_BEFORE)})\s+(?:(?:{QUAL_WORDS})\s*)*$|\bonly\s+$", re.I
)
TIME_TAKEN_UNIT = re.compile(
    rf"\s?(?P<unit>(?:(?:GPU|TPU|CPU)[\s-])?(?:{V.alternation(V.TIME_TAKEN_UNITS)}))\b(?!\s+of\b)"
)


def time_taken(text: str, start: int, end: int) -> str | None:
    """The unit of a time a task takes when the number at ``text[start:end]`` is one ("in under 5 minutes",
    "requiring only 2 minutes", "in only 315 GPU hours"), else None."""
    um = TIME_TAKEN_UNIT.match(text, end)
    if um is None or not TIME_TAKEN_BEFORE.search(text, max(0, start - 40), start):
        return None
    return um["unit"]


# One or two lower-case words ending in a rate, ratio, score or error, right after a percentage and ending its
# phrase ("0.39% failure rate on COFW", "a 58% completion rate on FurnMove").
_NOT_FUNCTION = r"(?!(?:of|in|for|and|or|with|the|a|an|at|on|to|by|as|than|from|per)\s)"
_RATE_AFTER = re.compile(
    rf"\s{_NOT_FUNCTION}(?P<np>(?:[a-z][\w-]*\s)?{_NOT_FUNCTION}[a-z][\w-]*\s(?:rates?|ratios?|scores?|errors?))"
    r"(?=\s*$|\s*[,.;)]|\s+(?:on|in|for|with|over|than|compared|while|and|at|of|by|when|using)\b)"
)


def rate_after(text: str, pos: int, hi: int) -> str | None:
    """The rate a percentage ending at ``pos`` is of, written right after it before ``hi`` (rule
    metric-rate-after): "0.39% failure rate", "a 65.65% winning rate"; never a function word in the phrase."""
    m = _RATE_AFTER.match(text, pos, min(hi, pos + 50))
    return m["np"] if m and not BAD_NP.search(m["np"]) else None
