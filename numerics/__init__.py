"""icl-verify numerics: ODE integration, Monte Carlo with standard errors, references, testing."""
