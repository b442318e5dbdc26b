"""collins24 trained checks: Fig. 5's pretrain/test matrix, Lemma B.5 on the ellipsoid
(torch sampler; the trained unit: test_train.py), Fig. 9's offset, F^2_B and F^cos_B classes
with the linear-attention contrast, Fig. 3's cosine panel on U^d_S (``--full`` rows: thorough
tier).

Trained runs come from the config-keyed cache (shared with the report).
"""

from __future__ import annotations

import pytest

from numerics.testing import assert_fails, assert_passed
from sims import collins24 as S
from sims.collins24.results import FIG34, S5


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:fig5")
def test_fig5_matrix_nine_pairings_mismatched_unit_fails_own_rows(declared_run) -> None:
    rows, error = declared_run("sims.collins24.sec3_transfer:check_fig5_order_matrix")
    assert error is None
    assert sum("within 10 %" in e.name for e in rows) == 9  # 3 pretraining x 3 test classes
    bad = S.check_fig5_order_matrix(
        FIG34, fault_unit="s3_L0.03"
    )  # a mismatched-L unit as the affine one
    assert_fails([e for e in bad if "pretrained on affine" in e.name])


@pytest.mark.thorough
@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:fig9")
def test_fig9_other_classes_linear_attention_contrast_and_negative_control() -> None:
    ev = S.fig9_class_rows(S5)
    assert_passed(ev)
    assert_fails([e for e in S.fig9_class_rows(S5, fault_wrong_subspace=True) if "rho" in e.name])
    assert_passed(S.check_fig9_train(S5, quick=False))


@pytest.mark.thorough
@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:fig5")
def test_fig5_matrix_full_tier() -> None:
    assert_passed(S.check_fig5_order_matrix(FIG34, quick=False))


@pytest.mark.thorough
@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:fig3-4")
def test_fig34_acg_cosine_panel_is_report_only() -> None:
    ev = S.fig34_acg_cos_rows(FIG34, reps=20_000)
    assert len(ev) == 3 and all(e.kind == "INFO" for e in ev)
