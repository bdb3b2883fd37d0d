"""The prompt: numbered, fenced sources under a context budget, then the template."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from citerag.errors import InvalidInput
from citerag.generation.answer import CutSource, Source
from citerag.generation.language import Language
from citerag.generation.llm import Message
from citerag.generation.safety import neutralise_fences, scan
from citerag.generation.template import NOT_FOUND_TEXT, PromptTemplate
from citerag.generation.tokens import EstimateCounter, TokenCounter
from citerag.types import Hit

DEFAULT_CONTEXT_TOKENS = 3000


@dataclass(frozen=True, slots=True)
class Prompt:
    messages: tuple[Message, ...]
    sources: tuple[Source, ...]  # what the model sees, numbered 1..n in rank order
    cut: tuple[CutSource, ...]  # retrieved but left out by the budget
    tokens: int  # size of the whole prompt by ``counter``
    counter: str  # how ``tokens`` was counted
    language: Language


def source_from_hit(hit: Hit, number: int) -> Source:
    meta = hit.chunk.metadata
    page = meta.get("page")
    text = hit.chunk.text
    prefix = str(meta.get("prefix") or "")
    if prefix and text.startswith(prefix):
        text = text[len(prefix) :]  # the heading path, already in the source's label
    return Source(
        number=number,
        chunk_id=hit.chunk.id,
        doc_id=hit.chunk.doc_id,
        source=str(meta.get("source", "")),
        title=str(meta.get("title", "")),
        headings=tuple(str(h) for h in (meta.get("headings") or ())),
        page=_page_number(page),
        score=float(hit.score),
        text=text,
        injection=tuple(dict.fromkeys(m.kind.value for m in scan(text))),
    )


def _page_number(value: object) -> int | None:
    """Loaders store pages as ints; JSON round trips may give "3" or 3.0."""
    try:
        return int(float(str(value))) if value not in (None, "") else None
    except ValueError:
        return None


def render_source(source: Source, text: str | None = None) -> str:
    """One fenced, labelled source block; fence-like tags inside are made inert."""
    attrs = [f'id="{source.number}"', f'title="{escape(source.label)}"']
    if source.source:
        attrs.append(f'file="{escape(source.source)}"')
    if source.page is not None:
        attrs.append(f'page="{source.page}"')
    body = neutralise_fences(source.text if text is None else text).strip()
    return f"<source {' '.join(attrs)}>\n{body}\n</source>"


def build_prompt(
    question: str,
    hits: Sequence[Hit],
    *,
    language: Language,
    template: PromptTemplate | None = None,
    context_tokens: int = DEFAULT_CONTEXT_TOKENS,
    counter: TokenCounter | None = None,
) -> Prompt:
    """Number the hits, keep as many as fit ``context_tokens`` (whole prompt), render.

    Sources are taken in rank order; the first one that does not fit ends the
    list (a smaller, lower-ranked chunk is not slipped in after a cut, so the
    numbering keeps following relevance). The top source is shortened rather
    than dropped when it alone is over the budget.
    """
    template = template or PromptTemplate.builtin(language)
    counter = counter or EstimateCounter()
    not_found = NOT_FOUND_TEXT[language]

    def render(blocks: list[str]) -> tuple[Message, ...]:
        return template.render(
            question=question, sources="\n\n".join(blocks), not_found=not_found, n_sources=len(blocks)
        )

    def size(messages: tuple[Message, ...]) -> int:
        return sum(counter.count(m.content) for m in messages)

    overhead = size(render([]))
    if overhead >= context_tokens:
        raise InvalidInput(
            f"the prompt without sources already takes ~{overhead} tokens, over the context budget "
            f"of {context_tokens}; raise --context-tokens or shorten the template/question"
        )
    sources: list[Source] = []
    blocks: list[str] = []
    cut: list[CutSource] = []
    used = overhead
    for hit in hits:
        source = source_from_hit(hit, len(sources) + 1)
        block = render_source(source)
        cost = counter.count(block) + 1
        if cut or used + cost > context_tokens:
            if not sources:  # shorten the best source instead of sending none
                block, cost = _shorten(source, context_tokens - used, counter)
                if block:
                    sources.append(source)
                    blocks.append(block)
                    used += cost
                    continue
            cut.append(
                CutSource(
                    chunk_id=hit.chunk.id,
                    source=source.source,
                    title=source.title,
                    score=float(hit.score),
                    reason="context_budget",
                    tokens=cost,
                )
            )
            continue
        sources.append(source)
        blocks.append(block)
        used += cost
    messages = render(blocks)
    return Prompt(
        messages=messages,
        sources=tuple(sources),
        cut=tuple(cut),
        tokens=size(messages),
        counter=counter.name,
        language=language,
    )


def _shorten(source: Source, room: int, counter: TokenCounter) -> tuple[str, int]:
    """The longest word-boundary prefix of the source text whose block fits ``room`` tokens."""
    words = source.text.split(" ")
    lo, hi = 0, len(words)
    best = ("", 0)
    while lo < hi:  # binary search on the number of words kept
        mid = (lo + hi + 1) // 2
        block = render_source(source, " ".join(words[:mid]) + " …")
        cost = counter.count(block) + 1
        if cost <= room:
            best, lo = (block, cost), mid
        else:
            hi = mid - 1
    return best
