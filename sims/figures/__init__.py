"""Figure functions, one module per paper: ``fig_xxx(*, quick=True, seed=0) -> Figure``."""
