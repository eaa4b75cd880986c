// Damiera analysis board: position editor, variation tree, engine lines (server-sent events,
// tried again when refused: engine_stream.js) and evaluation bar; its state and what every part
// reads are analysis_state.js, the game review analysis_review.js. Every rule comes from the
// server (/api/analysis/...): the script only draws, remembers the tree and asks.
import { clearReview, nextMistake, startReview } from "/static/analysis_review.js";
import {
  $, DATA, S, VARIANTS, lineQuery, mainLine, message, moveNumber, pvText, query, scoreText, setBoard,
  state,
} from "/static/analysis_state.js";
import { api } from "/static/api.js";
import { describer, drawBoard } from "/static/board.js";
import { followAnalysis } from "/static/engine_stream.js";
import { decide, moveNamed, pick, pointAt, selectionView } from "/static/entry.js";
import { showChoices } from "/static/entry_choices.js";
import { fmt } from "/static/text.js";

const describe = describer(S);

// -- the editor --------------------------------------------------------------------------------
// The editor's FEN box shows the pieces being edited ("W:W21,22,K30:B9,10", squares in the
// variant's label order); a FEN typed there is read by the server, never here.
function editFen() {
  const side = (color) => state.variant.board.squares.map((s) => s.label)
    .filter((l) => (state.edit.pieces[l] || "").startsWith(color))
    .map((l) => (state.edit.pieces[l].endsWith("king") ? "K" : "") + l).join(",");
  return `${state.edit.turn === "white" ? "W" : "B"}:W${side("white")}:B${side("black")}`;
}

// The editor starts from pieces the server sent: a position's (`info`), or the variant's start.
function loadEdit(info) {
  state.edit = info
    ? { pieces: { ...info.pieces }, turn: info.turn }
    : { pieces: { ...state.variant.start_pieces }, turn: state.variant.first_to_move };
}

function syncEditor() {
  $("ed-variant").value = state.variant.id;
  $("ed-optional").checked = state.optional;
  $("ed-optional-row").hidden = state.variant.board_size !== 8;
  $(`ed-turn-${state.edit.turn}`).checked = true;
  $("ed-fen").value = editFen();
  for (const b of $("palette").querySelectorAll("button")) {
    b.setAttribute("aria-pressed", String(b.dataset.tool === state.tool));
  }
}

function editClick(label) {
  const p = state.edit.pieces;
  if (state.tool === "erase" || p[label] === state.tool) delete p[label];
  else p[label] = state.tool;
  $("ed-error").hidden = true;
  syncEditor();
  draw();
}

function setMode(mode) {
  state.mode = mode;
  $("editor").hidden = mode !== "edit";
  $("board-panel").hidden = mode !== "analyse";
  $("eval-bar").hidden = mode !== "analyse" || !state.engineOn;
  if (mode === "edit") { stopEngine(); message(S.edit_help); }
}

async function analyseFen(fen, moves = []) {
  // Validate with the rules core, then build the tree (the main line from `moves`).
  let info;
  try {
    info = await api(`/api/analysis/position?${query({ fen })}`);
  } catch (e) {
    $("ed-error").textContent = fmt(S.refused, { reason: e.message });
    $("ed-error").hidden = false;
    return false;
  }
  state.root = { fen: info.fen, info, move: null, parent: null, children: [], ply: 0 };
  let node = state.root;
  for (const text of moves) {
    const m = node.info.moves.find((x) => x.move === text);
    if (!m) break;
    const child = addChild(node, m);
    child.info = await api(`/api/analysis/position?${lineQuery(child)}`);
    node = child;
  }
  clearReview();
  setMode("analyse");
  shareUrl();
  await goTo(moves.length ? node : state.root);
  return true;
}

function shareUrl() {
  const p = new URLSearchParams(query({ fen: state.root ? state.root.fen : editFen() }));
  const lang = new URLSearchParams(location.search).get("lang");
  if (lang) p.set("lang", lang);
  history.replaceState(null, "", `/analysis?${p}`);
}

async function copyText(text, input) {
  try { await navigator.clipboard.writeText(text); } catch (e) {
    if (input) { input.select(); document.execCommand("copy"); }
  }
  message(S.copied);
}

// -- the tree ------------------------------------------------------------------------------------
function addChild(node, move) {
  const found = node.children.find((c) => c.move.move === move.move);
  if (found) return found;
  const child = { fen: move.after, info: null, move, parent: node, children: [], ply: node.ply + 1 };
  node.children.push(child);
  return child;
}

