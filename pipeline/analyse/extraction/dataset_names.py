"""Data-set names around a number: the benchmark named after it ("on CIFAR-10"), before it ("CIFAR-10
(93.2%)", "ImageNet top-1 of 81%"), coordinated with another ("on A and B"), and what may be one (each a named
rule of :data:`pipeline.analyse.extraction.rules.RULES`). Metric names: pipeline.analyse.extraction.names."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.patterns import (
    GENERIC_CAP,
    HEAD_WORD,
    LEX,
    LEX_AT_END,
    LEX_WORDS,
    LOWER_PREFIX_NAME,
    MODEL_NAME,
    NUMBER,
    SUFFIXED_METRIC,
    TASK_NAMES,
)

if TYPE_CHECKING:
    from pipeline.analyse.extraction.tokens import Tok

#: A data-set head word ("dataset", "benchmark", "corpus" ...: vocabulary DATASET_HEADS).
DATASET_WORD = V.words(V.DATASET_HEADS)


def dataset_like(np_: str) -> bool:
    """A phrase that names a data set, not a metric: it holds "dataset"/"benchmark", or it is a capitalised
    name with digits ("CIFAR-10") and holds no metric word."""
    if DATASET_WORD.search(np_):
        return True
    return bool(re.search(r"[A-Z][A-Za-z]*-?\d", np_)) and not (LEX.search(np_) or HEAD_WORD.search(np_))


# Function words, never part of a lower-case set or contest name.
_FUNCTION_WORD_ALT = r"(?:than|the|a|an|of|to|for|with|and|or|by|that|which|as|is|are|was|were|on|in|at|from)"
#: A name may begin with digits before a capital ("300-W", "3DMatch", "7-Scenes", "3DPW"), but not a
#: dimension, a count, a resolution or a factor ("2D datasets", "3-D", "10K images", "1080P", "2MP", "4X").
_DIGIT_START = r"(?<![\w.,])(?!\d+-?(?:D|K|M|B|G|T|P|X|MP|GB|TB)\b)\d+-?(?=[A-Z])"


PREP_NAME = re.compile(
    r"\b(?:(?i:in|for|across)\s+(?:the\s+|both\s+|a\s+)?(?:(?:challenging|popular|public|standard|widely-used|"
    r"[a-z]+-based)\s+)?|(?i:on)\s+(?:the\s+|both\s+|a\s+)?"
    # after "on", up to two lower-case modifiers before the name ("the competitive SemanticKITTI",
    # "the zero-shot Habitat ObjNav", "demand-driven navigation DDN"), never a function word
    r"(?:(?!(?:and|or|of|to|with|by|than|that|which|our|their|its|all|each|these|those|this|most|many|"
    r"several|other|some|both|two|three|four|five|terms|average|addition|particular|contrast)\s)"
    r"[a-z][a-z\-]+\s+){0,2})"
    rf"(?P<name>(?:[A-Z]|{_DIGIT_START}|{LOWER_PREFIX_NAME})"
    r"(?:\.(?=\w)|[\w'’\-+→])*(?:[\s-](?:[A-Z0-9](?:\.(?=\w)|[\w'’\-+→])*|v\d[\w.]*|test-\w+|Lite|Verified|generation|"
    r"scenario|split|\d+))*)"
)
_BENCH_NAME = re.compile(
    r"\b(?:benchmark|dataset)s?\s+(?:of\s+|like\s+|such as\s+|including\s+)?"
    r"(?P<name>[A-Z][\w'’.\-+]*(?:\s[A-Z0-9][\w'’.\-+]*)?)|"
    rf"\b(?:the\s+)?(?P<name2>(?:[A-Z]|{_DIGIT_START})[\w'’.\-+]*(?:\s[A-Z0-9][\w'’.\-+]*){{0,3}}|"
    # a lower-case name before a singular "benchmark"/"dataset": "the ogbl-vessel benchmark", "the mnist1d dataset"
    r"(?<=the\s)(?!(?:real|large|small|well|open|widely|publicly|state|multi|cross|few|zero|high|low|long|short|"
    r"fine|self|semi|non|full|single|new|two|three|in|out|hand|human|web|task|domain)-)"
    r"(?:[a-z][a-z\d]*(?:-[a-z\d]+)+|[a-z]+\d\w*|[a-z]{1,5}[A-Z][\w+.\-]*)(?=\s+(?:benchmark|dataset|data set)\b(?!s)))"
    r"\s+(?:benchmark|dataset|data set)s?\b"
)
_LOWER_SET = re.compile(
    r"\s*(?:On|In)\s+the\s+(?P<name>(?:[a-z][\w-]*\s){0,2}(?:scenes|split|set|subset|tasks?))\b"
)


# A named contest: capitalised words or a year ("NeurIPS 2018 Adversarial Vision", "ImageNet 2013"), up to three
# lower-case words that are no function words ("detection", "egocentric action anticipation"), a contest head
# (vocabulary CONTEST_HEADS, singular: "NLP challenges" are difficulties) and an optional edition ("challenge
# 2019", "Cup 2015").
_CONTEST = re.compile(
    r"(?<![\w'’.+-])(?!(?:On|In|For|At|Of|To|By|As|From|With)\s)"
    r"(?P<name>(?:[A-Z][\w'’+-]*(?:\.\w+)*|\d{4})(?:\s(?:[A-Z0-9][\w'’+-]*(?:\.\w+)*))*"
    rf"(?:\s(?!(?:{_FUNCTION_WORD_ALT}|our|its|their|this|we)\b)[a-z][\w-]*){{0,3}}\s{V.alternation(V.CONTEST_HEADS)}"
    r"(?:\s(?:\d{4}|[A-Z]*\d+[\w-]*))?)(?![\w-])"
)
# a contest is named after "the" ("the official ImageNet 2013 detection challenge") or dated ("KDD Cup 2015"); "an
# NLP challenge", "a key ML challenge" are none
_THE_BEFORE = re.compile(r"\bthe\s+(?:[a-z][\w-]*\s+){0,2}$", re.I)


def contest_names(text: str, lo: int, hi: int) -> list[str]:
    """The named contests of ``text[lo:hi]`` in order (:data:`_CONTEST`): "the NeurIPS 2018 Adversarial Vision
    Challenge" -> "NeurIPS 2018 Adversarial Vision Challenge". A contest is named after "the" or with a year
    in its name, and its words before the head hold two capitals or a digit ("the Invariants challenge" is
    none)."""
    out = []
    for m in _CONTEST.finditer(text, lo, hi):
        words = re.sub(r"\s\S+(?:\s\d{4})?$", "", m["name"])
        named = _THE_BEFORE.search(text, max(0, m.start() - 40), m.start()) or re.search(r"\d", m["name"])
        if named and re.search(r"[A-Za-z]", words) and re.search(r"\d|[A-Z][^A-Z]*[A-Z]", words):
            out.append(m["name"])
    return out


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
    name = re.split(r"-{2,}|—", name)[0].strip(" .,'’")  # "CIFAR-10---and": a dash run ends the name
    name = re.sub(r"\s(?:benchmarks?|datasets?|and|with|while|using|under|across)$", "", name)
    first = name.split()[0] if name else ""
    if (
        not name
        or first in GENERIC_CAP
        or name in TASK_NAMES
        or MODEL_NAME.search(name)
        or LEX.fullmatch(name)
    ):
        return None
    if len(name) < 2 or "=" in name or _HARDWARE.search(name):
        return None
    return name


#: A device a measure was taken on is no data set ("29.2 fps on Samsung S21 GPU", "on a single Titan X GPU").
_HARDWARE = re.compile(r"(?:^|\s)(?:[GCTN]PUs?|DSPs?|FPGAs?|ASICs?|(?:smart)?phones?|devices?)$")


_PARTNER = re.compile(r"\s+and\s+(?P<name>[A-Z][\w'’.\-+]*[\w+](?:\s[A-Z0-9][\w'’.\-+]*[\w+])?)(?![\w-])")


def _with_partner(text: str, end: int, name: str) -> str:
    """ "on CUB-200-2011 and ImageNet" for one number: the data set is both names, as written."""
    m = _PARTNER.match(text, end)
    if m and _ok_dataset(m["name"]) and not _NOT_DATASET_AFTER.match(text, m.end()):
        return f"{name} and {m['name']}"
    return name


_FUNCTION_WORD = rf"{_FUNCTION_WORD_ALT}\b"
# "on real student behavior dataset", "on the remote sensing benchmark", "on the visual wake words (VWW) dataset":
# a data set described, not named, or named by an acronym in brackets only (its
# words are no function words: "accuracy than the benchmark" is no set; "the same dataset" refers back).
_DESCRIBED_SET = re.compile(
    rf"\s*(?:\(\w+\)\s*)?(?:on|in)\s+(?:the\s+)?(?!(?:{V.alternation(V.GENERIC_DATASET_WORDS)}|"
    rf"{V.alternation(V.COUNT_WORDS)}|same)\b)(?P<name>(?:(?!{_FUNCTION_WORD})[a-z][\w-]*\s){{1,3}}"
    r"(?:\([A-Z][\w-]*\)\s)?(?:dataset|benchmark))\b"
)


_SLASH_METRIC = re.compile(rf"/(?:{LEX_WORDS})(?![\w-])", re.I)


# "+3.2% and +2.0% improvements in MR and AP": what a change is "in" is the quantity that changed.
_CHANGE_IN = re.compile(
    r"\b(?:gains?|improvements?|increases?|boosts?|drops?|decreases?|reductions?|degradation)\s+in\s+(?:the\s+)?$",
    re.I,
)


def _metric_named(text: str, m: re.Match) -> bool:
    """A capitalised name after a preposition that is a metric, not a data set: it ends in a metric word ("on IC
    Recall", "on ST F1 Score", "in MR"), has a cut-off glued after it ("in PSP@1", "Recall@10"), a metric
    after a slash ("on ASR/SSIM"), or follows a change noun and "in" ("improvements in MR and AP")."""
    name = m["name"].strip(" .,")
    after = text[m.end("name") : m.end("name") + 30]
    return bool(
        LEX_AT_END.search(name)
        or after.startswith("@")
        or _SLASH_METRIC.match(after)
        or _changed_quantity(text, m, name)
    )


def _changed_quantity(text: str, m: re.Match, name: str) -> bool:
    """The name after "<change noun> in" is what changed ("improvements in MR", "a 15% reduction in ASR") unless
    the change names its metric before ("accuracy degradation in ImageNet classification") or the name is a
    data set's ("gain in VOT2016 dataset", "degradation in Cifar10")."""
    cm = _CHANGE_IN.search(text, max(0, m.start("name") - 30), m.start("name"))
    if not cm or dataset_like(name) or DATASET_WORD.match(text, m.end("name") + 1):
        return False
    return not LEX_AT_END.search(text, max(0, cm.start() - 30), cm.start())


_ASIDE = re.compile(r"\s?\([^()]*\)")


def dataset_after(text: str, start: int, end: int) -> str | None:
    """The data set named after the number, in ``text[start:end]``: "N on X" (a described set "on the remote
    sensing benchmark" included), past a bracketed aside right after the number ("50.4% (+8.2%) on COCO"); the
    metric names after "on"/"in" are passed over."""
    # a bracketed aside right after the number is passed over: "50.4% (+8.2%) on COCO" is measured on COCO
    aside = _ASIDE.match(text, start, end)
    lo = aside.end() if aside else start
    m = _DESCRIBED_SET.search(text, start, end + 40)
    if m and not re.search(r"\d\s?(?:%|×)", text[lo : m.start()]):
        if not ("(" in m["name"] and "," in text[start : m.start()]):  # "on BRIGHT, a ... (IR) benchmark"
            return m["name"]
    for m in PREP_NAME.finditer(text, start, end):
        if re.search(r"\d\s?(?:%|×)", text[lo : m.start()]):
            return None
        metric_like = _metric_named(text, m)
        name = None if _generic_mention(text, m) or metric_like else _ok_dataset(m["name"])
        if name:
            return _with_partner(text, m.end("name"), name)
        if not (metric_like or LEX.fullmatch(m["name"].strip(" .,"))):
            return None
    return None


# A slash list of data sets after a slash list of numbers, in the same order: "29.45/17.29 BLEU on IWSLT14/WMT14",
# "5.5%/6.5% on ScanNet/SUN RGB-D" (a second word in capitals or a year belongs to the name),
# "3.7 / 17.4 / 2.0 on Eurocity / TJU-traffic / Caltech", "27.1%/30.6% registration recall improvements on
# 3DMatch/3DLoMatch"; a bare suffix after the first name repeats its stem ("on Kinetics-400/600", "CROHME
# 2014/2016").
_SLASH_SET_NAME = r"[A-Z0-9][\w.+\-]*[\w+](?:\s(?:\d{4}|[A-Z][A-Z\d\-]*[A-Z\d])(?![\w-]))?"
_SLASH_SETS = re.compile(
    r"(?:[^,;.()/\d]|(?<=[A-Za-z@.-])\d){0,50}?\b(?:on|in)\s+(?:the\s+)?"
    rf"(?P<names>{_SLASH_SET_NAME}(?:\s?/\s?(?:{_SLASH_SET_NAME}|\d+))+)(?![\w/-])"
)


def slash_sets(text: str, end: int, count: int) -> list[str] | None:
    """The ``count`` data sets of a slash list named after a slash list of ``count`` numbers ending at ``end``
    (:data:`_SLASH_SETS`), or None when the names are not ``count`` data sets (models: "on ResNet32/ResNet18",
    metrics: "on ASR/SSIM"). Only "on" and "in" introduce the sets: "for GIN/Graphormer" names models."""
    m = _SLASH_SETS.match(text, end)
    if not m:
        return None
    # a metric after the last set is not part of its name ("on LaSOT/TNL2K AUC")
    parts = [
        re.sub(r"\s(\S+)$", lambda w: "" if LEX.fullmatch(w[1]) else w[0], p.strip())
        for p in m["names"].split("/")
    ]
    stem = re.match(r"(.*?[\s-])\d+$", parts[0])
    names = [f"{stem[1]}{p}" if stem and p.isdigit() else p for p in parts]
    if len(names) != count or any(p.isdigit() and not stem for p in parts):
        return None
    ok = [_ok_dataset(n) for n in names]
    if not all(ok) or not all(re.search(r"[A-Za-z]", n) for n in names):
        return None
    return [n for n in ok if n]


_NAME_BEFORE_BRACKET = re.compile(
    r"(?:\b(?i:on|in|for|and)|[,:])\s+(?:the\s+)?"
    rf"(?P<name>(?:[A-Z]|{LOWER_PREFIX_NAME})"
    r"[\w'’.\-+]*(?:\s(?:[A-Z0-9][\w'’.\-+]*|v\d[\w.]*))*)"
    r"\s*\(\s*$"
)


# A list introduced as things other than data sets: "larger architectures such as VGG and WideResNet (94% ...".
_KIND_LIST_BEFORE = re.compile(
    rf"\b{V.alternation(V.NOT_DATASET_HEADS)}\s*(?:such as|including|like|e\.g\.,?|:)\s[^.;]*$", re.I
)


# A bracket right after a number that holds one name (and perhaps a comment after a comma): "7% (Waymo)",
# "4.6% (DukeMTMC-Market1501)", "62.3% (AlpacaEval 2.0, length-controlled)". Names start with a capital or a
# lower-case prefix ("nuScenes"), hold at most three words, and no number stands alone in them.
_BRACKET_NAME = re.compile(
    rf"\s?\(\s*(?:on\s+)?(?P<name>(?:[A-Z]|{LOWER_PREFIX_NAME})[\w'’.\-+]*(?:\s[A-Z0-9][\w'’.\-+]*){{0,2}})"
    r"\s*(?:,[^()]{0,40})?\)"
)


_UNIT_NAME = re.compile(rf"(?-i:{V.alternation(V.MEASURE_UNITS)})")


def bracket_after(text: str, end: int, multiplier: bool = False) -> tuple[str | None, str | None]:
    """``(metric, dataset)`` named by a bracket right after a number ending at ``end`` (:data:`_BRACKET_NAME`):
    a vocabulary metric ("16.57% (FPR95)", "6.67% (BLEU)") or a data set ("7% (Waymo)"); a model ("6.5%
    (LLaVA)"), a task acronym, a generic capital or the unit again ("111 frames per second (FPS)") names neither,
    and after a ``multiplier`` only a metric counts ("52× (ConvNet-4)" names the setting). ``(None, None)`` when
    there is no such bracket."""
    m = _BRACKET_NAME.match(text, end)
    if m is None:
        return None, None
    name = m["name"].strip(" .,")
    if SUFFIXED_METRIC.fullmatch(name):
        return name, None
    # "52× (ConvNet-4)": the setting compared in; "111 frames per second (FPS)": the unit again
    if multiplier or _UNIT_NAME.fullmatch(name):
        return None, None
    if " " in name and not re.search(r"[A-Z]\S*[A-Z0-9]|\d", name):
        return None, None  # capitalised words, no name ("Best Paper Award")
    return None, _ok_dataset(name)


def dataset_before_bracket(text: str, s0: int, paren: int) -> str | None:
    """The data set a bracketed result is reported for: the capitalised name right before its "(", after "on",
    "in", "for", "and" or a list comma ("on AudioSet (53.3 mAP) and VGGSound (67.1% accuracy)"), unless the
    list is of other things ("architectures such as VGG and WideResNet (94% ...)")."""
    m = _NAME_BEFORE_BRACKET.search(text, max(s0, paren - 60), paren + 1)
    if (
        not m
        or _generic_mention(text, m)
        or _KIND_LIST_BEFORE.search(text, max(s0, m.start() - 80), m.start())
    ):
        return None
    return _ok_dataset(m["name"])


# A set coordinated after ", and" with the set named before it, its own numbers following: "on COCO val set with
# 58.0% PQ, and Cityscapes val set with 68.4% PQ", "on OntoNotes 5.0, only requiring 13% ..., and CoNLL 2003,
# requiring only 27%".
_COORD_SET = re.compile(
    r",\s+and\s+(?:on\s+|in\s+)?(?:the\s+)?"
    rf"(?P<name>(?:[A-Z]|{LOWER_PREFIX_NAME})[\w'’.\-+]*(?:\s(?:[A-Z0-9][\w'’.\-+]*|v\d[\w.]*))*)"
    r"(?=\s*(?:,|\(|(?:(?:val|validation|test|dev)\s+)?(?:set|split|dataset|benchmark)s?\b|with\b))"
)

#: The data a model was trained on, named before a later number: not the set the number is reported on.
_TRAINED_BEFORE = re.compile(r"(?i)\b(?:pre-?)?(?:trained|fine-?tuned|distilled)\s+(?:only\s+)?$")

_TRAINED_LIST_TAIL = re.compile(
    r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:the\s+)?[A-Z][\w'’.\-+]*(?:\s[A-Z0-9][\w'’.\-+]*)*)+"
)

