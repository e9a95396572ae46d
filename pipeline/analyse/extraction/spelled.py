"""Results written in words ("twice as", "two orders of magnitude", "about half the accuracy", "ranked
first"): rule spelled-number of :data:`pipeline.analyse.extraction.rules.RULES`."""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.patterns import LEX_WORDS
from pipeline.analyse.extraction.tokens import Tok

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
    r"(?:(?P<twice>\btwice\b)(?=\s+as\b)|\bfactor\s+(?:of\s+)?(?P<factor>\d+(?:\.\d+)?)(?!\w|\.\d|\s?/\s?\d)|"
    # "two orders of magnitude"; "one to two", "2--3", "two or three orders of magnitude": a range
    # ("between one and two orders of magnitude" too)
    r"\b(?:(?:between\s+)?(?P<omlo>one|two|three|four|\d)\s*(?:to|or|--?|–|\sand\s)\s*)?"
    r"(?P<om>one|two|three|four|five|an?|\d+)\s+orders?\s+"
    r"of\s+magnitude\b|"
    r"\b(?P<pw>one|two|three|four|five|six|seven|eight|nine|ten)\s+percent(?!age)\b|"
    r"\b(?P<pp>one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:percentage|absolute)\s+points?\b|"
    # "by two times", "three times faster": a multiplier in words (never "two times" of a repetition)
    r"(?<=\bby\s)(?P<tw>two|three|four|five|six|seven|eight|nine|ten)\s+times\b|"
    r"\b(?P<tc>two|three|four|five|six|seven|eight|nine|ten)\s+times\s+(?=(?:faster|slower|more|fewer|less|"
    r"higher|lower|larger|smaller|better|cheaper)\b)"
    # "three times fewer image-text pairs": less training data is the setup (gold notes), not a result
    r"(?!(?:fewer|less|more)\s+(?:[\w-]+\s+)?(?:pairs|samples|examples|data|labels|annotations|images)\b))",
    re.I,
)


_ORD = V.alternation(V.ORDINALS)
# where a rank is held: "on KITTI", "in the challenge", "among all methods", "place(s)", or the clause ends
_WHERE = r"\s+(?:on|in|at|among|for|places?)\b|\s*[,.;)]"
# a further rank coordinated with one ("ranking first on KITTI 2015 and second on MPI Sintel", "the first in
# car detection, the first in cyclist detection and the second in pedestrian detection", "first and third places")
_MORE_RANK = re.compile(
    r"(?:\s+(?:on|in|at|among|for)\s+[^,;.()\d]{1,60}?(?:\s\d{4})?(?:\s\([^()]{0,30}\))?)?"
    rf"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:the\s+)?(?P<o>{_ORD})\b(?=\s+(?:on|in|at|among|for|places?)\b)",
    re.I,
)
_SPAN_BEFORE = re.compile(r"\b(?:rang\w*|span\w*|vary\w*|varie\w*)\s+(?:over|across|from|by)?\s*$", re.I)
_FRACTION_WORDS = "|".join(sorted((re.escape(k) for k in V.WORD_FRACTIONS), key=len, reverse=True))
_WORD_RESULT = re.compile(
    rf"(?P<frac>\b(?:{_FRACTION_WORDS}))(?!\s+precision)|"
    # a leaderboard rank: "ranked first", "ranking 1st", "ranks 2nd", "rank number one", "we rank first"
    # ("ranked the first on X", "placed first in the challenge": with an article or "placed", only before where)
    rf"\brank(?:ed|ing|s)?\s+(?:(?P<rank>{_ORD})|number\s+(?P<rankno>one|1))\b|"
    rf"\b(?:rank(?:ed|ing|s)?\s+the|placed|placing)\s+(?P<rankw>{_ORD})\b(?={_WHERE})|"
    rf"\b(?:won|wins|win|took|takes|achiev\w*|secur\w*|obtain\w*|earn\w*|claim\w*|placed)\s+(?:the\s+|a\s+)?"
    rf"(?P<place>{_ORD})\s+(?:and\s+(?:the\s+)?{_ORD}\s+)?places?\b|"
    # a rank as the complement of a verb of finishing, before where: "came first in", "would score third in"
    rf"\b(?:came|comes|come|finish(?:ed|es|ing)?|scor(?:ed|es|e|ing))\s+(?:the\s+)?(?P<rankv>{_ORD})\b"
    r"(?=\s+(?:on|in|at|among|for|places?|overall)\b)|"
    r"\b(?P<zero>zero|near-zero)(?=\s+(?:[\w-]+\s+)?(?:error|loss|regret|violations?)\b)",
    re.I,
)
# what a fraction word must be followed by to be a result: a metric, an amount or a metric head word
_FRACTION_OF = re.compile(
    rf"\s+(?:of\s+)?(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+)?"
    rf"(?:{LEX_WORDS}|{V.alternation(V.AMOUNT_WORDS)}|{V.alternation(V.METRIC_HEADS)})\b",
    re.I,
)
# "rank" alone is mostly "low-rank" (LoRA): only the verb forms and "rank number/first" open the rank rule
WORD_GATE = re.compile(
    r"(?i)\b(?:half|third|thirds|quarter|tenth|rank(?:ed|ing|s)|rank\s+(?:number|first|1st)|place[ds]?|placing|zero|"
    r"near-zero|came|comes|come|finish(?:ed|es|ing)?|scor(?:ed|es|e|ing))\b"
)
SPELLED_GATE = re.compile(
    r"(?i)\b(?:twice|factor|magnitude|percent|(?:one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?:times|percentage|absolute))\b"
)
#: A word every match of WORD_GATE / SPELLED_GATE holds, in lower case (keep them in step with the patterns).
WORD_GATE_KEYS = (
    "half",
    "third",
    "quarter",
    "tenth",
    "rank",
    "plac",
    "zero",
    "came",
    "come",
    "finish",
    "scor",
)
SPELLED_GATE_KEYS = ("twice", "factor", "magnitude", "percent", "times", "absolute")


