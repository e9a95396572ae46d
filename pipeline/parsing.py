"""Reading listing files: decode the bytes, normalise line ends, read the header, split into paragraphs.

A listing file (design §2) is an optional BOM, a header line ``<VENUE> <YEAR> <words>`` (for example
``ICML 2026 论文列表``), then paragraphs separated by one or more blank lines. A paragraph may be hard-wrapped
over several lines. The header is metadata: it is never an abstract and is not counted as a paragraph.

Everything here is pure (bytes or text in, values out); the Dagster assets call it.
"""

from __future__ import annotations

import codecs
import datetime as _dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

#: Venue token: ASCII letters, digits, ``-`` and ``_``, so that it is a safe Hive partition value (design §6:
#: "ASCII, never-null partition values"). A leading digit is allowed for venues such as ``3DV``.
VENUE_RE = r"[A-Za-z0-9][A-Za-z0-9_\-]{0,31}"
#: A header line: venue, a year (not followed by another digit: ``ICML 2026论文列表`` is a header), then free
#: words in any script. Longer lines are prose, not headers.
HEADER_RE = re.compile(rf"^\s*(?P<venue>{VENUE_RE}?)[\s_\-]+(?P<year>\d{{4}})(?!\d)(?P<rest>.*)$")
HEADER_MAX_CHARS = 120
#: File names such as ``neurips_2024.txt`` or ``ICML-2026-extra.txt`` give venue and year when there is no header.
FILENAME_RE = re.compile(rf"^(?P<venue>{VENUE_RE}?)[_\-\s](?P<year>\d{{4}})(?!\d)")
#: Years outside MIN_YEAR..(current year + 1) are not believed (issue 4; NeurIPS 1987 is the oldest listing
#: in the dev corpus).
MIN_YEAR = 1980

UNKNOWN_VENUE = "unknown"
UNKNOWN_YEAR = 0

#: Known venues, canonical spelling. Source: the 23 venues of the dev corpus
#: (../shared/corpus/real_abstracts_dev.parquet) plus the other main ML/CV/NLP venues and journals. Matching is
#: case-insensitive (``neurips`` -> ``NeurIPS``); aliases map old names to the current one.
KNOWN_VENUES = {
    v.lower(): v
    for v in (
        "3DV AAAI AAMAS ACCV ACL ACML AISTATS ALT AutoML-Conf BMVC COLING COLM COLT CVPR CoLLAs CoNLL CoRL "
        "EACL ECAI ECCV ECML EMNLP ICASSP ICCV ICDM ICLR ICML ICRA IJCAI IJCNLP Interspeech IROS JMLR KDD "
        "L4DC LoG MICCAI MIDL MLSys NAACL NeurIPS RSS SDM SIGIR TMLR TPAMI UAI WACV WSDM WWW"
    ).split()
}
KNOWN_VENUES |= {"nips": "NeurIPS", "the-web-conf": "WWW", "thewebconf": "WWW", "automl": "AutoML-Conf"}

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
#: Charset-normalizer's upper bound of "mess" (its own default ``threshold=0.2``).
MAX_CHAOS = 0.2
#: Equal-mess ties between Western single-byte codecs are resolved to windows-1252 (the WHATWG Encoding
#: standard decodes every "latin1"/"iso-8859-1" label as windows-1252); charset-normalizer ranks cp1250 first
#: on English/German text, which turns ``à``/``è`` into ``ŕ``/``č`` (measured in tests/test_parsing.py).
#: Mess margin within which cp1252 wins over another Western winner: charset-normalizer's mess differs by up
#: to 0.054 between cp1252 and cp1257 on a 460-byte English Latin-1 listing (tests/test_parsing.py).
WESTERN_TIE = 0.1
_WESTERN = ("cp1252", "cp1250", "cp1257", "latin_1", "iso8859_15", "iso8859_2", "mac_latin2", "mac_roman",
            "mac_iceland", "cp850", "cp775", "hp_roman8", "cp1006", "cp1125")


class ListingDecodeError(ValueError):
    """A listing file's bytes cannot be decoded as text.

    Attributes: ``path`` (the file), ``offset`` (0-based byte offset of the first bad byte, or -1), ``reason``.
    """

    def __init__(self, path: str, offset: int, reason: str):
        self.path, self.offset, self.reason = path, offset, reason
        super().__init__(f"{path}: cannot decode listing at byte {offset}: {reason}")


