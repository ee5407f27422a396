"use strict";
// Operator console: every form becomes one journal entry (POST .../entries); the record shown
// is the live, undelayed one. Corners are clicked on the camera preview.
const message = document.querySelector("[data-message]");

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
    else if (input.dataset.type === "json") value = JSON.parse(raw);
    if (slot === undefined) entry[name] = value;
    else (entry[name] ||= [])[Number(slot)] = value;
  }
  if (entry.racks && entry.racks.every((r) => r === "")) delete entry.racks;
  return entry;
}

function showRecord(data) {
  TC.draw(document, data.state);
  const status = document.querySelector("[data-camera-status]");
  if (status) status.textContent = data.camera;
  document.querySelector("[data-actions]").replaceChildren(...data.actions.map((a) => {
    const li = document.createElement("li");
    li.textContent = JSON.stringify(a);
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

for (const form of document.querySelectorAll("[data-entry]")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const entry = entryOf(form);
      const data = await TC.api(TC.boardUrl("/entries"), { method: "POST", body: entry });
      showRecord(data);
      say(`recorded ${entry.type} (journal #${data.seq})`, true);
      form.reset();
    } catch (err) {
      say(err.message, false);
    }
  });
}

// --- corners ---------------------------------------------------------------------------
const img = document.querySelector("[data-preview-img]");
if (img) {
  const clicks = document.querySelector("[data-clicks]");
  const note = document.querySelector("[data-corners-note]");
  let picking = null;

  async function frameSize() {
    const { frame } = await TC.api(TC.boardUrl("/corners"));
    return frame || [img.naturalWidth, img.naturalHeight];
  }

  document.querySelector("[data-calibrate]").addEventListener("click", () => {
    picking = [];
    clicks.replaceChildren();
    note.textContent = "click the four corners of the playing area";
  });

  document.querySelector("[data-auto-corners]").addEventListener("click", async () => {
    try {
      await TC.api(TC.boardUrl("/corners"), { method: "PUT", body: { corners: null } });
      note.textContent = "finding the board automatically";
    } catch (err) { say(err.message, false); }
  });

  img.addEventListener("click", async (ev) => {
    if (!picking) return;
    const box = img.getBoundingClientRect();
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.left = `${ev.clientX - box.left}px`;
    dot.style.top = `${ev.clientY - box.top}px`;
    clicks.append(dot);
    picking.push([(ev.clientX - box.left) / box.width, (ev.clientY - box.top) / box.height]);
    if (picking.length < 4) return;
    const [w, h] = await frameSize();
    const corners = picking.map(([x, y]) => [x * w, y * h]);
    picking = null;
    try {
      await TC.api(TC.boardUrl("/corners"), { method: "PUT", body: { corners } });
      note.textContent = "corners saved";
    } catch (err) { say(err.message, false); }
    clicks.replaceChildren();
  });
}

refresh();
setInterval(refresh, 2000);
