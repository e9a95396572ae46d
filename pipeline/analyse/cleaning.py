"""Raw abstract -> clean text (docs/design.md, "Cleaning").

``clean_abstract(raw)`` is the one entry point. ``abstract_raw`` is never changed; this module derives the
``abstract`` column from it. The rules, in the order they run (each is idempotent, and the whole is checked
to be idempotent by ``tests/analyse/test_properties.py``):

1. **Unicode repair** with ftfy (a well-kept library, not hand-rolled): mojibake such as ``â€™``/``Ã—`` is
   re-decoded, Latin ligatures (``ﬁ``) and full-width ASCII (``ＡＢＣ１２３``) are folded, NFC (never NFKC:
   NFKC turns ``n²`` into ``n2`` and ``𝒪`` into ``O``).
2. **HTML**: entities are unescaped (``&amp;``, ``&#37;``, repeatedly, so double-escaped text is fixed in one
   pass); inline tags of a known list are removed (``<i>``, ``<sub>``, ``<br/>``, ...; attributes must look
   like ``name="value"`` so inner products such as ``<a, b>`` are kept); ``<a href="u">t</a>`` becomes ``t
   (u)``.
3. **PDF artefacts**: ``(cid:173)`` is a soft hyphen (measured: 4,528 of the 4,700 ``(cid:N)`` in the dev
   corpus), so it and the space after it are removed (``conjunc(cid:173) tion`` -> ``conjunction``); other
   ``(cid:N)`` glyph ids carry no text and are removed. Invisible characters (Unicode categories Cc/Cf:
               zero-width space/joiners,
   BOM, soft hyphen, bidi marks) are removed; every Unicode space (NBSP, ideographic space, ...) and line
   break becomes one ASCII space.
4. **LaTeX** to readable Unicode: URLs are protected first; ``\\url{u}`` -> ``u``; ``\\href{u}{t}`` -> ``t
   (u)`` ; a bare ``%`` is a percent sign, never a comment; ``\\%``, ``\\&``, ``\\_``, ``\\#``, ``\\$``
   unescaped; math (``$..$``, ``$$..$$``, ``\\(..\\)``, ``\\[..\\]``) and text macros (``\\textbf{X}``,
   ``\\'e``, ``\\times``) are converted by pylatexenc on those spans only (a span at a time is much cheaper
   than converting a whole abstract); ``\\cite{..}`` is dropped; a ``~`` between a word and the next word is
   a LaTeX tie and becomes a space (``Fig.~3``), a ``~`` after a space or bracket means "about" and is kept
   (``(~2× fewer``). ``−`` (U+2212) becomes ASCII ``-`` so that ``-0.38`` is searchable.
5. **Markdown**: ``**X**``, ``__X__``, ``*X*``, ```X``` -> ``X``; ``[t](u)`` -> ``t (u)``.
6. **Line-break hyphenation** ("hy- phen", ``hy-\\nphen``): joined when the right part is lower-case, is not a
   function word (``and``, ``or``, ``to``, ``the`` ...: "pre- and post-training") and the left part is not a
   common compounding word (``self``, ``zero``, ``well`` ...), in which case the hyphen is kept ("zero-shot").
   Source: the 2,148 dev-corpus abstracts with ``x- y`` (``con- vergence``, ``segmen- tation``, ``zero-
   shot``).
7. **Whitespace** collapsed to single spaces, no space before ``,.;:!?)`` or between a digit and ``%`` (so
   ``54 %`` and ``54%`` clean to the same text), stripped.

Cost per abstract is measured by ``bench/corpus_profile.py`` and ``make bench`` (README "Speed and memory").
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

import ftfy

from pipeline.ingest.readers.decoding import invisible_patterns

RULES_VERSION = "2"  # bump when outputs change (docs/execution.md)

# ---------------------------------------------------------------- Unicode repair (ftfy)
#: ftfy settings: HTML is handled below (so that tags and entities follow one rule); curly quotes are kept
#: (they are text, not damage); line breaks are collapsed by rule 7; NFC, never NFKC (docs/design.md,
#: "Cleaning").
_FTFY = ftfy.TextFixerConfig(
    unescape_html=False,
    uncurl_quotes=False,
    fix_line_breaks=False,
    fix_latin_ligatures=True,
    fix_character_width=True,
    normalization="NFC",
    explain=False,
)

# ---------------------------------------------------------------- HTML
#: Inline HTML tags seen in abstracts from web listings (OpenReview, proceedings pages, MathML fragments).
_TAG_NAMES = (
    "a|abbr|b|big|blockquote|br|cite|code|del|div|em|font|h[1-6]|hr|i|ins|kbd|li|mark|ol|p|pre|q|s|small|span|"
    "strike|strong|sub|sup|tt|u|ul|var|wbr|math|mi|mn|mo|mrow|msub|msup|msubsup|mfrac|msqrt|mtext|semantics|"
    "annotation|jats:[a-z-]+"
)
_ATTR = r"""\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'<>]+)"""
_TAG = re.compile(rf"</?(?:{_TAG_NAMES})(?:{_ATTR})*\s*/?>", re.IGNORECASE)
_ANCHOR = re.compile(
    r"""<a\s+(?:[^<>]*?\s)?href\s*=\s*["']?([^"'<>\s]+)["']?[^<>]*>(.*?)</a\s*>""", re.IGNORECASE | re.DOTALL
)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")

