"""Property-based tests (hypothesis) of extraction: for arbitrary text, and for text built from the fragments
abstracts are made of (numbers, units, %, URLs, LaTeX, unicode), ``extract_metrics`` and ``extract_urls`` never
raise and every row's offsets give back its text.

The offset invariants, as the functions document them:

- URL rows: ``raw[start:end] == url_raw`` (:func:`pipeline.analyse.extraction.urls.extract_urls`).
- Metric rows: ``text[start:end] == span`` (qualifier, number and unit); ``value_text`` (the number as written)
  lies inside ``span``; rows are in text order (their ends do not decrease); the keys are :data:`METRIC_FIELDS` in that order
  (:func:`pipeline.analyse.extraction.metrics.extract_metrics`).
"""

import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.analyse.cleaning import clean_abstract
from pipeline.analyse.extraction import METRIC_FIELDS, URL_FIELDS, extract_metrics, extract_urls

SETTINGS = settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

NUMBERS = [
    "81.2",
    "-0.38",
    "+4.1",
    "1,024",
    "81,2",
    "1.2k",
    "0",
    "2024",
    "3",
    ".5",
    "−5.1",
    "±0.3",
    "10–20",
    "2--3",
]
UNITS = ["%", " %", "% points", " pp", "x", "×", "-fold", " times", " ms", " GB", " fps", "B", "K", "", "/"]
WORDS = [
    "accuracy",
    "F1",
    "BLEU",
    "mAP",
    "on ImageNet",
    "on COCO and LVIS",
    "from",
    "to",
    "by",
    "vs.",
    "respectively",
    "improves",
    "reduces",
    "up to",
    "about",
    "twice as fast",
    "two orders of magnitude",
    "half the",
    "ranked first",
    "zero error",
    "GPT-4",
    "Llama-3.1-8B",
    "(",
    ")",
    ",",
    ".",
    ";",
    "and",
    "r =",
    "Kendall's τ=",
    "95% CI",
    "5-fold cross-validation",
    "repeated",
    "k =",
    "256×256",
    "between",
    "baseline's",
    "compared to",
    "the",
]
URLS = [
    "https://github.com/owner/repo",
    "github.com/a/b.",
    "www.example.org/x?y=1",
    "http://arxiv.org/abs/2101.00001v2",
    "arXiv:2101.00001",
    "doi:10.1000/xyz123",
    "\\url{https://x.io/a_b}",
    "\\href{https://site.github.io/p}{page}",
    "[code](https://gitlab.com/g/p)",
    "https://example.com/very/long/\npath",
    "https://zenodo.org/record/123)",
]
LATEX = ["$\\times$", "\\%", "$-0.38$", "$^{16}$", "\\textbf{", "}", "$\\pm$", "\\cite{x}", "$$", "{", "_"]
UNICODE = ["\u200b", "\u00a0", "\u2212", "–", "—", "é", "中文", "α", "ρ", "²", "\ufeff", "\n", "\t", "…", "’"]
FRAGMENT = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(UNITS),
    st.sampled_from(WORDS),
    st.sampled_from(URLS),
    st.sampled_from(LATEX),
    st.sampled_from(UNICODE),
    st.text(max_size=6),
)
SEP = st.sampled_from(["", " ", " ", ", ", "\n"])
BUILT = st.lists(st.tuples(FRAGMENT, SEP), max_size=30).map(lambda parts: "".join(f + s for f, s in parts))
ANY_TEXT = st.one_of(st.text(max_size=300), BUILT)


def _check_metric_rows(text: str) -> None:
    rows = extract_metrics(text)
    for prev, r in zip(rows, rows[1:]):
        assert prev["end"] <= r["end"], (prev, r)
    for r in rows:
        assert tuple(r) == METRIC_FIELDS, tuple(r)
        assert 0 <= r["start"] <= r["end"] <= len(text), r
        assert text[r["start"] : r["end"]] == r["span"], r
        assert r["value_text"] and r["value_text"] in r["span"], r


@SETTINGS
@given(ANY_TEXT)
@example("It reaches 81.2% accuracy (vs. 79.0%) and a 2.3x -14.9x speed-up from 5.1 to 4.3.")
@example("Speedups of 1.5-2.3× are obtained; r = 0.91; 88.1 ± 0.3 F1 on SQuAD v1.1.")
def test_extract_metrics_offsets_give_back_the_span(text):
    _check_metric_rows(text)


@SETTINGS
@given(ANY_TEXT)
@example("We improve BLEU by $+1.2$ and reduce WER to $4.3\\%$ ($\\times$2 faster).")
def test_extract_metrics_on_cleaned_text(text):
    _check_metric_rows(clean_abstract(text))


@SETTINGS
@given(ANY_TEXT)
@example(
    "Code: https://github.com/owner/repo and \\url{https://x.io/a_b}; data at https://example.com/very/long/\npath"
)
def test_extract_urls_offsets_give_back_the_url(raw):
    rows = extract_urls(raw)
    for r in rows:
        assert tuple(r) == URL_FIELDS, tuple(r)
        assert 0 <= r["start"] <= r["end"] <= len(raw), r
        assert raw[r["start"] : r["end"]] == r["url_raw"], r
