"""Reported result metrics in an abstract (the paper_metrics table; the gold labelling guidelines, section
"Metrics", define what counts).

Pure functions: clean text in, rows out. Nothing here imports Dagster.

The input is the CLEAN abstract (``pipeline.analyse.cleaning.clean_text``): LaTeX already converted
(``$\\times$``→×, ``\\%``→%, ``$-0.38$``→-0.38), whitespace collapsed. Offsets index that clean text, so the
sentence a row came from is :func:`pipeline.analyse.extraction.sentences.sentence_of(text, start, end)`.

Why rules and regexes, not a library: quantulum3, measured on ML phrasing, reads ``F1`` as farads and ``7B``
as bytes, finds nothing in "from 5.1 to 4.3" and costs 37 ms/abstract; published end-to-end result extraction
tops out near 25 % micro-F1 (AxCell). The words the rules know are data (:mod:`pipeline.analyse.extraction.vocabulary`);
the rules are named, with a reason and examples, in :mod:`pipeline.analyse.extraction.rules`, and every row lists the
rules that decided it (``rules``).

Pipeline per abstract:
1. Every number token is found with its sign, ``k`` suffix (``1.2k`` → 1200) and the unit written right after
   it (:data:`UNITS`: ``%``/percent → ``%``; percentage points/pp/points → ``pp``, except "200k points" or
   "1000 points", counts of points (:func:`_counts_points`); ×/x/-fold/times → ``x``; ms/mm/dB/s are kept as
   measures with unit ``None`` and the unit in ``unit_text``; more in ``MEASURE_UNITS``).
2. Numbers that are part of a name or describe the setup are dropped (GUIDELINES "NOT metrics"):
   digits glued to letters (``GPT-4``, ``Llama-3.1-8B``, ``7B``, ``32K``, ``T5``, ``AIME2024``), ``8×7B`` and
   ``256×256``, ``@0.5``, exponents, version numbers, ``2-bit``/``128-shot``-style hyphenated settings,
   "95% CI", years, and plain integers without a metric cue.
3. Ranges (``10–20%``, ``2--3``, ``3x-5x``, ``26~35×``), before→after (``from 5.1 to 4.3``) and plain scores
   (a metric name next to the number, ``N on <Benchmark>``, a sign, a measure unit, a ``vs.`` partner) are
   recognised; lists ("A, B and C times") share their unit.
4. Each kept number gets ``kind`` (:func:`_kind`), ``metric``, ``dataset``, ``subject``/``baseline``,
   ``direction`` and ``qualifier`` from its clause and sentence.
5. Names are linked over the sentence (:mod:`pipeline.analyse.extraction.linking`: respectively-lists, one metric for
   several numbers, the data set of a pair, a sentence or an abstract) and keyed (:mod:`pipeline.analyse.extraction.keys`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.analyse.extraction import linking
from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.keys import dataset_key, metric_key
from pipeline.analyse.extraction.sentences import sentences

RULES_VERSION = "1"  # with keys, text, rules; bump when outputs change (docs/execution.md)

#: Keys of every row returned by :func:`extract_metrics`, in column order.
METRIC_FIELDS = (
    "value",
    "value_text",
    "unit",
    "unit_text",
    "kind",
    "value_from",
    "value_low",
    "value_high",
    "metric",
    "metric_key",
    "dataset",
    "dataset_key",
    "subject",
    "baseline",
    "direction",
    "qualifier",
    "span",
    "start",
    "end",
    "rules",
)
#: Allowed values (the data contract of paper_metrics, schemas/models.py).
METRIC_UNITS = ("%", "pp", "x", None)
METRIC_KINDS = ("score", "delta", "relative_change", "multiplier", "before_after", "range")

_MINUS = "-−–"  # ASCII hyphen-minus, U+2212 minus, en dash used as a minus sign
_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])(?:\.\d+)?|\d+(?:[.,]\d+)?|\.\d+)"
# unit right after a number; order matters (longest first).  GUIDELINES: "%" for %, percent; "pp" for
# percentage points / points; "x" for ×, x, -fold, times.
_UNIT = re.compile(
    r"\s?(?P<u>%\s?(?:points?|pts)\b|%|percent(?:age)?[\s-]points?\b|percentage[\s-]?pts?\b|pp\b|p\.p\.|percent\b|"
    r"(?:absolute\s+)?points?\b|pts\b|"
    r"[×✕]|[xX](?![\w])|-?fold\b|\s?times\b|"
    rf"(?-i:{V.alternation(V.MEASURE_UNITS)})(?![\w/])|s\b(?=\s*(?:[,.;)]|for\b|vs\b|on\b|$)))"
)
_TOKEN = re.compile(rf"(?P<sign>[+±{re.escape(_MINUS)}])?(?P<num>{_NUM})(?P<suf>[kK](?![\w-]))?")

# Vocabulary tables (pipeline.analyse.extraction.vocabulary) compiled once.
_LEX_WORDS = V.alternation(V.METRIC_NAMES)
_LEX = V.words(V.METRIC_NAMES)
_LEX_GLUED = re.compile(rf"(?:{_LEX_WORDS})(?![\w-])", re.I)
_LEX_AT_END = re.compile(rf"(?<![\w-])(?:{_LEX_WORDS})\s*(?:\([^()]*\))?\s*$", re.I)
_AMOUNT = V.words(V.AMOUNT_WORDS)
_UP = V.words(V.UP_WORDS)
_DOWN = V.words(V.DOWN_WORDS)
_DELTA_NEAR = re.compile(
    r"^\s*(?:absolute\s+|relative\s+|average\s+|mean\s+|overall\s+)?(?:\w+\s+){0,2}?"
    rf"{V.alternation(V.CHANGE_WORDS)}\b",
    re.I,
)
_RELATIVE = re.compile(r"\brelative(?:ly)?\b", re.I)
_ABSOLUTE = re.compile(r"\babsolute\b", re.I)
_QUALIFIERS = tuple((re.compile(rf"{rx}\s*$", re.I), q) for rx, q in V.QUALIFIERS)
_QUAL_TEXT = re.compile(rf"(?:{'|'.join(rx for rx, _ in V.QUALIFIERS)})\s*$", re.I)
_BASELINE_CUE = re.compile(
    r"(?:\bvs\.?|\bversus|\bcompared (?:to|with)|\brelative to|\bagainst)\s+(?P<name>[^,;()]*?)$", re.I
)
_POSSESSIVE = re.compile(r"(?P<name>[\w\-.]+(?:\s[\w\-.]+)?)[’']s\s+(?:[a-z]+\s+)?$")
_COMPARATOR = re.compile(
    r"\b(outperform\w*|surpass\w*|beat\w*|exceed\w*|better than|compared (?:to|with)|"
    r"over|than|against|vs\.?|versus)\b",
    re.I,
)
# Words that make a number a setup quantity when they follow it (GUIDELINES "NOT metrics").
_SETUP_AFTER = re.compile(
    rf"\s?(?:[-–]\s?{V.alternation(V.SETUP_HYPHEN_SUFFIXES)}\b|"
    r"(?:th|st|nd|rd)\b|%?\s*(?:CI|confidence)\b|"
    rf"\s*(?:billion|million|thousand|trillion|[BMKT])\b|(?:[-\s]{V.alternation(V.SETUP_NOUNS)}\b))"
)
_PCT_SETUP_AFTER = re.compile(rf"\s*of\s+(?:the\s+)?(?:\w+\s+)?{V.alternation(V.PERCENT_OF_SETUP)}\b", re.I)
_MODEL_NAME = re.compile(rf"\b{V.alternation(V.MODEL_NAMES)}(?![a-z])|(?:^|[-\s])\d+(?:\.\d+)?[BM]\b|×\d")
_GENERIC_CAP = set(V.GENERIC_CAPITALS)
_CORR_END = re.compile(r"(?:=|≈|of|:)\s*$")


def _correlation_before(text: str, lo: int, pos: int):
    """The correlation symbol written right before ``pos`` ("r = ", "Spearman's ρ of "), or None (a cheap
    end check first: most numbers have no "=", "of" or ":" before them)."""
    if not _CORR_END.search(text, max(lo, pos - 5), pos):
        return None
    return _CORRELATION.search(text, max(lo, pos - 30), pos)


_CORRELATION = re.compile(rf"(?<![\w'’])(?P<sym>{V.alternation(V.CORRELATION_SYMBOLS)})\s*(?:=|≈|of|:)\s*$")
_HEADS = V.alternation(V.METRIC_HEADS)
_NP_WORD = (
    r"(?!(?:on|in|of|for|by|than|over|and|or|with|while|to|at|from|the|a|an|compared|across|vs|all|each|"
    r"both|these|those|most|several|many|every|other|average)\b)[\w@\-./]+"
)
_NP = rf"{_NP_WORD}(?:\s{_NP_WORD}){{0,3}}"
_OPEN_AFTER = (
    (
        "metric-after-on-name",
        re.compile(rf"^\s*(?:\(\w+\)\s*)?(?:on|in)\s+(?:the\s+)?(?P<np>{_LEX_WORDS})(?![\w-])", re.I),
    ),
    (
        "metric-after-change-noun",
        re.compile(
            rf"^\s*(?:\(\w+\)\s*)?(?:absolute\s+|relative\s+)?(?:{V.alternation(V.CHANGE_WORDS)})\s+"
            rf"(?:in|on|of|for)\s+(?:the\s+)?(?:terms of\s+)?(?P<np>{_NP})",
            re.I,
        ),
    ),
    (
        "metric-after-comparative",
        re.compile(
            rf"^\s*(?:absolute\s+|relative\s+)?(?:fewer|less|lower|higher|more|smaller|larger|longer|shorter)\s+"
            rf"(?P<np>{_NP})",
            re.I,
        ),
    ),
    (
        "metric-after-in-terms-of",
        re.compile(
            rf"^\s*(?:\(\w+\)\s*)?(?:[\w-]+\s+){{0,3}}?in terms of\s+(?:the\s+)?"
            rf"(?P<np>{_NP_WORD}(?:\s{_NP_WORD}){{0,6}}(?:\s\([\w@-]+\))?)",
            re.I,
        ),
    ),
    (
        "metric-after-on-metric",
        re.compile(
            r"^\s*(?:\(\w+\)\s*)?(?:on|in)\s+(?:the\s+)?(?P<np>[\w@\-. ◦]{1,30}?)\s+(?:metrics?|scores?)\b",
            re.I,
        ),
    ),
    (
        "metric-after-acronym",
        re.compile(r"^\s?(?P<np>[A-Z][A-Za-z]*[A-Z][A-Za-z]*(?:-[A-Z]+)?)(?![\w-])(?!\s+[A-Z])"),
    ),
)
_OPEN_BEFORE_END = re.compile(r"(?:\bby|\bof|\bis|\bwas|\bfrom|\bto|=|:)\s+$")
_OPEN_BEFORE = (
    (
        "metric-before-verb-by",
        re.compile(
            rf"\b(?:improv|reduc|increas|decreas|shorten|boost|lower|rais|cut|enhanc|advanc|surpass|outperform)\w*\s+"
            rf"(?:the\s+|its\s+|our\s+)?"
            rf"(?P<np>(?:[\w@\-]+\s){{0,3}}?{_HEADS})(?:\s+(?:of|on|in|for)\s+[^,;]{{0,50}}?)?\s+by\s+$",
            re.I,
        ),
    ),
    ("metric-before-of", re.compile(rf"(?P<np>(?:[\w@\-]+\s){{0,2}}{_HEADS})\s+(?:of|is|was|=|:)\s+$", re.I)),
    (
        "metric-before-passive",
        re.compile(
            rf"(?P<np>(?:[\w@\-]+\s){{0,3}}?{_HEADS})\s+(?:was|were|is|are|has been|have been|can be)\s+(?:\w+ly\s+)?"
            r"(?:reduced|improved|increased|decreased|boosted|lowered|raised|cut|enhanced)\s+(?:from|by|to)\s+$",
            re.I,
        ),
    ),
    (
        "metric-before-metric-word",
        re.compile(r"(?P<np>(?:[\w@\-]+\s){0,2}[\w@\-]+)\s+(?:metric|measure)\s+(?:from|of|by|to)\s+$", re.I),
    ),
    (
        "metric-before-by",
        re.compile(rf"(?P<np>(?:[\w@\-]+\s){{0,2}}(?:{_LEX_WORDS}|{_HEADS}))\s+by\s+$", re.I),
    ),
)
_BEFORE_BRACKET = re.compile(rf"(?P<np>(?:[\w@\-]+\s){{0,2}}(?:{_LEX_WORDS}|{_HEADS}))\s*\(\s*$", re.I)


def _fnum(s: str) -> float:
    """Parse a number token: thousands separators (``1,024``) vs decimal comma (``81,2``)."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", s):
        return float(s.replace(",", ""))
    return float(s.replace(",", "."))


