"""hpcy25 sharp head [derived]: the pattern-family risk landscape (numerics) beyond the registry
test's pass/fail and declared controls (``tests/test_registry.py``): its risk formula against a
plain Monte Carlo that samples β, the noise and the labels, its chunked and whole-sample moments,
its optimum in μ, the self-attending query, and the one-sided MC rows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.hpcy25 import landscape as ls
from numerics.hpcy25.bands import mc_sign
from numerics.hpcy25.predictors import softmax, tf_predict
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
    reverse; two predictors equal up to round-off are no gain; an underpowered sample is
    skipped with the sample it needs (lack of power is never a fail), unless it contradicts the
    claim beyond z se."""
    assert_passed(mc_sign("neg", -6e-4, 1e-4, 100, negative=True, scale=0.2))
    assert_fails(mc_sign("neg", -Z_MC * 1e-4 / 2, 1e-4, 100, negative=True, scale=0.2))
    assert_passed(mc_sign("none", -Z_MC * 1e-4 / 2, 1e-4, 100, negative=False, scale=0.2))
    assert_fails(mc_sign("none", -6e-4, 1e-4, 100, negative=False, scale=0.2))
    assert_fails(mc_sign("roundoff", -1e-17, 1e-19, 100, negative=True, scale=0.2))
    weak = mc_sign("underpowered", -1.0, 0.01, 100, negative=True, scale=0.2)  # se/scale 5 %
    assert weak.status == "skipped" and weak.details["needed_n"] == 625
    assert "se/scale 5.0 % > 2 %" in weak.details["why"]
    assert mc_sign("underpowered", 1.0, 0.01, 100, negative=True, scale=0.2).status == "fail"
    assert mc_sign("underpowered", -1.0, 0.01, 100, negative=False, scale=0.2).status == "fail"
    assert mc_sign("underpowered", 0.0, 0.01, 100, negative=False, scale=0.2).status == "skipped"


# ------------------------------------------------------------------ the training route (cheap)
@pytest.fixture
def tmp_cache(tmp_path, monkeypatch):
    from sims.cache import clear_memory

    monkeypatch.setenv("ICL_VERIFY_CACHE", str(tmp_path / "cache"))
    clear_memory()
    yield
    clear_memory()


def _tiny_base():
    from sims.hpcy25.train import HpcyExperiment, Recipe

    exp = HpcyExperiment(d=2, L=6, sigma2=0.1, H=3)
    base = Recipe(optimizer="adam", lr=1e-2, steps=10, batch_size=8, log_every=5)
    return exp, base


def _never(planned: int, bound: int):
    """A stop that cannot hold (a criterion far below any drift): the run goes to its bound."""
    from sims.hpcy25.stop import ContinuationStop

    return ContinuationStop(
        tolerances=(("mu", 1e-300),), fraction=1.0, window=20, planned=planned, max_steps=bound
    )


@pytest.mark.train
def test_continuation_in_chunks_is_one_uninterrupted_run(tmp_cache) -> None:
    """Through ``trained(setting, ContinuationRecipe)``: two cached chunks of 40 steps continue
    exactly as one chunk of 80 (parameters, Adam state and the random stream carried over); a
    stop that cannot hold runs to the bound (``status="bound"``), one that holds ends at the
    planned steps (``"converged"``); a zero budget trains nothing
    not cached and says so (``"budget"``), and reads what is cached; another seed continues its
    own base run."""
    from sims.cache import clear_memory
    from sims.hpcy25.train import Continuation, ContinuationRecipe, trained

    exp, base = _tiny_base()

    def rc(chunk: int, seconds: float = 60.0) -> ContinuationRecipe:
        cont = Continuation(chunk=chunk)
        return ContinuationRecipe(base=base, stop=_never(40, 80), cont=cont, seconds=seconds)

    nothing = trained(exp, rc(40, seconds=0.0), seed=0)
    assert (nothing.steps, nothing.status, nothing.trace) == (0, "budget", [])
    two = trained(exp, rc(40), seed=0)
    one = trained(exp, rc(80), seed=0)
    assert two.status == one.status == "bound" and two.steps == one.steps == 80
    assert not two.converged and two.complete
    for k in two.params:
        np.testing.assert_array_equal(two.params[k], one.params[k])
    other = trained(exp, rc(40), seed=1)  # continues seed 1's own base run
    from sims.hpcy25.stop import ContinuationStop

    holds = ContinuationStop(
        tolerances=(("mu", 1e300),), fraction=1.0, window=40, planned=80, max_steps=160
    )
    early = trained(exp, ContinuationRecipe(base=base, stop=holds, cont=Continuation(chunk=40)))
    assert early.status == "converged" and early.steps == 80  # its planned steps, not the bound
    assert not np.array_equal(other.params["W_O"], two.params["W_O"])
    # a record at each chunk's end, and the pattern statistics there
    assert [r["step"] for r in two.trace if "omega_0" in r] == [40, 80]
    assert [r["step"] for r in two.trace if "diag" in r] == [40, 80]
    clear_memory()  # from disk now: a zero budget reads the cached chunks
    again = trained(exp, rc(40, seconds=0.0), seed=0)
    assert again.status == "bound" and again.seconds == 0.0
    np.testing.assert_array_equal(again.params["W_O"], two.params["W_O"])


