"""[czz24] settings first: every check takes the czz24 Setting first; a result whose claim holds at
any setting has checks that follow ``--set`` (its identities run at the given Setting's own
context), and a fixed check says why in words a researcher can read."""

from __future__ import annotations

import inspect

import pytest

from sims.registry import all_results
from sims.verify import build_setting, run_check, run_control, setting_for
from theory.common.setting import setting_json
from theory.czz24.settings import Setting

CZZ24 = [r for r in all_results() if r.paper == "czz24"]
CHECKS = {c.path: c for r in CZZ24 for c in r.checks}


def _result(rid: str):
    return next(r for r in CZZ24 if r.id == rid)


@pytest.mark.parametrize("path", sorted(CHECKS))
def test_check_takes_the_setting_first(path: str) -> None:
    """``check(setting: Setting, *, quick, seed, fault_...)``: no other keyword parameter."""
    fn = CHECKS[path].function
    params = list(inspect.signature(fn).parameters.values())
    first, rest = params[0], params[1:]
    assert first.name == "setting" and first.annotation in (Setting, "Setting"), path
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in rest), path
    extra = [p.name for p in rest if p.name not in ("quick", "seed")]
    assert all(n.startswith("fault_") for n in extra), (path, extra)


def test_fixed_checks_say_why() -> None:
    fixed = {c.path: c.fixed for c in CHECKS.values() if c.fixed}
    assert all(len(reason) > 40 for reason in fixed.values()), fixed


#: the results whose claims hold at any setting of the paper (identities in d, n, s, σ², ...), each
#: with a researcher's setting away from every preset: (result id, --set options)
GENERAL = [
    ("czz24:alg1", ["d=5", "s=2", "n=3", "q=2", "prior=sign"]),
    ("czz24:prop4.1", ["d=7", "n=20", "Sigma_diag=none", "q=3"]),
    ("czz24:prop4.2", ["d=3", "s=2", "n=30", "zeta=0.4", "sigma2=0"]),
    ("czz24:heads-alg1", ["d=2"]),
    ("czz24:eqD.1", ["d=5", "s=2", "n=9", "Sigma_diag=none", "sigma2=0.3"]),
    ("czz24:eq2.2", ["d=6", "n=4", "q=2", "prior=sign", "s=3"]),
]


@pytest.mark.parametrize(("rid", "sets"), GENERAL, ids=[g[0] for g in GENERAL])
def test_general_claims_follow_set(rid: str, sets: list[str]) -> None:
    """Every non-fixed check runs at the researcher's Setting and passes there, its rows carry
    it, and each of its planted faults is still rejected there; the fixed ones keep their own."""
    r = _result(rid)
    s = build_setting(r, sets)
    moved = [c for c in r.checks if not c.fixed]
    assert moved, f"{rid}: no check follows --set"
    for c in r.checks:
        assert setting_for(c, s) == (c.at if c.fixed else s), c.path
    for c in moved:
        rows = run_check(c, setting=s)
        assert rows and all(e.setting == setting_json(s) for e in rows), c.path
        assert all(e.passed for e in rows), [e.describe() for e in rows if not e.passed]
        assert any(f"d={s.d}" in e.name or f"d = {s.d}" in e.name for e in rows), c.path
        for fault in c.faults:
            assert run_control(c, fault, setting=s).rejected, (c.path, fault)


def test_heads_alg1_reads_d_alone() -> None:
    r = _result("czz24:heads-alg1")
    assert r.keys == ("d",)
    with pytest.raises(ValueError, match="no check of czz24:heads-alg1 reads it"):
        build_setting(r, ["s=2"])
    assert build_setting(r, ["d=1"]).d == 1  # every d ≥ 1 is a setting of R11
