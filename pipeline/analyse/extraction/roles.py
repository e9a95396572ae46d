"""What a kept number is: its clause, qualifier, subject (ours or a baseline's), direction and kind, and
whether a plain number is a result at all (GUIDELINES of the gold labelling)."""

from __future__ import annotations

import re

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.keys import metric_key
from pipeline.analyse.extraction.patterns import (
    AMOUNT,
    CORRELATION,
    DOWN,
    HEADS,
    LEX,
    LEX_AT_END,
    LEX_WORDS,
    METRIC_THEN_CHANGE,
    QUAL_TEXT,
    QUALIFIERS,
    SPREAD,
    UP,
    correlation_before,
    metric_equals,
    time_taken,
)
from pipeline.analyse.extraction.tokens import Tok
from pipeline.analyse.extraction.vocabulary import metric_directions

_GAP_FUNCTION_WORD = (
    r"(?:with|without|of|on|in|for|and|or|the|a|an|than|to|by|at|from|under|over|while|when|which|that|is|are|"
    r"was|were|using|via|after|before|compared|across|all|each|per|between|within|its|their|our)"
)
_DELTA_NEAR = re.compile(
    r"^\s*(?:absolute\s+|relative\s+|average\s+|mean\s+|overall\s+)?"
    # ... one or two words before a change word, never a function word ("97.9% with significantly less
    # distortion": the change is of another quantity)
    rf"(?:(?:(?!{_GAP_FUNCTION_WORD}\s)[\w@\-.]+\s+){{0,2}}?{V.alternation(V.CHANGE_WORDS)}"
    # a change noun up to four words later, the words naming what changed ("0.6% absolute character error rates
    # (CER) reduction") or a short bracketed label ("55% (UAE) reduction"), never a function word ("70%
    # accuracy with noise reduction" is no change)
    rf"|(?P<far>(?:(?!{_GAP_FUNCTION_WORD}\s)[\w@\-.]+\s+|\([^()]{{1,20}}\)\s+){{0,4}}?{V.alternation(V.CHANGE_NOUNS)}))\b",
    re.I,
)
#: A % after a verb of saving or cutting is the share of a quantity saved ("saving 77.3% training time").
_SAVING_BEFORE = re.compile(
    r"\b(?:sav(?:e|es|ed|ing)|cut(?:s|ting)?|reduc(?:e|es|ed|ing))\s+(?:an?\s+)?$", re.I
)
#: A % after "speed-up" names a relative gain of speed ("up to a 38% speed-up").
_SPEEDUP_AFTER = re.compile(r"\s*(?:[\w-]+\s+)?(?:speed-?ups?|acceleration)\b", re.I)
#: "solves the puzzles 93.7% of the time": the share of the cases where something holds, a level.
_OF_THE_TIME = re.compile(r"\s*of\s+the\s+(?:time|cases|trials|runs|instances)\b", re.I)
#: "the greatest average difference is 1.2%": a difference of two levels.
_DIFFERENCE_BEFORE = re.compile(r"\bdifferences?\s+(?:is|was|of|reaches|reached)\s+(?:an?\s+)?$", re.I)
_DIFFERENCE_AFTER = re.compile(
    r"\s*(?:differences?\b|(?:above|below)\s+(?:the\s+)?(?:state|previous|prior|best|baselines?|chance|human)\b)",
    re.I,
)
#: The largest % change that can be a difference of two percentage levels (both lie in 0-100): a larger one
#: ("145% performance gains", "by 214%") is relative to the level it starts from.
MAX_PERCENT_DELTA = 100.0
_RELATIVE = re.compile(r"\brelative(?:ly)?\b", re.I)
_ABSOLUTE = re.compile(r"\babsolute\b", re.I)
#: After "absolute", the rest of a metric's name ("47.3% lower Mean Absolute Error", "absolute percentage error").
_ERROR_AFTER = re.compile(r"\s+(?:percentage\s+)?(?:errors?|deviations?)\b", re.I)

_BASELINE_CUE = re.compile(
    r"(?:\bvs\.?|\bversus|\bcompared (?:to|with)|\brelative to|\bagainst)\s+(?P<name>[^,;()]*?)$", re.I
)
_POSSESSIVE = re.compile(r"(?P<name>[\w\-.]+(?:\s[\w\-.]+)?)[’']s\s+(?:[a-z]+\s+)?$")
_COMPARATOR = re.compile(
    r"\b(outperform\w*|surpass\w*|beat\w*|exceed\w*|better than|compared (?:to|with)|"
    r"over|than|against|vs\.?|versus)\b",
    re.I,
)