@dataclass(slots=True, kw_only=True, eq=False)
class _Tok:
    """One number token of an abstract: character offsets into the text (``start``/``end`` with the sign and
    unit, ``num_*`` the digits, ``span_*`` the whole range or list it heads), its value, unit ("%", "pp",
    "x" or None) and the flags and links the pairing steps set. Compared by identity."""

    start: int
    end: int
    num_start: int
    num_end: int
    value: float
    text: str
    span_start: int
    span_end: int
    signed: bool = False
    unit: str | None = None
    unit_text: str | None = None
    measure: bool = False
    decimal: bool = False
    setup: bool = False
    accepted: bool = False
    kind: str | None = None
    low: float | None = None
    high: float | None = None
    vfrom: float | None = None
    group: str | None = None
    why: str | None = None
    dash: bool = False


def _tokens(text: str) -> list[_Tok]:
    """All number tokens of ``text`` with sign, value, unit and a setup flag (steps 1-2 of the module doc)."""
    toks: list[_Tok] = []
    last_end = -10
    for m in _TOKEN.finditer(text):
        a, b = m.start(), m.end("num")
        na = m.start("num")
        before = text[max(0, a - 1) : a]
        sign = (m["sign"] or "").strip()
        if sign and sign in _MINUS and text[last_end:a].strip() == "" and a - last_end <= 2:
            range_sep = True  # "57%-77%", "21% - 64%", "2.3x -14.9x": a range, not a negative number
        elif sign and sign in _MINUS and before and (before.isalnum() or before in "×x"):
            # a "-" glued after a letter/digit is a hyphen, not a minus sign
            range_sep = before.isdigit() or (before in "×xX" and a >= 2 and text[a - 2].isdigit())
        elif sign == "-" and before == "-" and a >= 2 and text[a - 2].isdigit():
            range_sep = True  # "2--3" (LaTeX en dash)
        elif sign == "-" and before == "-":
            sign, a = "", na  # "layers---8x deeper": a LaTeX dash is punctuation, not a minus sign
            range_sep = None
        else:
            range_sep = None
        if range_sep is not None:
            if not range_sep:
                continue  # GPT-4, Llama-3.1, CIFAR-10: a number inside a name
            sign = ""  # "2-3", "3x-5x": range separator, paired later
            a = na
        prev = text[max(0, a - 1) : a]
        after_slash = prev == "/" and a >= 2 and text[a - 2].isdigit()
        if prev == "{" and a >= 2 and text[a - 2] in "^_":
            continue  # exponent/subscript "2^{16}"
        if prev == "=" and _correlation_before(text, 0, a):
            prev = ""  # "τ=0.64": a correlation statistic, not an assignment inside a formula
        if (
            prev
            and not after_slash
            and (
                (prev.isalnum() and prev < "\u2e80")
                or prev in "._@^/=\\#$€£"
                or (prev in "×x" and a >= 2 and text[a - 2].isdigit())
            )
        ):
            continue  # inside a word/name/version/exponent/resolution/price
        num = m["num"]
        if (
            "," in num
            and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", num)
            and not re.match(r"\s?%", text[b : b + 2])
        ):
            # "1,2" is a list unless a percent sign follows ("81,2 %": decimal comma, fixtures M30)
            num = num.split(",")[0]
            b = na + len(num)
        suf = m["suf"] if m.end("num") == b else None
        if suf:
            b = m.end()
        value = _fnum(num) * (1000.0 if suf else 1.0)
        if sign and sign in _MINUS:
            value = -value
        um = _UNIT.match(text, b)
        if um and _counts_points(um["u"], value, suf):
            um = None
        unit = unit_text = None
        measure = False
        if um:
            u = um["u"].lower().strip()
            if u == "%" or (u.startswith("percent") and "point" not in u and "pt" not in u):
                unit = "%"
            elif "point" in u or u in ("pp", "p.p.", "pts") or "pt" in u:
                unit = "pp"
            elif u in ("×", "✕", "x") or u.endswith("fold") or u == "times":
                unit = "x"
            else:
                measure = True
            unit_text = um["u"]
            ue = um.end()
        else:
            ue = b
        glued = text[b : b + 1]
        setup = False
        if (
            not um
            and glued
            and (glued.isalpha() or glued in "_^")
            and not ("." in num and _LEX_GLUED.match(text, b))
        ):
            setup = True  # sizes and names: 7B, 32K, 3D, 1e-5 (but "0.8mIoU": a metric glued to a decimal)
        if unit == "x" and re.match(r"\s?\d", text[ue : ue + 2]):
            setup = True  # 256×256, 8×7B
        if not unit and not measure and _SETUP_AFTER.match(text, b):
            setup = True
        if unit == "%" and _PCT_SETUP_AFTER.match(text, ue):
            setup = True
        if unit is None and not measure and re.fullmatch(r"(?:19|20)\d\d", num) and not sign:
            setup = True  # a year
        if re.match(r"\s?%\s*(?:CI|confidence)\b", text[b : b + 16]):
            setup = True
        if unit == "x" and (
            re.match(r"[\s-]*cross", text[ue : ue + 8])
            or (
                u == "times"
                and re.search(
                    r"\b(?:repeat|appear|occur|run|sampl|quer|call|iterat|execut|visit|seen|used)\w*\s+(?:\w+\s+){0,2}$",
                    text[max(0, na - 40) : na],
                )
            )
        ):
            setup = True  # "5-fold cross-validation", "repeated over 60,000 times"
        if text[max(0, na - 2) : na].strip().endswith("±"):
            setup = True  # the uncertainty of "88.1 ± 0.3"
        corr = _correlation_before(text, 0, a) if "." in num else None
        if corr and value <= 1.0 and not um:
            pass  # a correlation statistic: "r = 0.91", "τ=0.64", "Spearman's ρ of 0.71"
        elif re.search(r"(?<!\w)[A-Za-zα-ωΑ-Ω]\w?\s*[≥≤<>=≠]\s*$", text[max(0, a - 8) : a]):
            setup = True  # math about a variable: "A ≥ 0 times", "k = 5", "n < 10"
        if unit == "x" and value == 0:
            setup = True  # "0×" is never a reported multiplier
        dash = unit == "x" and bool(sign) and sign in _MINUS
        if dash:
            # rule unsigned-multiplier: a multiplier is positive, so a minus sign before one is a dash
            # ("2.3x less -14.9x", "1.5 by × -1.9×": a range separator after the words were moved)
            sign, value, a = "", -value, na
        last_end = ue
        toks.append(
            _Tok(
                start=a if sign else na,
                end=ue,
                num_start=na,
                num_end=b,
                value=value,
                text=(sign + num + (suf or "")),
                signed=bool(sign and sign != "±"),
                unit=unit,
                unit_text=unit_text,
                measure=measure,
                decimal="." in num or "," in num and not re.fullmatch(r"\d{1,3}(?:,\d{3})+", num),
                setup=setup or sign == "±",
                accepted=False,
                kind=None,
                low=None,
                high=None,
                vfrom=None,
                span_start=a if sign else na,
                span_end=ue,
                group=None,
                why=None,
                dash=dash,
            )
        )
    return toks


