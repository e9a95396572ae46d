"""The words extraction knows, as data: one table per kind of word, one entry per line.

The tables live in one module per kind of word: :mod:`.metric_words` (metric names, units, change and
direction words, qualifiers), :mod:`.setup_words` (setup nouns and suffixes, model names),
:mod:`.dataset_words` (words around data-set names) and :mod:`.url_words` (hosts and cues of URLs), and
:mod:`.metric_directions` (which way each metric is better, imported by its own name); this
package re-exports them all, so a rule reads ``vocabulary.METRIC_NAMES`` whatever its module. Adding a metric
name, a setup word or a cue is a one-line change in the module of its kind; the rules in
:mod:`pipeline.analyse.extraction.metrics` and :mod:`pipeline.analyse.extraction.urls` compile these tables into patterns
(:func:`words`) and never spell the words themselves.

Each entry is a regular-expression fragment matched case-insensitively as a whole word (``(?:s)?`` style
suffixes allowed), unless the table says otherwise. Sources: the gold labelling guidelines (what is a result
and what is setup), the direction lexicon of the extraction notes (lower/higher is better), and the words
read in the dev gold abstracts and a sample of the dev corpus.
"""

from __future__ import annotations

import re

from pipeline.analyse.extraction.vocabulary.dataset_words import (
    CONTEST_HEADS,
    COUNT_WORDS,
    DATASET_HEADS,
    GENERIC_CAPITALS,
    GENERIC_DATASET_WORDS,
    NOT_DATASET_HEADS,
    TASK_ACRONYMS,
)
from pipeline.analyse.extraction.vocabulary.metric_words import (
    ADJECTIVE_METRICS,
    AMOUNT_WORDS,
    CHANGE_NOUNS,
    CHANGE_VERB_STEMS,
    CHANGE_WORDS,
    COMPARATIVE_METRICS,
    COMPARED_NOUNS,
    COMPARISON_VERB_STEMS,
    CORRELATION_SYMBOLS,
    DOWN_WORDS,
    LENGTH_RESULT_WORDS,
    MEASURE_UNITS,
    METRIC_ADJECTIVES,
    METRIC_HEADS,
    METRIC_NAMES,
    NAMED_MEASURE_UNITS,
    ORDINALS,
    POINT_SCALE_METRICS,
    QUALIFIERS,
    RUN_VERBS,
    SIGNIFICANCE_MAX,
    SPEED_VERB_STEMS,
    TIME_TAKEN_BEFORE,
    TIME_TAKEN_UNITS,
    TIME_UNITS,
    UNIT_METRICS,
    UP_WORDS,
    VERB_METRICS,
    WORD_FRACTIONS,
)
from pipeline.analyse.extraction.vocabulary.setup_words import (
    MODEL_NAMES,
    PERCENT_OF_SETUP,
    PERCENT_SETUP_LEVELS,
    SETUP_HYPHEN_SUFFIXES,
    SETUP_NOUNS,
)
from pipeline.analyse.extraction.vocabulary.url_words import (
    BARE_HOSTS,
    DATASET_HOSTS,
    DEMO_HOSTS,
    GIT_HOSTS,
    GIT_RESERVED,
    PAGE_HOST_SUFFIXES,
    PAPER_HOSTS,
    URL_CUES,
)

RULES_VERSION = "30"  # bump when outputs change (docs/execution.md)


def words(table, flags: int = re.I, bounded: bool = True) -> re.Pattern:
    """One compiled alternation of a table's entries, as whole words when ``bounded``."""
    alt = "|".join(table)
    return re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])" if bounded else f"(?:{alt})", flags)


def alternation(table) -> str:
    """The entries of a table as one regex alternation (no groups, no bounds), for embedding in a rule."""
    return "(?:" + "|".join(table) + ")"


__all__ = [
    "METRIC_NAMES",
    "MEASURE_UNITS",
    "NAMED_MEASURE_UNITS",
    "LENGTH_RESULT_WORDS",
    "WORD_FRACTIONS",
    "ORDINALS",
    "CORRELATION_SYMBOLS",
    "SIGNIFICANCE_MAX",
    "METRIC_ADJECTIVES",
    "METRIC_HEADS",
    "RUN_VERBS",
    "TIME_TAKEN_BEFORE",
    "TIME_TAKEN_UNITS",
    "TIME_UNITS",
    "POINT_SCALE_METRICS",
    "UNIT_METRICS",
    "ADJECTIVE_METRICS",
    "COMPARATIVE_METRICS",
    "CHANGE_NOUNS",
    "CHANGE_VERB_STEMS",
    "COMPARED_NOUNS",
    "COMPARISON_VERB_STEMS",
    "SPEED_VERB_STEMS",
    "VERB_METRICS",
    "AMOUNT_WORDS",
    "UP_WORDS",
    "DOWN_WORDS",
    "CHANGE_WORDS",
    "QUALIFIERS",
    "SETUP_NOUNS",
    "SETUP_HYPHEN_SUFFIXES",
    "PERCENT_OF_SETUP",
    "PERCENT_SETUP_LEVELS",
    "MODEL_NAMES",
    "GENERIC_CAPITALS",
    "NOT_DATASET_HEADS",
    "TASK_ACRONYMS",
    "DATASET_HEADS",
    "CONTEST_HEADS",
    "GENERIC_DATASET_WORDS",
    "COUNT_WORDS",
    "BARE_HOSTS",
    "GIT_HOSTS",
    "GIT_RESERVED",
    "DATASET_HOSTS",
    "PAPER_HOSTS",
    "DEMO_HOSTS",
    "PAGE_HOST_SUFFIXES",
    "URL_CUES",
    "words",
    "alternation",
]
