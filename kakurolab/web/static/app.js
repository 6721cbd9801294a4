// Kakuro Master in the browser: pages, the live connection, input, panels.
// The server (and behind it the game engine) decides everything: this file only sends moves
// and draws the views it gets back.  Undo/redo are inverse moves sent like any other.
import { drawBoard, hitTest, runIndex, runsOf } from "./board.js";

const $ = (sel) => document.querySelector(sel);
const store = {
  get(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch { return fallback; }
  },
  set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ } },
};

const ui = {
  player: store.get("kakuro.player", `Player${Math.floor(100 + Math.random() * 900)}`),
  games: store.get("kakuro.games", {}),   // game id -> {token, mode, size}
  combos: null,                           // "len,sum" -> [[digits]]
  game: null,                             // the game page's state, see openGame
};
store.set("kakuro.player", ui.player);

// --- theme, remembered per player ------------------------------------------------------------
const themeKey = () => `kakuro.theme.${ui.player}`;
function applyTheme() {
  const theme = store.get(themeKey(), "slate");
  document.documentElement.dataset.theme = theme === "parchment" ? "parchment" : "slate";
}
$("#theme-toggle").addEventListener("click", () => {
  const next = document.documentElement.dataset.theme === "slate" ? "parchment" : "slate";
  store.set(themeKey(), next);
  applyTheme();
});
const nameInput = $("#player-name");
nameInput.value = ui.player;
nameInput.addEventListener("change", () => {
  const name = nameInput.value.trim().slice(0, 24);
  if (!name) { nameInput.value = ui.player; return; }
  ui.player = name;
  store.set("kakuro.player", name);
  applyTheme();
});
applyTheme();

// --- HTTP ------------------------------------------------------------------------------------
async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

function remember(game) {
  ui.games[game.game_id] = { token: game.token, mode: game.mode, size: game.size || "", created: Date.now() };
  store.set("kakuro.games", ui.games);
}

// --- pages -----------------------------------------------------------------------------------
function show(page) {
  for (const el of document.querySelectorAll(".page")) el.hidden = el.id !== `page-${page}`;
}

async function route() {
  const hash = location.hash || "#/";
  const parts = hash.slice(2).split("/");
  if (ui.game && !(parts[0] === "game" && parts[1] === ui.game.id)) closeGame();
  if (parts[0] === "game" && parts[1]) return openGame(decodeURIComponent(parts[1]));
  if (parts[0] === "join" && parts[1]) return joinRoom(decodeURIComponent(parts[1]));
  if (parts[0] === "calendar") return showCalendar();
  return showHome();
}
window.addEventListener("hashchange", route);

function showHome() {
  show("home");
  const list = $("#my-games ul");
  list.innerHTML = "";
  const ids = Object.keys(ui.games).sort((a, b) => (ui.games[b].created || 0) - (ui.games[a].created || 0));
  for (const id of ids.slice(0, 10)) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#/game/${encodeURIComponent(id)}`;
    a.textContent = `${ui.games[id].mode} ${ui.games[id].size} · ${id}`;
    li.append(a);
    list.append(li);
  }
}

const newForm = $("#new-game");
function syncPlayersField() {
  const mode = newForm.mode.value;
  newForm.querySelector(".players-field").hidden = mode !== "arena";
}
newForm.mode.addEventListener("change", syncPlayersField);
syncPlayersField();
newForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const mode = newForm.mode.value;
  const body = {
    mode, size: newForm.size.value, difficulty: newForm.difficulty.value, name: ui.player,
    players: mode === "battle" ? 2 : mode === "arena" ? Number(newForm.players.value) : 1,
    permanent: newForm.permanent.checked,
  };
  try {
    const game = await api("POST", "/api/games", body);
    remember({ ...game, mode, size: body.size });
    location.hash = `#/game/${encodeURIComponent(game.game_id)}`;
  } catch (err) { alert(err.message); }
});

const joinForm = $("#join-game");
joinForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const code = joinForm.code.value.trim();
  if (code) location.hash = `#/join/${encodeURIComponent(code)}`;
});