_RANGE_SEP = re.compile(r"\s?(?:--|–|—|-|~|∼|to)\s?")
_FROM = re.compile(r"\bfrom\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}$", re.I)
_LIST_SEP = re.compile(r"\s*(?:,|,?\s*(?:and|or|/))\s*")
_WORD_NUM = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
}
_SPELLED = re.compile(
    r"(?P<q>\b(?:more than|over|about|nearly|almost|roughly|up to|within)\s+)?"
    r"(?:(?P<twice>\btwice\b)(?=\s+as\b)|\bfactor\s+(?:of\s+)?(?P<factor>\d+(?:\.\d+)?)\b|"
    r"\b(?P<om>one|two|three|four|five|an?|\d+)\s+orders?\s+of\s+magnitude\b|"
    r"\b(?P<pw>one|two|three|four|five|six|seven|eight|nine|ten)\s+percent(?!age)\b)",
    re.I,
)


_FRACTION_WORDS = "|".join(sorted((re.escape(k) for k in V.WORD_FRACTIONS), key=len, reverse=True))
_WORD_RESULT = re.compile(
    rf"(?P<frac>\b(?:{_FRACTION_WORDS}))(?!\s+precision)|"
    rf"\branked\s+(?P<rank>{'|'.join(V.ORDINALS)})\b|"
    rf"\b(?:won|wins|win|took|takes|achiev\w*|secur\w*|obtain\w*|earn\w*|claim\w*|placed)\s+(?:the\s+|a\s+)?"
    rf"(?P<place>{'|'.join(V.ORDINALS)})\s+place\b|"
    r"\b(?P<zero>zero|near-zero)(?=\s+(?:[\w-]+\s+)?(?:error|loss|regret|violations?)\b)",
    re.I,
)
# what a fraction word must be followed by to be a result: a metric, an amount or a metric head word
_FRACTION_OF = re.compile(
    rf"\s+(?:of\s+)?(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+)?"
    rf"(?:{_LEX_WORDS}|{V.alternation(V.AMOUNT_WORDS)}|{V.alternation(V.METRIC_HEADS)})\b",
    re.I,
)
_WORD_GATE = re.compile(r"(?i)\b(?:half|third|thirds|quarter|tenth|ranked|place|zero|near-zero)\b")
_SPELLED_GATE = re.compile(r"(?i)\b(?:twice|factor|magnitude|percent)\b")


def _spelled_tok(text: str, a: int, b: int, value: float, unit: str | None, kind: str | None = None) -> _Tok:
    """An accepted token for a result written in words, ``text[a:b]`` (rule "spelled"): unsigned, no setup,
    its number span the whole phrase."""
    return _Tok(
        start=a,
        end=b,
        num_start=a,
        num_end=b,
        value=value,
        text=text[a:b],
        span_start=a,
        span_end=b,
        unit=unit,
        accepted=True,
        kind=kind,
        why="spelled",
    )


def _word_results(text: str) -> list[_Tok]:
    """Results written in words: "about half the accuracy" (0.5 x), "a third of the memory" (1/3 x), "ranked
    first" / "1st place" (score 1), "zero training error" (score 0); vocabulary tables WORD_FRACTIONS, ORDINALS."""
    out = []
    for m in _WORD_RESULT.finditer(text):
        if m["frac"] and not _FRACTION_OF.match(text, m.end("frac")):
            continue
        if m["frac"]:
            v, unit, a, b = V.WORD_FRACTIONS[m["frac"].lower()], "x", m.start("frac"), m.end("frac")
        elif m["rank"] or m["place"]:
            g = "rank" if m["rank"] else "place"
            a = m.start() if g == "rank" else m.start("place")
            v, unit, b = float(V.ORDINALS[m[g].lower()]), None, m.end()
        else:
            v, unit, a, b = 0.0, None, m.start("zero"), m.end("zero")
        out.append(_spelled_tok(text, a, b, v, unit, kind="score" if unit is None else None))
    return out


def _spelled(text: str) -> list[_Tok]:
    """Results written in words (gold labelling guidelines): "more than twice as long" (2 x),
    "by two orders of magnitude" (100 x), "factor 6" (6 x), "within one percent" (1 %)."""
    out = []
    for m in _SPELLED.finditer(text):
        if m["twice"]:
            v, unit, a, b = 2.0, "x", m.start("twice"), m.end("twice")
        elif m["factor"]:
            if float(m["factor"]) == 0:
                continue  # "selection factor 0": a multiplier is positive, so a factor 0 is a setting
            v, unit, a, b = float(m["factor"]), "x", m.start("factor") - len("factor "), m.end("factor")
            a = text.rfind("factor", 0, m.start("factor"))
        elif m["om"]:
            w = m["om"].lower()
            n = float(w) if w.isdigit() else _WORD_NUM[w]
            v, unit, a, b = 10.0**n, "x", m.start("om"), m.end()
        else:
            v, unit, a, b = float(_WORD_NUM[m["pw"].lower()]), "%", m.start("pw"), m.end()
        out.append(_spelled_tok(text, a, b, v, unit))
    return out


def _pair_structures(text: str, toks: list[_Tok]) -> list[_Tok]:
    """Merge ranges and before→after pairs, read slash pairs, drop CI bounds, share units across lists."""
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        n = toks[i + 1] if i + 1 < len(toks) else None
        if n is not None and not t.setup and not n.setup:
            gap = text[t.end : n.start]
            gap_num = text[t.num_end : n.start]
            # before -> after: "from 5.1 to 4.3", "from 41.0% to 44.2%"
            if (
                re.fullmatch(r"\s?to\s", gap)
                and _FROM.search(text[max(0, t.start - 40) : t.start])
                and not re.search(
                    r"\b(?:thresholds?|rang\w*|vary\w*|varie\w*|sizes?|scal\w*|lengths?)\s+(?:\w+\s+)?from\s+$",
                    text[max(0, t.start - 40) : t.start],
                )
                and (t.unit == n.unit or t.unit is None)
                and (t.decimal or n.decimal or n.unit or n.measure)
            ):
                n.kind, n.vfrom, n.span_start, n.accepted, n.why = (
                    "before_after",
                    t.value,
                    t.start,
                    True,
                    "from-to",
                )
                out.append(n)
                i += 2
                continue
            # range: "10–20%", "2-3 points", "3x-5x", "26~35×", "1.5-2.3×"; "between A and B%"
            sep_ok = _RANGE_SEP.fullmatch(gap_num if t.unit is None else gap) is not None
            is_range = (
                (t.unit is None or t.unit == n.unit)
                and not t.measure
                and sep_ok
                and not t.signed
                and (n.unit is not None or n.measure)
                and n.value > t.value
            )
            if (
                re.fullmatch(r"\s?and\s", gap)
                and re.search(r"\bbetween\s+$", text[max(0, t.start - 12) : t.start])
                and (n.unit or n.measure)
            ):
                is_range = True
            if is_range:
                if re.search(r"\bCI\s*$", text[max(0, t.start - 8) : t.start]) and out:
                    out[-1].low, out[-1].high = t.value, n.value  # "(95% CI 0.93–0.97)": bounds of the score
                    i += 2
                    continue
                n.kind, n.low, n.high, n.span_start, n.accepted, n.why = (
                    "range",
                    t.value,
                    n.value,
                    t.start,
                    True,
                    "range",
                )
                n.text = text[t.start : n.num_end]
                out.append(n)
                i += 2
                continue
            # slash pair with slash metric names: "87.5/89.1 EM/F1"
            sm = re.match(rf"\s?({_LEX_WORDS})/({_LEX_WORDS})\b", text[n.end : n.end + 30], re.I)
            if text[t.num_end : n.start] == "/" and sm and t.decimal and n.decimal:
                for tok, name in ((t, sm[1]), (n, sm[2])):
                    tok.accepted, tok.why, tok.group = True, "slash", name
                out += [t, n]
                i += 2
                continue
        out.append(t)
        i += 1
    # lists share a unit: "up to 233 and 761 times", "2.24%, 3.97% and 1.49%"
    for j in range(len(out) - 2, -1, -1):
        t, n = out[j], out[j + 1]
        if (
            t.unit is None
            and not t.measure
            and not t.setup
            and n.unit
            and not n.setup
            and t.kind is None
            and _LIST_SEP.fullmatch(text[t.num_end : n.start])
        ):
            t.unit = n.unit
            t.end = t.span_end = t.num_end
    return out


