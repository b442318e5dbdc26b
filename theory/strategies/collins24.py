"""Hypothesis strategy for [collins24] (slug softmax_window) settings."""

from __future__ import annotations

from hypothesis import strategies as st

from theory.collins24.settings import LipschitzTasks, SoftmaxWindowSetting, SphereCovariates

__all__ = [
    "collins24_settings",
    "thm34_train_settings",
    "thm34_relu_train_settings",
    "LAMBDA_RANGE",
]


@st.composite
def collins24_settings(
    draw: st.DrawFn, *, task: str | None = None, covariates: str = "uniform"
) -> SoftmaxWindowSetting:
    """A validated :class:`~theory.collins24.settings.SoftmaxWindowSetting`: ``d`` in 2–6,
    ``n`` in 1–64, ``L`` in [0.05, 3], ``σ²`` in [0, 1]; isotropic covariates unless asked.

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); an affine class
    has ``L`` in [0.05, 3]:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(collins24_settings(task="affine"))
    ... def test_affine(s):
    ...     assert s.tasks.kind == "affine" and 0.05 <= s.tasks.L <= 3 and 1 <= s.n <= 64
    >>> test_affine()
    """
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
    return SoftmaxWindowSetting(
        covariates=cov, tasks=tasks, n=draw(st.integers(1, 64)), sigma2=draw(st.floats(0.0, 1.0))
    )


def _lambda(s: dict) -> float:
    return s["n"] * s["L"] ** 2 / s["sigma2"]


#: Λ = nL²/σ² range of the drawn trained settings: Λ ≥ 4 keeps ω* ≥ 0.3 (below, the loss is flat
#: in ω and the label average is within a few tolerances); Λ ≤ 2000 keeps ω* ≤ ~15, reached
#: within the step ladder.
LAMBDA_RANGE = (4.0, 2000.0)


def thm34_train_settings() -> st.SearchStrategy[dict]:
    """Settings of ``sims.collins24.sec3_optimum:check_thm3_4_train`` (and Figs. 3-4's end
    point) from [collins24] Theorem 3.4's hypotheses: x ~ U^d, d ∈ [2, 6]; n ∈ [4, 24] context
    examples; an L-Lipschitz affine class, L ∈ [0.3, 2]; noise σ² ∈ [0.01, 1] (σ > 0: Λ finite);
    Λ = nL²/σ² in ``LAMBDA_RANGE`` (the budget: ω* reached by the step ladder).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run); every draw has
    ``Λ = nL²/σ²`` in :data:`LAMBDA_RANGE`:

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(thm34_train_settings())
    ... def test_lambda(s):
    ...     assert 4 <= s["n"] * s["L"] ** 2 / s["sigma2"] <= 2000
    >>> test_lambda()
    """
    return st.fixed_dictionaries(
        {
            "d": st.integers(2, 6),
            "n": st.integers(4, 24),
            "L": st.floats(0.3, 2.0, allow_nan=False, allow_infinity=False),
            "sigma2": st.floats(0.01, 1.0, allow_nan=False, allow_infinity=False),
        }
    ).filter(lambda s: LAMBDA_RANGE[0] <= _lambda(s) <= LAMBDA_RANGE[1])


def thm34_relu_train_settings() -> st.SearchStrategy[dict]:
    """Settings of ``check_thm3_4_train_relu``: Theorem 3.4 Case 2's hypotheses on the same
    ranges as :func:`thm34_train_settings` (2-ReLU class, L-Lipschitz).

    Examples
    --------
    A property over a handful of draws (``derandomize``: the same draws every run):

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=3, derandomize=True, database=None)
    ... @given(thm34_relu_train_settings())
    ... def test_ranges(s):
    ...     assert 2 <= s["d"] <= 6 and 4 <= s["n"] <= 24 and 0.3 <= s["L"] <= 2
    >>> test_ranges()
    """
    return thm34_train_settings()
