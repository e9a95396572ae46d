"""URL extraction: real seed URLs, the gold fixtures' url group, and the kinds of URL faults."""

import json
import re
from pathlib import Path

import pytest

from bench import eval_extraction as evaluation
from pipeline.analyse.extraction import URL_FIELDS, extract_urls
from pipeline.analyse.extraction.urls import URL_KINDS
from tests.conftest import SEEDS

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "data" / "gold"
scorer = evaluation.load_scorer()


def _seed_paragraphs():
    for f in SEEDS:
        text = f.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
        for para in re.split(r"\n\s*\n", text)[1:]:
            if para.strip():
                yield para.strip()


SEED_URLS = [
    ("https://github.com/Puning97/EUA-for-LLM-Unlearning", "code"),
    ("https://anonymous.4open.science/r/DisAlign-7F35", "anonymous_code"),
    ("https://oublalkhalid.github.io/MStar-Diffusion", "project_page"),
    ("https://anonymous.4open.science/r/E-mem-F6C3", "anonymous_code"),
    ("https://ai-isl.github.io/srr", "project_page"),
]


@pytest.mark.parametrize("url,kind", SEED_URLS)
def test_seed_urls_found_with_kind(url, kind):
    found = {r["url"]: r["kind"] for p in _seed_paragraphs() for r in extract_urls(p)}
    assert found.get(url) == kind, found


def test_seed_rows_have_fields_and_offsets():
    n = 0
    for para in _seed_paragraphs():
        for r in extract_urls(para):
            n += 1
            assert tuple(r) == URL_FIELDS
            assert para[r["start"] : r["end"]] == r["url_raw"]
            assert r["kind"] in URL_KINDS
            assert not re.search(r"[.,;:)}\]]$", r["url"])
    assert n >= 5


