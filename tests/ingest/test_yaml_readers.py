"""YAML paper files: per-paper posts with front matter (PMLR CoRL 2021 ``_posts``) and a site's YAML paper
list (a NeurIPS 2022 workshop's ``_data/accepted_papers.yml``, flow style that JSON rejects). The files under
``tests/data/readers/yaml/`` are copied byte for byte (the list: its first three and three later records, closed by `}]`)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import yaml

from pipeline.ingest.readers import ReaderError, read_listing
from pipeline.ingest.readers.sniff import choose, front_matter_applies, yaml_applies
from pipeline.ingest.readers.yaml_records import (
    read_front_matter,
    split_front_matter,
)
from tests.conftest import DATA

YAML_DATA = DATA / "readers" / "yaml"
TODAY = dt.date(2026, 6, 1)
POST = "pmlr_posts/v164_corl2021/_posts/2022-01-11-aceituno22a.md"


def _post(name: str) -> str:
    return (YAML_DATA / name).read_text()


def test_post_is_one_record_with_only_the_abstract_key_in_the_abstract():
    got = read_listing(_post("2022-01-11-aceituno22a.md").encode(), POST, today=TODAY)
    assert got.reader == "front_matter"
    [rec] = got.records
    assert rec.title == "A Differentiable Recipe for Learning Visual Non-Prehensile Planar Manipulation"
    assert rec.authors == [
        "Bernardo Aceituno",
        "Alberto Rodriguez",
        "Shubham Tulsiani",
        "Abhinav Gupta",
        "Mustafa Mukadam",
    ]
    assert rec.source_id == "aceituno22a"
    # YAML folds the single-quoted scalar's lines into spaces; no other key is glued on
    assert rec.abstract_raw.startswith(
        "Specifying tasks with videos is a powerful technique towards acquiring novel"
    )
    assert rec.abstract_raw.endswith("unseen objects and and motions. https://github.com/baceituno/dlm.")
    assert "\n" not in rec.abstract_raw
    for other in ("layout:", "pdf:", "inproceedings", "Proceedings of Machine Learning Research", "'"):
        assert other not in rec.abstract_raw
    assert rec.venue_text == "Proceedings of the 5th Conference on Robot Learning"  # CSL container-title


def test_post_plain_scalar_abstract_keeps_unicode_and_matches_pyyaml():
    text = _post("2022-01-11-dean22a.md")
    [rec] = read_front_matter(text, "dean22a.md")[1]
    front = yaml.safe_load(split_front_matter(text)[0])  # type: ignore[index]
    assert rec.abstract_raw == " ".join(front["abstract"].split())
    assert "participants’ findings" in rec.abstract_raw
    assert read_listing(text.encode(), POST, today=TODAY).coverage == 1.0


def test_body_is_the_abstract_only_without_an_abstract_key():
    text = _post("2022-01-11-dean22a.md")
    with_body = text + "\nA note about the talk, not the abstract.\n"
    [rec] = read_front_matter(with_body, "p.md")[1]
    assert "note about the talk" not in rec.abstract_raw
    front = yaml.safe_load(split_front_matter(text)[0])  # type: ignore[index]
    del front["abstract"]
    no_key = "---\n" + yaml.safe_dump(front) + "---\n"
    [rec] = read_front_matter(no_key + "The body holds the abstract here.\n", "p.md")[1]
    assert rec.abstract_raw == "The body holds the abstract here."
    assert rec.title == "Robots on Demand: A Democratized Robotics Research Cloud"


def test_front_matter_that_names_no_paper_is_not_sniffed_as_one():
    blog = "---\nlayout: post\ndate: 2022-01-11\n---\n\nWe went to the conference.\n"
    assert choose(blog, "post.md") != "front_matter"
    assert choose(_post("2022-01-11-dean22a.md"), "x.md") == "front_matter"


def test_invalid_front_matter_names_the_line():
    with pytest.raises(ReaderError) as e:
        read_front_matter("---\ntitle: A\nabstract: [unclosed\n---\n", "p.md")
    assert "invalid YAML" in e.value.reason and e.value.line >= 2


def test_yaml_paper_list_json_rejects_reads_by_yaml_rules():
    raw = (YAML_DATA / "accepted_papers.yml").read_bytes()
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw)  # a trailing comma before a closing brace
    got = read_listing(raw, "neurips2022-enlsp/_data/accepted_papers.yml", today=TODAY)
    assert got.reader == "yaml"
    assert [r.source_id for r in got.records] == ["2", "5", "6", "28", "30", "31"]
    assert got.records[0].title == "Parameter-Efficient Low-Resource Dialogue State Tracking by Prompt Tuning"
    assert got.records[1].authors[0] == "Mohsen Fayyaz (University of Tehran)"
    dyrex = got.records[5]
    assert dyrex.title == "DyREx: Dynamic Query Representation for Extractive Question Answering"
    # YAML reads the LaTeX "\textit{DyREx}" in a double-quoted scalar as TAB + "extit{DyREx}"; the reader puts
    # the command back (pipeline.ingest.readers.decoding.restore_eaten_escapes)
    assert "\\textit{DyREx}" in dyrex.abstract_raw and "\t" not in dyrex.abstract_raw
    assert (got.venue, got.year) == ("NeurIPS", 2022)


def test_yml_name_block_style_list_and_non_paper_yaml():
    block = (
        "- title: A Paper\n  authors: A. Author; B. Author\n  abstract: |\n    We study x.\n    It works.\n"
    )
    got = read_listing(block.encode(), "icml2021/papers.yml", today=TODAY)
    assert got.reader == "yaml"
    assert got.records[0].abstract_raw == "We study x.\nIt works."
    assert got.records[0].authors == ["A. Author", "B. Author"]
    assert choose("- name: Jane\n  role: chair\n", "_data/people.yml") != "yaml"
    assert yaml_applies(block, [], "papers.yml") and not yaml_applies('[{"a": 1}]', [], "x.json")


def test_yaml_aliases_and_deep_nesting_are_refused_not_expanded():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + k)}: &{chr(98 + k)} [*{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}, *{chr(97 + k)}]\n"
        for k in range(12)
    )
    post = "---\ntitle: T\nabstract: *m\n" + bomb + "---\n"
    assert choose(post, "p.md") != "front_matter"
    with pytest.raises(ReaderError, match="aliases"):
        read_front_matter(post, "p.md")
    deep = "papers: " + "[" * 5000 + "]" * 5000
    assert choose(deep, "papers.yml") != "yaml"


def test_a_listing_page_with_front_matter_is_read_as_its_listing():
    schedule = (DATA / "readers" / "Not_Presented_Posters.md").read_text()
    page = (
        "---\nlayout: page\ntitle: Accepted papers\ndescription: Posters of the conference\n---\n\n"
        + schedule
    )
    assert choose(page, "posters.md") == "markdown"
    got = read_listing(page.encode(), "neurips2023/posters.md", today=TODAY)
    assert len(got.records) == 3 and got.records[0].title.startswith("Active Negative Loss Functions")
    about = "---\ntitle: About\ndescription: The workshop on efficient NLP\n---\n\nWe meet in New Orleans.\n"
    assert choose(about, "about.md") != "front_matter"
    # a candidate (its first line is ``---``), but read as a post it is refused: not a paper
    assert front_matter_applies(page, page.split("\n"), "posters.md")
    with pytest.raises(ReaderError, match="page description"):
        read_front_matter(page, "posters.md")
    workshop = "---\ntitle: Accepted papers\nabstract: The papers of the workshop.\n---\n\n" + schedule
    assert choose(workshop, "posters.md") == "markdown"
    with pytest.raises(ReaderError, match="lists papers"):
        read_front_matter(workshop, "posters.md")
    with pytest.raises(ReaderError, match="names no abstract"):
        read_front_matter("---\nlayout: post\ntitle: Hello\n---\n\nText.\n", "hello.md")