@dataclass(frozen=True)
class Paragraph:
    """One blank-line-separated paragraph of a listing.

    ``number`` is 1-based among the paragraphs after the header; ``line`` is the 1-based line in the file
    where the paragraph starts; ``text`` is ``abstract_raw``: the decoded text with line ends normalised to
    ``\\n`` (wrapped lines keep their ``\\n``; cleaning joins them with a space), invisible characters removed
    and Unicode spaces made ASCII (:func:`sanitise_line`), otherwise exactly as in the file.
    """

    number: int
    line: int
    text: str


@dataclass(frozen=True)
class Listing:
    """A decoded, split listing file.

    ``name`` is the file's path relative to the raw folder (POSIX separators); ``sha256`` the hex digest of
    its bytes; ``encoding`` the codec that decoded it; ``venue``/``year`` from the header, else from the file
    name, else ``"unknown"``/``0``; ``header`` the header line or ``None``; ``warnings`` human-readable
    notes for the run log (missing header, unknown venue, implausible year).
    """

    name: str
    sha256: str
    encoding: str
    venue: str
    year: int
    header: str | None
    paragraphs: list[Paragraph]
    warnings: list[str] = field(default_factory=list)


def decode_listing(data: bytes, path: str = "<bytes>", encoding: str | None = None) -> tuple[str, str]:
    """Decode a listing file's bytes; return ``(text, encoding)`` with line ends normalised to ``\\n``.

    Rules, in order (issue 4; design §2). Bytes are never replaced, ignored or dropped:

    1. ``encoding`` given (a per-file override): strict decode with it.
    2. A BOM decides: UTF-8, UTF-16 LE/BE, UTF-32 LE/BE (strict; the BOM is removed).
    3. No BOM: strict UTF-8 (pure ASCII is UTF-8).
    4. Not UTF-8: if the file has more well-formed multi-byte UTF-8 sequences than it has invalid bytes, it is
       damaged UTF-8 and is rejected at the first bad byte (decoding it as cp1252 would turn every other
       character into mojibake).
    5. Otherwise charset-normalizer (a well-kept detector) ranks the candidate codecs by mess and coherence.
       GB18030 is used only when it ranks a GB codec first: strict GB18030 decodes almost any byte string
       (a cp1252 ``’s`` is a valid GBK pair), so "GB18030 decodes" is never evidence on its own. Other codecs
       (cp1252, cp1251, Shift-JIS, EUC-KR, Big5, ...) are accepted when their mess is at most MAX_CHAOS; ties
       among Western single-byte codecs go to cp1252. No acceptable candidate: rejected.
    6. A NUL character in the decoded text (UTF-16 without BOM, or a binary file) is rejected.

    Line ends: CRLF, lone CR and LF become ``\\n``.

    Raises:
        ListingDecodeError: undecodable bytes; ``offset`` is the 0-based byte offset of the first bad byte
            (for rule 5 rejections, of the first byte that is not valid UTF-8), ``reason`` says which rule.
    """
    if encoding:
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError) as e:
            offset = e.start if isinstance(e, UnicodeDecodeError) else -1
            raise ListingDecodeError(path, offset, f"invalid {encoding} (per-file override): {e}") from None
        return _checked(text, path, encoding), encoding
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(codec)
            except UnicodeDecodeError as e:
                raise ListingDecodeError(path, len(bom) + e.start, f"invalid {codec} after its BOM: {e.reason}") from None
            return _checked(text, path, codec, len(bom)), codec
    try:
        return _checked(data.decode("utf-8"), path, "utf-8"), "utf-8"
    except UnicodeDecodeError as e:
        first_bad, utf8_reason = e.start, e.reason
    n_valid = len(_UTF8_MULTIBYTE.findall(data))
    n_invalid = _count_invalid_utf8(data)
    if n_valid > n_invalid:
        raise ListingDecodeError(
            path, first_bad,
            f"damaged UTF-8: {utf8_reason} at byte {first_bad} ({n_invalid} invalid byte(s) among {n_valid} valid "
            f"multi-byte UTF-8 characters)")
    codec = _detect_codec(data)
    if codec is None:
        raise ListingDecodeError(
            path, first_bad,
            f"not UTF-8 ({utf8_reason} at byte {first_bad}) and no encoding fits (charset-normalizer found no "
            f"candidate with mess <= {MAX_CHAOS})")
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:  # detector and strict codec disagree: never decode with errors ignored
        raise ListingDecodeError(path, e.start, f"detected {codec} but invalid {codec}: {e.reason}") from None
    return _checked(text, path, codec), codec


