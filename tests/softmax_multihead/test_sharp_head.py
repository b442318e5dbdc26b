"""hpcy25 sharp head [derived]: the pattern-family risk landscape (numerics) beyond the registry
test's pass/fail and declared controls (``tests/test_registry.py``): its risk formula against a
plain Monte Carlo that samples β, the noise and the labels, its chunked and whole-sample moments,
its optimum in μ, the self-attending query, and the one-sided MC rows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.softmax_multihead import landscape as ls
from numerics.softmax_multihead.bands import mc_sign
from numerics.softmax_multihead.predictors import softmax, tf_predict
from numerics.testing import Z_MC, assert_fails, assert_passed, mc_agreement
from theory.common.protocols import Estimate

pytestmark = pytest.mark.result("hpcy25:sharp-head")

#: Two separately computed float64 sums of the same products (chunked vs whole sample).
SAME_SUM_RTOL = 1e-10


def _sample(n: int = 3000, seed: int = 0, **kw) -> ls.PatternSample:
    return ls.sample_pattern(np.random.default_rng(seed), n, d=3, L=12, sigma2=0.3, **kw)


@pytest.mark.mc
def test_conditional_risk_vs_sampled_labels() -> None:
    """Independent route for the landscape's risk: sample β ~ N(0, I/d), noisy context and query
    labels, apply the predictor (``tf_predict``) and average the squared error; it must agree
    with the Rao–Blackwellised ``A0 − 2bμ + μᵀGμ`` of the same heads within 5 se (units
    E(ŷ − y)², noise included, no ½).  Negative control: the labels' noise left out of the
    landscape (``fault_noiseless_labels``) is rejected."""
    d, L, s2, n = 3, 12, 0.3, 60_000
    omega, mu = (0.4, -0.4, 2.0), (1.1, -1.0, 0.2)
    rng = np.random.default_rng(7)
    X = rng.standard_normal((n, L, d))
    xq = rng.standard_normal((n, d))
    beta = rng.standard_normal((n, d)) / math.sqrt(d)
    y = np.einsum("nld,nd->nl", X, beta) + math.sqrt(s2) * rng.standard_normal((n, L))
    yq = np.einsum("nd,nd->n", xq, beta) + math.sqrt(s2) * rng.standard_normal(n)
    err = (tf_predict(X, y, xq, np.array(omega), np.array(mu)) - yq) ** 2
    sampled = Estimate(float(err.mean()), float(err.std(ddof=1) / math.sqrt(n)), n)
    for noiseless, check in ((False, assert_passed), (True, assert_fails)):
        S = ls.PatternSample(X, xq, s2, noiseless_labels=noiseless)
        A0, b, G = ls.per_prompt(S, omega)
        m = np.asarray(mu)
        rb = A0 - 2 * b @ m + np.einsum("nij,i,j->n", G, m, m)
        check(
            mc_agreement(
                "Rao-Blackwellised landscape risk vs sampled labels",
                float(rb.mean()),
                sampled,
                scale=float(rb.mean()),
            )
        )


def test_chunked_moments_equal_whole_sample_moments() -> None:
    """:func:`grid_moments` (chunks of prompts, many heads) and the whole-sample moments of a few
    heads (cached features) are one sum computed two ways; the per-prompt moments average to
    them."""
    S = _sample(n=5000)  # more than one chunk
    om = (0.07, -0.07, 2.5)
    A0c, bc, Gc = ls.grid_moments(S, om)
    A0w, bw, Gw = ls.moments(S, om)  # noqa: SLF001 - the two paths of one quantity
    A0p, bp, Gp = ls.per_prompt(S, om)
    np.testing.assert_allclose(bc, bw, rtol=SAME_SUM_RTOL)
    np.testing.assert_allclose(Gc, Gw, rtol=SAME_SUM_RTOL)
    np.testing.assert_allclose(Gp.mean(axis=0), Gw, rtol=SAME_SUM_RTOL)
    np.testing.assert_allclose([A0c, A0w], [float(A0p.mean())] * 2, rtol=SAME_SUM_RTOL)


def test_profile_risk_is_the_minimum_over_mu() -> None:
    """The profile risk is the quadratic's minimum: any other μ is worse, by exactly
    ``(μ − μ*)ᵀG(μ − μ*)``."""
    S = _sample()
    A0, b, G = ls.grid_moments(S, (0.1, -0.1, 1.5))
    r, mu = ls.profile_risk(A0, b, G)
    rng = np.random.default_rng(3)
    for _ in range(5):
        dm = 0.1 * rng.standard_normal(3)
        m = mu + dm
        np.testing.assert_allclose(A0 - 2 * b @ m + m @ G @ m, r + dm @ G @ dm, rtol=SAME_SUM_RTOL)


def test_query_self_attend_fault_is_the_softmax_over_l_plus_one() -> None:
    """The fault's weights are the softmax over the L context columns and the query's own
    (score ω‖x_q‖², label 0), restricted to the context; without it they are the plain
    softmax."""
    S = _sample(n=50)
    F = _sample(n=50, fault_query_self_attend=True)
    w = 0.8
    full = softmax(np.concatenate([w * S.s, (w * S.q2)[:, None]], axis=1))
    np.testing.assert_allclose(F.weights(w), full[:, :-1], rtol=SAME_SUM_RTOL)
    np.testing.assert_allclose(S.weights(w), softmax(w * S.s), rtol=SAME_SUM_RTOL)
    assert np.all(F.weights(w).sum(axis=1) < 1)


def test_best_pair_and_free_two_heads_agree() -> None:
    """At H = 2 the free search (every ω) ends where the homogeneous search does: a ± pair of
    sign-matched heads with the same |ω| to 15 % and the same risk to the search's resolution."""
    S = ls.sample_pattern(np.random.default_rng(2), 8000, d=3, L=25, sigma2=0.05)
    pair, free = ls.best_pair(S), ls.best_free(S, 2)
    w1, w2 = free.omega
    assert w1 * w2 < 0 and all(w * m > 0 for w, m in zip(free.omega, free.mu, strict=True))
    assert max(abs(w1), abs(w2)) / min(abs(w1), abs(w2)) - 1 <= 0.15
    assert free.risk <= pair.risk + 1e-6 * pair.risk  # the free search contains the pair
    assert pair.risk - free.risk <= 1e-3 * pair.risk


def test_mc_sign_rows() -> None:
    """One-sided rows: negative beyond z se passes, at −z se/2 fails; the no-gain row the
    reverse; two predictors equal up to round-off are no gain; an underpowered sample fails."""
    assert_passed(mc_sign("neg", -6e-4, 1e-4, 100, negative=True, scale=0.2))
    assert_fails(mc_sign("neg", -Z_MC * 1e-4 / 2, 1e-4, 100, negative=True, scale=0.2))
    assert_passed(mc_sign("none", -Z_MC * 1e-4 / 2, 1e-4, 100, negative=False, scale=0.2))
    assert_fails(mc_sign("none", -6e-4, 1e-4, 100, negative=False, scale=0.2))
    assert_fails(mc_sign("roundoff", -1e-17, 1e-19, 100, negative=True, scale=0.2))
    assert_fails(mc_sign("underpowered", -1.0, 0.01, 100, negative=True, scale=0.2))
