// The play page: draws the game and its panel, and starts the page. Its parts: the state and
// what they all read (play_state.js), move input on the board (play_input.js), the move list
// and replay (play_moves.js), moves sent and game actions with the clocks (play_actions.js),
// the one API client of the site (api.js).
//
// No rule lives here. The server sends every legal move with its full path and captured
// squares, the pieces of each position, the move numbers and the result in the page's
// language; a click is matched against those paths. Anything else is sent to the server,
// whose refusal (in the rule's own terms) is shown as it is.

import { drawBoard } from "/static/board.js";
import { selectionView } from "/static/entry.js";
import { openMenu } from "/static/menu.js";
import {
  animateMove, awaitComputer, beforeLast, lastMoveHighlights, tickClocks,
} from "/static/play_actions.js";
import { renderChoices } from "/static/play_input.js";
import { playerName, renderLive, startLive } from "/static/live.js";
import { moveNumber, renderMoves } from "/static/play_moves.js";
import {
  $, S, computerToMove, currentPieces, holds, humanToMove, isPlayer, mySide, pieceName, setRedraw,
  sideWord, sleep, state, variantOf,
} from "/static/play_state.js";
import { muteButton } from "/static/sound.js";
import { fmt, setText } from "/static/text.js";

const svg = document.getElementById("board");

function describe(label, piece, flags = {}) {
  let text = piece ? fmt(S.square_piece, { square: label, piece: pieceName(piece) })
    : fmt(S.square_empty, { square: label });
  if (flags.start) text += `, ${S.aria_start}`;
  if (flags.target) text += `, ${S.aria_target}`;
  if (flags.captured) text += `, ${S.aria_captured}`;
  if (flags.movable) text += `, ${S.aria_movable}`;
  return text;
}

function render() {
  const v = variantOf();
  let pieces, highlights = {};
  if (state.shown) {
    ({ pieces, highlights } = state.shown);
  } else {
    pieces = currentPieces();
    const g = state.game;
    if (state.sel) {
      ({ pieces, highlights } = selectionView(state.sel, pieces));
    } else if (g && state.viewPly === null) {
      if (g.last_move) Object.assign(highlights, lastMoveHighlights(g.last_move));
      if (humanToMove()) highlights.movable = [...new Set(g.legal_moves.map((m) => m.from))];
    } else if (g && state.viewPly > 0) {
      Object.assign(highlights, lastMoveHighlights((g.history_moves || [])[state.viewPly - 1]));
    }
  }
  const active = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("[data-square]") : null;
  const focusLabel = active ? active.dataset.square : null;
  const squares = drawBoard(svg, {
    board: v.board,
    pieces,
    notation: v.notation,
    flipped: state.flipped,
    highlights,
    describe,
    interactive: true,
    tabStop: tabStop(highlights),
  });
  if (focusLabel && squares[focusLabel]) squares[focusLabel].focus({ preventScroll: true });
  svg.classList.toggle("busy", state.busy);
  renderChoices();
  renderPanel();
  renderLive();
  tickClocks();
}
setRedraw(render);

// The board is one tab stop (arrow keys move inside it): the focused square, else the
// selected one, else the first piece that can move, else the first square.
function tabStop(highlights) {
  const labels = variantOf().board.squares.map((s) => s.label);
  if (state.focus && labels.includes(state.focus)) return state.focus;
  if (highlights.selected) return highlights.selected;
  if (highlights.movable && highlights.movable.length) return highlights.movable[0];
  return labels[0];
}

function playerLabel(color) {
  const g = state.game;
  if (!g) return sideWord(color);
  if (g.opponent === "computer") {
    const them = g.engine ? g.engine : fmt(S.level, { n: g.level });
    return `${sideWord(color)} · ${color !== g.side ? them : isPlayer(g) ? S.you : S.player}`;
  }
  if (g.opponent === "online") return `${sideWord(color)} · ${playerName(g, color)}`;
  return sideWord(color);
}

