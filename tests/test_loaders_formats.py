"""PDF, HTML and DOCX loading on small real files the tests create."""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.chunking import make_chunker
from citerag.errors import DocumentError
from citerag.loaders import load_file, load_paths


def _font() -> Path:
    matplotlib = pytest.importorskip("matplotlib")
    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    if not path.exists():
        pytest.skip("DejaVuSans.ttf (shipped with matplotlib) not found")
    return path


def make_pdf(path: Path, password: str | None = None) -> Path:
    fpdf = pytest.importorskip("fpdf")
    pdf = fpdf.FPDF()
    pdf.add_font("DejaVu", fname=str(_font()))
    pdf.set_title("Отчёт о испытаниях")
    pdf.add_page()
    pdf.set_font("DejaVu", size=18)
    pdf.start_section("Введение")
    pdf.cell(text="Введение", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=11)
    pdf.multi_cell(0, 6, text="Первая страница: насос выдержал давление 12 атмосфер.")
    pdf.add_page()
    pdf.start_section("Выводы")
    pdf.cell(text="Выводы", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 6, text="Вторая страница: испытания завершены успешно.")
    if password:
        pdf.set_encryption(owner_password="owner", user_password=password)
    pdf.output(str(path))
    return path


def test_pdf_pages_title_and_page_per_chunk(tmp_path: Path) -> None:
    doc = load_file(make_pdf(tmp_path / "отчёт.pdf"))
    assert doc.metadata["format"] == "pdf"
    assert doc.title == "Отчёт о испытаниях"
    assert doc.metadata["page_count"] == 2
    first, second = doc.metadata["pages"]
    assert first == 0
    assert "12 атмосфер" in doc.text[:second] and "завершены успешно" in doc.text[second:]
    assert doc.metadata["headings"] == ["Введение", "Выводы"]
    chunks = make_chunker("sentences", size=60).split(doc)
    by_page = {c.metadata["page"]: c.text for c in chunks if "атмосфер" in c.text or "завершены" in c.text}
    assert "атмосфер" in by_page[1] and "завершены" in by_page[2]
    markdown = make_chunker("auto", size=500).split(doc)
    assert [c.metadata["headings"] for c in markdown] == [["Введение"], ["Выводы"]]
    assert [c.metadata["page"] for c in markdown] == [1, 2]


def test_truncated_pdf_is_a_failure(tmp_path: Path) -> None:
    good = make_pdf(tmp_path / "ok.pdf")
    broken = tmp_path / "битый.pdf"
    broken.write_bytes(good.read_bytes()[:300])
    result = load_paths([broken, good])
    assert [d.id for d in result.documents] == ["ok.pdf"]
    [failure] = result.failures
    assert failure.path.endswith("битый.pdf")
    assert "PDF" in failure.reason
    with pytest.raises(DocumentError):
        load_file(broken)


def test_password_protected_pdf_is_a_failure(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "секрет.pdf", password="secret")
    with pytest.raises(DocumentError, match="password-protected"):
        load_file(path)


HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>Справка по насосам</title>
<style>body { color: red }</style><script>var secret = "скрипт";</script></head>
<body>
<nav><a href="/">Главная</a> | <a href="/about">О нас</a></nav>
<header><div class="logo">Логотип сайта</div></header>
<main>
  <h1>Насос НЦ-1</h1>
  <p>Насос   перекачивает
     воду.<br>Давление до 12 атм.</p>
  <h2>Обслу<em>живание</em></h2>
  <p hidden>Скрытый абзац.</p>
  <ul><li>Проверять уплотнения.</li><li>Менять масло раз в год.</li></ul>
  <table><tr><th>Модель</th><th>Мощность</th></tr><tr><td>НЦ-1</td><td>3 кВт</td></tr></table>
  <script>document.write("ещё скрипт")</script>
</main>
<footer>© Компания</footer>
</body></html>"""


def test_html_main_text_with_headings_without_scripts_and_navigation(tmp_path: Path) -> None:
    path = tmp_path / "насос.html"
    path.write_text(HTML, encoding="utf-8")
    doc = load_file(path)
    assert doc.title == "Справка по насосам"
    assert doc.metadata["format"] == "html"
    for dropped in ("скрипт", "Главная", "О нас", "Логотип", "color", "Компания", "Скрытый"):
        assert dropped not in doc.text
    assert "Насос перекачивает воду.\nДавление до 12 атм." in doc.text
    assert "Проверять уплотнения.\n\nМенять масло раз в год." in doc.text
    assert "Модель | Мощность\n\nНЦ-1 | 3 кВт" in doc.text
    assert doc.metadata["headings"] == ["Насос НЦ-1", "Обслуживание"]
    chunks = make_chunker("auto", size=1000).split(doc)
    assert [c.metadata["headings"] for c in chunks] == [["Насос НЦ-1"], ["Насос НЦ-1", "Обслуживание"]]
    assert chunks[1].text.startswith("Насос НЦ-1\nОбслуживание\n\nПроверять")


def test_html_without_text_is_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "пусто.htm"
    path.write_text("<html><body><script>x()</script><nav>меню</nav></body></html>", encoding="utf-8")
    with pytest.raises(DocumentError, match="no readable text"):
        load_file(path)


def make_docx(path: Path) -> Path:
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_heading("Руководство оператора", level=0)
    document.add_paragraph("Вводный абзац о назначении станции.")
    document.add_heading("Запуск", level=1)
    document.add_paragraph("Нажмите зелёную кнопку.")
    document.add_heading("Аварийная остановка", level=2)
    document.add_paragraph("Нажмите красную кнопку и сообщите диспетчеру.")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Код"
    table.rows[0].cells[1].text = "E42"
    document.save(str(path))
    return path


def test_docx_heading_styles_become_headings(tmp_path: Path) -> None:
    doc = load_file(make_docx(tmp_path / "руководство.docx"))
    assert doc.metadata["format"] == "docx"
    assert doc.title == "Руководство оператора"
    assert doc.metadata["headings"] == ["Руководство оператора", "Запуск", "Аварийная остановка"]
    assert "Код | E42" in doc.text
    chunks = make_chunker("auto", size=1000).split(doc)
    assert chunks[-1].metadata["headings"] == ["Руководство оператора", "Запуск", "Аварийная остановка"]
    assert "красную кнопку" in chunks[-1].text and "зелёную" not in chunks[-1].text


def test_corrupt_docx_is_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "сломан.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    result = load_paths([path])
    assert result.documents == [] and "DOCX" in result.failures[0].reason


@pytest.mark.parametrize("name", ["мусор.pdf", "мусор.docx", "мусор.html"])
def test_random_bytes_in_a_known_format_are_a_failure_not_a_crash(tmp_path: Path, name: str) -> None:
    import random

    rng = random.Random(7)
    path = tmp_path / name
    path.write_bytes(b"%PDF-1.4\n" + bytes(rng.randrange(1, 256) for _ in range(2000)))
    result = load_paths([path])
    assert result.documents == [] and len(result.failures) == 1
    assert result.failures[0].reason
