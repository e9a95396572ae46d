"""Metric names around a number: the lexicon and the open phrase shapes (each a named rule of
:data:`pipeline.analyse.extraction.rules.RULES`). Data-set names: pipeline.analyse.extraction.dataset_names."""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.dataset_names import dataset_like
from pipeline.analyse.extraction.patterns import (
    AMOUNT,
    BAD_NP,
    HEAD_WORD,
    HEADS,
    LEX,
    LEX_AT_END,
    LEX_WORDS,
    METRIC_POINTS,
    MODEL_NAME,
    POINT_SCALE_METRIC,
    QUAL_TEXT,
    SPREAD,
    SUFFIXED_METRIC,
    TIME_TAKEN_UNIT,
    correlation_before,
    metric_equals,
)
from pipeline.analyse.extraction.rows import MetricDraft
from pipeline.analyse.extraction.tidy import CHANGE_TAIL
from pipeline.analyse.extraction.tokens import METRIC_POINTS_RULE, Tok

#: A name holding a metric name as one of its parts ("Ign_F1", "Novel-AP50") is a metric, never a data set.
_HOLDS_METRIC = re.compile(rf"(?<![A-Za-z])(?:{LEX_WORDS})(?![a-z])")

#: The verbs that change a quantity by an amount (vocabulary CHANGE_VERB_STEMS); those, the verbs that compare
#: with another method (COMPARISON_VERB_STEMS) and the verbs that speed up (SPEED_VERB_STEMS): a stem, to be
#: followed by ``\w*``.
_CHANGE_STEM = V.alternation(V.CHANGE_VERB_STEMS)
_CHANGE_OR_COMPARE = V.alternation(V.CHANGE_VERB_STEMS + V.COMPARISON_VERB_STEMS + V.SPEED_VERB_STEMS)

