"use strict";
// Shared by every page: the event streams, drawing a public state (running clocks included),
// overlay styling from the query string, and calls to the JSON API (the login cookie goes along).
const TC = (() => {
  const KINDS = ["snapshot", "session-start", "move", "withdrawn", "record-changed", "clock",
    "game-ended", "session-end"];
  const RETRY_MS = 5000; // after a refused stream (503), as the server's Retry-After says
  let serverOffset = 0; // server time minus this browser's, in seconds

  function board() { return document.body.dataset.board; }

  function boardUrl(path) { return `/api/boards/${encodeURIComponent(board())}${path}`; }

  // An event stream that calls onEvent(kind, data) and onStatus("live" | "reconnecting").
  // The browser resumes a dropped stream by itself; one it gave up on (a 503 when every slot
  // is taken) is opened again here, resuming from the last event seen.
  function stream(url, onEvent, onStatus) {
    let last = "";
    function open() {
      const full = last ? `${url}${url.includes("?") ? "&" : "?"}after=${last}` : url;
      const source = new EventSource(full);
      source.addEventListener("server-time", (ev) => {
        serverOffset = Number(ev.data) - Date.now() / 1000;
      });
      for (const kind of KINDS) {
        source.addEventListener(kind, (ev) => {
          if (ev.lastEventId) last = ev.lastEventId;
          onEvent(kind, JSON.parse(ev.data));
        });
      }
      source.onopen = () => onStatus && onStatus("live");
      source.onerror = () => {
        onStatus && onStatus("reconnecting");
        if (source.readyState === EventSource.CLOSED) {
          setTimeout(open, RETRY_MS * (0.5 + Math.random()));
        }
      };
    }
    open();
  }

  // One board's states: onState(state) for the snapshot and every event.
  function follow({ onState, onStatus }) {
    stream(boardUrl("/events"), (kind, data) => onState(kind === "snapshot" ? data : data.state),
      (status) => {
        document.body.classList.toggle("stale", status !== "live");
        onStatus && onStatus(status);
      });
  }

  // Every board's states on one stream: onState(state), each naming its board.
  function followAll({ onState, onStatus }) {
    stream("/api/events", (kind, data) => onState(kind === "snapshot" ? data : data.state),
      onStatus);
  }

  function setServerTime(now) { serverOffset = now - Date.now() / 1000; }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const sign = seconds < 0 ? "-" : "";
    const s = Math.abs(seconds) < 0.5 ? 0 : Math.ceil(Math.abs(seconds) - 0.5);
    return `${sign}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // Seconds left per player now: the running side counts down from the state's clock.
  function clocksNow(state) {
    const clock = state.clock;
    if (!clock) return state.clocks || [null, null];
    const elapsed = Math.max(0, Date.now() / 1000 + serverOffset - clock.at);
    return clock.left.map((left, i) =>
      left === null ? null : (i === clock.running ? left - elapsed : left));
  }

  function drawClocks(root, state) {
    const running = state.clock ? state.clock.running : null;
    clocksNow(state).forEach((s, i) => {
      for (const el of root.querySelectorAll(`[data-clock="${i}"]`)) {
        el.textContent = s === null ? "" : (s < 0 ? `${clockText(s)} overtime` : clockText(s));
        el.classList.toggle("overtime", s !== null && s < 0);
        el.classList.toggle("running", i === running);
      }
    });
  }

  // Pages that show clocks redraw them every 200 ms from the latest state.
  const ticking = new Map();
  setInterval(() => { for (const [root, state] of ticking) drawClocks(root, state); }, 200);

  function setText(root, selector, text) {
    for (const el of root.querySelectorAll(selector)) el.textContent = text;
  }

  // The board: `rows` as Board.rows() gives them, `placed` the squares to mark as the last play.
  function drawGrid(grid, rows, placed, values) {
    const last = new Set(placed);
    for (const sq of grid.querySelectorAll("[data-sq]")) {
      const name = sq.dataset.sq;
      const ch = rows[Number(name.slice(1)) - 1][name.charCodeAt(0) - 65];
      const tile = ch !== ".";
      const blank = tile && ch !== ch.toUpperCase();
      const letter = tile ? ch.toUpperCase() : "";
      if (sq.dataset.shown !== ch) {
        sq.dataset.shown = ch;
        sq.replaceChildren();
        if (tile) {
          const face = document.createElement("span");
          face.className = "ltr";
          face.textContent = letter;
          sq.append(face);
          if (!blank && values && values[letter]) {
            const pts = document.createElement("span");
            pts.className = values[letter] >= 10 ? "pts wide" : "pts";
            pts.textContent = String(values[letter]);
            sq.append(pts);
          }
        }
      }
      sq.classList.toggle("tile", tile);
      sq.classList.toggle("blank", blank);
      sq.classList.toggle("last", last.has(name));
      sq.setAttribute("aria-label", tile ? `${name} ${letter}${blank ? " (blank)" : ""}` : name);
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

  function moveText(m) { return m ? `${m.name}: ${m.said ?? m.move} ${m.score}` : ""; }

  // Fill every element of the page (or of one board's card) that shows part of the state.
  function draw(root, state, { grid = true } = {}) {
    if (grid) {
      for (const g of root.querySelectorAll("[data-grid]")) {
        drawGrid(g, state.rows, state.last_play, state.values);
      }
    }
    state.players.forEach((name, i) => setText(root, `[data-name="${i}"]`, name));
    state.scores.forEach((score, i) => setText(root, `[data-score="${i}"]`, String(score)));
    const playing = state.phase === "playing";
    for (const el of root.querySelectorAll("[data-player]")) {
      const mine = playing && Number(el.dataset.player) === state.to_move;
      el.classList.toggle("to-move", mine);
      const mark = el.querySelector("[data-turn-mark]");
      if (mark) mark.textContent = mine ? "to move" : "";
    }
    setText(root, "[data-to-move]", state.players[state.to_move]);
    for (const el of root.querySelectorAll("[data-turn-line]")) el.hidden = !playing;
    ticking.set(root, state);
    drawClocks(root, state);
    const moves = state.moves;
    setText(root, "[data-last-play]", moveText(moves[moves.length - 1]));
    setText(root, "[data-unseen]", unseenText(state.unseen));
    setText(root, "[data-unseen-count]", String(state.unseen.length));
    setText(root, "[data-bag]", String(state.bag));
    setText(root, "[data-blanks]",
      state.blanks.map((b) => `${b.square} ${b.letter}`).join(", ") || "none");
    setText(root, "[data-phase]", resultText(state) || (playing ? `${moves.length} moves` : state.phase));
    setText(root, "[data-result]", resultText(state));
    for (const body of root.querySelectorAll("[data-moves]")) drawMoves(body, moves);
  }

  // The move list: one row a move, said in words; a withdrawn phony struck out.
  function drawMoves(body, moves) {
    body.replaceChildren(...moves.map((m, i) => {
      const tr = document.createElement("tr");
      tr.dataset.move = String(i + 1);
      tr.classList.toggle("withdrawn", Boolean(m.withdrawn));
      for (const v of [i + 1, m.name, m.said ?? m.move, m.score, m.total]) {
        const td = document.createElement("td");
        td.textContent = String(v);
        tr.append(td);
      }
      return tr;
    }));
    const box = body.closest("[data-scroll-end]");
    if (box) box.scrollTop = box.scrollHeight;
  }

  // Overlay styling from the query string: ?fg=fff&bg=000a&font=Arial&size=48&align=right...
  // Values are checked against narrow patterns and set as CSS custom properties only;
  // ?preset=dark (light text, for dark scenes) or light (dark text, for light scenes).
  const STYLE = {
    fg: [/^[0-9a-fA-F]{3,8}$/, (v) => `#${v}`, "--fg"],
    bg: [/^[0-9a-fA-F]{3,8}$|^transparent$/, (v) => (v === "transparent" ? v : `#${v}`), "--panel"],
    accent: [/^[0-9a-fA-F]{3,8}$/, (v) => `#${v}`, "--accent"],
    font: [/^[\w \-]{1,40}$/, (v) => `"${v}", sans-serif`, "--font"],
    size: [/^\d{1,3}$/, (v) => `${v}px`, "--size"],
    weight: [/^[1-9]00$|^bold$|^normal$/, (v) => v, "--weight"],
    align: [/^(left|right|center)$/, (v) => v, "--align"],
    shadow: [/^[01]$/, (v) => (v === "1" ? "var(--outline)" : "none"), "--shadow"],
  };

  function styleFromQuery() {
    const query = new URLSearchParams(location.search);
    const preset = query.get("preset");
    if (preset === "light" || preset === "dark") document.body.classList.add(`preset-${preset}`);
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

  return { board, boardUrl, follow, followAll, draw, drawGrid, styleFromQuery, api, resultText,
    setServerTime, clockText };
})();
