"""Tolerances by meaning (issue 30 item 6): every tolerance says why it is what it is, and none is
defined twice.

Two AST scans of ``theory``, ``numerics``, ``sims`` and ``tests``:

- A numeric literal (or an arithmetic of literals) given to a tolerance parameter -- as a call
  keyword (``rtol=1e-3``) or a parameter default (``def f(margin=0.1)``) -- must carry a short
  comment on its line giving its reason; otherwise name it (a constant with its reason).  Zero is
  allowed: ``atol=0.0`` is the absence of a tolerance, not a tolerance.
- A module-level tolerance constant (a name with ``TOL``, ``GAP``, ``MARGIN``, ``BAND``, ``SLACK``
  in it, or ``Z_...``) is defined in one module only: the shared kinds live in
  :mod:`numerics.testing`, a paper's own ones once in the paper's modules and imported elsewhere.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Parameter names that carry a tolerance, a band, a margin or a power/bias allowance.
TOLERANCE_ARGS = frozenset(
    {
        "rtol",
        "atol",
        "tol",
        "tolerance",
        "band",
        "bias",
        "margin",
        "power",
        "z",
        "bound",
        "rel_tol",
        "abs_tol",
    }
)


def _bare_number(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _bare_number(node.operand)
    if isinstance(node, ast.BinOp):
        return _bare_number(node.left) and _bare_number(node.right)
    return False


def _value(node: ast.AST) -> float:
    """The value of a bare-number expression (literals and + - * / ** of literals)."""
    return float(eval(compile(ast.Expression(node), "<tolerance>", "eval"), {}))  # noqa: S307


def _is_zero(node: ast.AST) -> bool:
    return _bare_number(node) and _value(node) == 0.0


def _commented_lines(source: str) -> set[int]:
    """Line numbers that carry a ``#`` comment."""
    toks = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0] for t in toks if t.type == tokenize.COMMENT}


def bare_tolerances(source: str, filename: str = "<string>") -> list[str]:
    """``"file:line name=value"`` for every bare tolerance in ``source`` without a comment on its
    line.

    >>> bare_tolerances("f(x, rtol=1e-3, atol=0.0, margin=M)")
    ['<string>:1 rtol=0.001']
    >>> bare_tolerances("def g(a, *, band=0.2): pass")
    ['<string>:1 band=0.2']
    >>> bare_tolerances("f(x, rtol=1e-3)  # float64 round-off of a 3-term sum")
    []
    """
    commented = _commented_lines(source)
    out = []
    for node in ast.walk(ast.parse(source)):
        pairs: list[tuple[str, ast.AST]] = []
        if isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords if k.arg]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            a = node.args
            pos = a.posonlyargs + a.args
            pairs = [
                (p.arg, d)
                for p, d in zip(pos[len(pos) - len(a.defaults) :], a.defaults, strict=True)
            ]
            pairs += [
                (p.arg, d)
                for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)
                if d is not None
            ]
        for name, value in pairs:
            if (
                name in TOLERANCE_ARGS
                and _bare_number(value)
                and not _is_zero(value)
                and value.lineno not in commented
            ):
                out.append(f"{filename}:{value.lineno} {name}={_value(value)!r}")
    return out


FILES = sorted(p for d in ("theory", "numerics", "sims", "tests") for p in (ROOT / d).rglob("*.py"))


def test_no_bare_tolerance_argument() -> None:
    found = [
        hit
        for p in FILES
        for hit in bare_tolerances(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))
    ]
    assert not found, (
        f"{len(found)} bare numbers passed as tolerances without a reason; give each a short "
        "comment on its line, or name it (a constant with its reason):\n" + "\n".join(found)
    )


#: A module-level name that holds a tolerance, a gap, a margin, a band or a z-score.
TOLERANCE_NAME = re.compile(r"^(?:Z_[A-Z0-9_]+|[A-Z0-9_]*(?:TOL|GAP|MARGIN|BAND|SLACK)[A-Z0-9_]*)$")


def tolerance_constants(source: str) -> list[tuple[str, int]]:
    r"""``(name, line)`` of every module-level tolerance constant assigned in ``source``.

    >>> tolerance_constants("STRICT_GAP = 1e-9\nN_MAX = 4\nZ_MC: float = 5.0\ndef f():\n TOL = 1")
    [('STRICT_GAP', 1), ('Z_MC', 3)]
    """
    out = []
    for node in ast.parse(source).body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign) and node.value is not None
            else []
        )
        out += [(t.id, node.lineno) for t in targets if isinstance(t, ast.Name)]
    return [(n, line) for n, line in out if TOLERANCE_NAME.match(n)]


def defined_twice(sources: dict[str, str]) -> dict[str, list[str]]:
    r"""``{name: ["file:line", ...]}`` for each tolerance constant defined in two or more modules.

    >>> defined_twice({"a.py": "GAP = 1e-9", "b.py": "GAP = 1e-9\nRTOL = 1", "c.py": "RTOL = 2"})
    {'GAP': ['a.py:1', 'b.py:1'], 'RTOL': ['b.py:2', 'c.py:1']}
    """
    where: dict[str, list[str]] = defaultdict(list)
    for filename, source in sources.items():
        for name, line in tolerance_constants(source):
            where[name].append(f"{filename}:{line}")
    return {n: w for n, w in sorted(where.items()) if len({p.split(":")[0] for p in w}) > 1}


def test_no_tolerance_constant_defined_twice() -> None:
    twice = defined_twice({str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in FILES})
    assert not twice, (
        f"{len(twice)} tolerance constants are defined in more than one module; define each once "
        "(a shared kind in numerics/testing.py) and import it:\n"
        + "\n".join(f"{n}: {', '.join(w)}" for n, w in twice.items())
    )


def test_scan_rejects_a_planted_second_definition() -> None:
    """Negative control: a constant defined in two modules is found; one definition is not."""
    assert defined_twice({"x.py": "EXACT_GAP = 1e-12", "y.py": "EXACT_GAP = 1e-12"})
    assert not defined_twice({"x.py": "EXACT_GAP = 1e-12", "y.py": "from x import EXACT_GAP"})


@pytest.mark.parametrize(
    "src", ["check(rtol=2e-3)", "check(margin=-(1 / 10))", "def f(tol=5): pass"]
)
def test_scan_rejects_a_planted_bare_tolerance(src: str) -> None:
    """Negative control: the scan finds a planted bare tolerance."""
    assert bare_tolerances(src)
