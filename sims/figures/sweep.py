"""Bound-vs-empirical plots of a sweep table (:mod:`sims.sweep`).

``bound_vs_empirical(table, x=KEY)`` draws, for each check row followed across the grid (same
check, same row index), the predicted value as a line and the observed values as markers with
±2·se bars (the mean over seeds; the se of that mean), against the grid key ``x``.  With
``loglog=True`` both axes are logarithmic and the legend carries the fitted log-log slopes of the
predicted and observed values; otherwise the slope of a straight-line fit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

__all__ = ["bound_vs_empirical", "series"]


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def series(
    table: Sequence[Mapping[str, Any]] | Mapping[str, Any], x: str, *, row: str | None = None
) -> dict[tuple[str, int], dict[str, np.ndarray]]:
    """Per (check, row index): sorted ``x``, mean predicted, mean observed, se of the mean.

    Rows whose predicted or observed value is not a finite number are skipped; ``row`` keeps only
    series whose check path or row label contains it.  Other grid keys must be constant within a
    series' x value -- give a table with one varying key or filter it first.
    """
    rows = table["rows"] if isinstance(table, Mapping) else table
    groups: dict[tuple[str, int], dict[float, list[tuple[float, float, float | None]]]] = {}
    labels: dict[tuple[str, int], str] = {}
    for r in rows:
        if x not in r:
            raise KeyError(f"{x!r} is not a column of the table")
        xv, pv, ov = _num(r[x]), _num(r.get("predicted")), _num(r.get("observed"))
        if xv is None or pv is None or ov is None:
            continue
        if row is not None and row not in r["check"] and row not in str(r["row"]):
            continue
        key = (str(r["check"]), int(r.get("index", 0)))
        labels.setdefault(key, str(r["row"]))
        groups.setdefault(key, {}).setdefault(xv, []).append((pv, ov, _num(r.get("se"))))
    out: dict[tuple[str, int], dict[str, np.ndarray]] = {}
    for key, by_x in groups.items():
        xs = np.array(sorted(by_x))
        pred, obs, se = [], [], []
        for xv in xs:
            vals = by_x[float(xv)]
            p = np.array([v[0] for v in vals])
            o = np.array([v[1] for v in vals])
            s = [v[2] for v in vals]
            n = len(vals)
            pred.append(p.mean())
            obs.append(o.mean())
            if all(v is not None for v in s):
                se.append(math.sqrt(sum(float(v) ** 2 for v in s if v is not None)) / n)
            elif n > 1:
                se.append(float(o.std(ddof=1)) / math.sqrt(n))
            else:
                se.append(0.0)
        out[key] = {
            "x": xs,
            "predicted": np.array(pred),
            "observed": np.array(obs),
            "se": np.array(se),
            "label": np.array(labels[key]),
        }
    return out


def _slope(x: np.ndarray, y: np.ndarray, loglog: bool) -> float:
    if len(x) < 2:
        return float("nan")
    if loglog:
        keep = (x > 0) & (y > 0)
        if keep.sum() < 2:
            return float("nan")
        return float(np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)[0])
    return float(np.polyfit(x, y, 1)[0])


def bound_vs_empirical(
    table: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    x: str,
    *,
    row: str | None = None,
    loglog: bool = False,
    title: str | None = None,
    max_series: int = 6,
) -> Figure:
    """Predicted (line) vs observed (markers, ±2·se) against grid key ``x``; one colour per
    check row followed across the grid (at most ``max_series``); fitted slopes in the legend.
    Without ``row``, series constant in ``x`` (checks not taking ``x``) are left out.

    ``table`` is the ``rows`` list of a sweep (or the whole ``sweep.json`` document).
    """
    data = series(table, x, row=row)
    if row is None:  # rows that do not depend on x (checks not taking it) are left out
        varying = {
            k: v for k, v in data.items() if np.ptp(v["predicted"]) > 0 or np.ptp(v["observed"]) > 0
        }
        data = varying or data
    if not data:
        raise ValueError(
            f"no row of the table has numeric predicted and observed values "
            f"along {x!r}" + (f" matching {row!r}" if row else "")
        )
    fig = Figure(figsize=(6.4, 4.4))
    ax = fig.add_subplot(1, 1, 1)
    kind = "log-log slope" if loglog else "slope"
    for j, (key, s) in enumerate(list(data.items())[:max_series]):
        color = f"C{j}"
        name = f"{key[0].rsplit(':', 1)[-1]}[{key[1]}]"
        ax.plot(
            s["x"],
            s["predicted"],
            "-",
            color=color,
            label=f"{name}: predicted ({kind} {_slope(s['x'], s['predicted'], loglog):.3g})",
        )
        ax.errorbar(
            s["x"],
            s["observed"],
            yerr=2.0 * s["se"],
            fmt="o",
            ms=4,
            capsize=3,
            color=color,
            label=f"observed ±2se ({kind} {_slope(s['x'], s['observed'], loglog):.3g})",
        )
    if loglog:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(x)
    ax.set_ylabel("value")
    results = sorted(
        {
            str(r["result"])
            for r in (table["rows"] if isinstance(table, Mapping) else table)
            if "result" in r
        }
    )
    ax.set_title(title or f"{', '.join(results)}: predicted vs observed across {x}")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    return fig
