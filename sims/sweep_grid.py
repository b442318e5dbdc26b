"""Sweep grids from the command line: what ``icl-verify sweep`` runs, validated before any work.

:func:`parse_grid` turns ``--grid KEY=V1,V2`` options into typed values (a key must be a parameter
of one of the result's checks, or a field of the training preset), :func:`parse_seeds` turns
``--seeds 0-4,9`` into seeds, and :class:`SweepSpec` holds the validated sweep.  Every error is a
``ValueError`` naming the option (the CLI exits 2).  :mod:`sims.sweep` runs the spec and
re-exports these names.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import re
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sims.config import TrainConfig, coerce
from sims.registry import PAPERS, get, trainer_module
from sims.verify import parse_set_options

__all__ = ["SweepSpec", "parse_seeds", "parse_grid", "split_preset", "point_settings"]


@dataclass(frozen=True, kw_only=True, slots=True)
class SweepSpec:
    """What to sweep (validated by :func:`parse_grid` and :func:`parse_seeds`)."""

    target: str  # a result id, or "slug:preset" when ``preset`` is True
    grid: tuple[tuple[str, tuple[Any, ...]], ...]  # (key, values) in command-line order
    seeds: tuple[int, ...] = (0,)  # seeds, in order
    quick: bool = True  # quick tier of the checks
    preset: bool = False  # sweep a training preset instead of a result's checks
    device: str | None = None  # "cpu" / "cuda": passed to training (TrainConfig.device)
    fixed: tuple[tuple[str, Any], ...] = ()  # --set KEY=VALUE: the same at every grid point

    def __post_init__(self) -> None:
        if not self.seeds:
            raise ValueError("no seeds to sweep")
        keys = [k for k, _ in self.grid]
        if len(set(keys)) != len(keys):
            raise ValueError(f"a grid key is given twice: {keys}")
        both = sorted(set(keys) & {k for k, _ in self.fixed})
        if both:
            raise ValueError(f"{both} given both as --grid and as --set: give each key once")
        for k, vals in self.grid:
            if not vals:
                raise ValueError(f"--grid {k}= is empty: give at least one value")

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.grid)

    def points(self) -> list[tuple[tuple[str, Any], ...]]:
        """The grid points, first key slowest."""
        return [
            tuple(zip(self.keys, vals, strict=True))
            for vals in itertools.product(*(v for _, v in self.grid))
        ]


def parse_seeds(text: str) -> tuple[int, ...]:
    """``"0-4"`` → (0, 1, 2, 3, 4); ``"1,3,7"``; ``"2"``; ranges and lists mix (``"0-2,9"``).

    >>> parse_seeds("0-2,9")
    (0, 1, 2, 9)
    """
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < lo:
                raise ValueError(f"--seeds {text!r}: empty range {part!r}")
            out += range(lo, hi + 1)
        elif re.fullmatch(r"\d+", part):
            out.append(int(part))
        else:
            raise ValueError(
                f"--seeds {text!r}: expected N, A-B or a comma list of them (non-negative integers)"
            )
    if len(set(out)) != len(out):
        raise ValueError(f"--seeds {text!r}: a seed is repeated")
    return tuple(out)


def _split_values(text: str) -> list[str]:
    """Split ``V1,V2,...`` at top-level commas (a value may be a tuple ``(1,2)`` or list)."""
    parts: list[str] = []
    depth, cur = 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _preset_fields(slug: str, preset: str) -> dict[str, Any]:
    """Settable fields of a preset: ``TrainConfig`` fields and the setting's fields -> type."""
    mod = importlib.import_module(trainer_module(slug))
    if preset not in mod.PRESETS:
        raise ValueError(f"unknown preset {slug}:{preset}; presets: {sorted(mod.PRESETS)}")
    setting, _ = mod.PRESETS[preset]
    hints: dict[str, Any] = dict(typing.get_type_hints(TrainConfig))
    if dataclasses.is_dataclass(setting):
        setting_hints = typing.get_type_hints(type(setting))
        for f in dataclasses.fields(setting):
            hints.setdefault(f.name, setting_hints.get(f.name, Any))
    hints.pop("seed", None)  # seeds come from --seeds
    return hints