def _settled_trace(
    steps: int = 240_000,
    *,
    omega=(0.14, -0.14, -2.0),
    mu=(1.0, -1.0, -0.05),
    grow=None,
    fade=None,
    diag=None,
):
    """A synthetic continuation trace: heads ``omega_h``, ``mu_h`` every 1000 steps with a small
    alternating jitter (0.1 %), the pattern statistics every 20 000 steps; ``grow(h, t)`` /
    ``fade(h, t)`` multiply head h's |ω| / μ at step t, ``diag(t)`` the least diag_ratio."""
    out = []
    for t in range(1000, steps + 1, 1000):
        j = 1 + 0.001 * (-1) ** (t // 1000)
        rec = {"step": t, "loss": 0.1}
        for h, (w, m) in enumerate(zip(omega, mu, strict=True)):
            rec[f"omega_{h}"] = w * j * (grow(h, t) if grow else 1.0)
            rec[f"mu_{h}"] = m * (fade(h, t) if fade else 1.0)
        out.append(rec)
        if t % 20_000 == 0:
            out.append({"step": t, "diag": diag(t) if diag else 0.999, "ov": 0.999, "spread": 0.01})
    return out


def test_continuation_stop_on_synthetic_traces() -> None:
    """The continuation's stop (no training): a settled trace converges at the planned steps
    and not before; an active head's |ω| growing 5 % per window, a third head's μ fading by
    2 % of the largest |μ| per window, a diag_ratio moving 0.01 per window, or a sharp head
    that starts to decay (its |ω| carried to the paper's steps moving) each keep it going, and
    the worst statistic is the one that moves; a head that decays at a constant rate has a
    constant projection (the stop waits for the rate, not for the head to stop).  A dummy head's
    (|μ| < 5 % of the largest) |ω| may move."""
    from sims.hpcy25.sec3_sharp_head import (
        CONTINUATION_STEPS,
        CONTINUATION_WINDOW,
        continuation_stop,
    )

    stop = continuation_stop(3)
    W, T = CONTINUATION_WINDOW, CONTINUATION_STEPS
    flat = _settled_trace(T)
    assert stop(flat)
    assert not stop([r for r in flat if r["step"] <= T - 20_000])  # before the planned steps
    crit = stop.criteria()
    assert crit == pytest.approx(
        {
            "omega": 0.0375,
            "mu": 0.0125,
            "diag": 0.0075,
            "ov": 0.005,
            "spread": 0.0375,
            "projected": 0.25 / math.sqrt(3),
        }
    )
    cases = {
        "omega": _settled_trace(T, grow=lambda h, t: 1.05 ** (t / W) if h == 0 else 1.0),
        "mu": _settled_trace(
            T, mu=(1.0, -1.0, -0.3), fade=lambda h, t: 1 - 0.02 / 0.3 * t / W if h == 2 else 1.0
        ),
        "diag": _settled_trace(T, diag=lambda t: 0.999 - 0.01 * t / W),
        # the sharp head starts to decay (3.5 % per window) in the last window
        "projected": _settled_trace(
            T, grow=lambda h, t: 0.965 ** (max(t - T + W, 0) / W) if h == 2 else 1.0
        ),
    }
    for key, trace in cases.items():
        assert not stop(trace), key
        worst, value, criterion = stop.worst(trace, T)
        assert worst == key and value > criterion, (key, worst, value)
    steady = _settled_trace(T, grow=lambda h, t: 0.97 ** (t / W) if h == 2 else 1.0)
    assert stop.drifts(steady, T)["projected"] < 1e-3 * crit["projected"]
    assert stop(steady)  # a 3 %-per-window decay is within the |omega| criterion (3.75 %)
    dummy = _settled_trace(
        T, mu=(1.0, -1.0, 0.01), grow=lambda h, t: 1.5 ** (t / W) if h == 2 else 1.0
    )
    assert stop(dummy)


def test_continuation_outcomes_of_the_check(monkeypatch) -> None:
    """The training route's three outcomes from the run ``trained`` returns (no training): a
    converged run's rows as judged; a run at its bound unconverged -- every row ``skipped`` with
    the statistic furthest from its criterion, its value, the steps and what it needs (one
    wording: ``not_converged``); a run out of its seconds budget -- ``untested`` with the steps
    reached."""
    from numerics.hpcy25.bands import band
    from sims.hpcy25 import sec3_sharp_head as sh
    from sims.hpcy25.train import Continued

    trace = _settled_trace(240_000, grow=lambda h, t: 1.05 ** (t / 40_000) if h == 0 else 1.0)
    row = band("judged", 1.0, 0.0, 2.0)
    monkeypatch.setattr(sh, "continued_rows", lambda *a, **k: [row])
    got: dict = {}

    def fake_trained(exp, recipe, *, seed):
        stop = recipe.stop
        drifts = stop.drifts(trace, 240_000)
        return Continued(240_000, {}, trace, 0.0, got["status"], drifts, stop.criteria())

    monkeypatch.setattr(sh, "trained", fake_trained)
    kw = {"sharp": False, "seed": 0, "fault_ablate_sharp_head": False}
    got["status"] = "converged"
    assert sh._train_rows((3, 25, 0.05, 3), **kw) == [row]  # noqa: SLF001 - the route's core
    got["status"] = "bound"
    (skip,) = sh._train_rows((3, 25, 0.05, 3), **kw)  # noqa: SLF001
    assert skip.status == "skipped" and skip.details["not_converged"] == 1
    why = skip.details["why"]
    assert why.startswith("not converged within the budget: the largest relative change of")
    assert "vs criterion 0.0375 after 240000 steps" in why and "500000" in why
    got["status"] = "budget"
    (short,) = sh._train_rows((3, 25, 0.05, 3), **kw)  # noqa: SLF001
    assert short.status == "untested" and "240000 steps" in short.details["reached"]


def _pattern_model(omega, mu, *, d=3, L=25, sigma2=0.05):
    from sims.hpcy25.sec3_heads import ideal_params
    from sims.hpcy25.train import HpcyExperiment

    exp = HpcyExperiment(d=d, L=L, sigma2=sigma2, H=len(omega))
    return exp, ideal_params(exp, np.array(omega), np.array(mu))


#: The landscape's optimum at (3, 25, 0.05): the pair and one sharp head (checks_sharp_head).
_SHARP = ((0.17, -0.17, 2.9), (2.4, -2.5, 0.06))


def _trace(omega, steps=200_000, every=20_000):
    return [
        {"step": s, **{f"omega_{h}": w for h, w in enumerate(omega)}}
        for s in range(every, steps + 1, every)
    ]


@pytest.mark.slow
def test_continued_rows_on_pattern_models(monkeypatch) -> None:
    """The training route's rows judged on constructed pattern models (no training): the
    landscape's optimum at (3, 25, 0.05) -- a pair and a sharp head -- has a stable sharp head
    whose removal raises the risk (the torch model's own paired ablation agrees in sign with the
    landscape route); removing it (the declared fault) fails; the pair with a dummy passes the
    on-pattern rows, the sharp model fails them."""
    from numerics.testing import assert_fails, assert_passed
    from sims.hpcy25 import sec3_sharp_head as sh
    from sims.hpcy25.sec3_sharp_head import continued_rows

    exp, params = _pattern_model(*_SHARP)
    from sims.hpcy25.evidence import RTOL_INNER

    kw = {"steps": 200_000, "rtol": RTOL_INNER, "seed": 0}
    rows = continued_rows(exp, params, _trace(_SHARP[0]), sharp=True, **kw)
    assert_passed(rows)
    gain = next(e for e in rows if "trained sharp head" in e.name)
    assert gain.observed < -Z_MC * gain.se
    assert "landscape route" in rows[-1].name  # computed once; the variants below reuse it
    monkeypatch.setattr(sh, "landscape_gain_row", lambda *a, **k: rows[-1])
    assert_fails(
        continued_rows(
            exp, params, _trace(_SHARP[0]), sharp=True, fault_ablate_sharp_head=True, **kw
        )
    )
    assert_fails(continued_rows(exp, params, _trace(_SHARP[0]), sharp=False, **kw))
    pexp, pair = _pattern_model((0.17, -0.17, 0.0), (2.5, -2.5, 0.0))
    assert_passed(continued_rows(pexp, pair, _trace((0.17, -0.17, 0.0)), sharp=False, **kw))
    drifting = _trace(_SHARP[0])[:-2] + _trace((0.17, -0.17, 2.0))[-2:]
    stable = next(
        e for e in continued_rows(exp, params, drifting, sharp=True, **kw) if "stable" in e.name
    )
    assert not stable.passed


@pytest.mark.slow
def test_drawn_outcomes_of_an_h3_run(monkeypatch) -> None:
    """A drawn H ≥ 3 run off the pattern: a stable sharp head -- the spread row ``unconfirmed``
    against our extrapolation of Obs. 2 (outcome "sharp head"), the rows that presuppose
    homogeneity ``skipped``, the landscape's gain row added (the draw's own outcome); the same
    head decaying fast enough to leave the sharp regime before the paper's 500 001 steps --
    ``untested`` (steps reached, 500 001 needed); a run at its step bound unconverged -- its rows
    ``skipped`` with their numbers, as they came; a sharp head where the landscape route finds no
    gain -- a failed draw."""
    from numerics.hpcy25.bands import band
    from numerics.train_evidence import not_converged
    from sims.hpcy25 import evidence as ev_
    from sims.hpcy25 import sec3_sharp_head as sh
    from sims.hpcy25.sec3_heads import judge_heads
    from sims.properties import classify

    exp, params = _pattern_model(*_SHARP)
    rtol = ev_.RTOL_INNER  # the Obs-1 rows' tolerance (2 %)
    m = judge_heads(ev_.pattern_metrics(exp, params), exp, params, rtol=rtol, seed=0, path="t")
    rows = [*ev_.pattern_rows("t", m), ev_.spread_row("t", m), band("t: manifold", 1.0, None, 0.5)]
    hist = [{"step": s, "omega_2": 2.9} for s in range(100, 3001, 100)]

    class Res:
        extra = {"trace": hist}

    out = sh.drawn_outcome(rows, m, Res, exp, seed=0, steps=3000, step_bound=10_000)
    assert classify(out) == "unconfirmed"
    spread = next(e for e in out if "spread" in e.name)
    assert spread.status == "unconfirmed" and spread.details["outcome"] == "sharp head"
    assert spread.details["claim"]["provenance"] == "paraphrase"
    assert next(e for e in out if "manifold" in e.name).status == "skipped"
    assert "landscape route" in out[-1].name and out[-1].status == "pass"
    Res.extra = {"trace": [{**r, "omega_2": 2.9 * (1 - r["step"] / 6000)} for r in hist]}
    moving = sh.drawn_outcome(rows, m, Res, exp, seed=0, steps=3000, step_bound=10_000)
    assert classify(moving) == "untested"
    assert all("500 001" in e.details["needed"] for e in moving if e.status == "untested")
    # a run at its step bound unconverged: its rows stay skipped with their numbers
    unsettled = [
        not_converged(e, statistic="s", value=1.0, criterion=0.1, steps=10_000, needs="n")
        for e in rows
    ]
    kept = sh.drawn_outcome(unsettled, m, Res, exp, seed=0, steps=10_000, step_bound=10_000)
    assert kept == unsettled and {e.status for e in kept} == {"skipped"}
    Res.extra = {"trace": hist}
    no_gain = band("landscape: no gain", 1.0, None, 0.0)
    monkeypatch.setattr(sh, "landscape_gain_row", lambda *a, **k: no_gain)
    assert (
        classify(sh.drawn_outcome(rows, m, Res, exp, seed=0, steps=3000, step_bound=10_000))
        == "fail"
    )


def test_projected_omega() -> None:
    """A head's |ω| carried to the paper's 500 001 steps: held when it grows or holds, decayed at
    its relative change per window when it decays; not defined without two windows."""
    from sims.hpcy25.sec3_sharp_head import PAPER_STEPS, projected_omega

    def trace(values):
        return [{"step": 1000 * (i + 1), "omega_0": w} for i, w in enumerate(values)]

    assert projected_omega(trace([2.0, 2.0, 2.2, 2.2]), 0, 2000, 4000) == pytest.approx((2.2, 0.1))
    later, rel = projected_omega(trace([2.0, 2.0, 1.98, 1.98]), 0, 2000, 4000)
    assert rel == pytest.approx(-0.01)
    assert later == pytest.approx(1.98 * 0.99 ** ((PAPER_STEPS - 4000) / 2000))
    assert math.isnan(projected_omega(trace([2.0]), 0, 2000, 1000)[0])
