"""Number tokens of a clean abstract: sign, value, unit, and the setup rules that reject a number (steps 1-3
of :mod:`pipeline.analyse.extraction.metrics`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.dataset_names import accept_slash_sets
from pipeline.analyse.extraction.patterns import (
    LEX,
    LEX_GLUED,
    LEX_WORDS,
    LIST_SEP,
    METRIC_POINTS,
    POINT_SCALE_METRIC,
    QUAL_WORDS,
    SPREAD,
    SPREAD_SIGN,
    correlation_before,
    metric_equals,
    time_taken,
)

_MINUS = "-−–"  # ASCII hyphen-minus, U+2212 minus, en dash used as a minus sign
_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])(?:\.\d+)?|\d+(?:[.,]\d+)?|\.\d+)"
# unit right after a number; order matters (longest first).  GUIDELINES: "%" for %, percent; "pp" for
# percentage points / points ("%p", the percent-point sign of Korean and Japanese writing, is pp); "x" for ×, x,
# -fold, times.
_UNIT = re.compile(
    r"\s?(?P<u>%\s?(?:points?|pts)\b|%p\b|%|percent(?:age)?[\s-]points?\b|percentage[\s-]?pts?\b|pp\b|p\.p\.|percent\b|"
    r"(?:absolute\s+)?points?\b|pts\b|"
    # "a 4-point gain", "+4-point mAP": hyphenated points of a change or of a metric; "a 5-point scale", "the
    # 8-point algorithm" are setup
    r"-points?(?=\s+(?:absolute\s+)?(?:improvements?|gains?|boosts?|increases?|decreases?|drops?|declines?|"
    rf"reductions?|leads?|margins?|higher|lower|better|worse|(?-i:{LEX_WORDS}))\b)|"
    r"[×✕]|[xX](?![\w])|-?fold\b|[\s-]?times\b|"
    rf"(?-i:{V.alternation(V.MEASURE_UNITS)})(?![\w/])|s\b(?=\s*(?:[,.;)]|for\b|vs\b|on\b|$)))"
)
_TOKEN = re.compile(rf"(?P<sign>[+±{re.escape(_MINUS)}])?(?P<num>{_NUM})(?P<suf>[kK](?![\w-]))?")

# Words that make a number a setup quantity when they follow it (GUIDELINES "NOT metrics").
_SETUP_AFTER = re.compile(
    rf"\s?(?:[-–]\s?{V.alternation(V.SETUP_HYPHEN_SUFFIXES)}\b|"
    r"(?:th|st|nd|rd)\b|%?\s*(?:CI|confidence)\b|"
    rf"\s*(?:billion|million|thousand|trillion|[BMKT])\b|(?:[-\s]{V.alternation(V.SETUP_NOUNS)}\b))"
)
#: A verb that takes away right before "N% of <setup>" ("reduces more than 90% of parameters", "saves 40% of
#: the memory"): the share is what the method removed, a result (GUIDELINES: "reduces KV cache size by 80%").
_CUT_BEFORE = re.compile(
    rf"\b(?:reduc|cut|sav|decreas|lower|shrink)\w*\s+(?:{QUAL_WORDS})?\s*$",
    re.I,
)
_PCT_SETUP_AFTER = re.compile(rf"\s*of\s+(?:the\s+)?(?:\w+\s+)?{V.alternation(V.PERCENT_OF_SETUP)}\b", re.I)
# the level word may follow the second end of a range or pair ("50%-70% sparsity", "30% to 100% labeled")
_PCT_SETUP_LEVEL = re.compile(
    r"(?:\s*(?:[-–]|to|and|or)\s*\d+(?:\.\d+)?\s?%)?"
    rf"[\s-]*{V.alternation(V.PERCENT_SETUP_LEVELS)}\b(?![\s-]+{V.alternation(V.METRIC_NAMES)}(?![\w-]))",
    re.I,
)


def _fnum(s: str) -> float:
    """Parse a number token: thousands separators (``1,024``) vs decimal comma (``81,2``)."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", s):
        return float(s.replace(",", ""))
    return float(s.replace(",", "."))


