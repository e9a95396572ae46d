"""Which paragraphs of a listing are not abstracts, and why (the ``reason`` in ``listing_lineage``).

``quarantine_reason(raw, clean, header=None) -> str | None``: ``None`` for an abstract, else one reason code.
The rules are the table :data:`RULES` (one :class:`QuarantineRule` each: name, reason code, predicate, what
it catches, examples that must and must not get the reason); they are tried in the table's order and the
first that applies gives the reason. :data:`REASONS` lists the codes in that order.

Per record, a control character (NUL, ...) makes that record ``control_character`` in the reader
(pipeline.ingest.readers.base.control_problem), never the whole file. Across listings,
:func:`repeated_notices` quarantines a text repeated verbatim in NOTICE_MIN_COPIES or more records of
NOTICE_MIN_LISTINGS or more listings (or as often within one listing) as ``boilerplate_repeated``.

Sources of the thresholds: MIN_WORDS = 6 is the shortest paragraph the failure-case listings of the tests
require to be published ("Code and checkpoints are released at \\url{...}." has 6 words of two or more
letters). On the dev corpus (bench/corpus_profile.py) the 105 paragraphs it quarantines as too_short are all
fragments: "The", "Discussion of", "Part of", author names ("Volker Tresp"), "We study the framework of".
CJK_CHARS_PER_WORD = 2 is the usual ratio of Chinese characters to English words in parallel text (about 1.5-2
Han characters per English word), so a Chinese abstract needs 12 Han characters (the Chinese failure-case
abstract has 50; a single "栈" is too short). BOILERPLATE_MAX_WORDS = 30 bounds the placeholder rule so that a
real abstract that mentions "withdrawn" or "not available" is never matched (the patterns are anchored to the
whole paragraph as well); the longest placeholder seen in the dev corpus is a 24-word AISTATS "Preface to the
Proceedings of ..." front matter.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import polars as pl

from pipeline.analyse.residue import html_tag
from pipeline.ingest.readers.base import is_separator_line, looks_like_authors
from pipeline.ingest.readers.venues import HEADER_MAX_CHARS, canonical_venue, parse_header

RULES_VERSION = "2"  # bump when outputs change (docs/execution.md)

MIN_WORDS = 6
CJK_CHARS_PER_WORD = 2
BOILERPLATE_MAX_WORDS = 30
#: Above the longest real abstract of the dev corpus (3,133 words, a NeurIPS 2006 paper; the 99.99th
#: percentile is under 600): a longer record is not one abstract. Measured: quarantines 0 of the 58,671 dev
#: abstracts.
MAX_WORDS = 3500
#: A reference is short; a real abstract that cites "Smith et al. (2020)." is long and has no reference shape.
CITATION_MAX_WORDS = 120
#: Each of two glued abstracts has at least this many words (the dev corpus' 1st percentile is about 40).
SEVERAL_MIN_WORDS = 40
#: A title line has at most this many words (the longest title of the dev corpus has 34).
TITLE_MAX_WORDS = 35
#: Share of capitalised content words of a title (Title Case); sentence-case prose has far fewer.
TITLE_CAPITALISED = 0.75
#: A text repeated verbatim this often, across this many listings, is a notice, not a paper (a real paper is
#: re-listed in a few listings at most: its conference list, an oral list, an arXiv feed).
NOTICE_MIN_COPIES = 5
NOTICE_MIN_LISTINGS = 3
#: ...or this many copies inside a single listing (no paper is listed five times in one file).
NOTICE_MIN_COPIES_IN_LISTING = 5

#: Reasons given outside :func:`quarantine_reason`: by the reader for one record, or across listings.
OTHER_REASONS = (
    "control_character",
    "malformed_row",
    "malformed_record",
    "preamble",
    "foreign_markup",
    "no_abstract_marker",
    "boilerplate_repeated",
)

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


class _Texts:
    """One paragraph's texts and the counts the rules share, each computed when a rule first needs it."""

    def __init__(self, raw: str, clean: str, header: str | None) -> None:
        self.raw, self.clean, self.header = raw, clean, header

    @cached_property
    def no_urls(self) -> str:
        """The clean text with its URLs replaced by spaces."""
        return _without_urls(self.clean)

    @cached_property
    def raw_no_urls(self) -> str:
        """The raw text with its URLs replaced by spaces (shared by :attr:`raw_no_math` and the math rule)."""
        return _without_urls(self.raw)

    @cached_property
    def raw_no_math(self) -> str:
        """The raw text without URLs and TeX math spans."""
        text = self.raw_no_urls
        # every TeX math span starts with $ or a backslash: without either the substitution changes nothing
        return _TEX_MATH.sub(" ", text) if "$" in text or "\\" in text else text

    @cached_property
    def n_words(self) -> int:
        """Words of two or more letters outside URLs."""
        return len(_WORD.findall(self.no_urls))

    @cached_property
    def n_cjk(self) -> int:
        """CJK characters (Han, kana) outside URLs."""
        return len(_CJK.findall(self.no_urls))

    @cached_property
    def one_line(self) -> str | None:
        """The raw text on one line when it is one short line (at most TITLE_MAX_WORDS words), else None."""
        if "\n" in self.raw.strip() or self.n_words > TITLE_MAX_WORDS:
            return None
        return " ".join(self.raw.split())


