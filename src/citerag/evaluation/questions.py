"""Ask a language model for questions that a chunk answers (a labelled test set).

For each chunk long enough to hold a fact, the model returns 1..N questions
as JSON that follows a pydantic schema (sent as the server's JSON-schema
``response_format``; replies are validated either way and re-asked when
invalid). Questions are in the chunk's language, use its names and terms and
never refer to "the text" -- a user asking the system has no text in front of
them. Too-short, self-referring and duplicate questions are dropped.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, ValidationError
from rapidfuzz import fuzz, process

from citerag.choices import Choice
from citerag.generation.llm.base import LLMClient, Message
from citerag.generation.llm.errors import LLMMalformedReply
from citerag.types import Chunk


class QuestionList(BaseModel):
    """The reply the model must give."""

    model_config = ConfigDict(extra="forbid")
    questions: list[str]


class QuestionKind(Choice):
    ANSWERABLE = "answerable"  # the chunk answers it: labelled with the chunk id
    UNANSWERABLE = "unanswerable"  # on the chunk's subject, but the chunk does not answer it

    @classmethod
    def kind(cls) -> str:
        return "question kind"


@dataclass(frozen=True)
class QuestionSettings:
    """How questions are generated and filtered."""

    kind: QuestionKind = QuestionKind.ANSWERABLE
    per_chunk: int = 2  # ask for at most this many questions per chunk
    min_chunk_chars: int = 200  # shorter chunks rarely hold a fact worth a question
    min_question_chars: int = 15
    max_attempts: int = 3  # how often an invalid reply is re-asked
    temperature: float = 0.0  # with the seeded chunk sample, makes runs repeatable
    seed: int = 0
    limit: int | None = None  # use at most this many chunks (a seeded sample)
    duplicate_similarity: float = 90.0  # rapidfuzz token-sort ratio at which two questions are one


# Phrases that refer to a text the user would not have: "в тексте", "the passage"...
_SELF_REFERENCE = re.compile(
    r"(?<!\w)(?:"
    r"(?:в|из|по|согласно|об?)\s+(?:данн\w+\s+|это\w*\s+|приведенн\w+\s+|приведённ\w+\s+)?"
    r"(?:текст\w*|фрагмент\w*|отрывк\w*|отрывок|абзац\w*|документ\w*|стать[еиюя]\w*)"
    r"|(?:this|the|that|given|above)\s+(?:text|passage|excerpt|paragraph|document|article|fragment|context)"
    r"|according to the"
    r")(?!\w)",
    re.IGNORECASE,
)
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LETTER = re.compile(r"[^\W\d_]")
_NON_WORD = re.compile(r"[\W_]+")


def chunk_language(text: str) -> str:
    """``"ru"`` when at least a third of the letters are Cyrillic, else ``"en"``."""
    letters = len(_LETTER.findall(text))
    return "ru" if letters and len(_CYRILLIC.findall(text)) * 3 >= letters else "en"


_SYSTEM = {
    "ru": "Ты составляешь вопросы для проверки поисковой системы. Пиши по-русски.",
    "en": "You write questions to test a search system. Write in English.",
}
_TASK = {
    (QuestionKind.ANSWERABLE, "ru"): "Составь от 1 до {n} вопросов, на которые отвечает фрагмент ниже. Требования:\n"
    "- на каждый вопрос фрагмент даёт точный ответ;\n",
    (QuestionKind.ANSWERABLE, "en"): "Write 1 to {n} questions that the passage below answers. Rules:\n"
    "- the passage gives an exact answer to each question;\n",
    (QuestionKind.UNANSWERABLE, "ru"): "Составь от 1 до {n} вопросов на ту же тему, что и фрагмент ниже, "
    "на которые фрагмент НЕ отвечает. Требования:\n"
    "- вопрос правдоподобен для такой коллекции документов, но ответа на него во фрагменте нет;\n"
    "- ответ не следует из фрагмента и не является общеизвестным фактом;\n",
    (QuestionKind.UNANSWERABLE, "en"): "Write 1 to {n} questions on the subject of the passage below "
    "that the passage does NOT answer. Rules:\n"
    "- the question is plausible for such a document collection, but the passage holds no answer;\n"
    "- the answer does not follow from the passage and is not common knowledge;\n",
}
_RULES = {
    "ru": "- используй имена, названия и термины из фрагмента;\n"
    "- вопрос должен быть понятен без фрагмента: не пиши «в тексте», «в статье», "
    "«в этом фрагменте» и т. п.;\n"
    "- вопросы не повторяют друг друга.\n"
    'Ответь только JSON вида {{"questions": ["...", "..."]}}.\n\nФрагмент:\n{text}',
    "en": "- use the names and terms of the passage;\n"
    "- each question must make sense on its own: never say 'the text', "
    "'the passage', 'this article' or similar;\n"
    "- no two questions ask the same thing.\n"
    'Reply with JSON only: {{"questions": ["...", "..."]}}.\n\nPassage:\n{text}',
}


def question_messages(chunk: Chunk, n: int, kind: QuestionKind = QuestionKind.ANSWERABLE) -> list[Message]:
    language = chunk_language(chunk.text)
    user = (_TASK[(kind, language)] + _RULES[language]).format(n=n, text=chunk.text.strip())
    return [Message("system", _SYSTEM[language]), Message("user", user)]


def parse_questions(reply: str) -> list[str]:
    """The questions of a JSON reply; raises LLMMalformedReply when it does not fit the schema."""
    text = reply.strip()
    # Servers without structured output often wrap JSON in a Markdown fence.
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, flags=re.DOTALL)
    if fenced:
        text = fenced.group(1)
    try:
        return [q.strip() for q in QuestionList.model_validate_json(text).questions]
    except ValidationError as e:
        raise LLMMalformedReply(f"reply does not match the question schema: {text[:200]!r}") from e


def ask_questions(llm: LLMClient, chunk: Chunk, settings: QuestionSettings) -> list[str]:
    """Ask for questions about one chunk, re-asking when the reply is not valid JSON."""
    messages = question_messages(chunk, settings.per_chunk, settings.kind)
    schema = QuestionList.model_json_schema()
    error: LLMMalformedReply | None = None
    for _ in range(max(1, settings.max_attempts)):
        reply = llm.chat(messages, temperature=settings.temperature, json_schema=schema)
        try:
            return parse_questions(reply)[: settings.per_chunk]
        except LLMMalformedReply as e:
            error = e
            messages = [
                *messages,
                Message("assistant", reply),
                Message("user", 'Reply with JSON only, exactly {"questions": ["..."]}.'),
            ]
    assert error is not None
    raise error


def normalise_question(question: str) -> str:
    """The comparison key of a question: case, ё and punctuation do not matter."""
    return " ".join(_NON_WORD.sub(" ", question.casefold().replace("ё", "е")).split())


@dataclass(frozen=True)
class FilterCounts:
    kept: int = 0
    too_short: int = 0
    self_reference: int = 0
    duplicate: int = 0

    def __add__(self, other: "FilterCounts") -> "FilterCounts":
        return FilterCounts(
            self.kept + other.kept,
            self.too_short + other.too_short,
            self.self_reference + other.self_reference,
            self.duplicate + other.duplicate,
        )


def filter_questions(
    questions: Iterable[str], seen: Sequence[str], settings: QuestionSettings
) -> tuple[list[str], FilterCounts]:
    """Drop short, self-referring and duplicate questions.

    ``seen`` holds the normalised keys of questions already kept (earlier
    chunks, or an earlier run that is being resumed); it is not modified.
    """
    keys = list(seen)
    kept: list[str] = []
    short = selfref = dup = 0
    for question in questions:
        key = normalise_question(question)
        if len(key) < settings.min_question_chars:
            short += 1
        elif _SELF_REFERENCE.search(question):
            selfref += 1
        elif key in keys or (
            keys
            and process.extractOne(
                key, keys, scorer=fuzz.token_sort_ratio, score_cutoff=settings.duplicate_similarity
            )
        ):
            dup += 1
        else:
            keys.append(key)
            kept.append(question)
    return kept, FilterCounts(len(kept), short, selfref, dup)


def select_chunks(chunks: Sequence[Chunk], settings: QuestionSettings) -> list[Chunk]:
    """Chunks long enough to ask about; a seeded sample of ``limit`` of them if given.

    The sample keeps index order, so a resumed run walks the same chunks.
    """
    eligible = [c for c in chunks if len(c.text.strip()) >= settings.min_chunk_chars]
    if settings.limit is not None and settings.limit < len(eligible):
        picked = set(random.Random(settings.seed).sample(range(len(eligible)), settings.limit))
        eligible = [c for i, c in enumerate(eligible) if i in picked]
    return eligible