@dataclass(slots=True, kw_only=True, eq=False)
class Tok:
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
    dataset: str | None = None
    why: str | None = None
    dash: bool = False
    setup_rule: str | None = None


# Setup rules (GUIDELINES "NOT metrics"): a number one of them matches is part of a name or describes the
# setup, never a row. Each is named, with a reason and examples, in pipeline.analyse.extraction.rules.RULES; the
# names are not written into any row's ``rules`` (a rejected number has no row).
#: Dropped before it is a token: the rules that read what is glued before the digits.
#: How a number got the unit of the metric points after it ("52.7 accuracy points"); rule metric-points.
METRIC_POINTS_RULE = "metric-points"
SETUP_IN_NAME = "setup-in-name"
SETUP_EXPONENT = "setup-exponent"
SETUP_GLUED_BEFORE = "setup-glued-before"
#: Kept as a token flagged ``setup`` (so a range or list still sees it), never a row.
SETUP_GLUED_SUFFIX = "setup-glued-suffix"
SETUP_DIMENSIONS = "setup-dimensions"
SETUP_WORD_AFTER = "setup-word-after"
SETUP_PERCENT_OF = "setup-percent-of"
SETUP_PERCENT_LEVEL = "setup-percent-level"
SETUP_YEAR = "setup-year"
SETUP_CONFIDENCE_LEVEL = "setup-confidence-level"
SETUP_CROSS_VALIDATION = "setup-cross-validation"
SETUP_REPETITIONS = "setup-repetitions"
SETUP_UNCERTAINTY = "setup-uncertainty"
SETUP_MATH_VARIABLE = "setup-math-variable"
SETUP_ZERO_MULTIPLIER = "setup-zero-multiplier"
#: Every setup rule name, in the order the code applies them.
SETUP_RULES = (
    SETUP_IN_NAME,
    SETUP_EXPONENT,
    SETUP_GLUED_BEFORE,
    SETUP_GLUED_SUFFIX,
    SETUP_DIMENSIONS,
    SETUP_WORD_AFTER,
    SETUP_PERCENT_OF,
    SETUP_PERCENT_LEVEL,
    SETUP_YEAR,
    SETUP_CONFIDENCE_LEVEL,
    SETUP_CROSS_VALIDATION,
    SETUP_REPETITIONS,
    SETUP_UNCERTAINTY,
    SETUP_MATH_VARIABLE,
    SETUP_ZERO_MULTIPLIER,
)
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_REPEAT_VERB = re.compile(
    r"\b(?:repeat|appear|occur|run|sampl|quer|call|iterat|execut|visit|seen|used)\w*\s+(?:\w+\s+){0,2}$"
)
#: A variable (one letter, or a letter and one more character: "k", "n1", "λ") before a comparison: math,
#: not a result; a two-letter English word before the sign is not a variable ("by > 60%", "is ≈ 3%").
_MATH_BEFORE = re.compile(
    r"(?<!\w)(?!(?:by|to|of|in|at|is|as|on|or|be|an|up|vs|if|so|it|we)\s*[≥≤<>=≠])"
    r"[A-Za-zα-ωΑ-Ω]\w?\s*[≥≤<>=≠]\s*$"
)


@dataclass(slots=True, frozen=True)
class _Number:
    """A number as read before the setup rules: ``a`` its start with the sign, ``na``/``b`` the digits (with
    a ``k`` suffix), ``ue`` the end after its unit; ``u`` the unit as written, lower-cased ("" for none)."""

    a: int
    na: int
    b: int
    ue: int
    num: str
    sign: str
    suf: str | None
    value: float
    unit: str | None
    unit_text: str | None
    measure: bool
    u: str
    why: str | None = None