#: A bracket that holds the margin itself: "by a large margin (17%)", "by large margins (3.7% and 1.2%)",
#: "gains across all the tasks (1.2% AP, 1.8% mIoU, respectively)".
_MARGIN_PAREN = re.compile(
    r"\b(?:margins?|gaps?|improvements?|gains?)(?:\s+(?:across|over|on|in|for)\s+(?:[\w-]+\s+){0,3}[\w-]+)?\s*\($",
    re.I,
)


def margin_bracket(text: str, s0: int, po: int) -> bool:
    """Whether the bracket opened at ``po`` holds the margin named right before it ("by a large margin
    (17%)"), not a comparison of two levels ("by a significant margin (79.8% vs 68.0%)")."""
    close = text.find(")", po)
    inside = text[po : close if close >= 0 else po + 80]
    return _MARGIN_PAREN.search(text, s0, po + 1) is not None and not re.search(r"\b(?:vs|versus)\b", inside)


_CLAUSE_SPLIT = re.compile(
    r";|:\s|—|\s--\s|,\s(?=(?:while|whereas|but|and it|which|with|along with|and also|"
    r"and (?:we|our|the|it)\b))|\sand also\s"
)


def clause_bounds(text: str, s0: int, s1: int, pos: int) -> tuple[int, int]:
    """Start/end of the clause around ``pos`` inside sentence [s0, s1): split at ; : — and ", while"-like joins."""
    lo = s0
    for m in _CLAUSE_SPLIT.finditer(text, s0, pos):
        lo = m.end()
    split = _CLAUSE_SPLIT.search(text, pos, s1)
    return lo, (split.start() if split else s1)


def qualifier_of(text: str, t: Tok, s0: int) -> tuple[str | None, int]:
    """Qualifier written before the number (GUIDELINES values) and the span start including it; before a
    correlation symbol written before the number too ("up to Pearson r=0.95")."""
    # "up to Pearson r=0.95": the qualifier stands before the statistic's symbol
    if cm := CORRELATION.search(text, max(s0, t.span_start - 40), t.span_start):
        before = text[max(s0, cm.start() - 25) : cm.start()]
        for rx, q in QUALIFIERS:
            if m := rx.search(before):
                return q, cm.start() - (len(before) - m.start())
    pre = text[max(s0, t.span_start - 25) : t.span_start]
    for rx, q in QUALIFIERS:
        m = rx.search(pre)
        if m:
            return q, t.span_start - (len(pre) - m.start())
    between = text[t.span_start : t.num_start]
    if t.kind == "before_after" and " to " in between:  # "from 30% to up to 70%": the value after's qualifier
        after_to = between.split(" to ", 1)[1]
        after_q = next((q for rx, q in QUALIFIERS if rx.search(after_to)), None)
        if after_q:
            return after_q, t.span_start
    post = text[t.span_end : t.span_end + 12]
    if re.match(r"\s+or (?:less|fewer|lower)\b", post):
        return "up to", t.span_start
    if re.match(r"\s+or (?:more|higher)\b", post):
        return "at least", t.span_start
    return None, t.span_start


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


def subject_of(text: str, t: Tok, kind: str | None, s0: int) -> tuple[str, str | None]:
    """``("baseline", name)`` for a number reported for a compared method, else ``("ours", None)``.

    Rules (GUIDELINES: "Numbers in a 'vs.' or 'compared to' clause are baseline scores"; "GRPO's 40.1%";
    "(61.0% vs 42.9%)"): a vs./versus/compared-to cue right before the number; a possessive right before
    it; or a parenthesised list of plain scores right after a comparator ("outperforming X (86.0%)").
    Signed numbers and changes (delta, relative_change, multiplier, before_after, a number followed by
    "absolute" or "relative") are the paper's own.
    """
    if t.signed or kind in ("delta", "relative_change", "multiplier", "before_after"):
        return "ours", None
    if re.match(r"\s+(?:absolute|relative)\b", text[t.span_end : t.span_end + 12]):
        return "ours", None  # "(10% absolute and 16% relative improvement ...)": a change
    pre = text[max(s0, t.span_start - 60) : t.span_start]
    pre_q = QUAL_TEXT.sub("", pre)
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
    if po > pc and margin_bracket(text, s0, po):
        return "ours", None  # "surpassing X by large margins (3.7% and 1.2%)": the bracket holds the margin
    vs_after = re.match(r"\s*(?:vs\.?|versus)\s", text[t.span_end : t.span_end + 10]) is not None
    if po > pc and not vs_after and re.fullmatch(r"[\s\d.,%×x+and&<>~≈]*", text[po + 1 : t.span_start]):
        stripped = re.sub(r"\([^()]*\)", "", text[s0:po])
        cm = None
        for cm in _COMPARATOR.finditer(stripped):  # noqa: B007 (the last match)
            pass
        if cm is not None:
            between = stripped[cm.end() :]
            if not re.search(r"\d\s?(?:%|×)", between) and len(between) < 80:
                return "baseline", _one_baseline(between)
    return "ours", None


