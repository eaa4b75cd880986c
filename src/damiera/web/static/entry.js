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
//
// A selection: { start, clicks: [labels], ways: [{ move, path, captures, crowned_at }],
// choosing: bool (the end is clicked, several moves end there) }.

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

export function selectionView(sel, pieces) {
  const { start, clicks, ways, choosing } = sel;
  const w0 = ways[0];
  const at = choosing ? w0.path.length - 1 : reach(w0.path, clicks);
  const shown = at > 0 ? piecesAlong(pieces, w0, Math.min(at, w0.path.length - 1)) : pieces;
  if (at >= w0.path.length - 1) {   // the end clicked, the path still to choose: all still there
    for (const c of w0.captures) shown[c] = pieces[c];
  }
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
  if (choosing) {     // the squares that tell the moves apart, one click each
    for (const w of ways) {
      for (const l of [...w.path.slice(1, -1), ...w.captures]) {
        if (new Set(waysOn(ways, l).map((o) => o.move.move)).size === 1) pick.add(l);
      }
    }
  }
  const capture = ways.some((w) => w.captures.length);
  const sameMove = new Set(ways.map((w) => w.move.move)).size === 1;
  const current = clicks.length ? clicks[clicks.length - 1] : start;
  return {
    pieces: shown,
    highlights: {
      start,
      selected: current,
      targets: [...next, ...pick],
      via: [...via],
      ends: [...ends],
      captured: done,
      capturable: [...later],
      crowned: [],
      paths: capture && (choosing || sameMove || ways.length <= 4)
        ? ways.map((w) => w.path.slice(Math.max(0, choosing ? 0 : reach(w.path, clicks)))) : [],
    },
  };
}

// The ways whose path lands on, or whose capture takes, the square `label`.
export function waysOn(ways, label) {
  return ways.filter((w) => w.path.slice(1, -1).includes(label) || w.captures.includes(label));
}


const oneMove = (ways) => new Set(ways.map((w) => w.move.move)).size === 1;

// What a click on `label` does to the selection `sel`:
//   { play: way }                      the move is determined and complete
//   { sel, info: "capture_goes_on" }   the clicks go on along some ways
//   { sel, info: "choose_path", square }   several moves end here: choose by their paths
//   { putBack: true }                  the piece clicked again (or its start): put it back
//   null                               none of its ways: another piece, or an attempt
export function enter(sel, label) {
  const { start, clicks, ways, choosing } = sel;
  const current = clicks.length ? clicks[clicks.length - 1] : start;
  if (choosing) {
    const on = waysOn(ways, label);
    if (on.length && oneMove(on)) return { play: on[0] };
    if (on.length && on.length < ways.length) return { sel: { ...sel, ways: on }, info: "choose_path", square: current };
    if (label === current || label === start) return { putBack: true };
    return { sel, info: "choose_path", square: current };
  }
  const now = [...clicks, label];
  const fit = ways.filter((w) => reach(w.path, now) >= 0);
  if (fit.length) {
    const ended = fit.filter((w) => reachesEnd(w.path, now));
    if (ended.length && ended.length === fit.length) {
      if (oneMove(ended)) return { play: ended[0] };
      return { sel: { start, clicks: now, ways: ended, choosing: true }, info: "choose_path", square: label };
    }
    return { sel: { start, clicks: now, ways: fit, choosing: false }, info: "capture_goes_on" };
  }
  if (label === current) {
    // the piece clicked again: a capture that can end here is played, else it goes back
    const here = ways.filter((w) => clicks.length && reachesEnd(w.path, clicks));
    if (here.length && oneMove(here)) return { play: here[0] };
    return { putBack: true };
  }
  if (label === start) return { putBack: true };
  return null;
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
    if (ways.length) return { select: { start: label, clicks: [], ways, choosing: false } };
    return piece ? { explain: label } : null;
  }
  const step = enter(sel, label);
  if (step) return step;
  if (!sel.clicks.length) {
    const ways = waysFrom(legalMoves, label);
    if (ways.length) return { select: { start: label, clicks: [], ways, choosing: false } };
    if (piece && piece.startsWith(turn)) return { explain: label };
  }
  return { attempt: [sel.start, ...sel.clicks, label], keep: sel.clicks.length > 0 };
}
