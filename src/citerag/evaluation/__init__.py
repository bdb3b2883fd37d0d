"""Measure retrieval (and, with the answer pipeline, answers) on labelled questions.

Modules: ``metrics`` (hit/MRR/nDCG/recall), ``beir`` and ``labelled`` (test
sets), ``runner`` and ``benchmark`` (run configurations), ``threshold``
("not found" errors), ``answers`` (answer-level figures), ``questions``,
``question_file`` and ``negatives`` (build test sets), ``report`` (JSON, chart).
"""

from citerag.evaluation.beir import BeirSet, doc_text, load_beir
from citerag.evaluation.labelled import LabelledQuestion, LabelledSet, read_labelled_csv, write_labelled_csv
from citerag.evaluation.metrics import (
    EvalReport,
    evaluate_run,
    hit_at_k,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
)
from citerag.evaluation.runner import ConfigResult, EvalConfig, evaluate_config
from citerag.evaluation.threshold import ThresholdOutcome, best_threshold, outcome_at

__all__ = [
    "BeirSet",
    "ConfigResult",
    "EvalConfig",
    "EvalReport",
    "LabelledQuestion",
    "LabelledSet",
    "ThresholdOutcome",
    "best_threshold",
    "doc_text",
    "evaluate_config",
    "evaluate_run",
    "hit_at_k",
    "load_beir",
    "mrr_at_k",
    "ndcg_at_k",
    "outcome_at",
    "read_labelled_csv",
    "recall_at_k",
    "write_labelled_csv",
]
