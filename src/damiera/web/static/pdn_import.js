// The PDN import page: read a pasted or uploaded PDN file with POST /api/pdn/import, list its
// games, replay one on the board (positions from POST /api/pdn/replay) and continue it from
// any position as a new game (POST /api/games with the record's start FEN and its moves up to
// that position).
import { api } from "/static/api.js";
import { drawBoard } from "/static/board.js";
import { fmt, isolated, setParts, setText } from "/static/text.js";

const DATA = JSON.parse(document.getElementById("page-data").textContent);
const S = DATA.strings;
const VARIANTS = Object.fromEntries(DATA.variants.map((v) => [v.id, v]));
const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, positions: [], pieces: [], turns: [], numbers: [], moves: [],
  ply: 0, opening: 0 };

// Texts with moves, squares or numbers go through setText (text.js): each is isolated left to
// right, so that a right-to-left page does not reorder them.
function showError(id, message) {
  const node = $(id);
  setText(node, message || "");
  node.hidden = !message;
}

const postJson = (url, body) => api(url, { method: "POST", body });

// -- reading the file ----------------------------------------------------------------------------
function decode(buffer) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch (_) {
    return new TextDecoder("windows-1252").decode(buffer);
  }
}

async function readText(text) {
  showError("imp-error", "");
  if (!text.trim()) { showError("imp-error", S.empty); return; }
  const size = new TextEncoder().encode(text).length;
  if (size > DATA.max_bytes) { showError("imp-error", fmt(S.too_large, { max: DATA.max_bytes })); return; }
  setText($("imp-status"), S.reading);
  $("imp-read").disabled = true;
  try {
    const data = await postJson("/api/pdn/import", { pdn: text });
    state.games = data.games;
    const bad = data.games.filter((g) => g.error).length;
    let status = data.games.length ? fmt(S.games_read, { n: data.games.length, bad }) : S.no_games;
    if (data.truncated) status += " " + S.truncated;
    setText($("imp-status"), status);
    listGames();
    if (data.games.length) openGame(0);
  } catch (err) {
    setText($("imp-status"), "");
    showError("imp-error", fmt(S.error, { message: err.message }));
  } finally {
    $("imp-read").disabled = false;
  }
}

// A game's error, "Line L, column C: ..." in the page's language: a move the rules refuse
// in its parts (its number and its move each one left-to-right unit, the reason as the
// server words it), any other message (the reader's English) one isolated unit, so that a
// right-to-left page reorders none of it.
function showGameError(node, error) {
  const message = document.createElement("bdi");
  message.dir = "auto";                 // the words' own direction: English stays left to right
  message.className = "pdn-error-message";
  if (error.move) {
    let sentence = isolated("", "auto");
    sentence.className = "pdn-refused-move";
    setParts(sentence, S.move_error, { number: isolated(error.move.number),
      move: isolated(error.move.text), reason: isolated(error.move.reason, "auto") });
    for (let depth = 0; depth < error.move.variation; depth++) {   // "in a variation: ..."
      const outer = isolated("", "auto");
      setParts(outer, S.in_variation, { message: sentence });
      sentence = outer;
    }
    message.append(sentence);
  } else {
    setText(message, error.message);
  }
  setParts(node, S.error_at, { line: isolated(String(error.line)),
    column: isolated(String(error.column)), message });
}

