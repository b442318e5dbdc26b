"""
A trained check swept over the prompt length N
==============================================

[zwb24] Theorem 6.3: gradient flow on the GD-β parameters ``(Γ, β)`` of a linear transformer
block converges to the optimum, whose risk ``R*(N)`` is the smallest risk any GD-β predictor
reaches at prompt length ``N`` (Theorem 5.2). The registered check ``check_thm6_3_train`` trains
GD-β at your setting and compares the closed-form risk of the *learned* parameters with ``R*``
(and with named alternatives such as ``R*`` at ``N ± 1``, which it must not match).

Here the check runs at three prompt lengths and the bound (the prediction ``R*(N)``) is plotted
against the trained model's risk. Trained models are cached (``~/.cache/icl-verify``, or
``$ICL_VERIFY_CACHE``): a second run of this script trains nothing.

From the command line, every check of the result over a grid, with its own plot::

    icl-verify sweep zwb24:thm6.3 --grid N=4,6,8 --out sweep-thm63 --plot N
"""

# %%
# Run the trained check at each N
# -------------------------------
import matplotlib.pyplot as plt
import numpy as np

from sims.registry import get
from sims.verify import build_setting, run_check

result = get("zwb24:thm6.3")
check = next(c for c in result.checks if c.path.endswith(":check_thm6_3_train"))
print(result.id, "-", result.summary)
print("source:", result.source)

Ns = [4, 6, 8]
rows = []
for N in Ns:
    setting = build_setting(result, [f"N={N}"])  # validated, and checked against the hypotheses
    evidence = run_check(check, setting=setting, seed=0)
    # the check's scalar TRAIN row: risk of the learned (Γ, β) against R*
    row = next(e for e in evidence if e.kind == "TRAIN" and np.ndim(e.predicted) == 0)
    rows.append(row)
    print(f"N={N:3d}  {row.status:8s} R* = {row.predicted:.6f}  trained = {row.observed:.6f}")

# %%
# Bound against empirical
# -----------------------
# The line is the closed form ``R*(N)``; the markers are the trained models, with the row's
# tolerance as an error bar (a pass means the trained risk lies within it and outside the
# tolerance of every named alternative).
passed = [r.status == "pass" for r in rows]
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(Ns, [r.predicted for r in rows], "k-", label=r"closed form $R^*(N)$ (Theorem 5.2)")
ax.errorbar(
    [n for n, p in zip(Ns, passed, strict=True) if p],
    [r.observed for r, p in zip(rows, passed, strict=True) if p],
    yerr=[r.tolerance for r, p in zip(rows, passed, strict=True) if p],
    fmt="o",
    color="C0",
    label="trained GD-β (risk of the learned parameters)",
)
ax.set_xticks(Ns)
ax.set_xlabel("prompt length $N$")
ax.set_ylabel(r"test risk $R(\Gamma, \beta)$")
s = rows[0].setting or {}
ax.set_title(f"zwb24 Theorem 6.3: d = {s.get('d')}, σ² = {s.get('sigma2')}, seed 0")
ax.legend()
fig.tight_layout()
plt.show()
