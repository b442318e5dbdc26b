"""Checks that compare trained models with theory predictions, one module per paper."""
