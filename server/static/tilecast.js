"use strict";
// Shared by every page: the board's event stream, drawing a public state, overlay styling
// from the query string, and calls to the JSON API (the login cookie goes along).
const TC = (() => {
  const KINDS = ["snapshot", "session-start", "move", "withdrawn", "record-changed", "clock",
    "game-ended", "session-end"];

  function board() { return document.body.dataset.board; }

  function boardUrl(path) { return `/api/boards/${encodeURIComponent(board())}${path}`; }

  // Calls onState(state) for the snapshot and every event, onStatus("live" | "reconnecting").
  // The browser reconnects and resumes from the last event by itself.
  function follow({ onState, onStatus }) {
    const source = new EventSource(boardUrl("/events"));
    for (const kind of KINDS) {
      source.addEventListener(kind, (ev) => {
        const data = JSON.parse(ev.data);
        onState(kind === "snapshot" ? data : data.state);
      });
    }
    source.onopen = () => onStatus && onStatus("live");
    source.onerror = () => onStatus && onStatus("reconnecting");
    return source;
  }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const sign = seconds < 0 ? "-" : "";
    const s = Math.round(Math.abs(seconds));
    return `${sign}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function setText(root, selector, text) {
    for (const el of root.querySelectorAll(selector)) el.textContent = text;
  }

  function drawGrid(root, state) {
    const last = new Set(state.last_play);
    for (const sq of root.querySelectorAll("[data-sq]")) {
      const name = sq.dataset.sq;
      const col = name.charCodeAt(0) - 65;
      const row = Number(name.slice(1)) - 1;
      const ch = state.rows[row][col];
      const tile = ch !== ".";
      sq.textContent = tile ? ch.toUpperCase() : "";
      sq.classList.toggle("tile", tile);
      sq.classList.toggle("blank", tile && ch !== ch.toUpperCase());
      sq.classList.toggle("last", last.has(name));
    }
  }

  function unseenText(unseen) {
    const groups = [];
    const sorted = [...unseen].sort((a, b) => (a === "?") - (b === "?") || a.localeCompare(b));
    for (const t of sorted) {
      if (groups.length && groups[groups.length - 1][0] === t) groups[groups.length - 1] += t;
      else groups.push(t);
    }
    return groups.join(" ");
  }

  // The game's end as viewers say it; "" while it goes on.
  function resultText(state) {
    const result = state.result;
    if (state.phase === "scoreless") return "Six scoreless turns: the game ends once both racks are entered";
    if (!result) return "";
    if (result.winner === null) return "Game over: a draw";
    const how = result.forfeited !== null && result.forfeited !== undefined ? " (time forfeit)" : "";
    return `Game over: ${state.players[result.winner]} wins by ${result.spread}${how}`;
  }

  // Fill every element of the page that shows part of the state.
  function draw(root, state) {
    for (const grid of root.querySelectorAll("[data-grid]")) drawGrid(grid, state);
    state.players.forEach((name, i) => setText(root, `[data-name="${i}"]`, name));
    state.scores.forEach((score, i) => setText(root, `[data-score="${i}"]`, String(score)));
    for (const el of root.querySelectorAll("[data-player]")) {
      el.classList.toggle("to-move", state.phase === "playing" &&
        Number(el.dataset.player) === state.to_move);
    }
    setText(root, "[data-to-move]", state.players[state.to_move]);
    for (const el of root.querySelectorAll("[data-turn-line]")) el.hidden = state.phase !== "playing";
    (state.clocks || [null, null]).forEach((s, i) => setText(root, `[data-clock="${i}"]`,
      clockText(s)));
    const moves = state.moves;
    const lastMove = moves.length ? moves[moves.length - 1] : null;
    setText(root, "[data-last-play]",
      lastMove ? `${lastMove.name}: ${lastMove.said ?? lastMove.move} ${lastMove.score}` : "");
    setText(root, "[data-unseen]", unseenText(state.unseen));
    setText(root, "[data-unseen-count]", String(state.unseen.length));
    setText(root, "[data-bag]", String(state.bag));
    setText(root, "[data-blanks]",
      state.blanks.map((b) => `${b.square} ${b.letter}`).join(", ") || "none");
    setText(root, "[data-result]", resultText(state));
    for (const body of root.querySelectorAll("[data-moves]")) {
      body.replaceChildren(...moves.map((m, i) => {
        const tr = document.createElement("tr");
        tr.classList.toggle("withdrawn", Boolean(m.withdrawn));
        for (const v of [i + 1, m.name, m.said ?? m.move, m.score, m.total]) {
          const td = document.createElement("td");
          td.textContent = String(v);
          tr.append(td);
        }
        return tr;
      }));
    }
  }

  // Overlay styling from the query string: ?fg=fff&bg=000a&font=Arial&size=48&align=right...
  // Values are checked against narrow patterns and set as CSS custom properties only.
  const STYLE = {
    fg: [/^[0-9a-fA-F]{3,8}$/, (v) => `#${v}`, "--fg"],
    bg: [/^[0-9a-fA-F]{3,8}$|^transparent$/, (v) => (v === "transparent" ? v : `#${v}`), "--panel"],
    accent: [/^[0-9a-fA-F]{3,8}$/, (v) => `#${v}`, "--accent"],
    font: [/^[\w \-]{1,40}$/, (v) => `"${v}", sans-serif`, "--font"],
    size: [/^\d{1,3}$/, (v) => `${v}px`, "--size"],
    weight: [/^[1-9]00$|^bold$|^normal$/, (v) => v, "--weight"],
    align: [/^(left|right|center)$/, (v) => v, "--align"],
    shadow: [/^[01]$/, (v) => (v === "1" ? "0 2px 4px #000c" : "none"), "--shadow"],
  };

  function styleFromQuery() {
    const query = new URLSearchParams(location.search);
    for (const [key, [pattern, value, property]] of Object.entries(STYLE)) {
      const given = query.get(key);
      if (given !== null && pattern.test(given)) {
        document.body.style.setProperty(property, value(given));
      }
    }
    return query;
  }

  async function api(path, { method = "GET", body } = {}) {
    const options = { method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    const data = response.headers.get("Content-Type")?.includes("json")
      ? await response.json() : {};
    if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
    return data;
  }

  return { board, boardUrl, follow, draw, styleFromQuery, api, resultText };
})();
