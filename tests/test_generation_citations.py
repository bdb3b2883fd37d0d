"""The citation check: valid, missing, out-of-range and unsupported citations; renumbering."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citerag.generation.answer import FlagKind, Source
from citerag.generation.citations import CheckConfig, check_citations
from citerag.generation.sentences import citation_numbers, split_sentences
from citerag.generation.support import SupportScorer
from citerag.text import Analyzer

TEXTS = [
    "Каждому сотруднику положено 28 календарных дней ежегодного оплачиваемого отпуска.",
    "Отпуск можно перенести на следующий год по согласованию с руководителем.",
    "VPN-сессия разрывается через 12 часов, после чего нужно подключиться снова.",
]


def make_sources(texts: list[str] = TEXTS) -> list[Source]:
    return [
        Source(
            number=i,
            chunk_id=f"c{i}",
            doc_id=f"d{i}",
            source=f"doc{i}.md",
            title=f"Документ {i}",
            headings=(),
            page=None,
            score=1.0 / i,
            text=text,
        )
        for i, text in enumerate(texts, 1)
    ]


@pytest.fixture(scope="module")
def scorer() -> SupportScorer:
    return SupportScorer(Analyzer())


def test_valid_citations_pass_and_are_supported(scorer: SupportScorer) -> None:
    text = "Сотруднику положено 28 календарных дней отпуска [1]. Отпуск можно перенести на следующий год [2]."
    checked = check_citations(text, make_sources(), scorer)
    assert checked.text == text
    assert checked.report.ok
    assert [s.citations for s in checked.report.sentences] == [(1,), (2,)]
    assert all(s.supported for s in checked.report.sentences)
    assert checked.report.sentences[0].support[0].lemma_overlap == 1.0
    assert checked.flags == ()


def test_citations_are_renumbered_by_first_appearance_with_the_sources(scorer: SupportScorer) -> None:
    text = "VPN разрывается через 12 часов [3]. Отпуск длится 28 календарных дней [1][3]."
    checked = check_citations(text, make_sources(), scorer)
    assert checked.text == "VPN разрывается через 12 часов [1]. Отпуск длится 28 календарных дней [2][1]."
    assert dict(checked.report.renumbering) == {3: 1, 1: 2}
    numbers = {s.number: (s.chunk_id, s.cited) for s in checked.sources}
    assert numbers == {1: ("c3", True), 2: ("c1", True), 3: ("c2", False)}
    # the uncited [1] in sentence 2 ("VPN" source) does not back the vacation claim
    second = checked.report.sentences[1]
    assert [(c.source, c.supported) for c in second.support] == [(2, True), (1, False)]
    assert second.supported  # one supporting source is enough for the sentence


def test_out_of_range_citations_are_flagged_and_removed(scorer: SupportScorer) -> None:
    text = "Сотруднику положено 28 календарных дней отпуска [1][7]. Отпуск можно перенести [9]."
    checked = check_citations(text, make_sources(), scorer)
    assert checked.text == "Сотруднику положено 28 календарных дней отпуска [1]. Отпуск можно перенести."
    assert checked.report.invalid == (7, 9)
    kinds = [f.kind for f in checked.flags]
    assert kinds.count(FlagKind.INVALID_CITATION) == 2
    # the second sentence lost its only citation: now it is uncited
    assert checked.report.uncited == (1,)
    assert FlagKind.UNCITED_SENTENCE in kinds
    assert not checked.report.ok


def test_sentences_without_citation_are_flagged(scorer: SupportScorer) -> None:
    text = "Отпуск длится 28 календарных дней [1]. Кроме того, компания оплачивает обеды сотрудникам."
    checked = check_citations(text, make_sources(), scorer)
    assert checked.report.uncited == (1,)
    flag = next(f for f in checked.flags if f.kind is FlagKind.UNCITED_SENTENCE)
    assert flag.sentence == 1 and "обеды" in flag.detail
    assert checked.report.coverage == pytest.approx(0.5)


def test_unsupported_citation_is_flagged_but_kept(scorer: SupportScorer) -> None:
    text = "Компания оплачивает обеды и фитнес сотрудникам [2]."
    checked = check_citations(text, make_sources(), scorer)
    assert checked.text == text.replace("[2]", "[1]")  # kept (renumbered): the report tells
    assert checked.report.unsupported == (0,)
    flag = next(f for f in checked.flags if f.kind is FlagKind.UNSUPPORTED_CITATION)
    assert flag.source == 1  # renumbered: [2] became the first cited source
    assert checked.sources[0].chunk_id == "c2"


def test_support_threshold_is_configurable(scorer: SupportScorer) -> None:
    text = "Сотрудникам положено 28 дней и бесплатные обеды [1]."  # half of it is in source 1
    strict = check_citations(text, make_sources(), scorer, CheckConfig(min_support=0.9))
    lenient = check_citations(text, make_sources(), scorer, CheckConfig(min_support=0.3))
    assert strict.report.unsupported == (0,)
    assert lenient.report.unsupported == ()


def test_grouped_and_range_citations(scorer: SupportScorer) -> None:
    text = "Отпуск длится 28 дней, его можно перенести, VPN разрывается через 12 часов [1-3]. Итог [2, 1]."
    checked = check_citations(text, make_sources(), scorer)
    assert checked.report.sentences[0].citations == (1, 2, 3)
    assert checked.text.startswith("Отпуск длится 28 дней, его можно перенести, VPN разрывается через 12 часов [1][2][3].")
    assert citation_numbers("1, 3-5") == [1, 3, 4, 5]
    assert citation_numbers("2;4") == [2, 4]


def test_marker_after_the_period_belongs_to_the_sentence_before() -> None:
    text = "Отпуск длится 28 дней. [1] Перенос возможен [2]."
    assert [s.text for s in split_sentences(text)] == ["Отпуск длится 28 дней. [1]", "Перенос возможен [2]."]


def test_list_intro_and_bare_markers_are_not_flagged(scorer: SupportScorer) -> None:
    text = "Порядок такой:\n- отпуск длится 28 календарных дней [1]\n- перенос согласует руководитель [2]"
    checked = check_citations(text, make_sources(), scorer)
    assert checked.report.uncited == ()
    assert [s.citations for s in checked.report.sentences] == [(1,), (2,)]


def test_english_answer_is_checked_too(scorer: SupportScorer) -> None:
    sources = make_sources(["Every employee gets 28 calendar days of paid leave per year.", "Backups run nightly at 2 am."])
    checked = check_citations("Employees get 28 calendar days of leave [1]. Backups run at noon [1].", sources, scorer)
    assert checked.report.sentences[0].supported
    assert checked.report.unsupported == (1,)


class FixedEmbedder:
    """Vectors chosen by the test: 'paraphrase' texts point the same way as the source."""

    def embed_documents(self, texts):  # type: ignore[no-untyped-def]
        import numpy as np

        return np.array([[1.0, 0.0] if ("оплачиваемый" in t or "отпуск" in t.lower()) else [0.0, 1.0] for t in texts])

    def embed_query(self, text):  # type: ignore[no-untyped-def]
        import numpy as np

        return np.array([1.0, 0.0])


def test_embedding_similarity_rescues_a_paraphrase() -> None:
    text = "Ежегодный отдых сотрудников составляет четыре недели [1]."  # few shared lemmas
    sources = make_sources(["Каждому положено 28 дней оплачиваемого отпуска."])
    lexical = check_citations(text, sources, SupportScorer(Analyzer()))
    assert lexical.report.unsupported == (0,)
    paraphrase = CheckConfig(min_similarity=0.8)
    dense = check_citations(text, sources, SupportScorer(Analyzer(), FixedEmbedder()), paraphrase)
    support = dense.report.sentences[0].support[0]
    assert support.embedding_similarity is not None
    # the claim has no "отпуск": its vector is orthogonal, so it stays unsupported
    assert not support.supported
    text2 = "Отпуск — это ежегодный отдых сотрудников продолжительностью четыре недели [1]."
    dense2 = check_citations(text2, sources, SupportScorer(Analyzer(), FixedEmbedder()), paraphrase)
    assert dense2.report.sentences[0].support[0].embedding_similarity == pytest.approx(1.0)
    assert dense2.report.sentences[0].supported
    # without a similarity threshold the cosine is reported but does not decide
    default = check_citations(text2, sources, SupportScorer(Analyzer(), FixedEmbedder()))
    assert default.report.sentences[0].support[0].embedding_similarity == pytest.approx(1.0)
    assert not default.report.sentences[0].supported


def test_citation_variants_models_write_are_normalised(scorer: SupportScorer) -> None:
    text = (
        "Сотруднику положено 28 календарных дней отпуска [Источник 1]. "
        "Отпуск можно перенести на следующий год 【2】. "
        "VPN разрывается через 12 часов [source: 3]."
    )
    checked = check_citations(text, make_sources(), scorer)
    assert checked.text == (
        "Сотруднику положено 28 календарных дней отпуска [1]. "
        "Отпуск можно перенести на следующий год [2]. "
        "VPN разрывается через 12 часов [3]."
    )
    assert checked.report.ok


def test_a_closing_source_list_is_not_a_claim(scorer: SupportScorer) -> None:
    text = "Сотруднику положено 28 календарных дней отпуска [1].\n\n**Источники:** [1], [2]"
    checked = check_citations(text, make_sources(), scorer)
    assert len(checked.report.sentences) == 1
    assert checked.report.ok and checked.flags == ()
    # bracketed years and words are not citations
    plain = check_citations("Положение действует с 2025 года [2025 г.] [1].", make_sources(), scorer)
    assert plain.report.invalid == ()

_WORDS = ["Отпуск", "длится", "28", "дней", "VPN", "перенос", "руководитель", "часов"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5), st.lists(st.integers(0, 6), max_size=3)),
        min_size=1,
        max_size=6,
    )
)
def test_renumbering_invariants(scorer: SupportScorer, parts: list[tuple[list[str], list[int]]]) -> None:
    text = " ".join(" ".join(words) + "".join(f"[{n}]" for n in numbers) + "." for words, numbers in parts)
    checked = check_citations(text, make_sources(), scorer)
    used = [int(n) for n in re.findall(r"\[(\d+)\]", checked.text)]
    firsts = list(dict.fromkeys(used))
    assert firsts == list(range(1, len(firsts) + 1))  # numbered by first appearance
    assert [s.number for s in checked.sources] == [1, 2, 3]  # every source keeps one number
    assert all(s.cited == (s.number in firsts) for s in checked.sources)
    valid_given = {n for _, numbers in parts for n in numbers if 1 <= n <= 3}
    assert len(firsts) == len(valid_given)
    assert set(checked.report.invalid) == {n for _, numbers in parts for n in numbers if not 1 <= n <= 3}

