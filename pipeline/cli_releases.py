"""The command line's verbs on the releases: ``releases``, ``diff A B``, ``rollback N`` and ``show PAPER_ID``
(``python -m pipeline``; pipeline.cli parses the arguments and turns a ReleaseError into one ``error:`` line).

The work is done by pipeline.release.history (the list of releases, the diff of two, one paper across them)
and pipeline.release.publish.rollback; this module only prints it, as text or with ``--json`` as JSON.
"""

from __future__ import annotations

import argparse
import json

from pipeline.runtime import config


def releases(as_json: bool = False) -> int:
    """Print one line per release (pipeline.release.history.release_rows: number, created, parent, papers,
    added/changed/removed, release id, state; ``LATEST`` marks the latest), or with ``as_json`` the rows as
    a JSON list. Returns 0, or 1 with one ``error:`` line when LATEST or releases.json is unreadable."""
    from pipeline.release import history

    rows = history.release_rows(config.warehouse_dir())
    if as_json:
        print(json.dumps(rows, indent=1))
        return 0
    if not rows:
        print(f"no release in {config.warehouse_dir()}")
        return 0
    print(
        f"{'release':>7}  {'created':<25}  {'parent':>6}  {'papers':>7}  {'added':>6}  {'changed':>7}  "
        f"{'removed':>7}  {'release_id':<16}  state"
    )
    for r in rows:
        cells = [str(r[k]) if r[k] is not None else "-" for k in ("papers", "added", "changed", "removed")]
        parent = str(r["parent"]) if r["parent"] is not None else "-"
        state = "LATEST" if r["latest"] else r["state"]
        print(
            f"{r['release']:>7}  {r['created_at'] or '-':<25}  {parent:>6}  {cells[0]:>7}  {cells[1]:>6}  "
            f"{cells[2]:>7}  {cells[3]:>7}  {r['release_id'] or '-':<16}  {state}"
        )
    return 0


def diff(old: int, new: int, as_json: bool = False) -> int:
    """Print the papers added, removed and changed from release ``old`` to release ``new`` and the listings
    whose records changed status, as ``CHANGELOG.md`` tells them (pipeline.release.history.diff_releases),
    or with ``as_json`` as JSON. Returns 0; raises ReleaseError for an unknown release (:func:`main`)."""
    from pipeline.release import history

    result = history.diff_releases(config.warehouse_dir(), old, new)
    print(json.dumps(result.to_json(), indent=1) if as_json else result.markdown())
    return 0


def rollback(number: int) -> int:
    """Make release ``number`` the latest (pipeline.release.publish.rollback: under the publish lock, index
    first, verified, LATEST replaced atomically). Returns 0; raises ReleaseError (:func:`main`) while a
    publish runs, for an unknown release or one that fails verification: LATEST unchanged."""
    from pipeline import release

    wh = config.warehouse_dir()
    before, after = release.rollback(wh, number)
    if before == after:
        print(f"release {after} is already the latest in {wh}; nothing changed")
    else:
        print(
            f"LATEST now names release {after} (was {before}) in {wh}; newer releases stay, hidden from "
            "all-release reads; the next run publishes the next unused number with "
            f"release {after} as its parent"
        )
    return 0


def show(paper_id: str, as_json: bool = False) -> int:
    """Print one paper (pipeline.release.history.show_paper): its row, URLs, metrics, lineage and the
    releases it appears in; ``as_json``: as JSON. Returns 0; raises ReleaseError (:func:`main`) for a bad or
    unknown paper id."""
    from pipeline.release import history

    info = history.show_paper(config.warehouse_dir(), paper_id)
    if as_json:
        print(json.dumps(info, indent=1, default=str))
        return 0
    paper = info["paper"]
    print(
        f"paper {paper_id} (release {info['release']}; in releases {', '.join(map(str, info['releases']))})"
    )
    for k, v in paper.items():
        if k not in ("abstract_raw",):
            print(f"  {k}: {v}")
    print(f"urls ({len(info['urls'])}):")
    for u in info["urls"]:
        print(f"  {u['url']} ({u['kind']}, {u['origin']})")
    print(f"metrics ({len(info['metrics'])}):")
    for m in info["metrics"]:
        print(f"  {m['metric'] or '?'} on {m['dataset'] or '?'}: {m['value_text']} ({m['kind']})")
    print(f"lineage ({len(info['lineage'])} records):")
    for r in info["lineage"]:
        dup = f" of {r['duplicate_of']} (similarity {r['similarity']})" if r["duplicate_of"] else ""
        print(f"  {r['listing']} record {r['paragraph']} line {r['line']}: {r['status']}{dup}")
    return 0


def add_parsers(sub) -> None:
    """The sub-commands on the releases: ``releases``, ``diff A B``, ``rollback N``, ``show PAPER_ID``."""
    p = sub.add_parser("releases", help="one line per release: number, created, parent, papers, changes, id")
    p.add_argument("--json", action="store_true", help="the releases as a JSON list")
    p = sub.add_parser("diff", help="papers added, removed and changed between two releases")
    p.add_argument("old", type=int, help="release number (from)")
    p.add_argument("new", type=int, help="release number (to)")
    p.add_argument("--json", action="store_true", help="the changes as JSON")
    p = sub.add_parser(
        "rollback", help="make release N the latest (publish lock, verified, LATEST atomically)"
    )
    p.add_argument("release", type=int, help="release number")
    p = sub.add_parser("show", help="one paper: its row, URLs, metrics, lineage and releases")
    p.add_argument("paper_id", help="a papers.paper_id: 'p' and 16 hex digits")
    p.add_argument("--json", action="store_true", help="the paper as JSON")
    for name in ("releases", "diff", "rollback", "show"):
        sub.choices[name].add_argument("-v", "--verbose", action="store_true", help="traceback of an error")


def dispatch(args: argparse.Namespace) -> int:
    """Run the release command ``args`` names; returns its exit status."""
    if args.command == "releases":
        return releases(args.json)
    if args.command == "diff":
        return diff(args.old, args.new, args.json)
    if args.command == "rollback":
        return rollback(args.release)
    return show(args.paper_id, args.json)
