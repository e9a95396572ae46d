"""What each rule set outputs on fixed real inputs, digested: the golden file behind tests/runtime/test_versions_golden.py.

Inputs (all in the repository): the abstracts of tests/data/gold/{gold_dev,gold_dev2,gold_dev3,fixtures}.jsonl and every
record of the listing files in tests/data/{readers,listings,seeds,cases}. Each probe runs one rule set's public
functions over them and returns ``{input id: output}``; the golden file
(tests/data/versions/golden.json) keeps, per probe, the rules versions it ran under (pipeline.runtime.versions) and a
12-hex sha256 of each input's output. A probe whose outputs differ while its versions are equal means a
rule changed behaviour without its ``RULES_VERSION`` bump.

Regenerate after bumping a version (or upgrading a library that changes outputs)::

    make versions-golden        # = .venv/bin/python -m tests.versions_golden --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import polars as pl

from pipeline.runtime import versions

ROOT = Path(__file__).resolve().parent
GOLDEN = ROOT / "data" / "versions" / "golden.json"
REGENERATE = "make versions-golden"
LISTING_DIRS = ("readers", "listings", "seeds", "cases")
GOLD_FILES = ("gold/gold_dev.jsonl", "gold/gold_dev2.jsonl", "gold/gold_dev3.jsonl", "gold/fixtures.jsonl")


@cache
def listing_files() -> dict[str, bytes]:
    """Relative name → bytes of every listing file of :data:`LISTING_DIRS` (sorted)."""
    out = {}
    for d in LISTING_DIRS:
        for f in sorted((ROOT / "data" / d).iterdir()):
            if f.is_file() and not f.name.startswith("."):
                out[f"{d}/{f.name}"] = f.read_bytes()
    return out


@cache
def record_frames() -> dict[str, pl.DataFrame]:
    """Listing name → pipeline.ingest.records.listing_records frame of each listing file."""
    from pipeline.ingest import records as ingest_records

    return {name: ingest_records.listing_records(data, name)[0] for name, data in listing_files().items()}


@cache
def raw_abstracts() -> dict[str, str]:
    """Input id → raw abstract: the gold files' texts, then every readable record of the listing files."""
    out = {}
    for rel in GOLD_FILES:
        for line in (ROOT / "data" / rel).read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                out[f"{rel}:{d.get('doc_id') or d.get('id')}"] = d["text"]
    for name, frame in record_frames().items():
        for p, raw, err in frame.select("paragraph", "abstract_raw", "decode_error").iter_rows():
            if err is None:
                out[f"{name}#{p}"] = raw
    return out


@cache
def clean_abstracts() -> dict[str, str]:
    from pipeline.analyse import cleaning

    return {k: cleaning.clean_text(v) for k, v in raw_abstracts().items()}


@cache
def abstracts_frame() -> pl.DataFrame:
    from pipeline.analyse import abstracts

    frames, _ = abstracts.build_abstracts(record_frames())
    return pl.concat(list(frames.values())) if frames else pl.DataFrame()


@cache
def built_tables() -> dict[str, pl.DataFrame]:
    from pipeline.build import benchmarks, dedup, tables

    df = abstracts_frame()
    built = tables.build_tables(df, dedup.cluster(tables.publishable(df)))
    return {**built, **benchmarks.from_tables(built["paper_metrics"], built["papers"])}


def _rows(df: pl.DataFrame) -> list:
    return [list(r) for r in df.rows()]


def probe_decoding() -> dict:
    from pipeline.ingest.readers.decoding import ListingDecodeError, decode_listing

    out = {}
    for name, data in listing_files().items():
        try:
            text, enc = decode_listing(data, name, stray_nul_ok=True)
            out[name] = [enc, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()]
        except ListingDecodeError as e:
            out[name] = ["error", e.reason, e.offset]
    return out


