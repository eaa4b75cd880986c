// Custom rule sets. The form asks the server about every change (POST /api/custom): the
// reason an impossible combination is refused comes from the rules core, worded in the
// page's language; no rule is decided here. Submitting goes to the rule set's own address.
// On the rule set's page, the play buttons open the ☰ menu's new-game form with the rule set
// and the opponent chosen, and the copy button copies the address.
import { api } from "/static/api.js";
import { openMenu } from "/static/menu.js";
import { setText } from "/static/text.js";

const form = document.getElementById("custom-form");
if (form) {
  const errorBox = document.getElementById("custom-error");
  const create = document.getElementById("custom-create");
  const nameInput = document.getElementById("custom-name");
  const same = document.getElementById("custom-same");
  /** Say which named rule set these rules are, its name a link to its rules page. */
  function showSame(info) {
    same.replaceChildren();
    same.hidden = !info;
    if (!info) return;
    const link = document.createElement("a");
    link.href = info.url;
    link.textContent = info.name;
    same.append(info.before, link, info.after);
  }
  const body = () => ({
    rules: Object.fromEntries([...form.querySelectorAll("select[data-field]")]
      .map((select) => [select.dataset.field, JSON.parse(select.value)])),
    name: nameInput.value,
  });
  let asked = 0;
  /** Ask the server; the rule set's answer, or null (refused: the reason is shown). */
  async function check() {
    const mine = ++asked;
    try {
      const data = await api("/api/custom", { method: "POST", body: body() });
      if (mine === asked) {
        errorBox.hidden = true;
        create.disabled = false;
        showSame(data.same_as);
      }
      return data;
    } catch (err) {
      if (mine === asked) {
        setText(errorBox, err.message);
        errorBox.hidden = false;
        create.disabled = true;
        showSame(null);
      }
      return null;
    }
  }
  form.addEventListener("change", check);
  let typing = 0;
  nameInput.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(check, 300);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = await check();
    if (data) window.location.assign(data.url);
  });
  check();
}

for (const button of document.querySelectorAll("button.custom-play")) {
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    const variant = document.getElementById("ng-variant");
    const opponent = document.getElementById("ng-opponent");
    if (variant && opponent) {
      variant.value = button.dataset.variant;
      variant.dispatchEvent(new Event("change"));
      opponent.value = button.dataset.opponent;
      opponent.dispatchEvent(new Event("change"));
    }
    openMenu(true);
  });
}

const copy = document.getElementById("custom-copy");
if (copy) {
  copy.addEventListener("click", async () => {
    const address = document.getElementById("custom-address");
    try {
      await navigator.clipboard.writeText(address.value);
      setText(copy, copy.dataset.copied);
    } catch (_) {
      address.select();   // no clipboard (an insecure page): the address selected to copy by hand
    }
  });
}
