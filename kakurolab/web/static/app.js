// Kakuro Master in the browser: pages, the live connection, input, panels.
// The server (and behind it the game engine) decides everything: this file sends moves in
// the engine's JSON and draws the views it gets back.  Undo/redo are inverse moves sent like
// any other.  Inside this file cells are "r,c" keys (0-based); the engine names them "r3c4".
import { cellOf, drawBoard, hitTest, nameOf, parseGrid, runIndex, runsOf } from "./board.js";

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
  identities: store.get("kakuro.identities", {}), // name -> {player_id, token}
  games: store.get("kakuro.games", {}),            // game id -> {mode, size, created}
  combos: null,                                    // "len,sum" -> [[digits]]
  game: null,                                      // the game page's state, see openGame
};
store.set("kakuro.player", ui.player);

const keyOf = (name) => { const rc = cellOf(name); return rc ? `${rc[0]},${rc[1]}` : name; };
const nameOfKey = (key) => { const [r, c] = key.split(",").map(Number); return nameOf(r, c); };

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
  route();
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

/** This browser's token for the current player name (registered on first use). */
async function identity() {
  const known = ui.identities[ui.player];
  if (known) return known;
  const made = await api("POST", "/api/players", { name: ui.player });
  ui.identities[ui.player] = { player_id: made.player_id, token: made.token };
  store.set("kakuro.identities", ui.identities);
  return ui.identities[ui.player];
}

function remember(view) {
  ui.games[view.game_id] = { mode: view.mode, size: view.spec.size, player: ui.player, created: Date.now() };
  store.set("kakuro.games", ui.games);
}

function report(err) { say(err.message); const box = $("#home-message"); if (box) box.textContent = err.message; }

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
  const ids = Object.keys(ui.games)
    .filter((id) => (ui.games[id].player || ui.player) === ui.player)
    .sort((a, b) => (ui.games[b].created || 0) - (ui.games[a].created || 0));
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
function syncForm() {
  newForm.querySelector(".permanent-field").hidden = newForm.mode.value === "battle";
}
newForm.mode.addEventListener("change", syncForm);
syncForm();
newForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { mode: newForm.mode.value, size: newForm.size.value, difficulty: newForm.difficulty.value };
  if (body.mode !== "battle") body.permanent = newForm.permanent.checked;
  if (newForm.shields.value !== "") body.shields = Number(newForm.shields.value);
  if (newForm.minutes.value !== "") body.time_limit_s = Math.round(60 * Number(newForm.minutes.value));
  const button = $("#start");
  button.disabled = true;
  try {
    const me = await identity();
    const view = await api("POST", "/api/games", body, me.token);
    remember(view);
    location.hash = `#/game/${encodeURIComponent(view.game_id)}`;
  } catch (err) { report(err); }
  finally { button.disabled = false; }
});

const joinForm = $("#join-game");
joinForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const code = joinForm.code.value.trim();
  if (code) location.hash = `#/join/${encodeURIComponent(code)}`;
});

async function joinRoom(code) {
  try {
    const me = await identity();
    const view = await api("POST", `/api/games/${encodeURIComponent(code)}/join`, null, me.token);
    remember(view);
    location.replace(`#/game/${encodeURIComponent(view.game_id)}`);
  } catch (err) {
    location.replace("#/");
    report(err);
  }
}

async function showCalendar() {
  show("calendar");
  const week = $("#week");
  week.innerHTML = "";
  let data;
  try { data = await api("GET", "/api/calendar", null, (await identity()).token); }
  catch (err) { week.textContent = err.message; return; }
  $("#streak").textContent = data.current_streak;
  $("#best-streak").textContent = data.best_streak;
  const played = new Map(data.days.map((d) => [d.date, d]));
  for (const day of data.week) {
    const li = document.createElement("li");
    const record = played.get(day.date);
    li.className = `${day.date === data.today ? "today" : ""} ${record && record.solved_on ? "done" : ""}`;
    li.dataset.date = day.date;
    const b = document.createElement("button");
    b.textContent = `${day.weekday} ${day.date}`;
    b.disabled = day.date > data.today;
    b.addEventListener("click", async () => {
      try {
        const view = await api("POST", "/api/games", { mode: "campaign", date: day.date }, (await identity()).token);
        remember(view);
        location.hash = `#/game/${encodeURIComponent(view.game_id)}`;
      } catch (err) { alert(err.message); }
    });
    const info = document.createElement("div");
    info.textContent = `${day.size} ${day.difficulty}${day.title ? ` · ${day.title}` : ""}`;
    li.append(b, info);
    week.append(li);
  }
}