#: A name with a numeric suffix and a joint right before a "-N": "CIFAR-10 and -100", "ResNet-18, -34".
_NAME_SUFFIX_BEFORE = re.compile(
    r"[A-Za-z][\w.]*-\d+(?:\.\d+)?\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)$"
)


def _sign_and_start(text: str, m: re.Match, last_end: int) -> tuple[str, int] | None:
    """The sign of the number ``m`` and where the token starts, or None when a hyphen glues it to a name
    (rule :data:`SETUP_IN_NAME`: "GPT-4", "Llama-3.1", "CIFAR-10")."""
    a, na = m.start(), m.start("num")
    before = text[max(0, a - 1) : a]
    sign = (m["sign"] or "").strip()
    minus = bool(sign) and sign in _MINUS
    if minus and text[last_end:a].strip() == "" and a - last_end <= 2:
        return "", na  # "57%-77%", "21% - 64%", "2.3x -14.9x": a range, not a negative number
    if minus and before and (before.isalnum() or before in "×x"):
        # a "-" glued after a letter/digit is a hyphen, not a minus sign: a range after a digit, else a name
        if before.isdigit() or (before in "×xX" and a >= 2 and text[a - 2].isdigit()):
            return "", na  # "2-3", "3x-5x": range separator, paired later
        return None
    if sign == "-" and before == "-":
        return "", na  # "2--3" (LaTeX en dash), "layers---8x deeper" (a LaTeX dash is punctuation)
    if minus and text[a:na] == "-" and _NAME_SUFFIX_BEFORE.search(text, max(0, a - 40), a):
        return None  # "CIFAR-10 and -100", "ResNet-18, -34 and -50": the suffix of a coordinated name
    return sign, a


def _glued_before(text: str, a: int) -> str | None:
    """The setup rule that drops a number by what is glued before it ("2^{16}", "v1.2", "@0.5", "$5"), or None."""
    prev = text[max(0, a - 1) : a]
    # "87.5/89.1", "81%/14%": the second number of a slash pair
    after_slash = prev == "/" and a >= 2 and (text[a - 2].isdigit() or text[a - 2] == "%")
    if prev == "{" and a >= 2 and text[a - 2] in "^_":
        return SETUP_EXPONENT  # exponent/subscript "2^{16}"
    if prev == "=" and (correlation_before(text, 0, a) or metric_equals(text, a)):
        prev = ""  # "τ=0.64", "FID=9.91": a statistic or a metric given its value, not a formula
    if (
        prev
        and not after_slash
        and (
            (prev.isalnum() and prev < "\u2e80")
            or prev in "._@^/=\\#$€£"
            or (prev in "×x" and a >= 2 and text[a - 2].isdigit())
        )
    ):
        return SETUP_GLUED_BEFORE  # inside a word/name/version/exponent/resolution/price
    return None


#: A multiplier sign written before the number, with a comparative after it: "x3 speedup", "up to ×8 faster",
#: "(×4.1times)" (rule prefix-multiplier); without the comparative "x4" is a setting ("super-resolution x4").
_PREFIX_MULTIPLIER_AFTER = re.compile(
    r"(?:\s?(?:times\s*)?(?:faster|slower|speed-?ups?|accelerat\w*|more|less|fewer|smaller|larger|higher|lower|"
    r"reductions?|improvements?|compression|cheaper|better|gains?|increase)|times)\b",
    re.I,
)
PREFIX_MULTIPLIER_RULE = "prefix-multiplier"


def _prefix_multiplier(text: str, na: int, b: int) -> bool:
    """Whether the number ``text[na:b]`` has a multiplier sign glued before it that is its unit ("x3 speedup")."""
    return (
        na >= 1
        and text[na - 1] in "x×X"
        and (na < 2 or not (text[na - 2].isalnum() or text[na - 2] in "._-"))
        and _PREFIX_MULTIPLIER_AFTER.match(text, b) is not None
    )


