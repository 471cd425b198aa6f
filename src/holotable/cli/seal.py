"""Sealing a running game's seed in the files a player can open (saves, the Kyrum campaign book).

Whoever knows a running game's seed can compute every hidden card and every future draw, so a
save written before the end holds the seed sealed: encrypted and authenticated with a key kept
in this user's holotable folder (``$XDG_DATA_HOME/holotable/seal.key``, ``~/.local/share`` when
the variable is unset; created on first use, readable by this user only). Opening a save in an
editor shows nothing of the deal; loading it on this machine works as before; on another machine
the save says it is sealed with another key. What this guards against is a glance, not a player
who goes looking for the key file on a computer they share (no program can hide a secret from
the owner of the machine it runs on); ``docs/games`` and the README say so.

The cipher is the standard library's: an HMAC-SHA256 keystream over the seed's sixteen bytes, and
an HMAC-SHA256 tag over the nonce and the ciphertext. The Kyrum campaign book of the terminal
(``holotable kyrum``) seals its seeds with the same key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from holotable.engine import SaveError

KEY_NAME = "seal.key"
PREFIX = "sealed1:"
_NONCE = 16
_TAG = 16
#: Bytes of a sealed seed: room for any 64-bit seed, signed or not (Kyrum's game seeds use all 64 bits).
_SIZE = 16


def default_key_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "holotable" / KEY_NAME


class LocalSeal:
    """A :class:`holotable.engine.SeedSeal` whose key lives in a file of this user's."""

    def __init__(self, key_path: Path | None = None) -> None:
        self.key_path = key_path if key_path is not None else default_key_path()
        self._key: bytes | None = None

    def _load_key(self, *, create: bool) -> bytes:
        if self._key is not None:
            return self._key
        try:
            self._key = bytes.fromhex(self.key_path.read_text(encoding="ascii").strip())
        except FileNotFoundError:
            if not create:
                raise SaveError(
                    f"the save's seed is sealed, and this computer has no key to open it ({self.key_path})"
                ) from None
            self.key_path.parent.mkdir(parents=True, exist_ok=True)
            key = secrets.token_bytes(32)
            # Written readable by this user only, before the key is in it.
            fd = os.open(self.key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(key.hex() + "\n")
            self._key = key
        except (OSError, ValueError) as exc:
            raise SaveError(f"cannot read the seal key {self.key_path}: {exc}") from exc
        if len(self._key) != 32:
            raise SaveError(f"the seal key {self.key_path} is damaged")
        return self._key

    def seal(self, seed: int) -> str:
        key = self._load_key(create=True)
        nonce = secrets.token_bytes(_NONCE)
        plain = seed.to_bytes(_SIZE, "big", signed=True)
        stream = hmac.new(key, b"stream" + nonce, hashlib.sha256).digest()[:_SIZE]
        cipher = bytes(a ^ b for a, b in zip(plain, stream, strict=True))
        tag = hmac.new(key, b"tag" + nonce + cipher, hashlib.sha256).digest()[:_TAG]
        return PREFIX + base64.urlsafe_b64encode(nonce + cipher + tag).decode("ascii")

    def unseal(self, token: str) -> int:
        if not token.startswith(PREFIX):
            raise SaveError("the save's sealed seed is not one holotable wrote")
        try:
            raw = base64.urlsafe_b64decode(token[len(PREFIX):].encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            raise SaveError("the save's sealed seed is damaged") from None
        if len(raw) != _NONCE + _SIZE + _TAG:
            raise SaveError("the save's sealed seed is damaged")
        nonce, cipher, tag = raw[:_NONCE], raw[_NONCE:_NONCE + _SIZE], raw[_NONCE + _SIZE:]
        key = self._load_key(create=False)
        expected = hmac.new(key, b"tag" + nonce + cipher, hashlib.sha256).digest()[:_TAG]
        if not hmac.compare_digest(tag, expected):
            raise SaveError(
                "the save's seed is sealed with another computer's key (or the file was changed), so it "
                "cannot be opened here"
            )
        stream = hmac.new(key, b"stream" + nonce, hashlib.sha256).digest()[:_SIZE]
        return int.from_bytes(bytes(a ^ b for a, b in zip(cipher, stream, strict=True)), "big", signed=True)


def local_seal() -> LocalSeal:
    """The seal of this user's key (``$XDG_DATA_HOME`` read now, so tests can point it elsewhere)."""
    return LocalSeal()