# ---------------------------------------------------------------- PDF artefacts and invisible characters
_CID_SOFT_HYPHEN = re.compile(r"\(cid:173\)\s*")
_CID = re.compile(r"\(cid:\d+\)")
_MINUS = str.maketrans({"\u2212": "-"})

# ---------------------------------------------------------------- URLs (protected from LaTeX/markdown rules)
_URL = re.compile(r"(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>\"{}\\^`|]+")
_PLACEHOLDER = "\ue000{}\ue001"  # private-use brackets; removed from input first, so they cannot collide
_PLACEHOLDER_RE = re.compile("\ue000(\\d+)\ue001")

# ---------------------------------------------------------------- LaTeX
_BRACED = r"\{((?:[^{}]|\{[^{}]*\})*)\}"  # one level of nested braces
_URL_CMD = re.compile(r"\\url\s*" + _BRACED)
_HREF_CMD = re.compile(r"\\href\s*" + _BRACED + r"\s*" + _BRACED)
_CITE = re.compile(r"~?\\(?:cite[a-z]*|ref|eqref|label|footnote)\s*(?:\[[^\]]*\])?" + _BRACED)
_ESCAPES = re.compile(r"\\([%&_#$])")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
#: A text-mode macro with optional braced arguments, or an accent such as \'e or \"{o}.
_MACRO = re.compile(
    r"\\(?:[A-Za-z]+\*?(?:\s*" + _BRACED.replace("(", "(?:", 1) + r")*|['`^\"~=.][A-Za-z{][A-Za-z}]?)"
)
#: ``$5 and $10``: a dollar amount followed by words and no TeX operator is not an inline math span.
_CURRENCY = re.compile(r"\d[\d.,]*[kKmMbB]?\s(?!.*[\\^_={}])")
_TIE = re.compile(r"(?<=[\w.,;:)\]])~(?=\S)")
_BRACES = re.compile(r"(?<!\\)[{}]")

# ---------------------------------------------------------------- markdown
_MD_LINK = re.compile(r"\[([^\[\]]+)\]\(((?:https?://|www\.)[^()\s]+)\)")
_MD_STRONG = re.compile(r"(?<![\w*])(\*\*|__)(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_MD_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")
_MD_CODE = re.compile(r"`([^`]+)`")

# ---------------------------------------------------------------- line-break hyphenation
_HYPHEN_SPLIT = re.compile(r"\b([^\W\d_]+)- ([a-z]+)\b")
#: Right-hand words that follow a real suspended hyphen ("pre- and post-training") or a dash: never joined.
_FUNCTION_WORDS = frozenset(
    "a an and as at but by for from in into is it its nor of on or our than that the then these this thus "
    "to versus via vs we which while with".split()
)
#: Left-hand words that form hyphenated compounds ("zero- shot" -> "zero-shot"): hyphen kept, space removed.
_COMPOUND_LEFT = frozenset(
    "all anti auto bi co cross data deep domain e end few fine first full graph half high human image in "
    "inter intra large long low model multi non object off on one open out over post pre real re second "
    "self semi short small state sub super task text three time top two under upper lower user video well "
    "word zero".split()
)
_SPACE_BEFORE_PUNCT = re.compile(r" +([,.;:!?)\]])")
_SPACE_AFTER_OPEN = re.compile(r"([(\[]) +")
_DIGIT_PERCENT = re.compile(r"(\d) +%")
_WS = re.compile(r"\s+")
#: Characters after which a second pass could change the text again (entities, tags, TeX, markdown, splits).
_MAY_CHAIN = re.compile(r"[&<\\$*_`~]|\(cid:|- | [,.;:!?)\]%]|[(\[] ")


def _strip_invisible(text: str) -> str:
    """Remove Cc/Cf/Cs characters (controls, zero-width, BOM, soft hyphen, bidi marks); spaces -> ' '."""
    drop, space = invisible_patterns()
    return space.sub(" ", drop.sub("", text))


