"""Loading files into documents: text, Markdown, PDF, HTML, DOCX and pre-chunked JSON Lines."""

from citerag.loaders.formats import SUPPORTED_SUFFIXES
from citerag.loaders.load import load_file, load_paths
from citerag.loaders.result import LoadFailure, LoadResult

__all__ = ["SUPPORTED_SUFFIXES", "LoadFailure", "LoadResult", "load_file", "load_paths"]
