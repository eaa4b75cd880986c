"""Every sentence the live boards' and the lobby's scripts show, in the current language
(translations in ``locales/<lang>/LC_MESSAGES/live.po``). Placeholders in braces (``{n}``,
``{name}``) are filled in by the scripts."""

from __future__ import annotations

from damiera.web import i18n

_ = i18n.gettext


def live_strings() -> dict[str, str]:
    """The strings of ``live.js`` and ``lobby.js`` by key."""
    return {
        "player": _("Player"),
        "you_named": _("You ({name})"),
        "seat_free": _("waiting for a player"),
        "watching": _("You are watching"),
        "watchers": _("Watching: {n}"),
        "waiting_opponent": _("Waiting for your opponent to open the link…"),
        "opponent_to_move": _("Your opponent's move"),
        "opponent_left": _("Your opponent left the game."),
        "claim_in": _("If they do not come back, you may claim the game in {n} s."),
        "claim_now": _("You may claim the game now."),
        "claim_win": _("Claim the win"),
        "claim_draw": _("Claim a draw"),
        "offer_draw": _("Offer a draw"),
        "draw_offered_you": _("{name} offers a draw."),
        "draw_offered": _("You offered a draw."),
        "ask_takeback": _("Ask to take back"),
        "takeback_asked_you": _("{name} asks to take back their last move."),
        "takeback_asked": _("You asked to take back your last move."),
        "rematch_offered_you": _("{name} wants a rematch."),
        "rematch_offered": _("You offered a rematch."),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "withdraw": _("Withdraw"),
        "abort": _("Abort"),
        "abort_confirm": _("Abort this game? It ends with no result."),
        "your_opponent": _("Your opponent"),
        "reconnecting": _("Connection lost: reconnecting…"),
        "copy": _("Copy"),
        "copied": _("Copied"),
        "name_saved": _("Name saved"),
        "any_side": _("Random"),
        "no_clock": _("No clock"),
        "just_now": _("just now"),
        "minutes_ago": _("{n} min ago"),
        "play": _("Play"),
        "cancel": _("Cancel"),
        "your_challenge": _("Your challenge: waiting for someone to accept it…"),
        "no_challenges": _("No open challenges. Open one, or invite a friend by link."),
        "captures_optional": _("captures optional"),
        "losing": _("losing rule"),
        "breakthrough": _("breakthrough"),
    }
