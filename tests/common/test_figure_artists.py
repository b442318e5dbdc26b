"""Every registered figure is talk-ready, checked on its artists rather than its pixels.

The rules (what a researcher needs to show a plot): each axes holding data has an x and a y label
(its own or the figure's shared one); the figure states its setting (a ``key = value`` in a
title); no legend, label or title carries an internal name (``check_*``, ``fig_*``, a
``module:function`` path, a row index ``[7]``, our specs or style guide) or a Greek letter
spelled out in ASCII outside mathtext (``sigma^2``, ``beta*``: write ``$\\sigma^2$``); a fitted
slope is given only on log-log axes; a linear axis whose data are all integers (N, M, n, steps)
has integer ticks.

Figures that train a model (or take long to draw cold) run in the ``thorough`` tier; the others
in the default run.  Figures owned elsewhere that still break a rule are listed in
:data:`KNOWN` (expected to fail, with the rules they break) until they are fixed.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from sims.registry import all_results, resolve

#: Figures that train a model or take long to draw cold: drawn in the thorough tier only.
SLOW: dict[str, str] = {
    "sims.figures.zfb24:fig_1": "trains the Figure 1 LSA",
    "sims.figures.zwb24:fig_mlp_gap_table1": "trains the Table 1 LTB and LSA",
    "sims.figures.collins24:fig_3_4": "trains the Figs. 3-4 units",
    "sims.figures.collins24:fig_9": "trains the Fig. 9 unit",
    "sims.figures.collins24:fig_5": "trains the Fig. 5 units",
}

#: Figures owned by other work that still break a rule (figure path -> what breaks).
KNOWN: dict[str, str] = {}

#: Greek letters spelled out in ASCII (a label should write them in mathtext).
_GREEK = re.compile(
    r"(?<![A-Za-z\\])(alpha|beta|gamma|Gamma|delta|Delta|sigma|Sigma|omega|Omega|lambda|Lambda|"
    r"rho|kappa|theta|Theta|Psi|psi|nu|xi|eta)(?![A-Za-z])"
)
_INTERNAL = re.compile(
    r"\bcheck_\w+|\bfig_\w+|\bcompute_\w+|\b\w+(\.\w+)+:\w+|\[\d+\]\s*$|\bspec\b|\bSTYLE\b"
)


def _figures() -> list[Any]:
    seen: dict[str, None] = {}
    for r in all_results():
        for path in r.figures:
            seen.setdefault(path, None)
    params = []
    for path in seen:
        marks = []
        if path in SLOW:
            marks += [pytest.mark.thorough, pytest.mark.slow]
        if path in KNOWN:
            marks.append(pytest.mark.xfail(reason=KNOWN[path], strict=False))
        params.append(pytest.param(path, id=path.rpartition(".")[2], marks=marks))
    return params


def _outside_mathtext(text: str) -> str:
    return re.sub(r"\$[^$]*\$", " ", text)


def _has_data(ax: Any) -> bool:
    return bool(ax.lines or ax.collections or ax.images or ax.containers)


def _is_colorbar(ax: Any) -> bool:
    return hasattr(ax, "_colorbar") or ax.get_label() == "<colorbar>"


def _texts(fig: Any) -> list[tuple[str, str]]:
    """(where, text) of every title, axis label and legend entry."""
    out: list[tuple[str, str]] = []
    if fig._suptitle is not None:
        out.append(("suptitle", fig._suptitle.get_text()))
    for i, ax in enumerate(fig.axes):
        for where, text in (
            ("title", ax.get_title()),
            ("xlabel", ax.get_xlabel()),
            ("ylabel", ax.get_ylabel()),
        ):
            if text:
                out.append((f"axes {i} {where}", text))
        legend = ax.get_legend()
        if legend is not None:
            out += [(f"axes {i} legend", t.get_text()) for t in legend.get_texts()]
            if legend.get_title().get_text():
                out.append((f"axes {i} legend title", legend.get_title().get_text()))
    return out


def _integer_x(ax: Any) -> bool:
    xs = [np.asarray(line.get_xdata(), dtype=float) for line in ax.lines]
    xs = [x for x in xs if x.size > 1 and np.ptp(x) > 0]
    return bool(xs) and all(np.all(np.isfinite(x)) and np.all(x == np.round(x)) for x in xs)


def _label(ax: Any, which: str) -> str:
    """``ax``'s x or y label, or that of an axes sharing that axis with it (one label per row
    of panels sharing their y axis)."""
    own = ax.get_xlabel() if which == "x" else ax.get_ylabel()
    if own:
        return own
    group = ax.get_shared_x_axes() if which == "x" else ax.get_shared_y_axes()
    for other in group.get_siblings(ax):
        text = other.get_xlabel() if which == "x" else other.get_ylabel()
        if text:
            return text
    return ""


def figure_problems(fig: Any) -> list[str]:
    """What keeps ``fig`` from being talk-ready (empty when it is)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    problems = []
    sup_x = getattr(fig, "_supxlabel", None)
    sup_y = getattr(fig, "_supylabel", None)
    shared_x = sup_x is not None and bool(sup_x.get_text())
    shared_y = sup_y is not None and bool(sup_y.get_text())
    for i, ax in enumerate(fig.axes):
        if _is_colorbar(ax) or not _has_data(ax):
            continue
        bare_matrix = (
            ax.images and not ax.lines and not len(ax.get_xticks()) and not len(ax.get_yticks())
        )
        if bare_matrix:  # a matrix drawn as an image without ticks: its entries need no axis
            continue
        if not _label(ax, "x") and not shared_x:
            problems.append(f"axes {i} ({ax.get_title()!r}) has no x label")
        if not _label(ax, "y") and not shared_y:
            problems.append(f"axes {i} ({ax.get_title()!r}) has no y label")
        if ax.get_xscale() == "linear" and _integer_x(ax):
            lo, hi = sorted(ax.get_xlim())
            ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
            if any(t != round(t) for t in ticks):
                problems.append(f"axes {i}: integer data, non-integer x ticks {ticks}")
        legend = ax.get_legend()
        loglog = ax.get_xscale() == "log" and ax.get_yscale() == "log"
        if legend is not None and not loglog:
            for t in legend.get_texts():
                if "slope" in t.get_text():
                    problems.append(f"axes {i}: a slope on non-log-log axes: {t.get_text()!r}")
    titles = [t for w, t in _texts(fig) if "title" in w]
    if not any("=" in t for t in titles):
        problems.append(f"no title states the setting (no 'key = value' in {titles})")
    for where, text in _texts(fig):
        if _INTERNAL.search(text):
            problems.append(f"{where} shows an internal name: {text!r}")
        m = _GREEK.search(_outside_mathtext(text))
        if m:
            problems.append(f"{where} spells {m.group(1)!r} in ASCII (use mathtext): {text!r}")
    return problems