def _url_only(t: _Texts) -> bool:
    no_urls = t.no_urls
    return (
        not _TOKEN.search(no_urls)
        and not _CJK.search(no_urls)
        and no_urls.strip(" \t.,;:()[]<>") == ""
        and bool(_URL.search(t.clean))
    )


def _without_urls(text: str) -> str:
    """``text`` with every :data:`_URL` match replaced by a space. Each match holds ``/`` (``://`` or a path)
    or ``www.``, so a text with neither is returned as it is without running the (slow) pattern."""
    return _URL.sub(" ", text) if "/" in text or "www." in text else text


def _math_only(t: _Texts) -> bool:
    has_math = t.raw_no_math != t.raw_no_urls
    return has_math and not _WORD.search(t.raw_no_math) and not _CJK.search(t.raw_no_math)


def _authors_only(t: _Texts) -> bool:
    return t.one_line is not None and looks_like_authors(t.one_line)


def _title_only(t: _Texts) -> bool:
    return t.one_line is not None and _is_title(t.one_line)


@dataclass(frozen=True)
class QuarantineRule:
    """One rule of :data:`RULES`: paragraphs for which ``applies`` is true get ``reason`` (unless an earlier
    rule of the table applied). ``examples`` are raw paragraphs that must get ``reason``, ``counter_examples``
    raw paragraphs that must not (they pass, or get another reason); tests/analyse/test_quarantine.py runs
    them all through :func:`quarantine_reason` with the published clean text."""

    name: str
    reason: str
    applies: Callable[[_Texts], bool]
    doc: str
    examples: tuple[str, ...]
    counter_examples: tuple[str, ...] = ()


_REAL = (
    "We propose a new optimiser for deep networks that adapts its step size to the curvature of the loss. "
    "On ImageNet it converges twice as fast as Adam and reaches 1.2% higher top-1 accuracy."
)

