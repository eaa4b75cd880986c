// The live board: the game's event stream (GET /api/games/{id}/events, server-sent events)
// keeps the page up to date for players and watchers alike, and the panel of a game online:
// the invitation link, offers and their answers, the opponent's presence and the claim,
// display names, the watchers. No rule and no polling: the stream sends the game as the
// server has it (in the page's language) once, then what changed at each version (the new
// plies, pieces, legal moves, clock, offers, result: a "change" event), which the page
// applies to the game it has; a change that does not follow the version the page has
// (a gap) makes it ask for the whole game again. A dropped stream reconnects by itself with
// the last version seen (Last-Event-ID), so no move is missed or shown twice; one refused
// (429/503) is opened again later.

import { api } from "/static/api.js";
import { action, animateMove, confirmBox } from "/static/play_actions.js";
import {
  $, S, announceMove, announceResult, holds, message, mySide, redraw, sideWord, state,
} from "/static/play_state.js";
import { sound } from "/static/sound.js";
import { fmt, setText } from "/static/text.js";

/** What the stream said of who is here: { presence, watchers, claim_after_ms }, when. */
let live = null;
let liveAt = 0;
let source = null;
let retryDelay = 2000;
let pending = null;        // a newer game that came while the page was busy
let latest = null;         // the game as the stream has told it (changes apply to it)
let nameSent = false;
/** The rematch the game already had when the page opened: the page stays on the old game
 * (opened on purpose) and links to it. A rematch that begins while the page is open is
 * followed by every page of both players, whichever way the page heard of it (its own
 * answer or the stream). */
const rematchAtLoad = state.game && state.game.online ? state.game.online.rematch_game : null;
let following = false;

const other = (side) => (side === "white" ? "black" : "white");

/** "Anna", "You (Anna)", "You", "Player", or "waiting for a player" for a free seat. */
export function playerName(g, side) {
  const named = g.online ? g.online.names[side] : null;
  if (g.online && !g.online.seated[side]) return S.seat_free;
  if (holds(g, side)) return named ? fmt(S.you_named, { name: named }) : S.you;
  return named || S.player;
}
function opponentName(g) {
  const me = mySide(g);
  return (me && g.online.names[other(me)]) || S.your_opponent;
}

// ---------------------------------------------------------------------------------------------
// the stream
export function startLive() {
  if (!state.game) return;
  connect(null);
  setInterval(renderLeft, 1000);      // the claim's countdown (no request)
  // a name given before (in the menu, or another game) is this game's too
  const g = state.game;
  const me = mySide(g);
  let saved = "";
  try { saved = localStorage.getItem("damiera.name") || ""; } catch (_) { /* off */ }
  if (me && saved && !g.online.names[me] && !g.result) sendName(saved, true);
}

function connect(after) {
  const url = `/api/games/${state.game.id}/events` + (after !== null ? `?last_event_id=${after}` : "");
  const stream = new EventSource(url);
  source = stream;
  stream.onopen = () => { retryDelay = 2000; $("live-conn").hidden = true; };
  stream.onmessage = (e) => { if (source === stream) received(JSON.parse(e.data)); };
  stream.onerror = () => {
    if (source !== stream) return;
    $("live-conn").hidden = false;
    document.body.dataset.live = "down";
    if (stream.readyState === EventSource.CLOSED) {   // refused (too many streams): later
      setTimeout(() => { if (source === stream) connect(latest ? latest.version : null); }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 60000);
    }
  };
}

/** The game after a "change" event: its `set` fields replaced, its `lists` cut to their
 * first `keep` items and the new items added, its `maps` given their new keys and rid of
 * their dropped ones, its `drop` fields removed (the server's
 * damiera.web.live.events.apply_change). `game` itself is not changed. */
export function applyChange(game, change) {
  const next = { ...game, ...change.set };
  for (const [key, [keep, items]] of Object.entries(change.lists || {})) {
    next[key] = (game[key] || []).slice(0, keep).concat(items);
  }
  for (const [key, patch] of Object.entries(change.maps || {})) {
    const value = { ...(game[key] || {}), ...patch.set };
    for (const gone of patch.drop || []) delete value[gone];
    next[key] = value;
  }
  for (const key of change.drop || []) delete next[key];
  return next;
}

