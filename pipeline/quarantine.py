"""Which paragraphs of a listing are not abstracts, and why (the ``reason`` in ``listing_lineage``).

``quarantine_reason(raw, clean, header=None) -> str | None``: ``None`` for an abstract, else one reason code.
Rules are tried in this order; the first that applies gives the reason:

==================  ==========================================================================================
``empty``           the clean text is empty (only whitespace, invisible characters or removed markup)
``header_repeated`` a one-line paragraph that is a listing header: equal to this listing's ``header``, or a
                    header line (``parsing.parse_header``) naming a known venue (concatenated listings)
``url_only``        nothing but URLs (and punctuation) once URLs are removed (case09)
``math_only``       nothing but TeX math / formulas: no word of two or more letters outside ``$..$``,
                    ``$$..$$``, ``\\(..\\)``, ``\\[..\\]`` (case09)
``no_words``        no word of two or more letters and no CJK character: symbols, digits, stray letters (case09)
``boilerplate``     a placeholder instead of an abstract ("Abstract unavailable", "No abstract available",
                    "Paper was withdrawn", "TBA", "Placeholder", "Part of Advances in Neural Information ...", a
                    proceedings "Preface to ..." front matter) of at most
                    BOILERPLATE_MAX_WORDS words
``too_short``       less evidence than MIN_WORDS words, where (script-aware, case10) every CJK character
                    (Han, kana) counts as 1/CJK_CHARS_PER_WORD of a word; Hangul is written with spaces, so its
                    words count as words
==================  ==========================================================================================

Sources of the thresholds: MIN_WORDS = 6 is the shortest paragraph the failure cases require to be published
(case11: "Code and checkpoints are released at \\url{...}." has 6 words of two or more letters). On the dev corpus
(bench/corpus_profile.py) the 105 paragraphs it quarantines as too_short are all fragments: "The",
"Discussion of", "Part of", author names ("Volker Tresp"), "We study the framework of". CJK_CHARS_PER_WORD = 2 is the usual ratio of
Chinese characters to English words in parallel text (about 1.5-2 Han characters per English word), so a
Chinese abstract needs 12 Han characters (case10's has 50; case09's single "栈" is too short).
BOILERPLATE_MAX_WORDS = 30 bounds the placeholder rule so that a real abstract that mentions "withdrawn" or
"not available" is never matched (the patterns are anchored to the whole paragraph as well); the longest
placeholder seen in the dev corpus is a 24-word AISTATS "Preface to the Proceedings of ..." front matter.
"""

from __future__ import annotations

import re

from pipeline.readers.venues import HEADER_MAX_CHARS, canonical_venue, parse_header

MIN_WORDS = 6
CJK_CHARS_PER_WORD = 2
BOILERPLATE_MAX_WORDS = 30

#: Reason codes, in the order the rules run (for the lineage table's documentation and tests).
REASONS = ("empty", "header_repeated", "url_only", "math_only", "no_words", "boilerplate", "too_short")

_URL = re.compile(r"(?:\b(?:https?|ftp)://|\bwww\.)\S+|\b[\w-]+(?:\.[\w-]+)+/\S*")
_TEX_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_TOKEN = re.compile(r"[^\W_]*[^\W\d_][^\W_]*")  # a word: letters, maybe with digits (GSM8K, 3D)
_BOILERPLATE = re.compile(
    r"^\W*(?:"
    r"(?:the\s+)?abstract(?:\s+is)?\s+(?:not\s+)?(?:un)?available(?:\s+(?:yet|here|at\s+this\s+time))?"
    r"|no\s+abstract(?:\s+(?:is\s+)?(?:available|provided|given))?"
    r"|abstract\s+(?:missing|not\s+provided|to\s+come|coming\s+soon|forthcoming|withheld|removed)"
    r"|(?:(?:this\s+|the\s+)?(?:paper|submission)\s+(?:was\s+|has\s+been\s+|is\s+)?)?withdrawn?"
    r"(?:\s+by\s+(?:the\s+)?authors?)?"
    r"|preface\s+(?:to|for|of)\b.*"
    r"|abstract|placeholder|tba|tbd|to\s+be\s+(?:announced|determined|added)|coming\s+soon|n/?a|none|null"
    r"|lorem\s+ipsum.*"
    r"|part\s+of\s+advances\s+in\s+neural\s+information\s+processing\s+systems.*"
    r")\W*$",
    re.IGNORECASE | re.DOTALL,
)


def quarantine_reason(raw: str, clean: str, header: str | None = None) -> str | None:
    """Return why a paragraph is not an abstract (a code of :data:`REASONS`), or ``None`` for an abstract.

    Args:
        raw: ``abstract_raw`` (decoded paragraph, lines joined by ``\\n``), used for the header and math rules.
        clean: ``cleaning.clean_abstract(raw)``.
        header: the listing's header line (``Listing.header``) or ``None``. Optional: without it, a repeated
            header is still caught when it names a known venue.

    Never raises. The rules, their order and the sources of the thresholds are in the module docstring.
    """
    clean = clean or ""
    raw = raw or ""
    if not clean.strip():
        return "empty"
    if _is_header(raw, header):
        return "header_repeated"
    no_urls = _URL.sub(" ", clean)
    if not _TOKEN.search(no_urls) and not _CJK.search(no_urls):
        if no_urls.strip(" \t.,;:()[]<>") == "" and _URL.search(clean):
            return "url_only"
    raw_no_math = _TEX_MATH.sub(" ", _URL.sub(" ", raw))
    has_math = raw_no_math != _URL.sub(" ", raw)
    n_words = len(_WORD.findall(no_urls))
    n_cjk = len(_CJK.findall(no_urls))
    if has_math and not _WORD.search(raw_no_math) and not _CJK.search(raw_no_math):
        return "math_only"
    if n_words == 0 and n_cjk == 0:
        return "url_only" if _URL.search(clean) else "no_words"
    if n_words <= BOILERPLATE_MAX_WORDS and _BOILERPLATE.match(clean):
        return "boilerplate"
    if n_words + n_cjk / CJK_CHARS_PER_WORD < MIN_WORDS:
        return "too_short"
    return None


def _is_header(raw: str, header: str | None) -> bool:
    line = raw.strip()
    if "\n" in line or len(line) > HEADER_MAX_CHARS:
        return False
    if header is not None and " ".join(line.split()) == " ".join(header.split()):
        return True
    parsed = parse_header(line)
    return parsed is not None and canonical_venue(parsed[0]) is not None