async function joinRoom(code) {
  try {
    const game = await api("POST", "/api/join", { code, name: ui.player });
    remember(game);
    location.replace(`#/game/${encodeURIComponent(game.game_id)}`);
  } catch (err) {
    alert(err.message);
    location.replace("#/");
  }
}

async function showCalendar() {
  show("calendar");
  const week = $("#week");
  week.innerHTML = "";
  let data;
  try { data = await api("GET", `/api/calendar?name=${encodeURIComponent(ui.player)}`); }
  catch (err) { week.textContent = err.message; return; }
  $("#streak").textContent = data.streak;
  $("#best-streak").textContent = data.best_streak;
  for (const day of data.week) {
    const li = document.createElement("li");
    li.className = `${day.today ? "today" : ""} ${day.solved ? "done" : ""}`;
    const b = document.createElement("button");
    b.textContent = `${day.weekday} ${day.date}`;
    b.disabled = !day.playable;
    b.dataset.date = day.date;
    b.addEventListener("click", async () => {
      try {
        const game = await api("POST", "/api/games", { mode: "calendar", date: day.date, name: ui.player });
        remember({ ...game, mode: "calendar", size: day.size });
        location.hash = `#/game/${encodeURIComponent(game.game_id)}`;
      } catch (err) { alert(err.message); }
    });
    const info = document.createElement("div");
    info.textContent = `${day.size} ${day.difficulty}`;
    li.append(b, info);
    week.append(li);
  }
}

// --- the game page ---------------------------------------------------------------------------
function openGame(id) {
  show("game");
  const saved = ui.games[id];
  if (!saved) { $("#message").textContent = "No token for this game in this browser."; return; }
  if (ui.game && ui.game.id === id) return;
  ui.game = {
    id, token: saved.token, view: null, puzzle: null, runs: [], index: new Map(),
    selected: null, selectedClue: null, dir: "a", pencil: false, showErrors: false,
    undo: [], redo: [], pending: new Map(), nextId: 1, ws: null, hinted: new Set(),
    clockBase: 0, clockAt: 0, closed: false, local: new Map(),
  };
  connect(ui.game);
  loadCombos();
}

function closeGame() {
  if (!ui.game) return;
  ui.game.closed = true;
  if (ui.game.ws) ui.game.ws.close();
  ui.game = null;
}

async function loadCombos() {
  if (ui.combos) return;
  try { ui.combos = (await api("GET", "/api/combos")).combos; } catch { ui.combos = {}; }
  if (ui.game) render(ui.game);
}

function connect(g) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  g.ws = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", game: g.id, token: g.token })));
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    onMessage(g, msg);
  });
  ws.addEventListener("close", () => {
    if (!g.closed) setTimeout(() => { if (!g.closed) connect(g); }, 1000);
  });
}

function onMessage(g, msg) {
  if (msg.view) setView(g, msg.view);
  if (msg.type === "ack" || msg.type === "error") {
    const pending = g.pending.get(msg.id);
    g.pending.delete(msg.id);
    if (msg.type === "error") {
      say(msg.error);
      if (pending && pending.onError) pending.onError();
    } else {
      if (pending && pending.onAck) pending.onAck(msg);
      if (msg.result) showResult(g, msg.result);
    }
  } else if (msg.type === "fatal") {
    say(msg.error);
  }
  document.body.dataset.pending = String(g.pending.size);
}

function say(text) { $("#message").textContent = text || ""; }

function setView(g, view) {
  const first = !g.puzzle;
  g.view = view;
  if (first || g.puzzle.id !== view.puzzle.id) {
    g.puzzle = view.puzzle;
    g.runs = runsOf(view.puzzle);
    g.index = runIndex(g.runs);
    const firstWhite = g.runs.length ? g.runs[0].cells[0] : null;
    if (firstWhite && !g.selected) g.selected = `${firstWhite[0]},${firstWhite[1]}`;
  }
  if (!g.pending.size) g.local = entriesOf(view);
  g.clockBase = view.game.clock.elapsed_s;
  g.clockAt = performance.now();
  document.body.dataset.event = String(view.event);
  document.body.dataset.status = view.game.status;
  render(g);
}