function cell(row, text, cls, asUnit = false) {
  const td = document.createElement("td");
  if (asUnit) td.append(isolated(text));
  else setText(td, text);
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

function listGames() {
  const body = $("imp-list").querySelector("tbody");
  body.textContent = "";
  state.games.forEach((g, i) => {
    const tr = document.createElement("tr");
    tr.dataset.index = String(i);
    const t = g.tags;
    cell(tr, String(g.number));
    cell(tr, t.White || "?");
    cell(tr, t.Black || "?");
    cell(tr, t.Event || "");
    cell(tr, t.Date || "");
    cell(tr, g.variant_name + (g.guessed ? ` (${S.guessed})` : ""));
    cell(tr, g.result, "", true);
    cell(tr, String(g.plies)).dataset.label = S.plies;    // shown on a phone, without the heading
    const err = cell(tr, "", g.error ? "bad wide" : "");
    if (g.error) showGameError(err, g.error);
    const td = cell(tr, "", "row-actions");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = S.open;
    b.className = "imp-open";
    b.addEventListener("click", () => openGame(i));
    td.appendChild(b);
    body.appendChild(tr);
  });
  $("imp-list-section").hidden = state.games.length === 0;
  $("imp-viewer").hidden = true;
}

// -- replay --------------------------------------------------------------------------------------
async function openGame(i) {
  const g = state.games[i];
  delete $("imp-viewer").dataset.game;   // set again once the game is on the board
  showError("imp-continue-error", "");
  const asked = ++state.opening;   // only the game asked last is shown
  try {
    const data = await postJson("/api/pdn/replay", { variant: g.full_id || g.variant, fen: g.start_fen, moves: g.moves });
    if (asked !== state.opening) return;
    state.game = g;
    state.positions = data.positions;
    state.pieces = data.pieces;
    state.turns = data.turns;
    state.numbers = data.move_numbers;
    state.moves = data.moves;
    state.ply = 0;
  } catch (err) {
    if (asked === state.opening) showError("imp-error", fmt(S.error, { message: err.message }));
    return;
  }
  for (const tr of $("imp-list").querySelectorAll("tbody tr")) {
    tr.classList.toggle("selected", tr.dataset.index === String(i));
  }
  const t = g.tags;
  // "Game 1: Anna – Boris, 2-0": the names in their own direction, number and result left
  // to right, the sentence in the page's
  setParts($("imp-title"), S.game_title, { number: isolated(String(g.number)),
    white: isolated(t.White || "?", "auto"), black: isolated(t.Black || "?", "auto"),
    result: isolated(g.result) });
  $("imp-game-error").hidden = !g.error;
  if (g.error) showGameError($("imp-game-error"), g.error);
  else $("imp-game-error").replaceChildren();
  listMoves();
  $("imp-viewer").hidden = false;
  show(0);
  $("imp-viewer").dataset.game = String(g.number);
}

function listMoves() {
  const list = $("imp-moves");
  list.textContent = "";
  let li = null;
  state.moves.forEach((m, k) => {
    const number = state.numbers[k];     // "12." opens a move, "12…" completes it (server's)
    const opens = number.endsWith(".");
    if (opens || li === null) {
      li = document.createElement("li");
      li.dir = "ltr";                    // "12. 32-28 19-23" reads left to right everywhere
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = number;
      li.appendChild(num);
      list.appendChild(li);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.move;
    b.dataset.ply = String(k + 1);
    b.addEventListener("click", () => show(k + 1));
    li.appendChild(b);
    if (!opens) li = null;
  });
}

function show(ply) {
  state.ply = Math.max(0, Math.min(ply, state.positions.length - 1));
  const v = VARIANTS[state.game.variant] || state.game.custom_variant;  // a custom rule set's own
  const move = state.ply ? state.moves[state.ply - 1] : null;
  const highlights = move ? { last: [move.from, move.to], captured: move.captures } : {};
  drawBoard($("board"), { board: v.board, pieces: state.pieces[state.ply], notation: v.notation, highlights });
  const side = state.turns[state.ply] === "white" ? S.white : S.black;
  setText($("imp-position"), (move ? fmt(S.after_ply, { n: state.ply, move: move.move })
    : S.start_position) + " · " + fmt(S.to_move, { side }));
  for (const b of $("imp-moves").querySelectorAll("button")) {
    b.setAttribute("aria-current", b.dataset.ply === String(state.ply) ? "true" : "false");
  }
  $("imp-continue").dataset.ply = String(state.ply);
}

async function continueGame(event) {
  event.preventDefault();
  showError("imp-continue-error", "");
  const [opponent, level] = $("imp-opponent").value.split(":");
  // the record's start and its moves up to here: the new game lists them and marks the last
  const body = { variant: state.game.full_id || state.game.variant, fen: state.game.start_fen,
    moves: state.game.moves.slice(0, state.ply), opponent };
  if (level) body.level = Number(level);
  if ($("imp-side").value) body.side = $("imp-side").value;
  $("imp-continue-button").disabled = true;
  try {
    const game = await postJson("/api/games", body);
    window.location.assign(`/game/${game.id}`);
  } catch (err) {
    showError("imp-continue-error", fmt(S.error, { message: err.message }));
    $("imp-continue-button").disabled = false;
  }
}

$("imp-form").addEventListener("submit", (e) => { e.preventDefault(); readText($("imp-text").value); });
$("imp-file").addEventListener("change", async () => {
  const file = $("imp-file").files[0];
  if (!file) return;
  if (file.size > DATA.max_bytes) { showError("imp-error", fmt(S.too_large, { max: DATA.max_bytes })); return; }
  const text = decode(await file.arrayBuffer());
  $("imp-text").value = text;
  readText(text);
});
$("nav-first").addEventListener("click", () => show(0));
$("nav-back").addEventListener("click", () => show(state.ply - 1));
$("nav-forward").addEventListener("click", () => show(state.ply + 1));
$("nav-last").addEventListener("click", () => show(state.positions.length - 1));
$("imp-continue").addEventListener("submit", continueGame);
document.addEventListener("keydown", (e) => {
  if ($("imp-viewer").hidden || e.target.closest("textarea, input, select")) return;
  if (e.key === "ArrowLeft") show(state.ply - 1);
  else if (e.key === "ArrowRight") show(state.ply + 1);
});
