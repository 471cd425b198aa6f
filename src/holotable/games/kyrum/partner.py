"""The Black Hole partner link as portable text codes (KYR-ENC-09, KYR-CAMPAIGN-07/09, KYR-AMB-19).

Two partners usually play on different machines. What the Black Hole script lets one Jaakub tell the
other (and, at the very end, each partner's questionnaire score) travels as a short code the player
copies into a chat or an e-mail; the partner imports it. A code is the transmission as a compact JSON
array (deflated when that is shorter), followed by a 5-byte SHA-256 checksum, written in base32 in
dash-separated groups after a ``KYR1`` tag. Anything mistyped or altered fails the checksum and is refused as a whole.

>>> body = payload("kyrum-demo", "ada", "0f1e", 3, "message", "The heron is the ship.", None)
>>> code = encode(body)
>>> code.startswith("KYR1-"), decode(code) == body, decode(code.lower().replace("-", " ")) == body
(True, True, True)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from typing import Any

from holotable.engine import HolotableError

TAG = "KYR1"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
VERSION = 1
CHECK_BYTES = 5
GROUP = 5
MAX_TEXT = 500
MAX_PAYLOAD = 8192
KINDS = ("message", "score")
FIELDS = ("v", "pack", "from", "uid", "game", "kind", "text", "score")


class CodeError(HolotableError, ValueError):
    """A partner code that cannot be accepted; nothing has been changed."""


def payload(pack: str, sender: str, uid: str, game: int, kind: str, text: str, score: int | None) -> dict[str, Any]:
    """One transmission: a Black Hole message written in ``game``, or a questionnaire ``score``."""
    return {"v": VERSION, "pack": pack, "from": sender, "uid": uid, "game": game, "kind": kind, "text": text,
            "score": score}


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def digest(body: dict[str, Any]) -> str:
    """A stable identity of a transmission (the same message delivered twice is received once)."""
    return hashlib.sha256(_canonical(body)).hexdigest()


def _checksum(raw: bytes) -> bytes:
    return hashlib.sha256(b"kyrum-partner:" + raw).digest()[:CHECK_BYTES]


def _deflate(raw: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(raw) + packer.flush()


def encode(body: dict[str, Any]) -> str:
    check(body)
    plain = json.dumps([body[k] for k in FIELDS], separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    packed = _deflate(plain)
    raw = b"\x01" + packed if len(packed) < len(plain) else b"\x00" + plain
    text = base64.b32encode(raw + _checksum(raw)).decode("ascii").rstrip("=")
    return "-".join([TAG, *(text[i:i + GROUP] for i in range(0, len(text), GROUP))])


def decode(code: str) -> dict[str, Any]:
    """The transmission in ``code``; :class:`CodeError` saying what is wrong otherwise."""
    if not isinstance(code, str):
        raise CodeError("a partner code is text")
    compact = "".join(code.split()).replace("-", "").upper()
    if not compact.startswith(TAG):
        raise CodeError(f"not a Kyrum partner code (it should start with {TAG}-)")
    letters = compact[len(TAG):]
    if not set(letters) <= set(ALPHABET):
        raise CodeError("the partner code contains characters that cannot be part of it (mistyped?)")
    damaged = CodeError("the partner code's checksum does not match: it was mistyped, cut short or changed")
    try:
        data = base64.b32decode(letters + "=" * (-len(letters) % 8))
    except (binascii.Error, ValueError):
        raise damaged from None
    # The last letter may carry unused bits: only the one canonical spelling of these bytes is accepted.
    if base64.b32encode(data).decode("ascii").rstrip("=") != letters:
        raise damaged
    raw, checksum = data[:-CHECK_BYTES], data[-CHECK_BYTES:]
    if len(raw) < 2 or _checksum(raw) != checksum:
        raise damaged
    try:
        if raw[0] == 1:
            inflater = zlib.decompressobj(-15)
            plain = inflater.decompress(raw[1:], MAX_PAYLOAD)
            if inflater.unconsumed_tail:
                raise CodeError("the partner code is too long")
        elif raw[0] == 0:
            plain = raw[1:]
        else:
            raise CodeError("the partner code's format is unknown")
        fields = json.loads(plain.decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError):
        raise CodeError("the partner code's content is unreadable") from None
    if not isinstance(fields, list) or len(fields) != len(FIELDS):
        raise CodeError("the partner code's content is unreadable")
    body = dict(zip(FIELDS, fields, strict=True))
    check(body)
    return body


def check(body: Any) -> None:
    """Every field present, of the right type and range (the same rules for writing and reading)."""
    if not isinstance(body, dict) or sorted(body) != sorted(FIELDS):
        raise CodeError(f"a partner transmission has exactly the fields {', '.join(FIELDS)}")
    if body["v"] != VERSION:
        raise CodeError(f"partner code version {body['v']!r} is not supported")
    for key in ("pack", "from", "uid"):
        if not isinstance(body[key], str) or not body[key] or len(body[key]) > 200:
            raise CodeError(f"the partner code's {key!r} must be a short non-empty text")
    game = body["game"]
    if isinstance(game, bool) or not isinstance(game, int) or game < 1:
        raise CodeError("the partner code's game number must be a positive integer")
    if body["kind"] not in KINDS:
        raise CodeError(f"the partner code's kind must be one of {', '.join(KINDS)}")
    text = body["text"]
    if not isinstance(text, str) or len(text) > MAX_TEXT or any(ch in text for ch in "\r\n\x00"):
        raise CodeError(f"a partner message is one line of at most {MAX_TEXT} characters")
    score = body["score"]
    if body["kind"] == "message":
        if score is not None or not text:
            raise CodeError("a message code carries a text and no score")
    elif isinstance(score, bool) or not isinstance(score, int) or score < 0:
        raise CodeError("a score code carries a non-negative integer score")