function send(g, move, handlers = {}) {
  if (!g.ws || g.ws.readyState !== WebSocket.OPEN) { say("Not connected"); return; }
  // what the board will hold once the server has taken this move (inverses are computed
  // against it, so fast typing ahead of the acks still undoes correctly)
  const key = move.cell ? `${move.cell[0]},${move.cell[1]}` : null;
  if (move.kind === "place") g.local.set(key, move.digit);
  else if (move.kind === "erase") g.local.delete(key);
  const id = g.nextId++;
  g.pending.set(id, handlers);
  document.body.dataset.pending = String(g.pending.size);
  g.ws.send(JSON.stringify({ type: "move", id, move }));
}

const cellOf = (key) => key.split(",").map(Number);
const entriesOf = (view) => new Map(view.board.entries.map(([r, c, d]) => [`${r},${c}`, d]));

/** A move made by the player, remembered with its inverse for undo. */
function play(g, move, inverse) {
  send(g, move, {
    onAck: () => {
      if (inverse) { g.undo.push({ move, inverse }); g.redo = []; }
    },
  });
}

function place(g, digit) {
  if (!g.selected) return;
  const cell = cellOf(g.selected);
  const before = g.local.get(g.selected);
  const mark = g.pencil || g.shiftDigit;
  if (mark) {
    if (before) return;
    const move = { kind: "mark", cell, digit };
    play(g, move, move);
    return;
  }
  const move = { kind: "place", cell, digit };
  const inverse = before ? { kind: "place", cell, digit: before } : { kind: "erase", cell };
  play(g, move, inverse);
}

function erase(g) {
  if (!g.selected) return;
  const cell = cellOf(g.selected);
  const before = g.local.get(g.selected);
  if (!before) return;
  play(g, { kind: "erase", cell }, { kind: "place", cell, digit: before });
}

function undo(g) {
  const step = g.undo.pop();
  if (!step) return;
  send(g, step.inverse, { onAck: () => g.redo.push(step), onError: () => g.undo.push(step) });
}

function redo(g) {
  const step = g.redo.pop();
  if (!step) return;
  send(g, step.move, { onAck: () => g.undo.push(step), onError: () => g.redo.push(step) });
}

function selectedRun(g) {
  if (g.selectedClue) {
    const [r, c] = cellOf(g.selectedClue);
    return g.runs.find((run) => run.clue[0] === r && run.clue[1] === c && run.dir === g.dir)
      || g.runs.find((run) => run.clue[0] === r && run.clue[1] === c);
  }
  if (!g.selected) return null;
  const both = g.index.get(g.selected) || {};
  return both[g.dir] || both.a || both.d || null;
}

function useShield(g, use) {
  const move = { kind: "shield", use };
  const run = selectedRun(g);
  if (use === "reveal") {
    if (!run) { say("Select a clue or a cell first"); return; }
    move.clue = run.clue;
    move.dir = run.dir;
  } else if (use === "unlock") {
    if (!g.selected) { say("Select a permanent digit first"); return; }
    move.cell = cellOf(g.selected);
  }
  send(g, move);
}

function showResult(g, result) {
  if (!result || typeof result !== "object") return;
  const out = $("#shield-output");
  if (result.text || result.sets) {
    const lines = [];
    if (result.text) lines.push(result.text);
    if (result.sets) lines.push(result.sets.map((s) => `{${s.join(", ")}}`).join("  "));
    out.textContent = lines.join("\n");
  }
  g.hinted = new Set((result.cells || []).map(([r, c]) => `${r},${c}`));
  if (result.message) say(result.message);
  render(g);
}

function move(g, dr, dc) {
  g.dir = dc ? "a" : "d";
  let [r, c] = g.selected ? cellOf(g.selected) : g.selectedClue ? cellOf(g.selectedClue) : [0, 0];
  const { rows, cols, cells } = g.puzzle;
  for (;;) {
    r += dr; c += dc;
    if (r < 0 || c < 0 || r >= rows || c >= cols) return render(g);
    if (cells[r][c] === ".") { g.selected = `${r},${c}`; g.selectedClue = null; return render(g); }
  }
}

