"""Bound-vs-empirical plots of a sweep table (:mod:`sims.sweep`), fit for a talk.

``bound_vs_empirical(table, x=KEY)`` draws, for each check row followed across the grid (same
check, same row index), the predicted value as a line and the observed values as markers with
±2·se bars (the mean over seeds; the se of that mean), against the grid key ``x``.  Labels come
from the rows' own text; INFO rows are never drawn as predictions; a row whose values are
matrices or vectors is drawn as one number, the relative distance ‖observed − predicted‖ /
‖predicted‖ (its prediction is 0), and, for a trained row naming alternatives, the relative
distance to each named alternative beside it (the table's ``distances``: the measure the check
judged), with the tolerance as a dotted line; integer grid keys get integer ticks;
fitted slopes are given only on log-log axes (``loglog=True``), where they mean a rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

__all__ = ["bound_vs_empirical", "series", "AXIS_LABELS"]

#: How a grid key reads on an axis (mathtext); a key not listed is shown as it is.
AXIS_LABELS: dict[str, str] = {
    "N": r"context length $N$",
    "n": r"context length $n$",
    "L": r"context length $L$",
    "M": r"test prompt length $M$",
    "d": r"dimension $d$",
    "H": r"heads $H$",
    "sigma2": r"noise variance $\sigma^2$",
    "noise_var": r"noise variance $\sigma^2$",
    "sigma_init": r"initialisation scale $\sigma$",
    "delta": r"$\delta$",
    "s": r"sparsity $s$",
}


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def _array(v: Any) -> np.ndarray | None:
    """A finite numeric vector/matrix value (a list of lists), else ``None``."""
    if not isinstance(v, list):
        return None
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        return None
    return a if a.size and np.all(np.isfinite(a)) else None


def _values(r: Mapping[str, Any]) -> tuple[float, float] | None:
    """(predicted, observed) of a row as numbers: scalars as they are; arrays as (0, relative
    distance to the prediction) -- the table's ``distances["prediction"]`` where the row has one
    (a trained row's own measure), else ‖observed − predicted‖ / ‖predicted‖."""
    pv, ov = _num(r.get("predicted")), _num(r.get("observed"))
    if pv is not None and ov is not None:
        return pv, ov
    pa, oa = _array(r.get("predicted")), _array(r.get("observed"))
    if pa is None or oa is None or pa.shape != oa.shape:
        return None
    own = _num((r.get("distances") or {}).get("prediction"))
    if own is not None:
        return 0.0, own
    norm = float(np.linalg.norm(pa))
    if norm == 0:
        return None
    return 0.0, float(np.linalg.norm(oa - pa)) / norm


def _alternatives(r: Mapping[str, Any]) -> dict[str, float]:
    """Named alternative -> relative distance of the observed value to it (the table's
    ``distances``), for a row that names any."""
    out: dict[str, float] = {}
    for a in (r.get("distances") or {}).get("alternatives") or ():
        v = _num(a.get("relative_distance")) if isinstance(a, Mapping) else None
        if v is not None:
            out[str(a.get("name", ""))] = v
    return out


def series(
    table: Sequence[Mapping[str, Any]] | Mapping[str, Any], x: str, *, row: str | None = None
) -> dict[tuple[str, int], dict[str, Any]]:
    """Per (check, row index): sorted ``x``, mean predicted, mean observed, se of the mean, and
    for a matrix row naming alternatives ``"alternatives"``: name -> mean relative distance of the
    observed value to it at each ``x`` (NaN where a seed's row did not name it).

    Rows whose predicted or observed value is not a finite number are skipped; ``row`` keeps only
    series whose check path or row label contains it.  Other grid keys must be constant within a
    series' x value -- give a table with one varying key or filter it first.
    """
    rows = table["rows"] if isinstance(table, Mapping) else table
    groups: dict[tuple[str, int], dict[float, list[tuple[float, float, float | None]]]] = {}
    labels: dict[tuple[str, int], str] = {}
    matrix: dict[tuple[str, int], bool] = {}
    alts: dict[tuple[str, int], dict[float, list[dict[str, float]]]] = {}
    for r in rows:
        if x not in r:
            raise KeyError(f"{x!r} is not a column of the table")
        if r.get("kind") == "INFO":  # reported only: never drawn as a prediction
            continue
        xv, vals = _num(r[x]), _values(r)
        if xv is None or vals is None:
            continue
        pv, ov = vals
        if row is not None and row not in r["check"] and row not in str(r["row"]):
            continue
        key = (str(r["check"]), int(r.get("index", 0)))
        labels.setdefault(key, str(r["row"]))
        is_matrix = _num(r.get("predicted")) is None
        matrix[key] = is_matrix
        se = None if is_matrix else _num(r.get("se"))
        groups.setdefault(key, {}).setdefault(xv, []).append((pv, ov, se))
        if is_matrix:
            alts.setdefault(key, {}).setdefault(xv, []).append(_alternatives(r))
    out: dict[tuple[str, int], dict[str, Any]] = {}
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
            "matrix": np.array(matrix[key]),
            "alternatives": _mean_alternatives(xs, alts.get(key, {})),
        }
    return out


