"""Compare two ``results.json`` files row by row (``icl-verify compare OLD NEW``).

A refactor, an upgrade of numpy/torch, or a second machine should not change what the report
says.  Rows are matched by (result id, evidence name, occurrence), and each matched row is
classified as

* ``identical`` -- predicted, observed, tolerance and pass are equal;
* ``close`` -- numbers agree to ``rtol`` (default 1e-12, float round-off), pass unchanged;
* ``changed`` -- anything else (listed with both values);
* ``missing`` / ``new`` -- a row present on one side only.

Kinds and check-function paths are reported when they differ but do not count as a change: they
describe *how* a row was produced, not what it says.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["RowDiff", "Comparison", "compare_files", "compare", "format_comparison"]

_FIELDS = ("predicted", "observed", "tolerance", "pass")


@dataclass(frozen=True, slots=True)
class RowDiff:
    """One evidence row that differs between the two files."""

    key: tuple[str, str, int]  # (result id, evidence name, occurrence index)
    status: str  # "close", "changed", "missing", "new"
    old: dict[str, Any] | None
    new: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Comparison:
    """Counts per status, the differing rows, and rows whose kind changed."""

    counts: dict[str, int]
    diffs: tuple[RowDiff, ...]
    kind_changes: tuple[tuple[tuple[str, str, int], str, str], ...] = field(default=())

    @property
    def unchanged(self) -> bool:
        """No row changed, went missing or appeared (``close`` rows are fine)."""
        return all(self.counts.get(s, 0) == 0 for s in ("changed", "missing", "new"))

    def summary(self) -> str:
        parts = [
            f"{k}: {self.counts.get(k, 0)}"
            for k in ("identical", "close", "changed", "missing", "new")
        ]
        return ", ".join(parts) + f"; kind changed on {len(self.kind_changes)} rows"


def _rows(doc: dict[str, Any]) -> Iterator[tuple[tuple[str, str, int], dict[str, Any]]]:
    seen: Counter[tuple[str, str]] = Counter()
    for res in doc["results"]:
        for ev in res["evidence"]:
            k = (res["id"], ev["name"])
            yield (k[0], k[1], seen[k]), ev
            seen[k] += 1


#: Numbers of two reports that differ by float round-off only count as "close", not "changed".
CLOSE_RTOL = 1e-12


def _close(a: Any, b: Any, rtol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if a == b:
            return True
        return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= rtol * max(abs(a), abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol) for x, y in zip(a, b, strict=True))
    return a == b


def compare(
    old: dict[str, Any],
    new: dict[str, Any],
    *,
    rtol: float = CLOSE_RTOL,
    papers: tuple[str, ...] = (),
) -> Comparison:
    """Compare two parsed ``results.json`` documents (only the given paper keys, if any)."""
    a, b = dict(_rows(old)), dict(_rows(new))
    if papers:
        a = {k: v for k, v in a.items() if k[0].split(":", 1)[0] in papers}
        b = {k: v for k, v in b.items() if k[0].split(":", 1)[0] in papers}
    counts: Counter[str] = Counter()
    diffs: list[RowDiff] = []
    kinds = []
    for key in list(a) + [k for k in b if k not in a]:
        ea, eb = a.get(key), b.get(key)
        if ea is None or eb is None:
            status = "new" if ea is None else "missing"
        elif all(ea[f] == eb[f] for f in _FIELDS):
            status = "identical"
        elif ea["pass"] == eb["pass"] and all(_close(ea[f], eb[f], rtol) for f in _FIELDS):
            status = "close"
        else:
            status = "changed"
        counts[status] += 1
        if status != "identical":
            diffs.append(RowDiff(key, status, ea, eb))
        if ea is not None and eb is not None and ea["kind"] != eb["kind"]:
            kinds.append((key, ea["kind"], eb["kind"]))
    return Comparison(dict(counts), tuple(diffs), tuple(kinds))


def compare_files(
    old: str | Path, new: str | Path, *, rtol: float = CLOSE_RTOL, papers: tuple[str, ...] = ()
) -> Comparison:
    """Compare two ``results.json`` files (see :func:`compare`)."""
    with open(old, encoding="utf-8") as fa, open(new, encoding="utf-8") as fb:
        return compare(json.load(fa), json.load(fb), rtol=rtol, papers=papers)


def format_comparison(c: Comparison, *, limit: int = 50) -> str:
    """A human-readable listing: the summary, then up to ``limit`` differing rows."""
    lines = [c.summary()]
    for d in c.diffs[:limit]:
        if d.status == "close":
            continue
        rid, name, occ = d.key
        lines.append(f"[{d.status}] {rid} :: {name} (#{occ})")
        for f in _FIELDS:
            va = None if d.old is None else d.old[f]
            vb = None if d.new is None else d.new[f]
            if va != vb:
                lines.append(f"    {f}: {str(va)[:120]}  ->  {str(vb)[:120]}")
    for key, ka, kb in c.kind_changes[:limit]:
        lines.append(f"[kind] {key[0]} :: {key[1]}: {ka} -> {kb}")
    return "\n".join(lines)