def direction_of(text: str, t: Tok, kind: str, lo: int, hi: int) -> str | None:
    """Which way the measured quantity moved (GUIDELINES: verb or sign; "faster"/"speedup" -> increase)."""
    if kind == "before_after":
        return "increase" if t.value > (t.vfrom or 0) else "decrease" if t.value < (t.vfrom or 0) else None
    if kind == "score":
        return None
    if t.signed:
        return "decrease" if t.value < 0 else "increase"
    near = text[t.span_end : min(hi, t.span_end + 30)]
    # the qualifier is no direction word ("reduces more than 90%": "more" is the qualifier's)
    before = QUAL_TEXT.sub("", text[max(lo, t.span_start - 70) : t.span_start])
    for seg, pick in ((near, min), (before, max)):
        d = [(m.start(), "increase") for m in UP.finditer(seg)] + [
            (m.start(), "decrease") for m in DOWN.finditer(seg)
        ]
        if d:
            return pick(d)[1]
    return None


def kind_of(text: str, t: Tok, lo: int, hi: int, metric: str | None) -> str:
    """The kind of :func:`kind_rule` alone."""
    return kind_rule(text, t, lo, hi, metric)[0]


#: "N% fewer/less/smaller ..." (not "less than"): the number is a relative change of what follows.
_SMALLER_AFTER = re.compile(
    r"\s*(?:fewer|less|smaller|shorter|cheaper|faster|slower|larger|more compact|"
    r"more\s+(?:[a-z-]+\s+)?[a-z]{3,}(?<!ss)(?<!us)(?<!is)s)\b(?!\s+than\b)",  # "82% more users": a count's change
    re.I,
)
#: "N% of the load/cost/time ...": a share of an amount, a relative change.
_OF_AMOUNT_AFTER = re.compile(
    r"\s*of\s+(?:the\s+)?(?:\w+\s+)?(?:load|cost|time|memory|compute|FLOPs|tokens|budget|storage|energy|size)\b",
    re.I,
)


def _absolute_at(text: str, a: int, b: int) -> list[int]:
    """Offsets of "absolute" in ``text[a:b]`` that are not part of a metric's name, judged on the whole text:
    "47.3% lower Mean Absolute Error" names a metric (the name may end past ``b``), not an absolute change."""
    return [a + m.start() for m in _ABSOLUTE.finditer(text[a:b]) if not _ERROR_AFTER.match(text, a + m.end())]


#: An error measured on its own scale, not a rate in percent: an error, a distance, a displacement ("joint final
#: displacement error", "Damerau-Levenshtein distance", "MPJPE"); "error rate" and other rates are percentages,
#: whose % changes are often points.
_ERROR_MEASURE = re.compile(
    r"(?i)(?<![\w-])(?:errors?|distances?|displacement|MPJPE)(?![\w-])(?!.*\brates?\b)"
)


def relative_of_error_measure(text: str, t: Tok, lo: int, hi: int, metric: str | None) -> bool:
    """Whether a % change of ``metric`` is a relative change because the metric is an error measured on its own
    scale (:data:`_ERROR_MEASURE`) and "absolute" is not said near the number: the amount rule of
    :func:`kind_rule` for a metric a linking rule named after the row's kind was decided ("reduces the joint
    final displacement error of A, B and C by 3%, 8%, and 12%, respectively"). Amounts of resources
    (parameters, FLOPs, time) are left out: named by linking, they are most often the cost side of the
    sentence, not the changed quantity (dev corpus: a trial with them changed 33 more rows, most with a wrong
    linked metric; docs/extraction.md)."""
    if t.unit != "%" or not metric or not _ERROR_MEASURE.search(metric):
        return False
    return not _absolute_at(text, max(lo, t.span_start - 25), min(hi, t.span_end + 25))


