// Tactics puzzles: the position from /api/puzzles/..., the solver's moves entered on the
// board (entry.js, over the legal moves the server sends) and sent with every earlier one to
// /api/puzzles/{id}/moves, which answers with the reply, the verdict and the ratings. The
// page holds no rule and does not know the solution before the end.
import { api } from "/static/api.js";
import { describer, drawBoard } from "/static/board.js";
import { boardKeys } from "/static/board_keys.js";
import { decide, pick, pointAt, selectionView } from "/static/entry.js";
import { showChoices } from "/static/entry_choices.js";
import { fmt, setText } from "/static/text.js";

const DATA = JSON.parse(document.getElementById("page-data").textContent);
const S = DATA.strings;
const VARIANTS = Object.fromEntries(DATA.variants.map((v) => [v.id, v]));
const $ = (id) => document.getElementById(id);
const root = $("puzzle");

const state = { puzzle: null, variant: VARIANTS[DATA.initial.variant], pieces: {}, moves: [],
  legal: [], turn: "white", sel: null, mine: [], over: false, highlights: {} };

const describe = describer(S);

function draw() {
  let pieces = state.pieces;
  let highlights = state.highlights;
  if (state.sel) {
    const view = selectionView(state.sel, state.pieces);
    pieces = view.pieces;
    highlights = view.highlights;
  }
  drawBoard($("board"), { board: state.variant.board, pieces, notation: state.variant.notation,
    highlights, describe, interactive: true, tabStop: keys.focus,
    flipped: state.puzzle ? state.puzzle.turn === "black" : false });
  keys.refocus();
  showChoices(state.over ? null : state.sel, {
    pick: (i) => {
      const step = state.sel && !state.over ? pick(state.sel, i) : null;
      if (step) { state.sel = null; draw(); send(step.play.move); }
    },
    point: (i) => {
      const sel = pointAt(state.sel, i);
      if (sel) { state.sel = sel; draw(); }
    },
  });
}

function showPlayer(player) {
  setText($("pz-player"), fmt(S.rating_change, { rating: player.rating, change: `±${player.deviation}` }));
}

function load(answer) {
  const p = answer.puzzle;
  if (!p) {
    root.dataset.state = "empty";
    setText($("pz-task"), S.no_puzzles);
    return;
  }
  state.puzzle = p;
  state.variant = VARIANTS[p.variant];
  state.pieces = p.pieces;
  state.legal = p.legal_moves;
  state.turn = p.turn;
  state.mine = [];
  state.sel = null;
  state.over = false;
  state.highlights = {};
  root.dataset.state = "solving";
  root.dataset.puzzle = p.id;
  setText($("pz-task"), fmt(S.find, { side: S[p.turn] }));
  setText($("pz-status"), "");
  $("pz-solution").hidden = true;
  setText($("pz-rating"), String(p.rating));
  $("pz-themes").replaceChildren(...p.themes.map((t, i) => {
    const span = document.createElement("span");
    span.dataset.theme = t.id;
    span.textContent = (i ? ", " : "") + t.name;
    return span;
  }));
  $("pz-analyse").href = `/analysis?${new URLSearchParams({ variant: p.variant, fen: p.fen })}`;
  showPlayer(answer.player);
  draw();
}

async function send(move) {
  state.mine.push(move.move);
  let r;
  try {
    r = await api(`/api/puzzles/${state.puzzle.id}/moves`, { method: "POST", body: { moves: state.mine } });
  } catch (e) {
    state.mine.pop();
    setText($("pz-status"), e.message);
    return;
  }
  state.pieces = r.pieces;
  state.legal = r.legal_moves;
  const shown = r.reply || r.last;
  state.highlights = shown ? { lastPath: shown.path, last: [shown.from, shown.to], lastCaptured: shown.captures } : {};
  if (r.status === "continue") {
    setText($("pz-status"), fmt(S.right, { move: r.reply ? r.reply.move : "" }));
  } else {
    state.over = true;
    root.dataset.state = r.status;
    setText($("pz-status"), r.status === "solved" ? S.solved : fmt(S.failed, { move: move.move }));
    setText($("pz-solution"), fmt(S.solution, { line: r.solution.join(" ") }));
    $("pz-solution").hidden = false;
    if (r.rated) {
      const sign = r.change >= 0 ? "+" : "−";
      setText($("pz-player"), fmt(S.rating_change, { rating: r.player.rating, change: `${sign}${Math.abs(r.change)}` }));
    } else {
      setText($("pz-player"), fmt(S.not_rated, { rating: r.player.rating }));
    }
    root.dataset.rated = String(!!r.rated);
    setText($("pz-rating"), String(r.puzzle_rating));
  }
  draw();
}

function click(label) {
  if (!state.puzzle || state.over) return;
  const step = decide(state.sel, state.legal, state.pieces, state.turn, label);
  if (!step) return;
  if (step.select) state.sel = step.select;
  else if (step.play) { state.sel = null; send(step.play.move); return; }
  else if (step.sel) state.sel = step.sel;
  else state.sel = null;
  draw();
}

async function nextPuzzle() {
  const v = $("pz-variant").value;
  load(await api(`/api/puzzles/next?${new URLSearchParams({ variant: v })}`));
}

const keys = boardKeys($("board"), (label) => click(label));
$("board").addEventListener("click", (event) => {
  const sq = event.target.closest("[data-square]");
  if (sq) click(sq.dataset.square);
});
$("pz-next").addEventListener("click", nextPuzzle);
$("pz-share").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.origin + state.puzzle.url); setText($("pz-status"), S.copied); } catch (_) { /* no clipboard */ }
});

const init = DATA.initial;
const first = init.mode === "one" ? `/api/puzzles/${init.id}`
  : `/api/puzzles/${init.mode === "daily" ? "daily" : "next"}?${new URLSearchParams({ variant: init.variant })}`;
api(first).then(load).catch((e) => setText($("pz-status"), e.message));
