"""Planted faults of the czz24 checks (negative controls): ``sims/czz24/results.py`` declares them
as objects, named once and shared by the declaration and the check.

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


def thm51_bound_log_not_squared(n, t, sigma2, s, beta, trRSR, trS, d, delta, C=1):  # noqa: ANN001, ANN201
    """Thm 5.1's bound with log(d/δ) (not log²) on the σ² s Tr Σ/n² term: invisible at δ = d/e.
    Fault of ``check_thm5_1_float_bound`` and ``check_rem5_2_float_generic``."""
    import math

    L = math.log(d / delta)
    return C * math.log(t) / beta * math.sqrt(sigma2 * trRSR * L / n + sigma2 * s * trS * L / n**2)


def thm52_bound_log_outside_sqrt(n, t, sigma2, trS, d, delta, C=1):  # noqa: ANN001, ANN201
    """Thm 5.2's bound with log(d/δ) outside the square root.  Fault of
    ``check_thm5_2_float_bound``."""
    import math

    return C * math.log(t) * math.sqrt(sigma2 * trS / n) * math.log(d / delta)


def lemD7_rate_log_not_squared(trRSR, trS, s, sigma2, n, d, delta, C=1.0):  # noqa: ANN001, ANN201
    """Lemma D.7's shape with log(d/δ) (not log²) on the second term.  Fault of
    ``check_lemd_1_float_rates``."""
    import math

    L = math.log(d / delta)
    return C * (sigma2 * trRSR * L / n + sigma2 * s * trS * L / n**2)


def lemD1_rate_without_plus_one(w, Sigma_max, sigma2, n, d, delta, C=1.0):  # noqa: ANN001, ANN201
    """Lemma D.1 shape, ‖w*‖₁ in place of ‖w*‖₁ + 1 (fault of check_lemd_1_float_rates)."""
    import math

    return (
        C
        * (Sigma_max + sigma2)
        * sum(abs(float(v)) for v in w)
        * math.sqrt(math.log(d / delta) / n)
    )


def ridge_lmmse_lambda_alpha2_dropped(d, n, sigma2, alpha2):  # noqa: ANN001, ANN201
    """σ²d/n in place of σ²d/(nα²): invisible at α² = 1.  Fault of ``check_eq4_3_float_generic``."""
    del alpha2
    return float(sigma2) * float(d) / float(n)


def excess_from_parts_sigma_not_sqrt(parts, Sigma):  # noqa: ANN001, ANN201
    """‖Σ R̂(bias + noise)‖² in place of ‖Σ^{1/2} R̂(bias + noise)‖²: invisible at Σ = I.  Fault
    of ``check_eq4_3_float_generic``."""
    import numpy as np

    S = np.asarray(Sigma, dtype=float)
    r = np.asarray(parts["rhat"], dtype=float)
    b, v = S @ (r * parts["bias"]), S @ (r * parts["noise"])
    E, B, V = float(np.sum((b + v) ** 2)), float(b @ b), float(v @ v)
    return {"excess": E, "bias": B, "variance": V, "cross": E - B - V}


def pregd_population_r_not_squared(w, Sigma_diag, eta, t):  # noqa: ANN001, ANN201
    """``w_j[1 − (1 − η r_j Σ_jj)^t]`` (r not squared): invisible where |r_j| = 1.  Fault of
    ``check_eq4_3_float_generic``."""
    import numpy as np

    w, S = np.asarray(w, dtype=float), np.asarray(Sigma_diag, dtype=float)
    return w * (1.0 - (1.0 - eta * (S * w) * S) ** t)


def thm53_rate_s_not_squared(n, d, s, sigma2):  # noqa: ANN001, ANN201
    """σ²(s/n + d s/n²): s not squared in Thm 5.3's second term.  Fault of
    ``check_thm5_3_float_generic``."""
    return sigma2 * (s / n + d * s / n**2)


def thm53_steps_log_without_s(n, s, sigma2, eta):  # noqa: ANN001, ANN201
    """s·log(n/σ²)/η: the s dropped inside the log of Thm 5.3's step count.  Fault of
    ``check_thm5_3_float_generic``."""
    import math

    return s * math.log(n / sigma2) / eta


def ols_finite_from_d_plus_3(d: float, n: float, s2: float, w2: float) -> float:
    """The OLS risk with its finiteness thresholds one step late (n ≥ d + 3 resp. d ≥ n + 3: the
    inverse-Wishart mean taken to need n − d − 2 > 0).  Fault of
    ``check_thm5_3_lower_float_threshold``."""
    import math

    from theory.czz24 import ols_excess_risk

    if s2 > 0 and abs(n - d) <= 2:
        return math.inf
    return float(ols_excess_risk(int(d), int(n), s2, w2))
