"""The shared layer's results on the top floor (``base:*``): :mod:`sims.common.results`."""