def _relative_nearer(text: str, a: int, b: int, t: Tok) -> bool:
    """Whether ``text[a:b]`` says "relative" and not "absolute", or "relative" nearer the number ``t``:
    "3.4% absolute reduction (26% relative)" is a delta, then a relative change. A "relative" after a number
    in brackets that follow is that number's: "by 4.7% (16.5% relatively)" makes 16.5% relative, not 4.7% (but
    a list shares it: "by 13% and 16% relative to the baseline")."""
    rel = [
        abs(p - t.span_start)
        for m in _RELATIVE.finditer(text[a:b])
        if not ((p := a + m.start()) > t.span_end and re.search(r"\(\D*\d", text[t.span_end : p]))
    ]
    ab = [abs(i - t.span_start) for i in _absolute_at(text, a, b)]
    return bool(rel) and (not ab or min(rel) < min(ab))


#: "absolute" right after a percentage: a change ("(10% absolute and 16% relative improvement in mean IoU)"),
#: unless it starts an error's name ("5% absolute relative depth errors").
_ABSOLUTE_AFTER = re.compile(r"\s+absolute\b(?!\s+(?:[\w-]+\s+){0,3}errors?\b)")
#: "by" right before the number: "by 3%", "by an average of 3%", "by a margin of", "by an additional 37.6%".
_BY_END = re.compile(
    r"\bby\s+(?:(?:an?\s+)?(?:\w+\s+)?(?:average|mean|margins?)\s+of\s+|an\s+additional\s+|a\s+further\s+|"
    r"another\s+)?$"
)


def kind_rule(text: str, t: Tok, lo: int, hi: int, metric: str | None) -> tuple[str, str | None]:
    """GUIDELINES kinds. ``x`` → multiplier; ``pp`` → delta; ``%``/plain: relative_change when the text says
    "relative", when N% is "fewer/less/shorter/smaller", or when the changed quantity is an amount (FLOPs,
    memory, tokens, cost, time, size, error rate, load…: :data:`AMOUNT`); delta for "by N", "+N",
    "N% gain/drop/improvement", "gain of N%", "outperforms X (by) N%"; otherwise score. Returns the kind and
    the named rule that decided it when one of the rules of :data:`pipeline.analyse.extraction.rules.RULES`
    named ``kind-*`` did (else None)."""
    if t.kind:
        return t.kind, None
    if t.unit == "x":
        return "multiplier", None
    if t.unit == "pp":
        return "delta", None
    pre = QUAL_TEXT.sub("", text[max(lo, t.span_start - 60) : t.span_start]).rstrip() + " "
    post = text[t.span_end : min(hi, t.span_end + 60)]
    near_a, near_b = max(lo, t.span_start - 25), min(hi, t.span_end + 25)
    says_absolute = bool(_absolute_at(text, near_a, near_b))
    if t.unit == "%" and _OF_THE_TIME.match(post):
        return "score", "share-of-the-time"
    if t.unit == "%" and _ABSOLUTE_AFTER.match(post):
        return "delta", "kind-change-named"
    if not t.signed and metric_equals(text, t.span_start):
        return "score", "kind-level-of"  # "(F1 = 0.71, 12.7% relative improvement)": the metric's value
    if _relative_nearer(text, near_a, near_b, t):
        named = "kind-change-named" if says_absolute else None
        return ("relative_change" if t.unit == "%" else "delta"), named
    if t.unit == "%" and (_SMALLER_AFTER.match(post) or _OF_AMOUNT_AFTER.match(post)):
        return "relative_change", None
    if t.unit == "%" and (_SAVING_BEFORE.search(pre) or _SPEEDUP_AFTER.match(post)):
        return "relative_change", "kind-saving-speedup"
    if _DIFFERENCE_BEFORE.search(pre) or _DIFFERENCE_AFTER.match(post):
        return "delta", "kind-difference"
    by = _BY_END.search(pre) is not None
    # a change noun that ends a metric name is none ("57.88% normalized discounted cumulative gain")
    near_change = _DELTA_NEAR.match(post)
    named = "kind-change-named" if near_change and near_change["far"] else None
    change_word = (
        near_change is not None
        and not LEX_AT_END.search(near_change[0])
        and not re.match(r"\s*or\s+(?:less|more|fewer)", post)
    )
    if re.search(r"[’']s\s+$", pre):
        return "score", None  # "the baseline's 30.2%"
    if not (t.signed or by) and re.match(r"\s*(?:vs\.?|versus)\s", post):
        return "score", None  # "(26mm vs 52mm)": the first of two compared levels
    of_change = re.search(
        r"(?:\b(?P<rel>relative)\s+(?:[\w-]+\s+)?)?\b(?:gains?|improvements?|increases?|reductions?|drops?|decreases?|gaps?)\s+"
        # what changed may be named between ("a drop in performance of only 1.35%")
        r"(?:\([^()]*\)\s+|(?P<what>in\s+(?:the\s+)?(?:(?!(?:at|on|for|with|over|by|to|from|and)\s)[\w@-]+\s+){1,4}))?of\s+(?:\w+\s+){0,2}$",
        pre,
        re.I,
    )
    if of_change and of_change["rel"] and t.unit == "%":
        return "relative_change", "kind-change-named"  # "a relative improvement in word-error rate of 8%"
    if of_change and of_change["what"]:
        named = "kind-change-named"
    # "surpassing X by 3%" is a margin; "surpassing 50% and 60%" (no object before the number) is a level
    # ... unless a verb of reaching a level stands right before the number: "outperforms two strong baselines
    # and achieves 89.6% accuracy" reports a level (rule kind-level-of)
    comparator = (
        re.search(r"\b(?:outperform\w*|surpass\w*|beat\w*)\s+[^\d%\s][^\d%]{0,58}$", pre, re.I) is not None
        and _LEVEL_VERB_BEFORE.search(pre) is None
    )
    paren_change = re.search(
        r"\b(?:gains?|loss|drops?|improvements?|degradation|increases?|decreases?|boosts?)"
        r"(?:\s+(?:in|of)\s+[\w-]+)?\s*\(\s*$",
        pre,
        re.I,
    ) is not None or (
        pre.rstrip().endswith("(") and margin_bracket(text, lo, text.rfind("(", lo, t.span_start))
    )
    # an explicit sign marks a change, except a negative plain score (a slope, a correlation); a percentage
    # level is never negative, so "-9% CHAIRi" is a change
    signed_change = t.signed and (t.value > 0 or t.unit == "%" or by or re.search(r"\bchang\w*\b", pre))
    if not (t.signed or by or of_change or paren_change) and _named_level(pre, post, change_word):
        return "score", "kind-level-of"
    if signed_change or by or change_word or of_change or comparator or paren_change:
        return _change_kind(text, t, lo, hi, metric, says_absolute, named)
    return "score", None


