"""Raw abstract -> clean text (docs/design.md, "Cleaning").

``clean_text(raw)`` is the one entry point: the published ``abstract`` (:func:`clean_abstract`, then
``pipeline.analyse.residue.strip_residue``). ``abstract_raw`` is never changed; this module derives the
``abstract`` column from it. :func:`clean_abstract` runs the named steps of :data:`STEPS` in order (each with
its reason and examples); :func:`explain` says which steps changed a text. The rules, in the order they run
(each is idempotent, and the whole is checked to be idempotent by ``tests/analyse/test_properties.py``):

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
7. **Whitespace** collapsed to single spaces, no space before ``,.;:!?)`` (but before ``.55``, a decimal
   without its leading zero) or between a digit and ``%`` (so ``54 %`` and ``54%`` clean to the same text),
   stripped.

Cost per abstract is measured by ``bench/corpus_profile.py`` and ``make bench`` (docs/benchmarks.md, "Speed
and memory").
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import ftfy

from pipeline.analyse.latex import latex_span as _latex_span
from pipeline.analyse.residue import strip_residue
from pipeline.ingest.readers.decoding import invisible_patterns

RULES_VERSION = "4"  # bump when outputs change (docs/execution.md)

# ---------------------------------------------------------------- Unicode repair (ftfy)
#: ftfy settings: HTML is handled below (so that tags and entities follow one rule); curly quotes are kept
#: (they are text, not damage); line breaks are collapsed by rule 7; NFC, never NFKC (docs/design.md,
#: "Cleaning"). Each fix they select changes only non-ASCII text, ASCII controls or terminal escapes, so the
#: ftfy step returns printable ASCII as it is (tests/analyse/test_cleaning.py checks the installed ftfy).
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
    r"\\(?:[A-Za-z]+\*?(?:\s*"
    + _BRACED.replace("(", "(?:", 1)
    + r")*|['`^\"~=.](?:\{\\?[A-Za-z]\}|\\?[A-Za-z]))"
)
#: Old-style font switches in a group (``{\em monotone}``, ``{\bf X}``): the group's text; a control space
#: ``\ `` (``e.g.\ a``) or a line break ``\\`` outside math: a space; ``\{``/``\}`` outside math: braces.
_FONT_GROUP = re.compile(r"\{\\(?:em|bf|it|sl|sc|tt|rm|sf|bfseries|itshape|scshape|ttfamily)\b\s*([^{}]*)\}")
_CONTROL_SPACE = re.compile(r"\\\\(?![A-Za-z])|\\(?=\s)")
_ESCAPED_BRACE = re.compile(r"\\([{}])")
#: A group of letters followed by a letter (``Cl{é}ment``, ``{B}ayesian``, ``{GAN}s``): case protection.
#: Not ``sqrt{T})`` or ``tilde{O}(n)`` (a macro that lost its backslash upstream), not ``\{e}`` (an escape).
_GLUED_GROUP = re.compile(r"(?<!\\)\{([^\W\d_]{1,12})\}(?=[^\W\d_])")
#: ``$5 and $10``: a dollar amount followed by words and no TeX operator is not an inline math span.
_CURRENCY = re.compile(r"\d[\d.,]*[kKmMbB]?\s(?!.*[\\^_={}])")
_TIE = re.compile(r"(?<=[\w.,;:)\]])~(?=\S)")

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
#: never before a decimal written without its leading zero ("rho of .55", "p < .001": 25 dev-corpus abstracts)
_SPACE_BEFORE_PUNCT = re.compile(r" +([,;:!?)\]]|\.(?!\d))")
_SPACED_PUNCT = tuple(" " + c for c in ",.;:!?)]")  # what every match of _SPACE_BEFORE_PUNCT ends with
_SPACE_AFTER_OPEN = re.compile(r"([(\[]) +")
_DIGIT_PERCENT = re.compile(r"(\d) +%")
_WS = re.compile(r"\s+")
#: Characters after which a second pass could change the text again (entities, tags, TeX, markdown, splits).
_MAY_CHAIN = re.compile(r"[&<\\$*_`~]|\(cid:|- | [,.;:!?)\]%]|[(\[] ")


def _strip_invisible(text: str) -> str:
    """Remove Cc/Cf/Cs characters (controls, zero-width, BOM, soft hyphen, bidi marks); spaces -> ' '. A
    printable text (no C or Z category but ' ') has none: it is returned as it is, without the two regexes."""
    if text.isprintable():
        return text
    drop, space = invisible_patterns()
    return space.sub(" ", drop.sub("", text))


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
        text = _CONTROL_SPACE.sub(lambda m: " " if len(m[0]) == 2 else "", _FONT_GROUP.sub(r"\1", text))
        text = _MACRO.sub(lambda m: _latex_span(_escape_for_latex(m[0])), text)
        text = _ESCAPED_BRACE.sub(r"\1", _GLUED_GROUP.sub(r"\1", text))
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


# ---------------------------------------------------------------- the steps, in the order they run
# Every step is ``(text, urls) -> text``; ``urls`` is the list of one pass's protected URLs: the ``links``
# step replaces URLs by placeholders (so the LaTeX and markdown rules never touch them) and ``urls_back``
# puts them back. The other steps ignore it.


def _step_invisible(text: str, urls: list[str]) -> str:
    return _strip_invisible(text)


def _step_pdf_cid(text: str, urls: list[str]) -> str:
    return _CID.sub("", _CID_SOFT_HYPHEN.sub("", text)) if "(cid:" in text else text


def _step_hyphenation(text: str, urls: list[str]) -> str:
    return _HYPHEN_SPLIT.sub(_join_hyphen, text) if "- " in text else text


def _step_punctuation_spacing(text: str, urls: list[str]) -> str:
    # each pattern runs only on a text holding what every match of it ends with (rare in a clean text)
    if any(pair in text for pair in _SPACED_PUNCT):
        text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    if "( " in text or "[ " in text:
        text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    return _DIGIT_PERCENT.sub(r"\1%", text) if " %" in text else text


#: A label opening the field (``Abstract: ...``, ``Abstract—...``, ``Summary. ...``): the file's label, not
#: the abstract's text (real: a CoRL 2024 papercopilot record). Repeated labels go too.
_LEADING_LABEL = re.compile(r"^(?:\s*(?:abstract|summary)\s*[:.\u2014\u2013-]\s*)+(?=\S)", re.IGNORECASE)


def _step_leading_label(text: str, urls: list[str]) -> str:
    return _LEADING_LABEL.sub("", text, count=1) if text[:1] in "AaSs" else text


@dataclass(frozen=True)
class CleaningStep:
    """One step of :data:`STEPS`: ``run(text, urls) -> text`` (``urls``: the pass's protected URLs), why it
    exists, and ``(input, output)`` examples of the step alone (tests/analyse/test_cleaning.py runs them)."""

    name: str
    run: Callable[[str, list[str]], str]
    reason: str
    examples: tuple[tuple[str, str], ...]

    def apply(self, text: str) -> str:
        """This step alone on ``text`` (str -> str), with any URL it protects put back."""
        urls: list[str] = []
        return _restore_urls(self.run(text, urls), urls)


#: The cleaning steps, in the order one pass of :func:`clean_abstract` runs them (the rules and their sources
#: are in the module docstring; the numbers there are given after each reason).
STEPS: tuple[CleaningStep, ...] = (
    CleaningStep(
        "invisible",
        _step_invisible,
        "invisible characters (Cc/Cf/Cs) removed and Unicode spaces made ' ', before ftfy, so that removing "
        "them later cannot create new mojibake pairs (rule 3)",
        (("Trans\u200bformer\u00a0XS", "Transformer XS"), ("en\u00adcoder", "encoder")),
    ),
    CleaningStep(
        "whitespace_first",
        lambda text, urls: " ".join(text.split()),  # = _WS.sub(" ", text).strip(): \s is str.isspace
        "whitespace in its final form before ftfy: ftfy's mojibake decisions depend on the neighbouring "
        "characters, so it must see the same context on every pass (rule 7)",
        ((" a\n  b ", "a b"),),
    ),
    CleaningStep(
        "ftfy",
        lambda text, urls: text if text.isascii() and text.isprintable() else ftfy.fix_text(text, _FTFY),
        "Unicode repair: mojibake re-decoded, Latin ligatures and full-width ASCII folded, NFC (rule 1)",
        (
            ("The model\u00e2\u20ac\u2122s 3\u00c3\u2014 speedup", "The model’s 3× speedup"),
            ("ﬁne-tuning ＡＢＣ１２３ with n²", "fine-tuning ABC123 with n²"),
        ),
    ),
    CleaningStep(
        "html",
        lambda text, urls: _html(text),
        "HTML entities unescaped (repeatedly), inline tags of a known list removed, anchors -> 't (u)' "
        "(rule 2)",
        (
            ("5 &amp;amp; 6, H<sub>2</sub>O, <a, b>", "5 & 6, H2O, <a, b>"),
            ('<a href="http://x.org/a">site</a>', "site (http://x.org/a)"),
        ),
    ),
    CleaningStep(
        "pdf_cid",
        _step_pdf_cid,
        "PDF glyph ids: (cid:173) is a soft hyphen (joined), other (cid:N) removed (rule 3)",
        (
            (
                "in conjunc(cid:173) tion with the cortical(cid:12) model",
                "in conjunction with the cortical model",
            ),
        ),
    ),
    CleaningStep(
        "invisible_again",
        _step_invisible,
        "invisible characters that the HTML step produced (&#8203;) removed (rule 3)",
        (("a\u200bb", "ab"),),
    ),
    CleaningStep(
        "links",
        lambda text, urls: _protect_urls(text, urls),
        "\\url{u} -> u, \\href{u}{t} -> t (u), [t](u) -> t (u); URLs are protected from the LaTeX and "
        "markdown steps until urls_back (rules 4, 5)",
        (
            ("at \\url{https://example.org/x}.", "at https://example.org/x."),
            ("(\\href{https://example.org/b}{page})", "(page (https://example.org/b))"),
            ("[repo](https://github.com/a/b)", "repo (https://github.com/a/b)"),
        ),
    ),
    CleaningStep(
        "latex",
        lambda text, urls: _latex(text),
        "LaTeX to Unicode on its spans only: escapes, math, text macros, \\cite dropped, ties; a bare % is a "
        "percent sign; '$5 and $10' is currency (rule 4)",
        (
            ("1.41$\\times$; 54\\% F1", "1.41×; 54% F1"),
            ("R\\'enyi \\textbf{bold} as in~\\cite{x}.", "Rényi bold as in."),
            ("Fig.~3 shows (~2× fewer)", "Fig. 3 shows (~2× fewer)"),
            ("it costs $5 and $10 per run", "it costs $5 and $10 per run"),
            (
                "Cl{\\'{e}}ment's {\\em monotone} case, i.e.\\ \\{1,2\\}",
                "Clément's monotone case, i.e. {1,2}",
            ),
        ),
    ),
    CleaningStep(
        "markdown",
        lambda text, urls: _markdown(text),
        "markdown emphasis and code marks removed (**X**, __X__, *X*, `X`), in-word bold too (rule 5)",
        (("the **IRST**, *slippages*, a*b*c, `code`", "the IRST, slippages, a*b*c, code"),),
    ),
    CleaningStep(
        "urls_back",
        lambda text, urls: _restore_urls(text, urls),
        "the URLs protected by the links step put back",
        (("see https://x.org/a_b", "see https://x.org/a_b"),),
    ),
    CleaningStep(
        "minus",
        lambda text, urls: text.translate(_MINUS) if "\u2212" in text else text,
        "U+2212 minus -> ASCII '-', so that -0.38 is searchable (rule 4)",
        (("a drop of \u22120.38 BLEU", "a drop of -0.38 BLEU"),),
    ),
    CleaningStep(
        "whitespace",
        # whitespace but ' ' is unprintable: a printable text without "  " has only single spaces (to keep)
        lambda text, urls: _WS.sub(" ", text) if "  " in text or not text.isprintable() else text,
        "whitespace the earlier steps left collapsed to single spaces (rule 7)",
        (("a  b\u00a0c", "a b c"),),
    ),
    CleaningStep(
        "hyphenation",
        _step_hyphenation,
        "line-break hyphenation joined, compounds keep their hyphen, suspended hyphens kept (rule 6)",
        (
            (
                "con- vergence of zero- shot pre- and post-training",
                "convergence of zero-shot pre- and post-training",
            ),
        ),
    ),
    CleaningStep(
        "punctuation_spacing",
        _step_punctuation_spacing,
        "no space before ,.;:!?)] or after ([, nor between a digit and % (rule 7)",
        (
            ("reaches 54 % F1 ( on DocRED ) .", "reaches 54% F1 (on DocRED)."),
            # a decimal without its leading zero keeps the space before it
            ("Pearson's rho of .55 to .77 .", "Pearson's rho of .55 to .77."),
        ),
    ),
    CleaningStep(
        "nfc",
        lambda text, urls: unicodedata.normalize("NFC", text),
        "NFC again: the LaTeX step can produce combining accents (rule 1)",
        (("cafe\u0301", "café"),),
    ),
    CleaningStep(
        "final_strip",
        lambda text, urls: _strip_invisible(text).strip(),
        "a last removal of invisible characters, and the ends stripped (rule 3)",
        ((" a\u200bb ", "ab"),),
    ),
    CleaningStep(
        "leading_label",
        _step_leading_label,
        "the file's label opening the field ('Abstract:', 'Abstract.', 'Summary.') removed (a CoRL 2024 "
        "papercopilot record)",
        (
            ("Abstract: Human actions manipulating objects.", "Human actions manipulating objects."),
            ("Abstract reasoning is fundamental.", "Abstract reasoning is fundamental."),
        ),
    ),
)
_FTFY_STEP = next(s for s in STEPS if s.name == "ftfy")


class Change(NamedTuple):
    """One step of :func:`explain` that changed the text: the step's name, the text before and after it,
    and the pass of :func:`clean_abstract` (1, then 2-4 while the text is not stable; ``None`` for
    ``residue``)."""

    step: str
    before: str
    after: str
    pass_number: int | None


def _run_pass(text: str, trace: list[Change] | None, pass_number: int) -> tuple[str, bool]:
    """One pass of :data:`STEPS`; returns the text and whether ftfy changed it (its output may feed later
    steps). Every change is appended to ``trace`` when given (texts shown with their URLs in place)."""
    urls: list[str] = []
    ftfy_changed = False
    for step in STEPS:
        before = text
        text = step.run(text, urls)
        if step is _FTFY_STEP:
            ftfy_changed = text != before
        if trace is not None and text != before:
            shown = _restore_urls(before, urls), _restore_urls(text, urls)
            if shown[0] != shown[1]:
                trace.append(Change(step.name, shown[0], shown[1], pass_number))
    return text, ftfy_changed


def _clean(raw: str, trace: list[Change] | None) -> str:
    """:data:`STEPS` run on ``raw`` until the text is stable (see :func:`clean_abstract`)."""
    if not raw:
        return ""
    text, ftfy_changed = _run_pass(raw, trace, 1)
    if not ftfy_changed and not _MAY_CHAIN.search(raw) and not _MAY_CHAIN.search(text):
        return text
    for n in range(2, 5):  # rare: a rule's output feeds another rule (&lt;b&gt; -> <b>); converge, bounded
        changes: list[Change] | None = None if trace is None else []
        again, _ = _run_pass(text, changes, n)
        if again == text:
            break
        if trace is not None and changes:
            trace.extend(changes)
        text = again
    return text


def clean_abstract(raw: str) -> str:
    """Return the text of one ``abstract_raw`` after the cleaning steps (str -> str; never raises on str
    input). The published ``abstract`` is :func:`clean_text` (this, then the residue step); use that unless
    the cleaning steps alone are under test.

    The result is one line: NFC, single ASCII spaces, no control (Cc), format (Cf: zero-width, BOM, soft
    hyphen, bidi), surrogate or ``\\r`` characters, no NBSP/ideographic space; LaTeX, HTML and markdown turned
    into readable text with ``%`` always a percent sign; numbers and units kept (``$\\times$``->``×``,
    ``$-0.38$``->``-0.38``, ``\\%``->``%``). Idempotent: ``clean_abstract(clean_abstract(x)) ==
    clean_abstract(x)`` (when the input held markup -- TeX, HTML, markdown, ``(cid:``, a split -- or ftfy
    repaired something, the steps are re-run on their own output until it is stable, at most 3 more times: an
    entity can produce a tag, TeX can produce a pair that ftfy reads as mojibake, ``\\times²`` -> ``×²`` ->
    ``ײ``, and a character ftfy restores, such as an NBSP, is turned into a space afterwards). Whitespace is
    normalised before ftfy runs, so ftfy sees the same neighbours on every pass (``' Â 0'`` -> ``'0'`` in one
    pass). The steps are :data:`STEPS`; the rules and their sources are in the module docstring.
    """
    return _clean(raw, None)


def clean_text(raw: str) -> str:
    """Return the published clean ``abstract`` of one ``abstract_raw`` (str -> str; never raises on str).

    :func:`clean_abstract` (the :data:`STEPS`), then :func:`pipeline.analyse.residue.strip_residue` (e-mail
    addresses, HTML layout tags and markdown heading marks a listing's layout leaves). This is the text that
    ``pipeline.analyse.abstracts.analyse_abstract`` publishes and that quarantine, language detection, metric
    extraction and hashing read."""
    return strip_residue(clean_abstract(raw))


def explain(raw: str) -> list[Change]:
    """Which steps changed ``raw`` on its way to :func:`clean_text`, in the order they ran (like
    ``ftfy.fix_and_explain`` for ftfy's own fixes): one :class:`Change` per step that changed the text, per
    pass, then ``residue`` when :func:`~pipeline.analyse.residue.strip_residue` changed it. The last change's
    ``after`` is ``clean_text(raw)``; an empty list means the text was already clean. Never raises on str."""
    trace: list[Change] = []
    clean = _clean(raw, trace)
    published = strip_residue(clean)
    if published != clean:
        trace.append(Change("residue", clean, published, None))
    return trace
