// Every click sequence the capture entry (/static/entry.js) accepts, explored breadth first
// in the browser, for positions sent by tests/browser/test_entry_every_move.py.
//
// From each piece that can move, every square of its moves' paths and captures (and its
// start) is clicked in every state the entry can reach, and every offered choice is picked.
// Checked: every legal move of the piece is played by some sequence; a played move fits the
// clicks that played it (each clicked landing on its path, in order, the last one its end);
// clicking the piece where it stands, or its start while choosing, puts it back; the plain
// sequence (the start, then each landing of a way) plays that way's move or offers it.
// Returns { positions, moves, ways, states, failures: [first 30] }.
async ({ positions, maxStates }) => {
  const E = await import("/static/entry.js");
  const out = { positions: 0, moves: 0, ways: 0, states: 0, failures: [] };
  const fail = (pos, what) => {
    if (out.failures.length < 30) out.failures.push({ variant: pos.variant, fen: pos.fen, ...what });
  };
  const key = (sel) => JSON.stringify([sel.clicks, sel.choosing,
    sel.ways.map((w) => `${w.move.move} ${w.path.join(",")}`)]);
  const current = (sel) => (sel.clicks.length ? sel.clicks[sel.clicks.length - 1] : sel.start);

  for (const pos of positions) {
    out.positions++;
    const { moves, pieces, turn } = pos;
    const decide = (sel, label) => E.decide(sel, moves, pieces, turn, label);
    for (const start of [...new Set(moves.map((m) => m.from))]) {
      const legal = new Set(moves.filter((m) => m.from === start).map((m) => m.move));
      out.moves += legal.size;
      const first = decide(null, start);
      if (!first || !first.select) { fail(pos, { start, problem: "the piece cannot be chosen" }); continue; }
      const ways = first.select.ways;
      out.ways += ways.length;
      const squares = [...new Set([start, ...ways.flatMap((w) => [...w.path, ...w.captures])])];
      const entered = new Set();
      const played = (sel, label, way, how) => {
        const move = way.move.move;
        entered.add(move);
        if (!legal.has(move)) fail(pos, { start, problem: "a move of another piece", move, how });
        const clicks = label === null || sel.choosing ? sel.clicks : [...sel.clicks, label];
        if (!(clicks.length === 0 ? how === "pick" : E.reach(way.path, clicks) >= 0)) {
          fail(pos, { start, problem: "played a move the clicks are not on", move, clicks, how });
        }
        if ((how === "pick" || !sel.choosing) && !E.reachesEnd(way.path, clicks)) {
          fail(pos, { start, problem: "played before its end was clicked", move, clicks });
        }
        if (how === "click" && sel.choosing && !E.waysOn(sel.ways, label).includes(way)) {
          fail(pos, { start, problem: "a choice played by a square not on it", move, label });
        }
      };

      // Breadth first over the states the clicks reach.
      const queue = [first.select];
      const seen = new Set([key(first.select)]);
      let states = 0;
      while (queue.length) {
        const sel = queue.shift();
        if (++states > maxStates) { fail(pos, { start, problem: `more than ${maxStates} states` }); break; }
        for (const cancel of sel.choosing ? [current(sel), start] : [current(sel)]) {
          const step = decide(sel, cancel);
          if (!step || !step.putBack) {
            fail(pos, { start, problem: "a click meant to cancel did not put the piece back",
              clicks: sel.clicks, choosing: sel.choosing, label: cancel,
              got: step && (step.play ? `play ${step.play.move.move}` : Object.keys(step).join()) });
          }
        }
        for (const label of squares) {
          const step = decide(sel, label);
          if (!step) continue;
          if (step.play) played(sel, label, step.play, "click");
          else if (step.sel) {
            const k = key(step.sel);
            if (!seen.has(k)) { seen.add(k); queue.push(step.sel); }
          }
        }
        E.choices(sel).forEach((choice, i) => {
          const step = E.pick(sel, i);
          if (!step || !step.play || step.play.move.move !== choice.move) {
            fail(pos, { start, problem: "a choice does not play its move", move: choice.move });
          } else played(sel, null, step.play, "pick");
        });
      }
      out.states += states;
      for (const move of legal) {
        if (!entered.has(move)) fail(pos, { start, problem: "no click sequence plays it", move });
      }

      // The plain sequence: the start, then every landing of the way in turn.
      for (const way of ways) {
        let sel = first.select;
        let done = false;
        for (const label of way.path.slice(1)) {
          const step = decide(sel, label);
          if (step && step.play) {
            if (step.play.move.move !== way.move.move) {
              fail(pos, { start, problem: "its landings played another move", move: way.move.move,
                path: way.path, got: step.play.move.move });
            }
            done = true;
            break;
          }
          if (!step || !step.sel) {
            fail(pos, { start, problem: "its landings were not followed", move: way.move.move,
              path: way.path, at: label });
            done = true;
            break;
          }
          sel = step.sel;
        }
        if (!done && !E.choices(sel).some((c) => c.move === way.move.move)) {
          fail(pos, { start, problem: "its landings neither play it nor offer it",
            move: way.move.move, path: way.path });
        }
      }
    }
  }
  return out;
}
