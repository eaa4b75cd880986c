"""The rules trainer's page and API.

- ``GET /train?variant=&optional_capture=``: the trainer (a session starts at once).
- ``GET /api/train/session?variant=&optional_capture=&again=rule,rule`` -> ``{"variant",
  "optional_capture", "exercises": [{"id", "kind", "rule", "rule_name", "question", "fen",
  "turn", "pieces", "moves", "focus"}]}``: 10 exercises (:func:`damiera.trainer.pool.session`;
  ``again``: rules the player keeps missing, offered first). ``moves``: every move the board
  accepts (legal or not: the page holds no rule), as the play page's moves; ``focus``: the
  square of a "where can it go" question, the move (``{"move", "path", "captures"}``) of an
  "is it legal" question, else null.
- ``POST /api/train/answer`` JSON ``{"variant", "optional_capture", "exercise": id, and one of
  "path": [squares] (a move entered), "squares": [squares] (where a piece can go), "legal":
  true|false, "winner": "white"|"black"|"none"}`` -> ``{"correct", "reason" (why the move or
  square is refused, the rules core's explanation in the page's language, or null), "code"
  (its code), "rule" (the rule's sentence), "right": {"moves": [...]} | {"squares": [...]} |
  {"legal": bool} | {"winner": ...}}``.

Errors are ``{"error": ...}`` with 400 (an unknown rule set or exercise, a bad square), 422
(a field over its bound) or 429 with ``Retry-After`` (past the client address's share of
trainer and puzzle requests, :attr:`damiera.web.limits.Limits.learn_rate`).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from damiera.rules.geometry import SquareError, geometry
from damiera.rules.movegen import legal_moves
from damiera.rules.notation import explain_illegal, move_labels, move_text
from damiera.rules.position import write_fen
from damiera.rules.variant import VARIANTS, Variant, variant
from damiera.trainer.exercises import Exercise, ExerciseError, move_key
from damiera.trainer.pool import find, session
from damiera.trainer.rules import RULE_PARAMS
from damiera.web import i18n
from damiera.web.errors import BadRequest, rule_set
from damiera.web.limits import RateLimiter, per_client
from damiera.web.pages import render, request_locale, script_json
from damiera.web.serialization import move_json, pieces_json, variant_json
from damiera.web.store_tables import MAX_VARIANT_ID
from damiera.web.train.strings import js_strings, question, rule_name, rule_sentence

_ = i18n.gettext


class AnswerBody(BaseModel):
    """An answer to one exercise (one of ``path``, ``squares``, ``legal``, ``winner``)."""

    variant: str = Field(max_length=MAX_VARIANT_ID)
    optional_capture: bool = False
    exercise: str = Field(max_length=120)
    path: list[str] | None = Field(default=None, max_length=30)
    squares: list[str] | None = Field(default=None, max_length=60)
    legal: bool | None = None
    winner: Literal["white", "black", "none"] | None = None


def _exercise(v: Variant, exercise_id: str) -> Exercise:
    try:
        return find(v, exercise_id)
    except ExerciseError as exc:
        raise BadRequest(str(exc)) from None


def exercise_json(e: Exercise) -> dict[str, Any]:
    """An exercise for the page (see the module docstring)."""
    v, pos = e.variant, e.position
    geo = geometry(v)
    side = pos.turn
    focus: Any = None
    text = question(e.kind)
    if e.kind == "destinations":
        focus = geo.label(e.focus[0])
        text = text.replace("{square}", focus)
    elif e.kind == "legal":
        move = next(m for m in e.candidates() if m.path == e.focus)
        focus = {k: move_labels(v, move)[k] for k in ("move", "path", "captures")}
        text = text.replace("{move}", move_text(v, move))
    elif e.kind == "outcome":
        text = text.replace("{side}", _("White") if side.word == "white" else _("Black"))
    moves = []
    if e.kind in ("capture", "promotion"):
        for m in e.candidates():
            item = move_json(v, m, side)
            item["paths"] = [{k: item[k] for k in ("path", "captures", "crowned_at")}]
            moves.append(item)
    return {"id": e.id, "kind": e.kind, "rule": e.param, "rule_name": rule_name(e.variant, e.param),
            "question": text, "fen": write_fen(v, pos), "turn": side.word,
            "pieces": pieces_json(v, pos), "moves": moves, "focus": focus}


def check_answer(e: Exercise, body: AnswerBody) -> dict[str, Any]:
    """Judge an answer (see the module docstring for the shape)."""
    v, pos = e.variant, e.position
    geo = geometry(v)
    legal = legal_moves(v, pos)
    reason: str | None = None
    code: str | None = None

    def squares_of(labels: list[str]) -> list[int]:
        try:
            return [geo.square(label) for label in labels]
        except SquareError as exc:
            raise BadRequest(str(exc)) from None

    def refusal(path: list[int]) -> None:
        nonlocal reason, code
        err = explain_illegal(v, pos, path, legal)
        reason, code = i18n.error_message(err.code, err.params, str(err)), err.code

    if e.kind in ("capture", "promotion"):
        if not body.path or len(body.path) < 2:
            raise BadRequest("answer with the move's squares: path")
        path = squares_of(body.path)
        keys = e.answer()
        chosen = [m for m in e.candidates() if m.path == tuple(path)]
        correct = bool(chosen) and move_key(chosen[0]) in keys  # type: ignore[operator]
        if not correct:
            refusal(path)
        right: dict[str, Any] = {"moves": [move_json(v, m, pos.turn) for m in legal]}
    elif e.kind == "destinations":
        if body.squares is None:
            raise BadRequest("answer with the squares the piece can reach: squares")
        chosen_squares = set(squares_of(body.squares))
        truth = e.answer()
        correct = chosen_squares == truth
        wrong = sorted(chosen_squares - truth)  # type: ignore[operator]
        if wrong:
            refusal([e.focus[0], wrong[0]])
        right = {"squares": [geo.label(s) for s in sorted(truth)],  # type: ignore[call-overload]
                 "moves": [move_json(v, m, pos.turn) for m in legal if m.start == e.focus[0]]}
    elif e.kind == "legal":
        if body.legal is None:
            raise BadRequest("answer legal: true or false")
        truth_legal = bool(e.answer())
        correct = body.legal == truth_legal
        if not truth_legal:
            refusal(list(e.focus))
        right = {"legal": truth_legal}
    else:
        if body.winner is None:
            raise BadRequest("answer winner: white, black or none")
        winner = str(e.answer())
        correct = body.winner == winner
        if winner != "none":
            reason = i18n.error_message("no_legal_move", {"turn": pos.turn.word},
                                        f"{pos.turn.word.capitalize()} has no legal move")
            code = "no_legal_move"
        right = {"winner": winner, "moves": [move_json(v, m, pos.turn) for m in legal]}
    return {"correct": correct, "reason": reason, "code": code,
            "rule": rule_sentence(v, e.param), "rule_name": rule_name(e.variant, e.param),
            "right": right}


def build_router(requests: RateLimiter) -> APIRouter:
    """The trainer's routes (stateless: an exercise is rebuilt from its id); every API
    request spends a token of ``requests`` for its client address (429 when none is left).
    Exercises are built in a thread (a rule set's first session reads its whole pool)."""
    router = APIRouter()
    rng = random.Random()
    limited = [Depends(per_client(requests, "trainer and puzzle requests"))]

    @router.get("/train", response_class=HTMLResponse, include_in_schema=False)
    async def page(request: Request,
                   variant_id: str = Query("italian", alias="variant", max_length=MAX_VARIANT_ID),
                   optional_capture: bool = False) -> HTMLResponse:
        request_locale(request)
        if variant_id not in VARIANTS:
            variant_id = "italian"
        if VARIANTS[variant_id].board_size != 8:
            optional_capture = False
        chosen = variant(variant_id, optional_capture=optional_capture)
        data = {"variants": [variant_json(v) for v in VARIANTS.values()],
                "initial": {"variant": variant_id, "optional_capture": optional_capture},
                "rule_names": {p: rule_name(chosen, p) for p in RULE_PARAMS},
                "strings": js_strings()}
        return render(request, "train.html",
                      {"title": _("Rules trainer"), "page_data": script_json(data),
                       "chosen": variant_id, "optional": optional_capture})

    @router.get("/api/train/session", tags=["trainer"],
                summary="Ten exercises of a rule set, missed rules first", dependencies=limited)
    async def new_session(request: Request,
                          variant_id: str = Query(alias="variant", max_length=MAX_VARIANT_ID),
                          optional_capture: bool = False,
                          again: str = Query("", max_length=200)) -> JSONResponse:
        request_locale(request)
        v = rule_set(variant_id, optional_capture)
        rules = [r for r in again.split(",") if r in RULE_PARAMS]
        exercises = await asyncio.to_thread(   # the thread has the request's language
            lambda: [exercise_json(e) for e in session(v, rng, rules)])
        return JSONResponse({"variant": v.id, "optional_capture": v.optional_capture,
                             "exercises": exercises})

    @router.post("/api/train/answer", tags=["trainer"], summary="Check an answer",
                 dependencies=limited)
    async def answer(request: Request, body: AnswerBody) -> JSONResponse:
        request_locale(request)
        v = rule_set(body.variant, body.optional_capture)
        return JSONResponse(await asyncio.to_thread(
            lambda: check_answer(_exercise(v, body.exercise), body)))

    return router