// --- the game page ---------------------------------------------------------------------------
async function openGame(id) {
  show("game");
  if (ui.game && ui.game.id === id) return;
  let me;
  try { me = await identity(); } catch (err) { say(err.message); return; }
  ui.game = {
    id, token: me.token, view: null, puzzle: null, runs: [], index: new Map(),
    selected: null, selectedClue: null, dir: "a", pencil: false, showErrors: false,
    undo: [], redo: [], pending: new Map(), nextId: 1, ws: null, hinted: new Set(),
    clockBase: 0, clockAt: 0, closed: false, local: new Map(),
  };
  $("#shield-output").textContent = "";
  say("");
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
    for (const [, handlers] of g.pending) if (handlers.onError) handlers.onError();
    g.pending.clear();
    document.body.dataset.pending = "0";
    if (!g.closed) setTimeout(() => { if (!g.closed) connect(g); }, 1000);
  });
}

function onMessage(g, msg) {
  if (msg.type === "ack" || msg.type === "error") {
    const pending = g.pending.get(msg.id);
    g.pending.delete(msg.id);
    if (msg.type === "error") {
      say(msg.error);
      if (pending && pending.onError) pending.onError();
    } else {
      if (pending && pending.onAck) pending.onAck(msg);
      if (msg.outcome) showOutcome(g, msg.outcome);
    }
  } else if (msg.type === "fatal") {
    g.closed = true; // a wrong or stale token: reconnecting would not help
    say(msg.error);
  }
  if (msg.view) setView(g, msg.view);
  document.body.dataset.pending = String(g.pending.size);
}

function say(text) { $("#message").textContent = text || ""; }

const boardEntries = (view) => new Map(Object.entries(view.board).map(([name, d]) => [keyOf(name), d]));

function setView(g, view) {
  if (!g.puzzle || g.puzzle.id !== view.puzzle.id) {
    g.puzzle = parseGrid(view.puzzle);
    g.runs = runsOf(g.puzzle);
    g.index = runIndex(g.runs);
    const first = g.runs.find((run) => run.dir === "a" && run.cells.length) || g.runs[0];
    if (first && !g.selected) g.selected = `${first.cells[0][0]},${first.cells[0][1]}`;
  }
  g.view = view;
  if (!g.pending.size) g.local = boardEntries(view);
  g.clockBase = view.elapsed_s;
  g.clockAt = performance.now();
  document.body.dataset.version = String(view.version);
  document.body.dataset.phase = view.phase;
  render(g);
}

function send(g, move, handlers = {}) {
  if (!g.ws || g.ws.readyState !== WebSocket.OPEN) { say("Not connected"); return; }
  // what the board will hold once the server has taken this move (inverses are computed
  // against it, so fast typing ahead of the acks still undoes correctly)
  const key = move.cell ? keyOf(move.cell) : null;
  if (move.kind === "place") g.local.set(key, move.digit);
  else if (move.kind === "erase") g.local.delete(key);
  const id = g.nextId++;
  g.pending.set(id, handlers);
  document.body.dataset.pending = String(g.pending.size);
  g.ws.send(JSON.stringify({ type: "move", id, move }));
}

/** A move made by the player, remembered with its inverse for undo. */
function play(g, move, inverse) {
  send(g, move, {
    onAck: () => {
      if (inverse) { g.undo.push({ move, inverse }); g.redo = []; render(g); }
    },
  });
}

function place(g, digit, mark) {
  if (!g.selected) return;
  const cell = nameOfKey(g.selected);
  const before = g.local.get(g.selected);
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
  const cell = nameOfKey(g.selected);
  const before = g.local.get(g.selected);
  if (!before) return;
  play(g, { kind: "erase", cell }, { kind: "place", cell, digit: before });
}

function undo(g) {
  const step = g.undo.pop();
  if (!step) return;
  send(g, step.inverse, { onAck: () => { g.redo.push(step); render(g); }, onError: () => g.undo.push(step) });
}

