"""Planted faults of the czz24 checks (negative controls), named so that ``theory/sparse_multihead/
results.py`` can declare them with ``Ref("numerics.sparse_multihead.faults:<name>")``.

Each is a one-formula transcription slip a check must reject; none is used outside the controls.
"""

from __future__ import annotations


def second_moment_sparse_for_every_prior(d: int, s: int, prior: str) -> float:
    """E[w*_j²] = s/d for every prior: the experimental (Gaussian) prior's moment used for the
    ±1/√s theory prior too (the right one is 1/d there).  Fault of ``check_sec2_mc``."""
    del prior
    return s / d


def linear_rate(n: float, d: float, s: float, s2: float) -> float:
    """σ²d/n, the one-term rate of the linear methods, in place of Thm 5.3's s/n + d s²/n².  Fault
    of ``check_thm5_3_rate``."""
    del s
    return s2 * d / n


def ratio_linear_in_s(n: object, d: object, s: object) -> object:
    """s/d + s/n in place of Rem. 5.2's s/d + s²/n.  Fault of ``check_rem5_2_symbolic``."""
    return s / d + s / n  # type: ignore[operator]


def ols_off_by_one(d: float, n: float, s2: float, w2: float) -> float:
    """OLS excess risk with the inverse-Wishart mean off by one: σ²d/(n − d) resp.
    ‖w‖²(1 − n/d) + σ²n/(d − n).  Fault of ``check_thm5_3_lower_mc``."""
    if n > d:
        return s2 * d / (n - d)
    return w2 * (1 - n / d) + s2 * n / (d - n)