#: The rules of :func:`quarantine_reason`, in the order they are tried: the first that applies gives the
#: reason. Sources of the thresholds: the module docstring and the comments of the constants above.
RULES: tuple[QuarantineRule, ...] = (
    QuarantineRule(
        "empty",
        "empty",
        lambda t: not t.clean.strip(),
        "the clean text is empty (only whitespace, invisible characters or removed markup)",
        ("", "\u200b\u00a0", "<br/>"),
    ),
    QuarantineRule(
        "header_repeated",
        "header_repeated",
        lambda t: _is_header(t.raw, t.header),
        "a one-line paragraph that is a listing header: equal to this listing's ``header``, or a header line "
        "(pipeline.ingest.readers.venues.parse_header) naming a known venue (concatenated listings)",
        ("ICML 2026 论文列表", "NeurIPS 2025 Accepted Papers"),
        ("FOOCONF 2025 Papers",),  # an unknown venue, and no listing header given
    ),
    QuarantineRule(
        "url_only",
        "url_only",
        _url_only,
        "nothing but URLs (and punctuation) once URLs are removed",
        ("https://github.com/example-org/repo", "\\url{https://example.org/x}."),
        ("Code and checkpoints are released at \\url{https://github.com/example-org/fast-attn}.",),
    ),
    QuarantineRule(
        "math_only",
        "math_only",
        _math_only,
        "nothing but TeX math / formulas: no word of two or more letters outside ``$..$``, ``$$..$$``, "
        "``\\(..\\)``, ``\\[..\\]``",
        ("$$ 2^{10} = 1024, \\; 10^{-3} $$", "$\\alpha + \\beta$"),
    ),
    QuarantineRule(
        "url_with_symbols",
        "url_only",
        lambda t: t.n_words == 0 and t.n_cjk == 0 and bool(_URL.search(t.clean)),
        "no word of two or more letters and no CJK character, and a URL: a URL with stray symbols or digits",
        ("https://github.com/example-org/repo 1 2 3 ~",),
    ),
    QuarantineRule(
        "no_words",
        "no_words",
        lambda t: t.n_words == 0 and t.n_cjk == 0,
        "no word of two or more letters and no CJK character: symbols, digits, stray letters",
        ("∑ ∫ ≈ ≤ ≥ — …", "-", "12.5 %"),
    ),
    QuarantineRule(
        "boilerplate",
        "boilerplate",
        lambda t: t.n_words <= BOILERPLATE_MAX_WORDS and bool(_BOILERPLATE.match(t.clean)),
        'a placeholder instead of an abstract ("Abstract unavailable", "No abstract available", "Paper '
        'was withdrawn", "TBA", "Placeholder", "Part of Advances in Neural Information ...", a '
        'proceedings "Preface to ..." front matter) of at most BOILERPLATE_MAX_WORDS words',
        (
            "Abstract unavailable",
            "No abstract available.",
            "Paper was withdrawn.",
            "withdrawn",
            "Placeholder",
            "TBA",
            "Preface to COLT 2016",
            "Preface to the Proceedings of the 24th Annual Conference on Learning Theory June 9-11, 2011, "
            "Budapest.",
            "Part of Advances in Neural Information Processing Systems 30 (NIPS 2017)",
        ),
        (
            "The abstract is not available for in-the-wild videos, so we estimate camera rotation from a "
            "single image.",
            "Withdrawn papers are common in peer review; we study why authors withdraw and what happens "
            "next.",
        ),
    ),
    QuarantineRule(
        "too_short",
        "too_short",
        lambda t: t.n_words + t.n_cjk / CJK_CHARS_PER_WORD < MIN_WORDS,
        "less evidence than MIN_WORDS words, where (script-aware) every CJK character (Han, kana) counts as "
        "1/CJK_CHARS_PER_WORD of a word; Hangul is written with spaces, so its words count as words",
        ("栈", "We study the framework of", "Ke Yang", "深度学习模型", "FOOCONF 2025 Papers"),
        (
            "Code and checkpoints are released at \\url{https://github.com/example-org/fast-attn}.",
            "我们提出一种新的稀疏注意力方法，在长文本基准上将推理速度提高了1.41倍，同时保持准确率基本不变。",
        ),
    ),
    QuarantineRule(
        "too_long",
        "too_long",
        lambda t: len(t.clean.split()) > MAX_WORDS,
        "more than MAX_WORDS words: not one abstract (a whole file or section glued together)",
        (" ".join([_REAL] * 120),),
    ),
    QuarantineRule(
        "citation",
        "citation",
        lambda t: t.n_words <= CITATION_MAX_WORDS and _is_citation(t.raw),
        "a reference instead of an abstract: a BibTeX entry (``@inproceedings{key,`` with "
        "``field = {...}``), EndNote/RIS tagged lines (``%A``/``%T``, ``TY  -``/``AU  -``), or an "
        "APA/Harvard reference (``Name, A. B., & Name, C. (2020). Title. Venue, 12(3), 45-67.``) of at most "
        "CITATION_MAX_WORDS words",
        (
            "@inproceedings{snell2017,\n  title={Prototypical Networks for Few-shot Learning},\n"
            "  author={Snell, Jake}\n}",
            "Snell, J., Swersky, K., & Zemel, R. (2017). Prototypical networks for few-shot learning. "
            "Advances in Neural Information Processing Systems, 30, 4077-4087.",
            "%A Jake Snell\n%T Prototypical Networks for Few-shot Learning\n%D 2017\n%J NeurIPS",
            "TY  - CONF\nAU  - Snell, Jake\nTI  - Prototypical Networks for Few-shot Learning\nPY  - 2017",
        ),
        ("In this work we follow the framework by Salimans et al. (2017). " + _REAL,),
    ),
    QuarantineRule(
        "markup",
        "markup",
        lambda t: _is_markup(t.raw),
        "a markdown/HTML fragment: HTML layout tags (not inline ``<i>``/``<sup>``, not paragraph breaks "
        "``<p>``/``<br>``; a tag is a known name with valid tag syntax, so ``<table,description>`` and "
        "``a<b`` are prose), markdown headings (``### ``), table rows (``| a | b |``) or ``**Label:**`` "
        "fields left in the text",
        (
            "### Prototypical Networks for Few-shot Learning\n\n**Authors:** Jake Snell, Kevin Swersky",
            "<details><summary>Abstract</summary> " + _REAL + " </details>",
            '<div class="abstract">' + _REAL + "</div>",
        ),
        (
            "A state-of-the-art Macaw model answers <i>Yes</i> to <i>Is a sparrow a bird?</i> and " + _REAL,
            "We generate a caption for each <table,description> pair and show that a<b and c>d. " + _REAL,
            _REAL + "  <p>" + _REAL,
        ),
    ),
    QuarantineRule(
        "several_abstracts",
        "several_abstracts",
        lambda t: _several_abstracts(t.raw),
        "more than one record in one: two or more ``Abstract:`` labels, a record separator line (``*****``) "
        "inside, or a title line (or a title and an author line) between two abstract-sized runs of text "
        "(each at least SEVERAL_MIN_WORDS words)",
        (
            "Abstract: " + _REAL + "\nAbstract: " + _REAL,
            _REAL + "\n" + "*" * 36 + "\n" + _REAL,
            _REAL
            + " "
            + _REAL
            + "\nDeep Residual Learning for Image Recognition\nKaiming He, Xiangyu Zhang, Jian Sun\n"
            + _REAL
            + " "
            + _REAL,
        ),
        (_REAL + "\n" + _REAL,),
    ),
    QuarantineRule(
        "authors_only",
        "authors_only",
        _authors_only,
        "one short line (at most TITLE_MAX_WORDS words) that is a list of person names "
        "(pipeline.ingest.readers.base.looks_like_authors)",
        ("Jake Snell, Kevin Swersky, Richard Zemel, Hugo Larochelle and Richard S. Zemel",),
    ),
    QuarantineRule(
        "title_only",
        "title_only",
        _title_only,
        "one line of at most TITLE_MAX_WORDS words, no sentence punctuation, not starting like prose, "
        "TITLE_CAPITALISED of its content words capitalised (a title without its abstract)",
        ("Prototypical Networks for Few-Shot Learning in the Wild and Beyond",),
        (
            "We proposed a model of Time Warping Invariant Neural Networks (TWINN) that is invariant to time "
            "warping",
        ),
    ),
)

