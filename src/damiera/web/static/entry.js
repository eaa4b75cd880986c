// Move entry on the board, without a rule of its own, for every page where moves are played
// (the play page and the analysis board): the server sends every legal move with every way
// of playing it (`paths`: landing squares, captured squares, the landing from which a man is
// a king); these functions match the player's clicks against them (`decide`, `enter`) and
// say what to draw (`selectionView`).
//
// A piece is chosen, then landing squares in order, ending with the end square (any landing
// may be left out: a start and an end name a move when no other fits). The move is played
// only when the clicks reach the end of one move, so the next click never falls on the
// position after it. When several captures end on the clicked square their paths are drawn
// and one click on a square of one of them (a landing or a piece it takes) chooses it.
// Whenever the clicks name more than one move to its end, or name one while others go on
// (22x13 and 22x15x24x31x22x13 both fit 22, 13, and no square tells the first apart), the
// moves they name are offered as choices (`choices`, `pick`): each drawn on the board and
// written in notation, so that every legal move can be entered. Clicking the chosen piece
// again (where it stands now), or its start square while choosing, puts it back: cancelling
// never plays a move.
//
// A selection: { start, clicks: [labels], ways: [{ move, path, captures, crowned_at }],
// choosing: bool (the end is clicked, several moves end there), focus: null | index of the
// choice the player points at (drawn alone, emphasised) }.

// Every way of playing the moves that start on `label`.
export function waysFrom(legalMoves, label) {
  return legalMoves.filter((m) => m.from === label).flatMap((m) => (m.paths && m.paths.length ? m.paths : [m])
    .map((w) => ({ move: m, path: w.path, captures: w.captures, crowned_at: w.crowned_at })));
}

// The pieces after `way` (a move, or one of its paths) has gone `upto` landings: the piece
// stands on path[upto], crowned from the landing the server named (crowned_at); the pieces
// it has taken stay on the board until the end of the move (Turkish strike), marked.
export function piecesAlong(pieces, way, upto) {
  const out = { ...pieces };
  let piece = out[way.path[0]];
  delete out[way.path[0]];
  if (way.crowned_at !== null && way.crowned_at !== undefined && upto >= way.crowned_at) {
    piece = piece.replace("-man", "-king");
  }
  if (upto >= way.path.length - 1) for (const c of way.captures) delete out[c];
  out[way.path[upto]] = piece;
  return out;
}

// Where `clicks` (landing squares, in order) stand in `path`: the index of the last one, 0 for
// none, -1 when they are not on it in that order.
export function reach(path, clicks) {
  let i = 0;
  for (const c of clicks) {
    i = path.indexOf(c, i + 1);
    if (i < 0) return -1;
  }
  return i;
}
// Whether `clicks` name `path` to its end (the last click is the end square).
export function reachesEnd(path, clicks) {
  if (!clicks.length || clicks[clicks.length - 1] !== path[path.length - 1]) return false;
  const before = reach(path, clicks.slice(0, -1));
  return before >= 0 && before < path.length - 1;
}

// The moves the selection's clicks name to their end, when the player has to say which one
// is meant: several moves end there, or one does while other moves go on. One entry a move,
// in the order of the legal moves: { move: its notation, way: the first of its ways that fits,
// paths: the paths of all its ways that fit }. Empty when nothing is to choose.
export function choices(sel) {
  if (!sel) return [];
  const named = sel.choosing ? sel.ways
    : sel.ways.filter((w) => sel.clicks.length && reachesEnd(w.path, sel.clicks));
  const byMove = new Map();
  for (const w of named) {
    const text = w.move.move;
    if (!byMove.has(text)) byMove.set(text, { move: text, way: w, paths: [] });
    byMove.get(text).paths.push(w.path);
  }
  return [...byMove.values()];
}

// The choice number `index` of `choices(sel)` picked (a button, a tap): { play: way }, or
// null when there is no such choice.
export function pick(sel, index) {
  const list = choices(sel);
  return index >= 0 && index < list.length ? { play: list[index].way } : null;
}

// The selection `sel` with the choice number `index` pointed at (`index` null: none), drawn
// alone (the pointer or the keyboard focus on its button); null when there is no selection or
// that choice is already the one pointed at (nothing to redraw).
export function pointAt(sel, index) {
  if (!sel || sel.focus === index) return null;
  return { ...sel, focus: index };
}

// The legal move whose notation is exactly `text` (a typed move), or null: the page then
// sends the text to the server, which reads short forms or says why it is not a move.
export function moveNamed(legalMoves, text) {
  return legalMoves.find((m) => m.move === text) || null;
}

