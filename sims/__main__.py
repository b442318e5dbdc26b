"""``python -m sims <key> <preset> [--field=value ...]``: train a preset of a paper.

``python -m sims <key> --help`` lists the paper's presets and the training fields they take.
Each paper's trainer ``sims/<key>/train.py`` exposes ``PRESETS`` and ``run(preset, **overrides)``;
overrides are type-checked against the preset's ``TrainConfig`` fields by
:func:`sims.config.parse_overrides`.
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

    slug = PAPERS.get(slug, slug)  # a paper key names its slug
    if preset in ("-h", "--help") and slug in PAPERS.values():
        return _help(importlib.import_module(trainer_module(slug)), argv[0])

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


def _help(mod: object, key: str) -> int:
    presets = getattr(mod, "PRESETS", {})
    print(f"python -m sims {key} <preset> [--field=value ...]  (training presets of {key})")
    print("presets:")
    for name, (setting, _cfg) in presets.items():
        print(f"  {name}: {setting}")
    print("fields (--field=value), with the first preset's values:")
    first = next(iter(presets.values()), None)
    if first is not None and dataclasses.is_dataclass(first[1]):
        for f in dataclasses.fields(first[1]):
            print(f"  --{f.name}={getattr(first[1], f.name)!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
