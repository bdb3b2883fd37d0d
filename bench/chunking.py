"""Chunking throughput: MB/s of every strategy on a generated Russian+English text.

The text is generated (seeded, so every run cuts the same text): Markdown
with nested headings, paragraphs of Russian and English sentences with
abbreviations ("т.е.", "г.", initials), dialogue exchanges and long lines.

    python bench/chunking.py                  # 4 MB, every strategy
    python bench/chunking.py --mb 8 --size 500
    python bench/chunking.py --no-blank-lines # worst case for sentences
    python bench/chunking.py --json out.json  # also write the figures

MB are megabytes of UTF-8 (Cyrillic letters take two bytes); each timing is
the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from citerag.chunking import Strategy, chunk_stats, make_chunker
from citerag.types import Document

RU_WORDS = (
    "система документ сотрудник отпуск заявление руководитель договор компания доступ пароль "
    "сервер резервная копия данные отдел бухгалтерия командировка расходы отчёт проект срок "
    "инструкция оборудование насос давление температура клапан ремонт проверка журнал смена "
    "быстро медленно всегда иногда обязательно должен может нужно после перед через около"
).split()
EN_WORDS = (
    "system document employee leave request manager contract company access password server "
    "backup copy data department travel expenses report project deadline manual equipment pump "
    "pressure valve repair check log shift quickly always sometimes must should after before"
).split()
RU_EXTRAS = ("т.е.", "т.д.", "г.", "А. С. Пушкин", "в 1999 г.", "см. п. 3", "и т. п.", "«Газпром»")
EN_EXTRAS = ("e.g.", "i.e.", "Dr. Smith", "U.S.", "etc.", "J. R. R. Tolkien", "No. 5")


def sentence(rng: random.Random, russian: bool) -> str:
    words, extras = (RU_WORDS, RU_EXTRAS) if russian else (EN_WORDS, EN_EXTRAS)
    picked = [rng.choice(words) for _ in range(rng.randint(5, 22))]
    if rng.random() < 0.3:
        picked.insert(rng.randrange(len(picked)), rng.choice(extras))
    text = " ".join(picked)
    return text[0].upper() + text[1:] + rng.choice(".....!?…")


def paragraph(rng: random.Random) -> str:
    if rng.random() < 0.12:  # a dialogue exchange
        intro = sentence(rng, True)[:-1] + ":"
        return intro + "\n" + "\n".join(f"— {sentence(rng, True)}" for _ in range(rng.randint(2, 6)))
    russian = rng.random() < 0.6
    return " ".join(sentence(rng, russian) for _ in range(rng.randint(1, 9)))


def generate(megabytes: float, seed: int = 13, blank_lines: bool = True) -> str:
    """A Markdown text of about ``megabytes`` MB of UTF-8.

    Without ``blank_lines`` paragraphs are separated by single line breaks,
    the worst case for the sentence strategy (every paragraph boundary is
    invisible, so razdel has to read all of the text).
    """
    rng = random.Random(seed)
    parts: list[str] = ["# Сборник регламентов / Handbook"]
    size, chapter = 0, 0
    target = megabytes * 1_000_000
    while size < target:
        chapter += 1
        parts.append(f"## Глава {chapter}. {rng.choice(RU_WORDS).capitalize()}")
        for section in range(rng.randint(1, 5)):
            parts.append(f"### {rng.choice(EN_WORDS).capitalize()} {chapter}.{section}")
            for _ in range(rng.randint(1, 12)):
                block = paragraph(rng)
                parts.append(block)
                size += len(block.encode("utf-8"))
    return ("\n\n" if blank_lines else "\n").join(parts) + "\n"


def measure(doc: Document, strategy: Strategy, size: int | None, repeat: int) -> dict[str, Any]:
    if strategy is Strategy.WORDS and size is not None:
        words_size = max(1, size // 7)  # ~7 characters a word
        chunker = make_chunker(strategy, size=words_size, overlap=words_size // 5)
    else:
        chunker = make_chunker(strategy, size=size)
    best, chunks = float("inf"), []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        chunks = chunker.split(doc)
        best = min(best, time.perf_counter() - start)
    megabytes = len(doc.text.encode("utf-8")) / 1e6
    stats = chunk_stats(chunks)
    return {
        "strategy": strategy.value,
        "params": chunker.params,
        "seconds": best,
        "mb_per_s": megabytes / best,
        "chunks": stats.count,
        "median_chars": stats.chars.median,
        "max_chars": stats.chars.max,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=4.0, help="size of the generated text, MB of UTF-8")
    parser.add_argument("--size", type=int, default=None, help="chunk size in characters (default: each strategy's)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per strategy; the best counts")
    parser.add_argument("--strategies", nargs="*", default=[s.value for s in Strategy if s is not Strategy.AUTO])
    parser.add_argument("--no-blank-lines", action="store_true", help="paragraphs separated by single line breaks")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)

    text = generate(args.mb, blank_lines=not args.no_blank_lines)
    doc = Document(id="bench.md", text=text, metadata={"format": "md"})
    plain = Document(id="bench.txt", text=text, metadata={"format": "txt"})
    results = []
    for name in args.strategies:
        strategy = Strategy(name)
        # The sentence strategy is measured on the same text loaded as plain text.
        target = plain if strategy is Strategy.SENTENCES else doc
        results.append(measure(target, strategy, args.size, args.repeat))

    table = Table(title=f"chunking throughput, {len(text.encode('utf-8')) / 1e6:.1f} MB ({len(text):,} characters)")
    for column in ("strategy", "size", "overlap", "MB/s", "seconds", "chunks", "median chars", "max chars"):
        table.add_column(column, justify="left" if column == "strategy" else "right")
    for r in results:
        table.add_row(
            r["strategy"], str(r["params"]["size"]), str(r["params"]["overlap"]), f"{r['mb_per_s']:.1f}",
            f"{r['seconds']:.2f}", f"{r['chunks']:,}", f"{r['median_chars']:g}", str(r["max_chars"]),
        )
    Console().print(table)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as f:
            json.dump({"megabytes": args.mb, "results": results}, f, ensure_ascii=False, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
