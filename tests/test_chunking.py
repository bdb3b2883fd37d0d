"""Chunking strategies: behaviour a reader of the chunks would notice."""

from __future__ import annotations

import pytest

from citerag.chunking import Strategy, chunk_documents, make_chunker
from citerag.errors import InvalidInput
from citerag.types import Chunk, Document

BOOK = """# Война и мир

## Том 1

### Глава 1

Анна Павловна Шерер встретила князя Василия. Т.е. это был вечер в 1805 г. в Петербурге.

Он спросил:
— Вы здоровы?
— Как можно быть здоровой, когда нравственно страдаешь?
— Вы весь вечер у меня?

Потом разговор пошёл о политике.

### Глава 1

Второй раздел с тем же названием.

## Том 2

Короткий текст второго тома.
"""


def md_doc(text: str = BOOK, doc_id: str = "книга.md") -> Document:
    return Document(id=doc_id, text=text, source=doc_id, title="Война и мир", metadata={"format": "md"})


def span_text(doc: Document, chunk: Chunk) -> str:
    return doc.text[chunk.start : chunk.end]


def test_markdown_keeps_heading_path_and_duplicate_sections_apart() -> None:
    doc = md_doc()
    chunks = make_chunker("markdown", size=2000).split(doc)
    paths = [c.metadata["headings"] for c in chunks]
    assert paths == [
        ["Война и мир", "Том 1", "Глава 1"],
        ["Война и мир", "Том 1", "Глава 1"],
        ["Война и мир", "Том 2"],
    ]
    assert "Второй раздел" not in chunks[0].text and "Второй раздел" in chunks[1].text
    # The first chunk starts at the book title, so nothing needs prepending.
    assert "prefix" not in chunks[0].metadata
    assert chunks[1].metadata["prefix"] == "Война и мир / Том 1\n"
    assert chunks[1].text == "Война и мир / Том 1\n### Глава 1\n\nВторой раздел с тем же названием."
    assert [c.id for c in chunks] == ["книга.md#0", "книга.md#1", "книга.md#2"]
    assert all(c.metadata["doc_id"] == "книга.md" and c.metadata["format"] == "md" for c in chunks)


def test_markdown_levels_limit_which_headings_split() -> None:
    chunks = make_chunker("markdown", size=2000, levels=2).split(md_doc())
    assert [c.metadata["headings"] for c in chunks] == [["Война и мир", "Том 1"], ["Война и мир", "Том 2"]]


def test_markdown_prefix_can_be_switched_off() -> None:
    chunks = make_chunker("markdown", size=120, prepend_headings=False).split(md_doc())
    assert all("prefix" not in c.metadata for c in chunks)
    assert all(c.text == md_doc().text[c.start : c.end] for c in chunks)
    assert chunks[-1].metadata["headings"] == ["Война и мир", "Том 2"]


def test_markdown_long_section_never_separates_a_dialogue_exchange() -> None:
    doc = md_doc()
    chunks = make_chunker("markdown", size=200).split(doc)
    assert all(len(c.text) <= 200 for c in chunks)  # the heading prefix counts too
    exchange = [c for c in chunks if "— Вы здоровы?" in c.text]
    assert len(exchange) == 1
    assert "— Вы весь вечер у меня?" in exchange[0].text
    assert "Он спросил:" in exchange[0].text  # the line introducing the exchange goes with it
    # A continuation chunk repeats the full heading path its text lacks.
    assert exchange[0].metadata["prefix"] == "Война и мир / Том 1 / Глава 1\n"


def test_markdown_exchange_longer_than_size_is_split_between_its_lines() -> None:
    lines = "\n".join(f"— Реплика номер {i}, довольно длинная для этого теста." for i in range(10))
    doc = md_doc(f"# Диалог\n\n{lines}\n")
    chunks = make_chunker("markdown", size=120).split(doc)
    assert len(chunks) > 1 and all(c.end - c.start <= 120 for c in chunks)
    for c in chunks:
        body = span_text(doc, c).replace("# Диалог\n\n", "")
        assert all(line.startswith("— Реплика") for line in body.split("\n"))


def test_sentences_do_not_break_on_abbreviations_or_initials() -> None:
    text = "В 1812 г. Наполеон вошёл в Москву. Т.е. война шла полным ходом. А. С. Пушкин родился в 1799 г. в Москве."
    doc = Document(id="t.txt", text=text, metadata={"format": "txt"})
    chunks = make_chunker("sentences", size=45).split(doc)
    assert [c.text for c in chunks] == [
        "В 1812 г. Наполеон вошёл в Москву.",
        "Т.е. война шла полным ходом.",
        "А. С. Пушкин родился в 1799 г. в Москве.",
    ]


def test_sentences_pack_up_to_size_and_split_overlong_sentence_by_words() -> None:
    text = "Короткое. Ещё одно. Длинное" + " слово" * 50 + " конец."
    doc = Document(id="t.txt", text=text)
    chunks = make_chunker("sentences", size=40).split(doc)
    assert chunks[0].text == "Короткое. Ещё одно."
    assert all(len(c.text) <= 40 for c in chunks)
    assert all(not c.text.startswith("ово") for c in chunks)  # cut between words


