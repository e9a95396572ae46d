"""Which paragraphs are not abstracts, and the reason code (pipeline.quarantine)."""

import pytest

from pipeline.cleaning import clean_abstract
from pipeline.quarantine import REASONS, quarantine_reason


def reason(raw, header=None):
    return quarantine_reason(raw, clean_abstract(raw), header)


@pytest.mark.parametrize("raw,expected", [
    ("", "empty"), ("\u200b\u00a0", "empty"), ("<br/>", "empty"),
    ("ICML 2026 论文列表", "header_repeated"), ("NeurIPS 2025 Accepted Papers", "header_repeated"),
    ("https://github.com/example-org/repo", "url_only"), ("\\url{https://example.org/x}.", "url_only"),
    ("$$ 2^{10} = 1024, \\; 10^{-3} $$", "math_only"), ("$\\alpha + \\beta$", "math_only"),
    ("∑ ∫ ≈ ≤ ≥ — …", "no_words"), ("-", "no_words"), ("12.5 %", "no_words"),
    ("Abstract unavailable", "boilerplate"), ("No abstract available.", "boilerplate"),
    ("Paper was withdrawn.", "boilerplate"), ("withdrawn", "boilerplate"), ("Placeholder", "boilerplate"),
    ("TBA", "boilerplate"), ("Preface to COLT 2016", "boilerplate"),
    ("Preface to the Proceedings of the 24th Annual Conference on Learning Theory June 9-11, 2011, Budapest.",
     "boilerplate"),
    ("Part of Advances in Neural Information Processing Systems 30 (NIPS 2017)", "boilerplate"),
    ("栈", "too_short"), ("We study the framework of", "too_short"), ("Ke Yang", "too_short"),
    ("深度学习模型", "too_short"),
])
def test_reasons(raw, expected):
    assert reason(raw) == expected
    assert expected in REASONS


@pytest.mark.parametrize("raw", [
    "Code and checkpoints are released at \\url{https://github.com/example-org/fast-attn}.",  # case11: 6 words
    "We study calibration of reward models under distribution shift and propose a temperature-free fix.",
    "我们提出一种新的稀疏注意力方法，在长文本基准上将推理速度提高了1.41倍，同时保持准确率基本不变。",  # case10
    "The abstract is not available for in-the-wild videos, so we estimate camera rotation from a single image.",
    "Withdrawn papers are common in peer review; we study why authors withdraw and what happens next.",
    "ICML 2026 results show that our sparse attention method keeps 98% of dense accuracy at 4x lower memory.",
])
def test_abstracts_are_kept(raw):
    assert reason(raw) is None


def test_repeated_header_uses_listing_header_for_unknown_venues():
    assert reason("FOOCONF 2025 Papers") == "too_short"
    assert reason("FOOCONF 2025 Papers", header="FOOCONF  2025 Papers") == "header_repeated"
    assert reason("FOOCONF 2025 Papers\nsecond line", header="FOOCONF 2025 Papers") == "too_short"
