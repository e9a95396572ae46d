"""A metric phrase made a metric name: what :func:`tidy_metric` strips (lead words, adjectives, other numbers,
owners, trailing prepositions and change nouns) and the plural it makes singular. The phrases come from
:mod:`pipeline.analyse.extraction.names`."""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.patterns import LEX, LEX_AT_END, LEX_WORDS

#: a change noun ending a metric phrase ("accuracy improvement", "latency reduction"): no part of its name
CHANGE_TAIL = re.compile(
    r"\s+(?:reductions?|improvements?|gains?|drops?|savings?|increases?|decreases?|boosts?|"
    r"loss)$",
    re.I,
)
_LEAD_WORDS = re.compile(
    r"^(?:(?:a|an|the|both|up\s+to|its|their|our|his|her|higher|lower|better|worse|more|less|fewer|faster|slower|"
    r"relative|absolute|reaches|reached|achieves|achieved|achieving|obtains|has|have|"
    r"with|yields|shows|in|on|that|of|from|ranging|only|respectively(?:\s+without)?|overall\s(?=gain)|"
    r"(?:improvements?|gains?|increases?)\s+in)\s+)+",
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
# a number standing alone in a name phrase (not glued inside a name: "top-1", "F1@0.05", "BLEU-4")
_LONE_NUMBER = r"(?<![\w@.\-/^])(?<![Tt]op\s)(?<![Rr]ank\s)[-+]?(?:\d+(?:[.,]\d+)?|\.\d+)(?:\s?[%x×])?(?![\w@\-%×]|[.,]\d)"
_FROM_NUMBER = re.compile(rf"\s+(?:from|to)\s+{_LONE_NUMBER}.*$")
_UP_TO_NUMBER = re.compile(rf"^.*{_LONE_NUMBER}\)?\s*(?=\S)")
_COORDINATOR = re.compile(r"^(?:and|or|but|while|whereas)\s+(?:(?:an?|the|its|their|our|also)\s+)?", re.I)


def _within_numbers(name: str) -> str:
    """A metric name holds no other number of its sentence and starts at no coordinator: a phrase read
    across a number is cut at it ("accuracy from 98.1% to 98.5%" -> "accuracy", "from 41.83% to 58.41%
    alignment accuracy" -> "alignment accuracy", "2012 and accuracy" -> "accuracy", "FPR 0" -> "FPR"), and
    a name after "and"/"or"/"while" loses it ("and an F1-score" -> "F1-score")."""
    name = re.sub(rf"^from\s+{_LONE_NUMBER}\s*(?:to|→)\s*{_LONE_NUMBER}\s+", "", name)
    name = _FROM_NUMBER.sub("", name)
    cut = _UP_TO_NUMBER.match(name)
    if cut:
        left = re.match(rf"(.*?)\s*\b(?:of|on|in|for|across|over|under|with|at)\s+{_LONE_NUMBER}", name)
        # "the accuracy of 16 classifiers": the number counts what follows, the name is before it
        name = left[1] if left and left[1] and not re.search(_LONE_NUMBER, left[1]) else name[cut.end() :]
    name = re.sub(rf"\s+{_LONE_NUMBER}$", "", name)
    if re.fullmatch(rf"\(?{_LONE_NUMBER}\)?", name.strip()):
        return ""  # the name was only a number
    return _COORDINATOR.sub("", name)


def tidy_metric(name: str | None) -> str | None:
    """Normalise a metric phrase: strip articles/verbs in front, ``F_1`` → ``F1``, brackets and spaces."""
    if not name:
        return None
    # keep a bracketed acronym that is a metric name ("Intersection over Union (mIoU)"), drop other brackets
    name = re.sub(r"\s*\(([^()]*)\)\s*", lambda m: f" ({m[1]}) " if LEX.fullmatch(m[1]) else " ", name)
    name = re.split(
        r"\b(?:that|find|finds|found|show|shows|showing|achiev(?:e|es|ed|ing)|(?:obtain|report|yield|attain)(?:s|ed|ing)?|"
        r"reach\w*|is|are|was|were|by)\s+",
        name.strip(" ,.;:"),
    )[-1]
    name = _within_numbers(name)
    # the owner of a metric is no part of its name ("SGRv2's success rate", "the worst seed's FID"), unless the
    # statistic is named after a person ("Spearman's rank correlation", "Cohen's kappa")
    name = re.sub(
        r"^(?:.*\s)?(?!(?:Spearman|Pearson|Kendall|Cohen|Fleiss|Krippendorff)['’]s)\S+['’]s\s+(?=\S)",
        "",
        name,
    )
    name = _LEAD_WORDS.sub("", name)
    name = _ADJECTIVES.sub("", name) if " " in name else name
    # a name never ends in a conjunction, a modal or a preposition ("parameters of", "error compared")
    name = re.sub(
        r"(?:\s+(?:and|or|with|while|ranging|ranges?|can|may|could|of|on|in|for|to|at|than|compared))+$",
        "",
        name,
    )
    if not LEX_AT_END.search(name):  # "normalized discounted cumulative gain" ends in a metric word
        name = CHANGE_TAIL.sub("", name)
    if re.fullmatch(r"(?:improvement|gain|reduction|increase|decrease|drop|boost)s?", name, re.I):
        return None  # "15% improvement under 4x speed-up": the change names no quantity
    lm = re.match(rf"((?:[\w\-@]+\s)?(?:{LEX_WORDS}))\s+(?:of|on|in|for)\s+.+$", name, re.I)
    if lm:
        name = lm[1]  # "accuracy of cross-modal retrieval" -> "accuracy"
    words = name.split(" ")
    words[-1] = _SINGULAR.get(words[-1].lower(), words[-1])
    name = " ".join(words)
    name = re.sub(r"\bF_1\b|\bF-1\b", "F1", name)
    name = re.sub(r"\s+", " ", name).strip()
    if re.fullmatch(
        r"(?:(?:further|also|greatly|\w+ly)\s+)?"
        r"(?:reduc|improv|increas|decreas|boost|lower|rais|enhanc|achiev|obtain|confin|report|observ)ed",
        name,
    ):
        return None  # "reduced", "further improved": a verb left over, not a name
    return name or None
