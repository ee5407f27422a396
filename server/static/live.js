"use strict";
// The live board page: everything comes from the board's event stream.
TC.follow({
  onState: (state) => TC.draw(document, state),
  onStatus: (status) => { document.querySelector("[data-status]").textContent = status; },
});
