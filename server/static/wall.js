"use strict";
// Every board of the event in small, live from the event-wide stream (public: no alerts).
TC.followAll({
  onState: (state) => {
    const card = document.querySelector(`[data-card="${CSS.escape(state.board)}"]`);
    if (card) TC.draw(card, state);
  },
  onStatus: (status) => { document.querySelector("[data-status]").textContent = status; },
});
