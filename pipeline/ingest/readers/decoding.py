"""Decoding a listing file's bytes to text: BOMs, strict UTF-8, detected codecs, line ends, invisible
characters.

Every reader (pipeline.ingest.readers) starts from :func:`decode_listing`'s text. Pure functions (bytes in,
text out)."""

from __future__ import annotations

import codecs
import re
import unicodedata
from functools import lru_cache

RULES_VERSION = "3"  # bump when outputs change (docs/execution.md)

#: Byte-order marks, longest first (a UTF-32 LE BOM starts with the UTF-16 LE one).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
#: charset-normalizer names of the GB family; GB18030 is their superset, so the file is decoded with it.
_CHINESE_CODECS = {"gb18030", "gbk", "gb2312", "hz"}
#: A well-formed multi-byte UTF-8 sequence. A file with more of these than invalid bytes is damaged UTF-8, not
#: another encoding (in cp1252/Latin-1 text such pairs need mojibake like ``Ã©`` to occur by chance).
_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
#: A cut-off multi-byte UTF-8 sequence: a lead byte with at least one but fewer than all of its continuation
#: bytes, then a byte that cannot continue it. Single-byte Western text almost never has a letter in
#: 0xC2-0xF4 followed by a symbol in 0x80-0xBF and then a non-symbol (``Ã©`` is valid UTF-8, not cut off).
_UTF8_CUT = re.compile(rb"[\xe0-\xef][\x80-\xbf](?![\x80-\xbf])|[\xf0-\xf4][\x80-\xbf]{1,2}(?![\x80-\xbf])")
#: At most this many NUL characters in a UTF-8 file are stray characters inside records (quarantined with
#: their record); more mean a binary file or UTF-16/32 without a byte-order mark (the file is rejected).
MAX_STRAY_NULS = 16
#: Charset-normalizer's upper bound of "mess" (its own default ``threshold=0.2``).
MAX_CHAOS = 0.2
#: Equal-mess ties between Western single-byte codecs are resolved to windows-1252 (the WHATWG Encoding
#: standard decodes every "latin1"/"iso-8859-1" label as windows-1252); charset-normalizer ranks cp1250 first
#: on English/German text, which turns ``à``/``è`` into ``ŕ``/``č`` (measured in
#: tests/ingest/test_decoding.py).
#: Mess margin within which cp1252 wins over another Western winner: charset-normalizer's mess differs by up
#: to 0.054 between cp1252 and cp1257 on a 460-byte English Latin-1 listing (tests/ingest/test_decoding.py).
WESTERN_TIE = 0.1
_WESTERN = (
    "cp1252",
    "cp1250",
    "cp1257",
    "latin_1",
    "iso8859_15",
    "iso8859_2",
    "mac_latin2",
    "mac_roman",
    "mac_iceland",
    "cp850",
    "cp775",
    "hp_roman8",
    "cp1006",
    "cp1125",
)


class ListingDecodeError(ValueError):
    """A listing file's bytes cannot be decoded as text.

    Attributes: ``path`` (the file), ``offset`` (0-based byte offset of the first bad byte, or -1),
    ``reason``."""

    def __init__(self, path: str, offset: int, reason: str):
        self.path, self.offset, self.reason = path, offset, reason
        super().__init__(f"{path}: cannot decode listing at byte {offset}: {reason}")


