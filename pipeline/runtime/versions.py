"""Versions of the rules: which rule modules shape which asset, and each asset's code version.

Each rule set has an explicit version, a string constant ``RULES_VERSION`` in the module named in
:data:`RULE_SETS` (``"records"`` and ``"release"`` are kept here: they are the code that assembles the rules'
outputs into work files and release files). It is bumped by hand with every change of the set's outputs
and never with a comment, rename or refactor; ``tests/runtime/test_versions_golden.py`` fails when the
outputs of a
set change on fixed real inputs while its version did not (docs/execution.md, "Caching and versions").

An asset's code version (:func:`code_version`) is a digest of the versions of the rule sets in
:data:`ASSETS` and of the libraries whose versions its outputs depend on. It is the Dagster asset's
``code_version`` (the UI marks the asset stale, "code version changed", when it moves), it is stored in
the work files' JSON sidecars (pipeline.defs.io.write_work_info: work made by other rules is redone), and
the abstracts' one is ``pipeline.analyse.abstracts.ANALYSIS_VERSION`` (analysed rows are reused only under
it). :func:`pipeline_version` covers every asset and is the release manifest's ``code_version``.

Importing this module imports no rule module: :func:`rules_version` imports only the set it is asked for.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata as md
from dataclasses import dataclass
from functools import cache

#: How :func:`pipeline.ingest.records.listing_records` and :func:`pipeline.analyse.abstracts.build_abstracts`
#: assemble rows (columns, defaults of an unreadable record). Bump with a change of their outputs.
RECORDS_VERSION = "2"
#: How a release's files are written from the tables: partitioning and Parquet settings
#: (pipeline/release/writer.py, schema.py), dataset card and documents (pipeline/card/). Bump with a
#: change of the files written.
RELEASE_VERSION = "4"


@dataclass(frozen=True)
class RuleSet:
    """A rule set: the module and constant (``RULES_VERSION`` unless said) holding its version, and the
    files whose rules it versions."""

    module: str
    covers: tuple[str, ...]
    constant: str = "RULES_VERSION"


#: Rule set → where its version lives and the files it covers (paths relative to the repository).
RULE_SETS: dict[str, RuleSet] = {
    "decoding": RuleSet("pipeline.ingest.readers.decoding", ("pipeline/ingest/readers/decoding.py",)),
    "readers": RuleSet(
        "pipeline.ingest.readers",
        tuple(
            f"pipeline/ingest/{m}.py"
            for m in (
                "readers/__init__",
                "readers/base",
                "readers/bibtex",
                "readers/coverage",
                "readers/feed",
                "readers/fields",
                "readers/json_records",
                "readers/markdown",
                "readers/pdf_page",
                "readers/seed",
                "readers/separated",
                "settings",
                "readers/sniff",
                "readers/table",
                "readers/venues",
                "readers/xml_records",
                "readers/yaml_records",
            )
        ),
    ),
    "records": RuleSet(
        "pipeline.runtime.versions",
        ("pipeline/ingest/records.py", "pipeline/analyse/abstracts.py"),
        "RECORDS_VERSION",
    ),
    "text": RuleSet("pipeline.analyse.residue", ("pipeline/analyse/residue.py",)),
    "cleaning": RuleSet(
        "pipeline.analyse.cleaning",
        ("pipeline/analyse/cleaning.py", "pipeline/analyse/latex.py", "pipeline/analyse/titles.py"),
    ),
    "language": RuleSet("pipeline.analyse.language", ("pipeline/analyse/language.py",)),
    "quarantine": RuleSet("pipeline.analyse.quarantine", ("pipeline/analyse/quarantine.py",)),
    "urls": RuleSet("pipeline.analyse.extraction.urls", ("pipeline/analyse/extraction/urls.py",)),
    "vocabulary": RuleSet(
        "pipeline.analyse.extraction.vocabulary",
        (
            "pipeline/analyse/extraction/vocabulary/__init__.py",
            "pipeline/analyse/extraction/vocabulary/metric_words.py",
            "pipeline/analyse/extraction/vocabulary/setup_words.py",
            "pipeline/analyse/extraction/vocabulary/dataset_words.py",
            "pipeline/analyse/extraction/vocabulary/url_words.py",
            "pipeline/analyse/extraction/vocabulary/metric_directions.py",
        ),
    ),
    "linking": RuleSet(
        "pipeline.analyse.extraction.linking",
        ("pipeline/analyse/extraction/linking.py", "pipeline/analyse/extraction/dataset_linking.py"),
    ),
    "metrics": RuleSet(
        "pipeline.analyse.extraction.metrics",
        (
            "pipeline/analyse/extraction/metrics.py",
            "pipeline/analyse/extraction/tokens.py",
            "pipeline/analyse/extraction/spelled.py",
            "pipeline/analyse/extraction/coordination.py",
            "pipeline/analyse/extraction/names.py",
            "pipeline/analyse/extraction/tidy.py",
            "pipeline/analyse/extraction/dataset_names.py",
            "pipeline/analyse/extraction/roles.py",
            "pipeline/analyse/extraction/patterns.py",
            "pipeline/analyse/extraction/rows.py",
            "pipeline/analyse/extraction/keys.py",
            "pipeline/analyse/extraction/sentences.py",
            "pipeline/analyse/extraction/rules.py",
            "pipeline/analyse/extraction/name_rules.py",
            "pipeline/analyse/extraction/kind_rules.py",
            "pipeline/analyse/extraction/dataset_rules.py",
            "pipeline/analyse/extraction/setup_rules.py",
            "pipeline/analyse/extraction/__init__.py",
        ),
    ),
    "dedup": RuleSet("pipeline.build.dedup", ("pipeline/build/dedup.py", "pipeline/analyse/hashing.py")),
    "tables": RuleSet("pipeline.build.tables", ("pipeline/build/tables.py",)),
    # the metric table (vocabulary/metric_directions.py) is the vocabulary's; dataset_tables reads both sets
    "benchmarks": RuleSet("pipeline.build.benchmarks", ("pipeline/build/benchmarks.py",)),
    "schemas": RuleSet("schemas.models", ("schemas/models.py", "schemas/__init__.py")),
    "release": RuleSet(
        "pipeline.runtime.versions",
        ("pipeline/release/writer.py", "pipeline/release/conform.py"),
        "RELEASE_VERSION",
    ),
}


@dataclass(frozen=True)
class AssetVersion:
    """What an asset's outputs depend on besides its inputs: rule sets and library distributions."""

    rules: tuple[str, ...]
    libraries: tuple[str, ...]


