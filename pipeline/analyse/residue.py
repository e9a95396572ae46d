"""Text patterns shared by the readers, the quarantine rules and the abstract's final form.

:func:`strip_residue` is the last step of the clean ``abstract``: markup residue that a listing's layout
leaves (``</details>``, ``<summary>Abstract</summary>``, heading marks ``###``, e-mail addresses of the
authors) never reaches ``abstract``; ``abstract_raw`` keeps the text as the file had it.
"""

from __future__ import annotations

import re

RULES_VERSION = "2"  # bump when outputs change (docs/execution.md)

#: An e-mail address (the domain starts with a letter: ``NDCG@10.Furthermore`` is not one).
EMAIL = re.compile(
    r"(?<![\w.+\-])[\w.+\-]+@[A-Za-z][\w\-]*(?:\.[\w\-]+)*\.[A-Za-z]{2,}\b"
    r"|\{[\w.,\s\-]+\}@[A-Za-z][\w\-]*(?:\.[\w\-]+)*\.[A-Za-z]{2,}\b"
)
#: What may follow a tag's name up to its ``>`` (HTML syntax, WHATWG "Start tags"): attributes ``name``,
#: ``name=value``, ``name="v"`` or ``name='v'`` after whitespace, then optional whitespace and ``/``. A tag is
#: recognised only by a known name followed by this, so angle brackets in prose are not HTML:
#: ``<table,description>`` pairs, ``a<b``, ``<p, q>`` (an abstract quoting ``<table,description>`` was
#: quarantined as markup, and its pairs removed from the text, before this rule).
TAG_REST = (
    r"""(?:\s+[A-Za-z_:][\w:.-]*(?:\s*=\s*(?:"[^"<>]{0,200}"|'[^'<>]{0,200}'|[^\s"'<>=`]{1,200}))?){0,20}"""
    r"\s*/?>"
)


def html_tag(names: str) -> re.Pattern:
    """A pattern of an opening or closing HTML tag whose name is one of ``names`` (a regex alternation such
    as ``"div|p|h[1-6]"``) with valid syntax (:data:`TAG_REST`), case-insensitive."""
    return re.compile(rf"</?(?:{names}){TAG_REST}", re.IGNORECASE)


#: HTML layout tags of listing pages (never part of an abstract's prose).
HTML_TAG = html_tag(
    "details|summary|div|span|br|p|b|i|em|strong|hr|sup|sub|font|center|small|table|tr|td|th|ul|ol|li|a|img|"
    "h[1-6]"
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