_NP_WORD = (
    r"(?!(?:on|in|of|for|by|than|over|and|or|with|while|to|at|from|the|a|an|compared|across|vs|all|each|"
    r"both|these|those|most|several|many|every|other|average)\b)[\w@\-./]+"
)
_NP = rf"{_NP_WORD}(?:\s{_NP_WORD}){{0,3}}"
# Words that end the noun phrase a share counts: function words, verbs, participles ("summaries have ...").
_SHARE_STOP = (
    r"(?:on|in|of|for|by|than|over|and|or|with|while|to|at|from|the|a|an|that|which|who|when|where|as|is|are|"
    r"was|were|be|been|have|has|had|can|could|will|would|do|does|did|contain\w*|show\w*|time|cases|"
    r"all|each|both|most|many|several|some|any|other|them|it|its|they|their|our|his|her|this|these|those|whose|"
    r"[a-z]+ing|[a-z]+ed|[a-z]+ly|[\w-]*-of-[\w-]*)\b"
)
_OPEN_AFTER = (
    (
        "metric-after-on-name",
        # the metric word may follow capitalised modifiers: "+1.9 points on IC Recall", "on ST F1 Score"
        re.compile(
            rf"^\s*(?:\(\w+\)\s*)?(?:on|in)\s+(?:the\s+)?(?P<np>(?-i:[A-Z][\w+-]*\s){{0,2}}(?:{LEX_WORDS}))(?![\w-])",
            re.I,
        ),
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
_CHANGE_ADJECTIVE = (
    r"(?:relative|absolute|average|overall|significant|substantial|consistent|large|larger|small|notable|"
    r"remarkable|marked|mean|total|maximum|minimum|further|additional|impressive|considerable|clear|huge|"
    r"dramatic|great|slight|modest|massive|noticeable|drastic|median|net|healthy|noteworthy|[a-z]+able|"
    r"[a-z]+ful|[\w-]*fold|\d[\w.%-]*|of|in|on|for|"
    r"and|or|to|by|with|performance)"
)
_OPEN_BEFORE_END = re.compile(r"(?:\bby|\bof|\bis|\bwas|\bfrom|\bto|=|:)\s+$")
_OPEN_BEFORE = (
    (
        "metric-before-verb-by",
        re.compile(
            rf"\b{_CHANGE_OR_COMPARE}\w*\s+"
            rf"(?:the\s+|its\s+|our\s+)?"
            rf"(?P<np>(?:[\w@\-]+\s){{0,3}}?{HEADS})(?:\s+(?:of|on|in|for)\s+[^,;]{{0,50}}?)?\s+by\s+$",
            re.I,
        ),
    ),
    ("metric-before-of", re.compile(rf"(?P<np>(?:[\w@\-]+\s){{0,2}}{HEADS})\s+(?:of|is|was|=|:)\s+$", re.I)),
    # an acronym no vocabulary holds, named as the level: "a CRR of 99.08%", "a Dice similarity coefficient
    # (DSC) of 83.47%", "an HD95 of 5.10"
    # (two capitals at least, digits after them; bracketed only as the acronym of the words before it, never
    # a compared method: "improvements over ELU of 4.45%", "(measured against serial MCMC) of up to 39%")
    (
        "metric-acronym-of",
        re.compile(
            r"(?<!\bover\s)(?<!\bthan\s)(?<!\bagainst\s)(?<!\bvs\s)(?<!\bvs\.\s)(?<!\bversus\s)(?<!\bto\s)"
            r"(?<![\w(-])(?P<open>\()?(?P<np>[A-Z][A-Z\d]*[A-Z]\d*)(?(open)\))\s+(?:of|=)\s+$"
        ),
    ),
    (
        "metric-before-passive",
        re.compile(
            rf"(?P<np>(?:[\w@\-]+\s){{0,3}}?{HEADS})\s+(?:was|were|is|are|has been|have been|can be)\s+(?:\w+ly\s+)?"
            rf"{_CHANGE_STEM}(?:ed|d)?\s+(?:from|by|to)\s+$",
            re.I,
        ),
    ),
    (
        # "a prediction to ground-truth correspondence improvement of at least 5%": the words before a change
        # noun name what changed (never an adjective of the change: "a relative improvement of")
        "metric-before-change-of",
        re.compile(
            r"\b(?:an?|the|its|their|our)\s+(?P<np>(?:[\w@\-]+\s){0,3}?"
            rf"(?!{_CHANGE_ADJECTIVE}\s)[\w@\-]*[a-zA-Z][\w@\-]*)\s+"
            r"(?:improvement|gain|reduction|increase|decrease|drop|boost)\s+of\s+$",
            re.I,
        ),
    ),
    (
        "metric-before-metric-word",
        re.compile(r"(?P<np>(?:[\w@\-]+\s){0,2}[\w@\-]+)\s+(?:metric|measure)\s+(?:from|of|by|to)\s+$", re.I),
    ),
    (
        "metric-before-by",
        re.compile(rf"(?P<np>(?:[\w@\-]+\s){{0,2}}(?:{LEX_WORDS}|{HEADS}))\s+by\s+$", re.I),
    ),
)
_BEFORE_BRACKET = re.compile(rf"(?P<np>(?:[\w@\-]+\s){{0,2}}(?:{LEX_WORDS}|{HEADS}))\s*\(\s*$", re.I)

# What changed, named in words the vocabulary need not know: the object of a change verb before "by N" or a
# before/after pair ("improves factuality scores by over 11 points", "reducing the average miss-rate over
# HOG+SVM by more than 30%", "reduces the average optimality gap from 19.35% to 10.46%"; never a participle of
# the extent: "improvements ranging from 5% to 37%") or the subject a change or a comparison is stated of
# ("degradation was reduced by 38.9%", "the memory overhead of our model is 100 times smaller", "the number of
# trainable parameters is reduced by about 91 times"). A lower-case noun phrase of up to four words, none a
# function word, with an "of" complement.
_NP_OPEN_WORD = (
    r"(?!(?:and|or|but|yet|also|then|thus|meanwhile|while|whereas|over|upon|on|in|of|for|by|than|after|before|"
    r"despite|where|when|which|that|with|without|to|at|from|up|down|as|is|are|was|were|be|been|it|its|this|"
    r"these|those|we|our|their|the|a|an|each|all|both|only|even|further|still|not|no|such|other|same|more|most|"
    r"many|much|several|some|any|ranging|varying|spanning)\b)[a-z][a-z0-9\-]*"
)
_OPEN_NP = (
    rf"(?P<np>(?:{_NP_OPEN_WORD}\s){{0,3}}?{_NP_OPEN_WORD}"
    rf"(?:\sof\s(?:{_NP_OPEN_WORD}\s){{0,2}}?{_NP_OPEN_WORD})?)"
)
_OPEN_OBJECT = re.compile(
    rf"\b{_CHANGE_STEM}\w*\s+(?:the\s+|its\s+|our\s+|their\s+)?{_OPEN_NP}"
    r"(?:\s+(?:over|on|in|for|compared to|relative to)\s+[^,;]{0,50}?)?\s+(?:by|from)\s+$"
)
# a subject is named by a change verb, a complement ("the gap between A and B is", "the memory overhead of our
# model is") or a word of the metric vocabulary; "our proposal is 60000x faster" names the method, not a metric
_OPEN_SUBJECT = re.compile(
    rf"(?:(?<=[,;:]\s)|\b(?:the|its|our|their)\s+){_OPEN_NP}"
    r"(?P<of>\s+(?:of|for|in|between)\s+(?:(?!\b(?:which|whom|where|when|that|who|while|whereas)\b)[^,;]){0,40}?)?"
    rf"\s+(?:is|are|was|were|has been|have been|can be)\s+(?:\w+ly\s+)?(?P<verb>{_CHANGE_STEM}\w*\s+by\s+)?$"
)
# "SGSFA achieves rank-1 of 62.3%", "achieve state-of-the-art mIoUs of 83.5%", "we obtain high sparsity of
# 89.32%": what a result verb achieves, stated "of N", is the metric (how good it is is no part of the name;
# a change, an average or results are no metric: "achieves an average improvement of 2.9%"; a vocabulary name
# is the lexicon's)
_RESULT_VERB_OBJECT = re.compile(
    r"\b(?:achiev|obtain|attain|reach|record)\w*\s+(?:an?\s+|the\s+|its\s+|their\s+)?"
    r"(?:(?:high|higher|low|lower|new|best|competitive|top|overall|impressive|remarkable|record|"
    r"state-of-the-art|SOTA|[a-z]+-of-the-art)\s+)*"
    r"(?P<np>(?:[\w@\-]+\s){0,2}?[\w@\-]+)\s+of\s+$",
)
_NO_RESULT_NAME = re.compile(
    r"(?i)(?:^|\s)(?:improvements?|gains?|reductions?|increases?|decreases?|drops?|boosts?|margins?|results?|"
    r"average|mean|total|maximum|minimum|upwards|number|amount|order|factor|value|values|level|levels|set|"
    r"an?|the)$"
)
_COMPARED = re.compile(rf"\b{V.alternation(V.COMPARED_NOUNS)}$")
_METRIC_WORD_AFTER = re.compile(
    rf"(?:[^,;.()]|\.(?=\d)|\(){{0,30}}?(?:\b(?:{LEX_WORDS})(?![\w-])|based on\b)", re.I
)
# a quantity's bare head names nothing without its complement ("the number of unknowns to recover is twice")
_BARE_HEAD = re.compile(r"number|amount|fraction|proportion|percentage|share|portion|size")


def _names_a_model(np_: str) -> bool:
    """A model, architecture or device name (patterns.MODEL_NAME), but not a device time: "GPU hours",
    "GPU-days" are quantities (patterns.TIME_TAKEN_UNIT)."""
    return bool(MODEL_NAME.search(np_)) and not TIME_TAKEN_UNIT.fullmatch(np_)


def _open_name(np_: str) -> bool:
    """A noun phrase that can name a measured quantity: not a method or model compared with, nor a change
    (:data:`_COMPARED`, :data:`BAD_NP`), not a model or data-set name, no adverb."""
    return not (
        BAD_NP.search(np_)
        or _NOT_METRIC.match(np_)
        or _BARE_HEAD.fullmatch(np_)
        or _COMPARED.search(np_)
        or _names_a_model(np_)
        or dataset_like(np_)
        or re.search(r"\b\w+ly\b", np_)
    )


def _open_phrase(text: str, t: Tok, hi: int, pre: str) -> str | None:
    """The quantity a change is stated of by the shape of the clause alone (:data:`_OPEN_OBJECT`,
    :data:`_OPEN_SUBJECT`) in ``pre`` (the clause before the number, qualifiers stripped), unless a metric word
    follows the number in its clause ("by 3.0 points of accuracy", "by 16.6% relatively (based on Recall@1
    ...)"): that one names it."""
    if _METRIC_WORD_AFTER.match(text, t.span_end, hi):
        return None
    m = _OPEN_OBJECT.search(pre)
    if m and _open_name(m["np"]):
        return m["np"]
    m = _OPEN_SUBJECT.search(pre)
    if (
        m
        and _open_name(m["np"])
        and (
            m["verb"] or m["of"] or LEX.search(m["np"]) or AMOUNT.search(m["np"]) or HEAD_WORD.search(m["np"])
        )
    ):
        return m["np"]
    return None


_STOP_AFTER = re.compile(
    r"\b(?:on|in|for|with|without|over|than|compared|while|and|across|at|of|by|when|using|from|"
    r"to|vs|versus|relative(?=\s+to\b)|is|are|was|were)\b|[,.;()—]"
)
_NOT_METRIC = re.compile(
    r"(?i)^(?:than|the|that|its|their|our|time|times|cases?|points?|of|improvements?|gains?)$"
)


def metric_open(text: str, t: Tok, s0: int, lo: int, hi: int) -> tuple[str | None, str | None]:
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
            first = np_.split(" ", 1)[0].lower()
            if name == "metric-after-comparative" and first in V.ADJECTIVE_METRICS:
                return V.ADJECTIVE_METRICS[first], name  # "8% more accurate but also 5x faster": accuracy
            if (
                name != "metric-after-on-metric"
                and re.search(r"\bon\s", m[0][: m.start("np") - m.start()])
                and not (LEX.search(np_) or HEAD_WORD.search(np_))
            ):
                continue  # "51.2% improvements on long episodes": "on" names where, not what
            if (
                np_
                and not _NOT_METRIC.match(np_)
                and not _names_a_model(np_)
                and not dataset_like(np_)
                and not (
                    np_[0].isupper()
                    and re.search(r"\bon\s", m[0])
                    and not LEX.search(np_)
                    and name != "metric-after-on-metric"
                )
            ):
                return np_, name  # ("a 6% improvement on CoLA": a capitalised name after "on" is a data set)
    pre = QUAL_TEXT.sub("", text[max(lo, t.span_start - 120) : t.span_start]).rstrip() + " "
    cm = correlation_before(text, s0, t.span_start)
    if cm:
        return cm["sym"], "correlation-symbol"
    for name, rx in _OPEN_BEFORE:
        if not _OPEN_BEFORE_END.search(pre[-6:]):
            break
        m = rx.search(pre[-70:])
        if m and not BAD_NP.search(m["np"]):
            return re.sub(r"^(?:the|its|our|their)\s+", "", m["np"]), name
    rm = _RESULT_VERB_OBJECT.search(pre[-70:])
    if rm and not (_NO_RESULT_NAME.search(rm["np"]) or LEX.search(rm["np"])) and _open_name(rm["np"].lower()):
        return rm["np"], "metric-object-of-result-verb"
    phrase = _open_phrase(text, t, hi, pre)
    if phrase:
        return phrase, "metric-open-phrase"
    bm = _BEFORE_BRACKET.search(pre[-60:]) if pre.rstrip().endswith("(") else None
    if bm and not BAD_NP.search(bm["np"]):
        return bm["np"], "metric-before-bracket"
    for verb, metric in V.VERB_METRICS.items():
        if re.search(rf"\b{verb}\b[^,;.]{{0,100}}\bby\s+(?:a\s+)?(?:factor of\s+)?$", pre, re.I):
            return metric, "metric-verb"
    cmp_ = re.match(r"\s*(\w+)", text[t.span_end : t.span_end + 20])
    if cmp_ and cmp_[1].lower() in V.COMPARATIVE_METRICS and t.unit in ("x", "%"):
        return V.COMPARATIVE_METRICS[cmp_[1].lower()], "metric-comparative"
    return None, None


# "less than 1% of the summaries have ...", "in 99.7% of the frames", "13% of the original training data": a
# share counts the things it names (the noun phrase, cut before a verb, a participle, an adverb or a function
# word; never a capitalised name: "9.0% of ASTER" is relative to a method)
_SHARE_OF = re.compile(
    r"\s*of\s+(?:(?:the|all|its|their|our|these|those|his|her)\s+)?"
    rf"(?P<np>(?:(?!{_SHARE_STOP})[a-z][\w-]*)(?:\s(?!{_SHARE_STOP})[A-Za-z][\w-]*){{0,2}})(?![\w'’&-])"
)


_LONE_ADJECTIVE = re.compile(r"(?i)original|full|entire|whole|total|same|initial|overall|average|standard")


def metric_share_of(text: str, end: int, hi: int) -> str | None:
    """The things a percentage ending at ``end`` is a share of ("1% of the summaries" -> "summaries"), or None."""
    so = _SHARE_OF.match(text, end, hi)
    if so and _LONE_ADJECTIVE.fullmatch(so["np"]):
        # "35% of the original training time": the phrase was cut after its adjective; its nouns follow
        more = re.match(
            r"(?:\s(?!(?:on|in|of|for|by|than|over|and|or|with|while|to|at|from|is|are|was|were)\b)"
            r"[a-z][\w-]*){1,3}",
            text[so.end() : hi],
        )
        return so["np"] + more[0] if more else None
    return so["np"] if so and not MODEL_NAME.search(so["np"]) else None


#: An acronym written right after a percentage that ends its noun phrase is the metric's name even when the
#: lexicon lacks it ("40% CLS", "30% IoU_thin on", "1.5% Apb or", "76% BD-Rate gains"): a second capital or an
#: underscore after the first letter, or a capital and at most three letters; then punctuation, a preposition or
#: conjunction, or a change noun, never another word of the phrase ("3.8% GPU hours", "30% Van Gogh").
_ACRONYM_AFTER = re.compile(
    r"\s?(?P<name>(?!(?i:vs|versus)\b)[A-Z](?:[a-z]{0,3}[A-Z]|[a-z]{1,3}(?![\w-])|[A-Za-z]*_)(?:[\w\-@]|\.(?=\d))*)"
    r"(?=[,.;:()]|$|\s+(?:on|in|for|with|without|despite|under|using|when|over|than|and|or|at|across|compared|"
    r"while|relative|respectively|by|from|to|vs|versus|is|are|was|were|"
    r"improvements?|gains?|increases?|reductions?|savings?|drops?|boosts?|decreases?|margins?|higher|lower|better)\b)"
)


def acronym_after(text: str, t: Tok) -> str | None:
    """Rule metric-after-acronym, first form: the acronym right after a percentage (unit ``%`` or ``pp``) that
    ends its noun phrase, before the lexicon is asked ("5.5% AP_90" is AP_90, not AP); None when there is none,
    it is a vocabulary name as a whole (the lexicon's) or it names a data set ("5% CIFAR-10")."""
    if t.unit not in ("%", "pp"):
        return None
    am = _ACRONYM_AFTER.match(text, t.span_end)
    if am is None or LEX.fullmatch(am["name"]) or dataset_like(am["name"]):
        return None  # a vocabulary name is the lexicon's ("+5% HOTA")
    return am["name"]


# a bracketed aside with numbers right after a number: its comparison, not the name ("3.6% (48.59% vs 44.98%)")
_NUMBER_ASIDE = re.compile(r"\s?\([^()]*\d[^()]*\)%?")


def metric_after(text: str, t: Tok, hi: int) -> str | None:
    """Metric named right after the number/unit: "54% F1", "10.7× KV memory reduction", "65ms model
    forwarding time", "14.9% in accuracy", "2.5% increase in storage", also past a bracketed comparison
    ("3.6% (48.59% vs 44.98%) overall improvement in EQA accuracy")."""
    if t.unit == "pp" and (mp := METRIC_POINTS.match(text, t.span_end, hi)):
        return mp["metric"]  # "by 2 claim-F1 points": the metric its points are of
    aside = _NUMBER_ASIDE.match(text, t.span_end, hi)
    start = aside.end() if aside else t.span_end
    seg = text[start : min(hi, start + 50)]
    seg = seg[m.end() :] if (m := SPREAD.match(seg)) else seg  # "88.1 ± 0.3 F1", "88.1 +/- 0.3 F1"
    # "72% of the task load"; never a verb after the noun ("45% of FLOPS is removed")
    om = re.match(
        r"\s*of\s+(?:the\s+)?((?:[\w-]+\s(?!(?:is|are|was|were|be|been|can|could|will|would|has|have|had)\b))?[\w-]+)",
        seg,
    )
    if t.unit == "%" and om and AMOUNT.search(om[1]):
        return om[1]  # "72% of the task load"
    if om and (lm := LEX.match(seg, om.start(1))) and (stop := _STOP_AFTER.search(seg, lm.end())):
        if not seg[lm.end() : stop.start()].strip():
            return lm[0]  # "by 1.0% point of accuracy (8.7% error reduction)": the metric word after "of"
    stop = _STOP_AFTER.search(seg)
    head = seg[: stop.start()] if stop else seg
    lm = None
    for lm in LEX.finditer(head):  # noqa: B007 (the last match)
        pass
    if lm is not None:
        return head[: lm.end()]
    if (t.measure or t.unit == "x") and AMOUNT.search(head):
        am = list(AMOUNT.finditer(head))[-1]
        return head[: am.end()]
    m_in = re.match(
        r"\s*(?:(?!(?:while|and|but|whereas|with|on|for)\b)[\w-]+\s+){0,4}?in\s+(?:the\s+|terms of\s+)?([\w\-@]+(?:\s[\w\-@]+){0,2})",
        seg,
    )
    if m_in:
        cand = m_in[1]
        lm2 = LEX.search(cand) or AMOUNT.search(cand)
        if lm2:
            return cand[: lm2.end()]
    return None


_VERB_BY = re.compile(
    rf"(?:\b{_CHANGE_OR_COMPARE}\w*"
    r"|\band|,|[’']s)\s+(?:the\s+|its\s+|their\s+|our\s+)?"
    r"(?P<np>[^,;]{2,70}?)\s+(?:by|to|from)\s+(?:an?\s+(?:average|margin)\s+of\s+)?$",
    re.I,
)
# "mIoU drops by", "QWK increased from", "MINOS's detection accuracy dropped to": a name, then an intransitive
# change verb; a past form after an auxiliary or an adverb is a passive ("accuracy is improved by"), not this
_NP_VERB = re.compile(
    r"(?<![\w’'])(?P<np>[\w\-@.]+(?:\s[\w\-@.()]+){0,3})\s+(?:(?P<now>drops?|falls?|rises?|increases?|"
    r"decreases?|improves?|goes|jumps?|climbs?|grows?)|dropped|fell|rose|increased|decreased|improved|went|"
    r"jumped|climbed|grew)\s+(?:by|to|from)\s+$",
    re.I,
)
_AUX_END = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|can|could|may|might|will|would|should|further|also|then|"
    r"only|that|which|\w+ly)$",
    re.I,
)


_ACRONYM_BEFORE = re.compile(
    r"(?P<np>(?:[\w\-]+\s){0,4})\((?P<acr>[A-Za-z][\w\-@]*)\)\s+(?:scores?\s+)?(?:of|is|was|=|:)\s+$"
)


#: A vocabulary metric (and up to two words before it) right before a colon and the number: "EER: 12.40%",
#: "top 1 accuracy: 32.13%".
_METRIC_COLON = re.compile(rf"(?<![\w-])(?P<np>(?:[\w@-]+\s){{0,2}}(?:{LEX_WORDS})):\s?$", re.I)


def metric_before(text: str, t: Tok, lo: int) -> str | None:
    """Metric named before the number: "improves F1 by 3%", "accuracy of 41%", "AUC) of 99.02%",
    "reduces WER from 5.1 to 4.3", "mIoU drops by ≈ 3%", "success rates up to 98.1%"."""
    eq = metric_equals(text, t.span_start)
    if eq:
        return eq  # "FID=9.91", "macro-F1=54%"
    colon = _METRIC_COLON.search(text, max(0, t.span_start - 50), t.span_start)
    if colon:
        return colon["np"]  # "CRR: 97.84%, EER: 12.40%" (a colon ends the clause, so it is looked for here)
    pre = text[max(lo, t.span_start - 100) : t.span_start]
    pre = QUAL_TEXT.sub("", pre).rstrip() + " "
    m = _ACRONYM_BEFORE.search(pre[-70:]) if ")" in pre[-30:] else None
    if m and LEX.fullmatch(m["acr"]):
        # "Area Under the Curve (AUC) of 99.02%": the phrase and its acronym, so either spelling matches
        return f"{m['np']}({m['acr']})" if m["np"] and LEX.search(m["np"]) else m["acr"]
    near = pre[-60:]  # the 3-word patterns below never need more (and cost grows with the window)
    m = re.search(
        r"(?P<np>(?:[\w\-@]+(?:\.\d[\w\-@]*)?(?:['’]s)?\s){0,2}[\w\-@]+(?:\.\d[\w\-@]*)?)\s+"
        r"(?:of|is|was|=|:|reaches|reached|reaching|at|stands at)\s+"
        r"(?:(?:an?\s+)?average\s+of\s+|only\s+)?$",
        near,
        re.I,
    )
    if m:
        np_ = CHANGE_TAIL.sub("", m["np"])
        if LEX_AT_END.search(np_):
            return np_
    m = re.search(r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s*\(\s*$", near)
    if m and LEX.search(CHANGE_TAIL.sub("", m["np"])) and CHANGE_TAIL.search(m["np"]):
        return CHANGE_TAIL.sub("", m["np"])  # "accuracy loss (<0.5%)"
    m = re.search(r"\bin terms of\s+(?P<np>[\w\- ]{2,40}?)\s+by\s+$", near)
    if m:
        return m["np"]
    m = re.search(r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s+$", near)
    if (
        m
        and not re.search(r"\bscores?$", m["np"])
        and (LEX_AT_END.search(m["np"]) or (t.unit == "%" and AMOUNT.search(m["np"].split()[-1])))
    ):
        if not re.search(r"\b(?:by|of|than|over|vs|and|with|on|in|from)\s*$", m["np"], re.I):
            return m["np"]
    m = re.search(
        r"(?P<np>(?:[\w\-@]+\s){0,2}[\w\-@]+)\s+(?:is|are|was|were|becomes)\s+(?:\w+\s+)?"
        r"(?:higher|lower|larger|smaller|faster|slower|better|worse)\s+by\s+$",
        near,
    )
    if m and not BAD_NP.search(m["np"]):
        return m["np"]  # "the true sensitivity is higher by at least factor 6"
    m = _NP_VERB.search(pre)
    if m and (m["now"] or not _AUX_END.search(m["np"])) and (LEX.search(m["np"]) or AMOUNT.search(m["np"])):
        return m["np"]
    m = _VERB_BY.search(pre)
    if m:
        np_ = re.split(
            rf"\b{_CHANGE_OR_COMPARE}\w*\s+|\band\s+|,\s*|[’']s\s+",
            m["np"],
        )[-1]
        np_ = re.sub(r"^(?:the|its|their|our)\s+", "", np_)
        np_ = re.split(r"\s(?:on|in|for|across|over|with|compared)\s", np_)[0]
        if (LEX.search(np_) or AMOUNT.search(np_)) and not BAD_NP.search(np_) and len(np_.split()) <= 6:
            return np_
    return None


def dataset_in_metric(metric: str | None) -> tuple[str | None, str | None]:
    """``(dataset, metric)`` of a benchmark inside the metric phrase ("BoolQ performance", "ImageNet top-1
    accuracy"), else ``(None, None)``; never a metric name with a suffix ("BLEU-4 score", "ROUGE-L scores")."""
    if not metric or LEX.fullmatch(metric):
        return None, None
    bm = re.match(
        r"([A-Z][\w\-.]*[A-Z0-9][\w\-.]*)\s+(performance|(?:top-?\d\s)?accuracy|scores?|results?)$", metric
    )
    if (
        bm
        and not MODEL_NAME.search(bm[1])
        and not SUFFIXED_METRIC.fullmatch(bm[1])
        and not _HOLDS_METRIC.search(bm[1])
    ):
        return bm[1], bm[2]
    return None, None


def compared_with(clause: str) -> str | None:
    """The capitalised name a change of ours is compared with ("over BERT", "than GPT-4"), else None."""
    bm = re.search(
        r"\b(?:over|than|outperform\w*|surpass\w*|beat\w*|against|compared (?:to|with))\s+"
        r"(?:the\s+)?(?:[\w-]+\s+)?(?P<n>[A-Z][\w\-.]*(?:\s[A-Z][\w\-.]*)?)",
        clause,
    )
    return bm["n"] if bm and not re.match(r"SOTA|State", bm["n"]) else None


#: "top-k" written right after a number ("82.7% top-1 and 96.2% top-5 accuracy"), not a range "top-1-5".
_TOP_K_AFTER = re.compile(r"\s?top-?(\d+)\b(?![-.]\d)", re.I)
_TOP_K_HEAD = re.compile(
    r"^(?:top-?\d+\s*)?((?:\w+\s)?(?:accuracy|accuracies|error(?:\s+rates?)?|errors))?$", re.I
)


def own_top_k(text: str, rows: list[MetricDraft]) -> None:
    """In place, after linking: a "top-k" written right after a row's number is that row's own, whatever name
    its clause or list gave it ("accuracy of 82.7% top-1 and 96.2% top-5" -> "top-1 accuracy", "top-5
    accuracy"; "82.7% top-1 and 96.2% top-5 accuracy": the first is "top-1 accuracy"). Only a name that is
    accuracy or error (or none: "top-1") takes it; "top-1 mAP" names another thing."""
    for r in rows:
        m = _TOP_K_AFTER.match(text, r["end"])
        head = _TOP_K_HEAD.match(r["metric"] or "")
        if m and head and not re.match(rf"top-?{m[1]}\b", r["metric"] or "", re.I):  # kept as written
            r["metric"] = f"top-{m[1]} {head[1] or ''}".strip()
            r["rules"].append("metric-top-k")


def own_scale_points(rows: list[MetricDraft]) -> None:
    """Rule metric-points, on the drafted rows after linking (in place): "points" of a metric on its own scale are that metric's units, not
    percentage points ("outperforms ... by 2.77 points" of BLEU: unit null, vocabulary POINT_SCALE_METRICS)."""
    for r in rows:
        if (
            r["unit"] == "pp"
            and re.fullmatch(r"(?:absolute\s+)?(?:points?|pts)", (r["unit_text"] or "").lower())
            and r["metric"]
            and POINT_SCALE_METRIC.fullmatch(r["metric"])
        ):
            r["unit"] = None
            r["rules"] = [*r["rules"], METRIC_POINTS_RULE]
