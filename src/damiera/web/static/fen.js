// PDN FEN in the browser, for the analysis board only: its position editor reads and writes a
// FEN box as the user edits (the server checks every position before it is analysed), and its
// variation tree keeps each position as the FEN the server sent. Every other page draws the
// pieces the server sends ("pieces" in the API's JSON).

// Parse a PDN FEN ("W:W21-32,K18:B1-12", "B:Wa1,c1:Bh8") into
// { turn: "white"|"black", pieces: { label: piece } }. Ranges a-b are read for numbers.
export function parseFen(fen) {
  const out = { turn: "white", pieces: {} };
  const text = String(fen || "").trim().replace(/\.$/, "");
  const parts = text.split(":");
  if (parts[0]) out.turn = parts[0].trim().toUpperCase() === "B" ? "black" : "white";
  for (const part of parts.slice(1)) {
    const p = part.trim();
    if (!p) continue;
    const color = p[0].toUpperCase() === "W" ? "white" : "black";
    for (let item of p.slice(1).split(",")) {
      item = item.trim();
      if (!item) continue;
      let king = false;
      if (item[0].toUpperCase() === "K") { king = true; item = item.slice(1); }
      const kind = `${color}-${king ? "king" : "man"}`;
      const range = item.match(/^(\d+)-(\d+)$/);
      if (range) {
        for (let n = Number(range[1]); n <= Number(range[2]); n++) out.pieces[String(n)] = kind;
      } else {
        out.pieces[item.toLowerCase()] = kind;
      }
    }
  }
  return out;
}

// The FEN of `pieces` ({ label: piece }) with `turn` to move, squares in `order` (the
// variant's label order): "W:W21,22,K30:B9,10".
export function writeFen(pieces, turn, order) {
  const side = (color) => order.filter((l) => (pieces[l] || "").startsWith(color))
    .map((l) => (pieces[l].endsWith("king") ? "K" : "") + l).join(",");
  return `${turn === "white" ? "W" : "B"}:W${side("white")}:B${side("black")}`;
}