#: Asset (``dataset_tables`` stands for its four tables) → the rule sets and libraries that shape it. Rule
#: sets are listed where their code runs: decoding strips invisible characters with cleaning's patterns,
#: quarantine reads header and author lines with the readers' rules
#: (readers.base, readers.venues), the tables normalise URLs (urls) and drop repeated notices (quarantine).
ASSETS: dict[str, AssetVersion] = {
    "listing_records": AssetVersion(
        ("decoding", "readers", "cleaning", "records"), ("charset-normalizer", "polars")
    ),
    "abstracts": AssetVersion(
        (
            "records",
            "text",
            "cleaning",
            "language",
            "quarantine",
            "readers",
            "urls",
            "vocabulary",
            "linking",
            "metrics",
            "dedup",
        ),
        ("langdetect", "ftfy", "pylatexenc", "url-normalize", "datasketch", "xxhash", "numpy", "polars"),
    ),
    "dataset_tables": AssetVersion(
        ("dedup", "tables", "benchmarks", "schemas", "quarantine", "readers", "urls", "vocabulary"),
        ("datasketch", "xxhash", "numpy", "polars", "pandera"),
    ),
    "release": AssetVersion(("release",), ("polars",)),
}


@cache
def rules_version(rule_set: str) -> str:
    """The version of one rule set (:data:`RULE_SETS`); imports its module. KeyError for an unknown name."""
    spec = RULE_SETS[rule_set]
    return str(getattr(importlib.import_module(spec.module), spec.constant))


@cache
def library_version(distribution: str) -> str:
    """The installed version of a distribution, or ``"absent"``."""
    try:
        return md.version(distribution)
    except md.PackageNotFoundError:
        return "absent"


def parts(asset: str) -> dict[str, str]:
    """What :func:`code_version` digests for ``asset``: ``{"rules/<set>": version, "lib/<dist>": version}``
    in a fixed order. KeyError for an asset not in :data:`ASSETS`."""
    spec = ASSETS[asset]
    return {
        **{f"rules/{r}": rules_version(r) for r in spec.rules},
        **{f"lib/{lib}": library_version(lib) for lib in spec.libraries},
    }


def _digest(items: dict[str, str]) -> str:
    text = "\n".join(f"{k}={v}" for k, v in items.items())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def code_version(asset: str) -> str:
    """16 hex digits of sha256 over :func:`parts` of ``asset``: equal exactly when every rules version and
    library version the asset's outputs depend on is equal."""
    return _digest(parts(asset))


@cache
def pipeline_version() -> str:
    """16 hex digits of sha256 over every asset's :func:`code_version`: the code that made a release (its
    manifest's ``code_version``). Equal for two releases when they were made by the same rules and
    libraries."""
    return _digest({a: code_version(a) for a in ASSETS})