def test_auto_uses_markdown_for_markdown_and_sentences_otherwise() -> None:
    auto = make_chunker("auto", size=2000)
    assert auto.split(md_doc())[0].metadata["headings"] == ["Война и мир", "Том 1", "Глава 1"]
    plain = Document(id="p.txt", text="Первое предложение. Второе.\n\nТретье.", metadata={"format": "txt"})
    assert [c.text for c in auto.split(plain)] == ["Первое предложение. Второе.\n\nТретье."]
    untyped = Document(id="x", text="# Заголовок\n\nтекст")
    assert auto.split(untyped)[0].metadata["headings"] == ["Заголовок"]


def test_chunk_documents_reports_progress_and_keeps_order() -> None:
    docs = [Document(id=f"d{i}", text=f"Текст номер {i}.") for i in range(3)]
    calls: list[tuple[int, int]] = []
    chunks = chunk_documents(docs, make_chunker("sentences"), progress=lambda d, t: calls.append((d, t)))
    assert [c.doc_id for c in chunks] == ["d0", "d1", "d2"]
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_page_is_taken_from_document_page_offsets() -> None:
    text = "Первая страница текста.\n\nВторая страница текста."
    doc = Document(id="p.pdf", text=text, metadata={"format": "pdf", "pages": [0, 25]})
    chunks = make_chunker("sentences", size=30).split(doc)
    assert [c.metadata["page"] for c in chunks] == [1, 2]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategy": "paragraphs"}, "unknown chunking strategy 'paragraphs'; use one of: auto, words"),
        ({"strategy": "words", "size": 10, "overlap": 10}, "overlap 10 must be smaller than the size 10"),
        ({"strategy": "chars", "size": 0}, "size must be a whole number of characters >= 1, got 0"),
        ({"strategy": "words", "size": 5, "overlap": -1}, "overlap must be a whole number of words >= 0"),
        ({"strategy": "sentences", "levels": 2}, "unknown option 'levels' for the sentences strategy"),
        ({"strategy": "markdown", "levels": 9}, "heading levels must be 1..6"),
        ({"strategy": "markdown", "colour": 1}, "valid: levels, prepend_headings"),
    ],
)
def test_bad_parameters_are_rejected_before_any_work(kwargs: dict, message: str) -> None:
    with pytest.raises(InvalidInput, match=message.replace(".", r"\.").replace("(", r"\(")):
        make_chunker(**kwargs)


def test_strategy_enum_values_and_defaults() -> None:
    assert [s.value for s in Strategy] == ["auto", "words", "chars", "recursive", "sentences", "markdown"]
    assert make_chunker(Strategy.WORDS).params == {"size": 200, "overlap": 40}
    assert make_chunker("SENTENCES").params == {"size": 1000, "overlap": 0}
    assert make_chunker("words").name == "words"


def test_words_windows_slide_by_size_minus_overlap() -> None:
    text = " ".join(f"слово{i}" for i in range(10))
    chunks = make_chunker("words", size=4, overlap=1).split(Document(id="w", text=text))
    assert [c.text for c in chunks] == [
        "слово0 слово1 слово2 слово3",
        "слово3 слово4 слово5 слово6",
        "слово6 слово7 слово8 слово9",
    ]


def test_chars_windows_overlap_and_skip_blank_windows() -> None:
    text = "абвгдежзий" + " " * 20 + "клмнопрсту"
    chunks = make_chunker("chars", size=10, overlap=0).split(Document(id="c", text=text))
    assert [(c.text, c.start) for c in chunks] == [("абвгдежзий", 0), ("клмнопрсту", 30)]
    chunks = make_chunker("chars", size=6, overlap=2).split(Document(id="c", text="абвгдежзий"))
    assert [c.text for c in chunks] == ["абвгде", "дежзий"]


def test_recursive_cuts_at_the_coarsest_boundary_that_fits() -> None:
    first = "Первый абзац. В нём два предложения."
    second = "Второй абзац, одно предложение без точки в конце"
    text = f"{first}\n\n{second}"
    chunks = make_chunker("recursive", size=60).split(Document(id="r", text=text))
    assert [c.text for c in chunks] == [first, second]
    chunks = make_chunker("recursive", size=30).split(Document(id="r", text=text))
    assert chunks[0].text == "Первый абзац."  # then sentences
    assert all(len(c.text) <= 30 for c in chunks)
    assert not any(c.text.endswith(("Втор", "абза")) for c in chunks)  # then words, never mid-word
    merged = make_chunker("recursive", size=200).split(Document(id="r", text=text))
    assert [c.text for c in merged] == [text]  # small neighbours merge back up to the size


def test_sentences_keep_paragraphs_whole_and_overlap_repeats_whole_sentences() -> None:
    first = "Абзац один. Он короткий."
    second = "Абзац два начинается здесь. Потом идёт середина. И вот конец абзаца."
    doc = Document(id="p.txt", text=f"{first}\n\n{second}")
    chunks = make_chunker("sentences", size=50).split(doc)
    assert chunks[0].text == first  # not filled up with the next paragraph's first sentence
    assert [c.text for c in chunks[1:]] == [
        "Абзац два начинается здесь. Потом идёт середина.",
        "И вот конец абзаца.",
    ]
    overlapped = make_chunker("sentences", size=50, overlap=25).split(doc)
    assert [c.text for c in overlapped[1:]] == [
        "Абзац два начинается здесь. Потом идёт середина.",
        "Потом идёт середина. И вот конец абзаца.",
    ]


def test_default_overlap_scales_with_a_given_size() -> None:
    assert make_chunker("words", size=10).params == {"size": 10, "overlap": 2}
    assert make_chunker("chars", size=300).params == {"size": 300, "overlap": 30}
    assert make_chunker("words", size=1).params["overlap"] == 0
