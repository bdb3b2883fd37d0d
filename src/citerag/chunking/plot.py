"""Writing the chunk length histogram as an image (needs the ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path

from citerag.chunking.stats import ChunkStats
from citerag.errors import CiteragError, InvalidInput


def save_histogram(stats: ChunkStats, path: str | Path, *, bins: int = 20, title: str = "") -> Path:
    """Plot character and word length histograms side by side into ``path`` (PNG, SVG, PDF)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never needs a display
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise CiteragError(
            "writing a plot needs matplotlib: pip install 'citerag[plot]' (or drop --plot)"
        ) from e
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InvalidInput(f"plot file {str(path)!r} must end in .png, .svg or .pdf")
    figure, axes = plt.subplots(1, 2, figsize=(10, 4))
    try:
        for axis, unit, label in ((axes[0], "chars", "characters"), (axes[1], "words", "words")):
            hist = stats.histogram(bins, unit)
            widths = [b - a for a, b in zip(hist.edges, hist.edges[1:])]
            axis.bar(hist.edges[:-1], hist.counts, width=widths, align="edge", edgecolor="white")
            summary = stats.chars if unit == "chars" else stats.words
            axis.axvline(summary.median, color="black", linestyle="--", label=f"median {summary.median:g}")
            axis.axvline(summary.p95, color="red", linestyle=":", label=f"p95 {summary.p95:.0f}")
            axis.set_xlabel(f"chunk length, {label}")
            axis.set_ylabel("chunks")
            axis.legend()
        figure.suptitle(title or f"{stats.count} chunks from {stats.documents} documents")
        figure.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=100)
    except OSError as e:
        raise CiteragError(f"cannot write plot {str(path)!r}: {e.strerror or e}") from e
    finally:
        plt.close(figure)
    return path