_CLAUSE_SPLIT = re.compile(
    r";|:\s|—|\s--\s|,\s(?=(?:while|whereas|but|and it|which|with|along with|and also|"
    r"and (?:we|our|the|it)\b))|\sand also\s"
)


def _clause_bounds(text: str, s0: int, s1: int, pos: int) -> tuple[int, int]:
    """Start/end of the clause around ``pos`` inside sentence [s0, s1): split at ; : — and ", while"-like joins."""
    lo = s0
    for m in _CLAUSE_SPLIT.finditer(text, s0, pos):
        lo = m.end()
    split = _CLAUSE_SPLIT.search(text, pos, s1)
    return lo, (split.start() if split else s1)


def _qualifier(text: str, t: _Tok, s0: int) -> tuple[str | None, int]:
    """Qualifier written before the number (GUIDELINES values) and the span start including it."""
    pre = text[max(s0, t.span_start - 25) : t.span_start]
    for rx, q in _QUALIFIERS:
        m = rx.search(pre)
        if m:
            return q, t.span_start - (len(pre) - m.start())
    post = text[t.span_end : t.span_end + 12]
    if re.match(r"\s+or (?:less|fewer|lower)\b", post):
        return "up to", t.span_start
    if re.match(r"\s+or (?:more|higher)\b", post):
        return "at least", t.span_start
    return None, t.span_start


_STOP_AFTER = re.compile(
    r"\b(?:on|in|for|with|over|than|compared|while|and|across|at|of|by|when|using|from|"
    r"to|vs|versus|relative|is|are|was|were)\b|[,.;()—]"
)
_CHANGE_TAIL = re.compile(
    r"\s+(?:reductions?|improvements?|gains?|drops?|savings?|increases?|decreases?|boosts?|"
    r"loss)$",
    re.I,
)
_LEAD_WORDS = re.compile(
    r"^(?:(?:a|an|the|its|their|our|his|her|higher|lower|better|worse|more|less|fewer|"
    r"relative|absolute|reaches|reached|achieves|achieved|achieving|obtains|has|have|"
    r"with|yields|shows|in|that|of|only|overall\s(?=gain))\s+)+",
    re.I,
)


_SINGULAR = {
    "accuracies": "accuracy",
    "rates": "rate",
    "scores": "score",
    "slopes": "slope",
    "margins": "margin",
    "errors": "error",
    "costs": "cost",
    "latencies": "latency",
    "perplexities": "perplexity",
    "speedups": "speedup",
    "speed-ups": "speed-up",
    "rewards": "reward",
    "returns": "return",
}


_ADJECTIVES = re.compile(rf"^(?:{V.alternation(V.METRIC_ADJECTIVES)}\s+)+", re.I)


def _tidy_metric(name: str | None) -> str | None:
    """Normalise a metric phrase: strip articles/verbs in front, ``F_1`` → ``F1``, brackets and spaces."""
    if not name:
        return None
    # keep a bracketed acronym that is a metric name ("Intersection over Union (mIoU)"), drop other brackets
    name = re.sub(r"\s*\(([^()]*)\)\s*", lambda m: f" ({m[1]}) " if _LEX.fullmatch(m[1]) else " ", name)
    name = re.split(
        r"\b(?:that|find|finds|found|show|shows|achieves?|achieving|obtains?|reports?|yields?|"
        r"attains?|reach\w*|is|are|was|were|by)\s+",
        name.strip(" ,.;:"),
    )[-1]
    name = _LEAD_WORDS.sub("", name)
    name = _ADJECTIVES.sub("", name) if " " in name else name
    name = re.sub(r"\s+(?:and|or|with|while)$", "", name)
    name = _CHANGE_TAIL.sub("", name)
    lm = re.match(rf"((?:[\w\-@]+\s)?(?:{_LEX_WORDS}))\s+(?:of|on|in|for)\s+.+$", name, re.I)
    if lm:
        name = lm[1]  # "accuracy of cross-modal retrieval" -> "accuracy"
    words = name.split(" ")
    words[-1] = _SINGULAR.get(words[-1].lower(), words[-1])
    name = " ".join(words)
    name = re.sub(r"\bF_1\b|\bF-1\b", "F1", name)
    name = re.sub(r"\s+", " ", name).strip()
    if re.fullmatch(
        r"(?:reduc|improv|increas|decreas|boost|lower|rais|enhanc|achiev|obtain|confin|report|observ)ed", name
    ):
        return None  # "reduced", "improved": a verb left over, not a name
    return name or None


_DATASET_WORD = V.words(V.DATASET_HEADS)
_HEAD_WORD = V.words(V.METRIC_HEADS)


def _dataset_like(np_: str) -> bool:
    """A phrase that names a data set, not a metric: it holds "dataset"/"benchmark", or it is a capitalised
    name with digits ("CIFAR-10") and holds no metric word."""
    if _DATASET_WORD.search(np_):
        return True
    return bool(re.search(r"[A-Z][A-Za-z]*-?\d", np_)) and not (_LEX.search(np_) or _HEAD_WORD.search(np_))


_NOT_METRIC = re.compile(
    r"(?i)^(?:than|the|that|its|their|our|time|times|cases?|points?|of|improvements?|gains?)$"
)


def _metric_open(text: str, t: _Tok, s0: int, lo: int, hi: int) -> tuple[str | None, str | None]:
    """A metric the lexicon does not know, read from the shape of the phrase around the number (each shape a
    named rule): "40% reduction in location uncertainty", "26.8% fewer search steps", "13.8% in terms of MPJPE",
    "0% MODA", "improve the best Rank-1 matching rate ... by 14%", "Spearman's ρ of 0.71", "4.3x faster"."""
    post = text[t.span_end : min(hi, t.span_end + 80)]
    for name, rx in _OPEN_AFTER:
        m = rx.match(post)
        if m:
            np_ = re.split(
                r"\s(?:on|in|of|for|than|over|compared|while|across|with)\s|[,;.)]|\((?![\w@-]+\))", m["np"]
            )[0].strip()
            if np_.count("(") > np_.count(")"):
                np_ += ")"  # "error (MPJPE)": keep the acronym's bracket
            if (
                name != "metric-after-on-metric"
                and re.search(r"\bon\s", m[0][: m.start("np") - m.start()])
                and not (_LEX.search(np_) or _HEAD_WORD.search(np_))
            ):
                continue  # "51.2% improvements on long episodes": "on" names where, not what
            if (
                np_
                and not _NOT_METRIC.match(np_)
                and not _MODEL_NAME.search(np_)
                and not _dataset_like(np_)
                and not (
                    np_[0].isupper()
                    and re.search(r"\bon\s", m[0])
                    and not _LEX.search(np_)
                    and name != "metric-after-on-metric"
                )
            ):
                return np_, name  # ("a 6% improvement on CoLA": a capitalised name after "on" is a data set)
    pre = _QUAL_TEXT.sub("", text[max(lo, t.span_start - 120) : t.span_start]).rstrip() + " "
    cm = _correlation_before(text, s0, t.span_start)
    if cm:
        return cm["sym"], "correlation-symbol"
    for name, rx in _OPEN_BEFORE:
        if not _OPEN_BEFORE_END.search(pre[-6:]):
            break
        m = rx.search(pre[-70:])
        if m and not _BAD_NP.search(m["np"]):
            return re.sub(r"^(?:the|its|our|their)\s+", "", m["np"]), name
    bm = _BEFORE_BRACKET.search(pre[-60:]) if pre.rstrip().endswith("(") else None
    if bm and not _BAD_NP.search(bm["np"]):
        return bm["np"], "metric-before-bracket"
    for verb, metric in V.VERB_METRICS.items():
        if re.search(rf"\b{verb}\b[^,;.]{{0,100}}\bby\s+(?:a factor of\s+)?$", pre, re.I):
            return metric, "metric-verb"
    cmp_ = re.match(r"\s*(\w+)", text[t.span_end : t.span_end + 20])
    if cmp_ and cmp_[1].lower() in V.COMPARATIVE_METRICS and t.unit in ("x", "%"):
        return V.COMPARATIVE_METRICS[cmp_[1].lower()], "metric-comparative"
    return None, None


