"""[czz24] §4, App. D, Thm. 5.3: the negative controls' fault values, named for ``results.py``.

A fault function lives in ``numerics/sparse_multihead/faults.py``; the declaration names it with
:class:`~theory.common.protocols.Ref`, resolved when the control runs, so ``theory`` imports
nothing from ``numerics``.
"""

from __future__ import annotations

from theory.common.protocols import Ref

__all__ = ["fault"]


def fault(name: str) -> Ref:
    """The planted fault ``numerics.sparse_multihead.faults:<name>`` (resolved by the control).

    >>> fault("linear_rate")
    Ref('numerics.sparse_multihead.faults:linear_rate')
    """
    return Ref(f"numerics.sparse_multihead.faults:{name}")
