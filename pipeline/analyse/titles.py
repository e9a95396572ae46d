"""Titles and author names as clean text: the abstract's cleaning steps, plus what only short fields need.

A reader gives a title or name as its file writes it (BibTeX ``Schr\\"odinger``, ``{B}ayesian``,
``Cl{\\'{e}}ment``; HTML entities; markdown ``**bold**`` or a ``[title](url)`` link; a scraped list's ``[97]``
or ``12.``). The published ``title`` and ``authors`` are cleaned here, once, with the same steps as the
abstract (:func:`pipeline.analyse.cleaning.clean_abstract`: Unicode repair, HTML, LaTeX to Unicode, markdown,
whitespace), then:

- every unescaped brace is removed (in a title or a name a brace is always BibTeX grouping or case
  protection: ``{B}ayesian``, ``{$\\epsilon$}-nets``, ``{BERT}``), and ``\\{``/``\\}`` become ``{``/``}``;
- a title's markdown link keeps only its text (``[Deep Sets](https://...)`` → ``Deep Sets``);
- a title's leading list number is removed: ``[97] Title``, ``97. Title``, ``(97) Title``, ``#97 Title``
  (a number then ``.``/``)`` and a space: ``2.5D Vision`` and ``3D Shapes`` are kept).

Pure functions; ``str -> str``, never raise on ``str``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pipeline.analyse.cleaning import clean_abstract

#: What a cleaning step may change in ASCII text (markup characters, a space before punctuation or after an
#: opening bracket, a whitespace run or a non-space whitespace character, outer whitespace, a leading
#: number, a split ``- ``); an ASCII title with none of them is returned as it is (most titles: the
#: cleaning steps cost about 0.7 ms a title).
_MAY_NEED = re.compile(r"[\\{}&<>*_`\[\]$~#%]|\s[,.;:!?)\]%]|[(\[]\s|\s\s|[^\S ]|^\s|\s$|^\(?\d|- |\(cid:")
_UNESCAPED_BRACE = re.compile(r"(?<!\\)[{}]")
_ESCAPED_BRACE = re.compile(r"\\([{}])")
_MD_LINK = re.compile(r"\[([^\[\]]+)\]\([^()\s]+\)")
#: ``[97] ``, ``97. ``, ``97) ``, ``(97) ``, ``#97 ``, ``No. 97 `` at the start of a title.
_LIST_NUMBER = re.compile(r"^(?:\[\d{1,5}\]|\(\d{1,5}\)|#\d{1,5}|\d{1,5}[.)])\s+(?=\S)")


def _braces(text: str) -> str:
    return _ESCAPED_BRACE.sub(r"\1", _UNESCAPED_BRACE.sub("", text))


@lru_cache(maxsize=65536)
def clean_title(raw: str | None) -> str | None:
    """The published title of a record's ``title`` (module docstring); ``None`` for ``None`` or a title that
    cleans to nothing."""
    if raw is None:
        return None
    if raw.isascii() and not _MAY_NEED.search(raw):
        return raw or None
    text = _MD_LINK.sub(r"\1", raw)
    text = _braces(clean_abstract(text))
    text = " ".join(text.split())
    text = _LIST_NUMBER.sub("", text)
    return text or None


@lru_cache(maxsize=65536)
def clean_name(raw: str) -> str:
    """One author name as clean text (``Cl{\\'{e}}ment L Canonne`` → ``Clément L Canonne``): the cleaning
    steps and the braces rule of the module docstring."""
    if raw.isascii() and not _MAY_NEED.search(raw):
        return raw
    return " ".join(_braces(clean_abstract(raw)).split())


def clean_authors(names: list[str] | None) -> list[str] | None:
    """Each name of an ``authors`` list cleaned (:func:`clean_name`); names that clean to nothing dropped;
    ``None`` for ``None`` or when none is left."""
    if names is None:
        return None
    out = [c for c in (clean_name(n) for n in names if n) if c]
    return out or None
