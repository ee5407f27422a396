"use strict";
// Operator console: every form becomes one journal entry (POST .../entries); the record shown
// is the live, undelayed one. A click on a square fixes its letter or names its blank; corners
// are clicked on the camera preview.
const message = document.querySelector("[data-message]");
let record = null; // the latest /record answer

function say(text, ok) {
  message.textContent = text;
  message.classList.toggle("error", !ok);
}

function seconds(text) {
  const m = /^(-?)(\d+)(?::([0-5]?\d))?$/.exec(text.trim());
  if (!m) throw new Error(`not a time: ${text} (use mm:ss)`);
  const value = m[3] === undefined ? Number(m[2]) : Number(m[2]) * 60 + Number(m[3]);
  return m[1] ? -value : value;
}

// Form fields to an entry: empty fields are left out, "name.0"/"name.1" make a pair.
function entryOf(form) {
  const entry = { type: form.dataset.entry };
  for (const input of form.querySelectorAll("[name]")) {
    const raw = input.value.trim();
    const [name, slot] = input.name.split(".");
    if (raw === "" && slot === undefined) continue;
    let value = "upper" in input.dataset ? raw.toUpperCase() : raw;
    if (input.type === "number") value = Number(raw);
    else if (input.dataset.type === "bool") value = raw === "true";
    else if (input.dataset.type === "int") value = Number(raw);
    else if (input.dataset.type === "clock") value = seconds(raw);
    else if (input.dataset.type === "action") value = actionOf(raw);
    if (slot === undefined) entry[name] = value;
    else (entry[name] ||= [])[Number(slot)] = value;
  }
  if (entry.racks && entry.racks.every((r) => r === "")) delete entry.racks;
  return entry;
}

// An action as the operator says it: "play 8D WINDY", "exchange AEI", "pass"... and any
// other field as a name and its value ("challenge words 2", "end racks AE/QU").
const SAID_FIRST = { play: ["coord", "word"], exchange: ["tiles"] };

function actionText(a) {
  const first = SAID_FIRST[a.type] || [];
  const rest = Object.entries(a).filter(([k]) => k !== "type" && !first.includes(k))
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join("/") : v}`);
  return [a.type, ...first.map((k) => a[k]), ...rest].filter((v) => v !== undefined).join(" ");
}

// The action the operator wrote (actionText's form read back): a field's value is a number,
// true or false, a list of racks split at "/", or else the text as written.
function actionOf(text) {
  const words = text.trim().split(/\s+/);
  const type = words.shift();
  const first = SAID_FIRST[type] || [];
  const wrong = `the new action is not written right: "${text}" (write it as the list ` +
    `shows actions, e.g. "play 8D WINDY", "exchange AEI", "pass", "challenge words 2")`;
  const known = ["play", "pass", "exchange", "withdraw", "challenge", "time", "end"];
  if (!known.includes(type) || words.length < first.length
      || (words.length - first.length) % 2) throw new Error(wrong);
  const action = { type };
  const value = (name, raw) => {
    if (/^-?\d+$/.test(raw)) return Number(raw);
    if (raw === "true" || raw === "false") return raw === "true";
    return name === "racks" ? raw.toUpperCase().split("/") : raw;
  };
  for (const name of first) action[name] = value(name, words.shift());
  while (words.length) {
    const name = words.shift();
    action[name] = value(name, words.shift());
  }
  return action;
}

function showRecord(data) {
  record = data;
  TC.setServerTime(data.now);
  TC.draw(document, data.state);
  const status = document.querySelector("[data-camera-status]");
  if (status) status.textContent = data.camera;
  document.querySelector("[data-actions]").replaceChildren(...data.actions.map((a, i) => {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = actionText(a);
    const edit = document.createElement("button");
    edit.type = "button";
    edit.textContent = "Edit";
    edit.setAttribute("aria-label", `edit action ${i}`);
    edit.addEventListener("click", () => {
      const form = document.querySelector('[data-entry="correct"]');
      form.elements.op.value = "replace";
      form.elements.index.value = String(i);
      form.elements.action.value = actionText(a);
      form.elements.action.focus();
    });
    li.append(text, " ", edit);
    return li;
  }));
}

async function refresh() {
  try {
    showRecord(await TC.api(TC.boardUrl("/record")));
  } catch (err) {
    say(`cannot read the record: ${err.message}`, false);
  }
}

async function send(entry, what) {
  const data = await TC.api(TC.boardUrl("/entries"), { method: "POST", body: entry });
  showRecord(data);
  say(`recorded ${what || entry.type} (journal #${data.seq})`, true);
}

// A form with data-confirm asks once more, on its own button, before it is sent.
function confirmed(form) {
  if (!form.dataset.confirm || form.dataset.armed) return true;
  const button = form.querySelector("button");
  form.dataset.armed = "1";
  button.dataset.label = button.textContent;
  button.textContent = "Click again to confirm";
  say(form.dataset.confirm, true);
  setTimeout(() => disarm(form), 6000);
  return false;
}

function disarm(form) {
  if (!form.dataset.armed) return;
  delete form.dataset.armed;
  const button = form.querySelector("button");
  button.textContent = button.dataset.label;
}

for (const form of document.querySelectorAll("[data-entry]")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!confirmed(form)) return;
    disarm(form);
    try {
      await send(entryOf(form));
      form.reset();
    } catch (err) {
      say(err.message, false);
    }
  });
}