def _unit_at(
    text: str, b: int, value: float, suf: str | None
) -> tuple[str | None, str | None, bool, int, str]:
    """The unit written right after ``text[:b]``: (unit class, unit text, is a measure, end, unit lower-cased)."""
    um = _UNIT.match(text, b)
    if um is None or counts_points(um["u"], value, suf):
        return None, None, False, b, ""
    u = um["u"].lower().strip()
    if u == "%" or (u.startswith("percent") and "point" not in u and "pt" not in u):
        return "%", um["u"], False, um.end(), u
    if "point" in u or u in ("pp", "p.p.", "pts", "%p") or "pt" in u:
        return "pp", um["u"], False, um.end(), u
    if u in ("×", "✕", "x") or u.endswith("fold") or u.lstrip("-") == "times":
        return "x", um["u"], False, um.end(), u
    return None, um["u"], True, um.end(), u


def _read_number(text: str, m: re.Match, sign: str, a: int) -> _Number:
    """Digits, ``k`` suffix, value and unit of the token ``m`` (a comma list "1,2" keeps its first number)."""
    na, b = m.start("num"), m.end("num")
    num = m["num"]
    if "," in num and not _THOUSANDS.fullmatch(num) and not re.match(r"\s?%", text[b : b + 2]):
        # "1,2" is a list unless a percent sign follows ("81,2 %": decimal comma, fixtures M30)
        num = num.split(",")[0]
        b = na + len(num)
    suf = m["suf"] if m.end("num") == b else None
    if suf:
        b = m.end()
    value = _fnum(num) * (1000.0 if suf else 1.0)
    if sign and sign in _MINUS:
        value = -value
    unit, unit_text, measure, ue, u = _unit_at(text, b, value, suf)
    spread = SPREAD.match(text, b) if unit is None and not measure and not suf else None
    if spread:
        # "68±3% accuracy", "11.3±9.5% EER": the unit written once after the spread is the number's too
        s_unit, s_text, s_measure, s_end, s_u = _unit_at(text, spread.end(), value, None)
        if s_unit or s_measure:
            unit, unit_text, measure, ue, u = s_unit, s_text, s_measure, s_end, s_u
    if unit == "%" and METRIC_POINTS.match(text, ue):
        unit = "pp"  # "12.5% mean average precision (mAP) points": percentage points of the metric between
    if unit is None and not measure and not suf:
        # rule metric-points: "52.7 accuracy points", "1–5 F1 points" are percentage points of the metric
        # named between; points of a metric on its own scale ("6 BLEU points") are that metric's units
        mp = METRIC_POINTS.match(text, b)
        if mp and not POINT_SCALE_METRIC.fullmatch(mp["metric"]):
            unit, unit_text, u = "pp", mp["points"], mp["points"].lower()
            return _Number(
                a, na, b, ue, num, sign, suf, value, unit, unit_text, measure, u, METRIC_POINTS_RULE
            )
    return _Number(a, na, b, ue, num, sign, suf, value, unit, unit_text, measure, u)