def _url_fixtures():
    return [
        json.loads(line)
        for line in (GOLD / "fixtures.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip() and json.loads(line).get("group") == "url"
    ]


#: Fixtures whose expectation contradicts a later decision, with the reason (strict: noticed when they pass).
_URL_FIXTURE_CONFLICTS = {
    "U17": "the fixture collapses a /tree/main/src link onto its repository; normalisation now keeps every "
    "path (the repository is in the repo column), so the two links are two rows",
}


@pytest.mark.parametrize(
    "fx",
    [
        pytest.param(f, marks=pytest.mark.xfail(strict=True, reason=_URL_FIXTURE_CONFLICTS[f["id"]]))
        if f["id"] in _URL_FIXTURE_CONFLICTS
        else f
        for f in _url_fixtures()
    ],
    ids=lambda f: f["id"],
)
def test_url_fixture_exact(fx):
    """Each fixture's URLs (scorer's comparison key) and kinds (fixture kinds mapped onto the table's kinds)."""
    got = {scorer.url_key(r["url"]): r["kind"] for r in extract_urls(fx["text"])}
    want = {
        scorer.url_key(u["url"]): evaluation.FIXTURE_KIND_ALIAS.get(u["kind"], u["kind"]) for u in fx["urls"]
    }
    assert got == want


@pytest.mark.parametrize(
    "text,url",
    [
        ("Code: \\url{https://github.com/foo/bar}.", "https://github.com/foo/bar"),
        ("see \\href{https://proj.github.io/x/}{the project page}.", "https://proj.github.io/x"),
        ("[code](https://github.com/a/b).", "https://github.com/a/b"),
        ("Available at https://github.com/org/\nrepo-name today", "https://github.com/org/repo-name"),
        ("see https://example.org/\nWe also release data", "https://example.org"),
        (
            "(details: https://en.wikipedia.org/wiki/Transformer_(architecture)).",
            "https://en.wikipedia.org/wiki/Transformer_(architecture)",
        ),
        (
            "mirror at anonymous.4open.science/r/ABC-12; data at www.example.com/d.",
            "https://anonymous.4open.science/r/ABC-12",
        ),
        ("weights: huggingface.co/org/model-7b, and more", "https://huggingface.co/org/model-7b"),
        ("visit www.example.com/d.", "https://www.example.com/d"),
        ("http://iplab.dmi.unict.it/rulstm.", "http://iplab.dmi.unict.it/rulstm"),
    ],
)
def test_url_forms(text, url):
    urls = [r["url"] for r in extract_urls(text)]
    assert url in urls


def test_file_names_and_emails_are_not_urls():
    assert extract_urls("run train.py with config.yaml, see README.md; mail a.b@github.com") == []


def test_zero_width_inside_url_dropped_and_span_kept():
    raw = "Code: https://github.com/example-org/transformer\u200b-xs\u3000next"
    (row,) = extract_urls(raw)
    assert row["url"] == "https://github.com/example-org/transformer-xs"
    assert raw[row["start"] : row["end"]] == row["url_raw"]


@pytest.mark.parametrize(
    "text,kind",
    [
        (
            "The dataset is publicly available at https://github.com/google-research-datasets/timedial.",
            "dataset",
        ),
        ("Our code is available at https://ai4ce.github.io/DeepMapping/.", "code"),
        ("Code and demo are available at: https://x.github.io/y/.", "project_page"),
        (
            "Please see the project web page for code and additional details: http://iplab.dmi.unict.it/rulstm.",
            "project_page",
        ),
        (
            "Our codes and datasets are available at https://anonymous.4open.science/r/ModMark.",
            "anonymous_code",
        ),
        ("Try the demo: https://huggingface.co/spaces/o/demo", "demo"),
        ("See https://arxiv.org/abs/2301.01234v2.", "paper"),
        ("Models at https://huggingface.co/meta-llama/Llama-2-7b-hf.", "model"),
    ],
)
def test_sentence_can_override_host(text, kind):
    (row,) = extract_urls(text)
    assert row["kind"] == kind


def test_non_str_raises():
    with pytest.raises(TypeError):
        extract_urls(None)


@pytest.mark.parametrize(
    "text,url,repo",
    [
        (
            "Bugs: https://github.com/acme/tool/issues/12.",
            "https://github.com/acme/tool/issues/12",
            "https://github.com/acme/tool",
        ),
        (
            "See https://github.com/acme/tool/blob/main/train.py",
            "https://github.com/acme/tool/blob/main/train.py",
            "https://github.com/acme/tool",
        ),
        (
            "Branch https://github.com/acme/tool/tree/dev.",
            "https://github.com/acme/tool/tree/dev",
            "https://github.com/acme/tool",
        ),
        (
            "Data: https://huggingface.co/datasets/org/set/viewer",
            "https://huggingface.co/datasets/org/set/viewer",
            "https://huggingface.co/datasets/org/set",
        ),
        ("Page: https://proj.github.io/x", "https://proj.github.io/x", None),
    ],
)
def test_path_kept_and_repo_column(text, url, repo):
    (row,) = extract_urls(text)
    assert (row["url"], row["repo"]) == (url, repo)


@pytest.mark.parametrize(
    "text,url",
    [
        ("Code is available athttps://github.com/acme/tool.", "https://github.com/acme/tool"),
        ("Code:https://github.com/acme/tool", "https://github.com/acme/tool"),
        ("Code: https://github.com/acme/\ntool-x", "https://github.com/acme/tool-x"),
        (
            "Page: https://example.org/projects/\nmy-tool/index.html",
            "https://example.org/projects/my-tool/index.html",
        ),
    ],
)
def test_glued_and_broken_urls_read_whole(text, url):
    assert [r["url"] for r in extract_urls(text)] == [url]


def test_broken_line_before_a_word_is_not_joined():
    assert [r["url"] for r in extract_urls("see https://example.org/files/\nand more")] == [
        "https://example.org/files"
    ]


@pytest.mark.parametrize(
    "text,kind",
    [
        # a host the rules do not know: the sentence decides
        ("The code and data are publicly accessible at https://www.dropbox.com/sh/abc/xyz?dl=0", "code"),
        ("Our benchmark is at https://unknown-host.example/bench", "dataset"),
        # a named resource the abstract calls a dataset elsewhere
        (
            "We present MRS, a multilingual reply suggestion dataset. MRS is publicly available at "
            "https://github.com/x/mrs.",
            "dataset",
        ),
    ],
)
def test_sentence_cue_beats_host(text, kind):
    rows = extract_urls(text)
    assert rows[-1]["kind"] == kind


@pytest.mark.parametrize(
    ("text", "url"),
    [
        # real abstracts of the dev corpus: a named anchor is part of the link, a share-tracking hash is not
        (
            "Our code is available at http://www.merl.com/research/license#FoldingNet",
            "http://www.merl.com/research/license#FoldingNet",
        ),
        ("Data: https://zenodo.org/record/6891965#.YtwoS3ZBxD8).", "https://zenodo.org/record/6891965"),
        (
            "See https://ai.tencent.com/ailab/nlp/dialogue/#datasets.",
            "https://ai.tencent.com/ailab/nlp/dialogue#datasets",
        ),
    ],
)
def test_named_fragment_kept_tracking_hash_dropped(text, url):
    assert [r["url"] for r in extract_urls(text)] == [url]


def test_a_repository_cut_from_its_owner_by_a_space_is_joined():
    """Real abstracts (a real2 listing, the dev corpus) whose PDF extraction put a space after the owner:
    "https://github.com/YujiaBao/ Predict-then-Interpolate." is the repository; a sentence word after the owner
    ("…/owner/ and data") is not."""
    rows = extract_urls("Our code is at https://github.com/YujiaBao/ Predict-then-Interpolate.")
    assert [(r["url"], r["url_raw"]) for r in rows] == [
        (
            "https://github.com/YujiaBao/Predict-then-Interpolate",
            "https://github.com/YujiaBao/ Predict-then-Interpolate",
        )
    ]
    rows = extract_urls("Code: https://github.com/SSTDVProject/ VCM.git and more.")
    assert [r["url"] for r in rows] == ["https://github.com/SSTDVProject/VCM"]
    assert [r["url"] for r in extract_urls("See https://github.com/owner/ and the data.")] == [
        "https://github.com/owner"
    ]


@pytest.mark.parametrize(
    ("text", "url"),
    [
        # real abstracts (blind13-077 and the dev corpus): a PDF extraction cut the host after a dot
        (
            "Code is available at https://github. com/tonghe90/textspotter.",
            "https://github.com/tonghe90/textspotter",
        ),
        (
            "Project page: https://wywu.github. io/projects/TGaGa/TGaGa.html.",
            "https://wywu.github.io/projects/TGaGa/TGaGa.html",
        ),
        (
            "Visit https://sites.google. com/view/upn-public/home for videos.",
            "https://sites.google.com/view/upn-public/home",
        ),
        # a sentence word after a full stop is not the rest of a host
        ("Our page is https://example.org. We then test it.", "https://example.org"),
    ],
)
def test_a_host_cut_after_a_dot_is_joined(text, url):
    assert [r["url"] for r in extract_urls(text)] == [url]
