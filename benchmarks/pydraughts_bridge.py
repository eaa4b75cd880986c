"""Bridge to the py-draughts package's engines, run with *its own* Python (a separate venv).

It imports only ``draughts`` (PyPI ``py-draughts``), never damiera, and talks JSON lines on
stdin/stdout:

- ``{"cmd": "new", "variant": "international"|"russian"|"brazilian", "fen": FEN}``: a new
  board from a numeric FEN (squares 1-32 / 1-50 numbered from the top left, as in PDN for
  International and as py-draughts numbers its 8x8 boards); answers ``{"ok": true}``.
- ``{"cmd": "push", "path": [n, ...], "captured": [n, ...]}``: play a move given by its
  squares (1-based numbers); answers ``{"ok": true}`` or ``{"error": ...}``.
- ``{"cmd": "go", "movetime": S}``: the engine's move as ``{"path": [...], "captured":
  [...], "engine": NAME}``.

Engine: the strongest built-in one for the board: ``TurboEngine`` on 10x10 (International),
``SimpleEngine`` elsewhere (TurboEngine supports only 10x10), both limited by time.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from draughts import BrazilianBoard, RussianBoard, SimpleEngine, StandardBoard, TurboEngine

BOARDS = {"international": StandardBoard, "russian": RussianBoard, "brazilian": BrazilianBoard}


def _squares(move: Any) -> tuple[list[int], list[int]]:
    path = [s + 1 for s in move.square_list]
    captured = sorted(s + 1 for s in (move.captured_list or []))
    return path, captured


def main() -> None:
    board: Any = None
    variant = ""
    engine: Any = None
    for line in sys.stdin:
        req = json.loads(line)
        cmd = req["cmd"]
        try:
            if cmd == "new":
                variant = req["variant"]
                cls = BOARDS[variant]
                board = cls.from_fen(req["fen"])
                engine = None
                out: dict[str, Any] = {"ok": True}
            elif cmd == "push":
                want_path, want_caps = req["path"], sorted(req["captured"])
                match = None
                for m in board.legal_moves:
                    path, caps = _squares(m)
                    if path[0] == want_path[0] and path[-1] == want_path[-1] and caps == want_caps:
                        match = m
                        if path == want_path:
                            break
                if match is None:
                    out = {"error": f"no legal move {want_path} x {want_caps} in {board.fen}"}
                else:
                    board.push(match)
                    out = {"ok": True}
            elif cmd == "go":
                t = float(req["movetime"])
                if engine is None or engine.time_limit != t:
                    if variant == "international":
                        engine = TurboEngine(depth_limit=None, time_limit=t)
                    else:
                        engine = SimpleEngine(depth_limit=30, time_limit=t)
                move = engine.get_best_move(board)
                path, caps = _squares(move)
                out = {"path": path, "captured": caps, "engine": type(engine).__name__}
            else:
                out = {"error": f"unknown command {cmd}"}
        except Exception as exc:  # noqa: BLE001 - any engine failure is reported, not fatal
            out = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