def setup_rule(text: str, n: _Number) -> str | None:
    """The first setup rule (:data:`SETUP_RULES`) that makes the read number ``n`` a setup quantity, or None."""
    has_unit, unit, b, ue = n.unit is not None or n.measure, n.unit, n.b, n.ue
    glued = text[b : b + 1]
    if (
        not has_unit
        and glued
        and (glued.isalpha() or glued in "_^")
        and not ("." in n.num and LEX_GLUED.match(text, b))
    ):
        return SETUP_GLUED_SUFFIX  # sizes and names: 7B, 32K, 3D, 1e-5 (but "0.8mIoU": a metric glued to a decimal)
    if unit == "x" and re.match(r"\s?\d", text[ue : ue + 2]):
        return SETUP_DIMENSIONS  # 256×256, 8×7B
    if unit is None and not n.measure and _SETUP_AFTER.match(text, b) and not time_taken(text, n.a, b):
        return SETUP_WORD_AFTER  # "4-bit", "5-shot", "8 GPUs", "3rd", "7 billion" (not "in under 5 minutes")
    if (
        unit == "%"
        and _PCT_SETUP_AFTER.match(text, ue)
        and not _CUT_BEFORE.search(text, max(0, n.a - 40), n.a)
    ):
        return SETUP_PERCENT_OF  # "1% of the parameters" (but "reduces 90% of the parameters" is a result)
    if unit == "%" and _PCT_SETUP_LEVEL.match(text, ue):
        return SETUP_PERCENT_LEVEL  # "at 90% sparsity", "with 1% labeled data"
    if unit is None and not n.measure and re.fullmatch(r"(?:19|20)\d\d", n.num) and not n.sign:
        return SETUP_YEAR
    if re.match(r"\s?%\s*(?:CI|confidence)\b", text[b : b + 16]):
        return SETUP_CONFIDENCE_LEVEL  # "95% CI"
    if unit == "x" and re.match(r"[\s-]*cross", text[ue : ue + 8]):
        return SETUP_CROSS_VALIDATION  # "5-fold cross-validation"
    repeated = n.u == "times" and _REPEAT_VERB.search(text[max(0, n.na - 40) : n.na])
    if unit == "x" and repeated and not _PREFIX_MULTIPLIER_AFTER.match(text, ue):
        return SETUP_REPETITIONS  # "repeated over 60,000 times", not "runs 24 times faster"
    if re.search(rf"{SPREAD_SIGN}\s?$", text[max(0, n.na - 4) : n.na]) or n.sign == "±":
        return SETUP_UNCERTAINTY  # the uncertainty of "88.1 ± 0.3", "95.12+-0.02", "88.1 +/- 0.3"
    corr = correlation_before(text, 0, n.a) if "." in n.num else None
    # a correlation statistic ("r = 0.91", "τ=0.64", "Spearman's ρ of 0.71") is not math about a variable
    if (
        not (corr and n.value <= 1.0 and not has_unit)
        and _MATH_BEFORE.search(text[max(0, n.a - 8) : n.a])
        and not metric_equals(text, n.a)  # "F1 = 0.71": a metric, not a variable
    ):
        return SETUP_MATH_VARIABLE  # math about a variable: "A ≥ 0 times", "k = 5", "n < 10"
    if unit == "x" and n.value == 0:
        return SETUP_ZERO_MULTIPLIER  # "0×" is never a reported multiplier
    return None


def number_tokens(text: str, rejected: list[tuple[str, int]] | None = None) -> list[Tok]:
    """All number tokens of ``text`` with sign, value, unit and the setup rule that flags one (steps 1-2 of
    :mod:`pipeline.analyse.extraction.metrics`), in text order. Offsets index ``text``. A number dropped by a
    rule that reads what is glued before it is not a token; when ``rejected`` is given, ``(rule name, offset
    of the digits)`` is appended to it for each such number."""
    toks: list[Tok] = []
    last_end = -10
    for m in _TOKEN.finditer(text):
        signed_at = _sign_and_start(text, m, last_end)
        drop = SETUP_IN_NAME if signed_at is None else _glued_before(text, signed_at[1])
        prefix = drop == SETUP_GLUED_BEFORE and _prefix_multiplier(text, m.start("num"), m.end("num"))
        if (drop is not None and not prefix) or signed_at is None:
            if rejected is not None:
                rejected.append((drop or SETUP_IN_NAME, m.start("num")))
            continue
        n = _read_number(text, m, *signed_at)
        if prefix:
            # rule prefix-multiplier: the sign before the digits is the unit; the token starts at it
            n = replace(n, a=n.na - 1, unit="x", unit_text=text[n.na - 1], u="x", why=PREFIX_MULTIPLIER_RULE)
        rule = setup_rule(text, n)
        sign, value, a = n.sign, n.value, n.a
        dash = n.unit == "x" and bool(sign) and sign in _MINUS
        if dash:
            # rule unsigned-multiplier: a multiplier is positive, so a minus sign before one is a dash
            # ("2.3x less -14.9x", "1.5 by × -1.9×": a range separator after the words were moved)
            sign, value, a = "", -value, n.na
        last_end = n.ue
        start = a if sign or prefix else n.na
        toks.append(
            Tok(
                start=start,
                end=n.ue,
                num_start=n.na,
                num_end=n.b,
                value=value,
                text=(sign + n.num + (n.suf or "")),
                signed=bool(sign and sign != "±"),
                unit=n.unit,
                unit_text=n.unit_text,
                measure=n.measure,
                decimal="." in n.num or "," in n.num and not re.fullmatch(r"\d{1,3}(?:,\d{3})+", n.num),
                setup=rule is not None,
                span_start=start,
                span_end=n.ue,
                dash=dash,
                setup_rule=rule,
                why=n.why,
            )
        )
    return toks