// --- rendering the panels --------------------------------------------------------------------
function render(g) {
  if (!g.view) return;
  const v = g.view;
  const entries = entriesOf(v);
  const marks = new Map(v.board.marks.map(([r, c, ds]) => [`${r},${c}`, new Set(ds)]));
  const locked = new Set(v.board.locked.map(([r, c]) => `${r},${c}`));
  const wrong = g.showErrors ? new Set((v.board.conflicts || []).map(([r, c]) => `${r},${c}`)) : new Set();
  const run = selectedRun(g);
  const runCells = new Set(run ? run.cells.map(([r, c]) => `${r},${c}`) : []);
  drawBoard($("#board"), {
    puzzle: g.puzzle, entries, marks, locked, wrong, hinted: g.hinted, runCells,
    selected: g.selected, selectedClue: g.selectedClue,
  });
  const game = v.game;
  $("#mode-label").textContent = `${game.mode} · ${game.size} ${game.difficulty || ""}`;
  $("#room-code").textContent = game.code ? `room ${game.code}` : "";
  $("#room-code").dataset.code = game.code || "";
  const me = v.me;
  const turnPlayer = v.players.find((p) => p.id === game.turn);
  $("#turn").textContent = game.status === "over" ? "Game over"
    : game.waiting ? `Waiting for players (${v.players.length}/${game.seats})`
    : turnPlayer ? (turnPlayer.id === me.id ? "Your turn" : `${turnPlayer.name}'s turn`) : "";
  $("#shield-count").textContent = me.shields;
  for (const b of document.querySelectorAll("[data-shield]")) {
    b.disabled = game.status === "over" || me.shields <= 0 || (b.dataset.shield === "unlock" && !game.permanent);
  }
  $("#undo").disabled = !g.undo.length;
  $("#redo").disabled = !g.redo.length;
  $("#pencil").setAttribute("aria-pressed", String(g.pencil));
  $("#errors").setAttribute("aria-pressed", String(g.showErrors));
  $("#submit").hidden = game.mode !== "arena";
  renderPlayers(v);
  renderCombos(g, run, entries);
  renderScore(v);
  if (v.me.last_shield && !g.shownShield) { g.shownShield = true; }
  tick();
}

function renderPlayers(v) {
  const list = $("#players");
  list.innerHTML = "";
  for (const p of v.players) {
    const li = document.createElement("li");
    li.className = `${p.id === v.me.id ? "me" : ""} ${p.id === v.game.turn ? "turn" : ""}`;
    li.dataset.player = p.id;
    const name = document.createElement("span");
    name.textContent = p.name + (p.finished ? " ✓" : "");
    const right = document.createElement("span");
    if (v.game.mode === "arena") {
      const bar = document.createElement("span");
      bar.className = "progress";
      bar.title = `${Math.round(100 * p.progress)}% of cells`;
      const fill = document.createElement("i");
      fill.style.width = `${Math.round(100 * p.progress)}%`;
      bar.append(fill);
      right.append(bar, ` ${Math.round(100 * p.progress)}%`);
    } else {
      right.textContent = `${p.score} pts`;
    }
    right.className = "player-score";
    li.append(name, right);
    list.append(li);
  }
}

function renderCombos(g, run, entries) {
  const list = $("#combo-list");
  list.innerHTML = "";
  if (!run || !ui.combos) { $("#combo-run").textContent = ""; return; }
  $("#combo-run").textContent = `${run.sum} in ${run.cells.length}`;
  const placed = run.cells.map(([r, c]) => entries.get(`${r},${c}`)).filter(Boolean);
  for (const set of ui.combos[`${run.cells.length},${run.sum}`] || []) {
    const li = document.createElement("li");
    li.textContent = set.join(" ");
    if (!placed.every((d) => set.includes(d))) li.className = "out";
    list.append(li);
  }
}