async function goTo(node) {
  state.node = node;
  state.selection = null;
  if (!node.info) {
    try { node.info = await api(`/api/analysis/position?${lineQuery(node)}`); } catch (e) {
      message(e.message); return;
    }
  }
  const info = node.info;
  message(info.over ? fmt(S.game_over, { side: S[info.over.winner === "white" ? "black" : "white"] }) : S.play_help);
  $("turn-status").textContent = S[`${info.turn}_to_move`];
  draw();
  renderTree();
  restartEngine();
}

function moveButton(node, forceNumber) {
  const frag = document.createDocumentFragment();
  const { n, firstSide } = moveNumber(node);
  if (firstSide || forceNumber) {
    const num = document.createElement("span");
    num.className = "move-no";
    num.textContent = firstSide ? `${n}.` : `${n}…`;
    frag.appendChild(num);
  }
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tree-move" + (node === state.node ? " current" : "") + (node.judgement ? ` ${node.judgement}` : "");
  b.textContent = node.move.move + (node.nag || "");
  b.addEventListener("click", () => goTo(node));
  frag.appendChild(b);
  return frag;
}

function renderLine(container, parent, force) {
  let n = parent;
  let forceNumber = force;
  while (n.children.length) {
    const main = n.children[0];
    container.appendChild(moveButton(main, forceNumber));
    forceNumber = false;
    for (const v of n.children.slice(1)) {
      const span = document.createElement("span");
      span.className = "variation";
      span.appendChild(document.createTextNode("("));
      span.appendChild(moveButton(v, true));
      renderLine(span, v, false);
      span.appendChild(document.createTextNode(")"));
      container.appendChild(span);
      forceNumber = true;
    }
    n = main;
  }
}

function renderTree() {
  const tree = $("tree");
  tree.textContent = "";
  renderLine(tree, state.root, true);
  $("review-start").disabled = mainLine().length === 0;
}

// -- moves on the board ------------------------------------------------------------------------
async function explain(square, to) {
  try {
    const r = await api(`/api/analysis/explain?${lineQuery(state.node, { square, ...(to ? { to } : {}) })}`);
    if (r.reason) message(r.reason);
  } catch (e) { message(e.message); }
}

// Moves are entered as on the play page, by the shared capture entry (entry.js): a piece,
// then landings up to the end; captures that end on the same square are chosen on the board
// or from the choices offered under it (entry_choices.js); a move may be typed too.
async function boardClick(label) {
  if (state.mode === "edit") { editClick(label); return; }
  const info = state.node.info;
  if (!info) return;
  const pieces = info.pieces;
  const step = decide(state.selection, info.moves, pieces, info.turn, label);
  if (!step) return;
  if (step.select) {
    state.selection = step.select;
    message(fmt(S.selected, { piece: S[pieces[label]], square: label }));
    draw();
  } else if (step.play) {
    await play(step.play.move);
  } else if (step.putBack) {
    putBack();
  } else if (step.sel) {
    state.selection = step.sel;
    message(fmt(S[step.info], { square: step.square }));
    draw();
  } else if (step.explain) {
    if (state.selection) { state.selection = null; draw(); }
    await explain(label);
  } else {
    if (!step.keep) { state.selection = null; draw(); }
    await explain(step.attempt[0], label);
  }
}

const choiceEvents = {
  pick: (i) => {
    const step = state.selection ? pick(state.selection, i) : null;
    if (step) play(step.play.move);
  },
  point: (i) => {
    const sel = pointAt(state.selection, i);
    if (sel) { state.selection = sel; draw(); }
  },
};

// A typed move: one of the position's moves as written, else the server reads it (short
// forms) or says why it is not a move.
async function typedMove(text) {
  const info = state.node && state.node.info;
  if (!text || !info || state.mode !== "analyse") return;
  state.selection = null;
  let move = moveNamed(info.moves, text);
  if (!move) {
    try {
      const read = await api(`/api/analysis/move?${lineQuery(state.node, { move: text })}`);
      move = moveNamed(info.moves, read.move);
    } catch (e) { message(e.message); draw(); return; }
  }
  if (move) await play(move);
}

function putBack() {
  state.selection = null;
  message(S.play_help);
  draw();
}

async function play(move) {
  const child = addChild(state.node, move);
  renderTree();
  await goTo(child);
}