def split_preset(target: str) -> tuple[str, str]:
    """``"slug:name"`` → (slug, name); a paper key works for the slug (``hpcy25:h2``)."""
    slug, sep, name = target.partition(":")
    slug = PAPERS.get(slug, slug)
    if not sep or not name:
        raise ValueError(f"--preset {target!r} must look like slug:name, e.g. hpcy25:h2")
    if slug not in PAPERS.values():
        raise ValueError(
            f"--preset {target!r}: unknown slug {slug!r}; slugs: {sorted(PAPERS.values())}"
        )
    return slug, name


def _setting_values(result: Any, key: str, text: str, values: Sequence[str]) -> tuple[Any, ...]:
    """The typed values of one grid key of a settings-first result (a field its checks read)."""
    from sims.verify import parse_setting_value
    from theory.common.setting import setting_fields

    if key not in result.keys:
        raise ValueError(
            f"--grid {key}: {result.id} takes no key {key!r}; keys: {', '.join(result.keys)}"
        )
    ann = setting_fields(type(result.setting))[key].type
    try:
        return tuple(parse_setting_value(key, v, ann) for v in values)
    except ValueError as exc:
        raise ValueError(f"--grid {key}={text}: {exc}") from None


def point_settings(spec: SweepSpec) -> list[Any]:
    """The Setting of every grid point of a settings-first result, each built and checked against
    the result's hypotheses (``ValueError`` naming the point), before any work."""
    import dataclasses

    from sims.verify import check_hypotheses

    result = get(spec.target)
    out = []
    for point in spec.points():
        kw = dict(spec.fixed) | dict(point)
        shown = " ".join(f"{k}={v}" for k, v in kw.items())
        try:
            s = dataclasses.replace(result.setting, **kw)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"grid point {shown}: {exc}") from None
        check_hypotheses(result, s, [shown])
        out.append(s)
    return out


def parse_grid(
    target: str, options: Sequence[str], *, preset: bool = False
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """``KEY=V1,V2,...`` strings → ((key, values), ...), every value type-checked.

    For a result, a key must be a parameter of at least one of its checks (see ``icl-verify check
    ID --params``) and each value must parse as that parameter's type for every check taking it;
    for a preset, a ``TrainConfig`` or setting field.  Raises ``ValueError`` naming the key.
    """
    out: list[tuple[str, tuple[Any, ...]]] = []
    hints = _preset_fields(*split_preset(target)) if preset else {}
    result = None if preset else get(target)
    for opt in options:
        if "=" not in opt:
            raise ValueError(f"--grid {opt!r} must look like KEY=V1,V2,...")
        key, text = opt.split("=", 1)
        key = key.strip()
        values = _split_values(text)
        if not values:
            raise ValueError(f"--grid {key}= is empty: give at least one value")
        if key == "seed":
            raise ValueError("--grid seed=...: use --seeds for seeds")
        if result is not None and result.settings_first:
            typed = _setting_values(result, key, text, values)
        elif preset:
            if key not in hints:
                raise ValueError(f"preset {target} has no field {key!r}; fields: {sorted(hints)}")
            typed = tuple(coerce(key, v, hints[key]) for v in values)
        else:
            assert result is not None
            try:
                typed_per_check = [parse_set_options(result, [f"{key}={v}"]) for v in values]
            except ValueError as exc:
                raise ValueError(
                    f"--grid {key}={text}: " + str(exc).removeprefix("--set ")
                ) from None
            typed = tuple(
                next(iter(kw[key] for kw in d.values() if key in kw)) for d in typed_per_check
            )
        if len(set(map(repr, typed))) != len(typed):
            raise ValueError(f"--grid {key}: a value is repeated: {values}")
        out.append((key, typed))
    return tuple(out)
