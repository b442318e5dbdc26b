"""Settings first: the pieces every paper's ``Setting`` type is built from.

A result is a question about one setting.  Each paper has one frozen, keyword-only ``Setting``
dataclass (``theory/<key>/settings.py``): its fields are the paper's symbols (ASCII), each declared
with :func:`param` (default, meaning, domain), and its ``__post_init__`` validates every value,
raising ``ValueError`` that names the symbol, the value and the paper's assumption, before any
work.  Presets are named Settings.  Every check takes that Setting as its first argument.

* :func:`param` -- a field with its meaning and domain (shown by ``icl-verify check ID --params``);
* :func:`setting_fields` -- the fields of a Setting type with their meaning, type, domain, default;
* :func:`setting_json` -- a Setting as ``{field: value}`` under the names ``--set`` takes (tuples
  as lists), the ``"setting"`` of every row in ``results.json``.

Only the standard library is imported here.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, kw_only=True, slots=True)
... class S:
...     d: int = param(4, "covariate dimension", domain="d >= 1")
...     spectrum: tuple[float, ...] | None = param((0.5, 2.0), "eigenvalues of Λ")
>>> setting_json(S())
{'d': 4, 'spectrum': [0.5, 2.0]}
>>> setting_fields(S)["d"].domain
'd >= 1'
"""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass
from typing import Any

__all__ = ["param", "FieldDoc", "setting_fields", "setting_json", "is_setting"]


def param(default: Any, doc: str, *, domain: str = "") -> Any:
    """A Setting field: its default, what it means (one line, the paper's symbol first) and its
    domain (the assumption its validator enforces, e.g. ``"N >= 1"``).

    >>> import dataclasses
    >>> from theory.czz24.settings import Setting
    >>> f = dataclasses.fields(Setting)[0]
    >>> f.name, f.default, f.metadata["domain"]
    ('d', 16, 'd >= 1')
    """
    return dataclasses.field(default=default, metadata={"doc": doc, "domain": domain})


@dataclass(frozen=True, slots=True)
class FieldDoc:
    """One field of a Setting type, as ``--params`` shows it.

    >>> from theory.czz24.settings import Setting
    >>> fd = setting_fields(Setting)["sigma2"]
    >>> fd.type_text, fd.default, fd.domain
    ('float', 0.01, 'σ² >= 0')
    """

    name: str
    type: Any  # the annotation (a type, or its text when it cannot be resolved)
    default: Any
    doc: str
    domain: str

    @property
    def type_text(self) -> str:
        t = self.type
        return t if isinstance(t, str) else getattr(t, "__name__", None) or str(t)


def setting_fields(cls: type) -> dict[str, FieldDoc]:
    """Field name -> :class:`FieldDoc` of a Setting type (declaration order).

    >>> from theory.czz24.settings import Setting
    >>> list(setting_fields(Setting))
    ['d', 's', 'n', 'sigma2', 'prior', 'Sigma_diag', 'zeta', 'q']
    """
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - a forward reference we cannot resolve: keep the text
        hints = {}
    out: dict[str, FieldDoc] = {}
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else None
        out[f.name] = FieldDoc(
            f.name,
            hints.get(f.name, f.type),
            default,
            str(f.metadata.get("doc", "")),
            str(f.metadata.get("domain", "")),
        )
    return out


def _plain(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    if isinstance(x, float):
        return x if math.isfinite(x) else repr(x)
    if hasattr(x, "item") and callable(x.item) and getattr(x, "ndim", 1) == 0:
        return x.item()
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def setting_json(setting: Any) -> dict[str, Any]:
    """``{field: value}`` of a Setting instance, JSON-ready (tuples as lists).

    >>> from theory.czz24.settings import Setting
    >>> setting_json(Setting(d=2, s=1, Sigma_diag=(1.0, 2.0)))["Sigma_diag"]
    [1.0, 2.0]
    """
    return {f.name: _plain(getattr(setting, f.name)) for f in dataclasses.fields(setting)}


def is_setting(x: Any) -> bool:
    """A frozen dataclass instance (what a check's first argument is).

    >>> from theory.czz24.settings import Setting
    >>> is_setting(Setting()), is_setting(Setting), is_setting({"d": 16})
    (True, False, False)
    """
    return (
        dataclasses.is_dataclass(x)
        and not isinstance(x, type)
        and bool(getattr(x, "__dataclass_params__", None))
        and x.__dataclass_params__.frozen  # type: ignore[attr-defined]
    )
