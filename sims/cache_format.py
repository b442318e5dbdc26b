"""The on-disk format of a cache entry (:mod:`sims.cache`): the part of the cache that decides
what an entry *holds*, and so the only part of it in a model's code fingerprint.

An entry is a magic tag (which names the format's version), the SHA-256 of the payload, then the
payload (a pickle).  Changing the layout means a new tag: old entries then fail
:func:`unpack_entry` and are recomputed, and, since this file is fingerprinted, they are not even
looked up.  Where entries are stored, how they are written (atomically) and how workers hand them
back (:mod:`sims.parallel`) live in :mod:`sims.cache`, which is not fingerprinted: editing it
retrains nothing.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

__all__ = ["MAGIC", "pack_entry", "unpack_entry"]

#: File header of a cache entry: magic tag (format version), then the SHA-256 of the payload.
MAGIC = b"ICLV-CACHE-1\n"


def pack_entry(value: Any) -> bytes:
    """Pickle ``value`` behind the magic tag and the payload SHA-256 (:func:`unpack_entry`)."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return MAGIC + hashlib.sha256(payload).digest() + payload


def unpack_entry(data: bytes) -> Any:
    """The value of a cache file written by :func:`pack_entry`; ``ValueError`` if the tag or the
    checksum does not match (nothing is unpickled then)."""
    n = len(MAGIC)
    if data[:n] != MAGIC:
        raise ValueError("not an icl-verify cache entry (bad header)")
    digest, payload = data[n : n + 32], data[n + 32 :]
    if len(digest) != 32 or hashlib.sha256(payload).digest() != digest:
        raise ValueError("checksum mismatch (truncated or corrupted file)")
    return pickle.loads(payload)
