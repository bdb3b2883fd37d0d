"""Near-duplicate removal among results: overlapping chunks of one document
(sliding-window chunking) and chunks with identical text (copied files)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from citerag.types import Hit

_SPACE = re.compile(r"\s+")


def _overlap(a: Hit, b: Hit) -> float:
    """Shared characters as a fraction of the shorter span (0 for other documents)."""
    ca, cb = a.chunk, b.chunk
    if not ca.doc_id or ca.doc_id != cb.doc_id:
        return 0.0
    shared = min(ca.end, cb.end) - max(ca.start, cb.start)
    shorter = min(ca.end - ca.start, cb.end - cb.start)
    return shared / shorter if shorter > 0 and shared > 0 else 0.0


def _text_key(hit: Hit) -> str:
    return _SPACE.sub(" ", hit.chunk.text).strip().casefold()


def deduplicate(hits: Sequence[Hit], *, max_overlap: float = 0.5) -> list[Hit]:
    """Keep the better of each near-duplicate pair; ranks renumbered from 1.

    Two chunks of one document are duplicates when they share more than
    ``max_overlap`` of the shorter one's span.
    """
    kept: list[Hit] = []
    kept_by_doc: dict[str, list[Hit]] = {}
    seen_text: set[str] = set()
    for hit in hits:
        key = _text_key(hit)
        if key in seen_text:
            continue
        same_doc = kept_by_doc.setdefault(hit.chunk.doc_id, [])
        if any(_overlap(hit, other) > max_overlap for other in same_doc):
            continue
        seen_text.add(key)
        same_doc.append(hit)
        kept.append(hit)
    return [replace(h, rank=i) for i, h in enumerate(kept, 1)]
