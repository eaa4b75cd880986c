// The invitation page's button: takes the free seat (POST /join/{secret}, the page's own
// address) with the name typed, then opens the game. A client that never presses it (a
// chat app's link preview) never takes the seat.

import { api } from "/static/api.js";

const form = document.getElementById("join-form");
const nameInput = document.getElementById("join-name");
const errorBox = document.getElementById("join-error");

try { nameInput.value = localStorage.getItem("damiera.name") || ""; } catch (_) { /* off */ }

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.textContent = "";
  const name = nameInput.value.trim();
  try { localStorage.setItem("damiera.name", name); } catch (_) { /* off */ }
  const button = document.getElementById("take-seat");
  button.disabled = true;
  try {
    const game = await api(window.location.pathname, { method: "POST", body: { name: name || null } });
    window.location.assign(`/game/${game.id}`);
  } catch (err) {
    errorBox.textContent = err.message;
    button.disabled = false;
  }
});
document.body.dataset.ready = "true";