def probe_readers() -> dict:
    from pipeline.ingest.readers import ListingDecodeError, ReaderError, read_listing

    out = {}
    for name, data in listing_files().items():
        try:
            got = read_listing(data, name)
        except (ListingDecodeError, ReaderError) as e:
            out[name] = ["error", type(e).__name__, str(e)]
            continue
        out[name] = [
            got.reader,
            got.encoding,
            list(got.venues),
            list(got.years),
            list(got.warnings),
            [
                [r.line, r.position, r.abstract_raw, r.title, r.authors, r.source_id, r.source_status]
                + [r.source_urls, r.problem]
                for r in got.records
            ],
        ]
    return out


def probe_records() -> dict:
    df = abstracts_frame()
    return {name: _rows(df.filter(pl.col("listing") == name)) for name in listing_files()}


def probe_cleaning() -> dict:
    return dict(clean_abstracts())


def probe_quarantine() -> dict:
    from pipeline.analyse import quarantine

    clean = clean_abstracts()
    return {k: quarantine.quarantine_reason(raw, clean[k]) for k, raw in raw_abstracts().items()}


def probe_language() -> dict:
    from pipeline.analyse import language

    return {k: list(language.detect_language(v)) for k, v in clean_abstracts().items()}


def probe_urls() -> dict:
    from pipeline.analyse.extraction import extract_urls

    return {k: extract_urls(v) for k, v in raw_abstracts().items()}


def probe_metrics() -> dict:
    from pipeline.analyse.extraction import extract_metrics

    return {k: extract_metrics(v) for k, v in clean_abstracts().items()}


def probe_dedup() -> dict:
    from pipeline.analyse import hashing
    from pipeline.build import dedup, tables

    out = {}
    for k, v in clean_abstracts().items():
        norm = hashing.normalise_for_hash(v)
        out[k] = [hashing.content_hash(v), hashing.lsh_keys(norm)]
    clusters = dedup.cluster(tables.publishable(abstracts_frame()))
    out["cluster"] = _rows(clusters.sort(clusters.columns))
    return out


def probe_tables() -> dict:
    return {name: [list(df.schema.items()), _rows(df)] for name, df in built_tables().items()}


def probe_schemas() -> dict:
    from schemas import MODELS, validate

    out = {}
    for name, model in MODELS.items():
        cols = model.to_schema().columns
        out[f"{name}:model"] = [
            [n, str(c.dtype), bool(c.nullable), bool(c.unique), sorted(repr(ch) for ch in c.checks)]
            for n, c in cols.items()
        ]
        df = built_tables()[name]
        failures = validate(df, model)
        out[f"{name}:built"] = None if failures is None else failures.height
        nulled = df.head(3).with_columns(pl.lit(None).cast(t).alias(c) for c, t in df.schema.items())
        failures = validate(nulled, model)
        out[f"{name}:nulls"] = (
            None
            if failures is None
            else sorted([c, k, n] for c, k, n in failures.group_by("column", "check").len().iter_rows())
        )
    return out


def probe_release() -> dict:
    from pipeline.release import writer

    parts = {name: writer.partitions(df, name) for name, df in built_tables().items()}
    with tempfile.TemporaryDirectory() as tmp:
        written = writer.write_tables(parts, Path(tmp), None, {})[0]
    return {f.path: f.sha256 for files in written.values() for f in files}


@dataclass(frozen=True)
class Probe:
    """A probe: the rule sets whose versions its outputs must follow, and the function computing them."""

    rule_sets: tuple[str, ...]
    run: Callable[[], dict]