def _mean_alternatives(
    xs: np.ndarray, by_x: Mapping[float, list[dict[str, float]]]
) -> dict[str, np.ndarray]:
    """Name -> mean over seeds of the relative distance to that alternative at each ``x``."""
    names = list(dict.fromkeys(n for rows in by_x.values() for d in rows for n in d))
    out = {}
    for name in names:
        vals = []
        for xv in xs:
            got = [d[name] for d in by_x.get(float(xv), []) if name in d]
            vals.append(float(np.mean(got)) if got else float("nan"))
        out[name] = np.array(vals)
    return out


def _short_label(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _without_key(text: str, key: str) -> str:
    """A row's text with the swept key's value taken out (``"risk, d=3, N=8"`` -> ``"risk,
    d=3"`` along ``N``): the value is the x axis, not the series."""
    import re

    out = re.sub(rf"(,\s*)?\b{re.escape(key)}\s*=\s*[^,;)\s]+", "", text)
    out = re.sub(r"\(\s*\)", "", out).strip(" ,;")
    return re.sub(r"\s+(at|for|with|of)$", "", out)


#: Markers of the named alternatives' distances (the prediction's distance is drawn with "o").
_ALT_MARKERS = ("s", "^", "v", "D", "P", "X")


def _matrix_tolerances(
    table: Sequence[Mapping[str, Any]] | Mapping[str, Any], data: Mapping[tuple[str, int], Any]
) -> dict[tuple[str, int], float]:
    """The tolerance of each matrix series that names alternatives (one value across the grid;
    a series whose tolerance moves with ``x`` gets no line)."""
    rows = table["rows"] if isinstance(table, Mapping) else table
    seen: dict[tuple[str, int], set[float]] = {}
    for r in rows:
        key = (str(r.get("check")), int(r.get("index", 0)))
        tol = _num(r.get("tolerance"))
        if key in data and bool(data[key]["matrix"]) and r.get("distances") and tol is not None:
            seen.setdefault(key, set()).add(tol)
    return {k: v.pop() for k, v in seen.items() if len(v) == 1}


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
    setting: str = "",
) -> Figure:
    """Predicted (line) vs observed (markers, ±2·se) against grid key ``x``; one colour per
    check row followed across the grid (at most ``max_series``); fitted slopes in the legend.
    Without ``row``, series constant in ``x`` (checks not taking ``x``) are left out.

    ``table`` is the ``rows`` list of a sweep (or the whole ``sweep.json`` document);
    ``setting`` states the values held fixed (shown under the title).
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
    fig = Figure(figsize=(7.2, 4.8))
    ax = fig.add_subplot(1, 1, 1)
    tolerances = _matrix_tolerances(table, data)
    for j, (key, s) in enumerate(list(data.items())[:max_series]):
        color = f"C{j}"
        name = _short_label(_without_key(str(s["label"]), x))
        if bool(s["matrix"]):
            for k, (alt, dist) in enumerate(s["alternatives"].items()):
                ax.plot(
                    s["x"],
                    dist,
                    ls="--",
                    marker=_ALT_MARKERS[k % len(_ALT_MARKERS)],
                    ms=4,
                    color=color,
                    alpha=0.7,
                    label=f"{name}: relative distance to {_short_label(alt, 40)}",
                )
            if key in tolerances:
                ax.axhline(tolerances[key], ls=":", color=color, lw=1, label=f"{name}: tolerance")
            name = f"{name}: relative distance to the prediction"
        pslope = f", slope {_slope(s['x'], s['predicted'], True):.2f}" if loglog else ""
        oslope = f", slope {_slope(s['x'], s['observed'], True):.2f}" if loglog else ""
        if not bool(s["matrix"]):
            ax.plot(s["x"], s["predicted"], "-", color=color, label=f"{name} (predicted{pslope})")
        ax.errorbar(
            s["x"],
            s["observed"],
            yerr=2.0 * s["se"],
            fmt="o",
            ms=5,
            capsize=3,
            color=color,
            label=f"{name} (observed ±2 se{oslope})",
        )
    if loglog:
        ax.set_xscale("log")
        ax.set_yscale("log")
    elif all(float(v).is_integer() for s in data.values() for v in s["x"]):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(AXIS_LABELS.get(x, x))
    names = {_without_key(str(s["label"]), x) for s in data.values()}
    ylabel = _short_label(names.pop()) if len(names) == 1 else "predicted and observed"
    if all(bool(s["matrix"]) for s in data.values()):
        ylabel = r"$\|\mathrm{observed} - \mathrm{predicted}\| \,/\, \|\mathrm{predicted}\|$"
        if any(s["alternatives"] for s in data.values()):
            ylabel = (
                r"$\|\mathrm{observed} - x\| \,/\, \|\mathrm{predicted}\|$"
                + "\n(x: the prediction or a named alternative)"
            )
    ax.set_ylabel(ylabel)
    results = sorted(
        {
            str(r["result"])
            for r in (table["rows"] if isinstance(table, Mapping) else table)
            if "result" in r
        }
    )
    head = title or f"{', '.join(results)}: predicted vs observed"
    ax.set_title(head + (f"\n{setting}" if setting else ""), fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    return fig