@pytest.mark.parametrize("path", _figures())
def test_registered_figure_is_talk_ready(path: str) -> None:
    fig = resolve(path)(quick=True, seed=0)
    problems = figure_problems(fig)
    assert not problems, f"{path}:\n  " + "\n  ".join(problems)


def test_the_rules_catch_what_they_name() -> None:
    """Each rule fails a figure that breaks it (the checker is not vacuous)."""
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot(1, 1, 1)
    ax.plot([4, 5, 6, 7], [1.0, 2.0, 3.0, 4.0], label="check_thm4_train_sgd[7], slope 1.0")
    ax.plot([4, 5, 6, 7], [1.0, 2.0, 3.0, 5.0], label="sigma^2 = 0.5")
    ax.set_xticks([4.5, 5.5])
    ax.legend()
    text = "\n".join(figure_problems(fig))
    for needle in (
        "no x label",
        "no y label",
        "non-integer x ticks",
        "slope on non-log-log",
        "states the setting",
        "internal name",
        "spells 'sigma'",
    ):
        assert needle in text, needle
    good = Figure()
    ax = good.add_subplot(1, 1, 1)
    ax.loglog([4, 8, 16], [1.0, 0.5, 0.25], label=r"$\sigma^2$ risk, slope -1.00")
    ax.set(xlabel=r"$N$", ylabel="risk", title=r"$d = 3$")
    ax.legend()
    assert figure_problems(good) == []


def test_the_reports_agreement_plot_is_talk_ready_and_draws_no_info_row() -> None:
    from numerics.testing import float_agreement, informational
    from sims.render import agreement_figure
    from sims.verify import Outcome
    from theory.common.protocols import Result

    rows = (
        float_agreement("x == 1", 1.0, 1.0),
        float_agreement("y == 2", 2.0, 2.0 + 1e-13),
        informational("a reported number", 3.0, 3.0),
    )
    r = Result(id="fake:agree", kind="identity", summary="s", source="test")
    fig = agreement_figure([Outcome(r, rows, (), 0.0)], mode="quick", seed=0)
    assert figure_problems(fig) == []
    ax = fig.axes[0]
    drawn = [line for line in ax.lines if line.get_marker() == "o"]
    assert len(drawn) == 2  # the INFO row is counted in the title, never drawn
    assert "1 INFO row" in ax.get_title() and "tier = quick" in ax.get_title()
