"""Plain text and Markdown files: decoding, titles and the heading outline."""

from __future__ import annotations

import re
from dataclasses import dataclass

import charset_normalizer

from citerag.errors import DocumentError

# How many leading bytes are checked for NUL bytes (a sure sign of binary data).
_SNIFF_BYTES = 8192
# How many characters of each candidate decoding are scored.
_SCORE_CHARS = 20_000
_LEGACY_CODE_PAGES = ("cp1251", "koi8-r", "cp866", "mac_cyrillic", "cp1252")
_FREQUENT_LETTERS = frozenset("оеаинтсрвлetaoinsrhl")

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(={3,}|-{3,})[ \t]*$")
# Lines that cannot be a setext heading's text: lists, dialogue, quotes, tables, code.
_NOT_TITLE = re.compile(r"^(?: {4}|\t|\s*(?:[-*+>|–—]|\d+[.)](?:\s|$)))")


@dataclass(frozen=True)
class Heading:
    """A heading line: its level (1 = top), its text and its line's offsets."""

    level: int
    title: str
    start: int
    end: int

    def to_json(self) -> dict[str, object]:
        return {"level": self.level, "title": self.title, "start": self.start, "end": self.end}


def decode_text(data: bytes) -> str:
    """Bytes of a text file -> text with ``\\n`` line ends.

    UTF-8 is tried first (most files, and cheap); anything else goes through
    charset-normalizer, which recognises e.g. cp1251 and KOI8-R Russian text.
    """
    if not data.strip():
        raise DocumentError("empty file")
    if b"\x00" in data[:_SNIFF_BYTES] and not _is_utf16(data):
        raise DocumentError("binary file (contains NUL bytes), not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = _decode_legacy(data)
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise DocumentError("empty file (only whitespace)")
    return text


def _decode_legacy(data: bytes) -> str:
    """Pick the most plausible decoding of non-UTF-8 bytes.

    charset-normalizer's guess competes with the usual Russian code pages
    (and Western cp1252):
    on short texts it often mistakes cp1251 for another code page, and
    KOI8-R for cp1251. A wrong Cyrillic code page shows as capitals inside
    words or letters of two scripts glued together, which ``_plausibility``
    penalises.
    """
    candidates: list[str] = []
    best = charset_normalizer.from_bytes(data).best()
    if best is not None:
        candidates.append(str(best))
    if not _is_utf16(data):
        for encoding in _LEGACY_CODE_PAGES:
            try:
                candidates.append(data.decode(encoding))
            except UnicodeDecodeError:
                continue
    if not candidates:
        raise DocumentError("undecodable bytes: not UTF-8 and no other text encoding fits")
    scored = [(_plausibility(text), -i, text) for i, text in enumerate(candidates)]
    score, _, text = max(scored)  # of equal scores, the earliest candidate
    if score < 0:
        raise DocumentError("undecodable bytes: no text encoding gives readable text (binary file?)")
    return text


def _plausibility(text: str) -> int:
    score = 0
    previous = ""
    for char in text[:_SCORE_CHARS]:
        if char.isalpha():
            script = _script(char)
            if script == "other":
                score -= 3
            elif previous.isalpha() and (
                _script(previous) != script or (char.isupper() and previous.islower())
            ):
                score -= 3  # "MixedСкрипт" or "вНУТРИ": the signs of a wrong code page
            else:
                score += 2 if char.lower() in _FREQUENT_LETTERS else 1
        elif (not char.isprintable() and char not in "\n\t") or "\u2500" <= char <= "\u25ff":
            score -= 3  # control characters, box drawing
        previous = char
    return score


def _script(char: str) -> str:
    code = ord(char)
    if code < 0x250:
        return "lat"
    if 0x400 <= code < 0x530:
        return "cyr"
    return "other"


def _is_utf16(data: bytes) -> bool:
    return data.startswith((b"\xff\xfe", b"\xfe\xff"))


def markdown_outline(text: str) -> list[Heading]:
    """Markdown headings outside fenced code blocks, in document order.

    ATX (``# Title``) and setext (a lone line underlined with ``===`` or
    ``---``); a setext heading spans both lines.
    """
    headings: list[Heading] = []
    fence: str | None = None
    candidate: tuple[int, str] | None = None  # a lone line an underline would turn into a heading
    previous_blank = True
    pos = 0
    for line in text.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        body = line.rstrip("\n")
        fence_match = _FENCE.match(body)
        if fence_match or fence is not None:
            if fence_match and fence is None:
                fence = fence_match.group(1)[0] * 3
            elif fence_match and fence_match.group(1).startswith(fence or ""):
                fence = None
            candidate, previous_blank = None, False
            continue
        stripped = body.strip()
        heading = _setext(body, candidate, start) or _atx(body, start)
        if heading is not None:
            headings.append(heading)
            candidate = None
        elif stripped and previous_blank and not _NOT_TITLE.match(body):
            candidate = (start, stripped)
        else:
            candidate = None
        previous_blank = not stripped
    return headings


def _atx(body: str, start: int) -> Heading | None:
    if "#" not in body[:4]:
        return None
    match = _ATX.match(body)
    if match and match.group(2):
        return Heading(len(match.group(1)), match.group(2).strip(), start, start + len(body))
    return None


def _setext(body: str, candidate: tuple[int, str] | None, start: int) -> Heading | None:
    if candidate is None or body[:4].strip()[:1] not in ("=", "-"):
        return None
    match = _SETEXT.match(body)
    if not match:
        return None
    level = 1 if match.group(1)[0] == "=" else 2
    return Heading(level, candidate[1], candidate[0], start + len(body))


def first_title(outline: list[Heading]) -> str:
    """The first level-1 heading, else the first heading of any level, else ``""``."""
    for heading in outline:
        if heading.level == 1:
            return heading.title
    return outline[0].title if outline else ""
