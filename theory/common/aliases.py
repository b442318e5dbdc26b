"""Old module names that still import: a module moved to its paper section stays importable where it
was, without a file left behind under the old name.

A package that moved modules calls :func:`alias_modules` in its ``__init__`` with ``{old dotted
name: new dotted name}``; ``import old`` (and ``from old import f``, ``registry.resolve("old:f")``)
then returns the new module object itself, so there is one module, one set of functions, one
validation.  The table is the record of what moved (git keeps the history).

>>> import sys
>>> alias_modules({"theory.common._doc_alias_demo": "theory.common.symbols"})
>>> import theory.common._doc_alias_demo as m
>>> m is sys.modules["theory.common.symbols"], m.__spec__.name
(True, 'theory.common.symbols')
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

__all__ = ["alias_modules", "MOVED"]

#: Every alias installed so far: old dotted module name -> new dotted module name.
MOVED: dict[str, str] = {}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target
        self.attrs: dict[str, Any] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.attrs = {
            k: getattr(module, k) for k in ("__spec__", "__loader__") if hasattr(module, k)
        }
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the target is already executed; the import system stamped the alias's spec and loader
        # on it: give it back its own (so ``__spec__.name`` stays the real name)
        for k, v in self.attrs.items():
            setattr(module, k, v)


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


_FINDER = _AliasFinder()


def alias_modules(moved: Mapping[str, str]) -> None:
    """Make each old dotted module name import as its new module (see the module docstring).

    >>> alias_modules({"theory.common._doc_alias_demo2": "theory.common.symbols"})
    >>> MOVED["theory.common._doc_alias_demo2"]
    'theory.common.symbols'
    >>> alias_modules({"theory.common.symbols": "theory.common.symbols"})
    Traceback (most recent call last):
    ...
    ValueError: module alias 'theory.common.symbols' points at itself
    """
    for old, new in moved.items():
        if old == new:
            raise ValueError(f"module alias {old!r} points at itself")
        prev = MOVED.get(old)
        if prev is not None and prev != new:
            raise ValueError(f"module alias {old!r} already points at {prev!r}, not {new!r}")
        MOVED[old] = new
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
