"use strict";
// One overlay field: its text is the field's .txt twin, fetched again on every event.
TC.styleFromQuery();
const { board, field } = document.body.dataset;
const target = document.querySelector("[data-field-text]");
const txt = `/overlay/${encodeURIComponent(board)}/${encodeURIComponent(field)}.txt`;
let asked = 0;

async function refresh() {
  const mine = ++asked;
  const response = await fetch(txt, { cache: "no-store" });
  if (response.ok && mine === asked) target.textContent = await response.text();
}

TC.follow({ onState: refresh });
