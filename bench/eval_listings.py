"""Listing readers measured on real files: per file, precision, recall, title accuracy and venue/year.

Runs the pipeline's per-listing steps (pipeline.ingest.records.listing_records + build_abstracts, the same code the
assets call) over every file under ``../shared/listings`` (or the folder given as the first argument) and
scores the published records against the truth:

- files whose records are in the dev corpus (``../shared/corpus/real_abstracts_dev.parquet``; a corpus row's
  ``source`` ends with the file's path) are scored against those rows;
- files listed in a ``truth.jsonl`` beside them (``constructed/truth.jsonl``: ``file`` is the file name;
  ``real2/truth.jsonl``: ``listing`` is the path under that folder; both give ``title``, ``abstract``, ``venue``,
  ``year``) against it. A folder whose files each hold one true record (per-paper posts) is scored as one unit,
  one line for the folder.

True records whose text the quarantine rules reject by themselves ("Abstract Missing") are not counted.
precision = published records that are exactly one true abstract (their raw or clean text, case and
punctuation folded, equals the true abstract's, raw or cleaned by the same pipeline.analyse.cleaning) / published;
recall = true abstracts published / true abstracts; titles = published records matched to a true abstract
whose title equals the true title (whitespace and case folded) / matched; venue/year = matched records whose
venue and year equal the truth ("-": the truth gives none, because the file itself does not say; a settings
file would). Markdown schedules are put under a folder named like their repository
(``awesome-neurips-2023/``), as a user would keep them. Prints one line per file and exits 1 when a target is
missed. Says so and exits 0 when the shared folder is absent.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
# `python bench/eval_listings.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.eval_listings` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.analyse import (
    abstracts,  # noqa: E402
    cleaning,  # noqa: E402
)
from pipeline.ingest import records as ingest_records  # noqa: E402
from pipeline.ingest.readers.decoding import restore_eaten_escapes  # noqa: E402

SHARED = ROOT.parent / "shared"
LISTINGS = SHARED / "listings"
CORPUS = SHARED / "corpus" / "real_abstracts_dev.parquet"
TARGETS = {"precision": 0.99, "recall": 0.98, "titles": 0.98}
#: Quarantine reasons that say a true record holds no abstract at all. A true abstract rejected for what it
#: holds (markup, citations, length) is a miss of the pipeline, so it counts against recall.
PLACEHOLDER_REASONS = ("empty", "url_only", "math_only", "no_words", "boilerplate", "too_short")
#: Where a file is kept for the run, relative to the raw folder (the repository name gives venue/year).
PLACED = {"jacobmarks": "awesome-neurips-2023"}


def norm(text: str | None) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", (text or "").casefold()).split())


def truth_for(rel: str, corpus: pl.DataFrame | None, constructed: list[dict]) -> list[dict]:
    """True records of file ``rel`` (path under the listings folder): dicts with title, abstract, venue,
    year."""
    rows = [r for r in constructed if r.get("file") in (rel, Path(rel).name) or r.get("path") == rel]
    if rows:
        return rows
    if corpus is None:
        return []
    hit = corpus.filter(
        pl.col("source").str.ends_with("/" + rel)
        | pl.col("source").str.ends_with(":" + rel)
        | pl.col("source").str.ends_with("/" + Path(rel).name)
        & pl.lit(rel.count("/") == 1)
        & pl.col("source").str.contains(rel.split("/")[0], literal=True)
    )
    return hit.select("title", "abstract", "venue", "year").to_dicts()


def placeholder(abstract: str | None) -> bool:
    """A true record whose abstract the quarantine rules reject on its own text as no abstract
    (``PLACEHOLDER_REASONS``: "Abstract Missing", a five-word fragment): not a true abstract to recall (the count
    is printed per file)."""
    from pipeline.analyse import quarantine

    raw = abstract or ""
    reason = quarantine.quarantine_reason(raw, cleaning.clean_text(raw))
    return reason is not None and reason.split(":")[0] in PLACEHOLDER_REASONS


def score(published: pl.DataFrame, truth: list[dict]) -> dict:
    """Precision, recall, title accuracy and venue/year accuracy of ``published`` against ``truth``."""
    by_text, alias = {}, {}
    for t in truth:
        if placeholder(t["abstract"]):
            continue
        key = norm(t["abstract"])
        by_text.setdefault(key, t)
        alias.setdefault(norm(cleaning.clean_text(t["abstract"] or "")), key)
        alias.setdefault(key, key)
        # the truth as a JSON/YAML decoder read it may hold a LaTeX command eaten into an escape (TAB + "extit"),
        # which the readers put back (pipeline.ingest.readers.decoding.restore_eaten_escapes)
        repaired = restore_eaten_escapes(t["abstract"] or "")
        alias.setdefault(norm(repaired), key)
        alias.setdefault(norm(cleaning.clean_text(repaired)), key)
    matched, titles, vy, found = 0, 0, 0, set()
    for raw, abstract, title, venue, year in published.select(
        "abstract_raw", "abstract", "title", "venue", "year"
    ).iter_rows():
        key = alias.get(norm(raw)) or alias.get(norm(abstract))
        t = by_text.get(key) if key else None
        if t is None:
            continue
        matched += 1
        found.add(key)
        # the truth's title is the field as the file decodes it (LaTeX left as written); the published title
        # is clean text, so either spelling counts
        want_t = t.get("title")
        titles += norm(title) in (norm(want_t), norm(cleaning.clean_text(want_t or "")))
        want_v, want_y = t.get("venue"), t.get("year")
        vy += (venue == want_v and year == want_y) if want_v else 0
    n_true = len(by_text)
    return {
        "published": published.height,
        "true": n_true,
        "precision": matched / published.height if published.height else 0.0,
        "recall": len(found) / n_true if n_true else 0.0,
        "titles": titles / matched if matched else 0.0,
        "venue_year": vy / matched if matched and any(t.get("venue") for t in truth) else None,
    }


def build_extra(out: Path, per_file: int = 40) -> Path:
    """Write listing files of shapes the shared folder lacks, each from ``per_file`` dev-corpus records of one
    venue-year (named in the file name, the usual way), plus ``truth.jsonl``; returns ``out``.

    Shapes: TSV; JSON object keyed by id; ``{"papers": [...]}``; gzip JSON Lines; a PDF first-page dump (pages
    split by form feeds, wrapped title, authors with marks, affiliations, e-mails, ``Abstract—``,
    ``Keywords``); text dumps with ``=`` and ``-`` separators; BibTeX with abstracts; a markdown table; a
    semicolon CSV; labelled records without separator lines (``Paper ID:``/``Title:``/``Abstract:``, venue
    and year only in the header line); Hugging Face daily-papers JSON (the paper one level down); a Semantic
    Scholar-style export (the venue's full name and a ``year`` field, nothing in the file name); an ACL
    Anthology-style XML volume; an "awesome" markdown list with nested ``Authors:``/``Abstract:`` items;
    blank-line paragraphs of ``1. Title``, an author line and the abstract. Authors are
    placeholders (the corpus has none); titles, abstracts, ids, venues and years are real.
    """
    import csv
    import gzip
    import io
    import textwrap

    from pipeline.ingest.readers.venues import VENUE_NAMES

    corpus = pl.read_parquet(CORPUS).filter(
        pl.col("title").is_not_null() & (pl.col("title").str.len_chars() > 0)
    )
    groups = corpus.group_by("venue", "year").len().filter(pl.col("len") >= per_file).sort("venue", "year")
    picks = groups.sample(10, seed=12, with_replacement=False).sort("venue", "year").rows()
    picks += groups.sample(3, seed=13, with_replacement=False).sort("venue", "year").rows()
    picks += groups.sample(3, seed=14, with_replacement=False).sort("venue", "year").rows()
    out.mkdir(parents=True, exist_ok=True)
    truth = []

    def recs(i):
        v, y, _ = picks[i]
        df = corpus.filter((pl.col("venue") == v) & (pl.col("year") == y)).sample(per_file, seed=i)
        rows = df.select("title", "abstract", "source_record_id").to_dicts()
        for k, r in enumerate(rows):
            r["authors"] = ["A. Author", "B. Author", f"C. Writer{k}"]
            r["id"] = r["source_record_id"] or f"id{i}-{k}"
        return v, y, rows

    def emit(name, v, y, rows, data):
        (out / name).write_bytes(data if isinstance(data, bytes) else data.encode())
        truth.extend(
            {"file": name, "venue": v, "year": y, "title": r["title"], "abstract": r["abstract"]}
            for r in rows
        )

    v, y, rows = recs(0)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    w.writerow(["paper_id", "paper_title", "authors", "abstract"])
    w.writerows([r["id"], r["title"], "; ".join(r["authors"]), r["abstract"]] for r in rows)
    emit(f"{v.lower()}{y}_accepted.tsv", v, y, rows, buf.getvalue())
    v, y, rows = recs(1)
    emit(
        f"{v}-{y}.json",
        v,
        y,
        rows,
        json.dumps(
            {
                r["id"]: {"title": r["title"], "authors": r["authors"], "abstract": r["abstract"]}
                for r in rows
            },
            indent=1,
        ),
    )
    v, y, rows = recs(2)
    emit(
        f"{v.lower()}_{y}_papers.json",
        v,
        y,
        rows,
        json.dumps(
            {
                "venue": "x",
                "papers": [
                    {
                        "paper_id": r["id"],
                        "title": r["title"],
                        "author_names": r["authors"],
                        "paper_abstract": r["abstract"],
                    }
                    for r in rows
                ],
            }
        ),
    )
    v, y, rows = recs(3)
    emit(
        f"{v.lower()}{str(y)[2:]}.jsonl.gz",
        v,
        y,
        rows,
        gzip.compress(
            "\n".join(
                json.dumps(
                    {
                        "uid": r["id"],
                        "title": r["title"],
                        "authors": [{"name": a} for a in r["authors"]],
                        "summary": r["abstract"],
                    }
                )
                for r in rows
            ).encode()
        ),
    )
    v, y, rows = recs(4)
    pages = []
    for k, r in enumerate(rows):
        words = r["title"].split()
        t = " ".join(words[: len(words) // 2]) + "\n" + " ".join(words[len(words) // 2 :])
        body = "\n".join(textwrap.wrap(" ".join(r["abstract"].split()), 80))
        pages.append(
            f"{t}\nAnne Author1, Bob Builder2*, Carla Writer{k}1\n1Department of Computer Science, "
            f"University of Somewhere\n2Example Research Institute\n{{anne,carla}}@cs.example.edu\n\n"
            f"Abstract—{body}\nIndex Terms—learning, vision\n\nI. INTRODUCTION\nThe rest of the page.\n"
        )
    emit(f"{v}/{y}/first_pages.txt", v, y, rows, "\f".join(pages)) if (out / v / str(y)).mkdir(
        parents=True, exist_ok=True
    ) is None else None
    for i, sep in ((5, "=" * 60), (6, "-" * 20)):
        v, y, rows = recs(i)
        text = (
            "Downloaded from a paper list\n"
            + sep
            + "\n"
            + ("\n" + sep + "\n").join(
                f"{r['title']}\n{', '.join(r['authors'])}\n{r['abstract'].strip()}" for r in rows
            )
            + "\n"
        )
        emit(f"{v.lower()}-{y}-dump.txt", v, y, rows, text)
    v, y, rows = recs(7)
    emit(
        f"{v.lower()}{y}.bib",
        v,
        y,
        rows,
        "\n".join(
            f"@inproceedings{{{r['id']},\n  title = {{{r['title']}}},\n  author = {{{' and '.join(r['authors'])}}},\n"
            f"  year = {{{y}}},\n  abstract = {{{r['abstract'].replace('{', '(').replace('}', ')')}}}\n}}\n"
            for r in rows
        ),
    )
    v, y, rows = recs(8)
    md = ["# Accepted papers", "", "| Title | Authors | Abstract |", "|---|---|---|"] + [
        f"| {r['title'].replace('|', '/')} | {', '.join(r['authors'])} | "
        f"{' '.join(r['abstract'].split()).replace('|', '/')} |"
        for r in rows
    ]
    emit(
        f"awesome-{v.lower()}-{y}.md",
        v,
        y,
        [
            {**r, "abstract": r["abstract"].replace("|", "/"), "title": r["title"].replace("|", "/")}
            for r in rows
        ],
        "\n".join(md),
    )
    v, y, rows = recs(9)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    w.writerow(["Title", "Authors", "Abstract", "Decision"])
    w.writerows([r["title"], ", ".join(r["authors"]), r["abstract"], "Accept (Poster)"] for r in rows)
    emit(f"{v}{y}.csv", v, y, rows, buf.getvalue())
    v, y, rows = recs(10)
    emit(
        "accepted_papers.txt",
        v,
        y,
        rows,
        f"{v} {y} accepted papers\n\n"
        + "\n".join(
            f"Paper ID: {r['id']}\nTitle: {r['title']}\nAuthors: {', '.join(r['authors'])}\nAbstract:\n"
            + "\n".join(textwrap.wrap(" ".join(r["abstract"].split()), 90))
            + "\n"
            for r in rows
        ),
    )
    v, y, rows = recs(11)
    emit(
        f"{v.lower()}_{y}_daily.json",
        v,
        y,
        rows,
        json.dumps(
            [
                {
                    "paper": {
                        "id": r["id"],
                        "title": r["title"],
                        "summary": r["abstract"],
                        "authors": [{"name": a} for a in r["authors"]],
                    },
                    "title": r["title"],
                    "numComments": k,
                }
                for k, r in enumerate(rows)
            ]
        ),
    )
    v, y, rows = recs(12)
    full = next((n for n, c in VENUE_NAMES.items() if c == v), v)
    emit(
        "s2_export.json",
        v,
        y,
        rows,
        json.dumps(
            {
                "total": len(rows),
                "data": [
                    {
                        "paperId": r["id"],
                        "title": r["title"],
                        "abstract": r["abstract"],
                        "venue": full,
                        "year": y,
                        "authors": [{"name": a} for a in r["authors"]],
                    }
                    for r in rows
                ],
            }
        ),
    )
    from xml.sax.saxutils import escape

    v, y, rows = recs(13)
    full = next((n for n, c in VENUE_NAMES.items() if c == v), v)
    emit(
        "volume.xml",
        v,
        y,
        rows,
        f'<?xml version="1.0" encoding="UTF-8"?>\n<collection>\n<volume id="main">\n<meta><booktitle>'
        f"{escape(full)}</booktitle><year>{y}</year></meta>\n"
        + "".join(
            f'<paper id="{k + 1}">\n<title>{escape(r["title"])}</title>\n'
            + "".join(
                f"<author><first>{a.split()[0]}</first><last>{a.split()[-1]}</last></author>\n"
                for a in r["authors"]
            )
            + f"<abstract>{escape(r['abstract'])}</abstract>\n</paper>\n"
            for k, r in enumerate(rows)
        )
        + "</volume>\n</collection>\n",
    )
    v, y, rows = recs(14)
    emit(
        f"awesome-{v.lower()}-{y}-papers.md",
        v,
        y,
        rows,
        f"# Awesome {v} {y}\n\nPapers, with their abstracts.\n\n## Papers\n\n"
        + "".join(
            f"- **{r['title']}** [[paper](https://example.org/{k})] [[code](https://github.com/example/r{k})]\n"
            f"  - Authors: {', '.join(r['authors'])}\n  - Abstract: {' '.join(r['abstract'].split())}\n\n"
            for k, r in enumerate(rows)
        ),
    )
    v, y, rows = recs(15)
    emit(
        f"{v.lower()}{y}_numbered.txt",
        v,
        y,
        rows,
        f"{v} {y} papers\n\n"
        + "".join(
            f"{k + 1}. {r['title']}\n{', '.join(r['authors'])}\n"
            + "\n".join(textwrap.wrap(" ".join(r["abstract"].split()), 100))
            + "\n\n"
            for k, r in enumerate(rows)
        ),
    )
    (out / "truth.jsonl").write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in truth))
    return out


def load_truth(folder: Path) -> list[dict]:
    """Every ``truth.jsonl`` under ``folder``; a record naming its ``listing`` (the path under the truth file's
    folder) gets ``path``, the path under ``folder``."""
    out = []
    for tf in sorted(folder.rglob("truth.jsonl")):
        base = tf.parent.relative_to(folder).as_posix()
        for line in tf.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                if rec.get("listing"):
                    rec["path"] = f"{base}/{rec['listing']}" if base != "." else rec["listing"]
                out.append(rec)
    return out


def units(folder: Path, constructed: list[dict]) -> list[tuple[str, list[Path]]]:
    """The scored units under ``folder``: (name, files). A folder of at least five files that each hold exactly
    one true record (per-paper posts) is one unit named ``folder/``; every other file is a unit of its own.
    READMEs, truth files, scripts and settings files are not listings."""
    files = sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.name not in ("README.md", "truth.jsonl", "listing.toml")
        and p.suffix != ".py"
        and not p.name.endswith(".listing.toml")
    )
    per_file: dict[str, int] = {}
    for rec in constructed:
        if rec.get("path"):
            per_file[rec["path"]] = per_file.get(rec["path"], 0) + 1
    by_dir: dict[Path, list[Path]] = {}
    for path in files:
        by_dir.setdefault(path.parent, []).append(path)
    out, seen = [], set()
    for path in files:
        group = by_dir[path.parent]
        singles = all(per_file.get(q.relative_to(folder).as_posix()) == 1 for q in group)
        if len(group) >= 5 and singles:
            if path.parent not in seen:
                seen.add(path.parent)
                out.append((path.parent.relative_to(folder).as_posix() + "/", group))
        else:
            out.append((path.relative_to(folder).as_posix(), [path]))
    return out


def main(folder: Path = LISTINGS) -> int:
    if not folder.is_dir():
        print(
            f"eval-listings: {folder} is absent; nothing to measure (put listing files and their truth there)"
        )
        return 0
    corpus = pl.read_parquet(CORPUS) if CORPUS.exists() else None
    if corpus is None:
        print(f"eval-listings: {CORPUS} is absent; only files with a truth.jsonl are scored")
    constructed = load_truth(folder)
    scored, passed = 0, 0
    print(
        f"{'file':48} {'reader':15} {'venue/year':16} {'pub':>5} {'true':>5} {'prec':>6} {'recall':>6} "
        f"{'titles':>6} {'v/y':>5}"
    )
    for unit, paths in units(folder, constructed):
        frames, all_rows, truth = [], [], []
        for path in paths:
            rel = path.relative_to(folder).as_posix()
            top = rel.split("/")[0]
            name = rel if top not in PLACED else f"{PLACED[top]}/{path.name}"
            frame, _ = ingest_records.listing_records(path.read_bytes(), name)
            frames.append(frame)
            all_rows.append(abstracts.abstract_rows(frame))
            truth += truth_for(rel, corpus, constructed)
        frame = pl.concat(frames, how="diagonal_relaxed")
        rows = pl.concat(all_rows, how="diagonal_relaxed")
        published = rows.filter(pl.col("quarantine_reason").is_null()).unique(
            "content_hash", keep="first", maintain_order=True
        )
        readers = "+".join(sorted({r or "-" for r in frame["reader"].to_list()})) if frame.height else "-"
        if not truth:
            print(
                f"{unit:48} {readers:15} no truth: {published.height} published, {rows.height - published.height} not"
            )
            continue
        s = score(published, truth)
        n_placeholders = sum(placeholder(t["abstract"]) for t in truth)
        vy = f"{frame['venue'].mode()[0]} {frame['year'].mode()[0]}" if frame.height else "- -"
        ok = all(s[k] >= v for k, v in TARGETS.items()) and (
            s["venue_year"] is None or s["venue_year"] >= 0.98
        )
        v_y = "    -" if s["venue_year"] is None else f"{s['venue_year']:>5.2f}"
        scored += 1
        passed += ok
        print(
            f"{unit:48} {readers:15} {vy:16} {s['published']:>5} {s['true']:>5} "
            f"{s['precision']:>6.3f} {s['recall']:>6.3f} {s['titles']:>6.3f} {v_y}"
            f"{'' if ok else '  MISSED'}"
        )
        reasons = (
            rows.filter(pl.col("quarantine_reason").is_not_null())["quarantine_reason"]
            .str.split(":")
            .list.first()
        )
        if reasons.len():
            print(
                f"{'':48} quarantined: {dict(sorted(reasons.value_counts().iter_rows()))}"
                + (f"; {n_placeholders} true records are placeholders, not scored" if n_placeholders else "")
            )
    print(
        f"eval-listings: {passed} of {scored} scored files meet every target {TARGETS} and venue/year ≥ 0.98"
    )
    return 0 if passed == scored else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--extra"]:
        import tempfile

        if not CORPUS.exists():
            print(f"eval-listings --extra: {CORPUS} is absent; cannot build the extra shapes")
            sys.exit(0)
        with tempfile.TemporaryDirectory() as tmp:
            sys.exit(main(build_extra(Path(tmp) / "extra")))
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else LISTINGS))
