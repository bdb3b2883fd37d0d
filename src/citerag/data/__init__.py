"""Data shipped with citerag.

``sample/`` holds a dozen short documents (company regulations, IT
instructions, a product manual and an FAQ) in Russian and English. They carry
concrete, checkable facts — numbers, names, deadlines, steps — so that
``citerag index --sample``, the demo and the tests have something real to
search. Russian and English versions of the same topic state the same facts,
which makes cross-language checks possible. The folder holds only documents:
anything placed there gets indexed.
"""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

__all__ = ["sample_dir"]


def sample_dir() -> Path:
    """Return the folder with the bundled sample documents.

    The package is installed as plain files (regular or editable install), so
    the resource resolves to a real directory that stays valid after return.
    """
    resource = files("citerag.data") / "sample"
    with as_file(resource) as path:
        return Path(path)
