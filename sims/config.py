"""Training configuration: :class:`TrainConfig` (how to train), :class:`DriftStop` (the fields
every paper's stopping rule shares), :func:`resolve_preset` (a preset name or a ``(setting,
recipe)`` pair, with overrides) and the type-checked ``--field=value`` override parser."""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from theory.settings import check_choice, check_int, check_real

__all__ = [
    "TrainConfig",
    "DriftStop",
    "resolve_preset",
    "parse_overrides",
    "coerce",
    "OPTIMIZERS",
    "DTYPES",
]

OPTIMIZERS = ("adam", "sgd", "gd")
DTYPES = ("float32", "float64")


@dataclass(frozen=True, kw_only=True, slots=True)
class TrainConfig:
    """How to train (not what is trained: that is the ``Setting``)."""

    optimizer: str = "adam"  # "adam", "sgd" (minibatches of fresh prompts), "gd" (plain steps)
    lr: float = 1e-3  # learning rate
    steps: int = 1000  # optimiser steps
    batch_size: int = 256  # fresh prompts per step (online training, as in the papers)
    betas: tuple[float, float] = (0.9, 0.999)  # Adam betas
    momentum: float = 0.0  # SGD momentum
    weight_decay: float = 0.0  # decoupled weight decay (AdamW-style for "adam")
    lr_decay: float = 1.0  # final lr / initial lr, cosine schedule when < 1
    grad_clip: float = 0.0  # max global grad norm (0: no clipping)
    half_mse: bool = False  # loss (1/2)·MSE as in zfb24 eq. (7); plain MSE otherwise
    dtype: str = "float64"  # float64 for verification runs
    device: str = "auto"  # "auto" (cuda if present), "cpu", "cuda"
    seed: int = 0  # seeds the explicit torch.Generator (data and init)
    log_every: int = 10  # record the loss every this many steps
    checkpoint_every: int = 0  # write a resumable checkpoint every this many steps (0: never)
    progress: bool = False  # show a tqdm progress bar

    def __post_init__(self) -> None:
        check_choice("optimizer", self.optimizer, OPTIMIZERS)
        check_real("lr", self.lr, lower=0.0, lower_open=True)
        check_int("steps", self.steps, minimum=0)
        check_int("batch_size", self.batch_size, minimum=1)
        check_real("lr_decay", self.lr_decay, lower=0.0, upper=1.0)
        check_real("grad_clip", self.grad_clip, lower=0.0)
        check_real("weight_decay", self.weight_decay, lower=0.0)
        check_real("momentum", self.momentum, lower=0.0, upper=1.0, upper_open=True)
        check_choice("dtype", self.dtype, DTYPES)
        check_choice("device", self.device, ("auto", "cpu", "cuda"))
        check_int("seed", self.seed, minimum=0)
        check_int("log_every", self.log_every, minimum=1)
        check_int("checkpoint_every", self.checkpoint_every, minimum=0)


@dataclass(frozen=True, kw_only=True, slots=True)
class DriftStop:
    """What every paper's stopping rule shares: a run stops when its invariant's drift over a
    window of ``window`` steps is at most ``fraction · tol`` (``tol``: the tolerance of the check
    that judges the run), or at ``max_steps`` (the step bound: a count, never a wall clock), where
    it records that it did not converge.  Each paper's ``Stop`` subclasses it with what its
    invariant and drift are (``sims/<key>/train.py``).

    >>> DriftStop(tol=0.04, max_steps=1000, fraction=0.5).threshold
    0.02
    >>> DriftStop(tol=0.0, max_steps=10)
    Traceback (most recent call last):
    ...
    ValueError: stop tol must be > 0, got 0.0
    """

    tol: float  # the judging check's tolerance (in the invariant's units)
    max_steps: int  # the step bound (a count: no wall clock)
    fraction: float = 0.1  # of tol: the drift at which the invariant counts as converged
    window: int = 100  # steps per window

    def __post_init__(self) -> None:
        check_real("stop tol", self.tol, lower=0.0, lower_open=True)
        check_real("stop fraction", self.fraction, lower=0.0, lower_open=True, upper=1.0)
        check_int("stop window", self.window, minimum=1)
        check_int("stop max_steps", self.max_steps, minimum=1)

    @property
    def threshold(self) -> float:
        """The drift at which the invariant counts as converged: ``fraction · tol``."""
        return self.fraction * self.tol


