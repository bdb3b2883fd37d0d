"""Question → retrieve → prompt → generate (or extract) → check citations → ``Answer``."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from citerag.errors import EmptyQuery, InvalidInput
from citerag.generation.answer import (
    Answer,
    AnswerMode,
    CitationReport,
    CutSource,
    Flag,
    FlagKind,
    Source,
    Timings,
)
from citerag.generation.citations import CheckConfig, CheckedText, check_citations
from citerag.generation.extractive import extractive_answer
from citerag.generation.language import Language, detect_language
from citerag.generation.llm import LLMClient, Message
from citerag.generation.prompt import DEFAULT_CONTEXT_TOKENS, Prompt, build_prompt
from citerag.generation.safety import scan
from citerag.generation.sentences import strip_citations
from citerag.generation.support import SupportScorer, TermAnalyzer, TextEmbedder
from citerag.generation.template import NOT_FOUND_TEXT, PromptTemplate
from citerag.generation.tokens import TokenizerMode, make_counter
from citerag.types import Hit


class Retriever(Protocol):
    def search(self, query: str, k: int = 10, **options: Any) -> list[Hit]: ...


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """Every knob of the answer pipeline, with the defaults the CLI uses."""

    k: int = 5  # chunks retrieved
    min_score: float | None = None  # hits scoring below this are not used; none left → not found
    context_tokens: int = DEFAULT_CONTEXT_TOKENS  # budget for the whole prompt
    max_answer_tokens: int | None = 800
    temperature: float = 0.0
    extractive_sentences: int = 3
    # Offline only: the best sentence must hold this share of the question's content lemmas,
    # and at least this many of them, else "not found". Calibrated on XQuAD questions asked
    # of their own corpus vs. of unrelated ones (91-93 % answered vs. 1.3-8.7 %; docs/ask.md).
    extractive_min_overlap: float = 1 / 3
    extractive_min_terms: int = 2
    tokenizer: TokenizerMode = TokenizerMode.ESTIMATE
    language: Language | None = None  # None: from the question's script
    check: CheckConfig = field(default_factory=CheckConfig)

    def __post_init__(self) -> None:
        if self.language is not None:
            object.__setattr__(self, "language", Language.parse(self.language))
        object.__setattr__(self, "tokenizer", TokenizerMode(self.tokenizer))
        if self.k < 1:
            raise InvalidInput(f"k must be at least 1, got {self.k}")
        if self.context_tokens < 100:
            raise InvalidInput(f"context_tokens {self.context_tokens} is too small; use at least 100")
        if self.extractive_sentences < 1:
            raise InvalidInput(f"extractive_sentences must be at least 1, got {self.extractive_sentences}")


class AnswerStream:
    """Iterate for the text as it is produced; ``.answer`` is the checked result afterwards.

    Reading ``.answer`` before the end consumes the rest of the stream.
    """

    def __init__(
        self,
        pieces: Iterator[str],
        finish: Callable[[str, float], Answer],
        prompt: tuple[Message, ...] = (),
    ) -> None:
        self.prompt = prompt  # what the model is sent; empty when no model is called
        self._pieces = pieces
        self._finish = finish
        self._parts: list[str] = []
        self._answer: Answer | None = None
        self._started = False

    def __iter__(self) -> Iterator[str]:
        if self._started:
            raise InvalidInput("an answer stream can be iterated only once")
        self._started = True
        t0 = time.perf_counter()
        for piece in self._pieces:
            self._parts.append(piece)
            yield piece
        self._answer = self._finish("".join(self._parts), time.perf_counter() - t0)

    @property
    def answer(self) -> Answer:
        if self._answer is None:
            if self._started:
                raise InvalidInput("the stream was not read to the end")
            for _ in self:
                pass
        assert self._answer is not None
        return self._answer


@dataclass(frozen=True, slots=True)
class _Prepared:
    question: str
    language: Language
    prompt: Prompt | None  # None: not found before prompting
    below: tuple[CutSource, ...]
    retrieve_s: float
    prompt_s: float


class Pipeline:
    """Grounded answers from ``index`` (anything with ``search(query, k)``).

    ``llm=None`` answers extractively. ``analyzer`` defaults to the index's
    (``index.analyzer``); ``embedder`` (default: the index's, when it has
    vectors) adds embedding similarity to sentence selection and citation
    support. ``search_options`` go to ``index.search`` as keywords (e.g.
    ``retriever="bm25"``, ``filters=[...]``). Construction is cheap: nothing
    loads until the first question.
    """

    def __init__(
        self,
        index: Retriever,
        llm: LLMClient | None = None,
        *,
        config: PipelineConfig | None = None,
        template: PromptTemplate | str | Path | None = None,
        analyzer: TermAnalyzer | None = None,
        embedder: TextEmbedder | None = None,
        search_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.index = index
        self.llm = llm
        self.config = config or PipelineConfig()
        if isinstance(template, (str, Path)):
            template = PromptTemplate.from_file(template)
        self.template = template
        self._analyzer = analyzer
        self._embedder = embedder
        self._search_options = dict(search_options or {})
        self._scorer: SupportScorer | None = None

    # -- public --------------------------------------------------------
    def answer(self, question: str) -> Answer:
        return self.stream(question).answer

    def stream(self, question: str) -> AnswerStream:
        """Retrieve and prompt now; generate as the stream is read."""
        prep = self._prepare(question)
        if prep.prompt is None or not prep.prompt.sources:
            text = NOT_FOUND_TEXT[prep.language]
            return AnswerStream(iter([text]), lambda t, s: self._not_found(prep, s))
        prompt = prep.prompt
        if self.llm is None:
            return self._extractive(prep)
        pieces = self.llm.stream(
            prompt.messages,
            temperature=self.config.temperature,
            max_tokens=self.config.max_answer_tokens,
        )
        return AnswerStream(pieces, lambda t, s: self._finish(prep, t, s, AnswerMode.LLM), prompt.messages)

    def _extractive(self, prep: _Prepared) -> AnswerStream:
        assert prep.prompt is not None
        found: list[str] = []

        def pieces() -> Iterator[str]:
            text = extractive_answer(
                prep.question,
                prep.prompt.sources,
                self.scorer,
                max_sentences=self.config.extractive_sentences,
                min_overlap=self.config.extractive_min_overlap,
                min_terms=self.config.extractive_min_terms,
            )
            found.append(text)
            yield text or NOT_FOUND_TEXT[prep.language]

        def finish(text: str, seconds: float) -> Answer:
            if not found[0]:  # no source sentence covers enough of the question
                return self._not_found(prep, seconds, weak=True)
            return self._finish(prep, text, seconds, AnswerMode.EXTRACTIVE)

        return AnswerStream(pieces(), finish)

    @property
    def scorer(self) -> SupportScorer:
        if self._scorer is None:
            analyzer = self._analyzer or getattr(self.index, "analyzer", None)
            if analyzer is None:
                from citerag.text import Analyzer

                analyzer = Analyzer()
            embedder = self._embedder
            dense = getattr(self.index, "dense", None)
            if embedder is None and dense is not None and hasattr(dense, "embedder"):
                embedder = dense.embedder()  # the index has vectors: use the same model
            self._scorer = SupportScorer(analyzer, embedder)
        return self._scorer

    # -- stages --------------------------------------------------------
    def _prepare(self, question: str) -> _Prepared:
        question = " ".join(question.split())
        if not question:
            raise EmptyQuery("the question is empty; ask something, e.g. citerag ask \"Сколько дней отпуска?\"")
        cfg = self.config
        language = cfg.language or detect_language(question)
        t0 = time.perf_counter()
        hits = list(self.index.search(question, k=cfg.k, **self._search_options))
        kept, below = _split_by_score(hits, cfg.min_score)
        t1 = time.perf_counter()
        if not kept:
            return _Prepared(question, language, None, below, t1 - t0, 0.0)
        prompt = build_prompt(
            question,
            kept,
            language=language,
            template=self.template,
            context_tokens=cfg.context_tokens,
            counter=make_counter(cfg.tokenizer, self.llm.name if self.llm else None),
        )
        return _Prepared(question, language, prompt, below, t1 - t0, time.perf_counter() - t1)

    def _not_found(self, prep: _Prepared, generate_s: float, weak: bool = False) -> Answer:
        cut = prep.below + (prep.prompt.cut if prep.prompt else ())
        if weak and prep.prompt is not None:  # retrieved, but too far from the question to quote
            cut = prep.below + tuple(
                CutSource(s.chunk_id, s.source, s.title, s.score, "weak_match") for s in prep.prompt.sources
            ) + prep.prompt.cut
        return Answer(
            question=prep.question,
            text=NOT_FOUND_TEXT[prep.language],
            language=prep.language,
            sources=(),
            citations=CitationReport(min_support=self.config.check.min_support),
            not_found=True,
            timings=Timings(retrieve=prep.retrieve_s, prompt=prep.prompt_s, generate=generate_s),
            cut_sources=cut,
            mode=AnswerMode.NOT_FOUND,
            model=None,
            prompt_tokens=0,
        )

    def _finish(self, prep: _Prepared, raw: str, generate_s: float, mode: AnswerMode) -> Answer:
        assert prep.prompt is not None
        t0 = time.perf_counter()
        declined = says_not_found(raw)
        checked = check_citations(
            raw, prep.prompt.sources, self.scorer, self.config.check, flag_uncited=not declined
        )
        if declined:  # the model found nothing: no claim to check, keep the phrase clean
            checked = CheckedText(
                text=strip_citations(checked.text) or NOT_FOUND_TEXT[prep.language],
                sources=checked.sources,
                report=checked.report,
                flags=tuple(f for f in checked.flags if f.kind is FlagKind.INVALID_CITATION),
            )
        flags = checked.flags + injection_flags(checked.sources)
        return Answer(
            question=prep.question,
            text=checked.text,
            language=prep.language,
            sources=checked.sources,
            citations=checked.report,
            not_found=declined,
            flags=flags,
            timings=Timings(
                retrieve=prep.retrieve_s,
                prompt=prep.prompt_s,
                generate=generate_s,
                check=time.perf_counter() - t0,
            ),
            cut_sources=prep.below + prep.prompt.cut,
            mode=mode,
            model=self.llm.name if (self.llm and mode is AnswerMode.LLM) else None,
            raw_text=raw,
            prompt_tokens=prep.prompt.tokens,
            token_counter=prep.prompt.counter,
            prompt=prep.prompt.messages if mode is AnswerMode.LLM else (),
        )


def _split_by_score(hits: Sequence[Hit], min_score: float | None) -> tuple[list[Hit], tuple[CutSource, ...]]:
    if min_score is None:
        return list(hits), ()
    kept = [h for h in hits if h.score >= min_score]
    below = tuple(
        CutSource(
            chunk_id=h.chunk.id,
            source=str(h.chunk.metadata.get("source", "")),
            title=str(h.chunk.metadata.get("title", "")),
            score=float(h.score),
            reason="below_min_score",
        )
        for h in hits
        if h.score < min_score
    )
    return kept, below


_NORM = re.compile(r"[^\w]+", re.UNICODE)


def _norm(text: str) -> str:
    return _NORM.sub(" ", text.lower().replace("ё", "е")).strip()


def says_not_found(text: str) -> bool:
    """True when the reply is (essentially) the template's "no answer" sentence, in either language."""
    reply = _norm(strip_citations(text))
    if not reply:
        return True
    for phrase in NOT_FOUND_TEXT.values():
        target = _norm(phrase)
        if target in reply and len(reply) <= 2 * len(target):
            return True
    return False


def injection_flags(sources: Sequence[Source]) -> tuple[Flag, ...]:
    flags = []
    for source in sources:
        if not source.injection:
            continue
        found = scan(source.text)
        quoted = "; ".join(dict.fromkeys(m.text for m in found))[:200]
        flags.append(
            Flag(
                FlagKind.PROMPT_INJECTION,
                f"source [{source.number}] ({source.label}) contains text aimed at the model: {quoted}",
                source=source.number,
                detail=", ".join(source.injection),
            )
        )
    return tuple(flags)
