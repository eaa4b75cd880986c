"""The invitation link of a game between two browsers: ``/join/{secret}``.

The secret is the HMAC-SHA256 of the game's id keyed with the creator's player token (its
first 144 bits, URL-safe base64): nobody without that token can make it, and the creator's
browser can be shown it again after a reload, while the store keeps only its SHA-256
(:func:`invite_key`, the ``invite`` column), as it keeps seats. The first browser other
than the creator's that opens the link takes the free seat; from then on the link shows the
game to watch (the seat is taken once: single use), and it ends with the game (a deleted
game's link is unknown).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from damiera.web.seats import seat_key

#: Characters of a secret (24 URL-safe base64 characters: 144 bits).
SECRET_LENGTH = 24
SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{24}")


def invite_secret(owner: str, game_id: str) -> str:
    """The secret of the invitation link of game ``game_id`` created by the browser whose
    player token is ``owner``."""
    digest = hmac.new(owner.encode(), b"damiera-invite:" + game_id.encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def invite_key(owner: str, game_id: str) -> str:
    """What the store keeps of the invitation's secret: its SHA-256 (hex)."""
    return seat_key(invite_secret(owner, game_id))


def invite_path(secret: str) -> str:
    """The link's path (the page adds the site's address)."""
    return f"/join/{secret}"


def invite_url_for(game_id: str, invite: str | None, token: str | None) -> str | None:
    """The invitation path to show the browser with player token ``token``: only the
    creator of the game (whose token makes the stored ``invite`` key) gets it."""
    if not token or invite is None:
        return None
    secret = invite_secret(token, game_id)
    return invite_path(secret) if hmac.compare_digest(seat_key(secret), invite) else None