def gate(pattern: re.Pattern, keys: tuple[str, ...], text: str) -> bool:
    """``pattern.search(text)`` found something (``pattern``: WORD_GATE or SPELLED_GATE, ``keys`` its keys).
    The case-insensitive search is slow; an ASCII text (where that is plain ASCII case) whose lower case
    holds none of ``keys`` cannot match, so it is answered False without running it."""
    if text.isascii():
        low = text.lower()
        if not any(k in low for k in keys):
            return False
    return pattern.search(text) is not None


def _spelled_tok(text: str, a: int, b: int, value: float, unit: str | None, kind: str | None = None) -> Tok:
    """An accepted token for a result written in words, ``text[a:b]`` (rule "spelled"): unsigned, no setup,
    its number span the whole phrase."""
    return Tok(
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


def word_results(text: str) -> list[Tok]:
    """Results written in words: "about half the accuracy" (0.5 x), "a third of the memory" (1/3 x), "ranked
    first" / "1st place" (score 1), "zero training error" (score 0); vocabulary tables WORD_FRACTIONS, ORDINALS."""
    out = []
    for m in _WORD_RESULT.finditer(text):
        if m["frac"] and not _FRACTION_OF.match(text, m.end("frac")):
            continue
        if m["frac"]:
            v, unit, a, b = V.WORD_FRACTIONS[m["frac"].lower()], "x", m.start("frac"), m.end("frac")
        elif m["rankno"]:
            v, unit, a, b = 1.0, None, m.start(), m.end()
        elif m["rank"] or m["rankw"] or m["place"] or m["rankv"]:
            g = "rank" if m["rank"] else "rankw" if m["rankw"] else "place" if m["place"] else "rankv"
            a = m.start() if g in ("rank", "rankw") else m.start(g)
            # "1st place" (its word kept in the span), "the first and third places" (each ordinal alone)
            b = m.end("place") if g == "place" and " and " in text[m.end("place") : m.end()] else m.end()
            v, unit = float(V.ORDINALS[m[g].lower()]), None
        else:
            v, unit, a, b = 0.0, None, m.start("zero"), m.end("zero")
        tok = _spelled_tok(text, a, b, v, unit, kind="score" if unit is None else None)
        if m["frac"] or m["zero"]:
            out.append(tok)
            continue
        tok.group = "rank"  # the metric of a leaderboard place (gold: metric "rank")
        out.append(tok)
        pos = b
        while more := _MORE_RANK.match(text, pos):
            pos = more.end("o")
            nxt = _spelled_tok(
                text, more.start("o"), pos, float(V.ORDINALS[more["o"].lower()]), None, "score"
            )
            nxt.group = "rank"
            out.append(nxt)
    return out


def spelled_results(text: str) -> list[Tok]:
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
            if _SPAN_BEFORE.search(text, max(0, m.start() - 30), m.start()):
                continue  # "models ranging across 3 orders of magnitude in scale": the setup's span, no result
            w = m["om"].lower()
            n = float(w) if w.isdigit() else _WORD_NUM[w]
            v, unit, a, b = 10.0**n, "x", m.start("om"), m.end()
            lo = m["omlo"] and (float(m["omlo"]) if m["omlo"].isdigit() else _WORD_NUM[m["omlo"].lower()])
            if lo and lo < n:
                tok = _spelled_tok(text, m.start("omlo"), b, v, unit, kind="range")
                tok.low, tok.high = 10.0**lo, v
                out.append(tok)
                continue
        elif m["pp"]:
            v, unit, a, b = float(_WORD_NUM[m["pp"].lower()]), "pp", m.start("pp"), m.end()
        elif m["tw"] or m["tc"]:
            g = "tw" if m["tw"] else "tc"
            v, unit, a, b = float(_WORD_NUM[m[g].lower()]), "x", m.start(g), m.start(g) + len(m[g]) + 6
        else:
            v, unit, a, b = float(_WORD_NUM[m["pw"].lower()]), "%", m.start("pw"), m.end()
        out.append(_spelled_tok(text, a, b, v, unit))
    return out
