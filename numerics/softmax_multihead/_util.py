"""Small helpers shared by the hpcy25 checks."""

from __future__ import annotations

from typing import Any

from theory.common.protocols import Evidence

__all__ = ["band"]


def band(name: str, value: float, lo: float | None, hi: float | None, *, kind: str = "ORDER",
         details: dict[str, Any] | None = None) -> Evidence:
    """``lo ≤ value ≤ hi`` (a stated acceptance band from spec 001, cited in ``details``).

    ``error`` is the distance outside the band in units of the band's half-width (0 inside).
    """
    v = float(value)
    lo_ = -float("inf") if lo is None else float(lo)
    hi_ = float("inf") if hi is None else float(hi)
    width = (hi_ - lo_) / 2 if lo is not None and hi is not None else max(abs(lo_ if lo is not None
                                                                             else hi_), 1e-300)
    out = max(lo_ - v, v - hi_, 0.0)
    ok = lo_ <= v <= hi_
    err = (out / width if width > 0 else float("inf")) if not ok else 0.0
    return Evidence(name=name, kind=kind, predicted=f"[{lo_:.6g}, {hi_:.6g}]", observed=v,
                    tolerance=float(width), error=float(err) if err == err else float("inf"),
                    passed=bool(ok), details=details or {})
