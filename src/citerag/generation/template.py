"""Prompt templates: the shipped Russian and English ones, or a user's file.

A template file has a ``[system]`` and a ``[user]`` section (a file without
sections is one user message) and ``string.Template`` placeholders:
``$question``, ``$sources``, ``$not_found``, ``$n_sources``. ``$`` placeholders,
unlike ``{}``, leave JSON examples and braces in a user's template alone.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from importlib import resources
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from citerag.errors import InvalidInput
from citerag.generation.language import Language
from citerag.generation.llm import Message

REQUIRED = ("question", "sources")
KNOWN = ("question", "sources", "not_found", "n_sources")
_SECTION = re.compile(r"^\[(system|user)\]\s*$", re.MULTILINE)

NOT_FOUND_TEXT: Mapping[Language, str] = MappingProxyType(
    {
        Language.RU: "В документах нет ответа на этот вопрос.",
        Language.EN: "The documents do not contain an answer to this question.",
    }
)


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    system: str
    user: str
    name: str = "custom"

    def __post_init__(self) -> None:
        used = set()
        for part in (self.system, self.user):
            for match in string.Template.pattern.finditer(part):
                name = match.group("named") or match.group("braced")
                if name:
                    used.add(name)
                elif match.group("invalid") is not None:
                    raise InvalidInput(
                        f"template {self.name}: stray '$' at offset {match.start()}; write $$ for a dollar sign"
                    )
        unknown = sorted(used - set(KNOWN))
        if unknown:
            raise InvalidInput(
                f"template {self.name}: unknown placeholder(s) {', '.join('$' + u for u in unknown)}; "
                f"known: {', '.join('$' + k for k in KNOWN)}"
            )
        missing = [r for r in REQUIRED if r not in used]
        if missing:
            raise InvalidInput(
                f"template {self.name} lacks {', '.join('$' + m for m in missing)}: "
                "the model would never see the sources or the question"
            )

    @classmethod
    def parse(cls, text: str, name: str = "custom") -> "PromptTemplate":
        parts = _SECTION.split(text)
        if len(parts) == 1:
            return cls(system="", user=text.strip(), name=name)
        sections = {"system": "", "user": ""}
        for key, body in zip(parts[1::2], parts[2::2]):
            sections[key] = body.strip()
        return cls(system=sections["system"], user=sections["user"], name=name)

    @classmethod
    def from_file(cls, path: str | Path) -> "PromptTemplate":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInput(f"cannot read prompt template {path}: {exc}") from exc
        return cls.parse(text, name=str(path))

    @classmethod
    def builtin(cls, language: Language) -> "PromptTemplate":
        ref = resources.files("citerag.generation").joinpath("templates", f"{language.value}.txt")
        return cls.parse(ref.read_text(encoding="utf-8"), name=f"builtin:{language.value}")

    def render(self, *, question: str, sources: str, not_found: str, n_sources: int) -> tuple[Message, ...]:
        values = {
            "question": question,
            "sources": sources,
            "not_found": not_found,
            "n_sources": str(n_sources),
        }
        messages = []
        if self.system:
            messages.append(Message("system", string.Template(self.system).substitute(values)))
        messages.append(Message("user", string.Template(self.user).substitute(values)))
        return tuple(messages)
