"""Raise before skip (issue 31): a Monte Carlo row drawn short of its power (se ≤ 2 % of its
scale) raises its own sample on the same stream, up to 4× (``raised_from`` in its details),
and only past that is ``skipped`` with the sample it would need.  The quick tier's sample is
shrunk here (``quick_n``) to make the first draw underpowered at the preset."""

from __future__ import annotations

import pytest

from numerics.zwb24 import sec3_model
from theory.zwb24.settings import PRESETS


@pytest.mark.mc
@pytest.mark.result("zwb24:eq-gdbeta-risk")
@pytest.mark.parametrize(("n", "status"), [(10_000, "pass"), (500, "skipped")])
def test_an_underpowered_draw_raises_then_skips(
    monkeypatch: pytest.MonkeyPatch, n: int, status: str
) -> None:
    """GD-β's raw-prompt risk needs about 31 000 prompts for se ≤ 2 % (heavy-tailed squared
    errors: 0.78 % at the quick tier's 200 000): from 10 000 it is raised within 4× and
    passes; from 500 it stops at 4 × 500 and is skipped, naming the sample it needs."""
    monkeypatch.setattr(sec3_model, "quick_n", lambda quick, q, f: n)
    (row,) = sec3_model.check_eq_gdbeta_risk_mc(PRESETS["model"])
    assert row.status == status, row.describe()
    assert row.details["raised_from"] == n < row.details["n"] <= 4 * n
    if status == "pass":
        assert row.details["se_over_scale"] <= 0.02
    else:
        assert row.details["n"] == 4 * n and row.details["needed_n"] > 4 * n
        assert f"raised from {n}" in row.details["why"]