// -- drawing --------------------------------------------------------------------------------------
function draw() {
  const svg = $("board");
  if (state.mode === "edit") {
    drawBoard(svg, { board: state.variant.board, pieces: state.edit.pieces, notation: state.variant.notation,
      flipped: state.flipped, describe, interactive: true });
    showChoices(null, choiceEvents);
    return;
  }
  const node = state.node;
  const highlights = {};
  if (node.move) highlights.last = [node.move.from, node.move.to];
  let pieces = node.info ? node.info.pieces : {};
  if (state.selection) {
    const view = selectionView(state.selection, pieces);
    pieces = view.pieces;
    Object.assign(highlights, view.highlights);
  } else if (node.info) {
    highlights.movable = [...new Set(node.info.moves.map((m) => m.from))];
  }
  drawBoard(svg, { board: state.variant.board, pieces, notation: state.variant.notation,
    flipped: state.flipped, highlights, describe, interactive: true });
  showChoices(state.selection, choiceEvents);
  if (node.info && node.info.moves.length) {
    $("move-input").placeholder = fmt(S.example, { move: node.info.moves[0].move });
  }
}

// -- the engine -------------------------------------------------------------------------------------
function stopEngine() {
  if (state.source) { state.source(); state.source = null; }
  delete $("engine-status").dataset.waiting;
}

function restartEngine() {
  stopEngine();
  $("pv-lines").textContent = "";
  if (!state.engineOn || state.mode !== "analyse" || !state.node || !state.node.info) {
    $("engine-status").textContent = state.engineOn ? "" : S.engine_off;
    return;
  }
  if (state.node.info.over) { $("engine-status").textContent = ""; return; }
  $("engine-status").textContent = S.engine_thinking;
  const node = state.node;
  const stop = followAnalysis(`/api/analysis/stream?${query({ fen: node.fen, multipv: state.multipv })}`, {
    lines: (data) => {
      if (state.source !== stop) return;
      delete $("engine-status").dataset.waiting;
      showLines(node, data);
    },
    done: () => {
      if (state.source !== stop) return;
      stopEngine();
      $("engine-status").textContent += ` · ${S.engine_done}`;
    },
    failed: (error) => { if (state.source === stop) { stopEngine(); message(error); } },
    waiting: (status, n) => {       // refused (429, 503) or cut (0): why, and when again
      if (state.source !== stop) return;
      const why = status === 429 ? S.engine_busy_you : status === 503 ? S.engine_busy_site : S.engine_lost;
      $("engine-status").textContent = fmt(why, { n });
      $("engine-status").dataset.waiting = String(status);
    },
  });
  state.source = stop;
}

function showLines(node, data) {
  const best = data.lines[0];
  $("engine-status").textContent = `${fmt(S.depth, { n: data.depth })} · ${fmt(S.nps, { n: data.nps.toLocaleString() })}`;
  const list = $("pv-lines");
  list.textContent = "";
  for (const line of data.lines) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pv-line";
    const sc = document.createElement("span");
    sc.className = "pv-score";
    sc.textContent = scoreText(line);
    const moves = document.createElement("span");
    moves.className = "pv-moves";
    moves.textContent = pvText(node, line.pv);
    b.append(sc, " ", moves);
    b.addEventListener("click", () => {
      const m = node.info.moves.find((x) => x.move === line.pv[0]);
      if (m) play(m);
    });
    li.appendChild(b);
    list.appendChild(li);
  }
  evalBar(best);
}

function evalBar(line) {
  let share;
  if (line.win_in !== null) share = 1;
  else if (line.loss_in !== null) share = 0;
  else share = 0.5 + 0.5 * Math.tanh(line.score / 400);
  $("eval-white").style.height = `${(share * 100).toFixed(1)}%`;
  $("eval-text").textContent = scoreText(line);
  $("eval-bar").setAttribute("aria-valuenow", String(Math.max(-10, Math.min(10, line.score / 100))));
  $("eval-bar").setAttribute("aria-valuetext", scoreText(line));
  $("eval-bar").classList.toggle("flipped", state.flipped);
}

function toggleEngine() {
  state.engineOn = !state.engineOn;
  $("engine-toggle").setAttribute("aria-pressed", String(state.engineOn));
  $("engine-toggle").textContent = state.engineOn ? DATA.stopLabel : DATA.startLabel;
  $("eval-bar").hidden = !state.engineOn;
  restartEngine();
}

// -- wiring ------------------------------------------------------------------------------------------
// A game's canonical id may carry goal options ("international+losing"): the board is the
// rule set's, and the options go back to the server unchanged with every question.
function setVariant(id, optional) {
  const [base, ...options] = String(id).split("+");
  state.variant = VARIANTS[base] || VARIANTS.international;
  state.goals = VARIANTS[base] ? options.filter((o) => o !== "optional-capture") : [];
  state.optional = (!!optional || options.includes("optional-capture"))
    && state.variant.board_size === 8;
}

