"""The failure cases about input files (tests/data/cases), end to end through the
listing functions: decode -> split -> clean -> quarantine -> language. Values are those of cases/README.md
for the parts owned here (metrics, URLs and dedup are tested by their owners)."""

import datetime as dt

import pytest

from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.language import detect_language
from pipeline.analyse.quarantine import quarantine_reason
from pipeline.ingest.readers import parse_listing

TODAY = dt.date(2026, 11, 30)


def run(cases, name):
    listing = parse_listing((cases / name).read_bytes(), name, TODAY)
    rows = []
    for p in listing.paragraphs:
        clean = clean_text(p.text)
        reason = quarantine_reason(p.text, clean, listing.header)
        rows.append(
            dict(raw=p.text, clean=clean, reason=reason, lang=None if reason else detect_language(clean)[0])
        )
    for row in rows:  # never in any stored field
        for field in ("raw", "clean"):
            assert not any(c in row[field] for c in "\r\ufeff\x00\u200b\u00ad")
    return listing, rows


def test_case01_bom_crlf(cases):
    listing, rows = run(cases, "case01_bom_crlf.txt")
    assert (listing.venue, listing.year, listing.header) == ("ICML", 2026, "ICML 2026 论文列表")
    assert [r["reason"] for r in rows] == [None, None, None]
    assert rows[0]["clean"] == (
        "We study sparse attention for long-context language models and show that a learned "
        "routing mask keeps 98% of dense accuracy at 4x lower memory."
    )
    assert rows[0]["raw"].count("\n") == 1  # abstract_raw keeps the wrap, as LF
    assert rows[1]["clean"].endswith("generators reaches FID 2.9 on ImageNet 64x64.")
    assert [r["lang"] for r in rows] == ["en", "en", "en"]


def test_case02_gb18030(cases):
    listing, rows = run(cases, "case02_gb18030.txt")
    expected = (
        (cases / "case02_gb18030.expected_utf8.txt").read_text(encoding="utf-8").strip("\n").split("\n\n")
    )
    assert listing.encoding == "gb18030"
    assert [listing.header] + [r["raw"] for r in rows] == expected
    assert [(r["reason"], r["lang"]) for r in rows] == [(None, "zh"), (None, "en")]
    assert "𝒪(n log n)" in rows[0]["clean"] and "二〇二六" in rows[0]["clean"]


def test_case03_utf16le(cases):
    listing, rows = run(cases, "case03_utf16le_bom.txt")
    expected = (
        (cases / "case03_utf16le_bom.expected_utf8.txt").read_text(encoding="utf-8").strip("\n").split("\n\n")
    )
    assert listing.encoding == "utf-16-le"
    assert [listing.header] + [r["raw"] for r in rows] == expected
    assert [(r["reason"], r["lang"]) for r in rows] == [(None, "en"), (None, "en")]


def test_case05_invisible_chars_clean_to_the_same_text(cases):
    _, rows = run(cases, "case05_invisible_chars.txt")
    assert (
        rows[0]["clean"]
        == rows[1]["clean"]
        == (
            "We present Transformer-XS, a compact encoder that reaches 54% F1 on DocRED with 30M parameters. "
            "Code: https://github.com/example-org/transformer-xs"
        )
    )
    assert [r["reason"] for r in rows] == [None, None]
    assert "transformer-xs\n" not in rows[1]["raw"] and rows[1]["raw"].endswith(
        "transformer-xs "
    )  # sanitised raw


def test_case08_short_technical_fragments(cases):
    _, rows = run(cases, "case08_langdetect_unstable.txt")
    assert len(rows) == 5
    for row in rows:
        assert row["reason"] in (None, "too_short")
        if row["reason"] is None:
            assert row["lang"] in ("en", "und")
    assert [r["reason"] for r in rows] == [None, "too_short", "too_short", "too_short", "too_short"]


def test_case09_no_features(cases):
    _, rows = run(cases, "case09_no_features.txt")
    assert [r["reason"] for r in rows] == ["url_only", "math_only", "too_short", "no_words", None]
    assert rows[-1]["lang"] == "en"


def test_case10_chinese_not_korean(cases):
    listing, rows = run(cases, "case10_chinese_as_korean.txt")
    assert listing.header == "ICML 2026 论文列表" and len(rows) == 2
    assert [(r["reason"], r["lang"]) for r in rows] == [(None, "zh"), (None, "en")]


def test_case11_latex_url(cases):
    _, rows = run(cases, "case11_latex_url.txt")
    assert [r["reason"] for r in rows] == [None, None]
    assert (
        rows[0]["clean"] == "Code and checkpoints are released at https://github.com/example-org/fast-attn."
    )
    assert rows[1]["clean"] == (
        "We release the benchmark (project page (https://example.org/bench)) and the data at "
        "https://huggingface.co/datasets/example-org/sci-tables, under CC-BY."
    )


def test_case13_latex_percent(cases):
    _, rows = run(cases, "case13_latex_percent.txt")
    assert len(rows) == 1 and rows[0]["reason"] is None and rows[0]["lang"] == "en"
    assert rows[0]["clean"].endswith(
        "reduces KV cache by 80% while retaining 99.1% of full-cache accuracy, and it improves F1 by 3% on long "
        "documents over a sliding-window baseline."
    )


@pytest.mark.parametrize(
    "name",
    [
        "case01_bom_crlf.txt",
        "case02_gb18030.txt",
        "case03_utf16le_bom.txt",
        "case05_invisible_chars.txt",
        "case08_langdetect_unstable.txt",
        "case09_no_features.txt",
        "case10_chinese_as_korean.txt",
        "case11_latex_url.txt",
        "case13_latex_percent.txt",
    ],
)
def test_header_is_never_a_paragraph(cases, name):
    listing, rows = run(cases, name)
    assert listing.header is not None and all(listing.header not in r["raw"] for r in rows)
