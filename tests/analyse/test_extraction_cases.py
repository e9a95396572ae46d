"""The handed failure cases (tests/data/cases): extraction parts of case05/11/13/15."""

import re
from pathlib import Path

import pytest

from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.extraction import extract_metrics, extract_urls

CASES = Path(__file__).resolve().parents[1] / "data" / "cases"


def paragraphs(name: str) -> list[str]:
    """Abstract paragraphs of a case listing (UTF-8 ± BOM, CRLF; the header line is not an abstract)."""
    text = (CASES / name).read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    return [p.strip() for p in re.split(r"\n\s*\n", text)[1:] if p.strip()]


def metric(rows, value, unit):
    hits = [
        r for r in rows if r["value"] is not None and abs(r["value"] - value) < 1e-9 and r["unit"] == unit
    ]
    assert hits, f"{value} {unit} missing in {[(r['value'], r['unit']) for r in rows]}"
    return hits[0]


@pytest.mark.parametrize("para", [0, 1])
def test_case05_invisible_chars(para):
    raw = paragraphs("case05_invisible_chars.txt")[para]
    urls = extract_urls(raw)
    assert [(u["url"], u["kind"]) for u in urls] == [
        ("https://github.com/example-org/transformer-xs", "code")
    ]
    assert raw[urls[0]["start"] : urls[0]["end"]] == urls[0]["url_raw"]
    rows = extract_metrics(clean_text(raw))
    r = metric(rows, 54.0, "%")
    assert (r["kind"], r["metric"], r["dataset"]) == ("score", "F1", "DocRED")
    assert len(rows) == 1  # "30M parameters" is a setup size


def test_case11_latex_urls():
    p1, p2 = paragraphs("case11_latex_url.txt")
    assert [(u["url"], u["kind"]) for u in extract_urls(p1)] == [
        ("https://github.com/example-org/fast-attn", "code")
    ]
    assert [(u["url"], u["kind"]) for u in extract_urls(p2)] == [
        ("https://example.org/bench", "project_page"),
        ("https://huggingface.co/datasets/example-org/sci-tables", "dataset"),
    ]
    for raw in (p1, p2):
        for u in extract_urls(raw):
            assert raw[u["start"] : u["end"]] == u["url_raw"] and "{" not in u["url"] and "}" not in u["url"]


def test_case13_latex_percent():
    (raw,) = paragraphs("case13_latex_percent.txt")
    rows = extract_metrics(clean_text(raw))
    assert [(r["value"], r["unit"]) for r in rows] == [(80.0, "%"), (99.1, "%"), (3.0, "%")]
    kv, kept, f1 = rows
    assert (kv["kind"], kv["direction"]) == ("relative_change", "decrease")
    assert kept["kind"] == "score"
    assert (f1["kind"], f1["metric"]) == ("delta", "F1")


def test_case15_ranges_and_points():
    p1, p2 = paragraphs("case15_ranges_pp.txt")
    rows = extract_metrics(clean_text(p1))
    assert [(r["kind"], r["unit"], r["value"], r["value_low"], r["value_high"]) for r in rows] == [
        ("range", "%", None, 10.0, 20.0),
        ("range", "pp", None, 2.0, 3.0),
    ]
    rows = extract_metrics(clean_text(p2))
    ba = metric(rows, 44.2, "%")
    assert (ba["kind"], ba["value_from"], ba["direction"]) == ("before_after", 41.0, "increase")
    d = metric(rows, 3.2, "pp")
    assert d["kind"] == "delta"
    rel = metric(rows, 7.8, "%")
    assert rel["kind"] == "relative_change"
    var = metric(rows, 5.0, "pp")
    assert (var["kind"], var["direction"]) == ("delta", "decrease")
    assert len(rows) == 4  # 41.0 is the "from" value of the before→after row, not a row of its own
