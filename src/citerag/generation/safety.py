"""Text in a document that addresses the model instead of the reader.

Retrieved chunks are data. A chunk that says "ignore previous instructions",
carries chat role markers or pretends to be a system prompt may be an
injection attempt (or a document *about* injections): either way the user
should know, so such chunks are flagged, never silently obeyed or dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class InjectionKind(str, Enum):
    OVERRIDE = "override_instructions"  # "ignore previous instructions"
    ROLE_MARKER = "role_marker"  # "system:", "<|im_start|>", "[INST]"
    FAKE_SYSTEM = "fake_system_prompt"  # "you are now ...", "new instructions:"
    FENCE_BREAK = "fence_break"  # tries to close the source fence of the prompt


@dataclass(frozen=True, slots=True)
class InjectionMatch:
    kind: InjectionKind
    text: str  # the matched words, as in the document
    start: int  # character offset in the chunk text

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind.value, "text": self.text, "start": self.start}


_I = re.IGNORECASE | re.UNICODE
_PATTERNS: tuple[tuple[InjectionKind, re.Pattern[str]], ...] = (
    (
        InjectionKind.OVERRIDE,
        re.compile(
            r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
            r"(?:previous|prior|above|earlier|preceding|system|original)?\s*"
            r"(?:instructions?|prompts?|rules|directions|guidelines|context)\b",
            _I,
        ),
    ),
    (
        InjectionKind.OVERRIDE,
        re.compile(
            r"(?<!\w)(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|отбрось(?:те)?|"
            r"не\s+обращай(?:те)?\s+внимания\s+на)\s+(?:все\s+|всё\s+)?"
            r"(?:предыдущ\w*|прежн\w*|вышеуказанн\w*|системн\w*|данн\w*|свои|твои|ваши)?\s*"
            r"(?:инструкци\w*|указани\w*|правил\w*|команд\w*|промпт\w*|запрет\w*)",
            _I,
        ),
    ),
    (
        InjectionKind.ROLE_MARKER,
        re.compile(
            r"<\|(?:im_start|im_end|system|user|assistant|eot_id|start_header_id|end_header_id)\|>"
            r"|\[/?INST\]|<</?SYS>>|^\s*(?:#{1,3}\s*)?(?:system|assistant|developer|"
            r"ассистент)\s*:",
            _I | re.MULTILINE,
        ),
    ),
    (
        InjectionKind.FAKE_SYSTEM,
        re.compile(
            r"\b(?:you\s+are\s+now|from\s+now\s+on\s+you|new\s+instructions?\s*:|system\s+prompt\s*:|"
            r"as\s+an\s+ai\s+(?:language\s+)?model\s+you\s+must)"
            r"|(?<!\w)(?:ты\s+теперь|теперь\s+ты|отныне\s+ты|новые\s+инструкции\s*:|"
            r"системн\w+\s+(?:промпт|подсказк\w+|инструкци\w+)\s*:)",
            _I,
        ),
    ),
    (InjectionKind.FENCE_BREAK, re.compile(r"</?\s*source\b[^>]*>|</?\s*documents?\s*>", _I)),
)


def scan(text: str) -> list[InjectionMatch]:
    """Every suspicious passage of ``text``, in order of position."""
    found = [
        InjectionMatch(kind, m.group(0).strip(), m.start())
        for kind, pattern in _PATTERNS
        for m in pattern.finditer(text)
    ]
    return sorted(found, key=lambda m: m.start)


def neutralise_fences(text: str) -> str:
    """Make fence-like tags inert so a chunk cannot close its own source block."""
    return _PATTERNS[-1][1].sub(lambda m: m.group(0).replace("<", "‹").replace(">", "›"), text)
