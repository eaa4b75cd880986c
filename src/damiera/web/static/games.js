// "My games": deleting a game (DELETE /api/games/{id}, this browser's games only).

import { api } from "/static/api.js";
import { setText } from "/static/text.js";

const S = JSON.parse(document.getElementById("games-data").textContent);
const errorBox = document.getElementById("games-error");

for (const button of document.querySelectorAll("button.delete-game")) {
  button.addEventListener("click", async () => {
    if (!window.confirm(S.confirm_delete)) return;
    button.disabled = true;
    try {
      await api(`/api/games/${encodeURIComponent(button.dataset.gameId)}`, { method: "DELETE" });
      button.closest("tr").remove();
    } catch (err) {
      if (errorBox) setText(errorBox, err.message);
      button.disabled = false;
    }
  });
}
