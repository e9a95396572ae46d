"""Extraction of URLs and reported result metrics from one abstract (pure functions: text in, rows out).

Modules: ``vocabulary`` (the words, as data tables), ``rules`` (named metric rules with reasons and examples),
``metrics`` (numbers -> rows), ``linking`` (names over the sentence), ``keys`` (grouping keys), ``urls``, ``text``.

- :func:`pipeline.analyse.extraction.urls.extract_urls` reads ``abstract_raw``; offsets index ``abstract_raw``.
- :func:`pipeline.analyse.extraction.metrics.extract_metrics` reads the clean ``abstract``; offsets index ``abstract``.
"""

from pipeline.analyse.extraction.metrics import METRIC_FIELDS, extract_metrics
from pipeline.analyse.extraction.urls import URL_FIELDS, extract_urls

__all__ = ["extract_urls", "extract_metrics", "URL_FIELDS", "METRIC_FIELDS"]