#: Reason codes of :data:`RULES`, each once, in the order the rules run (for the lineage table's documentation
#: and tests).
REASONS = tuple(dict.fromkeys(rule.reason for rule in RULES))


def quarantine_reason(raw: str, clean: str, header: str | None = None) -> str | None:
    """Return why a paragraph is not an abstract (a code of :data:`REASONS`), or ``None`` for an abstract.

    Args:
        raw: ``abstract_raw`` (decoded paragraph, lines joined by ``\\n``), used for the header and math
            rules.
        clean: the published clean text of ``raw`` (``pipeline.analyse.cleaning.clean_text``).
        header: the listing's header line (``Listing.header``) or ``None``. Optional: without it, a repeated
            header is still caught when it names a known venue.

    Never raises. The rules of :data:`RULES` are tried in order; the first that applies gives the reason.
    """
    texts = _Texts(raw or "", clean or "", header)
    for rule in RULES:
        if rule.applies(texts):
            return rule.reason
    return None


_BIBTEX = re.compile(r"^\s*@[A-Za-z]+\s*[{(]\s*[^,\s]*\s*,\s*\w+\s*=\s*[{\"\d]", re.DOTALL)
_TAGGED = re.compile(r"^\s*(?:%[A-Z0-9] \S|[A-Z][A-Z0-9]  - \S)", re.MULTILINE)
_APA = re.compile(r"^[A-Z][\w'’\-]+,\s+(?:[A-Z]\.\s?)+.{0,300}?\((?:19|20)\d\d[a-z]?\)\.\s+\S", re.DOTALL)
_MD_STRUCT = re.compile(
    r"^\s*(?:#{1,6}\s+\S|\|.*\|\s*$|(?:\*\*|__)[A-Z][\w ]{0,30}:(?:\*\*|__))", re.MULTILINE
)
_ABSTRACT_LABEL = re.compile(r"^\s*(?:\*\*)?abstract(?:\*\*)?\s*[.:—–\-]", re.IGNORECASE | re.MULTILINE)
#: Layout tags of a page; inline formatting (``<i>``, ``<sup>``, ``<b>``) and paragraph or line breaks
#: (``<p>``, ``<br>``: 3 of the 100 abstracts of a real Mini-Conf CSV, SIGDIAL/INLG 2023, break paragraphs
#: with ``<p>``) occur in real abstracts and are only removed from ``abstract`` (pipeline.analyse.cleaning,
#: pipeline.analyse.residue.strip_residue). Recognised by name and valid tag syntax only
#: (pipeline.analyse.residue.html_tag): ``<table,description>`` is prose.
_LAYOUT_TAG = html_tag("details|summary|div|table|tr|td|th|ul|ol|li|img|h[1-6]|hr")
#: Words that start sentences of an abstract, not titles (``We show that a Data Augmentation GAN ...``).
_SENTENCE_STARTS = {
    "we",
    "our",
    "this",
    "these",
    "here",
    "it",
    "its",
    "they",
    "in",
    "however",
    "moreover",
    "thus",
    "finally",
    "furthermore",
    "specifically",
    "experiments",
    "results",
    "then",
    "to",
    "using",
}
_SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "from",
    "in",
    "into",
    "of",
    "on",
    "or",
    "the",
    "to",
    "via",
    "with",
    "without",
    "vs",
    "vs.",
    "is",
    "are",
    "do",
    "can",
    "be",
    "its",
    "over",
    "under",
    "towards",
}