#: The most percentage points a change can have: both ends are percentages (0-100).
MAX_PP = 100.0


def counts_points(unit_text: str, value: float, suffix: str | None) -> bool:
    """Whether a bare "points"/"pts" after a number counts things ("200k points", "1000 points": point clouds,
    data points) instead of being percentage points (GUIDELINES: "pp" for points "when they are percentage
    points"): a ``k`` suffix or a size above :data:`MAX_PP`. Measured on the dev corpus: 7 of its 279
    "N points" (86K, 200k, 1000, 75K, 8K ...; the 1.8M/1M ones are already names), all counts."""
    u = unit_text.lower().strip()
    return u.startswith(("point", "absolute", "pts")) and (bool(suffix) or abs(value) > MAX_PP)


# "A up to B" is a range only after "from" ("ranging from 8% up to 40%"); "from A to B" alone is before-after
_RANGE_SEP = re.compile(r"\s?(?:--|–|—|-|~|∼|to|(?<=\s)up\sto)\s?")
_FROM = re.compile(r"\bfrom\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}(?:[\w@.-]+\s?=\s?)?$", re.I)

_ARROW = re.compile(r"\s?(?:→|->|⟶|⇒|=>)\s?")
# "from 35.7 mAP to 37.9 mAP": the words after the first number, repeated after the second
_TO_GAP = re.compile(rf"\s?(?P<w>(?:[^\s\d(),;]+\s){{1,2}})??to\s(?:(?:{QUAL_WORDS})\s*)?")
_PAIR_LIST_GAP = re.compile(r"[^.;()\d%]{0,50}?,\s*(?:and\s+)?")  # " on IMDb, " between two pairs of a list


def _before_after(text: str, t: Tok, n: Tok, prev: Tok | None) -> bool:
    """Whether ``t`` then ``n`` read "from A to B", "from A mAP to B mAP" or "A → B" (rule before-after), also
    as the next item of a list of such pairs after ``prev`` ("from 51.00% to 90.49% on IMDb, 39.8% to 58.06% on
    Yelp-5"); ``n`` becomes the pair's token. The extent of thresholds, sizes or several changes is a range,
    not a before/after ("ranging from", "Improvements over baselines are from 6% to 18%")."""
    gap = text[t.end : n.start]
    arrow = _ARROW.fullmatch(gap) is not None and t.unit == n.unit
    tm = _TO_GAP.fullmatch(gap)
    words = (tm["w"] or "") if tm else ""
    listed = (
        prev is not None
        and prev.kind == "before_after"
        and _PAIR_LIST_GAP.fullmatch(text[prev.end : t.start])
    )
    if not arrow and not (
        tm
        and (not words or text.startswith(words.strip(), n.end + (text[n.end : n.end + 1] == " ")))
        and (_FROM.search(text[max(0, t.start - 40) : t.start]) or listed)
        and not re.search(
            r"\b(?:thresholds?|rang\w*|vary\w*|varie\w*|sizes?|scal\w*|lengths?)\s+(?:\w+\s+)?from\s+$|"
            r"(?i:\b(?:improvements|gains|reductions)\b[^.;%\d]{0,30}?\b(?:are|were)\s+from\s+$)",
            text[max(0, t.start - 40) : t.start],
        )
        and (t.unit == n.unit or t.unit is None)
        and (t.decimal or n.decimal or n.unit or n.measure)
    ):
        return False
    n.kind, n.vfrom, n.span_start, n.accepted, n.why = "before_after", t.value, t.start, True, "from-to"
    return True


