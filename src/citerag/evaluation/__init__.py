"""Measure retrieval (and, with a model, answers) on labelled questions."""

from citerag.evaluation.beir import BeirSet, doc_text, load_beir
from citerag.evaluation.metrics import (
    EvalReport,
    evaluate_run,
    hit_at_k,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
)

__all__ = [
    "BeirSet",
    "EvalReport",
    "doc_text",
    "evaluate_run",
    "hit_at_k",
    "load_beir",
    "mrr_at_k",
    "ndcg_at_k",
    "recall_at_k",
]
