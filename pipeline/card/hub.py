"""The Hugging Face metadata block that opens the dataset card (``README.md``).

The Hub's dataset viewer and ``datasets.load_dataset(<release folder>, "<table>")`` read the YAML block
between the first two ``---`` lines of a card (https://huggingface.co/docs/hub/datasets-cards and
https://huggingface.co/docs/hub/datasets-manual-configuration): one ``configs`` entry per table whose
``data_files`` is the release's own relative Parquet glob, plus ``pretty_name``, ``license``, ``language``,
``size_categories``, ``task_categories`` and ``tags``. Every string is written as a JSON string, which YAML
reads as the same string, so no value from the data can break the block.
"""

from __future__ import annotations

import json

import polars as pl

from pipeline.runtime import config

#: Size buckets of the Hub's ``size_categories`` (upper bounds in papers, exclusive), smallest first.
SIZE_CATEGORIES = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
)
#: What the data serves: searching abstracts (text-retrieval) and labelling them (language, venue, has_code:
#: text-classification); the Hub's task list has no closer entries.
TASK_CATEGORIES = ("text-retrieval", "text-classification")
TAGS = ("scientific-papers", "abstracts", "machine-learning", "conference-papers", "deduplicated", "parquet")


def size_category(papers: int) -> str:
    """The Hub's ``size_categories`` bucket of a release of ``papers`` papers (:data:`SIZE_CATEGORIES`)."""
    return next((name for bound, name in SIZE_CATEGORIES if papers < bound), "n>10M")


def languages(papers: pl.DataFrame) -> list[str]:
    """The ISO 639-1 codes of the papers' ``language`` column, sorted, without ``und`` and nulls."""
    return sorted(str(x) for x in papers["language"].drop_nulls().unique() if x != "und")


def _yaml_list(key: str, values: list[str] | tuple[str, ...]) -> list[str]:
    return [f"{key}:", *(f"- {json.dumps(v)}" for v in values)] if values else []


def hub_metadata(tables: dict[str, pl.DataFrame], title: str) -> str:
    """The card's opening YAML block, ``---`` lines included, ending in a newline.

    Args:
        tables: the release's tables by name (``papers`` with a ``language`` column), in the order the
            ``configs`` list them (``papers`` first is the Hub's default config).
        title: ``pretty_name``.

    The licence is :func:`pipeline.runtime.config.dataset_license` (``PIPELINE_DATASET_LICENSE``, default
    ``other``: the card's licence section says why). Each table's config reads ``<table>/**/*.parquet`` as
    split ``train``; ``venue`` and ``year`` are Hive folders (``venue=V/year=Y``), not columns of the files
    (the global tables, one file each, are not partitioned). A table without rows has no config: its one
    file is empty, and ``datasets`` fails on an empty Parquet file ("BatchSize must be greater than 0").
    Raises ValueError for a bad ``PIPELINE_DATASET_LICENSE``.
    """
    papers = tables["papers"]
    out = ["---", f"pretty_name: {json.dumps(title)}", f"license: {json.dumps(config.dataset_license())}"]
    out += _yaml_list("language", languages(papers))
    out += _yaml_list("size_categories", [size_category(papers.height)])
    out += _yaml_list("task_categories", TASK_CATEGORIES)
    out += _yaml_list("tags", TAGS)
    out.append("configs:")
    for i, name in enumerate(n for n, t in tables.items() if n == "papers" or t.height):
        out += [f"- config_name: {json.dumps(name)}"] + (["  default: true"] if i == 0 else [])
        out += ["  data_files:", "  - split: train", f"    path: {json.dumps(f'{name}/**/*.parquet')}"]
    return "\n".join([*out, "---", ""])