# a metric named right before two plain decimals: "maximum F1=0.93-0.96", "Pearson correlations of 0.91-0.99",
# "F1 scores ranging from 0.97 to 1.0"
_PLAIN_RANGE_CUE = re.compile(
    rf"(?<![\w-])(?:{LEX_WORDS})s?\s*(?:\([^()]*\)\s*)?(?:of|=|:|is|are|was|were|(?:ranging|range)\s+from|between)?\s*$",
    re.I,
)


def _plain_range(text: str, t: Tok, n: Tok) -> bool:
    """Whether two plain decimals after a metric name or before one ("1.3-1.5 BLEU") are a range (rule range)."""
    return (
        t.decimal
        and n.decimal
        and t.unit is None
        and not n.measure
        and (
            _PLAIN_RANGE_CUE.search(text, max(0, t.start - 60), t.start) is not None
            or correlation_before(text, 0, t.start) is not None
            or LEX_GLUED.match(text, n.end + (text[n.end : n.end + 1] == " ")) is not None
        )
    )


def _is_range(text: str, t: Tok, n: Tok) -> bool:
    """Whether ``t`` and ``n`` are the ends of a range: "10–20%", "2-3 points", "3x-5x", "26~35×", "1.5-2.3×";
    "between A and B%" (rule range)."""
    gap = text[t.end : n.start]
    sep = _RANGE_SEP.fullmatch(text[t.num_end : n.start] if t.unit is None else gap)
    sep_ok = sep is not None and (
        "up" not in sep[0] or _FROM.search(text, max(0, t.start - 40), t.start) is not None
    )
    is_range = (
        (t.unit is None or t.unit == n.unit or (t.unit, n.unit, n.unit_text) == ("%", "pp", "%"))
        and not t.measure
        and sep_ok
        and not t.signed
        and (n.unit is not None or n.measure or _plain_range(text, t, n))
        and n.value > t.value
    )
    if (
        re.fullmatch(r"\s?and\s", gap)
        and re.search(r"\bbetween\s+$", text[max(0, t.start - 12) : t.start])
        and (n.unit or n.measure)
    ):
        is_range = True
    return is_range or _lost_dash_range(text, t, n)


def _lost_dash_range(text: str, t: Tok, n: Tok) -> bool:
    """Two percentages or multipliers with only a space between, the first the smaller, in no longer list: a
    range whose dash or tilde the PDF text lost ("with 35 45% less training time", "4 6x speed-up")."""
    return (
        text[t.num_end if t.unit is None else t.end : n.start] == " "
        and n.unit in ("%", "x")
        and t.unit in (None, n.unit)
        and not t.signed
        and not (n.unit == "x" and re.match(r"\s?[A-Z]{2,}", text[n.end : n.end + 4]))  # "7 2700X CPU"
        and t.value < n.value
        and not re.search(r"[\d%]\s*$", text[max(0, t.start - 4) : t.start])
        and not re.match(r"\s*(?:,|and\b|&)?\s*[+-]?\d", text[n.end : n.end + 12])  # a list goes on
    )


