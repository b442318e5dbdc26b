"""
Gradient flows against their closed-form limits
===============================================

Two gradient-flow ODEs, integrated at tight tolerances (DOP853, rtol 1e-10, atol 1e-12) and
compared with the closed forms they converge to:

* **zfb24** ([zfb24] Lemma 10, Theorem 4): the gradient flow of one linear self-attention layer
  from the balanced initialisation of Assumption 3 converges to ``u₋₁ U₁₁ = Γ⁻¹`` with
  ``Γ = (1 + 1/N)Λ + tr(Λ)/N · I`` and the reduced loss to ``−½ tr(Λ²Γ⁻¹)`` (Corollary 16);
  ``u₋₁² − ‖U₁₁‖²_F`` is conserved (Lemma 17).
* **hpcy25** ([hpcy25] App. B, Def. B.1): the two-head softmax flow of the approximate loss
  ``L̃`` from ``ω₁ = −ω₂ = μ₁ = −μ₂ = ε``. ``⟨ω, μ⟩`` settles at ``1/κ`` with
  ``κ = 1 + d(1+σ²)/L`` and ``L̃`` decreases towards ``inf L̃ = 1 + σ² − 1/κ`` (Theorem 4.2(ii)).

A :class:`numerics.ode.Trajectory` stores ``t`` with shape ``(n,)`` and ``y`` with shape
``(n, dim)``: one row per time (the transpose of ``scipy.integrate.solve_ivp``'s ``y``).
"""

# %%
# The LSA flow (zfb24)
# --------------------
import matplotlib.pyplot as plt
import numpy as np

import theory.zfb24 as zfb24
from numerics.zfb24 import integrate_flow, unpack

Lambda = np.diag([0.5, 1.0, 1.5, 2.0])
N, d = 16, 4
rng = np.random.default_rng(0)
M0 = rng.standard_normal((d, d))
Theta = M0 / np.sqrt(np.linalg.norm(M0 @ M0.T))  # ‖ΘΘᵀ‖_F = 1 (Assumption 3)
U0, u0 = zfb24.initial_state(Theta, sigma_init=0.3)
print("Theorem 4 needs σ²‖Γ‖√d < 2:", float(zfb24.init_condition(Lambda, N, 0.3)))

ts = np.geomspace(1e-2, 400.0, 200)
traj = integrate_flow(Lambda, N, U0, u0, t_end=400.0, t_eval=ts)
print("trajectory: t", traj.t.shape, " y", traj.y.shape, "(row-major U11, u, ∫u²)")

Gamma_inv = np.linalg.inv(zfb24.gamma(Lambda, N))
U_inf, u_inf = zfb24.limit_params_fn(Lambda, N)
dist, loss, balance = [], [], []
for row in traj.y:
    U, u = unpack(row, d)
    dist.append(np.linalg.norm(u * U - Gamma_inv) / np.linalg.norm(Gamma_inv))
    loss.append(zfb24.reduced_loss_fn(U, u, Lambda, N))
    balance.append(zfb24.balancedness(U, u))
loss_min = -0.5 * np.trace(Lambda @ Lambda @ Gamma_inv)  # Corollary 16

fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
a.loglog(traj.t, dist, label=r"$\|u_{-1}U_{11}-\Gamma^{-1}\|_F/\|\Gamma^{-1}\|_F$")
a.loglog(traj.t, np.array(loss) - loss_min, label=r"$\tilde\ell(t)-\min\tilde\ell$")
a.loglog(traj.t, np.abs(balance) + 1e-18, label=r"$|u_{-1}^2-\|U_{11}\|_F^2|$ (conserved: 0)")
a.set_xlabel("flow time $t$")
a.set_ylabel("distance to the limit")
a.set_title(r"zfb24: $\Lambda$ = diag(0.5, 1, 1.5, 2), $N$ = 16, $\sigma$ = 0.3")
a.legend(fontsize=8)
for i in range(d):
    b.semilogx(traj.t, [unpack(r, d)[1] * unpack(r, d)[0][i, i] for r in traj.y], f"C{i}")
    b.axhline(Gamma_inv[i, i], color=f"C{i}", ls="--", lw=1)
b.set_xlabel("flow time $t$")
b.set_ylabel(r"$(u_{-1}U_{11})_{ii}$; dashed: $(\Gamma^{-1})_{ii}$")
b.set_title("diagonal of the learned preconditioner")
fig.tight_layout()

# %%
# The two-head softmax flow (hpcy25)
# ----------------------------------
import theory.hpcy25 as hpcy25  # noqa: E402 (a gallery section imports what it shows)
from numerics.hpcy25.flows import two_head_flow  # noqa: E402

dd, L, sigma2 = 5, 40, 0.1
ts = np.geomspace(1e-2, 2000.0, 300)
flow = two_head_flow(2000.0, eps=1e-3, d=dd, L=L, sigma2=sigma2, t_eval=ts)
print("trajectory: t", flow.t.shape, " y", flow.y.shape, "(ω₁, ω₂, μ₁, μ₂)")
omega, mu = flow.y[:, :2], flow.y[:, 2:]
inner = np.sum(omega * mu, axis=1)
ltilde = hpcy25.ltilde(omega.T, mu.T, dd, L, sigma2)  # head axis first: one value per time
kappa = float(hpcy25.kappa(dd, L, sigma2))

fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
a.plot(flow.t, omega[:, 0], label=r"$\omega_1$")
a.plot(flow.t, mu[:, 0], label=r"$\mu_1$")
a.plot(flow.t, inner, label=r"$\langle\omega,\mu\rangle$")
a.axhline(1 / kappa, color="k", ls="--", lw=1, label=r"$1/\kappa$")
a.set_xscale("log")
a.set_xlabel("flow time $t$")
a.set_ylabel("head parameters")
a.set_title(rf"hpcy25: $d$ = {dd}, $L$ = {L}, $\sigma^2$ = {sigma2}, $\varepsilon$ = 1e-3")
a.legend(fontsize=8)
b.loglog(flow.t, ltilde - float(hpcy25.ltilde_inf(dd, L, sigma2)))
b.set_xlabel("flow time $t$")
b.set_ylabel(r"$\tilde L(t) - \inf\tilde L$")
b.set_title(r"$\tilde L$ decreases towards $1+\sigma^2-1/\kappa$")
fig.tight_layout()
plt.show()