def _count_invalid_utf8(data: bytes) -> int:
    """Number of bytes that UTF-8 decoding would replace (counted with the replace handler, never kept)."""
    return data.decode("utf-8", errors="replace").count("\ufffd") - data.count("\ufffd".encode())


def _detect_codec(data: bytes) -> str | None:
    """The codec for a non-UTF-8 file without BOM, or ``None`` (rule 5 of :func:`decode_listing`).

    charset-normalizer's ranking, with two corrections measured on short listings (tests/test_parsing.py):
    a candidate in which it recognises a language (coherence > 0) beats one in which it does not (KOI8-R
    Russian was otherwise ranked as cp932 half-width katakana), and a Western single-byte winner becomes cp1252
    when cp1252 decodes the file with at most WESTERN_TIE more mess (cp1257/cp1250 winners turn ``naïve``/``façade`` into
    ``naļve``/``faēade``).
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
    """CRLF and lone CR become LF (issue 4: CRLF, CR and LF line ends). U+2028/U+2029/NEL are not line ends
    here (a listing's paragraphs are split at blank lines only); :func:`sanitise_line` makes them spaces."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def sanitise_line(line: str) -> str:
    """One decoded line as stored in ``abstract_raw``: invisible characters removed, spaces made ASCII.

    Removed: Unicode categories Cc (controls, incl. NUL, ``\\r``), Cf (zero-width space/joiners, BOM, soft
    hyphen, bidi marks) and Cs; a tab and every Unicode space (NBSP, ideographic space, thin spaces) become an
    ASCII space. Nothing else changes. Why: no stored field may hold control or zero-width characters (issue 4;
    case05 "none of those characters in stored text"), and URL offsets into ``abstract_raw`` must address a URL
    without a zero-width space inside it (case05's ``transformer\u200b-xs``).
    """
    from pipeline.cleaning import _invisible_patterns

    if line.isascii() and line.isprintable():
        return line
    drop, space = _invisible_patterns()
    return drop.sub("", space.sub(" ", line))


def canonical_venue(token: str) -> str | None:
    """Canonical spelling of a known venue (case-insensitive, ``nips`` -> ``NeurIPS``), else ``None``."""
    return KNOWN_VENUES.get(token.strip().lower())


def parse_header(line: str) -> tuple[str, int] | None:
    """``(venue, year)`` when ``line`` is a listing header such as ``ICML 2026 论文列表``, else ``None``.

    A header is at most HEADER_MAX_CHARS characters, starts with a venue token and a 4-digit year, and does not
    end like a sentence of prose (``.`` after more than five words). ``venue`` is returned as written (see
    :func:`canonical_venue`); the year is not range-checked here.
    """
    stripped = line.strip().lstrip("\ufeff")
    if not stripped or len(stripped) > HEADER_MAX_CHARS:
        return None
    m = HEADER_RE.match(stripped)
    if not m or not m["venue"]:
        return None
    if stripped.endswith(".") and len(stripped.split()) > 5:
        return None
    return m["venue"], int(m["year"])


def venue_year_from_filename(name: str) -> tuple[str, int] | None:
    """``(venue, year)`` from a ``<venue>_<year>`` file name, else ``None``."""
    m = FILENAME_RE.match(Path(name).name)
    if not m or not m["venue"]:
        return None
    return m["venue"], int(m["year"])


def split_paragraphs(text: str, first_line: int = 1) -> list[Paragraph]:
    """Split decoded text (``\\n`` line ends) into paragraphs at blank (whitespace-only) lines.

    ``first_line`` is the file line number of ``text``'s first line. Paragraph numbers start at 1; each
    paragraph's text is its lines joined by ``\\n``, otherwise exactly as in the file (``abstract_raw``).
    A line of Unicode spaces only (NBSP, ideographic space, zero-width space) counts as blank.
    """
    paragraphs: list[Paragraph] = []
    current: list[str] = []
    start = 0
    for offset, line in enumerate(text.split("\n")):
        if _is_blank(line):
            if current:
                paragraphs.append(Paragraph(len(paragraphs) + 1, start, "\n".join(current)))
                current = []
        else:
            if not current:
                start = first_line + offset
            current.append(line)
    if current:
        paragraphs.append(Paragraph(len(paragraphs) + 1, start, "\n".join(current)))
    return paragraphs


_INVISIBLE_OR_SPACE = re.compile("[\\s\u200b\u200c\u200d\u2060\ufeff\u00ad]*")


def _is_blank(line: str) -> bool:
    return not line or line.isspace() or _INVISIBLE_OR_SPACE.fullmatch(line) is not None


def parse_listing(data: bytes, name: str, today: _dt.date | None = None, encoding: str | None = None) -> Listing:
    """Decode and split one listing file (design §2).

    Args:
        data: the file's bytes.
        name: the file's path relative to the raw folder (used in errors and as ``Listing.name``).
        today: the date used for the year's upper bound (current year + 1); defaults to today.
        encoding: optional per-file codec override (skips detection; still strict).

    Returns:
        a :class:`Listing`. The header is the first non-blank line when :func:`parse_header` accepts it; it is
        consumed and is never a paragraph. Venue/year: from the header, else from a ``<venue>_<year>`` file
        name, else ``"unknown"``/``0``. An unknown venue token gives ``venue="unknown"`` (the year is kept), a
        year outside MIN_YEAR..(today's year + 1) gives ``year=0``; each case adds a warning. Decoding with a
        detected codec other than UTF-8/UTF-16/UTF-32/GB18030 adds a warning naming it.

    Raises:
        ListingDecodeError: undecodable bytes (see :func:`decode_listing`); the pipeline quarantines the whole
            file with ``reason`` and ``offset`` and carries on.
    """
    sha = hashlib.sha256(data).hexdigest()
    text, codec = decode_listing(data, name, encoding)
    warnings: list[str] = []
    if codec not in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "gb18030") and not encoding:
        warnings.append(f"{name}: not UTF-8; decoded as {codec} (detected by charset-normalizer)")
    lines = [sanitise_line(line) for line in text.split("\n")]
    header, venue_token, year, body_start = None, None, UNKNOWN_YEAR, 0
    first = next((i for i, line in enumerate(lines) if not _is_blank(line)), None)
    if first is not None and (parsed := parse_header(lines[first])):
        header, (venue_token, year), body_start = lines[first].strip().lstrip("\ufeff"), parsed, first + 1
    elif parsed := venue_year_from_filename(name):
        venue_token, year = parsed
        warnings.append(f"{name}: no header line; venue {venue_token!r} and year {year} taken from the file name")
    else:
        warnings.append(f"{name}: no header line '<VENUE> <YEAR> ...' and no <venue>_<year> file name; "
                        f"venue={UNKNOWN_VENUE!r}, year={UNKNOWN_YEAR}")
    venue = UNKNOWN_VENUE
    if venue_token is not None:
        venue = canonical_venue(venue_token) or UNKNOWN_VENUE
        if venue == UNKNOWN_VENUE:
            warnings.append(f"{name}: unknown venue {venue_token!r} (not in parsing.KNOWN_VENUES); venue={UNKNOWN_VENUE!r}")
    max_year = (today or _dt.date.today()).year + 1
    if year != UNKNOWN_YEAR and not MIN_YEAR <= year <= max_year:
        warnings.append(f"{name}: year {year} outside {MIN_YEAR}..{max_year}; year={UNKNOWN_YEAR}")
        year = UNKNOWN_YEAR
    body = "\n".join(lines[body_start:])
    paragraphs = split_paragraphs(body, body_start + 1)
    if not paragraphs:
        warnings.append(f"{name}: no abstracts ({'only a header line' if header else 'empty file'}); "
                        "nothing from this listing is published")
    return Listing(name, sha, codec, venue, year, header, paragraphs, warnings)