def _is_citation(raw: str) -> bool:
    """A BibTeX entry, EndNote/RIS tagged lines (two or more), or an APA/Harvard reference."""
    return bool(_BIBTEX.match(raw) or len(_TAGGED.findall(raw)) >= 2 or _APA.match(raw.strip()))


def _is_markup(raw: str) -> bool:
    """HTML layout tags, or markdown structure (headings, table rows, ``**Label:**``) at a line start."""
    return bool(_LAYOUT_TAG.search(raw) or _MD_STRUCT.search(raw))


def _several_abstracts(raw: str) -> bool:
    """Two or more ``Abstract:`` labels, a separator line inside, or a title line (optionally followed by an
    author line) between two runs of at least SEVERAL_MIN_WORDS words, the first ending a sentence."""
    if len(_ABSTRACT_LABEL.findall(raw)) >= 2:
        return True
    lines = [x.strip() for x in raw.split("\n")]
    if len(lines) < 3:
        return False
    if any(is_separator_line(x) for x in lines[1:-1]):
        return True
    words_before = 0
    counts = [len(x.split()) for x in lines]
    total = sum(counts)
    for i in range(1, len(lines) - 1):
        words_before += counts[i - 1]
        line = lines[i]
        if not line or not lines[i - 1].endswith((".", "!", "?")) or words_before < SEVERAL_MIN_WORDS:
            continue
        after = i + 1 + (i + 1 < len(lines) and looks_like_authors(lines[i + 1]))
        words_after = total - words_before - counts[i] - (counts[i + 1] if after == i + 2 else 0)
        if words_after >= SEVERAL_MIN_WORDS and (
            _is_title(line) or after == i + 2 and not line.endswith(".")
        ):
            return True
    return False


