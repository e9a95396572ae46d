"""How much of a file one reading explains (the rules: pipeline.ingest.readers.sniff's module docstring).

:func:`coverage` weighs each line by its characters (stripped; blank lines weigh nothing) and marks the lines
a reading explains: its records' line spans, separator lines, the header's line and the reader's own
non-record ranges. Pure functions.
"""

from __future__ import annotations

import re

from pipeline.ingest.readers.base import Record, is_separator_line

_WORD = re.compile(r"\S+")
#: A record whose ``problem`` starts so (a CSV row with more or fewer fields than the header, broken quoting,
#: a JSON Lines line that is not an object) is not of the reader's shape: it explains nothing.
MALFORMED = "malformed"
_SEPARATOR_START = frozenset("*=-_~# \t")


def _fold(text: str) -> str:
    """The letters and digits of ``text`` (a reader may normalise its header line: spaces, control and
    invisible characters), so a header is found on its line however the reader wrote it."""
    return "".join(ch for ch in text if ch.isalnum())


def record_words_over(text: str, limit: int) -> bool:
    """True when ``text`` holds more than ``limit`` whitespace-separated words (stops counting there)."""
    if len(text) <= limit:  # fewer characters than the limit: fewer words
        return False
    n = 0
    for _ in _WORD.finditer(text):
        n += 1
        if n > limit:
            return True
    return False


def is_markup(record_lines: list[str], pattern: re.Pattern) -> bool:
    """True when a record of 2+ non-blank lines has lines matching ``pattern`` (markup of a
    structured shape, pipeline.ingest.readers.sniff.MARKUP_LINE) in more than half of them."""
    nonblank = [x for x in record_lines if x.strip()]
    if len(nonblank) < 2:
        return False
    return 2 * sum(1 for x in nonblank if pattern.match(x)) > len(nonblank)


def paragraphs_over(record_lines: list[str], limit: int) -> bool:
    """True when ``record_lines`` hold more than ``limit`` blank-line-separated paragraphs."""
    n, blank = 0, True
    for x in record_lines:
        if x.strip():
            n += blank
            blank = False
            if n > limit:
                return True
        else:
            blank = True
    return False


def mark_markup(lines: list[str], records: list[Record], pattern: re.Pattern) -> int:
    """Give every record of a prose reading that is mostly markup of another shape (:func:`is_markup`) and
    has no problem yet the problem ``foreign_markup: ...`` (quarantined alone: a quoted BibTeX entry or YAML
    block is not an abstract); returns how many."""
    n = 0
    for first, last, r in spans(records, len(lines)):
        if r.problem is None and last > first and is_markup(lines[first - 1 : last], pattern):
            r.problem = (
                f"foreign_markup: lines {first}-{last} are mostly markup of another shape (BibTeX fields, "
                "YAML/JSON keys, table rows, XML elements), not text"
            )
            n += 1
    return n


def spans(records: list[Record], n_lines: int) -> list[tuple[int, int, Record]]:
    """Each record with a line (``line`` ≥ 1) as ``(first, last, record)``, 1-based inclusive: ``last`` is the
    record's ``end_line`` when set, else the line before the next record's first line (the file's last line
    for the last record), never before ``first``."""
    placed = sorted((r for r in records if r.line >= 1), key=lambda r: r.line)
    out = []
    starts = sorted({r.line for r in placed}) + [n_lines + 1]
    following = dict(zip(starts, starts[1:]))  # first line → the next record's first line after it
    for r in placed:
        nxt = following[r.line]
        last = r.end_line if r.end_line >= r.line else nxt - 1
        out.append((r.line, max(r.line, min(last, n_lines)), r))
    return out


def ranges_of(flags: list[bool], lines: list[str]) -> list[tuple[int, int]]:
    """1-based ``(first, last)`` runs of non-blank lines whose flag is False; runs separated only by blank
    lines are one range."""
    out: list[tuple[int, int]] = []
    for i, (ok, x) in enumerate(zip(flags, lines)):
        if ok or not x.strip():
            continue
        if out and all(not y.strip() for y in lines[out[-1][1] : i]):
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i + 1, i + 1))
    return out


def coverage(
    lines: list[str],
    header: str | None,
    records: list[Record],
    *,
    document: bool = False,
    prose_markup: re.Pattern | None = None,
    non_records: list[tuple[int, int]] = (),  # type: ignore[assignment]
    max_words: int = 3500,
    max_paragraphs: int = 5,
) -> tuple[float, float, list[tuple[int, int]]]:
    """``(share explained, unexplained ranges)`` of one reading of a file split into ``lines``.

    Args:
        lines: the file's lines (``text.split("\\n")``); header/records: the reading;
        document: the reader parsed the whole text (coverage 1.0 with a record, else 0.0);
        prose_markup: for a prose reader, the markup-line pattern (a record mostly of markup explains
            nothing: :func:`is_markup`; nor does one of more than ``max_paragraphs`` paragraphs:
            :func:`paragraphs_over`, several records glued together);
        non_records: 1-based line ranges the reader recognises as not records;
        max_words: a record whose abstract holds more words explains nothing; so does a record whose
            ``problem`` is :data:`MALFORMED`.

    Returns:
        ``(explained, accounted, unexplained)``: the share (0..1) of the characters of non-blank lines on
        explained lines (1.0 for a file of blank lines only); the same share counting the lines of malformed
        and over-long records too (they are quarantined alone: a reading that is right for every other
        record is not thrown away for one glued record, but it does not win the choice with it); the
        unexplained line ranges (:func:`ranges_of`).
    """
    n = len(lines)
    weight = [len(x.strip()) for x in lines]
    total = sum(weight)
    if document:
        share = 1.0 if records else 0.0
        return share, share, ([] if records else ([(1, n)] if total else []))
    if not total:
        return 1.0, 1.0, []
    # a separator line starts (after blanks) with one of its characters: most lines are skipped unstripped
    ok = [x[:1] in _SEPARATOR_START and is_separator_line(x) for x in lines]
    quarantined = [False] * n  # lines of malformed or over-long records: not explained, quarantined alone
    for first, last in non_records:
        a, b = max(first, 1) - 1, min(last, n)
        if a < b:
            ok[a:b] = [True] * (b - a)
    if header:
        first_record = min((r.line for r in records if r.line >= 1), default=n + 1)
        h = _fold(header)
        at = next((i for i in range(min(first_record - 1, n)) if h and h in _fold(lines[i])), None)
        if at is not None:
            ok[at] = True
    for first, last, r in spans(records, n):
        if (r.problem or "").startswith(MALFORMED):
            quarantined[first - 1 : last] = [True] * (last - first + 1)
            continue
        if record_words_over(r.abstract_raw, max_words):  # quarantined alone too_long, never published
            quarantined[first - 1 : last] = [True] * (last - first + 1)
            continue
        if prose_markup is not None and last > first:  # a one-line record is never markup nor glued
            body = lines[first - 1 : last]
            if is_markup(body, prose_markup) or paragraphs_over(body, max_paragraphs):
                continue
        ok[first - 1 : last] = [True] * (last - first + 1)
    explained = sum(w for w, f in zip(weight, ok) if f)
    alone = sum(w for w, f, q in zip(weight, ok, quarantined) if q and not f)
    if explained == total:
        return 1.0, 1.0, []
    return explained / total, (explained + alone) / total, ranges_of(ok, lines)