def _metric_after(text: str, t: _Tok, hi: int) -> str | None:
    """Metric named right after the number/unit: "54% F1", "10.7× KV memory reduction", "65ms model
    forwarding time", "14.9% in accuracy", "2.5% increase in storage"."""
    seg = text[t.span_end : min(hi, t.span_end + 50)]
    seg = re.sub(r"^\s?±\s?\d+(?:\.\d+)?", "", seg)  # "88.1 ± 0.3 F1"
    om = re.match(r"\s*of\s+(?:the\s+)?((?:[\w-]+\s)?[\w-]+)", seg)
    if t.unit == "%" and om and _AMOUNT.search(om[1]):
        return om[1]  # "72% of the task load"
    stop = _STOP_AFTER.search(seg)
    head = seg[: stop.start()] if stop else seg
    lm = None
    for lm in _LEX.finditer(head):  # noqa: B007 (the last match)
        pass
    if lm is not None:
        return head[: lm.end()]
    if (t.measure or t.unit == "x") and _AMOUNT.search(head):
        am = list(_AMOUNT.finditer(head))[-1]
        return head[: am.end()]
    m_in = re.match(
        r"\s*(?:(?!(?:while|and|but|whereas|with|on|for)\b)[\w-]+\s+){0,4}?in\s+(?:the\s+|terms of\s+)?([\w\-@]+(?:\s[\w\-@]+){0,2})",
        seg,
    )
    if m_in:
        cand = m_in[1]
        lm2 = _LEX.search(cand) or _AMOUNT.search(cand)
        if lm2:
            return cand[: lm2.end()]
    return None


_VERB_BY = re.compile(
    r"(?:\b(?:improv|reduc|increas|decreas|boost|lower|cut|rais|enhanc|shrink|lift|accelerat|sav|outperform)\w*"
    r"|\band|,|[’']s)\s+(?:the\s+|its\s+|their\s+|our\s+)?"
    r"(?P<np>[^,;]{2,70}?)\s+(?:by|to|from)\s+(?:an?\s+(?:average|margin)\s+of\s+)?$",
    re.I,
)
_NP_VERB = re.compile(
    r"(?P<np>[\w\-@.]+(?:\s[\w\-@.()]+){0,3})\s+(?:drops?|falls?|rises?|increases?|decreases?|"
    r"improves?|goes|jumps?|climbs?|grows?)\s+(?:by|to|from)\s+$",
    re.I,
)
_BAD_NP = re.compile(
    r"\b(?:we|it|this|that|which|method|approach|results?|framework|system|one|"
    r"previous|prior art|the art|baselines?|SOTA|they|them|itself)\b",
    re.I,
)


_ACRONYM_BEFORE = re.compile(
    r"(?P<np>(?:[\w\-]+\s){0,4})\((?P<acr>[A-Za-z][\w\-@]*)\)\s+(?:of|is|was|=|:)\s+$"
)


