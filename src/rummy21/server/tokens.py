"""Table codes and seat tokens: a table is found by its short code, and a seat is held by a
secret token, of which the server keeps only a hash.

>>> from rummy21.server.model import SeatKind
>>> slots = [SeatSlot(0, SeatKind.HUMAN, token_hash=hash_token("secret-token-0"))]
>>> seat_for_token(slots, "secret-token-0"), seat_for_token(slots, "a-wrong-token")
(0, None)
>>> len(new_code()), set(new_code()) <= set(CODE_ALPHABET)
(6, True)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from rummy21.server.model import SeatSlot

__all__ = ["CODE_ALPHABET", "hash_token", "new_code", "new_token", "seat_for_token"]

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""A table code's letters: no 0/O, 1/I/L, to read aloud and type without mistakes."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_token() -> str:
    """A seat's secret: 192 random bits."""
    return secrets.token_urlsafe(24)


def seat_for_token(slots: Iterable[SeatSlot], token: str) -> int | None:
    """The seat ``token`` holds among ``slots`` (``None``: none)."""
    wanted = hash_token(token)
    for slot in slots:
        if slot.token_hash is not None and hmac.compare_digest(slot.token_hash, wanted):
            return slot.seat
    return None
