"""Bad input to an exported theory function raises ValueError/TypeError naming the parameter;
never a NaN, a silently wrong number or a hang (harness in ``bad_input.py``)."""

from __future__ import annotations

import importlib.util
import inspect
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numerics.testing import ROUTES_RTOL

_spec = importlib.util.spec_from_file_location(
    "bad_input", Path(__file__).with_name("bad_input.py")
)
assert _spec is not None and _spec.loader is not None
harness = importlib.util.module_from_spec(_spec)
sys.modules["bad_input"] = harness
_spec.loader.exec_module(harness)


@pytest.fixture(scope="module")
def outcome():  # noqa: ANN201 - harness.HarnessResult
    with np.errstate(all="ignore"):
        return harness.run_harness()


def test_no_exported_function_accepts_bad_input(outcome) -> None:  # noqa: ANN001
    print(
        f"\nbad-input harness: {len(outcome.covered)} functions covered, "
        f"{len(outcome.skipped)} skipped, {outcome.calls} bad calls"
    )
    for name in outcome.covered:
        print(f"  covered  {name}")
    for name, why in sorted(outcome.skipped.items()):
        print(f"  skipped  {name}: {why}")
    assert outcome.covered
    assert not outcome.failures, "\n".join(outcome.failures)


def test_docs_list_is_current(outcome) -> None:  # noqa: ANN001
    """docs/testing.md keeps the covered / skipped lists (regenerate: python
    tests/common/bad_input.py --write)."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "testing.md"
    assert harness.docs_block(docs.read_text(encoding="utf-8")) == harness.render(outcome), (
        "docs/testing.md's bad-input list is stale: run python tests/common/bad_input.py --write"
    )


def test_validation_keeps_valid_input_and_names_the_parameter() -> None:
    """The validated functions accept SymPy and arrays as before and name the broken assumption;
    the package's export *is* the section module's function (validation at the definition), so
    both import paths give the same message."""
    import sympy as sp

    import theory.hpcy25 as hp
    import theory.zfb24 as zfb
    from theory.hpcy25 import appD_optimality as optimality
    from theory.zfb24 import sec3_training as training

    assert training.gamma_fn is zfb.gamma_fn and hasattr(training.gamma_fn, "raw")

    L = np.array([[1.0, 0.3], [0.3, 2.0]])
    assert np.allclose(zfb.gamma_fn(L, 10), training.gamma_fn(L, 10))
    assert isinstance(hp.eta_star(sp.Symbol("d", positive=True), 40, sp.Rational(1, 10)), sp.Expr)
    assert np.allclose(
        hp.eta_star_fn(np.array([2.0, 5.0]), 40, 0.1),
        optimality.eta_star_fn(np.array([2.0, 5.0]), 40, 0.1),
    )
    with pytest.raises(ValueError, match="Lambda.*positive semidefinite"):
        zfb.gamma_fn(np.array([[1.0, 0.0], [0.0, -1.0]]), 10)
    with pytest.raises(ValueError, match="N must be an integer"):
        zfb.gamma_fn(L, 2.5)
    with pytest.raises(ValueError, match="N must be an integer"):
        training.gamma_fn(L, 2.5)  # the same check through the section module
    with pytest.raises(TypeError, match="d must be .*string"):
        hp.eta_star("two", 40, 0.1)
    with pytest.raises(ValueError, match="shapes do not match"):
        zfb.noiseless_risk(np.zeros(3), L, 10, 12)


def test_collins24_domains() -> None:
    """[collins24]: L is a real Lipschitz constant (not a prompt length), N is the noise functional
    N(ω) (not a context length); the export is the section function, validated at its
    definition (``.raw`` is the unchecked body)."""
    import sympy as sp

    import theory.collins24 as cz
    from theory.collins24 import appD_asymptotics as asymptotics
    from theory.collins24 import sec2_reductions as reductions

    assert reductions.Lambda is cz.Lambda and callable(cz.Lambda.__dict__["raw"])
    assert cz.Lambda(20, 0.5, 0.01) == cz.Lambda.raw(20, 0.5, 0.01) == 500.0
    assert cz.orth_asymptote(0.1, 10.0, 3) == asymptotics.orth_asymptote(0.1, 10.0, 3)
    assert isinstance(cz.noise_asymptote(sp.Symbol("w", positive=True), 100, 3), sp.Expr)
    with pytest.raises(ValueError, match="n must be .*context length"):
        cz.noise_asymptote(10.0, 0, 3)
    with pytest.raises(ValueError, match="N must be .*noise functional"):
        cz.orth_asymptote(math.nan, 10.0, 3)
    with pytest.raises(ValueError, match="omega must be .*ω > 0"):
        cz.orth_asymptote(0.1, 0.0, 3)
    with pytest.raises(ValueError, match="Sigma must be .*positive definite"):
        cz.lemB5_optimum(1.0, np.array([[1.0, 0.0], [0.0, -1.0]]))
    with pytest.raises(ValueError, match="orthonormal"):
        cz.lowrank_M(1.0, 0.0, np.ones((2, 1)))
    with pytest.raises(TypeError, match="L must be"):
        cz.la_floor("two")


def test_an_exact_sympy_number_is_checked_against_the_domain() -> None:
    """SymPy input skips the numeric path, but an exact number (no free symbol) is still a value
    in the domain or not: [collins24] ``t_cdf_mp`` (a CDF) of the cosine t = -3/2 returned -0.25,
    silently; now refused naming t.  A symbol, or a valid exact number, still goes through (the
    exact value is the float one's), and so does an exact matrix in the domain."""
    import sympy as sp

    import theory.collins24 as co
    import theory.zwb24 as zwb

    with pytest.raises(ValueError, match=r"^t must be a cosine .*got -3/2$"):
        co.t_cdf_mp(sp.Rational(-3, 2), 3)
    assert float(co.t_cdf_mp(sp.Rational(1, 3), 3)) == pytest.approx(
        float(co.t_cdf_mp(1 / 3, 3)), rel=ROUTES_RTOL
    )
    with pytest.raises(ValueError, match=r"^Psi_bar must be .*not positive semidefinite\)$"):
        zwb.omega(sp.Matrix([[1, 0], [0, -1]]), 0.5, 7)  # an exact matrix that is not PSD
    x = sp.Symbol("x", positive=True)
    assert isinstance(zwb.omega(sp.Matrix([[x, 0], [0, 1]]), sp.Rational(1, 2), 7), sp.MatrixBase)


def test_a_stack_of_matrices_is_refused_unless_the_function_is_batched() -> None:
    """A matrix parameter takes one matrix: a ``(1, d, d)`` stack of H to [zwb24]'s 2-D-only
    flow (which used to broadcast into a wrong Ω̇) is refused naming H and the stack; a parameter
    whose function is documented batched ([hpcy25] ``bayes_risk_given_design``'s ``(B, L, d)``
    design, ``stack=True``) still takes its stack and gives one value per design."""
    import theory.hpcy25 as hp
    import theory.zwb24 as zwb

    fn = zwb.flow_rhs_whitened
    kw = {n: dom.valid for n, dom in fn.__domains__.items()}
    G, e = fn(**kw)  # the valid call
    assert np.shape(G) == (2, 2) and np.shape(e) == (2,)
    with pytest.raises(
        ValueError, match=r"^H must be .*, got a stack of matrices of shape \(1, 2, 2\)"
    ):
        fn(**{**kw, "H": kw["H"][None]})
    with pytest.raises(ValueError, match=r"^Gamma_bar must be .*stack of matrices"):
        fn(**{**kw, "Gamma_bar": np.stack([kw["Gamma_bar"]] * 3)})
    with pytest.raises(ValueError, match=r"^H must be .*stack of matrices"):
        zwb.flow_rhs(
            **{**{n: d.valid for n, d in zwb.flow_rhs.__domains__.items()}, "H": kw["H"][None]}
        )

    X = np.random.default_rng(7).normal(size=(3, 6, 2))
    batched = hp.bayes_risk_given_design(X, 0.5)
    assert np.shape(batched) == (3,)
    assert np.allclose(batched, [hp.bayes_risk_given_design(x, 0.5) for x in X], rtol=ROUTES_RTOL)
    # per element, the (D.34) value σ² + σ² tr[(XᵀX + dσ² I)^{-1}] (independent numpy route)
    for x, got in zip(X, batched, strict=True):
        want = 0.5 + 0.5 * np.trace(np.linalg.inv(x.T @ x + 2 * 0.5 * np.eye(2)))
        assert got == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match=r"^X must be .*\(B, L, d\) stack.*non-finite"):
        hp.bayes_risk_given_design(np.full((3, 6, 2), np.nan), 0.5)