def _metric_before(text: str, t: _Tok, lo: int) -> str | None:
    """Metric named before the number: "improves F1 by 3%", "accuracy of 41%", "AUC) of 99.02%",
    "reduces WER from 5.1 to 4.3", "mIoU drops by ≈ 3%", "success rates up to 98.1%"."""
    pre = text[max(lo, t.span_start - 100) : t.span_start]
    pre = _QUAL_TEXT.sub("", pre).rstrip() + " "
    m = _ACRONYM_BEFORE.search(pre[-70:]) if ")" in pre[-30:] else None
    if m and _LEX.fullmatch(m["acr"]):
        # "Area Under the Curve (AUC) of 99.02%": the phrase and its acronym, so either spelling matches
        return f"{m['np']}({m['acr']})" if m["np"] and _LEX.search(m["np"]) else m["acr"]
    near = pre[-60:]  # the 3-word patterns below never need more (and cost grows with the window)
    m = re.search(
        r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s+(?:of|is|was|=|:|reaches|reached|reaching|at|stands at)\s+"
        r"(?:(?:an?\s+)?average\s+of\s+|only\s+)?$",
        near,
        re.I,
    )
    if m:
        np_ = _CHANGE_TAIL.sub("", m["np"])
        if _LEX_AT_END.search(np_):
            return np_
    m = re.search(r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s*\(\s*$", near)
    if m and _LEX.search(_CHANGE_TAIL.sub("", m["np"])) and _CHANGE_TAIL.search(m["np"]):
        return _CHANGE_TAIL.sub("", m["np"])  # "accuracy loss (<0.5%)"
    m = re.search(r"\bin terms of\s+(?P<np>[\w\- ]{2,40}?)\s+by\s+$", near)
    if m:
        return m["np"]
    m = re.search(r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s+$", near)
    if (
        m
        and not re.search(r"\bscores?$", m["np"])
        and (_LEX_AT_END.search(m["np"]) or (t.unit == "%" and _AMOUNT.search(m["np"].split()[-1])))
    ):
        if not re.search(r"\b(?:by|of|than|over|vs|and|with|on|in|from)\s*$", m["np"], re.I):
            return m["np"]
    m = re.search(
        r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s+(?:is|are|was|were|becomes)\s+(?:\w+\s+)?"
        r"(?:higher|lower|larger|smaller|faster|slower|better|worse)\s+by\s+$",
        near,
    )
    if m and not _BAD_NP.search(m["np"]):
        return m["np"]  # "the true sensitivity is higher by at least factor 6"
    m = _NP_VERB.search(pre)
    if m and (_LEX.search(m["np"]) or _AMOUNT.search(m["np"])):
        return m["np"]
    m = _VERB_BY.search(pre)
    if m:
        np_ = re.split(
            r"\b(?:improv|reduc|increas|decreas|boost|lower|cut|rais|enhanc|shrink|lift|accelerat|sav|"
            r"outperform)\w*\s+|\band\s+|,\s*|[’']s\s+",
            m["np"],
        )[-1]
        np_ = re.sub(r"^(?:the|its|their|our)\s+", "", np_)
        np_ = re.split(r"\s(?:on|in|for|across|over|with|compared)\s", np_)[0]
        if (_LEX.search(np_) or _AMOUNT.search(np_)) and not _BAD_NP.search(np_) and len(np_.split()) <= 6:
            return np_
    return None


_PREP_NAME = re.compile(
    r"\b(?i:on|in|for|across)\s+(?:the\s+|both\s+|a\s+)?(?:(?:challenging|popular|public|standard|widely-used|"
    r"[a-z]+-based)\s+)?"
    r"(?P<name>[A-Z](?:\.(?=\w)|[\w'’\-+→])*(?:[\s-](?:[A-Z0-9](?:\.(?=\w)|[\w'’\-+→])*|v\d[\w.]*|test-\w+|Lite|Verified|generation|"
    r"scenario|split|\d+))*)"
)
_BENCH_NAME = re.compile(
    r"\b(?:benchmark|dataset)s?\s+(?:of\s+|like\s+|such as\s+|including\s+)?"
    r"(?P<name>[A-Z][\w'’.\-+]*(?:\s[A-Z0-9][\w'’.\-+]*)?)|"
    r"\b(?:the\s+)?(?P<name2>[A-Z][\w'’.\-+]*(?:\s[A-Z0-9][\w'’.\-+]*)?)\s+(?:benchmark|dataset|data set)s?\b"
)
_LOWER_SET = re.compile(
    r"\s*(?:On|In)\s+the\s+(?P<name>(?:[a-z][\w-]*\s){0,2}(?:scenes|split|set|subset|tasks?))\b"
)


_NOT_DATASET_AFTER = re.compile(rf"\s+{V.alternation(V.NOT_DATASET_HEADS)}\b", re.I)
_COUNT_BEFORE = re.compile(
    rf"(?<![\d.,])\b{V.alternation(V.COUNT_WORDS)}\s+"
    r"(?:(?!(?:on|in|of|for|at|by|to|and|or)\b)[a-z][\w-]*\s+)?$",
    re.I,
)


def _generic_mention(text: str, m: re.Match, group: str = "name") -> bool:
    """A capitalised name that is a kind of thing, not a data set: followed by a non-dataset head ("KGE models",
    "the CSRL task") or counted ("three ACOS datasets")."""
    return bool(
        _NOT_DATASET_AFTER.match(text, m.end(group))
        or _COUNT_BEFORE.search(text, max(0, m.start(group) - 30), m.start(group))
    )


def _ok_dataset(name: str | None) -> str | None:
    if not name:
        return None
    name = name.strip(" .,'’")
    name = re.sub(r"\s(?:benchmarks?|datasets?|and|with|while|using|under|across)$", "", name)
    first = name.split()[0] if name else ""
    if not name or first in _GENERIC_CAP or _MODEL_NAME.search(name) or _LEX.fullmatch(name):
        return None
    if len(name) < 2 or "=" in name:
        return None
    return name


_PARTNER = re.compile(r"\s+and\s+(?P<name>[A-Z][\w'’.\-+]*[\w+](?:\s[A-Z0-9][\w'’.\-+]*[\w+])?)(?![\w-])")


def _with_partner(text: str, end: int, name: str) -> str:
    """ "on CUB-200-2011 and ImageNet" for one number: the data set is both names, as written."""
    m = _PARTNER.match(text, end)
    if m and _ok_dataset(m["name"]) and not _NOT_DATASET_AFTER.match(text, m.end()):
        return f"{name} and {m['name']}"
    return name


# "on real student behavior dataset", "on the remote sensing benchmark": a data set described, not named.
_DESCRIBED_SET = re.compile(
    rf"\s*(?:\(\w+\)\s*)?(?:on|in)\s+(?:the\s+)?(?!(?:{V.alternation(V.GENERIC_DATASET_WORDS)}|"
    rf"{V.alternation(V.COUNT_WORDS)})\b)(?P<name>(?:[a-z][\w-]*\s){{1,3}}(?:dataset|benchmark))\b"
)


def _dataset_after(text: str, start: int, end: int) -> str | None:
    m = _DESCRIBED_SET.search(text, start, end + 40)
    if m and not re.search(r"\d\s?(?:%|×)", text[start : m.start()]):
        return m["name"]
    for m in _PREP_NAME.finditer(text, start, end):
        if re.search(r"\d\s?(?:%|×)", text[start : m.start()]):
            return None
        name = None if _generic_mention(text, m) else _ok_dataset(m["name"])
        if name:
            return _with_partner(text, m.end("name"), name)
        if not _LEX.fullmatch(m["name"].strip(" .,")):
            return None
    return None


def _dataset_before(text: str, s0: int, end: int, attached: list[tuple[int, int]]) -> str | None:
    """A benchmark named earlier in the sentence and not attached to another number's "N on X"."""
    found = []
    taken = set()
    for m in _PREP_NAME.finditer(text, s0, end):
        name = None if _generic_mention(text, m) else _ok_dataset(m["name"])
        if any(a <= m.start() <= b for a, b in attached):
            if name:
                taken.add(name)
            continue
        if name:
            found.append(name)
    if not found and len(taken) == 1:
        found = list(taken)  # the sentence's only benchmark, named for an earlier number
    if not found:
        for m in _BENCH_NAME.finditer(text, s0, end):
            g = "name" if m["name"] else "name2"
            name = (
                None if _COUNT_BEFORE.search(text, max(0, m.start(g) - 30), m.start(g)) else _ok_dataset(m[g])
            )
            name = _with_partner(text, m.end(g), name) if name and g == "name" else name
            if name:
                found.append(name)
    if not found:
        lower = _LOWER_SET.match(text, s0)
        if lower and lower.end() <= end:
            found.append(lower["name"])
    return found[-1] if found else None


_NAME_AFTER = re.compile(
    r"\s*(?:for|of|by|from)\s+(?:the\s+)?(?P<name>[A-Z][\w\-.+]*(?:\s[A-Z0-9][\w\-.+]*)?)"
)


def _one_baseline(listed: str) -> str | None:
    """One name per number: the last item of "baseline X (72.3%), its 14B counterpart (81.1%), and GPT-4o" as it
    stands before this number's bracket ("GPT-4o"), without "baseline"/"the"/"its"."""
    item = re.split(r",\s*(?:and\s+)?|\s+and\s+", listed.strip(" ,"))[-1]
    item = re.sub(
        r"^(?:(?:and|the|its|their|our|a|an|baselines?|strong|previous)\s+)+", "", item.strip(), flags=re.I
    )
    return item.strip() or None


def _subject(text: str, t: _Tok, kind: str | None, s0: int) -> tuple[str, str | None]:
    """``("baseline", name)`` for a number reported for a compared method, else ``("ours", None)``.

    Rules (GUIDELINES: "Numbers in a 'vs.' or 'compared to' clause are baseline scores"; "GRPO's 40.1%";
    "(61.0% vs 42.9%)"): a vs./versus/compared-to cue right before the number; a possessive right before
    it; or a parenthesised list of plain scores right after a comparator ("outperforming X (86.0%)").
    Signed numbers and changes (delta, relative_change, multiplier, before_after) are the paper's own.
    """
    if t.signed or kind in ("delta", "relative_change", "multiplier", "before_after"):
        return "ours", None
    pre = text[max(s0, t.span_start - 60) : t.span_start]
    pre_q = _QUAL_TEXT.sub("", pre)
    m = _BASELINE_CUE.search(pre_q)
    if m and not re.search(r"\d", m["name"]):
        name = re.sub(r"[’']s$", "", m["name"].strip()) or None
        if name is None:  # "(vs. 42.9% for GPT-4o)": the name follows the number
            fm = _NAME_AFTER.match(text, t.span_end)
            name = fm["name"] if fm else None
        return "baseline", name
    m = _POSSESSIVE.search(pre_q)
    if m and not re.match(r"(?i)our|its|their|model|method", m["name"].split()[-1]):
        return "baseline", m["name"].split()[-1]
    po = text.rfind("(", s0, t.span_start)
    pc = text.rfind(")", s0, t.span_start)
    if po > pc and re.fullmatch(r"[\s\d.,%×x+and&<>~≈]*", text[po + 1 : t.span_start]):
        stripped = re.sub(r"\([^()]*\)", "", text[s0:po])
        cm = None
        for cm in _COMPARATOR.finditer(stripped):  # noqa: B007 (the last match)
            pass
        if cm is not None:
            between = stripped[cm.end() :]
            if not re.search(r"\d\s?(?:%|×)", between) and len(between) < 80:
                return "baseline", _one_baseline(between)
    return "ours", None


def _direction(text: str, t: _Tok, kind: str, lo: int, hi: int) -> str | None:
    """Which way the measured quantity moved (GUIDELINES: verb or sign; "faster"/"speedup" -> increase)."""
    if kind == "before_after":
        return "increase" if t.value > (t.vfrom or 0) else "decrease" if t.value < (t.vfrom or 0) else None
    if kind == "score":
        return None
    if t.signed:
        return "decrease" if t.value < 0 else "increase"
    near = text[t.span_end : min(hi, t.span_end + 30)]
    before = text[max(lo, t.span_start - 70) : t.span_start]
    for seg, pick in ((near, min), (before, max)):
        d = [(m.start(), "increase") for m in _UP.finditer(seg)] + [
            (m.start(), "decrease") for m in _DOWN.finditer(seg)
        ]
        if d:
            return pick(d)[1]
    return None


def _kind(text: str, t: _Tok, lo: int, hi: int, metric: str | None) -> str:
    """GUIDELINES kinds. ``x`` → multiplier; ``pp`` → delta; ``%``/plain: relative_change when the text says
    "relative", when N% is "fewer/less/shorter/smaller", or when the changed quantity is an amount (FLOPs,
    memory, tokens, cost, time, size, error rate, load…: :data:`_AMOUNT`); delta for "by N", "+N",
    "N% gain/drop/improvement", "gain of N%", "outperforms X (by) N%"; otherwise score."""
    if t.kind:
        return t.kind
    if t.unit == "x":
        return "multiplier"
    if t.unit == "pp":
        return "delta"
    pre = _QUAL_TEXT.sub("", text[max(lo, t.span_start - 60) : t.span_start]).rstrip() + " "
    post = text[t.span_end : min(hi, t.span_end + 40)]
    near = text[max(lo, t.span_start - 25) : min(hi, t.span_end + 25)]
    if _RELATIVE.search(near) and not _ABSOLUTE.search(near):
        return "relative_change" if t.unit == "%" else "delta"
    if t.unit == "%" and re.match(
        r"\s*(?:fewer|less|smaller|shorter|cheaper|faster|slower|larger|more compact)\b"
        r"(?!\s+than\b)",
        post,
        re.I,
    ):
        return "relative_change"
    if t.unit == "%" and re.match(
        r"\s*of\s+(?:the\s+)?(?:\w+\s+)?(?:load|cost|time|memory|compute|FLOPs|tokens|"
        r"budget|storage|energy|size)\b",
        post,
        re.I,
    ):
        return "relative_change"
    by = re.search(r"\bby\s+(?:(?:an?\s+)?(?:\w+\s+)?(?:average|mean|margins?)\s+of\s+)?$", pre) is not None
    change_word = _DELTA_NEAR.match(post) is not None and not re.match(r"\s*or\s+(?:less|more|fewer)", post)
    if re.search(r"[’']s\s+$", pre):
        return "score"  # "the baseline's 30.2%"
    of_change = (
        re.search(
            r"\b(?:gains?|improvements?|increases?|reductions?|drops?|decreases?|gaps?)\s+"
            r"(?:\([^()]*\)\s+)?of\s+(?:\w+\s+){0,2}$",
            pre,
            re.I,
        )
        is not None
    )
    comparator = re.search(r"\b(?:outperform\w*|surpass\w*|beat\w*)\b[^\d%]{0,60}$", pre, re.I) is not None
    paren_change = (
        re.search(
            r"\b(?:gains?|loss|drops?|improvements?|degradation|increases?|decreases?)\s*\(\s*$", pre, re.I
        )
        is not None
    )
    # an explicit sign marks a change, except a negative plain score (a slope, a correlation); a percentage
    # level is never negative, so "-9% CHAIRi" is a change
    signed_change = t.signed and (t.value > 0 or t.unit == "%" or by or re.search(r"\bchang\w*\b", pre))
    if signed_change or by or change_word or of_change or comparator or paren_change:
        if t.unit == "%" and metric and _AMOUNT.search(metric):
            return "relative_change"
        # a % change that only goes down is a reduction of a quantity (dev gold: 14 of 17 such rows are
        # relative_change, while 58 of 66 % changes with an upward word are deltas)
        window = text[max(lo, t.span_start - 60) : min(hi, t.span_end + 40)]
        if t.unit == "%" and not t.signed and _DOWN.search(window) and not _UP.search(window):
            return "relative_change"
        return "delta"
    return "score"


_RESULT_CUE = re.compile(
    r"\b(achiev\w*|attain\w*|reach\w*|obtain\w*|scor\w*|yield\w*|outperform\w*|surpass\w*|improv\w*|"
    r"record\w*|report\w*|deliver\w*|get|gets|sets?|establish\w*|results?|accurac\w*|rate|performance)\b",
    re.I,
)


#: The most percentage points a change can have: both ends are percentages (0-100).
MAX_PP = 100.0


def _counts_points(unit_text: str, value: float, suffix: str | None) -> bool:
    """Whether a bare "points"/"pts" after a number counts things ("200k points", "1000 points": point clouds,
    data points) instead of being percentage points (GUIDELINES: "pp" for points "when they are percentage
    points"): a ``k`` suffix or a size above :data:`MAX_PP`. Measured on the dev corpus: 7 of its 279
    "N points" (86K, 200k, 1000, 75K, 8K ...; the 1.8M/1M ones are already names), all counts."""
    u = unit_text.lower().strip()
    return u.startswith(("point", "absolute", "pts")) and (bool(suffix) or abs(value) > MAX_PP)


def _accept_plain(text: str, t: _Tok, s0: int) -> bool:
    """Whether a number without %/pp/x is a reported result (GUIDELINES: plain scores "BLEU 28.4",
    "F1 of 0.91", "slope -0.38", "FID 2.9"; measures such as "65ms"; a baseline "versus 62.6")."""
    if t.setup:
        return False
    pre = text[max(s0, t.span_start - 40) : t.span_start]
    post = text[t.span_end : t.span_end + 30]
    if t.measure:
        u = (t.unit_text or "").strip()  # a measure always has its unit text
        if u == "s":
            return re.search(r"\b(?:vs\.?|versus)\s*$", pre) is not None
        if u in ("ms", "mm", "dB", "ms/frame", "ms/image", "s/frame", "µs", "μs", "ns"):
            return True  # times per item are results wherever they are written
        # other measures ("12 GB", "30 fps") are results only next to a change, a comparison or a metric word
        ctx = text[max(s0, t.span_start - 50) : t.span_end + 40]
        return bool(_UP.search(ctx) or _DOWN.search(ctx) or _LEX.search(ctx) or _AMOUNT.search(ctx))
    if t.decimal and _correlation_before(text, s0, t.span_start):
        return True
    if re.match(r"\s?/\s?\d", post) or re.search(r"\d\s?/\s?$", pre):
        return False  # fractions such as 5/5, 1/2
    if not (t.decimal or t.signed):
        return False  # plain integers are counts unless a unit says otherwise
    if re.search(r"\b(?:margins?|gaps?)\s+of\s+$", pre):
        return True  # "outperforms X by a huge margin of 9.3"
    pre_q = _QUAL_TEXT.sub("", pre).rstrip() + " "
    if re.search(
        rf"(?:{_LEX_WORDS})\s*(?:\([^()]*\)\s*)?(?:of|is|was|=|:|at|reaches|reaching|to|"
        rf"(?:drops?|falls?|rises?|improves?|increases?|decreases?)\s+(?:to|from))?\s*$",
        pre_q,
        re.I,
    ):
        return True
    if re.match(rf"\s?(?:±\s?\d+(?:\.\d+)?\s)?(?:{_LEX_WORDS})(?![\w-])", post, re.I):
        return True
    if t.signed:
        return True
    if re.match(r"\s(?:on|in)\s+(?:the\s+)?[A-Z]", post) and _RESULT_CUE.search(text[s0 : t.span_start]):
        return True
    if re.search(r"\b(?:vs\.?|versus)\s*$", pre):
        return True
    return False


_LIST_GAP = re.compile(
    r"\s*(?:(?:on|in)\s+(?:the\s+)?[^,;.()%]{1,40}?)?\s*(?:,\s*and|,|and|or|/)\s*(?:by\s+)?"
)


_ANY_DIGIT = re.compile(r"\d")
#: Rule names of the ways a number becomes a row (``_Tok.why``).
_WHY_RULE = {
    "from-to": "before-after",
    "range": "range",
    "slash": "slash-pair",
    "spelled": "spelled-number",
    "unit-%": "accept-unit",
    "unit-pp": "accept-unit",
    "unit-x": "accept-unit",
}


def extract_metrics(text: str) -> list[dict]:
    """Return one row per reported result metric in the clean ``text`` (keys :data:`METRIC_FIELDS`).

    Row fields: ``value`` float (None only for a range), ``value_text`` str as written (sign kept, e.g.
    "-0.38", "1.2k"), ``unit`` one of :data:`METRIC_UNITS`, ``kind`` one of :data:`METRIC_KINDS`,
    ``value_from`` (before_after), ``value_low``/``value_high`` (range, or a score's CI), ``metric``/
    ``dataset``/``baseline`` str or None as the text names them, ``subject`` "ours"|"baseline", ``direction``
    "increase"|"decrease"|None, ``qualifier`` one of the GUIDELINES qualifiers or None, ``span`` =
    ``text[start:end]`` (qualifier, number and unit), ``start``/``end`` int offsets into ``text``.
    Never raises on str input; non-str input raises ``TypeError``. Rows are in text order.
    """
    if not isinstance(text, str):
        raise TypeError(f"extract_metrics expects str, got {type(text).__name__}")
    has_digit = _ANY_DIGIT.search(text) is not None
    spelled = (_spelled(text) if _SPELLED_GATE.search(text) else []) + (
        _word_results(text) if _WORD_GATE.search(text) else []
    )
    if not has_digit and not spelled:
        return []
    sents = sentences(text)
    toks = _pair_structures(text, _tokens(text))
    if spelled:
        # a word result replaces a setup token it covers ("1st place"), never a kept number
        kept_toks = [
            t for t in toks if not (t.setup and any(t.num_start <= s.num_start < t.end for s in spelled))
        ]
        spelled = [s for s in spelled if not any(t.num_start <= s.num_start < t.end for t in kept_toks)]
        toks = sorted(kept_toks + spelled, key=lambda t: t.span_start)
    # plain decimals listed before an accepted one share its status: "92.4, 88.7 and 85.1 on SST-2, …"
    for j in range(len(toks) - 2, -1, -1):
        t, n = toks[j], toks[j + 1]
        if (
            not t.accepted
            and not t.setup
            and t.unit is None
            and not t.measure
            and t.decimal
            and n.unit is None
            and not n.setup
            and (n.accepted or _accept_plain(text, n, 0))
            and _LIST_SEP.fullmatch(text[t.span_end : n.span_start])
        ):
            n.accepted = t.accepted = True
    kept: list[tuple[_Tok, int, int, int, int]] = []
    for t in toks:
        if t.setup:
            continue
        s0, s1 = next(((a, b) for a, b in sents if a <= t.span_start < b), (0, len(text)))
        if not t.accepted:
            t.accepted = t.unit in ("%", "pp", "x") or _accept_plain(text, t, s0)
            t.why = t.why or (f"unit-{t.unit}" if t.unit else "measure-unit" if t.measure else "plain-result")
        if not t.accepted:
            continue
        # the same value restated in brackets right after ("2x cheaper (~2× fewer GPU hours)"): one fact
        if (
            kept
            and kept[-1][0].value == t.value
            and kept[-1][0].unit == t.unit
            and re.fullmatch(r"[^()\d]{0,40}\(\s*[~≈]?\s*", text[kept[-1][0].span_end : t.span_start])
        ):
            continue
        lo, hi = _clause_bounds(text, s0, s1, t.span_start)
        kept.append((t, s0, s1, lo, hi))

    rows: list[dict] = []
    attached = []  # (start, end) of "N on X" attachments, so X is not reused for another number
    for t, s0, s1, lo, hi in kept:  # noqa: B007 (the tuple shape of kept)
        m = _PREP_NAME.match(text, t.span_end + 1) if text[t.span_end : t.span_end + 1] == " " else None
        if m:
            attached.append((m.start(), m.end()))
    for i, (t, s0, s1, lo, hi) in enumerate(kept):
        qualifier, q_start = _qualifier(text, t, s0)
        metric = t.group if t.why == "slash" else None
        metric = _tidy_metric(metric or _metric_after(text, t, hi) or _metric_before(text, t, lo))
        row_rules = ["metric-lexicon"] if metric else []
        unit_word = (t.unit_text or "").strip() if t.measure else ""
        if unit_word in V.UNIT_METRICS:
            metric, row_rules = V.UNIT_METRICS[unit_word], ["metric-unit"]
        if not metric:
            metric, rule = _metric_open(text, t, s0, lo, hi)
            metric = _tidy_metric(metric)
            row_rules += [rule] if metric and rule else []
        dataset = None
        row_rules.insert(0, _WHY_RULE.get(t.why, t.why) if t.why else "plain-result")
        # a benchmark inside the metric phrase: "improves BoolQ performance by 18.1 pp"
        if metric and not _LEX.fullmatch(metric):
            bm = re.match(
                r"([A-Z][\w\-.]*[A-Z0-9][\w\-.]*)\s+(performance|accuracy|scores?|results?)$", metric
            )
            if bm and not _MODEL_NAME.search(bm[1]) and not _LEX.fullmatch(bm[1]):
                dataset, metric = bm[1], bm[2]
                row_rules.append("dataset-in-metric")
        subject, baseline = ("ours", None) if t.unit in ("x", "pp") else _subject(text, t, None, s0)
        kind = "score" if subject == "baseline" and t.kind is None else _kind(text, t, lo, hi, metric)
        # dataset: after the number (before the next number) in the sentence, else earlier in the sentence
        nxt = kept[i + 1][0].span_start if i + 1 < len(kept) and kept[i + 1][1] == s0 else s1
        if not dataset:
            dataset = _dataset_after(text, t.span_end, min(nxt, hi))
            if dataset:
                row_rules.append("dataset-after")
            else:
                dataset = _dataset_before(text, s0, t.span_start, attached)
                row_rules += ["dataset-before"] if dataset else []
        if subject == "baseline":
            row_rules.append("subject-baseline")
        if subject == "ours" and kind in ("delta", "relative_change", "multiplier"):
            bm = re.search(
                r"\b(?:over|than|outperform\w*|surpass\w*|beat\w*|against|compared (?:to|with))\s+"
                r"(?:the\s+)?(?:[\w-]+\s+)?(?P<n>[A-Z][\w\-.]*(?:\s[A-Z][\w\-.]*)?)",
                text[lo:hi],
            )
            baseline = bm["n"] if bm and not re.match(r"SOTA|State", bm["n"]) else None
        rows.append(
            dict(
                value=None if kind == "range" else t.value,
                value_text=t.text if kind != "range" else text[t.span_start : t.num_end],
                unit=t.unit,
                unit_text=(t.unit_text or "").strip() or None,
                kind=kind,
                value_from=t.vfrom,
                value_low=t.low,
                value_high=t.high,
                metric=metric,
                dataset=dataset,
                subject=subject,
                baseline=baseline,
                direction=_direction(text, t, kind, lo, hi),
                qualifier=qualifier,
                span=text[q_start : t.span_end],
                start=q_start,
                end=t.span_end,
                rules=row_rules + (["unsigned-multiplier"] if t.dash else []),
                _s0=s0,
                _s1=s1,
                _lo=lo,
                _hi=hi,
                _paren=_in_paren(text, s0, t.span_start),
            )
        )
    _share_across_lists(text, rows)
    linking.link_respectively(text, rows, sents)
    linking.share_clause_metric(text, rows)
    linking.share_baseline_dataset(text, rows)
    linking.share_sentence_dataset(text, rows)
    linking.share_abstract_dataset(text, rows)
    out = []
    for r in _level_invariants(rows):
        r["metric_key"], r["dataset_key"] = metric_key(r["metric"]), dataset_key(r["dataset"])
        out.append({k: r[k] for k in METRIC_FIELDS})
    return out


#: Rule name of the row-assembly guard that turns a negative percentage "score" into a change.
NEGATIVE_PERCENT_RULE = "negative-percent-change"
#: Rule name (in code only: its rows are not published) of the guard that refuses a multiplier <= 0.
POSITIVE_MULTIPLIER_RULE = "positive-multiplier"


def _level_invariants(rows: list[dict]) -> list[dict]:
    """The last rules of row assembly, so that every row satisfies the table invariant
    ``schemas.models.PaperMetrics.non_negative_levels`` whatever the rules before decided:

    - :data:`NEGATIVE_PERCENT_RULE`: a percentage level is never negative, so a negative % row of kind
      ``score`` is a change: kind ``delta``, direction ``decrease`` (the sign), the rule appended to ``rules``
      (e.g. "the baseline's -5.1% accuracy drop", where the possessive made it a baseline's level).
    - :data:`POSITIVE_MULTIPLIER_RULE`: a multiplier is never zero or negative; such a number is not a
      result (a list sharing "x" with a signed number, "-3 and 5 times"), so the row is refused. A minus
      sign written before an "x" number is already read as a dash by ``_tokens`` (rule unsigned-multiplier).

    Returns the rows kept, in order; changed rows are changed in place.
    """
    kept = []
    for r in rows:
        if r["kind"] == "multiplier" and r["value"] is not None and r["value"] <= 0:
            continue  # POSITIVE_MULTIPLIER_RULE
        if r["kind"] == "score" and r["unit"] == "%" and r["value"] is not None and r["value"] < 0:
            r["kind"], r["direction"] = "delta", "decrease"
            r["rules"] = [*r["rules"], NEGATIVE_PERCENT_RULE]
        kept.append(r)
    return kept


def _in_paren(text: str, s0: int, pos: int) -> int:
    """Offset of the unclosed "(" before ``pos`` in its sentence, or -1."""
    po = text.rfind("(", s0, pos)
    return po if po > text.rfind(")", s0, pos) else -1


def _share_across_lists(text: str, rows: list[dict]) -> None:
    """Fill attributes across coordinated numbers (in place).

    - A list "by 31.88% and 10.95%", "2.24% on EGTEA, 3.97% on MECCANO, and 1.49%" shares the head's kind,
      metric, qualifier "up to" and baseline ("33.9% and 32.2% accuracy" shares the tail's metric).
    - "… respectively": a list of benchmark names after the list is distributed by position.
    - A number in brackets or after vs. inherits metric/dataset of the number it is compared to; a bracketed
      list of baselines is aligned by position with the earlier list of the paper's numbers
      ("91.1% on CRUXEval and 86.5% on LiveCodeBench, outperforming X (86.0% and 77.7%)").
    """
    groups: list[list[int]] = []
    for i, r in enumerate(rows):
        if (
            i
            and rows[i - 1]["_s0"] == r["_s0"]
            and rows[i - 1]["_paren"] == r["_paren"]
            and (rows[i - 1]["unit"] == r["unit"])
            and _LIST_GAP.fullmatch(text[rows[i - 1]["end"] : r["start"]])
        ):
            groups[-1].append(i)
        else:
            groups.append([i])
    for g in groups:
        if len(g) < 2:
            continue
        members = [rows[i] for i in g]
        head = members[0]
        change = next((m["kind"] for m in members if m["kind"] in ("delta", "relative_change")), None)
        metric = next((m["metric"] for m in members if m["metric"]), None)
        dataset = next((m["dataset"] for m in members if m["dataset"]), None)
        for m in members:
            m["dataset"] = m["dataset"] or dataset
            if change and m["kind"] == "score":
                m["kind"], m["direction"] = change, head["direction"]
            m["metric"] = m["metric"] or metric
            if head["qualifier"] == "up to" and m["qualifier"] is None:
                m["qualifier"] = "up to"
            if m["subject"] == head["subject"]:
                m["baseline"] = m["baseline"] or head["baseline"]
    # bracketed / vs. numbers inherit from the number they are compared to
    for i, r in enumerate(rows):
        if i == 0 or rows[i - 1]["_s0"] != r["_s0"]:
            continue
        if (
            r["subject"] == "baseline"
            or (r["_paren"] >= 0 and r["_paren"] > rows[i - 1]["start"])
            or (
                r["_paren"] >= 0
                and r["_paren"] == rows[i - 1]["_paren"]
                and rows[i - 1]["subject"] == "baseline"
            )
        ):
            src = rows[i - 1]
            r["metric"] = r["metric"] or src["metric"]
            r["dataset"] = r["dataset"] or src["dataset"]
            if (
                r["kind"] == "score"
                and src["kind"] in ("delta", "relative_change")
                and r["subject"] == "ours"
                and src["unit"] == r["unit"]
            ):
                r["kind"], r["direction"] = src["kind"], src["direction"]  # "by 1% (notably 4% on GSM8K)"
    # bracketed baseline lists aligned by position with the paper's earlier list
    for g in groups:
        members = [rows[i] for i in g]
        if not all(m["subject"] == "baseline" for m in members) or members[0]["_paren"] < 0:
            continue
        for h in groups:
            hm = [rows[i] for i in h]
            if (
                h[0] < g[0]
                and len(hm) == len(members)
                and hm[0]["_s0"] == members[0]["_s0"]
                and all(m["subject"] == "ours" for m in hm)
            ):
                for m, src in zip(members, hm):
                    m["dataset"] = src["dataset"] or m["dataset"]
                    m["metric"] = m["metric"] or src["metric"]
    # a change with no metric of its own, in a clause that names exactly one metric and no other number
    # ("state-of-the-art accuracy on VQA-CP v2 with a 7.55% improvement")
    for r in rows:
        if r["metric"] is None and r["kind"] in ("delta", "relative_change"):
            lo, hi = _clause_bounds(text, r["_s0"], len(text), r["start"])
            lo = max(lo, text.rfind(",", lo, r["start"]) + 1)
            comma = text.find(",", r["end"], hi)
            hi = comma if comma >= 0 else hi
            clause = text[lo:hi]
            names = {m[0].lower() for m in _LEX.finditer(clause)}
            others = [x for x in rows if x is not r and lo <= x["start"] < hi]
            first = _LEX.search(clause)
            if len(names) == 1 and not others and first:
                r["metric"] = first[0]
    # a change reported after a comparator with no metric of its own takes the metric of the sentence's score
    for i, r in enumerate(rows):
        if (
            r["metric"] is None
            and r["kind"] == "delta"
            and i
            and rows[i - 1]["_s0"] == r["_s0"]
            and rows[i - 1]["kind"] == "score"
            and re.search(r"\b(?:surpass\w*|outperform\w*|beat\w*)\b", text[rows[i - 1]["end"] : r["start"]])
        ):
            r["metric"] = rows[i - 1]["metric"]
