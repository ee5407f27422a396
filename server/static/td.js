"use strict";
// TD dashboard: live scores of every board, score discrepancies, open alerts; refreshed often.
const message = document.querySelector("[data-message]");

function cells(row, values) {
  for (const v of values) {
    const td = document.createElement("td");
    if (v instanceof Node) td.append(v); else td.textContent = v ?? "";
    row.append(td);
  }
  return row;
}

function said(value) { return Array.isArray(value) ? value.join(" - ") : String(value ?? ""); }

async function refreshBoards() {
  for (const row of document.querySelectorAll("[data-board-row]")) {
    const name = row.dataset.boardRow;
    const data = await TC.api(`/api/boards/${encodeURIComponent(name)}/record`);
    row.querySelector('[data-col="scores"]').textContent = data.state.scores.join(" - ");
    row.querySelector('[data-col="phase"]').textContent =
      TC.resultText(data.state) || data.state.phase;
    row.querySelector('[data-col="camera"]').textContent = data.camera;
  }
}

async function refreshDiscrepancies() {
  const { discrepancies } = await TC.api("/api/discrepancies");
  document.querySelector("[data-discrepancies] tbody").replaceChildren(...discrepancies.map((d) =>
    cells(document.createElement("tr"), [d.board,
      d.kind === "slip-discrepancy" ? "results slip" : "announced score",
      d.turn === null ? "" : d.turn + 1, d.player === null ? "" : d.player + 1,
      said(d.said), said(d.computed), d.open ? "open" : "acknowledged"])));
}

async function refreshAlerts() {
  const { alerts } = await TC.api("/api/alerts");
  document.querySelector("[data-alerts] tbody").replaceChildren(...alerts.map((a) => {
    const button = document.createElement("button");
    button.textContent = "Acknowledge";
    button.addEventListener("click", async () => {
      try {
        await TC.api(`/api/boards/${encodeURIComponent(a.board)}/alerts/${a.id}/ack`,
          { method: "POST" });
        refresh();
      } catch (err) { message.textContent = err.message; }
    });
    const row = cells(document.createElement("tr"), [a.board, a.id, a.severity, a.kind,
      a.turn === null ? "" : a.turn + 1, a.message, button]);
    row.classList.add(a.severity);
    return row;
  }));
}

for (const form of document.querySelectorAll("[data-delay]")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seconds = Number(form.elements.seconds.value);
    try {
      await TC.api(`/api/boards/${encodeURIComponent(form.dataset.delay)}/delay`,
        { method: "PUT", body: { seconds } });
      message.textContent = `${form.dataset.delay}: broadcast delay ${seconds} s`;
      showDelays();
    } catch (err) { message.textContent = err.message; }
  });
}

async function showDelays() {
  const { boards } = await TC.api("/api/boards");
  for (const b of boards) {
    const form = document.querySelector(`[data-delay="${CSS.escape(b.name)}"]`);
    if (form) form.elements.seconds.placeholder = String(b.delay);
  }
}

async function refresh() {
  try {
    await Promise.all([refreshBoards(), refreshDiscrepancies(), refreshAlerts()]);
  } catch (err) {
    message.textContent = `cannot refresh: ${err.message}`;
  }
}

showDelays();
refresh();
setInterval(refresh, 3000);