@lru_cache(maxsize=1)
def _latex_converter():
    import logging

    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    # pylatexenc logs a WARNING per malformed macro (e.g. "\\frac failed its substitution") and still returns
    # text; at 100k abstracts that is noise, not information.
    logging.getLogger("pylatexenc").setLevel(logging.ERROR)

    db = get_default_latex_context_db().filter_context(keep_categories=None)
    db.add_context_category(
        "abstracts",
        prepend=True,
        macros=[
            MacroTextSpec(name, discard=False)
            for name in (
                "texttt",
                "mbox",
                "textsf",
                "textup",
                "textmd",
                "textnormal",
                "mathtt",
                "operatorname",
            )
        ]
        + [MacroTextSpec(name, simplify_repl="") for name in ("cite", "citep", "citet", "ref", "label")],
    )
    return LatexNodes2Text(
        latex_context=db, math_mode="text", keep_braced_groups=False, strict_latex_spaces=False
    )


@lru_cache(maxsize=65536)
def _latex_span(tex: str) -> str:
    """Convert one small LaTeX span (math or a macro) with pylatexenc; on any failure keep it readable."""
    try:
        text = _latex_converter().latex_to_text(tex)
    except Exception:  # pylatexenc raises IndexError/LatexWalkerError on malformed input
        text = tex
    text = text.replace("\\", " ") if "\\" in text else text
    return _BRACES.sub("", text).replace("\u00a0", " ")


def _protect_urls(text: str, saved: list[str]) -> str:
    def keep(url: str) -> str:
        saved.append(url)
        return _PLACEHOLDER.format(len(saved) - 1)

    if "\\" in text:
        text = _HREF_CMD.sub(lambda m: f"{m[2]} ({keep(m[1].strip())})", text)
        text = _URL_CMD.sub(lambda m: keep(m[1].strip()), text)
    if "](" in text:
        text = _MD_LINK.sub(lambda m: f"{m[1]} ({keep(m[2])})", text)
    if "://" in text or "www." in text:
        text = _URL.sub(lambda m: keep(m[0]), text)
    return text


def _restore_urls(text: str, saved: list[str]) -> str:
    return _PLACEHOLDER_RE.sub(lambda m: saved[int(m[1])], text) if saved else text


def _latex(text: str) -> str:
    """LaTeX -> Unicode text on the spans that are LaTeX; everything else is left alone (so ``%`` stays)."""
    if "\\" in text:
        text = _CITE.sub("", text)
        text = _ESCAPES.sub(r"\1", text)  # \% \& \_ \# \$ -> the character (never a comment)
    if "$" in text or "\\(" in text or "\\[" in text:
        text = _MATH.sub(_math_span, text)
    if "\\" in text:
        text = _MACRO.sub(lambda m: _latex_span(_escape_for_latex(m[0])), text)
    if "~" in text:
        text = _TIE.sub(" ", text)
    return text


def _math_span(m: re.Match) -> str:
    """One math span -> text. ``$5 and $10`` is currency, not math: left as it is."""
    if m[2] is not None and _CURRENCY.match(m[2]):
        return m[0]
    return _latex_span(_escape_for_latex(m[0]))


def _escape_for_latex(tex: str) -> str:
    """Escape what pylatexenc would misread inside a span: a bare % (comment) and & (alignment)."""
    return re.sub(r"(?<!\\)([%&#])", r"\\\1", tex) if ("%" in tex or "&" in tex or "#" in tex) else tex


_MD_STRONG_MARK = re.compile(r"\*\*")


def _strong_in_words(text: str) -> str:
    """In-word bold (``**Co**ncept **L**earning``, acronym letters): markdown pairs ``**`` markers left to
    right, so when their count is even and every pair encloses 1-200 characters on one line that neither
    start nor end with a space, every marker is removed; otherwise ``text`` is returned unchanged."""
    marks = [m.start() for m in _MD_STRONG_MARK.finditer(text)]
    if len(marks) < 2 or len(marks) % 2:
        return text
    for a, b in zip(marks[::2], marks[1::2]):
        inner = text[a + 2 : b]
        if not 0 < len(inner) <= 200 or "\n" in inner or inner[0].isspace() or inner[-1].isspace():
            return text
    return text.replace("**", "")


def _markdown(text: str) -> str:
    if "*" in text or "__" in text:
        text = _MD_STRONG.sub(r"\2", _strong_in_words(text) if "**" in text else text)
        text = _MD_EM.sub(r"\1", text)
    if "`" in text:
        text = _MD_CODE.sub(r"\1", text)
    return text


def _join_hyphen(m: re.Match) -> str:
    left, right = m[1], m[2]
    if right in _FUNCTION_WORDS:
        return m[0]
    if left.lower() in _COMPOUND_LEFT:
        return f"{left}-{right}"
    return left + right


