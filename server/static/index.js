"use strict";
// Boards index: scores and move counts, refreshed every few seconds.
async function refresh() {
  const { boards } = await TC.api("/api/boards");
  for (const b of boards) {
    const row = document.querySelector(`[data-board-row="${CSS.escape(b.name)}"]`);
    if (!row) continue;
    row.querySelector('[data-col="scores"]').textContent = b.scores ? b.scores.join(" - ") : "";
    row.querySelector('[data-col="moves"]').textContent = b.moves ?? "";
  }
}
refresh();
setInterval(refresh, 5000);
