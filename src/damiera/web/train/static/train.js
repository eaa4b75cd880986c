// The rules trainer: sessions of ten exercises from /api/train/session, answered on the
// board or with buttons, judged by the server (/api/train/answer), which says why a wrong
// answer is wrong and what the rule is. The page holds no rule: the moves the board accepts
// (legal or not) come from the server, and `entry.js` matches the clicks against them.
import { api } from "/static/api.js";
import { describer, drawBoard } from "/static/board.js";
import { boardKeys } from "/static/board_keys.js";
import { decide, pick, pointAt, selectionView } from "/static/entry.js";
import { showChoices } from "/static/entry_choices.js";
import { fmt, setText } from "/static/text.js";

const DATA = JSON.parse(document.getElementById("page-data").textContent);
const S = DATA.strings;
const VARIANTS = Object.fromEntries(DATA.variants.map((v) => [v.id, v]));
const LABELS = document.getElementById("tr-labels").dataset;
const $ = (id) => document.getElementById(id);
const root = $("train");

const state = {
  variant: VARIANTS[DATA.initial.variant], optional: !!DATA.initial.optional_capture,
  exercises: [], i: 0, score: 0, missed: [], sel: null, marked: new Set(), answered: false,
  shown: {},
};

const storeKey = () => `damiera.train.missed.${state.variant.id}${state.optional ? "+optional" : ""}`;
function storedMissed() {
  try { return JSON.parse(localStorage.getItem(storeKey()) || "[]").filter((r) => r in DATA.rule_names); }
  catch (_) { return []; }
}
function saveMissed(rules) {
  try { localStorage.setItem(storeKey(), JSON.stringify([...new Set(rules)].slice(0, 6))); } catch (_) { /* private mode */ }
}

const current = () => state.exercises[state.i];

const describe = describer(S);

function draw() {
  const ex = current();
  if (!ex) return;
  let pieces = ex.pieces;
  let highlights = { ...state.shown };
  if (!state.answered) {
    if (ex.kind === "destinations") {
      highlights = { start: ex.focus, targets: [...state.marked] };
    } else if (ex.kind === "legal") {
      const p = ex.focus.path;
      highlights = { start: p[0], paths: [p], ends: [p[p.length - 1]], capturable: ex.focus.captures };
    } else if (state.sel) {
      const view = selectionView(state.sel, ex.pieces);
      pieces = view.pieces;
      highlights = view.highlights;
    }
  }
  drawBoard($("board"), {
    board: state.variant.board, pieces, notation: state.variant.notation, highlights,
    describe, interactive: true, tabStop: keys.focus,
  });
  keys.refocus();
  showChoices(!state.answered && state.sel ? state.sel : null, {
    pick: (i) => {
      const step = state.sel && !state.answered ? pick(state.sel, i) : null;
      if (step) { state.sel = null; answer({ path: step.play.path }); }
    },
    point: (i) => {
      const sel = pointAt(state.sel, i);
      if (sel) { state.sel = sel; draw(); }
    },
  });
}

function button(id, text, onClick, primary = false) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  if (primary) b.className = "primary";
  b.addEventListener("click", onClick);
  $("tr-buttons").append(b);
  return b;
}

function show() {
  const ex = current();
  state.sel = null;
  state.marked = new Set();
  state.answered = false;
  state.shown = {};
  root.dataset.state = "question";
  root.dataset.exercise = ex.id;
  root.dataset.kind = ex.kind;
  root.dataset.rule = ex.rule;
  setText($("tr-progress"), `${fmt(S.progress, { n: state.i + 1, total: state.exercises.length })} · ${fmt(S.score, { n: state.score, total: state.i })}`);
  setText($("tr-rule-name"), ex.rule_name);
  setText($("tr-question"), ex.question);
  $("tr-buttons").replaceChildren();
  setText($("tr-hint"), "");
  $("tr-feedback").hidden = true;
  $("tr-summary").hidden = true;
  if (ex.kind === "legal") {
    button("tr-btn-legal", LABELS.legal, () => answer({ legal: true }));
    button("tr-btn-illegal", LABELS.illegal, () => answer({ legal: false }));
  } else if (ex.kind === "outcome") {
    button("tr-btn-white", LABELS.whiteWins, () => answer({ winner: "white" }));
    button("tr-btn-black", LABELS.blackWins, () => answer({ winner: "black" }));
    button("tr-btn-none", LABELS.none, () => answer({ winner: "none" }));
  } else if (ex.kind === "destinations") {
    button("tr-check", LABELS.check, () => answer({ squares: [...state.marked] }), true);
    button("tr-clear", LABELS.clear, () => { state.marked.clear(); draw(); });
  }
  draw();
}

