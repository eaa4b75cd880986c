// The ☰ menu of every page: opening/closing, and the new-game form (POST /api/games).

import { api } from "/static/api.js";
import { setText } from "/static/text.js";

const button = document.getElementById("menu-button");
const menu = document.getElementById("menu");

export function openMenu(focusForm = false) {
  menu.hidden = false;
  button.setAttribute("aria-expanded", "true");
  const target = focusForm ? document.getElementById("ng-variant") : menu.querySelector("a, select, button");
  if (target) target.focus();
}

export function closeMenu() {
  menu.hidden = true;
  button.setAttribute("aria-expanded", "false");
}

button.addEventListener("click", () => (menu.hidden ? openMenu() : closeMenu()));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !menu.hidden) { closeMenu(); button.focus(); }
});
document.addEventListener("click", (e) => {
  if (!menu.hidden && !menu.contains(e.target) && !button.contains(e.target)) closeMenu();
});

const form = document.getElementById("new-game");
const variantSelect = document.getElementById("ng-variant");
const optionalRow = document.getElementById("ng-optional-row");
const optional = document.getElementById("ng-optional");
// The two goal options exclude each other (the server refuses both): ticking one clears the
// other.
const goalBoxes = {
  losing: document.getElementById("ng-losing"),
  breakthrough: document.getElementById("ng-breakthrough"),
};
for (const [name, box] of Object.entries(goalBoxes)) {
  box.addEventListener("change", () => {
    if (!box.checked) return;
    for (const [other, otherBox] of Object.entries(goalBoxes)) {
      if (other !== name) otherBox.checked = false;
    }
  });
}
const errorBox = document.getElementById("ng-error");

// Hub engines (value "hub:NAME") are offered only for the variants they play, without the
// optional-capture house rule.
const opponentSelect = document.getElementById("ng-opponent");
function syncOptional() {
  const opt = variantSelect.selectedOptions[0];
  const eight = opt && opt.dataset.boardSize === "8";
  const hub = opponentSelect.value.startsWith("hub:");
  optionalRow.hidden = !eight || hub;
  if (!eight || hub) optional.checked = false;
  for (const o of opponentSelect.options) {
    if (o.dataset.variants === undefined) continue;
    o.hidden = o.disabled = !o.dataset.variants.split(" ").includes(variantSelect.value);
  }
  if (opponentSelect.selectedOptions[0] && opponentSelect.selectedOptions[0].disabled) opponentSelect.value = "computer:1";
}
// A game online: the creator may give a display name (remembered in this browser).
const nameRow = document.getElementById("ng-name-row");
const nameInput = document.getElementById("ng-name");
try { if (nameInput) nameInput.value = localStorage.getItem("damiera.name") || ""; } catch (_) { /* off */ }
function syncName() { if (nameRow) nameRow.hidden = opponentSelect.value !== "online"; }
opponentSelect.addEventListener("change", syncOptional);
opponentSelect.addEventListener("change", syncName);
syncName();
variantSelect.addEventListener("change", () => {
  syncOptional();
  document.dispatchEvent(new CustomEvent("damiera:variant-preview", { detail: variantSelect.value }));
});
try {
  const last = localStorage.getItem("damiera.lastVariant");
  if (last && [...variantSelect.options].some((o) => o.value === last)) variantSelect.value = last;
} catch (_) { /* storage may be off */ }
syncOptional();

// Time control: a preset, or "custom" with minutes and seconds per move ("M+S" for the API).
const clockSelect = document.getElementById("ng-clock");
const clockCustom = document.getElementById("ng-clock-custom");
clockSelect.addEventListener("change", () => { clockCustom.hidden = clockSelect.value !== "custom"; });
// A custom one is checked here against its fields' own bounds (min, max, whole numbers), so
// the player reads what to enter rather than the API's refusal of a text they never typed.
const minutesInput = document.getElementById("ng-clock-minutes");
const incrementInput = document.getElementById("ng-clock-increment");
/** The clock for the API ("M+S" or null), or undefined when the custom fields are invalid. */
function clockSpec() {
  if (clockSelect.value !== "custom") return clockSelect.value === "none" ? null : clockSelect.value;
  const minutes = minutesInput.value.trim();
  const increment = incrementInput.value.trim() || "0";
  for (const input of [minutesInput, incrementInput]) input.removeAttribute("aria-invalid");
  const bad = [minutesInput, incrementInput].filter((input) => !input.checkValidity()
    || (input === minutesInput && !minutes));
  if (bad.length) {
    for (const input of bad) input.setAttribute("aria-invalid", "true");
    bad[0].focus();
    return undefined;
  }
  return `${minutes}+${increment}`;
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.hidden = true;
  const choice = opponentSelect.value;
  const hub = choice.startsWith("hub:");
  const [opponent, level] = hub ? ["computer", "1"] : choice.split(":");
  const side = document.getElementById("ng-side").value || null;
  const clock = clockSpec();
  if (clock === undefined) {
    setText(errorBox, clockCustom.dataset.invalid);
    errorBox.hidden = false;
    return;
  }
  const body = {
    variant: variantSelect.value,
    opponent,
    level: level ? Number(level) : 1,
    engine: hub ? choice.slice(4) : null,
    side,
    optional_capture: optional.checked,
    losing: goalBoxes.losing.checked,
    breakthrough: goalBoxes.breakthrough.checked,
    clock,
  };
  if (opponent === "online" && nameInput) {
    body.name = nameInput.value.trim() || null;
    try { localStorage.setItem("damiera.name", body.name || ""); } catch (_) { /* off */ }
  }
  const start = document.getElementById("ng-start");
  start.disabled = true;
  try {
    const data = await api("/api/games", { method: "POST", body });
    try {
      localStorage.setItem("damiera.lastVariant", body.variant);
      if (data.history.length) sessionStorage.setItem("damiera.animate", data.id);
    } catch (_) { /* storage may be off */ }
    window.location.assign(`/game/${data.id}`);
  } catch (err) {
    setText(errorBox, err.message);   // a FEN or move in it reads left to right
    errorBox.hidden = false;
    start.disabled = false;
  }
});
