"""The HTTP API and web page, through FastAPI's test client (no network)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from citerag import Index
from citerag.server import create_app

TEXTS = [
    "Сотрудникам положено 28 календарных дней ежегодного оплачиваемого отпуска.",
    "Для подключения к VPN установите клиент OpenVPN и войдите с двухфакторной аутентификацией.",
    "Резервное копирование баз данных выполняется ежедневно в 02:00.",
]


@pytest.fixture
def client() -> TestClient:
    index = Index.from_texts(TEXTS, ids=["leave", "vpn", "backup"], metadata=[{"source": "policy.md"}] * 3)
    return TestClient(create_app(index, index_name="test"))


def test_page_is_served(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "<form" in response.text and "/api/ask" in response.text


def test_health_describes_the_index(client: TestClient) -> None:
    data = client.get("/api/health").json()
    assert data["status"] == "ok" and data["chunks"] == 3 and data["llm"] is None


def test_search_returns_ranked_hits(client: TestClient) -> None:
    data = client.post("/api/search", json={"query": "сколько дней отпуска", "k": 2}).json()
    assert data["hits"][0]["chunk"]["id"] == "leave"
    assert data["hits"][0]["rank"] == 1


def test_ask_answers_offline_with_a_numbered_source(client: TestClient) -> None:
    data = client.post("/api/ask", json={"question": "Сколько дней отпуска положено сотрудникам?"}).json()
    assert "28" in data["answer"] and "[1]" in data["answer"]
    assert data["sources"][0]["chunk_id"] == "leave"


def test_ask_says_not_found_for_unrelated_questions(client: TestClient) -> None:
    data = client.post("/api/ask", json={"question": "Какая столица Австралии?"}).json()
    assert data["not_found"] is True


@pytest.mark.parametrize(
    "body,status",
    [
        ({"query": "и или"}, 400),  # only stop words
        ({"query": "отпуск", "k": 0}, 422),  # validation
        ({"query": "отпуск", "retriever": "magic"}, 400),
    ],
)
def test_bad_requests_get_a_clear_error(client: TestClient, body: dict[str, object], status: int) -> None:
    response = client.post("/api/search", json=body)
    assert response.status_code == status
    if status == 400:
        assert "error" in response.json()
