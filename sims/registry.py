"""The registry of verifiable results, on the top floor where every check can be imported.

Each paper declares ``RESULTS: tuple[Result, ...]`` and ``PROPERTIES`` in
``sims/<key>/results.py``, holding the check functions themselves; the shared layer's results
(``base:*``) are in ``sims/common/results.py``.  :data:`MODULES` lists where they are.
``python -m sims.registry --markdown`` prints the table.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any

from theory.common.protocols import Claim, Result, TrainedProperty

__all__ = [
    "PAPERS",
    "MODULES",
    "all_results",
    "all_claims",
    "all_properties",
    "get",
    "resolve",
    "markdown_table",
    "trainer_module",
]

#: Paper key -> package name, in report order: one name per paper, its key, naming one package
#: on every floor (``theory/<key>/``, ``numerics/<key>/``, ``sims/<key>/``, ``tests/<key>/``) and
#: the figure module ``sims/figures/<key>.py``.
PAPERS: dict[str, str] = {
    "zfb24": "zfb24",
    "hpcy25": "hpcy25",
    "zwb24": "zwb24",  # its cross-check uses zfb24's Γ, so it comes after
    "czz24": "czz24",
    "collins24": "collins24",
}

#: Modules holding a ``RESULTS`` tuple, in report order: the shared layer's (``base:*``,
#: ``sims/common/results.py``), then each paper's ``sims/<key>/results.py``.
MODULES: tuple[str, ...] = (
    "sims.common.results",
    *(f"sims.{slug}.results" for slug in PAPERS.values()),
)


def results_module(slug: str) -> str:
    """Where a paper's ``RESULTS`` and ``PROPERTIES`` are declared: ``sims/<key>/results.py``.

    >>> results_module("czz24")
    'sims.czz24.results'
    """
    return f"sims.{slug}.results"


def claims_module(slug: str) -> str:
    """Where a paper's ``CLAIMS`` (the paper's own words) are: ``theory/<slug>/claims.py``."""
    return f"theory.{slug}.claims"


def trainer_module(slug: str) -> str:
    """The module holding a paper's trainer and training presets (``PRESETS``, ``run``,
    ``trained``): ``sims/<key>/train.py``.

    >>> trainer_module("zfb24")
    'sims.zfb24.train'
    """
    return f"sims.{slug}.train"


@functools.cache
def all_results() -> tuple[Result, ...]:
    """All registered results, in report order; ids are unique.

    Each :class:`Result` carries ``id`` (``"<paper key>:<name>"``), ``paper``, ``kind``,
    ``summary``, ``source`` (paper, theorem, equation), its declared ``checks`` and, for a
    settings-first result, its ``setting`` and the ``keys`` a researcher may change.

    >>> rs = all_results()
    >>> rs[0].id, rs[0].source
    ('base:isserlis', '[zwb24] Lemma H.4; [zfb24] Lemma 30')
    >>> len({r.id for r in rs}) == len(rs)
    True
    """
    out: list[Result] = []
    seen: dict[str, str] = {}
    for name in MODULES:
        mod = importlib.import_module(name)
        results = getattr(mod, "RESULTS", None)
        if not isinstance(results, tuple) or not all(isinstance(r, Result) for r in results):
            raise TypeError(f"{name}.RESULTS must be a tuple of Result records")
        for r in results:
            if r.id in seen:
                raise ValueError(f"duplicate result id {r.id!r} in {name} and {seen[r.id]}")
            seen[r.id] = name
            out.append(r)
    return tuple(out)


@functools.cache
def all_claims() -> dict[str, Claim]:
    """Every registered claim record, ``"<paper key>:<name>"`` -> :class:`Claim`: the ``CLAIMS``
    dict of each ``theory/<slug>/claims.py`` (and ``theory/common/claims.py`` under ``base``).
    Rows that compare with a paper carry one of these as ``details["claim"]``; a test finds each
    quote in the paper's text.

    >>> claims = all_claims()
    >>> all(key.split(":")[0] in ("base", *PAPERS) for key in claims)
    True
    """
    out: dict[str, Claim] = {}
    for key, mod_name in (
        ("base", "theory.common.claims"),
        *((k, f"theory.{slug}.claims") for k, slug in PAPERS.items()),
    ):
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError as exc:
            if exc.name != mod_name:
                raise
            continue
        claims = getattr(mod, "CLAIMS", None)
        if not isinstance(claims, dict) or not all(isinstance(c, Claim) for c in claims.values()):
            raise TypeError(f"{mod_name}.CLAIMS must be a dict of Claim records")
        out.update({f"{key}:{name}": c for name, c in claims.items()})
    return out


@functools.cache
def all_properties() -> tuple[TrainedProperty, ...]:
    """Every declared trained property: the ``PROPERTIES`` tuple of each paper's
    ``sims/<key>/results.py``, in report order.

    >>> ids = {r.id for r in all_results()}
    >>> all(p.result in ids for p in all_properties())
    True
    """
    out: list[TrainedProperty] = []
    for slug in PAPERS.values():
        try:
            mod = importlib.import_module(results_module(slug))
        except ModuleNotFoundError:
            continue
        ids = {r.id for r in getattr(mod, "RESULTS", ())}  # a property names a result of its paper
        props = getattr(mod, "PROPERTIES", ())
        if not isinstance(props, tuple) or not all(isinstance(p, TrainedProperty) for p in props):
            raise TypeError(f"{results_module(slug)}.PROPERTIES must be a tuple of TrainedProperty")
        for p in props:
            if p.result not in ids:
                raise ValueError(f"property {p.id}: no result {p.result!r}")
            if p.id in {q.id for q in out}:
                raise ValueError(f"duplicate property {p.id}")
            out.append(p)
    return tuple(out)


def get(result_id: str) -> Result:
    """The result with this id; ``KeyError`` lists close matches.

    >>> r = get("base:ols")
    >>> r.kind, r.source, r.keys
    ('baseline', '[czz24] App. F.4 (OLS; + query noise σ²)', ('d', 'N', 'sigma2'))
    >>> get("zfb24:thm44")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "no result 'zfb24:thm44'; did you mean ['zfb24:thm4', ...]?"
    """
    for r in all_results():
        if r.id == result_id:
            return r
    close = suggest(result_id)
    raise KeyError(f"no result {result_id!r}" + (f"; did you mean {close}?" if close else ""))


def suggest(result_id: str, n: int = 3) -> list[str]:
    """Registered ids close to a mistyped one (:mod:`difflib`), best first.

    >>> suggest("zfb24:thm44")[0]
    'zfb24:thm4'
    """
    import difflib

    ids = [r.id for r in all_results()]
    close = difflib.get_close_matches(result_id, ids, n=n, cutoff=0.6)
    tail = result_id.split(":")[-1]
    close += [i for i in ids if tail and tail in i and i not in close]
    return close[:n]


def resolve(path: str) -> Callable[..., Any]:
    """Import ``"package.module:attr"`` (or ``"package.module.attr"``).

    >>> resolve("theory.common.baselines:ols_risk") is resolve("theory.common.baselines.ols_risk")
    True
    """
    if ":" in path:
        mod_name, attr = path.split(":", 1)
    else:
        mod_name, _, attr = path.rpartition(".")
    obj: Any = importlib.import_module(mod_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def markdown_table() -> str:
    rows = ["| id | kind | summary | source | checks |", "|---|---|---|---|---|"]
    for r in all_results():
        tag = " *(derived)*" if r.derived else ""
        # a "|" inside a cell (|ω|) would end the cell: escape it
        summary, source = (text.replace("|", "\\|") for text in (r.summary, r.source))
        rows.append(f"| `{r.id}` | {r.kind} | {summary}{tag} | {source} | {len(r.checks)} |")
    return "\n".join(rows)


def update_readme(path: str) -> None:
    """Rewrite the table between ``<!-- RESULTS-TABLE -->`` and ``<!-- /RESULTS-TABLE -->``."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start, stop = "<!-- RESULTS-TABLE -->", "<!-- /RESULTS-TABLE -->"
    i, j = text.index(start), text.index(stop)
    text = text[: i + len(start)] + "\n" + markdown_table() + "\n" + text[j:]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


if __name__ == "__main__":  # pragma: no cover
    if "--readme" in sys.argv:
        update_readme(sys.argv[sys.argv.index("--readme") + 1])
    elif "--markdown" in sys.argv:
        print(markdown_table())
    else:
        for r in all_results():
            print(f"{r.id:28s} {r.summary}")