S = TypeVar("S")
R = TypeVar("R", bound=TrainConfig)


def resolve_preset(
    presets: Mapping[str, tuple[S, R]],
    setting: S | str,
    recipe: R | None,
    recipe_type: type[R],
    overrides: Mapping[str, Any],
) -> tuple[S, R, dict[str, Any]]:
    """``(setting, recipe, setting_overrides)``: the pair a preset name (``recipe`` omitted)
    names, or the pair given, with the ``overrides`` that name fields of ``recipe_type`` applied
    to the recipe; the others are returned for the caller to apply to its setting.

    >>> presets = {"smoke": ("S", TrainConfig(steps=5))}
    >>> s, r, rest = resolve_preset(presets, "smoke", None, TrainConfig, {"lr": 0.1, "d": 3})
    >>> (s, r.lr, r.steps, rest)
    ('S', 0.1, 5, {'d': 3})
    >>> resolve_preset(presets, "big", None, TrainConfig, {})
    Traceback (most recent call last):
    ...
    ValueError: unknown preset 'big'; presets: ['smoke']
    """
    if isinstance(setting, str):
        if setting not in presets:
            raise ValueError(f"unknown preset {setting!r}; presets: {sorted(presets)}")
        if recipe is not None:
            raise ValueError("give a preset name alone, or a (setting, recipe) pair")
        setting, recipe = presets[setting]
    elif recipe is None:
        raise ValueError(f"a setting needs its recipe (got setting {setting!r} alone)")
    if not isinstance(recipe, recipe_type):
        raise TypeError(f"a recipe is a {recipe_type.__name__}, got a {type(recipe).__name__}")
    fields = dataclasses.fields(recipe_type)
    rc = {k: v for k, v in overrides.items() if k in {f.name for f in fields}}
    rest = {k: v for k, v in overrides.items() if k not in rc}
    return setting, (dataclasses.replace(recipe, **rc) if rc else recipe), rest


T = TypeVar("T")


def _matches(value: Any, annotation: Any) -> bool:
    if annotation is Any:
        return True
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, a) for a in typing.get_args(annotation))
    if annotation is type(None):
        return value is None
    if annotation is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is tuple:
        args = typing.get_args(annotation)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(v, args[0]) for v in value)
        return len(args) == len(value) and all(
            _matches(v, a) for v, a in zip(value, args, strict=True)
        )
    if origin in (list, dict):
        return isinstance(value, origin)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    return True


def coerce(name: str, text: str, annotation: Any) -> Any:
    """Parse ``text`` with ``ast.literal_eval`` (bare words stay strings) and type-check it."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = text
    if annotation is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if isinstance(value, list) and typing.get_origin(annotation) is tuple:
        value = tuple(value)
    if not _matches(value, annotation):
        want = getattr(annotation, "__name__", None) or str(annotation)
        raise ValueError(f"{name}={text!r}: expected {want}, got {type(value).__name__}")
    return value


def parse_overrides(cfg: T, argv: Sequence[str]) -> T:
    """Apply ``--field=value`` overrides to a frozen dataclass via ``dataclasses.replace``.

    >>> parse_overrides(TrainConfig(), ["--steps=20", "--lr=0.5"]).steps
    20
    """
    hints = typing.get_type_hints(type(cfg))
    fields = {f.name for f in dataclasses.fields(cfg)}  # type: ignore[arg-type]
    changes: dict[str, Any] = {}
    for arg in argv:
        if not arg.startswith("--") or "=" not in arg:
            raise ValueError(f"override {arg!r} must look like --field=value")
        key, text = arg[2:].split("=", 1)
        if key not in fields:
            raise ValueError(f"unknown field {key!r}; fields are {sorted(fields)}")
        changes[key] = coerce(key, text, hints[key])
    return dataclasses.replace(cfg, **changes)  # type: ignore[type-var]
