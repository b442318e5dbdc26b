"""Training configuration and the type-checked ``--field=value`` override parser."""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from theory.settings import check_choice, check_int, check_real

__all__ = ["TrainConfig", "parse_overrides", "coerce", "OPTIMIZERS", "DTYPES"]

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
    dtype: str = "float64"  # float64 for verification runs (STYLE R14)
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
