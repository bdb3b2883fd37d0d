"""``citerag ask``: an answer with numbered sources and a citation check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.text import Text

from citerag.cli import app
from citerag.cli.options import IndexDirOption, JsonOption
from citerag.cli.render import console, display_source, snippet

if TYPE_CHECKING:  # the generation package loads only when a command runs
    from collections.abc import Sequence

    from citerag.generation import Answer, Message


@app.command("ask")
def ask_command(
    question: str = typer.Argument(..., help="Your question, in Russian or English."),
    index_dir: Path = IndexDirOption,
    k: int = typer.Option(5, "-k", "--top-k", min=1, help="How many chunks to retrieve."),
    llm: str = typer.Option(
        None,
        "--llm",
        help="Model, e.g. openai:gpt-4o-mini or ollama:qwen2.5 (default: $CITERAG_LLM; "
        "none → offline extractive answer).",
    ),
    base_url: str = typer.Option(
        None, "--base-url", help="Model server URL (default: $CITERAG_OPENAI_BASE_URL / $OPENAI_BASE_URL / $OLLAMA_HOST)."
    ),
    retriever: str = typer.Option(
        None, "--retriever", "-r", help="bm25, tfidf, dense or hybrid (default: the index's setting)."
    ),
    min_score: float = typer.Option(
        None, "--min-score", help="Chunks scoring below this are not used; if none is left the answer is 'not found'."
    ),
    context_tokens: int = typer.Option(3000, "--context-tokens", min=100, help="Token budget of the whole prompt."),
    max_tokens: int = typer.Option(800, "--max-tokens", min=1, help="Longest answer the model may write."),
    template: Path = typer.Option(
        None, "--template", exists=True, dir_okay=False, help="Prompt template file replacing the built-in ones."
    ),
    tokenizer: str = typer.Option("estimate", "--tokenizer", help="estimate, tiktoken or auto."),
    timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="Seconds to wait for the model."),
    stream: bool = typer.Option(True, "--stream/--no-stream", help="Print the answer as it is written."),
    show_prompt: bool = typer.Option(False, "--show-prompt", help="Print the messages sent to the model first."),
    as_json: bool = JsonOption,
) -> None:
    r"""Answer a question from the indexed documents, citing them as \[n]."""
    from citerag import Index
    from citerag.generation import Pipeline, PipelineConfig, make_llm
    from citerag.generation.tokens import TokenizerMode

    try:
        mode = TokenizerMode(tokenizer)
    except ValueError:
        raise typer.BadParameter(
            f"{tokenizer!r}; use one of {', '.join(m.value for m in TokenizerMode)}", param_hint="--tokenizer"
        ) from None
    client = make_llm(llm, base_url=base_url, timeout=timeout)
    config = PipelineConfig(
        k=k, min_score=min_score, context_tokens=context_tokens, max_answer_tokens=max_tokens, tokenizer=mode
    )
    options = {"retriever": retriever} if retriever else {}
    pipeline = Pipeline(Index.load(index_dir), client, config=config, template=template, search_options=options)
    out = console()
    if as_json:
        answer = pipeline.answer(question)
        out.print_json(json.dumps(answer.to_json(), ensure_ascii=False))
        return
    result = pipeline.stream(question)
    if show_prompt:
        _print_prompt(out, result.prompt)
    streamed = ""
    if client is not None and stream:
        for piece in result:
            out.print(piece, end="", markup=False, soft_wrap=True)
            streamed += piece
        out.print()
    answer = result.answer
    print_answer(out, answer, streamed, pipeline.scorer.analyzer)


def print_answer(out: Console, answer: Answer, streamed: str = "", analyzer: Any = None) -> None:
    """The answer (unless already streamed as is), then sources, check report and cuts."""
    from citerag.generation import AnswerMode

    if not streamed:
        out.print(answer.text, markup=False, soft_wrap=True)
    elif streamed.strip() != answer.text.strip():
        out.print("\n[bold]Checked answer[/] [dim](citations renumbered, unknown ones removed)[/]")
        out.print(answer.text, markup=False, soft_wrap=True)
    how = {
        AnswerMode.LLM: f"written by {answer.model}",
        AnswerMode.EXTRACTIVE: "extracted from the sources (no model configured: --llm or $CITERAG_LLM)",
        AnswerMode.NOT_FOUND: "nothing relevant was retrieved; no model was called",
    }[answer.mode]
    out.print(f"[dim]{how}[/]")
    _print_sources(out, answer, analyzer)
    _print_check(out, answer)
    if answer.cut_sources:
        out.print(f"\n[bold]Left out[/] ({len(answer.cut_sources)})")
        for cut in answer.cut_sources:
            why = {
                "context_budget": "over the context budget",
                "below_min_score": "below --min-score",
                "weak_match": "no sentence holds a third of the question's words",
            }.get(cut.reason, cut.reason)
            name = display_source(cut.source, cut.chunk_id)
            out.print(f"  [dim]{name} — score {cut.score:.3f} — {why}[/]", markup=True, highlight=False)
    t = answer.timings
    out.print(
        f"\n[dim]retrieve {t.retrieve * 1000:.0f} ms · prompt {t.prompt * 1000:.0f} ms "
        f"(~{answer.prompt_tokens} tokens) · answer {t.generate * 1000:.0f} ms · check {t.check * 1000:.0f} ms[/]"
    )


def _print_sources(out: Console, answer: Answer, analyzer: Any = None) -> None:
    """Cited sources with a snippet where the words of the sentences citing them are bold."""
    if not answer.sources:
        return
    cited = [s for s in answer.sources if s.cited]
    rest = [s for s in answer.sources if not s.cited]
    out.print("\n[bold]Sources[/]")
    for group, dim in ((cited, False), (rest, True)):
        if dim and group:
            out.print("[dim]Also retrieved, not cited:[/]")
        for s in group:
            where = display_source(s.source, s.doc_id)
            head = Text(f"[{s.number}] ", style="bold cyan" if not dim else "dim")
            head.append(where, style="dim" if dim else "")
            if s.headings:
                head.append(" — " + " › ".join(s.headings), style="dim")
            if s.page is not None:
                head.append(f" — p. {s.page}", style="dim")
            head.append(f"  ({s.score:.3f})", style="dim")
            if s.injection:
                head.append("  ⚠ contains text aimed at the model", style="bold red")
            out.print(head)
            if not dim:
                plain = "\n".join(line for line in s.text.splitlines() if not line.startswith("#"))
                body = snippet(plain, _cited_words(answer, s.number, plain, analyzer), width=200)
                body.pad_left(5)
                out.print(body)


def _cited_words(answer: Answer, number: int, text: str, analyzer: Any) -> list[str]:
    """Surface words of ``text`` whose lemmas occur in the sentences that cite ``number``."""
    if analyzer is None or not hasattr(analyzer, "matching_words"):
        return []
    terms = {t for s in answer.citations.sentences if number in s.citations for t in analyzer.analyze(s.text)}
    return list(analyzer.matching_words(text, terms)) if terms else []


def _print_check(out: Console, answer: Answer) -> None:
    report = answer.citations
    if answer.not_found and not answer.flags:
        return
    n = len(report.sentences)
    if n:
        cited = sum(1 for s in report.sentences if s.cited)
        supported = sum(1 for s in report.sentences if s.cited and s.supported)
        style = "green" if report.ok else "yellow"
        out.print(
            f"\n[bold]Citation check[/] [{style}]{cited}/{n} sentences cited, "
            f"{supported}/{cited or 1} supported by what they cite[/]"
        )
    for flag in answer.flags:
        style = "bold red" if flag.kind.value in ("prompt_injection", "invalid_citation") else "yellow"
        out.print(Text("  ⚠ " + flag.message, style=style))


def _print_prompt(out: Console, messages: Sequence[Message]) -> None:
    if not messages:
        out.print("[dim](no prompt: nothing was retrieved or no model is configured)[/]\n")
        return
    for message in messages:
        out.rule(f"[dim]{message.role}[/]")
        out.print(message.content, markup=False, highlight=False, soft_wrap=True)
    out.rule()
