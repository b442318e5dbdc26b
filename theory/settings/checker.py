"""Validation at the definition: :class:`Checker` and :func:`validated` wrap a public function so
that every declared argument is checked against its :class:`~theory.settings.kinds.Domain` when
it is called (see :mod:`theory.settings.domains`, which re-exports them).

Only the outermost validated call on a thread checks and records its arguments; ``fn.raw`` is the
unchecked function.  :func:`validate_exports` replaces a namespace's exports by wrappers (the form
used by code outside this repository).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from theory.settings.arguments import RECORDERS, record
from theory.settings.kinds import Domain, check_value

__all__ = ["validated", "Checker", "validate_exports"]

#: Depth of validated calls on this thread: only the outermost one checks and records.
_DEPTH = threading.local()


def validated(
    fn: Callable[..., Any],
    domains: Mapping[str, Domain],
    *,
    args: Sequence[str] | None = None,
    paper: str | None = None,
) -> Callable[..., Any]:
    """``fn`` with its declared arguments checked at call time (see the module docstring).

    ``domains`` maps parameter names to domains (names not in the signature are ignored);
    ``args`` names the positional parameters of a ``*args`` function (a lambdified twin).  The
    wrapper carries ``__domains__`` (name → domain, the harness reads it) and ``raw`` (``fn``).

    Examples
    --------
    >>> from theory.settings.kinds import Domain
    >>> f = validated(lambda N: 2 * N, {"N": Domain("count", 3)}, paper="demo")
    >>> f(3)
    6
    >>> f(0)
    Traceback (most recent call last):
    ...
    ValueError: N must be an integer ≥ 1 (demo), got 0
    """
    if args is not None:
        sig = inspect.Signature(
            [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in args]
        )
    else:
        sig = inspect.signature(fn)
    names = [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    doms = {
        p: (domains[p].with_(paper=paper) if paper else domains[p])
        for p in sig.parameters
        if p in domains
    }
    pos = tuple((n, doms.get(n)) for n in names)

    fn_name = f"{fn.__module__}:{fn.__qualname__}"

    def check(a: tuple[Any, ...], kw: dict[str, Any]) -> None:
        if RECORDERS:
            for (n, _), v in zip(pos, a, strict=False):
                record(fn_name, n, v)
            for n, v in kw.items():
                record(fn_name, n, v)
        sizes: dict[str, tuple[str, int]] = {}
        for (n, dom), v in zip(pos, a, strict=False):
            if dom is not None:
                size = check_value(n, v, dom)
                if dom.dim is not None and size is not None:
                    _same_size(sizes, n, size, dom)
        for n, v in kw.items():
            dom = doms.get(n)
            if dom is not None:
                size = check_value(n, v, dom)
                if dom.dim is not None and size is not None:
                    _same_size(sizes, n, size, dom)

    def enter(a: tuple[Any, ...], kw: dict[str, Any]) -> int:
        depth = getattr(_DEPTH, "n", 0)
        if depth == 0:
            check(a, kw)
        _DEPTH.n = depth + 1
        return depth

    if args is not None:

        def call(*a: Any, **kw: Any) -> Any:
            depth = enter(a, kw)
            try:
                if kw:
                    a = a + tuple(kw[n] for n in names[len(a) :])
                return fn(*a)
            finally:
                _DEPTH.n = depth
    else:

        def call(*a: Any, **kw: Any) -> Any:
            depth = enter(a, kw)
            try:
                return fn(*a, **kw)
            finally:
                _DEPTH.n = depth

    wrapper = functools.wraps(fn)(call)
    wrapper.__signature__ = sig  # type: ignore[attr-defined]
    wrapper.__domains__ = doms  # type: ignore[attr-defined]
    wrapper.raw = fn  # type: ignore[attr-defined]
    return wrapper


def _same_size(sizes: dict[str, tuple[str, int]], name: str, size: int, dom: Domain) -> None:
    assert dom.dim is not None
    prev = sizes.get(dom.dim)
    where = f" ({dom.paper})" if dom.paper else ""
    if prev is None:
        sizes[dom.dim] = (name, size)
    elif prev[1] != size:
        raise ValueError(
            f"{name} has size {size} along {dom.dim} but {prev[0]} has size "
            f"{prev[1]}{where}: the shapes do not match"
        )


class Checker:
    """A slice's validation at the definition: ``checked = Checker(DOMAINS, paper="zfb24",
    overrides=OVERRIDES)`` in ``theory/<slug>/domains.py``, then in a section module

    * ``@checked`` on a public ``def`` (its parameters' domains from the table, updated by
      ``overrides[fn.__name__]``);
    * ``@checked(domains={...})`` for a per-function change written at the definition;
    * ``name_fn = checked(twin(...), args=("Lambda", "N"))`` for a lambdified ``*args`` twin.

    The result is :func:`validated` of the function: the package exports that same object.

    >>> chk = Checker({"x": Domain("real", 1.0, lower=0.0, lower_open=True)}, paper="demo")
    >>> @chk
    ... def sq(x):
    ...     return x * x
    >>> sq(2.0), sq.raw(-1.0)
    (4.0, 1.0)
    >>> sq(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: x must be a finite real number > 0 (demo), got -1.0
    """

    def __init__(
        self,
        domains: Mapping[str, Domain],
        *,
        paper: str | None = None,
        overrides: Mapping[str, Mapping[str, Domain]] | None = None,
    ) -> None:
        self.domains = dict(domains)
        self.paper = paper
        self.overrides = dict(overrides or {})

    def __call__(
        self,
        fn: Callable[..., Any] | None = None,
        /,
        *,
        args: Sequence[str] | None = None,
        domains: Mapping[str, Domain] | None = None,
    ) -> Any:
        if fn is None:
            return lambda f: self(f, args=args, domains=domains)
        name = getattr(fn, "__name__", "")
        doms = {**self.domains, **self.overrides.get(name, {}), **(domains or {})}
        return validated(fn, doms, args=args, paper=self.paper)


def validate_exports(
    namespace: dict[str, Any],
    names: Iterable[str],
    domains: Mapping[str, Domain],
    *,
    overrides: Mapping[str, Mapping[str, Domain]] | None = None,
    args: Mapping[str, Sequence[str]] | None = None,
    paper: str | None = None,
) -> None:
    """Replace each exported function ``namespace[name]`` by :func:`validated` of it, with
    ``domains`` updated by ``overrides[name]`` and ``args[name]`` for ``*args`` twins.

    Examples
    --------
    >>> from theory.settings.kinds import Domain
    >>> def half(x):
    ...     return x / 2
    >>> ns = {"half": half}
    >>> validate_exports(ns, ["half"], {"x": Domain("real", 1.0, lower=0.0)})
    >>> ns["half"](3.0), ns["half"].raw is half
    (1.5, True)
    >>> ns["half"](-1.0)
    Traceback (most recent call last):
    ...
    ValueError: x must be a finite real number ≥ 0, got -1.0
    """
    overrides = overrides or {}
    args = args or {}
    for name in names:
        fn = namespace.get(name)
        if not inspect.isfunction(fn):
            continue
        namespace[name] = validated(
            fn, {**domains, **overrides.get(name, {})}, args=args.get(name), paper=paper
        )
