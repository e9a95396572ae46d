"""The shapes of the rows extraction returns, as ``TypedDict``s (plain dicts at run time).

- :class:`MetricRow`: one row of :func:`pipeline.analyse.extraction.metrics.extract_metrics` (keys
  :data:`pipeline.analyse.extraction.metrics.METRIC_FIELDS`, the paper_metrics table of ``schemas/models.py``).
- :class:`MetricDraft`: a metric row while it is assembled and linked: no keys yet, plus the private bounds of
  its sentence (``_s0``/``_s1``), clause (``_lo``/``_hi``) and unclosed bracket (``_paren``, -1 for none).
- :class:`UrlRow`: one row of :func:`pipeline.analyse.extraction.urls.extract_urls` (keys ``URL_FIELDS``).
- :class:`AbstractResult`: what :func:`pipeline.analyse.abstracts.analyse_abstract` returns for one abstract.
"""

from __future__ import annotations

from typing import TypedDict


class MetricValues(TypedDict):
    """The fields a metric row has from its assembly on: ``value`` float (None for a range), ``value_text`` as
    written, ``unit`` "%"|"pp"|"x"|None, ``unit_text`` the unit as written, ``kind`` one of ``METRIC_KINDS``,
    ``subject`` "ours"|"baseline", ``direction`` "increase"|"decrease"|None, ``span`` == ``text[start:end]``
    (character offsets into the clean abstract), ``rules`` the names of the rules that decided it."""

    value: float | None
    value_text: str
    unit: str | None
    unit_text: str | None
    kind: str
    value_from: float | None
    value_low: float | None
    value_high: float | None
    metric: str | None
    dataset: str | None
    subject: str
    baseline: str | None
    direction: str | None
    qualifier: str | None
    span: str
    start: int
    end: int
    rules: list[str]


class MetricDraft(MetricValues):
    """A metric row being assembled: its sentence ``[_s0, _s1)``, clause ``[_lo, _hi)`` and the offset of the
    unclosed "(" before its number in the sentence (``_paren``, -1 for none); dropped from the returned row."""

    _s0: int
    _s1: int
    _lo: int
    _hi: int
    _paren: int


class MetricRow(MetricValues):
    """A returned metric row: the values plus the grouping keys of its names
    (:mod:`pipeline.analyse.extraction.keys`, None when the name is None)."""

    metric_key: str | None
    dataset_key: str | None


class UrlRow(TypedDict):
    """A URL of an abstract: ``url`` canonical, ``url_raw`` as written (``raw[start:end] == url_raw``),
    ``kind`` one of ``URL_KINDS``, ``host`` lower-case, ``repo`` "host/owner/name" or None."""

    url: str
    url_raw: str
    kind: str
    host: str
    repo: str | None
    start: int
    end: int


class AbstractResult(TypedDict):
    """The per-abstract analysis: clean ``abstract``, ``language`` (ISO code or "und") and its score (0-1),
    ``n_words``, ``content_hash`` (hex str), ``quarantine_reason`` (None when kept), its URL and metric rows,
    and ``lsh_keys`` (ints; empty when quarantined)."""

    abstract: str
    language: str
    language_score: float
    n_words: int
    content_hash: str
    quarantine_reason: str | None
    urls: list[UrlRow]
    metrics: list[MetricRow]
    lsh_keys: list[int]


#: Rules that read a row's data set from the words right at its number ("N on X", "X (N)", "X top-1 accuracy",
#: a "respectively" list): a set shared from a list or a partner never overrides them.
SET_AT_NUMBER = frozenset(
    {"dataset-after", "dataset-before-bracket", "dataset-in-metric", "respectively-datasets"}
)