// What to draw for the selection `sel` on the pieces `pieces`: { pieces (as they stand at
// this point of the capture), highlights (board.js) }; `highlights.choices` are the paths of
// the moves to choose from ([{ path, n: the choice's number, focused }]).
export function selectionView(sel, pieces) {
  const { start, clicks, ways, choosing } = sel;
  const list = choices(sel);
  const focused = sel.focus !== null && sel.focus !== undefined && list[sel.focus]
    ? list[sel.focus] : null;
  const w0 = focused ? focused.way : ways[0];
  const at = choosing ? w0.path.length - 1 : reach(w0.path, clicks);
  const shown = at > 0 ? piecesAlong(pieces, w0, Math.min(at, w0.path.length - 1)) : pieces;
  if (at >= w0.path.length - 1) {   // the end clicked, the path still to choose: all still there
    for (const c of w0.captures) shown[c] = pieces[c];
  }
  const current = clicks.length ? clicks[clicks.length - 1] : start;
  const next = new Set(), via = new Set(), ends = new Set(), pick = new Set();
  const taken = ways.map((w) => new Set(w.captures.slice(0, choosing ? w.captures.length : reach(w.path, clicks))));
  const done = [...taken[0]].filter((c) => taken.every((t) => t.has(c)));
  const later = new Set();
  for (const w of ways) {
    const i = choosing ? w.path.length - 1 : reach(w.path, clicks);
    if (!choosing) {
      if (w.path.length > i + 1) next.add(w.path[i + 1]);
      w.path.slice(i + 1, -1).forEach((l) => via.add(l));
      ends.add(w.path[w.path.length - 1]);
    }
    w.captures.forEach((c) => { if (!done.includes(c)) later.add(c); });
  }
  if (choosing) {     // the squares that tell the moves apart, one click each (not the start
    for (const w of ways) {        // nor the end: those put the piece back)
      for (const l of [...w.path.slice(1, -1), ...w.captures]) {
        if (l !== start && l !== current && new Set(waysOn(ways, l).map((o) => o.move.move)).size === 1) pick.add(l);
      }
    }
  }
  const capture = ways.some((w) => w.captures.length);
  const sameMove = new Set(ways.map((w) => w.move.move)).size === 1;
  const chosen = new Set(list.flatMap((c) => c.paths));
  const drawn = capture && (choosing || sameMove || ways.length <= 4)
    ? ways.filter((w) => !chosen.has(w.path))
      .map((w) => w.path.slice(Math.max(0, choosing ? 0 : reach(w.path, clicks)))) : [];
  return {
    pieces: shown,
    highlights: {
      start,
      selected: current,
      targets: [...next, ...pick],
      via: [...via],
      ends: [...ends],
      captured: done,
      capturable: focused ? focused.way.captures.filter((c) => !done.includes(c)) : [...later],
      crowned: [],
      paths: focused ? [] : drawn,
      choices: list.flatMap((c, n) => (focused && focused !== c ? []
        : c.paths.map((path) => ({ path, n, focused: focused === c })))),
    },
  };
}

// The ways whose path lands on, or whose capture takes, the square `label`.
export function waysOn(ways, label) {
  return ways.filter((w) => w.path.slice(1, -1).includes(label) || w.captures.includes(label));
}

const moveSet = (ways) => new Set(ways.map((w) => w.move.move));
const oneMove = (ways) => moveSet(ways).size === 1;

// What a click on `label` does to the selection `sel`:
//   { play: way }                      the move is determined and complete
//   { sel, info: "capture_goes_on" }   the clicks go on along some ways
//   { sel, info: "capture_can_end", square }   they go on, and also name moves that end
//                                      here (offered by `choices`)
//   { sel, info: "choose_path", square }   several moves end here: choose by their paths
//                                      (a square of one) or from `choices`
//   { putBack: true }                  the piece clicked again where it stands, its start
//                                      while choosing, or its start when no way lands there
//   null                               none of its ways: another piece, or an attempt
export function enter(sel, label) {
  const { start, clicks, ways, choosing } = sel;
  const current = clicks.length ? clicks[clicks.length - 1] : start;
  if (label === current || (choosing && label === start)) return { putBack: true };
  if (choosing) {
    const on = waysOn(ways, label);
    if (on.length && oneMove(on)) return { play: on[0] };
    if (on.length && on.length < ways.length) {
      return { sel: { ...sel, ways: on, focus: null }, info: "choose_path", square: current };
    }
    return { sel, info: "choose_path", square: current };
  }
  const now = [...clicks, label];
  const fit = ways.filter((w) => reach(w.path, now) >= 0);
  if (!fit.length) return label === start ? { putBack: true } : null;
  const ended = fit.filter((w) => reachesEnd(w.path, now));
  const endedMoves = moveSet(ended);
  if (ended.length && fit.every((w) => endedMoves.has(w.move.move))) {
    if (endedMoves.size === 1) return { play: ended[0] };
    return { sel: { start, clicks: now, ways: ended, choosing: true, focus: null },
      info: "choose_path", square: label };
  }
  return { sel: { start, clicks: now, ways: fit, choosing: false, focus: null },
    info: ended.length ? "capture_can_end" : "capture_goes_on", square: label };
}

// What the player's choice of the square `label` means, whatever the page (click, tap, drop,
// Enter). `sel`: the current selection or null; `legalMoves`: the moves the server sent (with
// `paths`); `pieces`: the position's pieces by square; `turn`: "white" | "black". One of
//   { select: sel }                    a piece that can move is chosen (another one, maybe)
//   { play: way }                      a move is determined and complete (way.move: the move)
//   { sel, info, square }              the entry goes on (`enter`'s answers)
//   { putBack: true }                  the chosen piece goes back
//   { explain: label }                 a piece that cannot move now (its side's, or any when
//                                      nothing is chosen): the page asks the server why
//   { attempt: [labels], keep: bool }  squares the legal moves do not contain (start first):
//                                      the page asks the server why; `keep`: the capture's
//                                      landings so far stay entered
//   null                               nothing to do (an empty square)
export function decide(sel, legalMoves, pieces, turn, label) {
  const piece = pieces[label];
  if (!sel) {
    const ways = waysFrom(legalMoves, label);
    if (ways.length) return { select: { start: label, clicks: [], ways, choosing: false, focus: null } };
    return piece ? { explain: label } : null;
  }
  const step = enter(sel, label);
  if (step) return step;
  if (!sel.clicks.length) {
    const ways = waysFrom(legalMoves, label);
    if (ways.length) return { select: { start: label, clicks: [], ways, choosing: false, focus: null } };
    if (piece && piece.startsWith(turn)) return { explain: label };
  }
  return { attempt: [sel.start, ...sel.clicks, label], keep: sel.clicks.length > 0 };
}