_BLOCK_TAG = re.compile(r"</?(?:br|p|div|li|ul|ol|hr|h[1-6]|blockquote|pre)\b", re.IGNORECASE)


def _tag_space(m: re.Match) -> str:
    """Block tags separate words (a space); inline tags (``H<sub>2</sub>O``) do not."""
    return " " if _BLOCK_TAG.match(m[0]) else ""


def _html(text: str) -> str:
    if "&" in text:
        for _ in range(3):  # double-escaped (&amp;lt;) is common in scraped listings; bounded
            if not _ENTITY.search(text):
                break
            text = html.unescape(text)
    if "<" in text:
        text = _ANCHOR.sub(lambda m: f"{m[2]} ({m[1]})", text)
        for _ in range(3):
            new = _TAG.sub(_tag_space, text)
            if new == text:
                break
            text = new
    return text


def _clean_once(raw: str) -> tuple[str, bool]:
    """One pass of the rules; returns the text and whether ftfy changed it (its output may feed later
    rules)."""
    text = _strip_invisible(raw)  # first, so that removing them later cannot create new "mojibake" pairs
    # Whitespace in its final form BEFORE ftfy: ftfy's mojibake decisions depend on the neighbouring
    # characters (``' Â 0'`` is left alone, ``'Â 0'`` is read as a broken NBSP), so ftfy must see the same
    # context on the first pass as it would on the output; otherwise collapsing/stripping spaces after it
    # changes its next answer.
    text = _WS.sub(" ", text).strip()
    fixed = ftfy.fix_text(text, _FTFY)
    ftfy_changed = fixed != text
    text = fixed
    text = _html(text)
    if "(cid:" in text:
        text = _CID.sub("", _CID_SOFT_HYPHEN.sub("", text))
    text = _strip_invisible(text)
    saved: list[str] = []
    text = _protect_urls(text, saved)
    text = _latex(text)
    text = _markdown(text)
    text = _restore_urls(text, saved)
    text = _WS.sub(" ", text.translate(_MINUS))
    if "- " in text:
        text = _HYPHEN_SPLIT.sub(_join_hyphen, text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    text = _DIGIT_PERCENT.sub(r"\1%", text)
    text = unicodedata.normalize("NFC", text)
    return _strip_invisible(text).strip(), ftfy_changed


#: A label opening the field (``Abstract: ...``, ``Abstract—...``, ``Summary. ...``): the file's label, not
#: the abstract's text (real: a CoRL 2024 papercopilot record). Repeated labels go too.
_LEADING_LABEL = re.compile(r"^(?:\s*(?:abstract|summary)\s*[:.\u2014\u2013-]\s*)+(?=\S)", re.IGNORECASE)


def clean_abstract(raw: str) -> str:
    """Return the clean ``abstract`` text of one ``abstract_raw`` (str -> str; never raises on str input).

    The result is one line: NFC, single ASCII spaces, no control (Cc), format (Cf: zero-width, BOM, soft
    hyphen, bidi), surrogate or ``\\r`` characters, no NBSP/ideographic space; LaTeX, HTML and markdown turned
    into readable text with ``%`` always a percent sign; numbers and units kept (``$\\times$``->``×``,
    ``$-0.38$``->``-0.38``, ``\\%``->``%``). Idempotent: ``clean_abstract(clean_abstract(x)) ==
    clean_abstract(x)`` (when the input held markup -- TeX, HTML, markdown, ``(cid:``, a split -- or ftfy
    repaired something, the rules are re-run on their own output until it is stable, at most 3 more times: an
    entity can produce a tag, TeX can produce a pair that ftfy reads as mojibake, ``\\times²`` -> ``×²`` ->
    ``ײ``, and a character ftfy restores, such as an NBSP, is turned into a space afterwards). Whitespace is
    normalised before ftfy runs, so ftfy sees the same neighbours on every pass (``' Â 0'`` -> ``'0'`` in one
    pass). The rules and their sources are in the module docstring.
    """
    if not raw:
        return ""
    text, ftfy_changed = _clean_once(raw)
    if text[:1] in "AaSs":
        text = _LEADING_LABEL.sub("", text, count=1)
    if not ftfy_changed and not _MAY_CHAIN.search(raw) and not _MAY_CHAIN.search(text):
        return text
    for _ in range(3):  # rare: a rule's output feeds another rule (&lt;b&gt; -> <b>); converge, bounded
        again, _ = _clean_once(text)
        if again[:1] in "AaSs":
            again = _LEADING_LABEL.sub("", again, count=1)
        if again == text:
            break
        text = again
    return text