function wire() {
  const board = $("board");
  board.addEventListener("click", (ev) => {
    const sq = ev.target.closest("[data-square]");
    if (sq) boardClick(sq.dataset.square);
  });
  board.addEventListener("keydown", (ev) => {
    const sq = ev.target.closest("[data-square]");
    if (sq && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); boardClick(sq.dataset.square); }
  });
  for (const b of $("palette").querySelectorAll("button")) {
    b.addEventListener("click", () => { state.tool = b.dataset.tool; syncEditor(); });
  }
  $("ed-variant").addEventListener("change", () => {
    setVariant($("ed-variant").value, $("ed-optional").checked);
    loadEdit(null);
    syncEditor(); draw();
  });
  $("ed-optional").addEventListener("change", () => { state.optional = $("ed-optional").checked; });
  for (const c of ["white", "black"]) {
    $(`ed-turn-${c}`).addEventListener("change", () => { state.edit.turn = c; syncEditor(); });
  }
  $("ed-start").addEventListener("click", () => { loadEdit(null); syncEditor(); draw(); });
  $("ed-clear").addEventListener("click", () => { state.edit.pieces = {}; syncEditor(); draw(); });
  $("ed-fen-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fen = $("ed-fen").value.trim();
    try {
      const info = await api(`/api/analysis/position?${query({ fen })}`);
      loadEdit(info);
      $("ed-error").hidden = true;
      syncEditor(); draw();
    } catch (e) {
      $("ed-error").textContent = fmt(S.refused, { reason: e.message });
      $("ed-error").hidden = false;
    }
  });
  $("ed-fen-copy").addEventListener("click", () => copyText($("ed-fen").value, $("ed-fen")));
  $("ed-analyse").addEventListener("click", () => analyseFen(editFen()));
  $("btn-edit").addEventListener("click", () => {
    loadEdit(state.node.info); setMode("edit"); syncEditor(); draw();
  });
  $("btn-flip").addEventListener("click", () => { state.flipped = !state.flipped; draw(); $("eval-bar").classList.toggle("flipped", state.flipped); });
  $("btn-link").addEventListener("click", () => {
    const p = new URLSearchParams(query({ fen: state.node.fen }));
    copyText(`${location.origin}/analysis?${p}`);
  });
  $("nav-first").addEventListener("click", () => goTo(state.root));
  $("nav-back").addEventListener("click", () => { if (state.node.parent) goTo(state.node.parent); });
  $("nav-forward").addEventListener("click", () => { if (state.node.children.length) goTo(state.node.children[0]); });
  $("nav-last").addEventListener("click", () => {
    let n = state.node;
    while (n.children.length) n = n.children[0];
    goTo(n);
  });
  document.addEventListener("keydown", (ev) => {
    if (state.mode !== "analyse" || ev.target.closest("input, select, textarea")) return;
    if (ev.key === "Escape" && state.selection) { putBack(); return; }
    if (ev.key === "ArrowLeft" && state.node.parent) goTo(state.node.parent);
    if (ev.key === "ArrowRight" && state.node.children.length) goTo(state.node.children[0]);
  });
  $("type-move").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("move-input").value.trim();
    $("move-input").value = "";
    typedMove(text);
  });
  $("engine-toggle").addEventListener("click", toggleEngine);
  $("engine-lines").addEventListener("change", () => { state.multipv = Number($("engine-lines").value); restartEngine(); });
  $("review-start").addEventListener("click", startReview);
  $("review-next").addEventListener("click", nextMistake);
  window.addEventListener("pagehide", stopEngine);
}

async function init() {
  DATA.startLabel = $("engine-toggle").textContent;
  DATA.stopLabel = DATA.strings.stop_engine;
  const initial = DATA.initial;
  setVariant(initial.variant, initial.optional_capture);
  state.gameId = initial.game_id;
  state.initialMoves = initial.moves;
  loadEdit(null);
  setBoard({ goTo, play, renderTree });
  wire();
  syncEditor();
  if (!(initial.fen || initial.moves.length)
      || !(await analyseFen(initial.fen || state.variant.start_fen, initial.moves))) {
    setMode("edit");     // a refused FEN: the editor keeps the variant's start, analyseFen said why
    draw();
  } else if (initial.fen) {
    // the editor holds the position given, from the answer analyseFen already has
    loadEdit(state.root.info);
    syncEditor();
  }
  if (initial.refused) message(initial.refused);   // a rule set in the address that is refused
  document.body.dataset.ready = "1";
}

init();
