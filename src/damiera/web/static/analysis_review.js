// The analysis board's game review: the main line sent to the server's review
// (/api/analysis/reviews), its progress polled, then each mistake listed with the move that was
// better, marked in the tree and on a graph of the scores; "next mistake" walks them.
import { $, S, board, mainLine, menText, message, pvText, state } from "/static/analysis_state.js";
import { api } from "/static/api.js";
import { fmt } from "/static/text.js";

// Forgets the review shown: its list, graph and marks in the tree (a new tree, or a new review).
export function clearReview() {
  if (state.reviewTimer) clearTimeout(state.reviewTimer);
  state.review = null;
  $("review-progress").hidden = true;
  $("review-graph").setAttribute("hidden", "");
  $("review-next").hidden = true;
  $("review-pdn").hidden = true;
  $("review-status").textContent = "";
  $("review-list").textContent = "";
  if (state.root) for (const n of mainLine()) { delete n.nag; delete n.judgement; }
}

// Asks the server to review the main line (the game itself when it is the game's moves).
export async function startReview() {
  clearReview();
  const line = mainLine();
  const onGame = state.gameId && state.initialMoves && line.length === state.initialMoves.length
    && line.every((n, i) => n.move.move === state.initialMoves[i]);
  const body = onGame ? { game_id: state.gameId } : {
    variant: state.variant.id, optional_capture: state.optional, fen: state.root.fen,
    moves: line.map((n) => n.move.move),
  };
  let r;
  try {
    r = await api("/api/analysis/reviews", { method: "POST", body });
  } catch (e) { message(e.message); return; }
  state.review = { id: r.id, line };
  $("review-progress").hidden = false;
  pollReview();
}

async function pollReview() {
  const review = state.review;
  if (!review) return;
  let r;
  try { r = await api(`/api/analysis/reviews/${review.id}`); } catch (e) { message(e.message); return; }
  if (state.review !== review) return;
  $("review-progress").max = r.total;
  $("review-progress").value = r.done;
  if (r.status === "failed") { $("review-status").textContent = fmt(S.review_failed, { error: r.error }); return; }
  if (r.status !== "done") {
    $("review-status").textContent = fmt(S.reviewing, { done: r.done, total: r.total });
    state.reviewTimer = setTimeout(pollReview, 400);
    return;
  }
  $("review-progress").hidden = true;
  showReview(review, r.moves);
}

function showReview(review, moves) {
  const list = $("review-list");
  list.textContent = "";
  review.marks = [];
  moves.forEach((m, i) => {
    const node = review.line[i];
    if (!node) return;
    node.nag = m.nag; node.judgement = m.judgement;
    if (!m.judgement) return;
    review.marks.push(node);
    const li = document.createElement("li");
    li.className = `review-item ${m.judgement}`;
    const go = document.createElement("button");
    go.type = "button";
    go.textContent = `${pvText(node.parent, [m.move + m.nag])} ${S[m.judgement]} (${menText(m.before)} → ${menText(m.after)})`;
    go.addEventListener("click", () => board.goTo(node));
    li.appendChild(go);
    if (m.best) {
      const better = document.createElement("button");
      better.type = "button";
      better.className = "try-best";
      better.textContent = fmt(S.best_was, { move: m.best });
      better.addEventListener("click", async () => {
        await board.goTo(node.parent);
        const mv = node.parent.info.moves.find((x) => x.move === m.best);
        if (mv) await board.play(mv);
      });
      li.appendChild(better);
    }
    list.appendChild(li);
  });
  $("review-status").textContent = review.marks.length ? "" : S.no_mistakes;
  $("review-next").hidden = !review.marks.length;
  $("review-pdn").href = `/api/analysis/reviews/${review.id}/pdn`;
  $("review-pdn").hidden = false;
  drawGraph(review, moves);
  board.renderTree();
}

function drawGraph(review, moves) {
  const svg = $("review-graph");
  const NS = "http://www.w3.org/2000/svg";
  const W = 300, H = 100, clip = 500;
  const scores = [moves[0].before, ...moves.map((m) => m.after)];
  const x = (i) => (scores.length > 1 ? (i * W) / (scores.length - 1) : 0);
  const y = (s) => H / 2 - (Math.max(-clip, Math.min(clip, s)) / clip) * (H / 2 - 4);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.textContent = "";
  const mk = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.appendChild(e);
    return e;
  };
  mk("rect", { x: 0, y: 0, width: W, height: H, class: "graph-bg" });
  const pts = scores.map((s, i) => `${x(i).toFixed(1)},${y(s).toFixed(1)}`);
  mk("polygon", { points: `0,${H} ${pts.join(" ")} ${W},${H}`, class: "graph-white" });
  mk("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-axis" });
  mk("polyline", { points: pts.join(" "), class: "graph-line" });
  moves.forEach((m, i) => {
    if (!m.judgement) return;
    const dot = mk("circle", { cx: x(i + 1), cy: y(m.after), r: 3.5, class: `graph-dot ${m.judgement}`, tabindex: 0, role: "button",
      "aria-label": `${m.move}${m.nag} ${S[m.judgement]}` });
    dot.addEventListener("click", () => board.goTo(review.line[i]));
  });
  svg.removeAttribute("hidden");  // an SVG element has no .hidden property
}

// Goes to the next marked move of the main line after the one shown, round to the first.
export function nextMistake() {
  const review = state.review;
  if (!review || !review.marks || !review.marks.length) return;
  const line = mainLine();
  const at = line.indexOf(state.node);
  const next = review.marks.find((n) => line.indexOf(n) > at) || review.marks[0];
  board.goTo(next);
}