def _change_kind(
    text: str, t: Tok, lo: int, hi: int, metric: str | None, says_absolute: bool, named: str | None
) -> tuple[str, str | None]:
    """The kind of a number known to be a change (:func:`kind_rule`): relative_change or delta, and the named
    rule that decided it (``named`` when a change noun far after the number or "in <what> of" made it one)."""
    absolute = t.unit == "%" and says_absolute
    if t.unit == "%" and metric and AMOUNT.search(metric) and not absolute:
        return "relative_change", None  # the amount rule (relative_of_error_measure: for a name found later)
    # a % change that only goes down is a reduction of a quantity (dev gold: 14 of 17 such rows are
    # relative_change, while 58 of 66 % changes with an upward word are deltas) ... unless what goes down
    # is a higher-is-better score: "a 2.4% accuracy drop" loses points (six gold files: 4 of 4 deltas)
    window = text[max(lo, t.span_start - 60) : min(hi, t.span_end + 40)]
    down_only = t.unit == "%" and not t.signed and DOWN.search(window) and not UP.search(window)
    if down_only and not absolute:
        if metric_directions.direction_of(metric_key(metric)) == "higher":
            return "delta", "kind-score-drop"
        return "relative_change", named
    if t.unit == "%" and abs(t.value) > MAX_PERCENT_DELTA:
        return "relative_change", "kind-over-100-percent"
    # an amount or a reduction said to be "absolute" is a delta ("0.6% absolute CER reduction": points of a
    # rate)
    return "delta", "kind-change-named" if absolute else named


