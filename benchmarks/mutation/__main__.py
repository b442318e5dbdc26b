"""``python -m benchmarks.mutation <paper>|all [--sample N] ...`` (see the package docstring)."""

from benchmarks.mutation import main

raise SystemExit(main())
