"use strict";
// TD dashboard: every board's live (undelayed) score, clocks, game and open alerts, the
// alerts themselves and score discrepancies, and every board in small; refreshed often.
const message = document.querySelector("[data-message]");
const players = {}; // board -> its two names, from its state

function cells(row, values, labels) {
  values.forEach((v, i) => {
    const td = document.createElement("td");
    if (labels) td.dataset.label = labels[i];
    if (v instanceof Node) td.append(v); else td.textContent = v ?? "";
    row.append(td);
  });
  return row;
}

function labelsOf(table) {
  return [...document.querySelectorAll(`${table} thead th`)].map((th) => th.textContent);
}

function said(value) { return Array.isArray(value) ? value.join(" - ") : String(value ?? ""); }

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleTimeString([], { hour12: false }) : "";
}

function who(board, player) {
  if (player === null || player === undefined) return "";
  return (players[board] || [])[player] ?? String(player + 1);
}

async function refreshBoards(openByBoard) {
  for (const row of document.querySelectorAll("[data-board-row]")) {
    const name = row.dataset.boardRow;
    const data = await TC.api(`/api/boards/${encodeURIComponent(name)}/record`);
    TC.setServerTime(data.now);
    players[name] = data.state.players;
    row.querySelector('[data-col="scores"]').textContent = data.state.scores.join(" - ");
    row.querySelector('[data-col="phase"]').textContent =
      TC.resultText(data.state) || `${data.state.phase}, move ${data.state.moves.length + 1}`;
    row.querySelector('[data-col="camera"]').textContent = data.camera;
    const count = openByBoard[name] || 0;
    const cell = row.querySelector('[data-col="alerts"]');
    cell.textContent = String(count);
    cell.classList.toggle("alerting", count > 0);
    TC.draw(row, data.state, { grid: false });
    const card = document.querySelector(`[data-card="${CSS.escape(name)}"]`);
    if (card) {
      TC.draw(card, data.state);
      const flag = card.querySelector("[data-alert-count]");
      flag.hidden = count === 0;
      flag.textContent = `${count} alert${count === 1 ? "" : "s"}`;
      card.classList.toggle("alerting", count > 0);
    }
  }
}

async function refreshDiscrepancies() {
  const { discrepancies } = await TC.api("/api/discrepancies");
  const labels = labelsOf("[data-discrepancies]");
  document.querySelector("[data-discrepancies] tbody").replaceChildren(...discrepancies.map((d) =>
    cells(document.createElement("tr"), [d.board,
      d.kind === "slip-discrepancy" ? "results slip" : "announced score",
      d.turn === null ? "" : d.turn + 1, who(d.board, d.player),
      said(d.said), said(d.computed), d.open ? "open" : "acknowledged"], labels)));
}

function showAlerts(alerts) {
  const labels = labelsOf("[data-alerts]");
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
    const row = cells(document.createElement("tr"), [a.board, a.id, when(a.logged), a.severity,
      a.kind, a.turn === null || a.turn === undefined ? "" : a.turn + 1, a.message, button],
    labels);
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
    const { alerts } = await TC.api("/api/alerts");
    const openByBoard = {};
    for (const a of alerts) openByBoard[a.board] = (openByBoard[a.board] || 0) + 1;
    await refreshBoards(openByBoard);
    showAlerts(alerts);
    await refreshDiscrepancies();
  } catch (err) {
    message.textContent = `cannot refresh: ${err.message}`;
  }
}

showDelays();
refresh();
setInterval(refresh, 3000);