// --- undo -------------------------------------------------------------------------------
const undo = document.querySelector("[data-undo]");
undo.addEventListener("click", async () => {
  if (!record || record.actions.length === 0) { say("there is nothing to undo", false); return; }
  const index = record.actions.length - 1;
  if (!undo.dataset.armed) {
    undo.dataset.armed = "1";
    undo.textContent = `Click again to take back: ${actionText(record.actions[index])}`;
    setTimeout(() => { delete undo.dataset.armed; undo.textContent = "Undo the last action"; }, 6000);
    return;
  }
  delete undo.dataset.armed;
  undo.textContent = "Undo the last action";
  try {
    await send({ type: "correct", op: "delete", index, reason: "undone by the operator" },
      `undo of action ${index}`);
  } catch (err) { say(err.message, false); }
});

// --- a click on a square ----------------------------------------------------------------
const panel = document.querySelector("[data-square-panel]");
const what = panel.querySelector("[data-square-what]");
let clicked = null; // {square, index, at, blank}

function playAt(square) {
  if (!record) return null;
  for (let i = record.actions.length - 1; i >= 0; i--) {
    const at = record.placed[i][square];
    if (at !== undefined) return { index: i, at };
  }
  return null;
}

document.querySelector("[data-grid]").addEventListener("click", (ev) => {
  const sq = ev.target.closest("[data-sq]");
  if (!sq) return;
  const square = sq.dataset.sq;
  const found = playAt(square);
  if (!sq.classList.contains("tile") || !found) {
    const form = document.querySelector('[data-entry="play"]');
    form.elements.coord.value = square.slice(1) + square[0]; // across from here
    form.elements.word.focus();
    say(`play from ${square}: type the word (write the place as ${square} to read down)`, true);
    return;
  }
  const blank = sq.classList.contains("blank");
  clicked = { square, blank, ...found };
  what.textContent = blank
    ? `${square}: a blank, now ${sq.textContent}. Which letter does it stand for?`
    : `${square}: ${sq.textContent}, from action ${found.index}. Which letter is it really?`;
  panel.querySelector("[data-square-do]").textContent = blank ? "Name the blank" : "Fix the letter";
  panel.hidden = false;
  panel.elements.letter.value = "";
  panel.elements.letter.focus();
});

panel.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const letter = panel.elements.letter.value.trim();
  if (!/^[A-Za-z]$/.test(letter) || !clicked) { say("type one letter", false); return; }
  const action = record.actions[clicked.index];
  const word = [...action.word];
  word[clicked.at] = clicked.blank ? letter.toLowerCase() : letter.toUpperCase();
  const fixed = word.join("");
  try {
    if (clicked.blank) {
      const letters = word.filter((ch) => ch !== "." && ch === ch.toLowerCase()).join("");
      await send({ type: "blank", index: clicked.index, letters: letters.toUpperCase() },
        `blank at ${clicked.square} as ${letter.toUpperCase()}`);
    } else {
      await send({ type: "correct", op: "replace", index: clicked.index,
        action: { ...action, word: fixed }, reason: `${clicked.square} is ${letter.toUpperCase()}` },
      `${clicked.square} fixed to ${letter.toUpperCase()}`);
    }
    panel.hidden = true;
  } catch (err) { say(err.message, false); }
});
panel.querySelector("[data-square-close]").addEventListener("click", () => { panel.hidden = true; });

// --- keyboard shortcuts -----------------------------------------------------------------
const KEYS = { p: "#play-coord", x: "#ex-tiles", c: "#ch-valid", k: "#cl-left" };
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { panel.hidden = true; return; }
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.closest("input, select, textarea")) return;
  if (KEYS[ev.key]) { ev.preventDefault(); document.querySelector(KEYS[ev.key]).focus(); }
  else if (ev.key === "u") { ev.preventDefault(); undo.click(); }
});

// --- corners ---------------------------------------------------------------------------
const img = document.querySelector("[data-preview-img]");
if (img) {
  const clicks = document.querySelector("[data-clicks]");
  const note = document.querySelector("[data-corners-note]");
  const undoCorner = document.querySelector("[data-undo-corner]");
  const save = document.querySelector("[data-save-corners]");
  let picking = null;

  function showPicks() {
    clicks.replaceChildren(...(picking || []).map(([x, y], i) => {
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.textContent = String(i + 1);
      dot.style.left = `${x * 100}%`;
      dot.style.top = `${y * 100}%`;
      return dot;
    }));
    undoCorner.disabled = !picking || picking.length === 0;
    save.disabled = !picking || picking.length !== 4;
    if (picking) {
      note.textContent = picking.length < 4
        ? `corner ${picking.length + 1} of 4: click the corners in any order (1A is read from the tiles)`
        : "four corners: save them, or undo a click";
    }
  }

  async function frameSize() {
    const { frame } = await TC.api(TC.boardUrl("/corners"));
    return frame || [img.naturalWidth, img.naturalHeight];
  }

  document.querySelector("[data-calibrate]").addEventListener("click", () => {
    picking = [];
    showPicks();
  });
  undoCorner.addEventListener("click", () => { picking.pop(); showPicks(); });

  document.querySelector("[data-auto-corners]").addEventListener("click", async () => {
    try {
      await TC.api(TC.boardUrl("/corners"), { method: "PUT", body: { corners: null } });
      picking = null;
      showPicks();
      note.textContent = "finding the board automatically";
    } catch (err) { say(err.message, false); }
  });

  img.addEventListener("click", (ev) => {
    if (!picking || picking.length >= 4) return;
    const box = img.getBoundingClientRect();
    picking.push([(ev.clientX - box.left) / box.width, (ev.clientY - box.top) / box.height]);
    showPicks();
  });

  save.addEventListener("click", async () => {
    const [w, h] = await frameSize();
    const corners = picking.map(([x, y]) => [x * w, y * h]);
    try {
      await TC.api(TC.boardUrl("/corners"), { method: "PUT", body: { corners } });
      picking = null;
      showPicks();
      note.textContent = "corners saved";
    } catch (err) { say(err.message, false); }
  });
}

refresh();
setInterval(refresh, 2000);
