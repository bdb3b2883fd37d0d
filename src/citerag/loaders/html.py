"""``.html``/``.htm``: the main text with its headings; scripts, styles and navigation dropped."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode as Node

from citerag.errors import DocumentError
from citerag.loaders.builder import TextBuilder, clean_inline
from citerag.loaders.parsed import Parsed
from citerag.loaders.text import decode_text, first_title

# Never part of the readable text.
DROPPED = ("script", "style", "noscript", "template", "nav", "aside", "form", "button",
           "svg", "iframe", "object", "canvas", "select", "head")
# Site banners and footers, unless they belong to an article (its title, byline).
PAGE_CHROME = ("header", "footer")
HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCKS = frozenset(
    "address article blockquote dd details dialog div dl dt fieldset figcaption figure li main "
    "ol p pre section summary table tbody thead tfoot tr ul caption hr body".split()
)
CELLS = frozenset({"td", "th"})
_WHITESPACE = re.compile(r"\s+")


def parse_html(data: bytes) -> Parsed:
    tree = LexborHTMLParser(decode_text(data))
    title_node = tree.css_first("title")
    page_title = clean_inline(title_node.text()) if title_node else ""
    for selector in DROPPED:
        for node in tree.css(selector):
            node.decompose()
    for node in tree.css('[role="navigation"], [aria-hidden="true"], [hidden]'):
        node.decompose()
    for selector in PAGE_CHROME:
        for node in tree.css(selector):
            if not _inside(node, ("article", "main")):
                node.decompose()
    root = tree.css_first("main") or tree.css_first("article") or tree.body or tree.root
    if root is None:
        raise DocumentError("HTML without a body")
    builder = TextBuilder()
    _Walker(builder).walk(root)
    text = builder.text()
    if not text.strip():
        raise DocumentError("HTML page has no readable text")
    return builder.build("html", page_title or first_title(builder.outline))


def _inside(node: Node, tags: tuple[str, ...]) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag in tags:
            return True
        parent = parent.parent
    return False


class _Walker:
    """Depth-first walk that gathers inline text into paragraphs."""

    def __init__(self, builder: TextBuilder) -> None:
        self.builder = builder
        self.line: list[str] = []

    def flush(self) -> None:
        if self.line:
            self.builder.paragraph(clean_inline("".join(self.line)).strip(" |"))
            self.line = []

    def walk(self, root: Node) -> None:
        # An explicit stack: deeply nested pages must not hit the recursion limit.
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, leaving = stack.pop()
            tag = node.tag
            if leaving:
                if tag in BLOCKS:
                    self.flush()
                elif tag in CELLS:
                    self.line.append(" | ")
                continue
            if tag == "-text":
                # Source line breaks are mere spaces in HTML; only <br> breaks a line.
                self.line.append(_WHITESPACE.sub(" ", node.text_content or ""))
                continue
            if tag in HEADINGS:
                self.flush()
                # No separator: inline tags may split a word ("Нас<b>ос</b>").
                self.builder.heading(HEADINGS[tag], node.text(deep=True, separator=""))
                continue
            if tag == "br":
                self.line.append("\n")
                continue
            if tag in BLOCKS:
                self.flush()
            stack.append((node, True))
            children = list(node.iter(include_text=True))
            stack.extend((child, False) for child in reversed(children))
        self.flush()
