"""Question generation against a tiny OpenAI-compatible server on 127.0.0.1.

The server returns canned structured JSON chosen by a keyword of the chunk in
the prompt, so the whole path (prompt, response_format, HTTP, validation,
re-asking, filtering, CSV, resume) runs for real.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from citerag.evaluation.labelled import read_labelled_csv
from citerag.evaluation.question_file import done_path, generate_question_file
from citerag.evaluation.questions import (
    QuestionSettings,
    chunk_language,
    filter_questions,
    normalise_question,
    parse_questions,
    select_chunks,
)
from citerag.generation.llm import make_llm
from citerag.generation.llm.errors import LLMMalformedReply
from citerag.types import Chunk

PAD = " Это предложение добавлено, чтобы фрагмент был достаточно длинным для вопросов."

CHUNKS = [
    Chunk("moscow#0", "Москва основана Юрием Долгоруким в 1147 году." + PAD, doc_id="moscow"),
    Chunk("short#0", "Коротко.", doc_id="short"),
    Chunk("volga#0", "Волга впадает в Каспийское море и является самой длинной рекой Европы." + PAD, doc_id="volga"),
    Chunk("baikal#0", "Байкал -- самое глубокое озеро на планете, его глубина 1642 метра." + PAD, doc_id="baikal"),
    Chunk("paris#0", "Paris is the capital of France and stands on the river Seine. " * 4, doc_id="paris"),
]

CANNED: dict[str, Any] = {
    "Долгоруким": ["Кто основал Москву?", "В каком году основана Москва?", "В каком году была основана Москва"],
    "Волга": ["Куда впадает Волга?", "О чём говорится в тексте?", "Волга?"],
    "Байкал": ["Какова глубина Байкала?"],
    "Paris": ["What river flows through Paris?", "What does the passage say about France?"],
}


class QuestionServer:
    """Answers /v1/chat/completions with canned questions; counts requests."""

    def __init__(self, fenced: bool = False, invalid_first: str | None = None) -> None:
        self.fenced = fenced  # reply in a Markdown fence and refuse response_format
        self.invalid_first = invalid_first  # keyword whose first reply is not JSON
        self.requests: list[dict[str, Any]] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def _reply(self, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.requests.append(payload)
        if self.fenced and "response_format" in payload:
            return 400, {"error": {"message": "response_format is not supported"}}
        prompt = payload["messages"][1]["content"]
        keyword = next(k for k in CANNED if k in prompt)
        if keyword == self.invalid_first and len(payload["messages"]) == 2:
            content = "Вот вопросы: Куда впадает Волга?"
        else:
            content = json.dumps({"questions": CANNED[keyword]}, ensure_ascii=False)
            if self.fenced:
                content = f"```json\n{content}\n```"
        return 200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status, body = owner._reply(payload)
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def __enter__(self) -> "QuestionServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def server() -> Iterator[QuestionServer]:
    with QuestionServer(invalid_first="Волга") as s:
        yield s


SETTINGS = QuestionSettings(per_chunk=3, min_chunk_chars=60, min_question_chars=12)


def _llm(url: str):  # noqa: ANN202
    return make_llm("openai:fake", base_url=url, timeout=5, max_retries=0)


def test_generates_filtered_questions_into_the_eval_csv(server: QuestionServer, tmp_path: Path) -> None:
    out = tmp_path / "вопросы.csv"
    steps: list[tuple[int, int]] = []
    report = generate_question_file(
        _llm(server.url), CHUNKS, out, SETTINGS, progress=lambda d, t: steps.append((d, t))
    )
    data = read_labelled_csv(out)
    by_chunk = {q.question: q.chunk_ids for q in data.questions}
    assert by_chunk == {
        "Кто основал Москву?": ("moscow#0",),
        "В каком году основана Москва?": ("moscow#0",),
        "Куда впадает Волга?": ("volga#0",),
        "Какова глубина Байкала?": ("baikal#0",),
        "What river flows through Paris?": ("paris#0",),
    }
    # near-duplicate, "в тексте", too short, "the passage": each filtered once
    assert (report.counts.duplicate, report.counts.self_reference, report.counts.too_short) == (1, 2, 1)
    assert report.chunks_selected == 4 and report.chunks_done == 4 and report.chunks_failed == 0
    assert steps[-1] == (4, 4)
    first = server.requests[0]
    assert first["response_format"]["type"] == "json_schema"
    assert "questions" in first["response_format"]["json_schema"]["schema"]["properties"]
    # the Volga chunk was re-asked after a reply that was not JSON
    volga = [r for r in server.requests if "Волга" in r["messages"][1]["content"]]
    assert len(volga) == 2 and volga[1]["messages"][2]["role"] == "assistant"


def test_prompt_follows_the_chunk_language(server: QuestionServer, tmp_path: Path) -> None:
    generate_question_file(_llm(server.url), CHUNKS, tmp_path / "q.csv", SETTINGS)
    prompts = {r["messages"][1]["content"].split("\n")[0] for r in server.requests}
    assert any(p.startswith("Составь") for p in prompts)
    assert any(p.startswith("Write 1 to 3 questions") for p in prompts)


def test_interrupted_run_resumes_without_asking_again(server: QuestionServer, tmp_path: Path) -> None:
    out = tmp_path / "q.csv"

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_question_file(_llm(server.url), CHUNKS, out, SETTINGS, progress=stop_after_two)
    assert done_path(out).read_text(encoding="utf-8").split() == ["moscow#0", "volga#0"]
    asked_before = len(server.requests)
    report = generate_question_file(_llm(server.url), CHUNKS, out, SETTINGS)
    assert report.chunks_resumed == 2 and report.chunks_done == 2
    asked = [r["messages"][1]["content"] for r in server.requests[asked_before:]]
    assert not any("Долгоруким" in a or "Волга" in a for a in asked)
    assert len(read_labelled_csv(out).questions) == 5
    assert out.read_text(encoding="utf-8").count("question;chunk_id") == 1


def test_server_without_structured_output_still_works(tmp_path: Path) -> None:
    with QuestionServer(fenced=True) as s:
        report = generate_question_file(_llm(s.url), CHUNKS[:1], tmp_path / "q.csv", SETTINGS)
    assert report.questions_written == 2
    assert "response_format" not in s.requests[-1]


def test_parse_rejects_replies_outside_the_schema() -> None:
    assert parse_questions('```json\n{"questions": [" Где? "]}\n```') == ["Где?"]
    for bad in ['{"questions": "Где?"}', '{"q": []}', "не JSON", '{"questions": [], "extra": 1}']:
        with pytest.raises(LLMMalformedReply):
            parse_questions(bad)


def test_filters_and_helpers() -> None:
    kept, counts = filter_questions(
        [
            "Что сказано в данном фрагменте о Москве?",
            "According to the article, who won?",
            "Сколько лет Ёжику Петровичу?",
            "сколько лет ежику петровичу",
        ],
        [],
        QuestionSettings(),
    )
    assert kept == ["Сколько лет Ёжику Петровичу?"]
    assert (counts.self_reference, counts.duplicate) == (2, 1)
    # a question is not self-referring just for mentioning a document type by name
    kept, _ = filter_questions(["Какие документы нужны для визы?"], [], QuestionSettings())
    assert kept == ["Какие документы нужны для визы?"]
    assert normalise_question("Ёлка — что это?") == "елка что это"
    assert chunk_language("Москва -- столица России, Moscow") == "ru"
    assert chunk_language("The city of Paris (Париж)") == "en"


def test_chunk_sample_is_seeded_and_in_index_order() -> None:
    many = [Chunk(f"c{i}", "x" * 300) for i in range(50)]
    a = select_chunks(many, QuestionSettings(limit=10, seed=1))
    b = select_chunks(many, QuestionSettings(limit=10, seed=1))
    c = select_chunks(many, QuestionSettings(limit=10, seed=2))
    assert [x.id for x in a] == [x.id for x in b] != [x.id for x in c]
    assert [x.id for x in a] == sorted((x.id for x in a), key=lambda s: int(s[1:]))


# -- the command line ---------------------------------------------------------


def _saved_index(tmp_path: Path) -> Path:
    from citerag import Index

    index_dir = tmp_path / "idx"
    Index.from_chunks(CHUNKS).save(index_dir)
    return index_dir


def test_cli_generate_then_eval_reads_the_file(server: QuestionServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from citerag.cli import main

    index_dir, out = _saved_index(tmp_path), tmp_path / "q.csv"
    args = ["questions", "generate", "-i", str(index_dir), "-o", str(out), "--llm", "openai:fake",
            "--base-url", server.url, "-n", "3", "--min-chars", "60", "--quiet"]
    assert main(args) == 0
    assert "Wrote 5 questions from 4 chunks" in capsys.readouterr().out
    asked = len(server.requests)
    assert main(args) == 0  # everything is done: resuming asks nothing
    assert len(server.requests) == asked
    assert "4 done earlier" in capsys.readouterr().out
    assert main(["eval", "-q", str(out), "-i", str(index_dir), "--json", "-k", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["configs"][0]["n_queries"] == 5


def test_cli_generated_negatives_have_no_chunk_id(tmp_path: Path) -> None:
    from citerag.cli import main

    index_dir, out = _saved_index(tmp_path), tmp_path / "neg.csv"
    with QuestionServer() as s:
        code = main(["questions", "negatives", "-i", str(index_dir), "-o", str(out), "--llm", "openai:fake",
                     "--base-url", s.url, "--min-chars", "60", "--limit", "1", "--quiet"])
        prompt = s.requests[0]["messages"][1]["content"]
    assert code == 0
    assert "НЕ отвечает" in prompt or "does NOT answer" in prompt
    data = read_labelled_csv(out)
    assert data.questions and all(q.negative for q in data.questions)


def test_cli_negatives_from_another_corpus_are_seeded(tmp_path: Path) -> None:
    from citerag.cli import main

    other = tmp_path / "other.txt"
    other.write_text("\n".join(f"Вопрос номер {i} про космос?" for i in range(30)), encoding="utf-8")
    labelled = tmp_path / "mine.csv"
    labelled.write_text("question;chunk_id\nВопрос номер 3 про космос?;c1\n", encoding="utf-8")
    outs = []
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        out = tmp_path / f"{name}.csv"
        assert main(["questions", "negatives", "--from", str(other), "--count", "10", "--seed", str(seed),
                     "--exclude", str(labelled), "-o", str(out)]) == 0
        outs.append([q.question for q in read_labelled_csv(out).questions])
    assert len(outs[0]) == 10 and outs[0] == outs[1] != outs[2]
    assert "Вопрос номер 3 про космос?" not in outs[0] + outs[2]


def test_cli_generate_without_a_model_says_how_to_configure_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from citerag.cli import main

    monkeypatch.delenv("CITERAG_LLM", raising=False)
    assert main(["questions", "generate", "-i", str(_saved_index(tmp_path)), "-o", str(tmp_path / "q.csv")]) == 2
    assert "--llm" in capsys.readouterr().err
