"""Seat tokens and invitations: unguessable secrets of which the server keeps only a hash.

>>> token = new_token()
>>> token_matches(token, hash_token(token)), token_matches(token + "x", hash_token(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: Bytes of randomness per seat token (192 bits: far beyond guessing).
TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh URL-safe secret for one seat."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_id(nbytes: int = 9) -> str:
    """A table id or invitation code (URL-safe, unguessable)."""
    return secrets.token_urlsafe(nbytes)


def hash_token(token: str) -> str:
    """The stored form of a token. The tokens are random, so a plain SHA-256 cannot be reversed by guessing."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash`` (in constant time)."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