def _pair(text: str, t: Tok, n: Tok, out: list[Tok]) -> bool:
    """Read ``t`` and the next token ``n`` as one structure (before→after, range, CI bounds, slash pair),
    appending what it yields to ``out``; False when they are no pair."""
    if _before_after(text, t, n, out[-1] if out else None):
        out.append(n)
        return True
    if _is_range(text, t, n):
        if re.search(r"\bCI\s*$", text[max(0, t.start - 8) : t.start]) and out:
            out[-1].low, out[-1].high = t.value, n.value  # "(95% CI 0.93–0.97)": bounds of the score
            return True
        # a range of lengths or angles is a result only where an error or accuracy names it, as one number is
        # (roles.accept_plain: "a range of 20-30m in sunlight" is setup)
        named_only = n.measure and (n.unit_text or "").strip() in V.NAMED_MEASURE_UNITS
        n.kind, n.low, n.high, n.span_start, n.accepted, n.why = (
            "range",
            t.value,
            n.value,
            t.start,
            not named_only,
            "range",
        )
        n.text = text[t.start : n.num_end]
        out.append(n)
        return True
    # slash pair with slash metric names: "87.5/89.1 EM/F1"
    sm = re.match(rf"\s?({LEX_WORDS})/({LEX_WORDS})\b", text[n.end : n.end + 30], re.I)
    if text[t.num_end : n.start] == "/" and sm and t.decimal and n.decimal:
        for tok, name in ((t, sm[1]), (n, sm[2])):
            tok.accepted, tok.why, tok.group = True, "slash", name
        out += [t, n]
        return True
    # a slash pair of percentages and the names it is measured in, in the same order ("up to 81%/14%
    # improvements on ASR/SSIM") or one bracketed metric for both ("9.8%/6.3% (AUC)")
    if t.unit == "%" and n.unit == "%" and text[t.end : n.start] == "/":
        pm = _PAIR_NAMES.match(text, n.end)
        names = (pm[1], pm[2]) if pm and (LEX.fullmatch(pm[1]) or LEX.fullmatch(pm[2])) else None
        bm = _PAIR_BRACKET.match(text, n.end)
        names = names or ((bm[1], bm[1]) if bm else None)
        if names:
            for tok, name in ((t, names[0]), (n, names[1])):
                tok.accepted, tok.why, tok.group = True, "slash", name
            out += [t, n]
            return True
    return False


_PAIR_NAMES = re.compile(r"[^,;.()/\d]{0,40}?(?<![\w@-])([A-Za-z][\w@-]*)/([A-Za-z][\w@-]*)(?![\w@/-])")
_PAIR_BRACKET = re.compile(rf"\s?\((?!Ours\b)((?i:{LEX_WORDS})|[A-Z][A-Z\d@-]{{1,9}})\)")


def pair_structures(text: str, toks: list[Tok]) -> list[Tok]:
    """Merge ranges and before→after pairs, read slash pairs, drop CI bounds, share units across lists.

    ``toks`` are :func:`number_tokens` in text order; returns the tokens kept, in text order (a pair is its
    second token, its span widened to the first)."""
    accept_slash_sets(text, toks)
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        n = toks[i + 1] if i + 1 < len(toks) else None
        if n is not None and not t.setup and not n.setup and _pair(text, t, n, out):
            i += 2
            continue
        out.append(t)
        i += 1
    # lists share a unit: "up to 233 and 761 times", "2.24%, 3.97% and 1.49%"
    for j in range(len(out) - 2, -1, -1):
        t, n = out[j], out[j + 1]
        if (
            t.unit == "%"
            and n.unit == "pp"
            and n.unit_text == "%"
            and LIST_SEP.fullmatch(text[t.end : n.start])
        ):
            t.unit = "pp"  # "12.5% and 26.3% mAP points"
        if (
            t.unit is None
            and not t.measure
            and not t.setup
            and n.unit
            and not n.setup
            and t.kind is None
            and LIST_SEP.fullmatch(text[t.num_end : n.start])
            and not metric_equals(text, t.num_start)  # "(F1 = 0.71, 12.7% relative improvement)"
        ):
            t.unit = n.unit
            t.end = t.span_end = t.num_end
    return out
