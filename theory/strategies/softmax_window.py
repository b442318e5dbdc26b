"""Hypothesis strategy for [collins24] (slug softmax_window) settings, spec 003 §1.2."""

from __future__ import annotations

from hypothesis import strategies as st

from theory.settings.softmax_window import LipschitzTasks, SoftmaxWindowSetting, SphereCovariates

__all__ = ["collins24_settings"]


@st.composite
def collins24_settings(draw: st.DrawFn, *, task: str | None = None,
                       covariates: str = "uniform") -> SoftmaxWindowSetting:
    """A validated :class:`~theory.settings.softmax_window.SoftmaxWindowSetting`: ``d`` in 2–6,
    ``n`` in 1–64, ``L`` in [0.05, 3], ``σ²`` in [0, 1]; isotropic covariates unless asked."""
    d = draw(st.integers(2, 6))
    kind = task or draw(st.sampled_from(("affine", "relu", "cos", "linear", "constant")))
    if covariates == "ellipsoid":
        diag = tuple(draw(st.lists(st.floats(0.25, 4.0), min_size=d, max_size=d)))
        cov = SphereCovariates(d=d, kind="ellipsoid", Sigma_diag=diag)
    elif covariates == "lowrank":
        cov = SphereCovariates(d=d, kind="lowrank", k=draw(st.integers(1, d - 1)))
    else:
        cov = SphereCovariates(d=d, kind=covariates)
    L = 0.0 if kind == "constant" else draw(st.floats(0.05, 3.0))
    tasks = LipschitzTasks(kind=kind, L=L)
    return SoftmaxWindowSetting(covariates=cov, tasks=tasks, n=draw(st.integers(1, 64)),
                                sigma2=draw(st.floats(0.0, 1.0)))
