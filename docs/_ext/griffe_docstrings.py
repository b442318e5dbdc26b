"""A Griffe extension used by the documentation build (mkdocs.yml): it renders the
reStructuredText parts of our docstrings as Markdown, without changing the sources.

* roles such as ``:func:`numerics.ode.integrate``` become inline code (a leading ``~`` keeps the
  last component only, as Sphinx does);
* ``.. math::`` directives become fenced text blocks;
* doctest lines (``>>>``) outside an ``Examples`` section become fenced ``pycon`` blocks, so their
  output is shown as code (an ``Examples`` section is already rendered as code by Griffe).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|data|attr|meth|obj|exc|const):`~?([^`]+)`")
HEADER_RULE = re.compile(r"^\s*-{3,}\s*$")


def _role(match: re.Match[str]) -> str:
    text = match.group(1)
    if match.group(0).split("`", 1)[1].startswith("~"):
        text = text.rsplit(".", 1)[-1]
    return f"`{text}`"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def convert(text: str) -> str:
    """The docstring ``text`` with RST roles, math directives and loose doctests as Markdown.

    >>> convert(":func:`~a.b.c` and :class:`x.Y`")
    '`c` and `x.Y`'
    >>> convert("Summary.\\n\\n>>> 1 + 1\\n2").splitlines()
    ['Summary.', '', '```pycon', '>>> 1 + 1', '2', '```']
    """
    text = ROLE.sub(_role, text)
    lines = text.splitlines()
    out: list[str] = []
    section = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and HEADER_RULE.match(nxt):
            section = line.strip().lower()
        stripped = line.lstrip()
        if stripped.startswith(".. math::"):
            base = _indent(line)
            body = [stripped[len(".. math::") :].strip()]
            i += 1
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
                body.append(lines[i].strip())
                i += 1
            while body and not body[-1]:
                body.pop()
            pad = " " * base
            out += [pad + "```text", *[pad + b for b in body if b], pad + "```"]
            continue
        if stripped.startswith(">>>") and section != "examples":
            pad = " " * _indent(line)
            out.append(pad + "```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(pad + lines[i].strip())
                i += 1
            out.append(pad + "```")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class RstToMarkdown(griffe.Extension):
    """Convert each docstring as it is loaded (:func:`convert`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = convert(obj.docstring.value)