@pytest.fixture(scope="module")
def covered_params(outcome):  # noqa: ANN001, ANN201 - [(name, fn, valid kwargs, parameter)]
    fns = dict(harness.functions())
    out = []
    for qual in outcome.covered:
        fn = fns[qual]
        doms = harness.domains_of(fn)  # theory.common: the harness's name table
        req = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
        base = {n: doms[n].valid for n in req}
        out += [(qual, fn, base, n, doms[n]) for n in req]
    return out


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_bad_input_is_rejected(covered_params, data) -> None:  # noqa: ANN001
    """Hypothesis: a covered exported function (slices and theory.common), one parameter, a
    random value outside its domain (random NaN position, random indefinite spectrum, values past
    the bounds, numeric strings, ...) -> ValueError/TypeError."""
    qual, fn, base, name, dom = data.draw(st.sampled_from(covered_params), label="parameter")
    bad = data.draw(harness.bad_value_strategy(dom), label=f"{qual}({name}=...)")
    with np.errstate(all="ignore"), pytest.raises((ValueError, TypeError)):
        harness._call(fn, {**base, name: bad})


def test_harness_catches_an_unvalidated_function() -> None:
    """Negative control: a function that computes on NaN, a negative size and σ² < 0 is caught."""

    def unvalidated(N: int, sigma2: float) -> float:
        return sigma2 * (1 + 1 / N)

    def validated(N: int, sigma2: float) -> float:
        if not (isinstance(N, int) and N >= 1):
            raise ValueError(f"N must be an integer >= 1, got {N!r}")
        if not (isinstance(sigma2, float) and math.isfinite(sigma2) and sigma2 >= 0):
            raise ValueError(f"sigma2 must be finite and >= 0, got {sigma2!r}")
        return sigma2 * (1 + 1 / N)

    bad = harness.check_function("unvalidated", unvalidated)
    good = harness.check_function("validated", validated)
    assert any("sigma2=below the lower bound" in f for f in bad.failures)
    assert any("N=NaN" in f or "N=non-integer" in f for f in bad.failures)
    assert good.covered == ["validated"] and not good.failures
    from theory.settings.domains import COMMON
    from theory.settings.domains import validated as wrap

    wrapped = harness.check_function("wrapped", wrap(unvalidated, COMMON))
    assert wrapped.covered == ["wrapped"] and not wrapped.failures
