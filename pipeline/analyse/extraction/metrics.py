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

Pipeline per abstract (one module per step):
1. :mod:`pipeline.analyse.extraction.tokens`: every number token is found with its sign, ``k`` suffix
   (``1.2k`` → 1200) and the unit written right after it (``%``/percent → ``%``; percentage points/pp/points
   → ``pp``, except "200k points" or "1000 points", counts of points (``tokens.counts_points``);
   ×/x/-fold/times → ``x``; ms/mm/dB/s are kept as measures with unit ``None`` and the unit in
   ``unit_text``; more in ``MEASURE_UNITS``).
2. Numbers that are part of a name or describe the setup are dropped (GUIDELINES "NOT metrics") by the named
   setup rules ``tokens.SETUP_RULES`` (listed with examples in :data:`pipeline.analyse.extraction.rules.RULES`):
   digits glued to letters (``GPT-4``, ``Llama-3.1-8B``, ``7B``, ``32K``, ``T5``, ``AIME2024``), ``8×7B`` and
   ``256×256``, ``@0.5``, exponents, version numbers, ``2-bit``/``128-shot``-style hyphenated settings,
   "95% CI", years; plain integers without a metric cue are not results (:mod:`.roles`, ``accept_plain``).
3. Ranges (``10–20%``, ``2--3``, ``3x-5x``, ``26~35×``), before→after (``from 5.1 to 4.3``) (``tokens``),
   results in words (:mod:`.spelled`) and plain scores (a metric name next to the number, ``N on
   <Benchmark>``, a sign, a measure unit, a ``vs.`` partner) are recognised; lists ("A, B and C times")
   share their unit.
4. Each kept number gets ``kind``, ``subject``/``baseline``, ``direction`` and ``qualifier`` from its clause
   and sentence (:mod:`.roles`), ``metric`` and ``dataset`` (:mod:`.names`); this module assembles the rows.
