"""Grounded answers: prompt with numbered sources, call a model (or extract
sentences offline), then check every citation against its source.

``Pipeline(index, llm=make_llm(...)).answer(question)`` → ``Answer``.
"""

from citerag.generation.answer import (
    Answer,
    AnswerMode,
    CitationReport,
    CitationSupport,
    CutSource,
    Flag,
    FlagKind,
    SentenceCheck,
    Source,
    Timings,
)
from citerag.generation.citations import CheckConfig, check_citations
from citerag.generation.language import Language, detect_language
from citerag.generation.llm import LLMClient, Message, make_llm
from citerag.generation.pipeline import AnswerStream, Pipeline, PipelineConfig
from citerag.generation.prompt import Prompt, build_prompt
from citerag.generation.template import PromptTemplate

__all__ = [
    "Answer",
    "AnswerMode",
    "AnswerStream",
    "CheckConfig",
    "CitationReport",
    "CitationSupport",
    "CutSource",
    "Flag",
    "FlagKind",
    "LLMClient",
    "Language",
    "Message",
    "Pipeline",
    "PipelineConfig",
    "Prompt",
    "PromptTemplate",
    "SentenceCheck",
    "Source",
    "Timings",
    "build_prompt",
    "check_citations",
    "detect_language",
    "make_llm",
]
