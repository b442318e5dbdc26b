"""Named tolerances only (STYLE R9): no bare number is passed as a tolerance.

An AST scan of ``theory``, ``numerics``, ``sims`` and ``tests`` rejects a numeric literal (or an
arithmetic of literals) given to a tolerance parameter -- as a call keyword (``rtol=1e-3``) or as
a parameter default (``def f(margin=0.1)``).  A tolerance is a module-level constant whose name
says what it is, with a comment giving its reason.  Zero is allowed: ``atol=0.0`` is the absence
of a tolerance, not a tolerance.
"""

from __future__ import annotations

import ast
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


def bare_tolerances(source: str, filename: str = "<string>") -> list[str]:
    """``"file:line name=value"`` for every bare tolerance in ``source``.

    >>> bare_tolerances("f(x, rtol=1e-3, atol=0.0, margin=M)")
    ['<string>:1 rtol=0.001']
    >>> bare_tolerances("def g(a, *, band=0.2): pass")
    ['<string>:1 band=0.2']
    """
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
            if name in TOLERANCE_ARGS and _bare_number(value) and not _is_zero(value):
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
        f"{len(found)} bare numbers passed as tolerances; name each (a constant "
        "with its reason):\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "src", ["check(rtol=2e-3)", "check(margin=-(1 / 10))", "def f(tol=5): pass"]
)
def test_scan_rejects_a_planted_bare_tolerance(src: str) -> None:
    """Negative control: the scan finds a planted bare tolerance."""
    assert bare_tolerances(src)
