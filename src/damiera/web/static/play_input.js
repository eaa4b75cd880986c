// The play page's move input: one entry point (`choose`) for click, tap, drag and keyboard,
// matched square by square against the legal moves the server sent (entry.js), the choices
// offered when the squares name several moves (entry_choices.js), and the typed move. A capture is entered landing by landing; what the legal moves do not contain
// goes to the server as the squares entered, and its refusal is shown as it is.

import { ghostPiece, squareAtPoint } from "/static/board.js";
import { boardKeys } from "/static/board_keys.js";
import { decide, pick, pointAt, selectionView } from "/static/entry.js";
import { showChoices } from "/static/entry_choices.js";
import { explain, submitMove, tryPath, tryText } from "/static/play_actions.js";
import { showPly } from "/static/play_moves.js";
import {
  $, S, currentPieces, humanToMove, message, pieceName, redraw, state,
} from "/static/play_state.js";
import { fmt } from "/static/text.js";

const svg = document.getElementById("board");

function movesFrom(label) {
  return state.game.legal_moves.filter((m) => m.from === label);
}
function putBack() {
  state.sel = null;
  message("");
  redraw();
}

/**
 * The player chose the square `label` (clicked, tapped, dropped on or pressed Enter on it).
 * @param {string} label
 */
export function choose(label) {
  const g = state.game;
  if (!g || state.busy) return;
  if (state.viewPly !== null) { showPly(Infinity); return; }
  if (g.result) return;
  if (!humanToMove()) return;
  const step = decide(state.sel, g.legal_moves, g.pieces, g.turn, label);
  if (!step) return;
  if (step.select) {
    state.sel = step.select;
    message(fmt(S.selected, { piece: pieceName(g.pieces[label]), square: label }), "info");
    redraw();
  } else if (step.play) {
    playWay(step.play);
  } else if (step.putBack) {
    putBack();
  } else if (step.sel) {
    state.sel = step.sel;
    message(fmt(S[step.info], { square: step.square }), "info");
    redraw();
  } else if (step.explain) {
    // the server says why this piece cannot move now
    if (state.sel) { state.sel = null; redraw(); }
    explain(label);
  } else {
    // An attempt the legal moves do not contain: the server says why. In the middle of a
    // capture the squares entered so far are kept.
    if (!step.keep) state.sel = null;
    redraw();
    tryPath(step.attempt);
  }
}

function playWay(way) {
  submitMove(way.move, { move: way.move.move }, false, way);
}

// The choices the entry offers (entry_choices.js): drawn with the board, one played when
// clicked.
export function renderChoices() {
  const live = state.sel && !state.busy && !state.shown && humanToMove();
  showChoices(live ? state.sel : null, {
    pick: (i) => {
      const step = state.sel && !state.busy ? pick(state.sel, i) : null;
      if (step) playWay(step.play);
    },
    point: (i) => {
      const sel = pointAt(state.sel, i);
      if (sel) { state.sel = sel; redraw(); }
    },
  });
}

svg.addEventListener("click", (e) => {
  if (drag.moved) return;
  const sq = e.target.closest("[data-square]");
  if (sq) choose(sq.dataset.square);
});

// Drag and drop with pointer events (mouse, pen, touch).
const drag = { active: false, moved: false, ghost: null, from: null, x: 0, y: 0 };
// A drag works whether or not a piece is already selected: it picks up the piece it starts
// on (or, in the middle of a capture, goes on from where the piece has landed).
function midCaptureAt(label) {
  const sel = state.sel;
  return !!sel && sel.clicks.length > 0 && sel.clicks[sel.clicks.length - 1] === label;
}
svg.addEventListener("pointerdown", (e) => {
  drag.moved = false;
  const sq = e.target.closest("[data-square]");
  if (!sq || state.busy || !state.game || !humanToMove()) return;
  if (!movesFrom(sq.dataset.square).length && !midCaptureAt(sq.dataset.square)) return;
  drag.active = true;
  drag.from = sq.dataset.square;
  drag.x = e.clientX; drag.y = e.clientY;
});
svg.addEventListener("pointermove", (e) => {
  if (!drag.active) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
  if (!drag.moved) {
    drag.moved = true;
    const start = midCaptureAt(drag.from) ? state.sel.start : drag.from;
    if (!midCaptureAt(drag.from)) {
      state.sel = null;          // whatever was selected, the dragged piece is now
      choose(drag.from);
    }
    // the piece as it stands now (a man crowned on the way is a king)
    const pieces = state.game.pieces;
    const piece = state.sel ? selectionView(state.sel, currentPieces()).pieces[drag.from]
      || pieces[start] : pieces[start];
    const pieceEl = svg.querySelector(`[data-square="${CSS.escape(drag.from)}"] .piece`);
    if (pieceEl) pieceEl.classList.add("lifted");
    drag.ghost = ghostPiece(svg, piece);
    svg.setPointerCapture(e.pointerId);
  }
  drag.ghost.moveTo(e.clientX, e.clientY);
});
function endDrag(e) {
  if (!drag.active) return;
  drag.active = false;
  if (drag.ghost) { drag.ghost.remove(); drag.ghost = null; }
  if (!drag.moved) return;
  const sq = squareAtPoint(e.clientX, e.clientY);
  if (sq && sq.dataset.square !== drag.from) choose(sq.dataset.square);
  else if (!sq) {               // dropped off the board: the piece goes back, unselected
    state.sel = null;
    message("");
    redraw();
  } else redraw();
  setTimeout(() => { drag.moved = false; }, 0);
}
svg.addEventListener("pointerup", endDrag);
svg.addEventListener("pointercancel", endDrag);

// Keyboard: the board is one tab stop; arrows move between its squares, Enter/Space choose
// the focused one (board_keys.js), Escape puts a chosen piece back.
boardKeys(svg, choose, (label) => { state.focus = label; });
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !state.sel || !$("confirm").hidden || !$("menu").hidden) return;
  e.stopPropagation();
  putBack();
});

// A typed move takes the same path as a clicked one (the markup: templates/type_move.html,
// shared with the analysis board).
$("type-move").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text || !state.game || state.busy) return;
  input.value = "";
  state.sel = null;
  tryText(text);
});
