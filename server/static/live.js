"use strict";
// The live board page: everything comes from the board's event stream. The replay bar shows
// the board after any move (the positions come from the server, as far as it has released).
const grid = document.querySelector("[data-grid]");
const scrub = document.querySelector("[data-scrub]");
const at = document.querySelector("[data-replay-at]");
let live = null;       // the latest state
let replay = null;     // the positions, fetched when the viewer steps back
let shown = null;      // the position shown, or null for live

function showLive() {
  shown = null;
  if (!live) return;
  TC.drawGrid(grid, live.rows, live.last_play, live.values);
  scrub.max = String(live.moves.length);
  scrub.value = scrub.max;
  at.textContent = "live";
  markRow(null);
}

function markRow(n) {
  for (const tr of document.querySelectorAll("[data-moves] tr")) {
    tr.classList.toggle("shown", Number(tr.dataset.move) === n);
  }
}

async function show(n) {
  if (!live) return;
  if (n >= live.moves.length) { showLive(); return; }
  if (!replay || replay.positions.length !== live.moves.length + 1) {
    replay = await TC.api(TC.boardUrl("/replay"));
  }
  n = Math.max(0, Math.min(n, replay.positions.length - 1));
  if (n === replay.positions.length - 1) { showLive(); return; }
  shown = n;
  const p = replay.positions[n];
  TC.drawGrid(grid, p.rows, p.placed, live.values);
  scrub.max = String(replay.positions.length - 1);
  scrub.value = String(n);
  const move = replay.moves[n - 1];
  at.textContent = n === 0 ? `start of the game (${p.scores.join(" - ")})`
    : `after move ${n}: ${move.name} ${move.said} (${p.scores.join(" - ")})`;
  markRow(n);
}

function step(how) {
  const now = shown === null ? (live ? live.moves.length : 0) : shown;
  if (how === "first") show(0);
  else if (how === "back") show(now - 1);
  else if (how === "forward") show(now + 1);
  else showLive();
}

for (const button of document.querySelectorAll("[data-step]")) {
  button.addEventListener("click", () => step(button.dataset.step));
}
scrub.addEventListener("input", () => show(Number(scrub.value)));
document.querySelector("[data-moves]").addEventListener("click", (ev) => {
  const tr = ev.target.closest("tr[data-move]");
  if (tr) show(Number(tr.dataset.move));
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return;
  const how = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "live" }[ev.key];
  if (how) { ev.preventDefault(); step(how); }
});

TC.follow({
  onState: (state) => {
    live = state;
    TC.draw(document, state, { grid: false });
    if (shown === null) showLive(); else markRow(shown);
  },
  onStatus: (status) => { document.querySelector("[data-status]").textContent = status; },
});
