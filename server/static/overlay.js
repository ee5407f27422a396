"use strict";
// The 1920x1080 overlay: transparent, styled from the query string; ?board=0 hides the board.
const query = TC.styleFromQuery();
if (query.get("board") === "0") document.querySelector("[data-board-panel]").hidden = true;
TC.follow({
  onState: (state) => TC.draw(document, state),
});
