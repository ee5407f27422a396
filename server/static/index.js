"use strict";
// Boards index: scores and how each game stands, live from the event-wide stream.
TC.followAll({
  onState: (state) => {
    const row = document.querySelector(`[data-board-row="${CSS.escape(state.board)}"]`);
    if (!row) return;
    row.querySelector('[data-col="scores"]').textContent = state.scores.join(" - ");
    row.querySelector('[data-col="phase"]').textContent = TC.resultText(state) ||
      (state.phase === "playing" ? `move ${state.moves.length + 1}, ${state.players[state.to_move]} to play`
        : state.phase);
  },
  onStatus: (status) => { document.querySelector("[data-status]").textContent = status; },
});
