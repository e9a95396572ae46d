"""Which paragraphs are not abstracts, and the reason code (pipeline.analyse.quarantine)."""

import pytest

from pipeline.analyse.cleaning import clean_abstract
from pipeline.analyse.quarantine import REASONS, quarantine_reason


def reason(raw, header=None):
    return quarantine_reason(raw, clean_abstract(raw), header)


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("", "empty"),
        ("\u200b\u00a0", "empty"),
        ("<br/>", "empty"),
        ("ICML 2026 论文列表", "header_repeated"),
        ("NeurIPS 2025 Accepted Papers", "header_repeated"),
        ("https://github.com/example-org/repo", "url_only"),
        ("\\url{https://example.org/x}.", "url_only"),
        ("$$ 2^{10} = 1024, \\; 10^{-3} $$", "math_only"),
        ("$\\alpha + \\beta$", "math_only"),
        ("∑ ∫ ≈ ≤ ≥ — …", "no_words"),
        ("-", "no_words"),
        ("12.5 %", "no_words"),
        ("Abstract unavailable", "boilerplate"),
        ("No abstract available.", "boilerplate"),
        ("Paper was withdrawn.", "boilerplate"),
        ("withdrawn", "boilerplate"),
        ("Placeholder", "boilerplate"),
        ("TBA", "boilerplate"),
        ("Preface to COLT 2016", "boilerplate"),
        (
            "Preface to the Proceedings of the 24th Annual Conference on Learning Theory June 9-11, 2011, Budapest.",
            "boilerplate",
        ),
        ("Part of Advances in Neural Information Processing Systems 30 (NIPS 2017)", "boilerplate"),
        ("栈", "too_short"),
        ("We study the framework of", "too_short"),
        ("Ke Yang", "too_short"),
        ("深度学习模型", "too_short"),
    ],
)
def test_reasons(raw, expected):
    assert reason(raw) == expected
    assert expected in REASONS


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
    "raw, expected",
    [
        (" ".join([REAL] * 120), "too_long"),
        (
            "@inproceedings{snell2017,\n  title={Prototypical Networks for Few-shot Learning},\n  author={Snell, Jake}\n}",
            "citation",
        ),
        (
            "Snell, J., Swersky, K., & Zemel, R. (2017). Prototypical networks for few-shot learning. Advances in "
            "Neural Information Processing Systems, 30, 4077-4087.",
            "citation",
        ),
        ("%A Jake Snell\n%T Prototypical Networks for Few-shot Learning\n%D 2017\n%J NeurIPS", "citation"),
        (
            "TY  - CONF\nAU  - Snell, Jake\nTI  - Prototypical Networks for Few-shot Learning\nPY  - 2017",
            "citation",
        ),
        (
            "### Prototypical Networks for Few-shot Learning\n\n**Authors:** Jake Snell, Kevin Swersky",
            "markup",
        ),
        ("<details><summary>Abstract</summary> " + REAL + " </details>", "markup"),
        ("Abstract: " + REAL + "\nAbstract: " + REAL, "several_abstracts"),
        (REAL + "\n" + "*" * 36 + "\n" + REAL, "several_abstracts"),
        (
            REAL
            + " "
            + REAL
            + "\nDeep Residual Learning for Image Recognition\nKaiming He, Xiangyu Zhang, Jian Sun\n"
            + REAL
            + " "
            + REAL,
            "several_abstracts",
        ),
        ("Jake Snell, Kevin Swersky, Richard Zemel, Hugo Larochelle and Richard S. Zemel", "authors_only"),
        ("Prototypical Networks for Few-Shot Learning in the Wild and Beyond", "title_only"),
    ],
)
def test_not_one_abstract(raw, expected):
    assert quarantine_reason(raw, clean_abstract(raw)) == expected


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
    assert quarantine_reason(raw, clean_abstract(raw)) is None


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
