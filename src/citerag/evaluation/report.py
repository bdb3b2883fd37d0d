"""Turn evaluation results into JSON, rank summaries and a bar chart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from citerag.errors import InvalidInput
from citerag.evaluation.runner import ConfigResult

RANK_BUCKETS = ("1", "2-3", "4-10", ">10", "not found")


def headline_metrics(ks: Sequence[int]) -> list[str]:
    """The columns worth a glance: hit at every k, then MRR/nDCG at 10 and recall at the deepest k."""
    ks = sorted(set(ks))
    at = 10 if 10 in ks else ks[-1]
    return [*(f"hit@{k}" for k in ks), f"mrr@{at}", f"ndcg@{at}", f"recall@{ks[-1]}"]


def rank_buckets(ranks: Mapping[str, int | None]) -> dict[str, int]:
    """How many questions found their first relevant chunk at rank 1, 2-3, 4-10, later, or never."""
    out = dict.fromkeys(RANK_BUCKETS, 0)
    for rank in ranks.values():
        if rank is None:
            out["not found"] += 1
        elif rank == 1:
            out["1"] += 1
        elif rank <= 3:
            out["2-3"] += 1
        elif rank <= 10:
            out["4-10"] += 1
        else:
            out[">10"] += 1
    return out


def results_to_json(
    results: Sequence[ConfigResult], *, source: str, ks: Sequence[int], questions: Mapping[str, str] | None = None
) -> dict[str, object]:
    """Everything measured, one entry per configuration (``questions``: id -> text, for reading ranks)."""
    return {
        "source": source,
        "ks": sorted(set(ks)),
        "configs": [
            {**r.to_json(), "rank_buckets": rank_buckets(r.ranks)} for r in results
        ],
        "questions": dict(questions or {}),
    }


def plot_results(results: Sequence[ConfigResult], path: str | Path, metrics: Sequence[str]) -> Path:
    """A grouped bar chart (one group per metric, one bar per configuration) saved as PNG."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise InvalidInput("--plot needs matplotlib: pip install 'citerag[plot]'") from e
    if not results:
        raise InvalidInput("nothing to plot: no configuration was evaluated")
    path = Path(path)
    width = 0.8 / len(results)
    width_in = min(14.0, max(7.0, 0.45 * len(metrics) * len(results) + 3.0))
    fig = Figure(figsize=(width_in, 4.5), layout="constrained")
    FigureCanvasAgg(fig)  # the Agg canvas, without pyplot's global state
    ax = fig.add_subplot()
    for i, result in enumerate(results):
        xs = [m + (i - (len(results) - 1) / 2) * width for m in range(len(metrics))]
        values = [result.report.metrics.get(name, 0.0) for name in metrics]
        bars = ax.bar(xs, values, width=width * 0.95, label=result.config.name)
        ax.bar_label(bars, labels=[f"{v:.2f}" for v in values], fontsize=7, padding=1)
    ax.set_xticks(range(len(metrics)), list(metrics))
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("score")
    n = results[0].report.n_queries
    ax.set_title(f"Retrieval quality, {n} questions")
    fig.legend(fontsize=8, loc="outside right upper")  # outside: never hides a bar
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    return path
