"""The fast forward of :class:`sims.models.softmax_attention.SoftmaxAttention` (one
``torch.autograd.Function`` with the analytic backward) computes what the module computed before:
outputs and gradients (parameters and input) agree with a literal copy of the old autograd forward
to round-off, in float32 and float64, at H = 1, 2, 4, several (d, L) and every model option.
Negative controls: a perturbed reference fails the same comparison."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import pytest
import torch

from sims.models import softmax_attention as sa
from sims.models.softmax_attention import SoftmaxAttention, uniform_init

#: Round-off tolerance of one comparison: ``max|x − ref| ≤ SPEEDPATH_RTOL · max|ref|`` (≈ 170 ulp in
#: float32; the largest seen is 2.7e-6, a 1e-3 perturbation of one weight gives ≥ 1.4e-3).
SPEEDPATH_RTOL = {torch.float32: 2e-5, torch.float64: 1e-12}
#: 20 float64 Adam steps of two implementations of one function: round-off compounds over steps,
#: still far below any change of what the model computes.
TRAJECTORY_RTOL, TRAJECTORY_ATOL = 1e-9, 1e-12
#: One float64 evaluation, the same products in another order: round-off only.
EVAL_RTOL, EVAL_ATOL = 1e-13, 1e-15
Params = Mapping[str, torch.Tensor]


def reference_forward(
    P: Params,
    Z: torch.Tensor,
    *,
    n_out: int = 1,
    double_softmax: bool = False,
    query_self_attend: bool = False,
    scale: Callable[[int], float] = math.sqrt,
    head_shift: int = 0,
) -> torch.Tensor:
    """The module's forward written out literally (autograd does the backward).

    ``scale`` and ``head_shift`` exist only for the negative controls (1/D instead of 1/√D; the
    OV circuit of head h paired with the KQ circuit of head h + shift)."""
    W_Q, W_K, W_V, W_O = P["W_Q"], P["W_K"], P["W_V"], P["W_O"]
    H, D = W_Q.shape[0], W_Q.shape[1]
    L = Z.shape[2] - 1
    tok = Z.transpose(1, 2)  # (B, L+1, D)
    keys = tok if query_self_attend else tok[:, :L]  # (B, L, D)
    zq = tok[:, L]  # (B, D)
    kq = torch.einsum("hki,hkj->hij", W_K, W_Q) / scale(D)  # (H, D, D)
    a = torch.einsum("hij,bj->bhi", kq, zq)  # (B, H, D)
    p = torch.softmax(torch.bmm(a, keys.transpose(1, 2)), dim=-1)  # (B, H, L)
    if double_softmax:
        p = torch.softmax(p, dim=-1)
    u = torch.bmm(p, keys)  # (B, H, D)
    ov = torch.einsum("ohk,hkj->hoj", W_O.view(n_out, H, D), W_V)  # (H, n_out, D)
    out = torch.einsum("bhj,hoj->bo", u, torch.roll(ov, head_shift, dims=0))  # (B, n_out)
    return out[:, 0] if n_out == 1 else out


def _outputs_and_grads(
    f: Callable[[torch.Tensor], torch.Tensor],
    params: Sequence[torch.Tensor],
    Z: torch.Tensor,
    w: torch.Tensor,
) -> list[torch.Tensor]:
    """``f(Z)``, then the gradients of ``Σ w·f(Z)`` and of the MSE to ``w`` w.r.t. params and Z."""
    Z = Z.detach().clone().requires_grad_(True)
    out = f(Z)
    inputs = [*params, Z]
    g_lin = torch.autograd.grad((w * out).sum(), inputs, retain_graph=True)
    g_mse = torch.autograd.grad(torch.mean((out - w) ** 2), inputs)
    return [out.detach(), *g_lin, *g_mse]


def _agree(xs: list[torch.Tensor], refs: list[torch.Tensor]) -> bool:
    return all(
        bool((x - r).abs().max() <= SPEEDPATH_RTOL[r.dtype] * r.abs().max())
        for x, r in zip(xs, refs, strict=True)
    )


def _batch(
    gen: torch.Generator, d: int, L: int, D: int, B: int, dtype: torch.dtype
) -> torch.Tensor:
    """Token matrices (B, D, L+1) laid out as :func:`sample_batch` makes them (a transposed
    view), the query's label slot 0."""
    Z = torch.randn((B, L + 1, D), generator=gen, dtype=dtype)  # (B, L+1, D)
    Z[:, L, d:] = 0.0
    return Z.transpose(1, 2)  # (B, D, L+1)