#: A list of names going on after a name: "on Human3.6M and MPI-INF-3DHP", "on A, B".
_LIST_GOES_ON = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)(?:the\s+)?[A-Z]")
_OWN_NUMBER = re.compile(rf"(?<![\w.-]){NUMBER}(?![\w-])")


def dataset_before(text: str, s0: int, end: int, attached: list[tuple[int, int]]) -> str | None:
    """A benchmark named earlier in the sentence and not attached to another number's "N on X"; a set coordinated
    after ", and" with one named before it that has its own number in between (:data:`_COORD_SET`) takes over."""
    found = []
    taken = set()
    # the data a model was trained on (its whole list) yields to a set named apart from it; alone, it stays
    trained: list[str] = []
    trained_spans: list[tuple[int, int]] = []
    for m in PREP_NAME.finditer(text, s0, end):
        name = None if _generic_mention(text, m) or _metric_named(text, m) else _ok_dataset(m["name"])
        if (
            name
            and text.startswith("on", m.start())
            and _TRAINED_BEFORE.search(text, max(s0, m.start() - 30), m.start())
        ):
            trained.append(name)
            tail = _TRAINED_LIST_TAIL.match(text, m.end())
            trained_spans.append((m.start(), tail.end() if tail else m.end()))
            continue
        if any(a <= m.start() <= b for a, b in attached):
            if name:
                taken.add(name)
                if _LIST_GOES_ON.match(text, m.end()):
                    taken.add("")  # "by 11.8% and 12% on A and B, respectively": no one benchmark to share
            continue
        if name:
            found.append(name)
    if found and ", and " in text[s0:end]:
        last = None
        for m in _COORD_SET.finditer(text, s0, end):
            name = None if _generic_mention(text, m) or _metric_named(text, m) else _ok_dataset(m["name"])
            if name and not any(a <= m.start() <= b for a, b in attached):
                last = name
        at = text.rfind(last or "\0", s0, end)
        prev = max(text.rfind(f, s0, end) + len(f) for f in found)
        # the set before it has its own number in between ("X val set with A, and Y"), so it is no plain list
        if last and at > prev and _OWN_NUMBER.search(text, prev, at):
            found.append(last)
    if not found and len(taken) == 1:
        found = list(taken)  # the sentence's only benchmark, named for an earlier number
    if not found:
        for m in _BENCH_NAME.finditer(text, s0, end):
            g = "name" if m["name"] else "name2"
            name = (
                None if _COUNT_BEFORE.search(text, max(0, m.start(g) - 30), m.start(g)) else _ok_dataset(m[g])
            )
            name = _with_partner(text, m.end(g), name) if name and g == "name" else name
            if name and not any(a <= m.start(g) < b for a, b in trained_spans):
                found.append(name)
    if not found:
        found = trained  # "trained on COCO data alone, our system achieves COCO test-dev AP of 0.665"
    if not found:
        lower = _LOWER_SET.match(text, s0)
        if lower and lower.end() <= end:
            found.append(lower["name"])
    return found[-1] if found else None