def decode_listing(
    data: bytes, path: str = "<bytes>", encoding: str | None = None, stray_nul_ok: bool = False
) -> tuple[str, str]:
    """Decode a listing file's bytes; return ``(text, encoding)`` with line ends normalised to ``\\n``.

    Rules, in order (docs/design.md, "Raw listings"). Bytes are never replaced, ignored or dropped:

    1. ``encoding`` given (a per-file override): strict decode with it.
    2. A BOM decides: UTF-8, UTF-16 LE/BE, UTF-32 LE/BE (strict; the BOM is removed). ``FF FE 00 00`` is
       the UTF-32 LE BOM or the UTF-16 LE BOM and a NUL: read as UTF-32 LE unless that gives a code point
       Unicode leaves unassigned, then rejected (a NUL, rule 6).
    3. No BOM: strict UTF-8 (pure ASCII is UTF-8).
    4. Not UTF-8: if the file has more well-formed multi-byte UTF-8 sequences than it has invalid bytes, or
       every invalid spot is a cut-off multi-byte sequence (a lead byte followed by some but not all of its
       continuation bytes, e.g. ``\\xe2\\x80`` then ASCII: a truncated ``’``), it is damaged UTF-8 and is
       rejected at the first bad byte (decoding it as cp1252 would publish mojibake such as ``â€``). A lead
       byte followed directly by ASCII (``caf\\xe9 au lait``) is ordinary single-byte text and goes on to rule
       5.
    5. Otherwise charset-normalizer (a well-kept detector) ranks the candidate codecs by mess and coherence.
       GB18030 is used only when it ranks a GB codec first: strict GB18030 decodes almost any byte string
       (a cp1252 ``’s`` is a valid GBK pair), so "GB18030 decodes" is never evidence on its own. Other codecs
       (cp1252, cp1251, Shift-JIS, EUC-KR, Big5, ...) are accepted when their mess is at most MAX_CHAOS; ties
       among Western single-byte codecs go to cp1252. No acceptable candidate: rejected.
    6. A NUL character in the decoded text (UTF-16 without BOM, or a binary file) is rejected, unless
       ``stray_nul_ok`` and the NULs are stray (at most MAX_STRAY_NULS, in a file decoded as UTF-8 without a
       BOM): then they stay in the text and the reader makes the record holding them that record's problem
       (one bad character never rejects a whole file).

    Line ends: CRLF, lone CR and LF become ``\\n``.

    Raises:
        ListingDecodeError: undecodable bytes; ``offset`` is the 0-based byte offset of the first bad byte
            (for rule 5 rejections, of the first byte that is not valid UTF-8), ``reason`` says which rule.
    """
    if encoding:
        return _decode_override(data, path, encoding)
    bom_decoded = _decode_after_bom(data, path)
    if bom_decoded is not None:
        return bom_decoded
    try:
        utf8 = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return _decode_not_utf8(data, path, e.start, e.reason)
    if stray_nul_ok and 0 < utf8.count("\x00") <= MAX_STRAY_NULS:
        return normalise_line_ends(utf8), "utf-8"
    return _checked(utf8, path, "utf-8"), "utf-8"


def _decode_override(data: bytes, path: str, encoding: str) -> tuple[str, str]:
    """Rule 1 of :func:`decode_listing`: strict decode with the per-file ``encoding``.

    Raises:
        ListingDecodeError: invalid bytes for it, or an unknown codec name (offset -1).
    """
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as e:
        offset = e.start if isinstance(e, UnicodeDecodeError) else -1
        raise ListingDecodeError(path, offset, f"invalid {encoding} (per-file override): {e}") from None
    return _checked(text, path, encoding), encoding


