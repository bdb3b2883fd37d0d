"""Grounded answers: prompt with numbered sources, call a model (or extract
sentences offline), then check every citation against its source.

Submodules are imported on demand so that ``citerag.generation.llm`` can be
used without loading the answer pipeline.
"""
