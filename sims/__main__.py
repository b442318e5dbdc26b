"""``python -m sims <slug> <preset> [--field=value ...]``: train a preset of a paper (STYLE R18).

Each ``sims/experiments/<slug>.py`` exposes ``PRESETS`` and ``run(preset, **overrides)``; overrides
are type-checked against the preset's ``TrainConfig`` fields by :func:`sims.config.parse_overrides`.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import sys

from sims.config import TrainConfig, parse_overrides


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    slug, preset, rest = argv[0], argv[1], argv[2:]
    from sims.registry import PAPERS, trainer_module

    if slug not in PAPERS.values():
        close = difflib.get_close_matches(slug, sorted(PAPERS.values()), n=3)
        print(
            f"python -m sims: unknown slug {slug!r}; slugs: {sorted(PAPERS.values())}"
            + (f" (did you mean {close}?)" if close else ""),
            file=sys.stderr,
        )
        return 2
    mod = importlib.import_module(trainer_module(slug))
    if preset not in mod.PRESETS:
        print(
            f"python -m sims: unknown preset {preset!r}; presets: {sorted(mod.PRESETS)}",
            file=sys.stderr,
        )
        return 2
    _setting, cfg = mod.PRESETS[preset]
    try:
        new_cfg = parse_overrides(cfg, rest) if isinstance(cfg, TrainConfig) else cfg
    except ValueError as exc:
        print(f"python -m sims: error: {exc}", file=sys.stderr)
        return 2
    changes = {
        f.name: getattr(new_cfg, f.name)
        for f in dataclasses.fields(new_cfg)
        if getattr(new_cfg, f.name) != getattr(cfg, f.name)
    }
    result = mod.run(preset, **changes)
    print(f"final loss {getattr(result, 'final_loss', result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
