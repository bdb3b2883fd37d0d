"""Metadata filters: parsing and row masks."""

from __future__ import annotations

import pytest

from citerag.errors import InvalidInput
from citerag.retrieval import FilterOp, build_mask, parse_filter
from citerag.types import Chunk

CHUNKS = [
    Chunk("a", "Отпуск", doc_id="hr.pdf", metadata={"format": "pdf", "page": 3, "date": "2024-03-05T10:00:00",
                                                    "headings": ["Отпуск", "Перенос"]}),
    Chunk("b", "VPN", doc_id="it.md", metadata={"format": "md", "page": 12, "date": "2023-12-31"}),
    Chunk("c", "Пароли", doc_id="it.docx", metadata={"format": "docx", "date": "2025-01-01"}),
]


def _rows(*filters: str) -> list[int]:
    mask = build_mask(CHUNKS, [parse_filter(f) for f in filters])
    assert mask is not None
    return [i for i, ok in enumerate(mask) if ok]


def test_equality_and_one_of() -> None:
    assert _rows("format=PDF") == [0]  # case-insensitive text
    assert _rows("format=pdf|docx") == [0, 2]
    assert _rows("headings=Перенос") == [0]  # any element of a list
    assert _rows("doc_id=it.md") == [1]


def test_numeric_ranges_compare_as_numbers() -> None:
    assert _rows("page>=3") == [0, 1]
    assert _rows("page>3") == [1]
    assert _rows("page<10") == [0]
    assert _rows("page=2..5") == [0]  # chunk c has no page: never matches a range


def test_date_ranges_compare_by_day() -> None:
    assert _rows("date>=2024-01-01") == [0, 2]
    assert _rows("date<=2024-03-05") == [0, 1]  # a datetime that day is inside
    assert _rows("date=2024-01-01..2024-12-31") == [0]
    assert _rows("date>=2024-01-01", "format=docx") == [2]


def test_no_filters_means_no_mask() -> None:
    assert build_mask(CHUNKS, []) is None


def test_parse_shapes() -> None:
    f = parse_filter("year=2019..2021")
    assert (f.op, f.low, f.high) == (FilterOp.RANGE, "2019", "2021")
    assert parse_filter("lang = ru").values == ("ru",)


@pytest.mark.parametrize("text", ["format", "=pdf", "page>=", "year=.."])
def test_unreadable_filters_show_the_syntax(text: str) -> None:
    with pytest.raises(InvalidInput, match="key=value"):
        parse_filter(text)