function renderScore(v) {
  const card = $("#score-card");
  if (!v.result) { card.hidden = true; return; }
  card.hidden = false;
  const rows = v.result.scores.map((s) => {
    const parts = s.parts || {};
    return `<tr data-player="${s.player}"><td>${escapeHtml(s.name)}</td><td>${parts.base ?? ""}</td><td>${parts.speed ?? ""}</td>`
      + `<td>${parts.flawless ?? ""}</td><td>${parts.shields ?? ""}</td><td>${parts.battle ?? ""}</td><td class="total"><b>${s.total}</b></td></tr>`;
  });
  const winner = v.result.winner ? v.players.find((p) => p.id === v.result.winner) : null;
  $("#score").innerHTML = `<p>${winner ? `Winner: <b>${escapeHtml(winner.name)}</b>` : ""}</p>`
    + "<table><tr><th>Player</th><th>Base</th><th>Speed</th><th>Flawless</th><th>Shields</th><th>Battle</th><th>Total</th></tr>"
    + rows.join("") + "</table>";
}

function escapeHtml(s) { return String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`); }

function tick() {
  const g = ui.game;
  if (!g || !g.view) return;
  const clock = g.view.game.clock;
  let seconds = g.clockBase + (clock.running ? (performance.now() - g.clockAt) / 1000 : 0);
  if (clock.limit_s) seconds = Math.max(0, clock.limit_s - seconds);
  const s = Math.floor(seconds);
  $("#timer").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
setInterval(tick, 500);

// --- input -----------------------------------------------------------------------------------
const board = $("#board");
board.addEventListener("pointerdown", (event) => {
  const g = ui.game;
  if (!g || !g.puzzle) return;
  const hit = hitTest(board, event, g.puzzle);
  if (!hit) return;
  const key = `${hit.r},${hit.c}`;
  const sq = g.puzzle.cells[hit.r][hit.c];
  if (sq === ".") {
    if (g.selected === key) g.dir = g.dir === "a" ? "d" : "a";
    g.selected = key;
    g.selectedClue = null;
  } else if (Array.isArray(sq)) {
    g.selectedClue = key;
    g.selected = null;
    const [down, across] = sq;
    g.dir = across === null ? "d" : down === null ? "a" : hit.half;
  }
  board.focus();
  render(g);
});

for (const b of document.querySelectorAll("[data-digit]")) {
  b.addEventListener("click", () => ui.game && place(ui.game, Number(b.dataset.digit)));
}
$("#erase").addEventListener("click", () => ui.game && erase(ui.game));
$("#undo").addEventListener("click", () => ui.game && undo(ui.game));
$("#redo").addEventListener("click", () => ui.game && redo(ui.game));
$("#pencil").addEventListener("click", () => { if (ui.game) { ui.game.pencil = !ui.game.pencil; render(ui.game); } });
$("#errors").addEventListener("click", () => toggleErrors());
$("#submit").addEventListener("click", () => ui.game && send(ui.game, { kind: "submit" }));
for (const b of document.querySelectorAll("[data-shield]")) {
  b.addEventListener("click", () => ui.game && useShield(ui.game, b.dataset.shield));
}

function toggleErrors() {
  const g = ui.game;
  if (!g) return;
  g.showErrors = !g.showErrors;
  render(g);
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
document.addEventListener("keydown", (event) => {
  const g = ui.game;
  if (!g || !g.puzzle || $("#page-game").hidden) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const digit = /^(Digit|Numpad)([1-9])$/.exec(event.code);
  const ctrl = event.ctrlKey || event.metaKey;
  if (ARROWS[event.key]) { move(g, ...ARROWS[event.key]); }
  else if (digit && !ctrl) {
    g.shiftDigit = event.shiftKey;
    place(g, Number(digit[2]));
    g.shiftDigit = false;
  } else if (event.key === "Backspace" || event.key === "Delete" || event.code === "Digit0") { erase(g); }
  else if (ctrl && event.key.toLowerCase() === "z") { if (event.shiftKey) redo(g); else undo(g); }
  else if (ctrl && event.key.toLowerCase() === "y") { redo(g); }
  else if (!ctrl && event.key.toLowerCase() === "p") { g.pencil = !g.pencil; render(g); }
  else if (!ctrl && event.key.toLowerCase() === "e") { toggleErrors(); }
  else if (event.key === " ") { g.dir = g.dir === "a" ? "d" : "a"; render(g); }
  else return;
  event.preventDefault();
});

route();
