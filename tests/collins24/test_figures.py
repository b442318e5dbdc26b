"""collins24 figures draw (quick tier) with the expected axes."""

from __future__ import annotations

import pytest

from sims.figures import collins24 as F

#: One pytest-xdist worker for this module: the training-norm and pre-training figures share a
#: model, which two workers would otherwise train at once (a cold run's ICL_VERIFY_CACHE_LOG).
pytestmark = pytest.mark.xdist_group("collins24-figures")


@pytest.mark.result("collins24:thm3.4")
def test_fig_omega_lambda() -> None:
    fig = F.fig_optimum_omega_lambda()
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and len(ax.get_lines()) == 5
    assert "slope" in str(ax.get_lines()[0].get_label())


@pytest.mark.result("collins24:thm3.5")
def test_fig_transfer() -> None:
    assert len(F.fig_transfer_curves().axes[0].get_lines()) == 4


@pytest.mark.result("collins24:fig1")
def test_fig_error_vs_n() -> None:
    fig = F.fig_1c()
    assert len(fig.axes) == 3 and fig.axes[0].get_xscale() == "log"


@pytest.mark.result("collins24:thm3.4")
def test_fig_weights() -> None:
    assert len(F.fig_1b().axes[0].get_lines()) == 4


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:thm3.4")
def test_fig_training_norm() -> None:
    axes = F.fig_3_4().axes
    assert len(axes) == 4  # sigma, L, n, U^d_S panels: a marker series and an optimum line each
    assert [len(ax.get_lines()) for ax in axes] == [8, 6, 6, 4]


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:thm4.4")
def test_fig_lowrank_rho() -> None:
    ax = F.fig_9().axes[0]
    assert ax.get_yscale() == "log" and len(ax.get_lines()) == 2


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.result("collins24:fig5")
def test_fig_pretrain_matrix() -> None:
    fig = F.fig_5()
    ax = fig.axes[0]
    assert len(ax.texts) == 12 and ax.get_ylabel() == "pretrained on"


def test_old_figure_names_are_the_same_functions() -> None:
    assert F.fig_omega_lambda is F.fig_optimum_omega_lambda and F.fig_pretrain_matrix is F.fig_5
    assert F.fig_weights is F.fig_1b and F.fig_error_vs_n is F.fig_1c
    assert F.fig_lowrank_rho is F.fig_9


def test_compute_9_measures_from_the_first_snapshot_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit that starts at M = 0 (the App. J.1 classes' units) has no ρ at its start: compute_9
    measures from ``first`` (the checks ask 1), its steps aligned; from 0 it refuses clearly
    (ValueError naming ρ), never a NaN."""
    from types import SimpleNamespace

    import numpy as np

    from sims.collins24 import sec4_lowrank as LR

    M1 = np.diag([2.0, 1.0, 0.1, 0.0, 0.0, 0.0])
    run = SimpleNamespace(
        extra={
            "M_snapshots": np.array([np.zeros((6, 6)), M1]),
            "M_trace": np.array([[0, 0.0], [100, 2.0]]),
        }
    )
    monkeypatch.setattr(LR, "trained", lambda setting, recipe, seed: run)
    out = LR.compute_9(unit=LR.PRESETS["f9_square_softmax"], first=1)
    assert out["steps"].tolist() == [100] and out["rho"].shape == (1,)
    with pytest.raises(ValueError, match="rho"):
        LR.compute_9(unit=LR.PRESETS["f9_square_softmax"], first=0)