#: A verb of reaching a level right before a number ("and achieves 89.6%", "achieving an accuracy of").
_LEVEL_VERB_BEFORE = re.compile(
    r"\b(?:achiev\w*|reach\w*|obtain\w*|attain\w*|scor(?:e|es|ed|ing))\s+(?:(?:an?|the|[\w-]+)\s+){0,3}$",
    re.I,
)
#: A metric phrase naming the number as its value: "a MOTA score of ", "an accuracy for difficult contacts of "
#: (not "accuracy is 4% higher": "is" often states the change, and a comparative right after the number does).
_LEVEL_OF = re.compile(rf"(?<![\w-])(?:{LEX_WORDS}|{HEADS})\s+(?:[\w-]+\s+){{0,4}}?(?:of|=|:)\s+$", re.I)
# "93.4 significantly higher than": a comparison after a level; "1% top-5 accuracy drop" names a change
_THAN_AFTER_CHANGE = re.compile(
    r"^\s*(?:[\w@\-.]+\s+){0,2}?(?:higher|lower|better|worse|more|less|fewer|smaller|larger)\s+than\b",
    re.I,
)
# "success rates of 2.68% and 16.67% higher than": the list's last number says both are changes
_LIST_OF_CHANGES = re.compile(
    rf"^\s*(?:,\s*(?:and\s+)?|\s+and\s+)[\d.]+\s*%\s*(?:{V.alternation(V.CHANGE_WORDS)})\b", re.I
)
_CHANGE = re.compile(rf"\b{V.alternation(V.CHANGE_WORDS)}\b|\bby\b", re.I)


def _named_level(pre: str, post: str, change_word: bool) -> bool:
    """Whether a metric phrase before the number names it as its value ("a MOTA score of 93.4 significantly
    higher than ...", "an accuracy ... of about 30%, roughly 10% above"): a level whatever comparison follows,
    unless a change word is near before it, or right after it or after its list, or a change noun follows."""
    return bool(
        _LEVEL_OF.search(pre)
        and not _CHANGE.search(pre[-50:])
        and not _CHANGE.match(post.lstrip())
        and not (change_word and not _THAN_AFTER_CHANGE.match(post))
        and not _LIST_OF_CHANGES.match(post)
    )


#: "reduces FID by", "boosts mIoU scores by": a metric name right before "by" (checked only before a " by").
# a vocabulary metric right after the number ("2 BLEU", "1 BLEU score", "3 mAP")
_METRIC_RIGHT_AFTER = re.compile(rf"\s(?-i:{LEX_WORDS})(?![\w-])")
# math notation around a number: an interval with a square bracket ("[-1,1]", "(0, 1]"; "(+2.1, +3.4)" is a list of
# changes, "within [-1.07, -3.43]%" a range of results), a function or an operator right after it
# ("-2 log∫", "-1/2"), a definition before it ("≜ -2", ":= -1")
_MATH_AROUND = re.compile(
    r"(?:\[\s*[-−+]?\d+(?:\.\d+)?\s*,\s*[-−+]?\d+(?:\.\d+)?\s*[\])]|\(\s*[-−+]?\d+(?:\.\d+)?\s*,\s*[-−+]?\d+(?:\.\d+)?\s*\])"
    r"(?!\s?%)"
    r"|[-−+]?\d+(?:\.\d+)?\s*(?:log|exp|ln|sin|cos|∫|√|∑|∏|\^|/\d)"
    r"|(?:≜|:=|≡|∝)\s*[-−+]?\d"
)
_METRIC_BY = re.compile(rf"(?:{LEX_WORDS})\s+(?:\([^()]{{1,20}}\)\s+)?(?:(?:score|value)s?\s+)?by\s*$", re.I)
#: "runs at 30 FPS", "operates in 12 ms": a measure the method runs at is its result (vocabulary RUN_VERBS).
_RUNS_AT = re.compile(rf"\b{V.alternation(V.RUN_VERBS)}\s+(?:at|in)\s+(?:only\s+|about\s+|over\s+)?$", re.I)