function redo(g) {
  const step = g.redo.pop();
  if (!step) return;
  send(g, step.move, { onAck: () => { g.undo.push(step); render(g); }, onError: () => g.redo.push(step) });
}

function selectedRun(g) {
  if (g.selectedClue) {
    const [r, c] = g.selectedClue.split(",").map(Number);
    return g.runs.find((run) => run.clue[0] === r && run.clue[1] === c && run.dir === g.dir)
      || g.runs.find((run) => run.clue[0] === r && run.clue[1] === c);
  }
  if (!g.selected) return null;
  const both = g.index.get(g.selected) || {};
  return both[g.dir] || both.a || both.d || null;
}

function useShield(g, kind) {
  const move = { kind: "shield", shield: kind };
  if (kind === "candidates") {
    const run = selectedRun(g);
    if (!run) { say("Select a clue or a cell first"); return; }
    move.run = `${nameOf(run.clue[0], run.clue[1])} ${run.dir === "a" ? "across" : "down"}`;
  } else if (kind === "unlock") {
    if (!g.selected) { say("Select a permanent digit first"); return; }
    move.cell = nameOfKey(g.selected);
  }
  send(g, move);
}

function showOutcome(g, outcome) {
  if (outcome.shield) {
    const s = outcome.shield;
    $("#shield-output").textContent = s.text;  // the engine's words (sets included)
    g.hinted = new Set((s.cells || []).map(keyOf));
  }
  if (outcome.message) say(outcome.message);
}

function moveSelection(g, dr, dc) {
  g.dir = dc ? "a" : "d";
  const from = g.selected || g.selectedClue || "0,0";
  let [r, c] = from.split(",").map(Number);
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
  const entries = boardEntries(v);
  const marks = new Map();
  const markSources = v.mode === "battle" ? v.players.map((p) => p.marks || {}) : [v.marks];
  for (const source of markSources) {
    for (const [name, ds] of Object.entries(source)) {
      const key = keyOf(name);
      if (!marks.has(key)) marks.set(key, new Set());
      for (const d of ds) marks.get(key).add(d);
    }
  }
  const locked = new Set(v.locked.map(keyOf));
  const wrong = g.showErrors ? new Set(v.conflicts.map(keyOf)) : new Set();
  const run = selectedRun(g);
  const runCells = new Set(run ? run.cells.map(([r, c]) => `${r},${c}`) : []);
  drawBoard($("#board"), {
    puzzle: g.puzzle, entries, marks, locked, wrong, hinted: g.hinted, runCells,
    selected: g.selected, selectedClue: g.selectedClue,
  });
  const spec = v.spec;
  $("#mode-label").textContent = `${v.mode} · ${spec.size} ${spec.difficulty || ""}`;
  const room = v.mode === "arena" || v.mode === "battle";
  $("#room-code").textContent = room ? `room ${v.game_id}` : "";
  $("#room-code").dataset.code = room ? v.game_id : "";
  const turnPlayer = v.players.find((p) => p.player_id === v.turn);
  const seats = v.mode === "battle" ? 2 : 4;
  $("#turn").textContent = v.phase === "finished" ? `Game over${v.end_reason ? ` (${v.end_reason})` : ""}`
    : v.phase === "waiting" ? `Waiting for players (${v.players.length}/${seats}): share the room code`
    : turnPlayer ? (turnPlayer.player_id === v.you ? "Your turn" : `${turnPlayer.name}'s turn`) : "";
  $("#start-game").hidden = !(v.phase === "waiting" && v.host === v.you && v.players.length >= 2);
  $("#shield-count").textContent = v.shields_left;
  const shieldKinds = v.mode === "battle" ? ["candidates", "hint"] : ["candidates", "hint", "clear", "unlock"];
  for (const b of document.querySelectorAll("[data-shield]")) {
    const kind = b.dataset.shield;
    b.hidden = !shieldKinds.includes(kind);
    b.disabled = v.phase !== "active" || v.shields_left <= 0 || (kind === "unlock" && !spec.options.permanent);
  }
  $("#undo").disabled = !g.undo.length;
  $("#redo").disabled = !g.redo.length;
  $("#pencil").setAttribute("aria-pressed", String(g.pencil));
  $("#errors").setAttribute("aria-pressed", String(g.showErrors));
  $("#submit").hidden = v.mode !== "arena";
  renderPlayers(v);
  renderCombos(g, run, entries);
  renderScore(v);
  tick();
}