async function answer(payload) {
  if (state.answered) return;
  const ex = current();
  state.answered = true;
  let result;
  try {
    result = await api("/api/train/answer", {
      method: "POST",
      body: { variant: state.variant.id, optional_capture: state.optional, exercise: ex.id, ...payload },
    });
  } catch (e) {
    state.answered = false;
    setText($("tr-question"), e.message);
    return;
  }
  if (result.correct) state.score += 1; else state.missed.push(ex.rule);
  root.dataset.state = "answered";
  setText($("tr-hint"), "");   // the capture's prompts end with it
  const fb = $("tr-feedback");
  fb.dataset.correct = String(result.correct);
  fb.hidden = false;
  $("tr-buttons").replaceChildren();
  setText($("tr-verdict"), result.correct ? S.right : S.wrong);
  setText($("tr-reason"), result.reason || "");
  $("tr-reason").hidden = !result.reason;
  setText($("tr-rule-text"), fmt(S.the_rule, { rule: result.rule }));
  const right = result.right;
  let rightText = S.shown;
  const moves = right.moves || [];
  if (ex.kind === "legal") {
    rightText = right.legal ? fmt(S.is_legal, { move: ex.focus.move }) : "";
    state.shown = { start: ex.focus.path[0], paths: [ex.focus.path], ends: [ex.focus.path[ex.focus.path.length - 1]] };
  } else if (ex.kind === "destinations") {
    rightText = fmt(S.moves_of_piece, { square: ex.focus, squares: right.squares.join(", ") || S.nowhere });
    state.shown = { start: ex.focus, targets: right.squares, paths: moves.filter((m) => m.captures.length).map((m) => m.path) };
  } else {
    if (ex.kind === "outcome") rightText = moves.length ? fmt(S.legal_moves, { moves: moves.map((m) => m.move).join(", ") }) : "";
    state.shown = { paths: moves.map((m) => m.path), ends: moves.map((m) => m.to), start: moves.length === 1 ? moves[0].from : null,
      capturable: [...new Set(moves.flatMap((m) => m.captures))] };
  }
  setText($("tr-right"), rightText);
  draw();
  $("tr-next").focus();
}

function next() {
  state.i += 1;
  if (state.i < state.exercises.length) { show(); return; }
  root.dataset.state = "done";
  $("tr-feedback").hidden = true;
  $("tr-buttons").replaceChildren();
  setText($("tr-question"), "");
  setText($("tr-rule-name"), "");
  setText($("tr-progress"), "");
  $("tr-summary").hidden = false;
  setText($("tr-score"), fmt(S.done, { n: state.score, total: state.exercises.length }));
  const missed = [...new Set(state.missed)];
  setText($("tr-missed-title"), missed.length ? S.missed : S.none_missed);
  $("tr-missed").replaceChildren(...missed.map((r) => {
    const li = document.createElement("li");
    li.dataset.rule = r;
    li.textContent = DATA.rule_names[r];
    return li;
  }));
  $("tr-again").hidden = !missed.length;
  saveMissed(missed);
}

async function start(again) {
  const p = new URLSearchParams({ variant: state.variant.id });
  if (state.optional) p.set("optional_capture", "true");
  if (again.length) p.set("again", again.join(","));
  root.dataset.state = "loading";
  let data;
  try {
    data = await api(`/api/train/session?${p}`);
  } catch (e) {
    setText($("tr-question"), e.message);
    return;
  }
  state.exercises = data.exercises;
  state.i = 0;
  state.score = 0;
  state.missed = [];
  if (!state.exercises.length) {
    root.dataset.state = "empty";
    setText($("tr-question"), S.no_exercises);
    return;
  }
  show();
}

function boardClick(label) {
  const ex = current();
  if (!ex || state.answered) return;
  if (ex.kind === "destinations") {
    if (label === ex.focus) return;
    if (state.marked.has(label)) state.marked.delete(label); else state.marked.add(label);
    draw();
    return;
  }
  if (ex.kind !== "capture" && ex.kind !== "promotion") return;
  const step = decide(state.sel, ex.moves, ex.pieces, ex.turn, label);
  if (!step) return;
  if (step.select) state.sel = step.select;
  else if (step.play) { state.sel = null; answer({ path: step.play.path }); return; }
  else if (step.attempt) { state.sel = null; answer({ path: step.attempt }); return; }
  else if (step.putBack) state.sel = null;
  else if (step.explain) state.sel = { start: label, clicks: [], ways: [], choosing: false };
  else if (step.sel) state.sel = step.sel;
  // the capture's prompts: it goes on; it may end here (the moves offered below the board);
  // several end here
  setText($("tr-hint"), step.info ? fmt(S[step.info], { square: step.square }) : "");
  draw();
}

const keys = boardKeys($("board"), (label) => boardClick(label));
$("board").addEventListener("click", (event) => {
  const sq = event.target.closest("[data-square]");
  if (sq) boardClick(sq.dataset.square);
});
$("tr-next").addEventListener("click", next);
$("tr-again").addEventListener("click", () => start([...new Set(state.missed)]));
$("tr-restart").addEventListener("click", () => start(storedMissed()));
$("tr-optional-row").hidden = state.variant.board_size !== 8;
$("tr-variant").addEventListener("change", () => {
  $("tr-optional-row").hidden = VARIANTS[$("tr-variant").value].board_size !== 8;
});
start(storedMissed());