5. Names are linked over the sentence (:mod:`pipeline.analyse.extraction.linking`: respectively-lists, one
   metric for several numbers, the data set of a pair, a sentence or an abstract) and keyed
   (:mod:`pipeline.analyse.extraction.keys`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.analyse.extraction import dataset_linking, linking
from pipeline.analyse.extraction import vocabulary as V
from pipeline.analyse.extraction.coordination import (
    accept_coordinated,
    bracket_partner,
    list_groups,
    partner_dataset,
    share_elided_change,
    share_in_groups,
    share_set_with_partner,
)
from pipeline.analyse.extraction.dataset_names import (
    PREP_NAME,
    bracket_after,
    dataset_after,
    dataset_before,
    dataset_before_bracket,
)
from pipeline.analyse.extraction.keys import dataset_key, metric_key
from pipeline.analyse.extraction.names import (
    acronym_after,
    compared_with,
    dataset_in_metric,
    metric_after,
    metric_before,
    metric_open,
    own_scale_points,
    own_top_k,
)
from pipeline.analyse.extraction.patterns import (
    LEX,
    METRIC_POINTS,
    METRIC_THEN_CHANGE,
    rate_after,
    time_taken,
)
from pipeline.analyse.extraction.roles import (
    accept_plain,
    clause_bounds,
    direction_of,
    kind_rule,
    margin_bracket,
    qualifier_of,
    relative_of_error_measure,
    subject_of,
)
from pipeline.analyse.extraction.rows import MetricDraft, MetricRow
from pipeline.analyse.extraction.sentences import sentences
from pipeline.analyse.extraction.spelled import (
    SPELLED_GATE,
    SPELLED_GATE_KEYS,
    WORD_GATE,
    WORD_GATE_KEYS,
    gate,
    spelled_results,
    word_results,
)
from pipeline.analyse.extraction.tidy import tidy_metric
from pipeline.analyse.extraction.tokens import (
    METRIC_POINTS_RULE,
    Tok,
    number_tokens,
    pair_structures,
)

RULES_VERSION = "56"  # with keys, text, rules; bump when outputs change (docs/execution.md)

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


_ANY_DIGIT = re.compile(r"\d")
#: Rule names of the ways a number becomes a row (``Tok.why``).
_WHY_RULE = {
    "from-to": "before-after",
    "range": "range",
    "slash": "slash-pair",
    "spelled": "spelled-number",
    "unit-%": "accept-unit",
    "unit-pp": "accept-unit",
    "unit-x": "accept-unit",
}


_TIME_UNIT = re.compile(V.alternation(V.TIME_UNITS))
_RUNS_AT = re.compile(
    rf"\b(?:{V.alternation(V.RUN_VERBS)})\s+(?:at|in)\s+(?:only\s+|just\s+|under\s+|about\s+|less than\s+)?$",
    re.I,
)


@dataclass(slots=True, frozen=True)
class _Kept:
    """A token kept as a result, with its sentence ``[s0, s1)`` and clause ``[lo, hi)``."""

    t: Tok
    s0: int
    s1: int
    lo: int
    hi: int


def extract_metrics(text: str) -> list[MetricRow]:
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
    spelled = (spelled_results(text) if gate(SPELLED_GATE, SPELLED_GATE_KEYS, text) else []) + (
        word_results(text) if gate(WORD_GATE, WORD_GATE_KEYS, text) else []
    )
    if not has_digit and not spelled:
        return []
    sents = sentences(text)
    kept = _kept_results(text, _candidates(text, spelled), sents)
    attached = []  # (start, end) of "N on X" attachments, so X is not reused for another number
    for k in kept:
        m = PREP_NAME.match(text, k.t.span_end + 1) if text[k.t.span_end : k.t.span_end + 1] == " " else None
        if m:
            attached.append((m.start(), m.end()))
    rows: list[MetricDraft] = []
    partners: list[tuple[int, int]] = []  # (row, its bracketed partner's row)
    for i, k in enumerate(kept):
        # the dataset is looked for after the number up to the next number of the sentence, past a bracketed
        # partner ("an NMI of 0.705 (0.431) on CIFAR-10 (CIFAR-100)"; rule coordinated-result)
        j = i + 1
        while j < len(kept) and kept[j].s0 == k.s0 and bracket_partner(text, kept[j - 1].t, kept[j].t):
            j += 1
        partners += [(i, i + 1)] if j == i + 2 else []
        nxt = kept[j].t.span_start if j < len(kept) and kept[j].s0 == k.s0 else k.s1
        rows.append(_draft_row(text, k, nxt, attached))
    for i, p in partners:
        rows[p]["dataset"] = partner_dataset(text, rows[i], rows[p], kept[i].s1)
    _share_across_lists(text, rows)
    linking.link_respectively(text, rows, sents)
    linking.share_clause_metric(text, rows)
    linking.share_sentence_metric(text, rows)
    linking.share_of_metric(text, rows)
    linking.share_antecedent_metric(text, rows)
    linking.share_sentence_metric(text, rows)  # a share named by the step before reaches its sentence
    dataset_linking.share_baseline_dataset(text, rows)
    dataset_linking.share_sentence_dataset(text, rows)
    dataset_linking.share_same_dataset(text, rows)
    dataset_linking.share_contest_dataset(text, rows)
    dataset_linking.share_abstract_dataset(text, rows, sents)
    dataset_linking.share_sentence_named_dataset(text, rows)
    dataset_linking.share_elaborated_dataset(text, rows, sents)
    _kind_of_linked_metric(text, kept, rows)
    own_scale_points(rows)
    own_top_k(text, rows)
    return [_published(r) for r in _level_invariants(rows)]


def _candidates(text: str, spelled: list[Tok]) -> list[Tok]:
    """The paired number tokens of ``text`` merged with the results written in words, in text order, plain
    decimals of a list accepted with the accepted number that ends it."""
    toks = pair_structures(text, number_tokens(text))
    if spelled:
        # a word result replaces a setup token it covers ("1st place") and a plain integer inside it ("2--3
        # orders of magnitude"), never a kept number
        kept_toks = [
            t
            for t in toks
            if not (t.setup and any(t.num_start <= s.num_start < t.end for s in spelled))
            and not (
                t.unit is None
                and not t.decimal
                and not t.measure
                and any(s.num_start <= t.num_start < s.end for s in spelled)
            )
        ]
        spelled = [s for s in spelled if not any(t.num_start <= s.num_start < t.end for t in kept_toks)]
        toks = sorted(kept_toks + spelled, key=lambda t: t.span_start)
    accept_coordinated(text, toks)
    return toks


def _kept_results(text: str, toks: list[Tok], sents: list[tuple[int, int]]) -> list[_Kept]:
    """The tokens that are results (not setup, accepted by a unit or :func:`accept_plain`), each once: the
    same value restated in brackets right after ("2x cheaper (~2× fewer GPU hours)") is one fact."""
    kept: list[_Kept] = []
    for t in toks:
        if t.setup:
            continue
        s0, s1 = next(((a, b) for a, b in sents if a <= t.span_start < b), (0, len(text)))
        if not t.accepted:
            t.accepted = t.unit in ("%", "pp", "x") or accept_plain(text, t, s0)
            t.why = t.why or (f"unit-{t.unit}" if t.unit else "measure-unit" if t.measure else "plain-result")
            if t.accepted and t.why == "plain-result" and METRIC_THEN_CHANGE.match(text, t.span_end):
                t.why = METRIC_POINTS_RULE  # "by 6 BLEU points", "(3 mAP higher)"
        if not t.accepted:
            continue
        if (
            kept
            and kept[-1].t.value == t.value
            and kept[-1].t.unit == t.unit
            and re.fullmatch(r"[^()\d]{0,40}\(\s*[~≈]?\s*", text[kept[-1].t.span_end : t.span_start])
        ):
            continue
        lo, hi = clause_bounds(text, s0, s1, t.span_start)
        kept.append(_Kept(t, s0, s1, lo, hi))
    return kept


def _metric_of(text: str, k: _Kept) -> tuple[str | None, list[str]]:
    """The metric of a kept number and the rules that named it (the first rule is how it became a row)."""
    t = k.t
    metric = t.group if t.why in ("slash", "spelled") else None
    acronym = None if metric else acronym_after(text, t)
    metric = tidy_metric(metric or acronym or metric_after(text, t, k.hi) or metric_before(text, t, k.lo))
    row_rules = (["metric-after-acronym"] if acronym else ["metric-lexicon"]) if metric else []
    unit_word = (t.unit_text or "").strip() if t.measure else ""
    if unit_word in V.UNIT_METRICS:
        metric, row_rules = V.UNIT_METRICS[unit_word], ["metric-unit"]
    elif (
        not metric
        and _TIME_UNIT.fullmatch(unit_word)
        and _RUNS_AT.search(text, max(k.lo, t.span_start - 40), t.span_start)
    ):
        metric, row_rules = "runtime", ["metric-runtime"]  # "runs in 3.2s/frame", "runs at 29.3ms"
    if not metric and (unit := time_taken(text, t.start, t.num_end)):
        # the time a task takes: its device-time unit ("315 GPU hours"), else "time" (gold: "training time",
        # "design time", "GPU hours")
        metric, row_rules = (unit if " " in unit or "-" in unit else "time"), ["metric-time-taken"]
    if not metric:
        metric, rule = metric_open(text, t, k.s0, k.lo, k.hi)
        metric = tidy_metric(metric)
        row_rules += [rule] if metric and rule else []
    if not metric and t.unit == "%" and (metric := rate_after(text, t.span_end, k.hi)):
        row_rules.append("metric-rate-after")  # "0.39% failure rate"
    row_rules.insert(0, _WHY_RULE.get(t.why, t.why) if t.why else "plain-result")
    if t.unit == "pp" and row_rules[0] != METRIC_POINTS_RULE and METRIC_POINTS.match(text, t.num_end):
        row_rules.append(METRIC_POINTS_RULE)  # a range "1–5 F1 points" got its unit from the metric's points
    return metric, row_rules


def _draft_row(text: str, k: _Kept, nxt: int, attached: list[tuple[int, int]]) -> MetricDraft:
    """The row of one kept number: metric, dataset (after the number before ``nxt``, else earlier in the
    sentence outside ``attached``), subject, kind, direction, qualifier and the rules that decided them."""
    t, s0, lo, hi = k.t, k.s0, k.lo, k.hi
    qualifier, q_start = qualifier_of(text, t, s0)
    metric, row_rules = _metric_of(text, k)
    dataset, named = dataset_in_metric(metric)
    if named and dataset_after(text, t.span_end, min(nxt, hi)) not in (None, dataset):
        dataset, named = None, None  # "a 40% CLS score on the R4R dataset": the set after the number wins
    if named:
        metric = named
        row_rules.append("dataset-in-metric")
    subject, baseline = ("ours", None) if t.unit in ("x", "pp") else subject_of(text, t, t.kind, s0)
    kind, kind_named = (
        ("score", None) if subject == "baseline" and t.kind is None else kind_rule(text, t, lo, hi, metric)
    )
    row_rules += [kind_named] if kind_named else []
    if kind_named == "share-of-the-time" and metric and metric.lower() in ("time", "cases", "trials", "runs"):
        metric = None  # "41% of the time": the share of the cases, not a time

    if not dataset and t.dataset:
        dataset = t.dataset
        row_rules += [] if "slash-datasets" in row_rules else ["slash-datasets"]
    b_metric, b_set = bracket_after(text, t.span_end, multiplier=t.unit == "x")
    if (b_metric and not metric) or (b_set and not dataset):
        metric, dataset = metric or b_metric, dataset or b_set
        row_rules.append("bracket-after-number")
    po = _in_paren(text, s0, t.span_start)
    # a multiplier in brackets after a name compares with it ("BA libraries: Ceres (41.45×)"), never a set's
    if not dataset and po >= 0 and subject == "ours" and t.unit != "x":
        dataset = dataset_before_bracket(text, s0, po)
        row_rules += ["dataset-before-bracket"] if dataset else []
    if not dataset:
        dataset = dataset_after(text, t.span_end, min(nxt, hi))
        if dataset and subject == "baseline" and dataset == baseline:
            dataset = None  # "(compared to 15% for BART)": the name after a baseline's number is the baseline
        if dataset:
            row_rules.append("dataset-after")
        else:
            dataset = dataset_before(text, s0, t.span_start, attached)
            row_rules += ["dataset-before"] if dataset else []
    if subject == "baseline":
        row_rules.append("subject-baseline")
    if po >= 0 and margin_bracket(text, s0, po):
        row_rules.append("margin-bracket")
    if subject == "ours" and kind in ("delta", "relative_change", "multiplier"):
        baseline = compared_with(text[lo:hi])
    return MetricDraft(
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
        direction=direction_of(text, t, kind, lo, hi),
        qualifier=qualifier,
        span=text[q_start : t.span_end],
        start=q_start,
        end=t.span_end,
        rules=row_rules + (["unsigned-multiplier"] if t.dash else []),
        _s0=s0,
        _s1=k.s1,
        _lo=lo,
        _hi=hi,
        _paren=_in_paren(text, s0, t.span_start),
    )


def _published(r: MetricDraft) -> MetricRow:
    """The returned row of a draft: the fields of :data:`METRIC_FIELDS` in that order, with the name keys."""
    return MetricRow(
        value=r["value"],
        value_text=r["value_text"],
        unit=r["unit"],
        unit_text=r["unit_text"],
        kind=r["kind"],
        value_from=r["value_from"],
        value_low=r["value_low"],
        value_high=r["value_high"],
        metric=r["metric"],
        metric_key=metric_key(r["metric"]),
        dataset=r["dataset"],
        dataset_key=dataset_key(r["dataset"]),
        subject=r["subject"],
        baseline=r["baseline"],
        direction=r["direction"],
        qualifier=r["qualifier"],
        span=r["span"],
        start=r["start"],
        end=r["end"],
        rules=r["rules"],
    )


#: Rule name of the row-assembly guard that turns a negative percentage "score" into a change.
NEGATIVE_PERCENT_RULE = "negative-percent-change"
#: Rule name (in code only: its rows are not published) of the guard that refuses a multiplier <= 0.
POSITIVE_MULTIPLIER_RULE = "positive-multiplier"


def _kind_of_linked_metric(text: str, kept: list[_Kept], rows: list[MetricDraft]) -> None:
    """A % change whose kind was decided before a linking rule named its metric is decided again on that name
    (rule kind-of-linked-metric): a change of an amount is relative (:func:`.roles.relative_of_error_measure`), so
    "reduces the joint final displacement error of A, B and C by 3%, 8%, and 12%, respectively" gives three
    relative changes, not deltas. ``rows`` and ``kept`` are parallel; rows change in place."""
    for r, k in zip(rows, kept, strict=True):
        if (
            r["kind"] == "delta"
            and k.t.kind is None
            and not {"kind-difference", "kind-change-named"} & set(r["rules"])
            and relative_of_error_measure(text, k.t, k.lo, k.hi, r["metric"])
        ):
            r["kind"] = "relative_change"
            r["rules"].append("kind-of-linked-metric")


def _level_invariants(rows: list[MetricDraft]) -> list[MetricDraft]:
    """The last rules of row assembly, so that every row satisfies the table invariant
    ``schemas.models.PaperMetrics.non_negative_levels`` whatever the rules before decided:

    - :data:`NEGATIVE_PERCENT_RULE`: a percentage level is never negative, so a negative % row of kind
      ``score`` is a change: kind ``delta``, direction ``decrease`` (the sign), the rule appended to ``rules``
      (e.g. "the baseline's -5.1% accuracy drop", where the possessive made it a baseline's level).
    - :data:`POSITIVE_MULTIPLIER_RULE`: a multiplier is never zero or negative; such a number is not a
      result (a list sharing "x" with a signed number, "-3 and 5 times"), so the row is refused. A minus
      sign written before an "x" number is already read as a dash by ``number_tokens`` (rule
      unsigned-multiplier).

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


def _share_across_lists(text: str, rows: list[MetricDraft]) -> None:
    """Fill attributes across coordinated numbers (in place).

    - A list "by 31.88% and 10.95%", "2.24% on EGTEA, 3.97% on MECCANO, and 1.49%" shares the head's kind,
      metric, qualifier "up to" and baseline ("33.9% and 32.2% accuracy" shares the tail's metric).
    - A number in brackets or after vs. inherits metric/dataset of the number it is compared to; a bracketed
      list of baselines is aligned by position with the earlier list of the paper's numbers
      ("91.1% on CRUXEval and 86.5% on LiveCodeBench, outperforming X (86.0% and 77.7%)").
    - A change with no metric takes the one metric of its clause, or the metric of the score it is compared to.
    """
    groups = list_groups(text, rows)
    share_in_groups(text, rows, groups)
    share_set_with_partner(text, rows)
    _inherit_compared(rows)
    _align_baseline_lists(rows, groups)
    _clause_metric_of_changes(text, rows)
    share_elided_change(text, rows)
    _comparator_metric_of_changes(text, rows)


def _inherit_compared(rows: list[MetricDraft]) -> None:
    """Bracketed / vs. numbers inherit metric and dataset from the number they are compared to."""
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
            if linking.lends_metric(src):
                r["metric"] = r["metric"] or src["metric"]
            r["dataset"] = r["dataset"] or src["dataset"]
            if (
                r["kind"] == "score"
                and src["kind"] in ("delta", "relative_change")
                # a baseline's number outside brackets, compared with a change, is that baseline's change
                # ("a drop of 1.35% AUPRC, compared with 12% for Med-BERT"); in brackets it is its level
                and (r["subject"] == "ours" or (r["_paren"] < 0 and "kind-level-of" not in r["rules"]))
                and src["unit"] == r["unit"]
                # "by 4.2% (68.99% vs 64.73%)": a bracket of our level and a baseline's restates no change
                and not (
                    i + 1 < len(rows)
                    and rows[i + 1]["_paren"] == r["_paren"] >= 0
                    and rows[i + 1]["subject"] == "baseline"
                )
            ):
                r["kind"], r["direction"] = src["kind"], src["direction"]  # "by 1% (notably 4% on GSM8K)"


def _align_baseline_lists(rows: list[MetricDraft], groups: list[list[int]]) -> None:
    """A bracketed list of baseline numbers is aligned by position with the paper's earlier list."""
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


def _clause_metric_of_changes(text: str, rows: list[MetricDraft]) -> None:
    """A change with no metric of its own, in a clause that names exactly one metric and no other number
    ("state-of-the-art accuracy on VQA-CP v2 with a 7.55% improvement"), takes that metric."""
    for r in rows:
        if r["metric"] is None and r["kind"] in ("delta", "relative_change"):
            lo, hi = clause_bounds(text, r["_s0"], len(text), r["start"])
            lo = max(lo, text.rfind(",", lo, r["start"]) + 1)
            comma = text.find(",", r["end"], hi)
            hi = comma if comma >= 0 else hi
            clause = text[lo:hi]
            names = {m[0].lower() for m in LEX.finditer(clause)}
            others = [x for x in rows if x is not r and lo <= x["start"] < hi]
            first = LEX.search(clause)
            if len(names) == 1 and not others and first:
                r["metric"] = first[0]


def _comparator_metric_of_changes(text: str, rows: list[MetricDraft]) -> None:
    """A change reported after a comparator with no metric of its own takes the metric of the sentence's score."""
    for i, r in enumerate(rows):
        if (
            r["metric"] is None
            and r["kind"] == "delta"
            and i
            and rows[i - 1]["_s0"] == r["_s0"]
            and rows[i - 1]["kind"] == "score"
            and linking.lends_metric(rows[i - 1])
            and re.search(r"\b(?:surpass\w*|outperform\w*|beat\w*)\b", text[rows[i - 1]["end"] : r["start"]])
        ):
            r["metric"] = rows[i - 1]["metric"]