def _decode_after_bom(data: bytes, path: str) -> tuple[str, str] | None:
    """Rule 2 of :func:`decode_listing`: ``(text, codec)`` when the bytes start with a BOM (removed), else
    None.

    Raises:
        ListingDecodeError: bytes after the BOM invalid in its codec (offset counts the BOM).
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(codec)
            except UnicodeDecodeError as e:
                raise ListingDecodeError(
                    path, len(bom) + e.start, f"invalid {codec} after its BOM: {e.reason}"
                ) from None
            if codec == "utf-32-le" and _has_unassigned(text):
                # FF FE 00 00 is also a UTF-16 LE BOM and a NUL: the decoded text decides between them
                raise ListingDecodeError(
                    path,
                    len(codecs.BOM_UTF16_LE),
                    "a UTF-16 LE byte-order mark then a NUL character (read as UTF-32 LE it gives "
                    "unassigned code points): a binary file",
                )
            return _checked(text, path, codec, len(bom)), codec
    return None


def _has_unassigned(text: str) -> bool:
    """True when ``text`` holds a code point Unicode leaves unassigned (category Cn): what UTF-16 text read
    as UTF-32 gives (``\\x00\\r\\n`` in UTF-16 LE after its BOM reads as U+A000D)."""
    return any(unicodedata.category(ch) == "Cn" for ch in text)


def _decode_not_utf8(data: bytes, path: str, first_bad: int, utf8_reason: str) -> tuple[str, str]:
    """Rules 4 and 5 of :func:`decode_listing` for bytes that are not UTF-8 (``first_bad``: offset of the
    first invalid byte, ``utf8_reason``: the UTF-8 codec's reason).

    Raises:
        ListingDecodeError: damaged UTF-8, no acceptable detected codec, or the detected codec's strict
            decode fails.
    """
    n_valid = len(_UTF8_MULTIBYTE.findall(data))
    n_invalid = _count_invalid_utf8(data)
    n_cut = len(_UTF8_CUT.findall(data))
    if n_valid > n_invalid or (n_cut and n_cut >= n_invalid):
        raise ListingDecodeError(
            path,
            first_bad,
            f"damaged UTF-8: {utf8_reason} at byte {first_bad} ({n_invalid} invalid byte(s) among "
            f"{n_valid} valid "
            f"multi-byte UTF-8 characters)",
        )
    detected = _detect_codec(data)
    if detected is None:
        raise ListingDecodeError(
            path,
            first_bad,
            f"not UTF-8 ({utf8_reason} at byte {first_bad}) and no encoding fits (charset-normalizer "
            "found no "
            f"candidate with mess <= {MAX_CHAOS})",
        )
    try:
        text = data.decode(detected)
    except UnicodeDecodeError as e:  # detector and strict codec disagree: never decode with errors ignored
        raise ListingDecodeError(
            path, e.start, f"detected {detected} but invalid {detected}: {e.reason}"
        ) from None
    return _checked(text, path, detected), detected


def _count_invalid_utf8(data: bytes) -> int:
    """Number of bytes that UTF-8 decoding would replace (counted with the replace handler, never kept)."""
    return data.decode("utf-8", errors="replace").count("\ufffd") - data.count("\ufffd".encode())


def _detect_codec(data: bytes) -> str | None:
    """The codec for a non-UTF-8 file without BOM, or ``None`` (rule 5 of :func:`decode_listing`).

    charset-normalizer's ranking, with two corrections measured on short listings
    (tests/ingest/test_decoding.py):
    a candidate in which it recognises a language (coherence > 0) beats one in which it does not (KOI8-R
    Russian was otherwise ranked as cp932 half-width katakana), and a Western single-byte winner becomes
    cp1252 when cp1252 decodes the file with at most WESTERN_TIE more mess (cp1257/cp1250 winners turn
    ``naïve``/``façade`` into ``naļve``/``faēade``).
    """
    import charset_normalizer

    matches = list(charset_normalizer.from_bytes(data, threshold=MAX_CHAOS))
    if not matches:
        return None
    best = next((m for m in matches if m.coherence > 0), matches[0])
    name = best.encoding.lower()
    if name in _CHINESE_CODECS:
        return "gb18030"
    if name in _WESTERN and name != "cp1252":
        cp1252 = charset_normalizer.from_bytes(data, cp_isolation=["cp1252"], threshold=MAX_CHAOS).best()
        if cp1252 is not None and cp1252.chaos <= best.chaos + WESTERN_TIE:
            return "cp1252"
    return name


def _checked(text: str, path: str, codec: str, skipped: int = 0) -> str:
    """``text`` with line ends normalised, unless it holds a NUL (text files have none): then
    ListingDecodeError at the NUL's byte offset in the file (``skipped``: bytes before ``text``, a BOM)."""
    if "\x00" in text:
        at = text.index("\x00")
        offset = skipped + len(text[:at].encode(codec))
        why = "a binary file" if skipped else "a UTF-16/32 file without a byte-order mark, or a binary file"
        raise ListingDecodeError(path, offset, f"a NUL character (decoded as {codec}): {why}")
    return normalise_line_ends(text)


def normalise_line_ends(text: str) -> str:
    """CRLF and lone CR become LF (listings come with CRLF, CR and LF line ends). U+2028/U+2029/NEL are not
    line ends here (a listing's paragraphs are split at blank lines only); :func:`sanitise_line` makes them
    spaces."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


@lru_cache(maxsize=1)
def invisible_patterns() -> tuple[re.Pattern, re.Pattern]:
    """Regexes of the characters to drop (Cc, Cf, Cs) and to turn into a space (Zs, Zl, Zp, ASCII white).

    Built once per process from ``unicodedata``, so the class follows the Unicode version of the
    running Python rather than a hand-kept list; ``\\t\\n\\r\\v\\f`` are spaces, not dropped.
    """

    drop: list[str] = []
    space: list[str] = ["\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85"]
    # planes 0, 1 and 14 hold every Cc/Cf/Cs/Z* character; the others are ideographs, private use or
    # unassigned
    for cp in (*range(0x20000), *range(0xE0000, 0xF0000)):
        ch = chr(cp)
        cat = unicodedata.category(ch)
        if cat in ("Zs", "Zl", "Zp") and ch != " ":
            space.append(ch)
        elif cat in ("Cc", "Cf", "Cs") and ch not in space[0]:
            drop.append(ch)
    drop.append("\ue000\ue001")  # the URL placeholder brackets (private use), never text of ours

    def char_class(chars: list[str]) -> str:  # as code point ranges: a class of single characters is slow
        cps = sorted({ord(c) for c in "".join(chars)})
        ranges: list[list[int]] = []
        for cp in cps:
            if ranges and cp == ranges[-1][1] + 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
        return "[" + "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]"

    return re.compile(char_class(drop) + "+"), re.compile(char_class(space) + "+")


def sanitise_line(line: str) -> str:
    """One decoded line as stored in ``abstract_raw``: invisible characters removed, spaces made ASCII.

    Removed: Unicode categories Cc (controls, incl. NUL, ``\\r``), Cf (zero-width space/joiners, BOM, soft
    hyphen, bidi marks) and Cs; a tab and every Unicode space (NBSP, ideographic space, thin spaces) become an
    ASCII space. Nothing else changes. Why: no stored field may hold control or zero-width characters
    (docs/design.md, "Cleaning"), and URL offsets into ``abstract_raw`` must address a URL
    without a zero-width space inside it (``transformer\u200b-xs`` in a real listing).
    """
    if line.isascii() and line.isprintable():
        return line
    drop, space = invisible_patterns()
    return drop.sub("", space.sub(" ", restore_eaten_escapes(line)))


#: A control character a decoder made of a backslash escape (JSON ``\t``, ``\b``, ``\f``), and the letters
#: after it. A line feed is not repaired (a real line break may come before "e.g.", which would read as
#: ``\ne``); a carriage return is gone once line ends are normalised.
_EATEN = re.compile(r"([\t\x08\x0c])([A-Za-z]+)")
_ESCAPE_LETTER = {"\t": "t", "\x08": "b", "\x0c": "f"}


@lru_cache(maxsize=1)
def _macro_names() -> frozenset[str]:
    """Every macro name pylatexenc's default context knows (about 940: ``times``, ``textbf``, ``beta``...)."""
    from pylatexenc.latex2text import get_default_latex_context_db

    db = get_default_latex_context_db()
    return frozenset(m.macroname for cat in db.categories() for m in db.iter_macro_specs([cat]))


def restore_eaten_escapes(line: str) -> str:
    """Put back the LaTeX commands a decoder read as escapes (str -> str), before :func:`sanitise_line` drops
    control characters: a tab, backspace or form feed followed by letters that, after the escape's letter,
    make a macro pylatexenc knows becomes that macro (TAB + ``imes`` -> ``\\times``, TAB + ``extbf`` ->
    ``\\textbf``, BS + ``eta`` -> ``\\beta``, FF + ``rac`` -> ``\\frac``: a JSON listing whose writer did not
    escape its backslashes); any other control character is left as it is. Measured on the dev corpus: 184
    control characters right before letters, 170 of them such commands (``\\textit`` 53, ``\\textbf`` 50,
    ``\\times`` 45); the others are tabs before words ("\tachieves")."""
    if not ("\t" in line or "\x08" in line or "\x0c" in line):
        return line

    def put_back(m: re.Match) -> str:
        name = _ESCAPE_LETTER[m[1]] + m[2]
        return "\\" + name if name in _macro_names() else m[0]

    return _EATEN.sub(put_back, line)
