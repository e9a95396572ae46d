"""Sentence and clause helpers shared by the extractors (pure functions, str in, offsets out)."""

from __future__ import annotations

import re

# Abbreviations that end in "." without ending a sentence (common in ML abstracts).
_ABBREV = re.compile(
    r"(?:\b(?:vs|e\.g|i\.e|et al|cf|Fig|Figs|Eq|Eqs|Sec|Tab|approx|resp|No|Ref|etc|w\.r\.t|incl|avg|Inc|Corp|"
    r"Dr|Mr|Ms|Prof|St|al)|(?<![\w-])[A-Z])\.$"
)
# A sentence ends at . ! ? followed by space(s) and an upper-case letter, digit, bracket or quote, or
# directly by an upper-case letter followed by a lower-case one ("science.Recently", seen in real abstracts).
_END = re.compile(r"[.!?](?:\s+(?=[A-Z0-9(\[\"“'])|(?<=[a-z)][.!?])(?=[A-Z][a-z]))")


def sentences(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentences; returns ``(start, end)`` offsets into ``text`` covering all of it.

    Rules: an end mark ``.!?`` followed by white space and an upper-case letter/digit/bracket/quote, or
    glued to a capitalised word; not after a known abbreviation (``vs.``, ``e.g.``, ``et al.``, …) or a single
    capital initial. Never raises; an empty text gives ``[]``.
    """
    spans = []
    start = 0
    for m in _END.finditer(text):
        end = m.start() + 1
        if _ABBREV.search(text[max(start, end - 8) : end]):
            continue
        spans.append((start, end))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def sentence_of(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` that contains ``text[start:end]`` (rows are recoverable from their offsets)."""
    for a, b in sentences(text):
        if a <= start < b or (a < end <= b):
            return text[a:b]
    return text