function received(msg) {
  if (msg.live) { live = msg.live; liveAt = performance.now(); }
  $("live-conn").hidden = true;
  document.body.dataset.live = "up";
  if (msg.type === "deleted") {
    source.close();
    message(S.error.replace("{message}", "404"));
    return;
  }
  if (msg.type === "game") {
    latest = msg.game;
    show(msg.game, msg.seats);
  } else if (msg.type === "change" && latest && msg.to <= latest.version) {
    redraw();                            // a version this page has already
  } else if (msg.type === "change" && latest && msg.from === latest.version) {
    latest = applyChange(latest, msg);
    show(latest, null);
  } else if (msg.type === "change") {    // a gap: the whole game again
    source.close();
    connect(latest ? latest.version : null);
  } else {
    redraw();
  }
}

/** A newer game from the stream: drawn at once, its last move animated if it is one more. */
async function show(next, seats) {
  const g = state.game;
  if (seats) next.seats = seats;
  else next.seats = g.seats;
  if (next.opponent === "online") {
    next.invite_url = next.online.seated.white && next.online.seated.black ? null : g.invite_url;
  }
  if (next.version <= g.version && !seats) { redraw(); return; }
  if (state.busy) {           // a move or an action of this page is under way: after it
    pending = next;
    setTimeout(flush, 100);
    return;
  }
  if (next.clock) next.clock = { ...next.clock, received: performance.now() };
  const oneMore = next.history.length === g.history.length + 1 && next.last_move
    && g.history.every((m, i) => next.history[i] === m);
  if (oneMore && state.viewPly === null) {
    state.busy = true;
    state.sel = null;
    sound(next.last_move);
    announceMove(next.last_move, g.turn);
    try {
      await animateMove(next.last_move, g.pieces);
    } finally {
      state.busy = false;
    }
  }
  if (pending && pending.version > next.version) next = pending;
  pending = null;
  if (state.sel && (next.history.length !== g.history.length || next.legal_moves.length !== g.legal_moves.length)) {
    state.sel = null;
  }
  state.game = next;
  state.shown = null;
  if (next.result && !g.result) announceResult(next);
  redraw();
}
function flush() {
  if (!pending) return;
  if (state.busy) { setTimeout(flush, 100); return; }
  const next = pending;
  pending = null;
  if (next.version > state.game.version) show(next, null);
}

// ---------------------------------------------------------------------------------------------
// the panel
export function renderLive() {
  const g = state.game;
  const online = !!g && g.opponent === "online";
  const me = online ? mySide(g) : null;
  const on = !!g && !g.result;
  const rematch = online ? g.online.rematch_game : null;
  if (rematch && me && rematch !== rematchAtLoad && !following) {
    following = true;                 // this page's answer or the stream: both players go
    window.location.assign(`/game/${rematch}`);
  }
  $("rematch-begun").hidden = !rematch;
  if (rematch) $("rematch-link").href = `/game/${rematch}`;
  // invitation (its creator, until the other seat is taken)
  const invite = online && !!g.invite_url;
  $("invite").hidden = !invite;
  if (invite) {
    const link = window.location.origin + g.invite_url;
    if ($("invite-link").value !== link) {
      $("invite-link").value = link;
      $("invite-qr").src = `/api/games/${g.id}/invite.svg`;
    }
  }
  // the players' controls
  const ready = online && g.online.ready;
  $("live-controls").hidden = !(me && on && ready) && !(me && on && g.online.can_abort);
  $("btn-offer-draw").hidden = !(ready && on) || !!g.online.draw_offer;
  // asked only by a player with a move of its own to take back (the server says which)
  $("btn-takeback").hidden = !(ready && on) || !!g.online.takeback
    || !(me && g.online.can_take_back && g.online.can_take_back[me]);
  $("btn-abort").hidden = !(online && g.online.can_abort);
  for (const id of ["btn-offer-draw", "btn-takeback", "btn-abort"]) $(id).disabled = state.busy;
  $("live-name").hidden = !me || !!g.result;
  if (me && document.activeElement !== $("name-input")) $("name-input").value = g.online.names[me] || "";
  renderOffers(g, me);
  renderLeft();
  // watchers
  const watchers = live ? live.watchers : 0;
  $("watchers").hidden = !g || !watchers;
  $("watchers").textContent = fmt(S.watchers, { n: watchers });
  if (g) $("watchers").dataset.count = String(watchers);
}