#: Units of a measure that is a result wherever it is written: times per item, distances, decibels.
# a length or an angle named as the value of an error or an accuracy, before it ("an average error of 0.90 cm",
# "a redirection error of only 2deg", "improved the accuracy to 0.53 cm") or after it ("29cm median error")
_LENGTH_NAMED_BEFORE = re.compile(
    rf"\b{V.alternation(V.LENGTH_RESULT_WORDS)}\s*(?:\([^()]*\)\s*)?(?:of|is|was|=|:|to|within)\s+(?:only\s+)?$",
    re.I,
)
_LENGTH_NAMED_AFTER = re.compile(rf"\s*(?:[a-z-]+\s+){{0,2}}{V.alternation(V.LENGTH_RESULT_WORDS)}\b")
_PER_ITEM_UNITS = ("ms", "mm", "dB", "ms/frame", "ms/image", "s/frame", "µs", "μs", "ns")
#: A plain decimal named as a change: "a 0.06 increase in FID", "2.51 absolute improvement", "a 4.5-point gain"
#: (after the number); "improvements of 19.22", "outperforms BART by 5.80" (before it). Rule plain-change.
_CHANGE_NOUN_AFTER = re.compile(
    r"[\s-]?(?:points?\s+|pts?\s+)?(?:absolute\s+|relative\s+|average\s+)?"
    # singular, but for "improvements": "SQuAD 2.0 drops ..." is a version and a verb
    r"(?:increase|improvements?|gain|drop|reductions?|decrease|boost)\b(?!\s+(?:of|in)\s+(?:the\s+)?"
    r"(?:number|amount|size)\b)",
    re.I,
)
_CHANGE_NOUN_BEFORE = re.compile(
    r"(?:\b(?:improvements?|gains?|increases?|reductions?|drops?|decreases?|boosts?)\s+of|"
    r"\b(?:outperform\w*|surpass\w*|beat\w*|exceed\w*)\s+[^.;:()]{1,40}?\bby)\s*$",
    re.I,
)
#: One lower-case word naming the variant of a metric after a plain number ("28.9 mask AP", "41.0 box AP"):
#: any word but a function word or a comparative (those make it a change or a setting).
_MODIFIER = (
    r"(?-i:(?!(?:and|or|of|the|in|on|for|with|to|at|by|than|vs|per|higher|lower|more|less|better|worse)\b)"
    r"[a-z][a-z-]{1,14})"
)
#: The metric a change "by N" is measured in, named after it ("by 8.0 in average F-score", "by 2.1 in terms of
#: BLEU").
_IN_METRIC_AFTER = re.compile(
    rf"\s+in\s+(?:terms\s+of\s+)?(?:the\s+)?(?:[\w-]+\s+)?(?:{LEX_WORDS})(?![\w-])",
    re.I,
)
# a vocabulary metric, its bracketed abbreviation and a head noun: "F1", "mean IoU (mIoU)", "BLEU scores"
_METRIC_HEAD = rf"(?:{LEX_WORDS})\s*(?:\([^()]*\)\s*)?(?:(?:scores?|measures?|values?)\s+)?"
#: A metric named right before a number as its level ("F1 of", "BLEU score is", "mAP:", "accuracy drops to").
_LEVEL_NAMED_BEFORE = re.compile(
    rf"{_METRIC_HEAD}(?:of|is|was|=|:|at|reaches|reaching|to|"
    rf"(?:drops?|falls?|rises?|improves?|increases?|decreases?)\s+(?:to|from))?\s*$",
    re.I,
)
#: A metric named before an integer as its level ("recall of", "F1 scores of", "precision and recall are").
_LEVEL_OF_BEFORE = re.compile(rf"{_METRIC_HEAD}(?:of|are|were|=)\s*$", re.I)
#: What may follow an integer that is a level and not a count: punctuation or a function word, no noun.
_NO_NOUN_AFTER = re.compile(
    r"\s*(?:[,.;]|$|(?:and|or|for|on|in|with|at|across|compared|vs|versus|while|which|when|than|"
    r"respectively)\b)"
)
#: A metric name right after an integer that is its level: "48 BLEU", "61 F1" (not "16 classifiers").
_INT_METRIC_AFTER = re.compile(rf"\s?(?:{LEX_WORDS})(?![\w-])(?!\s+(?:points?|pts?)\b)", re.I)
_RESULT_CUE = re.compile(
    r"\b(achiev\w*|attain\w*|reach\w*|obtain\w*|scor\w*|yield\w*|outperform\w*|surpass\w*|improv\w*|"
    r"record\w*|report\w*|deliver\w*|get|gets|sets?|establish\w*|results?|accurac\w*|rate|performance)\b",
    re.I,
)


