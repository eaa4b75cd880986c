// The lobby: the open challenges, kept live by the lobby's event stream
// (GET /api/challenges/events); opening, cancelling and accepting one. No polling: a
// dropped stream reconnects by itself (EventSource), and one refused (too many streams)
// is opened again later.

import { api } from "/static/api.js";
import { fmt } from "/static/text.js";

const data = JSON.parse(document.getElementById("page-data").textContent);
const S = data.strings;
const rows = document.getElementById("challenge-rows");
const status = document.getElementById("lobby-status");
const errorBox = document.getElementById("lobby-error");
const nameInput = document.getElementById("ch-name");

/** Open challenges by id: the API's challenge, with the time it arrived. */
const open = new Map();
/** Ids of this browser's challenges (the stream's list marks them `mine`). */
const mine = new Set();

try { nameInput.value = localStorage.getItem("damiera.name") || ""; } catch (_) { /* off */ }

function age(c) {
  const seconds = c.age_s + (performance.now() - c.received) / 1000;
  return seconds < 60 ? S.just_now : fmt(S.minutes_ago, { n: Math.floor(seconds / 60) });
}
function sideText(side) {
  return side === "random" ? S.any_side : side === "white" ? data.white : data.black;
}

function render() {
  rows.replaceChildren();
  const now = performance.now();
  const list = [...open.values()].filter((c) => c.expires_in_s * 1000 > now - c.received)
    .sort((a, b) => a.age_s - b.age_s);
  for (const c of list) {
    const tr = document.createElement("tr");
    tr.dataset.challengeId = c.id;
    const options = [c.optional_capture && S.captures_optional, c.losing && S.losing,
      c.breakthrough && S.breakthrough].filter(Boolean);
    const variant = (data.variants[c.variant] ?? c.variant_name) + (options.length ? ` (${options.join(", ")})` : "");
    const cells = [variant, c.clock || S.no_clock, sideText(c.side), c.name || S.player, age(c)];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const td = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    if (mine.has(c.id)) {
      button.textContent = S.cancel;
      button.className = "cancel-challenge";
      button.addEventListener("click", () => cancel(c.id));
    } else {
      button.textContent = S.play;
      button.className = "primary accept-challenge";
      button.addEventListener("click", () => accept(c.id, button));
    }
    td.append(button);
    tr.append(td);
    rows.append(tr);
  }
  const waiting = list.some((c) => mine.has(c.id));
  status.textContent = waiting ? S.your_challenge : list.length ? "" : S.no_challenges;
  document.body.dataset.ready = "true";
}

function add(c) {
  open.set(c.id, { ...c, received: performance.now() });
  if (c.mine) mine.add(c.id);
}

/** "Your challenge was accepted: go to the game", from the list the server keeps (not from a
 * one-off event, which a page opened later, or reconnected, never saw). */
function showAccepted(accepted) {
  const box = document.getElementById("lobby-accepted");
  box.hidden = !accepted.length;
  if (accepted.length) document.getElementById("lobby-accepted-link").href = `/game/${accepted[0].game_id}`;
}

let source = null;
let delay = 2000;
function connect() {
  source = new EventSource("/api/challenges/events");
  source.onopen = () => { delay = 2000; };
  source.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "list") {
      open.clear();
      msg.challenges.forEach(add);
      showAccepted(msg.accepted || []);
    } else if (msg.type === "created") {
      add({ ...msg.challenge, mine: mine.has(msg.challenge.id) });
    } else if (msg.type === "removed") {
      open.delete(msg.id);
      if (mine.has(msg.id) && msg.game_id) {
        window.location.assign(`/game/${msg.game_id}`);   // someone accepted it
        return;
      }
    }
    render();
  };
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {   // refused: try again later
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 60000);
    }
  };
}

async function accept(id, button) {
  errorBox.textContent = "";
  button.disabled = true;
  try {
    const game = await api(`/api/challenges/${id}/accept`, { method: "POST", body: { name: nameInput.value || null } });
    window.location.assign(`/game/${game.id}`);
  } catch (err) {
    errorBox.textContent = err.message;
    if (err.status === 409) { open.delete(id); render(); }
    button.disabled = false;
  }
}

async function cancel(id) {
  errorBox.textContent = "";
  try {
    await api(`/api/challenges/${id}`, { method: "DELETE" });
    open.delete(id);
    mine.delete(id);
    render();
  } catch (err) {
    errorBox.textContent = err.message;
  }
}

const variantSelect = document.getElementById("ch-variant");
const optionalRow = document.getElementById("ch-optional-row");
function syncOptional() {
  const eight = variantSelect.selectedOptions[0].dataset.boardSize === "8";
  optionalRow.hidden = !eight;
  if (!eight) document.getElementById("ch-optional").checked = false;
}
variantSelect.addEventListener("change", syncOptional);
syncOptional();

document.getElementById("challenge-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.textContent = "";
  const clock = document.getElementById("ch-clock").value;
  const name = nameInput.value.trim();
  try { localStorage.setItem("damiera.name", name); } catch (_) { /* off */ }
  try {
    const c = await api("/api/challenges", { method: "POST", body: {
      variant: variantSelect.value, clock: clock === "none" ? null : clock,
      side: document.getElementById("ch-side").value, name: name || null,
      optional_capture: document.getElementById("ch-optional").checked,
      losing: document.getElementById("ch-goal").value === "losing",
      breakthrough: document.getElementById("ch-goal").value === "breakthrough",
    } });
    mine.add(c.id);
    add(c);
    render();
  } catch (err) {
    errorBox.textContent = err.message;
  }
});

setInterval(render, 15000);
connect();
