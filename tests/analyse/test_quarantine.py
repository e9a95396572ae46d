"""Which paragraphs are not abstracts, and the reason code (pipeline.analyse.quarantine)."""

import pytest

from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.quarantine import REASONS, RULES, quarantine_reason


def reason(raw, header=None):
    return quarantine_reason(raw, clean_text(raw), header)


_EXAMPLES = [
    pytest.param(rule.reason, raw, id=f"{rule.name}-{i}")
    for rule in RULES
    for i, raw in enumerate(rule.examples)
]
_COUNTER_EXAMPLES = [
    pytest.param(rule.reason, raw, id=f"{rule.name}-not-{i}")
    for rule in RULES
    for i, raw in enumerate(rule.counter_examples)
]


@pytest.mark.parametrize("expected,raw", _EXAMPLES)
def test_rule_example(expected, raw):
    """Every example of every rule of the table gets that rule's reason (with the published clean text)."""
    assert reason(raw) == expected
    assert expected in REASONS


@pytest.mark.parametrize("not_expected,raw", _COUNTER_EXAMPLES)
def test_rule_counter_example(not_expected, raw):
    assert reason(raw) != not_expected


def test_the_table_drives_the_reasons():
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    assert all(rule.doc.strip() and rule.examples for rule in RULES)
    assert REASONS == (
        "empty",
        "header_repeated",
        "url_only",
        "math_only",
        "no_words",
        "boilerplate",
        "too_short",
        "too_long",
        "citation",
        "markup",
        "several_abstracts",
        "authors_only",
        "title_only",
    )


@pytest.mark.parametrize(
    "raw",
    [
        "Code and checkpoints are released at \\url{https://github.com/example-org/fast-attn}.",  # case11: 6 words
        "We study calibration of reward models under distribution shift and propose a temperature-free fix.",
        "我们提出一种新的稀疏注意力方法，在长文本基准上将推理速度提高了1.41倍，同时保持准确率基本不变。",  # case10
        "The abstract is not available for in-the-wild videos, so we estimate camera rotation from a single image.",
        "Withdrawn papers are common in peer review; we study why authors withdraw and what happens next.",
        "ICML 2026 results show that our sparse attention method keeps 98% of dense accuracy at 4x lower memory.",
    ],
)
def test_abstracts_are_kept(raw):
    assert reason(raw) is None


def test_repeated_header_uses_listing_header_for_unknown_venues():
    assert reason("FOOCONF 2025 Papers") == "too_short"
    assert reason("FOOCONF 2025 Papers", header="FOOCONF  2025 Papers") == "header_repeated"
    assert reason("FOOCONF 2025 Papers\nsecond line", header="FOOCONF 2025 Papers") == "too_short"


# --- gates for records that are not one abstract (listings of other shapes) --------------------------------
REAL = (
    "We propose a new optimiser for deep networks that adapts its step size to the curvature of the loss. "
    "On ImageNet it converges twice as fast as Adam and reaches 1.2% higher top-1 accuracy."
)


@pytest.mark.parametrize(
    "raw",
    [
        REAL,
        "We proposed a model of Time Warping Invariant Neural Networks (TWINN) that is invariant to time warping",
        "In this work we follow the framework by Salimans et al. (2017). " + REAL,
        "A state-of-the-art Macaw model answers <i>Yes</i> to <i>Is a sparrow a bird?</i> and " + REAL,
    ],
)
def test_real_abstracts_pass_the_new_gates(raw):
    assert reason(raw) is None


def test_markup_residue_and_emails_never_reach_the_abstract():
    from pipeline.analyse.abstracts import analyse_abstract

    row = analyse_abstract(REAL + " Contact: jane.doe@cs.example.edu")
    assert "@" not in row["abstract"] and row["quarantine_reason"] is None
    assert "jane.doe@cs.example.edu" in REAL + " Contact: jane.doe@cs.example.edu"  # abstract_raw keeps it
    row = analyse_abstract(REAL + " </details>")  # a fragment left by a page layout: not published at all
    assert row["quarantine_reason"] == "markup"
    assert "NDCG@10.Furthermore" in analyse_abstract(REAL + " NDCG@10.Furthermore we win.")["abstract"]


def test_notice_repeated_across_listings_is_boilerplate_repeated():
    import polars as pl

    from pipeline.analyse.quarantine import NOTICE_MIN_COPIES, repeated_notices

    rows = pl.DataFrame(
        {
            "listing": [f"l{i}.txt" for i in range(NOTICE_MIN_COPIES)] + ["a.txt", "b.txt"],
            "content_hash": ["notice"] * NOTICE_MIN_COPIES + ["paper", "paper"],
            "quarantine_reason": [None] * (NOTICE_MIN_COPIES + 2),
        },
        schema_overrides={"quarantine_reason": pl.String},
    )
    out = repeated_notices(rows)["quarantine_reason"].to_list()
    assert out == ["boilerplate_repeated"] * NOTICE_MIN_COPIES + [None, None]  # a paper in two listings stays