def accept_plain(text: str, t: Tok, s0: int) -> bool:
    """Whether a number without %/pp/x is a reported result (GUIDELINES: plain scores "BLEU 28.4",
    "F1 of 0.91", "slope -0.38", "FID 2.9"; measures such as "65ms"; a baseline "versus 62.6")."""
    if t.setup:
        return False
    pre = text[max(s0, t.span_start - 40) : t.span_start]
    pre_q = QUAL_TEXT.sub("", pre).rstrip() + " "  # the text before, without its qualifiers
    post = text[t.span_end : t.span_end + 30]
    if t.measure:
        u = (t.unit_text or "").strip()  # a measure always has its unit text
        if u == "s":
            return re.search(r"\b(?:vs\.?|versus)\s*$", pre) is not None
        if u in V.NAMED_MEASURE_UNITS:
            return bool(_LENGTH_NAMED_BEFORE.search(pre_q) or _LENGTH_NAMED_AFTER.match(post))
        if u in _PER_ITEM_UNITS or u.startswith("second"):
            return True  # times per item are results wherever they are written ("10 seconds per image")
        # other measures ("12 GB", "30 fps") are results only next to a change, a comparison or a metric word
        ctx = text[max(s0, t.span_start - 50) : t.span_end + 40]
        if _RUNS_AT.search(pre):
            return True
        if u in V.UNIT_METRICS and _RESULT_CUE.search(text, s0, t.span_start):
            return True  # a rate that names its metric, in a sentence that reports results ("achieve ... 33 FPS")
        return bool(UP.search(ctx) or DOWN.search(ctx) or LEX.search(ctx) or AMOUNT.search(ctx))
    if t.decimal and correlation_before(text, s0, t.span_start):
        return True
    if time_taken(text, t.start, t.num_end):
        return True  # "learn in under 5 minutes": the time a task takes (vocabulary TIME_TAKEN_BEFORE)
    if re.match(r"\s?/\s?\d", post) or re.search(r"\d\s?/\s?$", pre):
        return False  # fractions such as 5/5, 1/2
    if pre.rstrip().endswith(" by") and _METRIC_BY.search(pre):
        return True  # "reduces FID by 100", "improves BLEU by 2": a change of the metric just named
    if METRIC_THEN_CHANGE.match(post) and not re.search(r"\d\s?[-–]\s?$", pre):
        return True  # "by 6 BLEU points", "(3 mAP higher)": a change of the metric named after the number
    if _METRIC_RIGHT_AFTER.match(post) and (
        pre.rstrip().endswith(" by") or _CHANGE_NOUN_BEFORE.search(pre_q)
    ):
        return True  # "improves by 2 BLEU", "an improvement of 1 BLEU score": a change in the metric's units
    if not (t.decimal or t.signed):
        # plain integers are counts unless a unit says otherwise, or a metric names a number of two digits or
        # more as its level and no noun follows ("a recall of 83 and a precision of 92 for", not "the
        # accuracy of 16 classifiers", "a power of 2", "error: 1)")
        if not re.fullmatch(r"\d{2,3}", text[t.num_start : t.num_end]):
            return False
        if _LEVEL_OF_BEFORE.search(pre_q) and _NO_NOUN_AFTER.match(post):
            return True
        # "our technique obtains 83% accuracy, 75% top-5 accuracy and 48 BLEU": a metric right after, in a
        # sentence that reports results; not the end of a range ("a 2-27 BLEU gain") nor a bracketed setting
        # ("2.51 (10 NFE)")
        return bool(
            _INT_METRIC_AFTER.match(post)
            and _RESULT_CUE.search(text, s0, t.span_start)
            and not re.search(r"(?:\d\s?[-–]|\()\s*$", pre)
        )
    if re.search(r"\b(?:margins?|gaps?)\s+of\s+$", pre):
        return True  # "outperforms X by a huge margin of 9.3"
    if pre.rstrip().endswith(" by") and _IN_METRIC_AFTER.match(post):
        return True  # "improve an attentional baseline by 8.0 in average F-score"
    # plain-change: "a 0.06 increase in FID", "improvements of 19.22", "outperforms X by 5.80"
    if _CHANGE_NOUN_AFTER.match(post) or _CHANGE_NOUN_BEFORE.search(QUAL_TEXT.sub("", pre)):
        return True
    if _LEVEL_NAMED_BEFORE.search(pre_q):
        return True
    # "28.4 BLEU", "88.1 ± 0.3 F1", "0.949 Pearson correlation" (a capitalised name before the metric word)
    if re.match(
        rf"(?:{SPREAD.pattern})?\s?\(?(?:(?-i:[A-Z][\w'’-]*|{_MODIFIER})\s)?(?:{LEX_WORDS})(?![\w-])",
        post,
        re.I,
    ):
        return True
    if t.signed and not _MATH_AROUND.search(
        text, max(s0, t.span_start - 12), min(len(text), t.span_end + 12)
    ):
        return True
    if re.match(r"\s(?:on|in)\s+(?:the\s+)?[A-Z]", post) and _RESULT_CUE.search(text[s0 : t.span_start]):
        return True
    if re.search(r"\b(?:vs\.?|versus)\s*$", pre):
        return True
    return False
