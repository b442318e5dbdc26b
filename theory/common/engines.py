"""Results about the verification engines themselves (registered so the report shows them).

``base:suffstat-mc`` [derived]: the sufficient-statistic sampler of :mod:`numerics.mc_fast` draws
the GD-family statistic ``M h`` with exactly the law it has under raw Gaussian prompts, so its risk
estimates agree with literal raw-prompt Monte Carlo.  Checked by a paired difference at z = 5.
"""

from __future__ import annotations

from theory.common.protocols import Check, Result

__all__ = ["RESULTS"]

RESULTS: tuple[Result, ...] = (
    Result(
        id="base:suffstat-mc",
        kind="derived",
        summary=(
            "Sufficient-statistic MC engine has the raw-prompt law (GD family, debiased, LTB φ)"
        ),
        source="[derived] numerics.mc_fast (Wishart / rotation-invariance sampling of M h)",
        statement=(
            "For x = C z, ε = σ ζ and M the Wishart matrix of the rows (z, ζ), M h has the law "
            "c² h + c (‖h‖ ξ − h hᵀξ/‖h‖) with c² ~ χ²_N, ξ ~ N(0, I) independent."
        ),
        checks=(
            # negative controls: a Wishart with one degree of freedom too few (N − 1; debiased:
            # N − 2), and normals instead of χ on the Bartlett diagonal (vector sampler: c ~ N(0,1))
            Check(
                "numerics.baselines.suffstat:check_fast_vs_raw",
                faults={
                    "dof_minus_1_isotropic": {"case": "isotropic", "fault_dof_offset": -1},
                    "dof_minus_1_debiased": {"case": "debiased", "fault_dof_offset": -1},
                    "dof_minus_1_short_prompt": {"case": "short_prompt", "fault_dof_offset": -1},
                    "normal_diagonal_isotropic_vector": {
                        "case": "isotropic",
                        "method": "vector",
                        "fault_diagonal": "normal",
                    },
                    "normal_diagonal_isotropic_bartlett": {
                        "case": "isotropic",
                        "method": "bartlett",
                        "fault_diagonal": "normal",
                    },
                    "normal_diagonal_general_vector": {
                        "case": "general",
                        "method": "vector",
                        "fault_diagonal": "normal",
                    },
                    "normal_diagonal_general_bartlett": {
                        "case": "general",
                        "method": "bartlett",
                        "fault_diagonal": "normal",
                    },
                },
            ),
        ),
        derived=True,
    ),
)