def _is_title(line: str) -> bool:
    """One line that reads as a title: no sentence end (``.``, ``!``, ``;`` or ``. `` inside), at most
    TITLE_MAX_WORDS words, not starting like a sentence of prose (``We``, ``This``, ...), and at least
    TITLE_CAPITALISED of its words that are not small words capitalised."""
    s = line.strip()
    if not s or s.endswith((".", ";", ",")) or ". " in s or len(s.split()) > TITLE_MAX_WORDS:
        return False
    words = [w.strip("()[]\"'“”‘’:,-") for w in s.split()]
    if words[0].lower() in _SENTENCE_STARTS:
        return False
    content = [w for w in words if w and w.lower() not in _SMALL_WORDS and w[:1].isalpha()]
    if len(content) < 2:
        return False
    return sum(w[:1].isupper() for w in content) >= TITLE_CAPITALISED * len(content)


def repeated_notices(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` (abstract rows: ``listing``, ``content_hash``, ``quarantine_reason``) with
    ``quarantine_reason`` set to ``boilerplate_repeated`` on every publishable row whose text (content_hash)
    occurs in at least NOTICE_MIN_COPIES publishable rows of at least NOTICE_MIN_LISTINGS listings, or
    NOTICE_MIN_COPIES_IN_LISTING
    times in one listing: a proceedings-site notice repeated verbatim, not a paper. Pure polars."""
    ok = pl.col("quarantine_reason").is_null()
    per_text = pl.len().over("content_hash")
    listings = pl.col("listing").n_unique().over("content_hash")
    in_one = pl.len().over("content_hash", "listing")
    pub = rows.filter(ok)
    if pub.height == 0:
        return rows
    bad = (
        pub.select("content_hash", per_text.alias("n"), listings.alias("k"), in_one.alias("m"))
        .filter(
            ((pl.col("n") >= NOTICE_MIN_COPIES) & (pl.col("k") >= NOTICE_MIN_LISTINGS))
            | (pl.col("m") >= NOTICE_MIN_COPIES_IN_LISTING)
        )["content_hash"]
        .unique()
    )
    if bad.len() == 0:
        return rows
    return rows.with_columns(
        quarantine_reason=pl.when(ok & pl.col("content_hash").is_in(bad.implode()))
        .then(pl.lit("boilerplate_repeated"))
        .otherwise(pl.col("quarantine_reason"))
    )


def _is_header(raw: str, header: str | None) -> bool:
    line = raw.strip()
    if "\n" in line or len(line) > HEADER_MAX_CHARS:
        return False
    if header is not None and " ".join(line.split()) == " ".join(header.split()):
        return True
    parsed = parse_header(line)
    return parsed is not None and canonical_venue(parsed[0]) is not None
