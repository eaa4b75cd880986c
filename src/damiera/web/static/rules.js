// Rules pages: draws every diagram with the play page's SVG board (board.js) and wires the
// "Try it" buttons (a friend game from the diagram's position, opened on the play board) and
// "Play this variant" (the ☰ menu's new-game form with the variant chosen).
import { api } from "/static/api.js";
import { drawBoard } from "/static/board.js";
import { openMenu } from "/static/menu.js";

const dataNode = document.getElementById("rules-data");
const data = dataNode ? JSON.parse(dataNode.textContent) : { boards: {}, diagrams: {} };

function drawDiagram(figure) {
  const d = data.diagrams[figure.dataset.diagram];
  if (!d) return;
  const board = data.boards[d.variant];
  const pieces = { ...d.pieces };   // the diagram's position, as the server read its FEN
  const highlights = {};
  const shown = d.shown;
  if (d.from_square) {
    // a piece's whole range: its square and every square it may move to
    highlights.start = d.from_square;
    highlights.targets = d.reach;
  } else if (shown) {
    highlights.start = shown.from;
    highlights.targets = shown.path.slice(1);
    highlights.captured = shown.captures;
    if (d.crowned_piece) {
      // The crowned man, as the server's rules core left it on the square the move ends on.
      pieces[shown.to] = d.crowned_piece;
      highlights.crowned = [shown.to];
    }
  }
  const svg = figure.querySelector("svg");
  drawBoard(svg, { board, pieces, notation: board.notation, highlights });
  svg.setAttribute("role", "img");
}

document.querySelectorAll("figure.diagram").forEach(drawDiagram);

document.querySelectorAll("button.try-it").forEach((button) => {
  button.addEventListener("click", async () => {
    const d = data.diagrams[button.dataset.diagram];
    button.disabled = true;
    try {
      const game = await api("/api/games", { method: "POST", body: {
        variant: d.variant, opponent: "friend", optional_capture: d.optional_capture, fen: d.fen,
      } });
      window.location.assign(`/game/${game.id}`);
    } catch (err) {
      button.disabled = false;
      button.title = err.message;
      console.warn("try it:", err.message);
    }
  });
});

document.querySelectorAll("button.play-variant").forEach((button) => {
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    const select = document.getElementById("ng-variant");
    if (select) {
      select.value = button.dataset.variant;
      select.dispatchEvent(new Event("change"));
    }
    openMenu(true);
  });
});
