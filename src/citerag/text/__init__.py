"""Text analysis stage: normalisation, tokens, stop words, lemmas and stems."""

from citerag.text.analyzer import Analyzer, AnalyzerConfig, EnglishMode, RussianMode
from citerag.text.normalize import normalize
from citerag.text.tokenize import tokenize

__all__ = ["Analyzer", "AnalyzerConfig", "EnglishMode", "RussianMode", "normalize", "tokenize"]