def _case(
    d: int, L: int, H: int, dtype: torch.dtype, **options: int | bool
) -> tuple[SoftmaxAttention, torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    model = SoftmaxAttention(d, H, generator=gen, dtype=dtype, **options)  # type: ignore[arg-type]
    with torch.no_grad():  # larger scores, so the softmax is far from uniform
        model.W_Q.mul_(3.0)
        model.W_K.mul_(3.0)
    B = 48
    Z = _batch(gen, d, L, model.D, B, dtype)
    w = torch.randn((B, model.n_out) if model.n_out > 1 else (B,), generator=gen, dtype=dtype)
    return model, Z, w


def _compare(
    model: SoftmaxAttention,
    Z: torch.Tensor,
    w: torch.Tensor,
    *,
    perturb: tuple[str, float] | None = None,
    scale: Callable[[int], float] = math.sqrt,
    head_shift: int = 0,
) -> bool:
    """Do the model's outputs and gradients agree with :func:`reference_forward`'s on the same
    parameters (``perturb = (name, factor)`` multiplies one of them in the reference only)?"""
    params: list[torch.Tensor] = [model.W_Q, model.W_K, model.W_V, model.W_O]
    P: dict[str, torch.Tensor] = dict(zip(("W_Q", "W_K", "W_V", "W_O"), params, strict=True))

    def ref(Z_: torch.Tensor) -> torch.Tensor:
        Pr = dict(P)
        if perturb is not None:
            Pr[perturb[0]] = P[perturb[0]] * perturb[1]
        return reference_forward(
            Pr,
            Z_,
            n_out=model.n_out,
            double_softmax=model.double_softmax,
            query_self_attend=model.query_self_attend,
            scale=scale,
            head_shift=head_shift,
        )

    return _agree(_outputs_and_grads(model, params, Z, w), _outputs_and_grads(ref, params, Z, w))


OPTIONS: dict[str, dict[str, int | bool]] = {
    "paper": {},
    "query_self_attend": {"query_self_attend": True},
    "double_softmax": {"double_softmax": True},
    "multitask_n_out_2": {"n_out": 2},
}


@pytest.mark.result("hpcy25:eq2.3")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize(("d", "L"), [(5, 40), (2, 7), (6, 48)])
@pytest.mark.parametrize("H", [1, 2, 4])
def test_outputs_and_gradients_match_the_literal_reference(
    H: int, d: int, L: int, option: str, dtype: torch.dtype
) -> None:
    model, Z, w = _case(d, L, H, dtype, **OPTIONS[option])
    assert _compare(model, Z, w)


@pytest.mark.result("hpcy25:eq2.3")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
@pytest.mark.parametrize(
    ("fault", "H"),
    [
        ("W_K x (1 + 1e-3)", 1),
        ("W_V x (1 + 1e-3)", 2),
        ("1/D scaling", 1),
        ("heads paired wrongly", 2),
        ("heads paired wrongly", 4),
    ],
)
def test_negative_control_perturbed_reference_fails(fault: str, H: int, dtype: torch.dtype) -> None:
    """The comparison is sharp: the unperturbed reference passes it, each perturbation fails."""
    model, Z, w = _case(5, 40, H, dtype)
    assert _compare(model, Z, w)
    if fault.startswith("W_"):
        assert not _compare(model, Z, w, perturb=(fault[:3], 1 + 1e-3))
    elif fault == "1/D scaling":
        assert not _compare(model, Z, w, scale=float)
    else:
        assert not _compare(model, Z, w, head_shift=1)


@pytest.mark.result("hpcy25:eq2.3")
def test_training_trajectory_matches_the_reference() -> None:
    """20 Adam steps on the same batches from the same init: the parameters agree (float64)."""
    model, _, _ = _case(5, 40, 2, torch.float64)
    P = {k: v.detach().clone().requires_grad_(True) for k, v in model.state_dict().items()}
    opts = [torch.optim.Adam(model.parameters(), lr=1e-2), torch.optim.Adam(P.values(), lr=1e-2)]
    gen = torch.Generator().manual_seed(7)
    for _ in range(20):
        Z = _batch(gen, 5, 40, model.D, 64, torch.float64)
        y = torch.randn(64, generator=gen, dtype=torch.float64)
        for f, opt in zip((model, lambda Z_: reference_forward(P, Z_)), opts, strict=True):
            opt.zero_grad()
            torch.mean((f(Z) - y) ** 2).backward()
            opt.step()
    for k, v in model.state_dict().items():
        assert torch.allclose(v, P[k].detach(), rtol=TRAJECTORY_RTOL, atol=TRAJECTORY_ATOL), k


@pytest.mark.result("hpcy25:eq2.3")
def test_parameters_state_dict_and_public_names_unchanged() -> None:
    """Same parameter names, shapes and initial values (so cached ``TrainResult.params`` load)."""
    assert set(sa.__all__) == {"SoftmaxAttention", "uniform_init"}
    H, d, n_out = 3, 5, 2
    D = d + n_out
    model = SoftmaxAttention(d, H, n_out=n_out, generator=torch.Generator().manual_seed(4))
    gen = torch.Generator().manual_seed(4)
    kw = {"generator": gen, "dtype": torch.float64, "device": "cpu"}
    expected = {
        "W_Q": uniform_init((H, D, D), D, **kw),
        "W_K": uniform_init((H, D, D), D, **kw),
        "W_V": uniform_init((H, D, D), D, **kw),
        "W_O": uniform_init((n_out, H * D), H * D, **kw),
    }
    state = model.state_dict()
    assert list(state) == list(expected)
    assert all(torch.equal(state[k], v) for k, v in expected.items())
    assert [n for n, _ in model.named_parameters()] == list(expected)
    assert model.kq().shape == (H, D, D) and model.ov().shape == (H, n_out, D)


def test_no_grad_evaluation_matches() -> None:
    """Evaluation (``torch.no_grad``, float64, as ``model_risk`` runs it) agrees too."""
    model, Z, _ = _case(5, 40, 4, torch.float64)
    with torch.no_grad():
        out, ref = model(Z), model.forward_autograd(Z)
    assert torch.allclose(out, ref, rtol=EVAL_RTOL, atol=EVAL_ATOL)