def accept_slash_sets(text: str, toks: list[Tok]) -> None:
    """A slash list of numbers followed by a slash list of as many data sets is that many results, each on its
    set in order (rule slash-datasets, :func:`pipeline.analyse.extraction.dataset_names.slash_sets`): the
    numbers are accepted and carry their set in ``dataset``."""
    i = 0
    while i < len(toks):
        j = i
        while j + 1 < len(toks) and re.fullmatch(r"\s?/\s?", text[toks[j].end : toks[j + 1].start]):
            j += 1
        run = toks[i : j + 1]
        if j > i and not any(t.setup for t in run) and any(t.decimal or t.unit == "%" for t in run):
            names = slash_sets(text, run[-1].end, len(run))
            for t, name in zip(run, names or [], strict=False):
                t.accepted, t.why, t.dataset = True, t.why or "slash-datasets", name
        i = j + 1


def sets_named_in(text: str, lo: int, hi: int) -> list[str] | None:
    """The data sets ``text[lo:hi]`` names, in order: "on/in/across X" (:data:`PREP_NAME`, with a coordinated
    partner: "on OTB-2015 and Temple-Color") and "X dataset/benchmark" (:data:`_BENCH_NAME`), each passed by
    the checks of the other set rules (no generic mention, no metric, no model, no task acronym); never a name
    after "for" (a model: "compared to 15% for BART") or after "on a/an" (a device: "on a Samsung S8"). None
    when the span names several sets at once: a plural set head ("on CIFAR10 and CIFAR100 datasets", "across all
    MI benchmarks") or a slash list ("on the CROHME 2014/2016/2019 test sets")."""
    if _SEVERAL_SETS.search(text, lo, hi):
        return None
    out = []
    for m in PREP_NAME.finditer(text, lo, hi):
        if _generic_mention(text, m) or _metric_named(text, m) or _NOT_A_SET_PREP.match(m.group()):
            continue
        name = _ok_dataset(m["name"])
        if name:
            if text.startswith("/", m.end("name")):
                return None
            out.append(_with_partner(text, m.end("name"), name))
    for m in _BENCH_NAME.finditer(text, lo, hi):
        group = "name" if m["name"] else "name2"
        name = None if _generic_mention(text, m, group) else _ok_dataset(m[group])
        if name:
            out.append(name)
    return out


#: A preposition whose capitalised object is no data set: "for" (a model) and "on a"/"in an" (a device).
_NOT_A_SET_PREP = re.compile(r"(?i:for\b|(?:on|in)\s+an?\s)")
#: A plural set head: the span names several sets.
_SEVERAL_SETS = re.compile(r"\b(?:datasets|benchmarks|corpora|data sets|test sets)\b")
