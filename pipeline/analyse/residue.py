"""Text patterns shared by the readers, the quarantine rules and the abstract's final form.

:func:`strip_residue` is the last step of the clean ``abstract``: markup residue that a listing's layout
leaves (``</details>``, ``<summary>Abstract</summary>``, heading marks ``###``, e-mail addresses of the
authors) never reaches ``abstract``; ``abstract_raw`` keeps the text as the file had it.
"""

from __future__ import annotations

import re

RULES_VERSION = "1"  # bump when outputs change (docs/execution.md)

#: An e-mail address (the domain starts with a letter: ``NDCG@10.Furthermore`` is not one).
EMAIL = re.compile(
    r"(?<![\w.+\-])[\w.+\-]+@[A-Za-z][\w\-]*(?:\.[\w\-]+)*\.[A-Za-z]{2,}\b"
    r"|\{[\w.,\s\-]+\}@[A-Za-z][\w\-]*(?:\.[\w\-]+)*\.[A-Za-z]{2,}\b"
)
#: HTML layout tags of listing pages (never part of an abstract's prose).
HTML_TAG = re.compile(
    r"</?(?:details|summary|div|span|br|p|b|i|em|strong|hr|sup|sub|font|center|small|table|tr|"
    r"td|th|ul|ol|li|a|img|h[1-6])\b[^<>]{0,200}>",
    re.IGNORECASE,
)
#: Markdown heading marks and emphasis-only lines at a line start.
HEADING_MARK = re.compile(r"(?:^|(?<=\s))#{2,6}(?=\s)")


def strip_residue(clean: str) -> str:
    """``clean`` without e-mail addresses, HTML layout tags and markdown heading marks (whitespace
    re-collapsed where something was removed). Text without any of them is returned unchanged."""
    if "@" not in clean and "<" not in clean and "#" not in clean:
        return clean
    out = HTML_TAG.sub(" ", EMAIL.sub(" ", clean))
    out = HEADING_MARK.sub(" ", out)
    if out == clean:
        return clean
    return re.sub(r"\s+([,.;:)])", r"\1", " ".join(out.split()))