_ANALYSIS = ("cleaning", "text")
#: Probe name → the rule sets it depends on (what must be bumped when it changes) and its function.
PROBES: dict[str, Probe] = {
    "decoding": Probe(("decoding", "cleaning"), probe_decoding),
    "readers": Probe(("readers", "decoding", "cleaning"), probe_readers),
    "cleaning": Probe(_ANALYSIS, probe_cleaning),
    "quarantine": Probe(("quarantine", "readers", *_ANALYSIS), probe_quarantine),
    "language": Probe(("language", *_ANALYSIS), probe_language),
    "urls": Probe(("urls", "vocabulary"), probe_urls),
    "metrics": Probe(("metrics", "vocabulary", "linking", *_ANALYSIS), probe_metrics),
    "dedup": Probe(("dedup", *versions.ASSETS["abstracts"].rules), probe_dedup),
    "records": Probe(
        tuple(dict.fromkeys(versions.ASSETS["listing_records"].rules + versions.ASSETS["abstracts"].rules)),
        probe_records,
    ),
    "tables": Probe(
        tuple(
            dict.fromkeys(
                versions.ASSETS["listing_records"].rules
                + versions.ASSETS["abstracts"].rules
                + versions.ASSETS["dataset_tables"].rules
            )
        ),
        probe_tables,
    ),
    "schemas": Probe(
        ("schemas", "tables", "benchmarks", "dedup", *versions.ASSETS["abstracts"].rules), probe_schemas
    ),
    "release": Probe(
        tuple(
            dict.fromkeys(("release", "tables", "benchmarks", "dedup", *versions.ASSETS["abstracts"].rules))
        ),
        probe_release,
    ),
}


def libraries() -> dict[str, str]:
    """Every library version an asset's code version includes (pipeline.runtime.versions.ASSETS)."""
    names = sorted({lib for a in versions.ASSETS.values() for lib in a.libraries})
    return {n: versions.library_version(n) for n in names}


def _item_digest(value) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def observe(name: str) -> dict:
    """One probe's golden entry now: ``{"versions": {rule set: version}, "items": {input: digest}}``."""
    probe = PROBES[name]
    items = {k: _item_digest(v) for k, v in probe.run().items()}
    return {"versions": {r: versions.rules_version(r) for r in probe.rule_sets}, "items": items}


def compare(name: str, golden: dict, now: dict) -> str | None:
    """Why ``now`` (:func:`observe`) fails against the golden entry, or None when it does not."""
    where = ", ".join(
        f"{r} ({versions.RULE_SETS[r].module}.{versions.RULE_SETS[r].constant})" for r in now["versions"]
    )
    if golden is None:
        return f"probe {name!r} is not in {GOLDEN.name}: run `{REGENERATE}`"
    if golden["versions"] != now["versions"]:
        changed = {
            r: f"{golden['versions'].get(r)} -> {v}"
            for r, v in now["versions"].items()
            if golden["versions"].get(r) != v
        }
        return (
            f"rules versions of probe {name!r} moved ({changed}) since {GOLDEN.name} was written: if the "
            f"change of outputs is intended, run `{REGENERATE}` and commit the golden file"
        )
    g, n = golden["items"], now["items"]
    differ = sorted(k for k in set(g) | set(n) if g.get(k) != n.get(k))
    if not differ:
        return None
    return (
        f"outputs of probe {name!r} changed on {len(differ)} of {len(n)} inputs (first: {differ[:5]}) while "
        f"its rules versions did not: a rule changed behaviour. Bump the version of the rule set you changed "
        f"(one of: {where}; pipeline/runtime/versions.py RULE_SETS lists the files each covers), then run "
        f"`{REGENERATE}` and commit tests/data/versions/golden.json. (A refactor must not change outputs.)"
    )


def read_golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {"probes": {}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"rewrite {GOLDEN.relative_to(ROOT.parent)}")
    args = ap.parse_args(argv)
    golden = read_golden()
    probes = {name: observe(name) for name in PROBES}
    problems = {n: compare(n, golden["probes"].get(n), p) for n, p in probes.items()}
    for n, why in problems.items():
        print(f"{n}: {why or 'unchanged'}")
    if args.write:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(
            json.dumps({"libraries": libraries(), "probes": probes}, indent=1, sort_keys=True) + "\n"
        )
        print(f"wrote {GOLDEN}")
        return 0
    return 1 if any(problems.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
