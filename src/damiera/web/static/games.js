// "My games": deleting a game (DELETE /api/games/{id}, this browser's games only).

import { setText } from "/static/text.js";

const S = JSON.parse(document.getElementById("games-data").textContent);
const errorBox = document.getElementById("games-error");

for (const button of document.querySelectorAll("button.delete-game")) {
  button.addEventListener("click", async () => {
    if (!window.confirm(S.confirm_delete)) return;
    button.disabled = true;
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(button.dataset.gameId)}?lang=${lang}`,
        { method: "DELETE", headers: { "Content-Type": "application/json" } });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        throw new Error(body.error || res.statusText);
      }
      button.closest("tr").remove();
    } catch (err) {
      if (errorBox) setText(errorBox, err.message);
      button.disabled = false;
    }
  });
}
