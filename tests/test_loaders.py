"""Loading text, Markdown and pre-chunked JSON Lines; folder walking; failures."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from citerag.errors import DocumentError
from citerag.loaders import LoadResult, load_file, load_paths

RU = "Москва — столица России. Т.е. крупнейший город страны, основан в 1147 г.\n"


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def test_txt_document_has_id_source_title_hash_and_format(tmp_path: Path) -> None:
    write(tmp_path / "docs" / "города" / "москва.txt", RU)
    result = load_paths([tmp_path / "docs"])
    assert result.failures == []
    [doc] = result.documents
    assert doc.id == "города/москва.txt"
    assert doc.text == RU
    assert doc.title == "москва"
    assert doc.source == (tmp_path / "docs" / "города" / "москва.txt").as_posix()
    assert doc.metadata["format"] == "txt"
    assert doc.metadata["content_hash"] == hashlib.sha256(RU.encode()).hexdigest()
    assert doc.metadata["mtime"][:2] == "20"


def test_single_file_id_is_its_name(tmp_path: Path) -> None:
    path = write(tmp_path / "a" / "заметка.txt", RU)
    assert load_file(path).id == "заметка.txt"
    assert load_paths([path]).documents[0].id == "заметка.txt"


def test_markdown_title_is_first_h1_and_headings_are_listed(tmp_path: Path) -> None:
    text = "Вступление.\n\n## Раздел\n\n# Главная тема\n\n```\n# не заголовок\n```\n\n### Подраздел\n"
    doc = load_file(write(tmp_path / "n.md", text))
    assert doc.title == "Главная тема"
    assert doc.metadata["format"] == "md"
    assert doc.metadata["headings"] == ["Раздел", "Главная тема", "Подраздел"]
    outline = doc.metadata["outline"]
    assert [text[h["start"] : h["end"]] for h in outline] == [
        "## Раздел",
        "# Главная тема",
        "### Подраздел",
    ]


def test_cp1251_text_is_decoded(tmp_path: Path) -> None:
    text = (
        "Съешь же ещё этих мягких французских булок, да выпей чаю.\n"
        "В лесу родилась ёлочка, в лесу она росла. Зимой и летом стройная, зелёная была.\n"
    )
    path = write(tmp_path / "старый.txt", text.encode("cp1251"))
    assert load_file(path).text == text


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Привет, мир!", "cp1251"),  # too short for charset-normalizer alone
        ("Отпуск 28 дней.", "koi8-r"),
        ("ВНИМАНИЕ! СРОЧНО", "cp1251"),
        ("Съешь же ещё этих мягких французских булок.", "cp866"),
        ("Съешь же ещё этих мягких французских булок.", "utf-16"),
        ("Grüße aus München, schöne Straße", "cp1252"),
    ],
)
def test_legacy_encodings_are_detected(tmp_path: Path, text: str, encoding: str) -> None:
    path = write(tmp_path / "старый.txt", text.encode(encoding))
    assert load_file(path).text == text


def test_crlf_and_bom_are_normalised(tmp_path: Path) -> None:
    path = write(tmp_path / "w.txt", "\ufeffстрока один\r\nстрока два\r\n".encode("utf-8"))
    assert load_file(path).text == "строка один\nстрока два\n"


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("пусто.txt", b"", "empty"),
        ("пробелы.md", b" \n\t\n", "empty"),
        ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "binary"),
        ("photo.png", b"\x89PNG", "unsupported file type '.png'"),
    ],
)
def test_unreadable_files_are_failures_with_reason(
    tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    write(tmp_path / "d" / "ok.txt", RU)
    write(tmp_path / "d" / name, data)
    result = load_paths([tmp_path / "d"])
    assert [d.id for d in result.documents] == ["ok.txt"]
    [failure] = result.failures
    assert failure.path.endswith(name)
    assert reason in failure.reason
    with pytest.raises(DocumentError, match=reason.split()[0]):
        load_paths([tmp_path / "d"], strict=True)


def test_missing_path_is_a_failure(tmp_path: Path) -> None:
    result = load_paths([tmp_path / "нет"])
    assert result.documents == [] and "no such file" in result.failures[0].reason


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    write(root / "a.md", "# A\n\nтекст")
    write(root / "b.txt", "текст b")
    write(root / "drafts" / "c.md", "# C\n\nчерновик")
    write(root / "notes" / "deep" / "d.md", "# D\n\nглубоко")
    write(root / ".git" / "config.txt", "не документ")
    ids = lambda r: sorted(d.id for d in r.documents)  # noqa: E731
    assert ids(load_paths([root])) == ["a.md", "b.txt", "drafts/c.md", "notes/deep/d.md"]
    assert ids(load_paths([root], include=["*.md"])) == ["a.md", "drafts/c.md", "notes/deep/d.md"]
    assert ids(load_paths([root], include=["*.md"], exclude=["drafts"])) == [
        "a.md",
        "notes/deep/d.md",
    ]
    assert ids(load_paths([root], include=["notes/**/*.md"])) == ["notes/deep/d.md"]


def test_same_relative_path_in_two_roots_gets_distinct_ids(tmp_path: Path) -> None:
    write(tmp_path / "a" / "README.md", "# A")
    write(tmp_path / "b" / "README.md", "# B")
    docs = load_paths([tmp_path / "a", tmp_path / "b"]).documents
    assert len({d.id for d in docs}) == 2


def test_progress_is_reported_per_file(tmp_path: Path) -> None:
    for i in range(3):
        write(tmp_path / f"{i}.txt", f"документ {i}")
    calls: list[tuple[int, int]] = []
    load_paths([tmp_path], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_jsonl_records_become_chunks_and_bad_lines_are_failures(tmp_path: Path) -> None:
    lines = [
        json.dumps({"id": "r1", "text": "Первая запись.", "metadata": {"doc_id": "d1", "page": 3}}, ensure_ascii=False),
        "{не json",
        json.dumps({"id": "r2", "text": "Вторая запись."}, ensure_ascii=False),
        "",
        json.dumps({"id": "r3", "text": ""}),
        json.dumps({"id": "r1", "text": "повтор"}, ensure_ascii=False),
    ]
    path = write(tmp_path / "pre.jsonl", "\n".join(lines) + "\n")
    result = load_paths([path])
    assert isinstance(result, LoadResult)
    assert result.documents == []
    assert [(c.id, c.doc_id, c.text) for c in result.records] == [
        ("r1", "d1", "Первая запись."),
        ("r2", "r2", "Вторая запись."),
    ]
    assert result.records[0].metadata["page"] == 3
    assert result.records[0].metadata["source"] == path.as_posix()
    reasons = [(f.path, f.reason) for f in result.failures]
    assert [p.rsplit(":", 1)[1] for p, _ in reasons] == ["2", "5", "6"]
    assert "invalid JSON" in reasons[0][1] and "line 2" in reasons[0][1]
    assert "duplicate id 'r1'" in reasons[2][1]
    with pytest.raises(DocumentError, match="line 2"):
        load_paths([path], strict=True)


def test_load_file_errors_name_the_reason(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="unsupported"):
        load_file(write(tmp_path / "x.xyz", "текст"))
    with pytest.raises(DocumentError, match="pre-chunked"):
        load_file(write(tmp_path / "x.jsonl", "{}"))


def test_setext_headings_are_recognised_but_not_list_lines(tmp_path: Path) -> None:
    text = "Руководство\n===========\n\nВведение.\n\nУстановка\n---------\n\nШаги.\n\n- пункт списка\n---\n"
    doc = load_file(write(tmp_path / "s.md", text))
    assert doc.title == "Руководство"
    assert doc.metadata["headings"] == ["Руководство", "Установка"]
    assert text[doc.metadata["outline"][1]["start"] : doc.metadata["outline"][1]["end"]] == "Установка\n---------"


def test_front_matter_title_wins_over_first_heading(tmp_path: Path) -> None:
    text = '---\ntitle: "Политика отпусков"\ntags: [hr]\n---\n\n# Отпуск\n\nТекст.\n'
    doc = load_file(write(tmp_path / "fm.md", text))
    assert doc.title == "Политика отпусков"
    assert doc.metadata["headings"] == ["Отпуск"]
    assert doc.text == text  # offsets stay valid: nothing is removed
