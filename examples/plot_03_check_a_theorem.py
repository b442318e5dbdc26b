"""
Check a theorem at your own setting
===================================

[hpcy25] Theorem 4.2(iii) compares the limit risk of the trained two-head softmax model (which
behaves as debiased one-step GD) with the Bayes-optimal risk: the gap is non-negative and at most
``ξ/(1 + ξ(1 + σ²))`` with ``ξ = d/L``. The registered result ``hpcy25:thm4.2iii`` checks this by a
symbolic identity, float evaluations and Monte Carlo on sampled prompts.

This script runs it at a setting the paper does not use, reads the rows, and evaluates the
closed forms directly. The command-line equivalent::

    icl-verify check hpcy25:thm4.2iii --set d=8 --set L=60 --set sigma2=0.2
"""

# %%
# Build a setting and verify the result
# -------------------------------------
import matplotlib.pyplot as plt
import numpy as np

import theory.hpcy25 as hpcy25
from sims.registry import get
from sims.verify import build_setting, verify_result

result = get("hpcy25:thm4.2iii")
print(result.id, "-", result.summary)
print("keys:", result.keys)

setting = build_setting(result, ["d=8", "L=60", "sigma2=0.2"])  # ValueError on a bad value
outcome = verify_result(result, setting=setting, seed=0)
print("status:", outcome.status)
for e in outcome.evidence:
    print(f"  {e.status:8s} {e.kind:7s} error {e.error:8.3g} tol  {e.name[:80]}")

# %%
# Each row's error in tolerance units (a pass is below 1)
# ------------------------------------------------------
# INFO rows are reported, never compared, so they are left out; an exact agreement (error 0) is
# drawn at the left edge.
rows = [e for e in outcome.evidence if not e.informational]
errors = [max(e.error, 1e-17) for e in rows]
fig, ax = plt.subplots(figsize=(7, 0.35 * len(errors) + 1.2))
ax.barh(range(len(errors)), errors, color=["C2" if e.passed else "C3" for e in rows])
ax.axvline(1.0, color="k", ls="--", lw=1)
ax.set_yticks(range(len(errors)), [f"{e.kind} {i}" for i, e in enumerate(rows)])
ax.set_xscale("log")
ax.set_xlabel("|observed − predicted| / tolerance")
ax.set_title("hpcy25 Theorem 4.2(iii) at d = 8, L = 60, σ² = 0.2")
fig.tight_layout()

# %%
# The closed forms themselves
# ---------------------------
# Numbers in give float64; SymPy symbols in give expressions.
d, L, sigma2 = 8, 60, 0.2
xi = d / L
print("R_B∞      =", hpcy25.bayes_risk_limit(xi, sigma2))
print("gap bound =", hpcy25.bayes_gap_bound(xi, sigma2))
xis = np.linspace(0.02, 1.0, 50)
fig, ax = plt.subplots(figsize=(6, 3.6))
ax.plot(
    xis, [hpcy25.bayes_gap_bound(x, sigma2) for x in xis], label=r"bound $\xi/(1+\xi(1+\sigma^2))$"
)
ax.plot(xis, [hpcy25.bayes_risk_limit(x, sigma2) for x in xis], label=r"Bayes limit $R_{B\infty}$")
ax.axvline(xi, color="k", ls=":", lw=1, label=f"this setting (ξ = {xi:.3g})")
ax.set_xlabel(r"$\xi = d/L$")
ax.set_ylabel("risk")
ax.set_title(r"hpcy25 (D.34)–(D.36), $\sigma^2$ = 0.2")
ax.legend()
fig.tight_layout()
plt.show()
