"""Extraction of URLs and reported result metrics from one abstract (pure functions: text in, rows out).

Modules, in the order a number moves: ``vocabulary`` (the words, as data tables, one module per kind),
``patterns`` (those tables compiled once), ``tokens`` (number tokens, the named setup rules that reject a
number, ranges and pairs), ``spelled`` (results written in words), ``coordination`` (numbers coordinated with a result, and the lists of rows that share a head's fields), ``roles`` (clause, qualifier, subject,
direction, kind, whether a plain number is a result), ``names`` (metric and data-set names), ``metrics`` (the
rows and :func:`extract_metrics`), ``linking`` (names over the sentence), ``keys`` (grouping keys),
``rules`` (every named rule with its reason and examples; those of the metric names in ``name_rules``, of the data sets in ``dataset_rules``, the setup rules in ``setup_rules``), ``rows`` (the row types), ``sentences``, ``urls``.

- :func:`pipeline.analyse.extraction.urls.extract_urls` reads ``abstract_raw``; offsets index ``abstract_raw``.
- :func:`pipeline.analyse.extraction.metrics.extract_metrics` reads the clean ``abstract``; offsets index ``abstract``.
"""

from pipeline.analyse.extraction.metrics import METRIC_FIELDS, extract_metrics
from pipeline.analyse.extraction.rows import MetricRow, UrlRow
from pipeline.analyse.extraction.urls import URL_FIELDS, extract_urls

__all__ = ["extract_urls", "extract_metrics", "URL_FIELDS", "METRIC_FIELDS", "MetricRow", "UrlRow"]