function renderPanel() {
  const g = state.game;
  const bottom = state.flipped ? "black" : "white";
  const top = bottom === "white" ? "black" : "white";
  for (const [id, color] of [["bar-top", top], ["bar-bottom", bottom]]) {
    const bar = $(id);
    bar.innerHTML = "";
    const dot = document.createElement("span");
    dot.className = `swatch ${color}`;
    const name = document.createElement("span");
    name.textContent = playerLabel(color);
    bar.append(dot, name);
    bar.classList.toggle("to-move", !!g && !g.result && g.turn === color);
    if (g && g.clock) {
      const time = document.createElement("span");
      time.className = "clock";
      time.dataset.side = color;
      time.setAttribute("role", "timer");
      time.setAttribute("aria-label", fmt(S.clock_of, { side: sideWord(color) }));
      bar.append(time);
    }
  }
  const status = $("status");
  const result = $("result");
  const counter = $("counter");
  if (!g) {
    status.textContent = "";
    result.hidden = true;
    counter.hidden = true;
    $("replay").hidden = true;
    setControls(false);
    renderMoves();
    return;
  }
  $("replay").hidden = !g.history.length;
  if (state.viewPly !== null) {
    setText(status, state.viewPly === 0 ? S.start_position
      : fmt(S.showing_move, { n: moveNumber(state.viewPly - 1), move: g.history[state.viewPly - 1] }));
  } else if (g.result) {
    status.textContent = S.game_over;
  } else if (!isPlayer(g)) {        // a watcher (of any game): never "your move"
    status.textContent = `${S.watching} · ${g.turn === "white" ? S.white_to_move : S.black_to_move}`;
  } else if (g.opponent === "computer" && g.turn !== g.side) {
    status.textContent = S.thinking;
  } else if (g.opponent === "computer") {
    status.textContent = `${S.your_move} (${sideWord(g.side)})`;
  } else if (g.opponent === "online") {
    status.textContent = !g.online.ready ? S.waiting_opponent
      : holds(g, g.turn) ? `${S.your_move} (${sideWord(g.turn)})` : S.opponent_to_move;
  } else {
    status.textContent = g.turn === "white" ? S.white_to_move : S.black_to_move;
  }
  if (g.result) {
    result.hidden = false;
    setText($("result-text"), g.result_sentence);
  } else {
    result.hidden = true;
  }
  if (g.moves_without_progress > 30 && !g.result) {
    counter.hidden = false;
    setText(counter, fmt(S.counter, { n: g.moves_without_progress, max: g.draw_moves_without_progress }));
  } else {
    counter.hidden = true;
  }
  setControls(true);
  renderMoves();
}

function setControls(haveGame) {
  const g = state.game;
  const over = !g || !!g.result;
  const looking = state.viewPly !== null;   // looking back: nothing may change the game
  $("btn-undo").hidden = $("btn-resign").hidden = !haveGame || !isPlayer(g);
  if (g && g.opponent === "online") $("btn-undo").hidden = true;   // a takeback is asked
  // a rematch is offered to the same opponent; a watcher has nobody to offer it to
  // (once begun, the rematch is linked to: live.js)
  $("btn-rematch").hidden = !g || (g.opponent === "online"
    && (!isPlayer(g) || !!(g.online && g.online.rematch_game)));
  $("btn-flip").hidden = !haveGame;
  $("intro").hidden = haveGame;
  // the server says whether an undo would take something back (not after a resignation or
  // an agreed draw, nor when only the computer has moved)
  $("btn-undo").disabled = !haveGame || state.busy || looking || !g.history.length || g.can_undo === false;
  $("btn-resign").disabled = over || state.busy || looking;
  $("btn-draw").hidden = !g || g.opponent !== "friend" || !isPlayer(g);
  $("btn-draw").disabled = over || state.busy || looking;
  $("btn-pdn").hidden = !haveGame;
  if ($("btn-analyse")) { $("btn-analyse").hidden = !haveGame; if (g) $("btn-analyse").href = `/analysis?game=${g.id}`; }
  $("type-move").hidden = !haveGame || over || !isPlayer(g);
  $("move-input").disabled = over || state.busy || looking;
  $("btn-live").hidden = !haveGame || !looking;
  if (haveGame) {
    const n = g.history.length, at = looking ? state.viewPly : n;
    $("btn-first").disabled = $("btn-prev").disabled = state.busy || at === 0;
    $("btn-next").disabled = $("btn-last").disabled = state.busy || at === n;
  }
  if (g && g.legal_moves.length) $("move-input").placeholder = fmt(S.example, { move: g.legal_moves[0].move });
}

muteButton($("btn-sound"), S);
$("btn-flip").addEventListener("click", () => { state.flipped = !state.flipped; render(); });
document.addEventListener("damiera:variant-preview", (e) => {
  if (state.game) return;
  state.preview = e.detail;
  render();
});

async function start() {
  if (state.game && state.game.clock) state.game.clock.received = performance.now();
  if (state.game) {
    state.flipped = state.game.opponent === "online" ? mySide(state.game) === "black"
      : state.game.side === "black";
    const pick = $("ng-variant");   // a new game from here starts in the same variant
    pick.value = state.game.variant;
    pick.dispatchEvent(new Event("change"));
    let animate = false;
    try {
      animate = sessionStorage.getItem("damiera.animate") === state.game.id;
      sessionStorage.removeItem("damiera.animate");
    } catch (_) { /* storage may be off */ }
    if (animate && state.game.last_move) {
      state.busy = true;
      await sleep(150);
      await animateMove(state.game.last_move, beforeLast(state.game));
      state.busy = false;
    }
    if (computerToMove(state.game)) {
      document.body.dataset.ready = "true";
      await awaitComputer();
    }
  } else {
    state.preview = document.getElementById("ng-variant").value;
    openMenu(false);
  }
  render();
  if (state.game) startLive();
  document.body.dataset.ready = "true";
}
start();
