"""The bundled sample corpus: present, bilingual, clean UTF-8, shaped for the demo."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citerag.data import sample_dir

CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
MD_HEADING = re.compile(r"^#{1,6} \S", re.MULTILINE)
COMBINING_ACUTE = "\u0301"


def _files() -> list[Path]:
    return sorted(p for p in sample_dir().iterdir() if p.is_file())


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _is_russian(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return sum(bool(CYRILLIC.match(c)) for c in letters) > len(letters) / 2


def test_sample_dir_is_a_folder_of_at_least_twelve_documents() -> None:
    folder = sample_dir()
    assert folder.is_dir()
    files = _files()
    assert len(files) >= 12
    assert {p.suffix for p in files} <= {".md", ".txt"}
    assert not (folder / "README.md").exists(), "a README here would be indexed as a document"


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_file_is_non_empty_utf8(path: Path) -> None:
    text = _text(path)  # raises UnicodeDecodeError if not UTF-8
    assert len(text.split()) >= 150, f"{path.name} is too short to be a realistic document"
    assert "\ufffd" not in text


def test_both_languages_present() -> None:
    flags = [_is_russian(_text(p)) for p in _files()]
    assert sum(flags) >= 6
    assert len(flags) - sum(flags) >= 3


@pytest.mark.parametrize(
    "path", [p for p in _files() if p.suffix == ".md"], ids=lambda p: p.name
)
def test_markdown_files_have_headings(path: Path) -> None:
    assert MD_HEADING.search(_text(path)), f"{path.name} has no markdown heading"


def test_onboarding_has_yo_and_stress_mark() -> None:
    text = _text(sample_dir() / "onboarding.md")
    assert "ё" in text
    assert COMBINING_ACUTE in text
    # The stress mark sits on a vowel, as in real texts, not on a stray character.
    index = text.index(COMBINING_ACUTE)
    assert text[index - 1] in "аеиоуыэюяё"


def test_russian_manual_has_dialogue_lines() -> None:
    lines = _text(sample_dir() / "rukovodstvo-polzovatelya.md").splitlines()
    dialogue = [line for line in lines if line.startswith("— ")]
    assert len(dialogue) >= 4


def test_demo_question_has_answer_sentence() -> None:
    text = _text(sample_dir() / "otpusk.md")
    assert "положено 28 календарных дней ежегодного" in text


# Same facts in both languages: (Russian file, English file, [(as written in RU, in EN)]).
TRANSLATED_FACTS = [
    (
        "otpusk.md",
        "vacation-policy-en.md",
        [("28 календарных дней", "28 calendar days"), ("не менее 14", "at least 14"),
         ("15 декабря", "15 December"), ("за 2 недели", "2 weeks"), ("1200", "1200")],
    ),
    (
        "vpn.md",
        "vpn-en.md",
        [("vpn.example.ru, порт 1194", "vpn.example.ru, port 1194"),
         ("vpn2.example.ru, порт 443", "vpn2.example.ru, port 443"),
         ("12 часов", "12 hours"), ("5555", "5555")],
    ),
    (
        "rukovodstvo-polzovatelya.md",
        "product-manual.md",
        [("8443", "8443"), ("nimbus.toml", "nimbus.toml"), ("NS-204", "NS-204"),
         ("50 ГБ", "50 GB"), ("127.0.0.1:7070", "127.0.0.1:7070")],
    ),
]


@pytest.mark.parametrize(("ru", "en", "facts"), TRANSLATED_FACTS, ids=lambda v: str(v)[:20])
def test_russian_and_english_versions_agree(
    ru: str, en: str, facts: list[tuple[str, str]]
) -> None:
    ru_text, en_text = _text(sample_dir() / ru), _text(sample_dir() / en)
    assert _is_russian(ru_text) and not _is_russian(en_text)
    for ru_fact, en_fact in facts:
        assert ru_fact in ru_text, f"{ru}: {ru_fact!r}"
        assert en_fact in en_text, f"{en}: {en_fact!r}"