function renderPlayers(v) {
  const list = $("#players");
  list.innerHTML = "";
  for (const p of v.players) {
    const li = document.createElement("li");
    li.className = `${p.player_id === v.you ? "me" : ""} ${p.player_id === v.turn ? "turn" : ""}`;
    li.dataset.player = p.player_id;
    const name = document.createElement("span");
    name.textContent = p.name;
    const right = document.createElement("span");
    right.className = "player-score";
    const pct = Math.round(100 * p.progress);
    if (p.points !== undefined) {
      right.textContent = `${p.points} pts`;
      right.dataset.points = String(p.points);
    } else {
      const bar = document.createElement("span");
      bar.className = "progress";
      bar.title = `${pct}% of cells filled`;
      const fill = document.createElement("i");
      fill.style.width = `${pct}%`;
      bar.append(fill);
      right.append(bar, ` ${pct}%`);
    }
    right.dataset.progress = String(p.progress);
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

function escapeHtml(s) { return String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`); }

function renderScore(v) {
  const card = $("#score-card");
  if (v.phase !== "finished" || !v.standings.length) { card.hidden = true; return; }
  const first = card.hidden;
  card.hidden = false;
  if (first) setTimeout(() => card.scrollIntoView({ block: "nearest", behavior: "smooth" }), 0);
  const cell = (x) => `<td>${x === undefined || x === null ? "–" : escapeHtml(x)}</td>`;
  const mastery = v.mode !== "battle";
  const head = mastery
    ? "<tr><th>#</th><th>Player</th><th>Base</th><th>Speed</th><th>Flawless</th><th>Shields</th><th>Total</th></tr>"
    : "<tr><th>#</th><th>Player</th><th>Points</th></tr>";
  const rows = v.standings.map((s) => {
    const b = s.breakdown || {};
    const parts = mastery ? [b.base, b.speed, b.flawless, b.shields].map(cell).join("") : "";
    return `<tr data-player="${escapeHtml(s.player_id)}">${cell(s.rank)}${cell(s.name)}${parts}<td class="total"><b>${escapeHtml(s.score)}</b></td></tr>`;
  });
  $("#score").innerHTML = `<table>${head}${rows.join("")}</table>`
    + (mastery ? `<p class="note">Target time ${Math.round(v.spec.target_s / 60)} min; +10 per full 30 s under it.</p>` : "");
}

function tick() {
  const g = ui.game;
  if (!g || !g.view) return;
  const v = g.view;
  const running = v.phase === "active";
  const since = running ? (performance.now() - g.clockAt) / 1000 : 0;
  let seconds = g.clockBase + since;
  if (v.remaining_s !== null && v.remaining_s !== undefined) seconds = Math.max(0, v.remaining_s - since);
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
  b.addEventListener("click", () => ui.game && place(ui.game, Number(b.dataset.digit), ui.game.pencil));
}
$("#erase").addEventListener("click", () => ui.game && erase(ui.game));
$("#undo").addEventListener("click", () => ui.game && undo(ui.game));
$("#redo").addEventListener("click", () => ui.game && redo(ui.game));
$("#pencil").addEventListener("click", () => { if (ui.game) { ui.game.pencil = !ui.game.pencil; render(ui.game); } });
$("#errors").addEventListener("click", () => toggleErrors());
$("#submit").addEventListener("click", () => ui.game && send(ui.game, { kind: "submit" }));
$("#start-game").addEventListener("click", () => ui.game && send(ui.game, { kind: "start" }));
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
  const key = event.key.toLowerCase();
  if (ARROWS[event.key]) moveSelection(g, ...ARROWS[event.key]);
  else if (digit && !ctrl) place(g, Number(digit[2]), g.pencil || event.shiftKey);
  else if (event.key === "Backspace" || event.key === "Delete" || event.code === "Digit0") erase(g);
  else if (ctrl && key === "z") { if (event.shiftKey) redo(g); else undo(g); }
  else if (ctrl && key === "y") redo(g);
  else if (!ctrl && key === "p") { g.pencil = !g.pencil; render(g); }
  else if (!ctrl && key === "e") toggleErrors();
  else if (event.key === " ") { g.dir = g.dir === "a" ? "d" : "a"; render(g); }
  else return;
  event.preventDefault();
});

route();