function offerRow(text, buttons) {
  const row = document.createElement("div");
  row.className = "offer";
  const p = document.createElement("p");
  setText(p, text);
  row.append(p);
  const box = document.createElement("div");
  box.className = "result-buttons";
  for (const [label, id, path, primary] of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = id;
    b.textContent = label;
    if (primary) b.className = "primary";
    b.disabled = state.busy;
    b.addEventListener("click", () => action(path));
    box.append(b);
  }
  row.append(box);
  return row;
}

function renderOffers(g, me) {
  const box = $("live-offers");
  box.replaceChildren();
  if (!g || g.opponent !== "online") return;
  const o = g.online;
  const base = `/api/games/${g.id}`;
  const them = opponentName(g);
  const kinds = [["draw", o.draw_offer, S.draw_offered_you, S.draw_offered],
    ["takeback", o.takeback, S.takeback_asked_you, S.takeback_asked],
    ["rematch", o.rematch, S.rematch_offered_you, S.rematch_offered]];
  for (const [kind, by, theirsText, mineText] of kinds) {
    if (!by) continue;
    const name = g.online.names[by] || (me ? them : sideWord(by));
    if (!me) {
      box.append(offerRow(fmt(theirsText, { name }), []));
    } else if (by === me) {
      const withdraw = kind === "rematch" ? [] : [[S.withdraw, `${kind}-withdraw`, `${base}/${kind}/withdraw`, false]];
      box.append(offerRow(mineText, withdraw));
    } else {
      box.append(offerRow(fmt(theirsText, { name }), [
        [S.accept, `${kind}-accept`, `${base}/${kind}/accept`, true],
        [S.decline, `${kind}-decline`, `${base}/${kind}/decline`, false]]));
    }
  }
  box.hidden = !box.children.length;
}

/** "Your opponent left the game" and, once the server's delay has passed on their turn, the
 * claim buttons (the server checks the claim again). */
function renderLeft() {
  const g = state.game;
  const me = g ? mySide(g) : null;
  const box = $("live-left");
  const them = me ? other(me) : null;
  const away = me && live && live.presence[them] && !live.presence[them].online
    && g.online.ready && !g.result;
  box.hidden = !away;
  if (!away) return;
  const gone = live.presence[them].away_ms + (performance.now() - liveAt);
  const wait = Math.ceil((live.claim_after_ms - gone) / 1000);
  const theirTurn = g.turn === them;
  let text = S.opponent_left;
  // before both sides have moved no clock runs and nothing is claimed: abort instead
  const claimable = theirTurn && !g.online.can_abort;
  if (claimable) text += ` ${wait > 0 ? fmt(S.claim_in, { n: wait }) : S.claim_now}`;
  setText($("live-left-text"), text);
  $("btn-claim-win").hidden = $("btn-claim-draw").hidden = !claimable || wait > 0;
}

async function sendName(name, quiet = false) {
  if (nameSent && quiet) return;
  nameSent = true;
  try {
    state.game = await api(`/api/games/${state.game.id}/name`, { method: "POST", body: { name: name || null } });
    if (!quiet) message(S.name_saved, "info");
  } catch (err) {
    if (!quiet) message(err.message);
  }
  redraw();
}

$("invite-copy").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (_) {
    input.select();
    document.execCommand("copy");   // older browsers, or no clipboard permission
  }
  $("invite-copy").textContent = S.copied;
  setTimeout(() => { $("invite-copy").textContent = S.copy; }, 2000);
});
$("invite-link").addEventListener("focus", () => $("invite-link").select());
$("btn-offer-draw").addEventListener("click", () => action(`/api/games/${state.game.id}/draw/offer`));
$("btn-takeback").addEventListener("click", () => action(`/api/games/${state.game.id}/takeback/request`));
$("btn-abort").addEventListener("click", async () => {
  if (await confirmBox(S.abort_confirm)) action(`/api/games/${state.game.id}/abort`);
});
$("btn-claim-win").addEventListener("click", () => action(`/api/games/${state.game.id}/claim`, { result: "win" }));
$("btn-claim-draw").addEventListener("click", () => action(`/api/games/${state.game.id}/claim`, { result: "draw" }));
$("live-name").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("name-input").value.trim();
  try { localStorage.setItem("damiera.name", name); } catch (_) { /* off */ }
  sendName(name);
});
