// Kakuro Master in the browser: pages, the live connection, input, panels.
// The server (and behind it the game engine) decides everything: this file sends moves in
// the engine's JSON and draws the views it gets back.  Undo/redo are inverse moves sent like
// any other.  Inside this file cells are "r,c" keys (0-based); the engine names them "r3c4".
import { cellLabel, cellOf, drawBoard, hitTest, nameOf, parseGrid, runIndex, runsOf, tabStop } from "./board.js";
import { drawDevices, setupDevices, showSignin } from "./devices.js";
import { drawLive, showWatch, stopWatch } from "./watch.js";
import { setupStandings, showArchive, showStandings } from "./standings.js";

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
  replay: null,                                    // the replay page's state, see showReplay
};
store.set("kakuro.player", ui.player);

const keyOf = (name) => { const rc = cellOf(name); return rc ? `${rc[0]},${rc[1]}` : name; };
const nameOfKey = (key) => { const [r, c] = key.split(",").map(Number); return nameOf(r, c); };

// --- theme: the OS's until the player picks one (then remembered per player) ------------------
// "system" follows prefers-contrast (more: the high-contrast theme) and prefers-color-scheme
// (light: parchment, else slate), live, as the OS changes them.
const THEMES = ["slate", "parchment", "contrast"];
const themeKey = () => `kakuro.theme.${ui.player}`;
const chosenTheme = () => { const t = store.get(themeKey(), "system"); return THEMES.includes(t) ? t : "system"; };
const osContrast = window.matchMedia("(prefers-contrast: more)");
const osLight = window.matchMedia("(prefers-color-scheme: light)");
function systemTheme() { return osContrast.matches ? "contrast" : osLight.matches ? "parchment" : "slate"; }
function applyTheme() {
  const chosen = chosenTheme();
  const theme = chosen === "system" ? systemTheme() : chosen;
  document.documentElement.dataset.theme = theme;
  document.documentElement.dataset.themeChoice = chosen;
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.content = getComputedStyle(document.documentElement).getPropertyValue("--panel").trim() || meta.content;
}
for (const query of [osContrast, osLight]) query.addEventListener("change", applyTheme);
$("#theme-toggle").addEventListener("click", () => {
  const now = document.documentElement.dataset.theme;
  store.set(themeKey(), THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]);
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

// --- help settings, remembered per player ------------------------------------------------------
// Each help is the player's choice; the ones that would help in a race (conflicts as they
// happen, filled candidates) apply in practice games only, whatever the setting says.
const HELP_DEFAULTS = { done: true, conflicts: true, automarks: true, fill: true, remaining: true, autopause: true, ruledout: true };
const helpKey = () => `kakuro.help.${ui.player}`;
const help = () => ({ ...HELP_DEFAULTS, ...store.get(helpKey(), {}) });
const settings = $("#settings");
$("#settings-open").addEventListener("click", () => {
  const now = help();
  for (const box of settings.querySelectorAll("input[type=checkbox]")) box.checked = Boolean(now[box.name]);
  settings.querySelector('select[name="theme"]').value = chosenTheme();
  settings.showModal();
});
settings.querySelector('select[name="theme"]').addEventListener("change", (event) => {
  event.stopPropagation(); // a theme, not a help
  store.set(themeKey(), event.target.value);
  applyTheme();
});
settings.addEventListener("change", () => {
  const chosen = {};
  for (const box of settings.querySelectorAll("input[type=checkbox]")) chosen[box.name] = box.checked;
  store.set(helpKey(), chosen);
  if (ui.game) render(ui.game);
});

// --- the installable app: a service worker keeps the page's files for a reload offline -------
if ("serviceWorker" in navigator) {
  const ready = () => { if (navigator.serviceWorker.controller) document.body.dataset.offline = "ready"; };
  navigator.serviceWorker.addEventListener("controllerchange", ready);
  navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then(ready).catch(() => {});
}

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
  ui.games[view.game_id] = { mode: view.mode, size: view.spec.size, player: ui.player, created: Date.now(), phase: view.phase };
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
  stopReplay();
  if (parts[0] === "watch" && parts[1]) return showWatch(decodeURIComponent(parts[1]), show);
  stopWatch();
  if (parts[0] === "join" && parts[1]) return joinRoom(decodeURIComponent(parts[1]));
  if (parts[0] === "replay" && parts[1]) return showReplay(decodeURIComponent(parts[1]));
  if (parts[0] === "signin" && parts[1]) return showSignin(devices, decodeURIComponent(parts[1]));
  if (parts[0] === "calendar" && parts[1] === "archive") return showArchive(parts[2] && decodeURIComponent(parts[2]));
  if (parts[0] === "standings") return showStandings(parts);
  if (parts[0] === "calendar") return showCalendar();
  if (parts[0] === "stats") return showStats();
  if (parts[0] === "rules") return show("rules");
  return showHome();
}
window.addEventListener("hashchange", route);

function showHome() {
  show("home");
  drawMyGames();
  drawLive($("#live-games ul"));
  drawDevices(devices);
  // the server's list is the player's games, wherever they were played (the terminal's kakuro
  // play, another device): it replaces what this browser remembered (kept for offline)
  const known = ui.identities[ui.player];
  if (!known) return;
  api("GET", "/api/games", null, known.token).then((found) => {
    for (const id of Object.keys(ui.games)) {
      if ((ui.games[id].player || ui.player) === ui.player) delete ui.games[id];
    }
    for (const game of found.games) {
      ui.games[game.game_id] = { mode: game.mode, size: game.size, player: ui.player, created: game.created * 1000, phase: game.phase };
    }
    store.set("kakuro.games", ui.games);
    if (!$("#page-home").hidden) drawMyGames();
  }).catch(() => {});
}

/** What devices.js needs of this page. */
const devices = {
  ui, store, api, identity, show,
  setPlayer(name) { ui.player = name; store.set("kakuro.player", name); nameInput.value = name; applyTheme(); },
};
setupDevices(devices);

function drawMyGames() {
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
    if (ui.games[id].phase === "finished") { // its replay (the engine says when it may show)
      const replay = document.createElement("a");
      replay.href = `#/replay/${encodeURIComponent(id)}`;
      replay.className = "replay-link";
      replay.textContent = "replay";
      li.append(" · ", replay);
    }
    list.append(li);
  }
}

// --- the first-visit guide: shown once per browser on the start page, replayed from Rules ----
const guide = { el: $("#guide"), step: 0, steps: [...document.querySelectorAll("#guide [data-step]")] };
function guideStep(n) {
  guide.step = n;
  guide.steps.forEach((el, k) => { el.hidden = k !== n; });
  $("#guide-back").disabled = n === 0;
  $("#guide-next").textContent = n === guide.steps.length - 1 ? "Done" : "Next";
  $("#guide-count").textContent = `(${n + 1} of ${guide.steps.length})`;
}
function openGuide() { guide.el.hidden = false; guideStep(0); }
function closeGuide() { guide.el.hidden = true; store.set("kakuro.guided", true); }
$("#guide-next").addEventListener("click", () => {
  if (guide.step + 1 < guide.steps.length) guideStep(guide.step + 1); else closeGuide();
});
$("#guide-back").addEventListener("click", () => guideStep(Math.max(0, guide.step - 1)));
$("#guide-skip").addEventListener("click", closeGuide);
$("#guide-replay").addEventListener("click", () => { openGuide(); location.hash = "#/"; });
if (!store.get("kakuro.guided", false)) openGuide();

const newForm = $("#new-game");
// Permanent placement shows the mode's own rule (on in an Arena, as the rulebook says for
// competitive play; off in practice) until the player ticks or unticks it themselves.
let permanentChosen = false;
newForm.permanent.addEventListener("change", () => { permanentChosen = true; });
// every mode's facts (the engine's ModeRules), read as flags, never by the mode's name
let MODES = {};
const modeRules = (mode) => MODES[mode] || { permanent_allowed: true, permanent_default: false };
function syncForm() {
  const rules = modeRules(newForm.mode.value);
  newForm.querySelector(".permanent-field").hidden = !rules.permanent_allowed;
  newForm.querySelector(".computer-field").hidden = !rules.rated;  // a computer seat: rated duels
  if (!permanentChosen) newForm.permanent.checked = rules.permanent_default;
}
newForm.mode.addEventListener("change", syncForm);
syncForm();
/** The form's modes from the engine's records (index.html lists them for a page without the
 * API): a mode added to the engine's RULES appears here with its title. */
function modeOptions() {
  const chosen = newForm.mode.value;
  const options = Object.entries(MODES).map(([mode, rules]) => {
    const option = document.createElement("option");
    option.value = mode;
    option.textContent = rules.title || mode;
    return option;
  });
  if (!options.length) return;
  newForm.mode.replaceChildren(...options);
  if (MODES[chosen]) newForm.mode.value = chosen;
}
api("GET", "/api/modes").then((found) => { MODES = found.modes; modeOptions(); syncForm(); }).catch(() => {});
newForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { mode: newForm.mode.value, size: newForm.size.value, difficulty: newForm.difficulty.value };
  if (modeRules(body.mode).permanent_allowed) body.permanent = newForm.permanent.checked;
  if (newForm.shields.value !== "") body.shields = Number(newForm.shields.value);
  if (newForm.minutes.value !== "") body.time_limit_s = Math.round(60 * Number(newForm.minutes.value));
  if (modeRules(body.mode).rated && newForm.computer.value) body.computer = newForm.computer.value;
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

/** Create a game from a new-game body and open it. */
async function startGame(body) {
  const me = await identity();
  const view = await api("POST", "/api/games", body, me.token);
  remember(view);
  location.hash = `#/game/${encodeURIComponent(view.game_id)}`;
}

const pzprForm = $("#pzpr-game");
pzprForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const url = pzprForm.url.value.trim();
  const box = $("#pzpr-message");
  if (!url) { box.textContent = "Paste a puzz.link URL first"; return; }
  box.textContent = "Checking the puzzle...";
  try { await startGame({ mode: "practice", puzzle: url }); box.textContent = ""; }
  catch (err) { box.textContent = err.message; }
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

/** A page that loads from the server can be shown again before its answer arrives (the
 * player signs in under another name meanwhile): only its newest showing may draw, or two
 * answers would both fill it. */
const showings = new Map();
function showing(page) {
  const n = (showings.get(page) || 0) + 1;
  showings.set(page, n);
  return () => showings.get(page) === n;
}

setupStandings({ api, identity, show, showing, remember, clockText: (s) => clockText(s) });

async function showCalendar() {
  show("calendar");
  const current = showing("calendar");
  const week = $("#week");
  week.innerHTML = "";
  let data;
  try { data = await api("GET", "/api/calendar", null, (await identity()).token); }
  catch (err) { if (current()) week.textContent = err.message; return; }
  if (!current()) return;
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

function clockText(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

async function showStats() {
  show("stats");
  const current = showing("stats");
  const summary = $("#stats-summary");
  const best = $("#stats-best tbody");
  summary.innerHTML = "";
  best.innerHTML = "";
  let data;
  try { data = await api("GET", "/api/stats", null, (await identity()).token); }
  catch (err) { if (current()) summary.textContent = err.message; return; }
  if (!current()) return;
  const facts = [
    ["Games", data.games], ["Finished", data.finished], ["Solved", data.solved],
    ["Solved in a row", data.solved_in_a_row],
    ["Calendar streak", `${data.current_streak} days`], ["Best calendar streak", `${data.best_streak} days`],
  ];
  for (const [term, value] of facts) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    dd.dataset.stat = term.toLowerCase().replace(/ /g, "-");
    summary.append(dt, dd);
  }
  for (const row of data.best_times) {
    const tr = document.createElement("tr");
    tr.dataset.size = row.size;
    tr.dataset.difficulty = row.difficulty || "";
    for (const text of [row.size, row.difficulty || "file", clockText(row.best_s), row.solved]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.append(td);
    }
    best.append(tr);
  }
  showRatings(data.ratings || {}, current);
}

// --- the Battle rating (the engine's OpenSkill ratings: mu ± 2 sigma, ranked by mu - 3 sigma) ---
const POOL_NAMES = { battle: "people", computer: "against the computer" };
function cells(tr, texts) {
  for (const text of texts) {
    const td = document.createElement("td");
    td.textContent = String(text);
    tr.append(td);
  }
}
async function showRatings(mine, current) {
  const own = $("#stats-rating tbody");
  own.innerHTML = "";
  for (const [pool, r] of Object.entries(mine)) {
    const tr = document.createElement("tr");
    tr.dataset.pool = pool;
    cells(tr, [POOL_NAMES[pool] || pool, r.shown, r.conservative.toFixed(1), r.wins, r.losses, r.draws]);
    own.append(tr);
  }
  if (!own.children.length) cells(own.appendChild(document.createElement("tr")), ["no rated Battle yet", "", "", "", "", ""]);
  const pool = $("#rating-pool").value;
  const table = $("#rating-table tbody");
  let data;
  try { data = await api("GET", `/api/ratings?pool=${encodeURIComponent(pool)}`, null, (await identity()).token); }
  catch { return; }
  if (!current()) return;
  table.innerHTML = "";
  for (const r of data.table) {
    const tr = document.createElement("tr");
    tr.dataset.player = r.player_id;
    cells(tr, [r.rank, r.name, r.shown, r.conservative.toFixed(1), r.games]);
    table.append(tr);
  }
}
$("#rating-pool").addEventListener("change", () => { if (location.hash.startsWith("#/stats")) showStats(); });

// --- replays of finished games (the engine replays the log; this page lays out its frames) ---
// A replay is shared by its link, #/replay/ID, and needs no player: the engine shows it once
// the game's competition is over, and says why not otherwise.
function stopReplay() {
  const r = ui.replay;
  if (r && r.timer) { clearInterval(r.timer); r.timer = null; }
  $("#replay-play").textContent = "Play";
  $("#replay-play").setAttribute("aria-pressed", "false");
}

async function showReplay(id) {
  show("replay");
  const current = showing("replay");
  ui.replay = null;
  const board = $("#replay-board");
  board.innerHTML = "";
  delete board.dataset.shape;
  $("#replay-message").textContent = "Loading the replay...";
  $("#replay-link").value = `${location.origin}/#/replay/${encodeURIComponent(id)}`;
  let data;
  try { data = await api("GET", `/api/replays/${encodeURIComponent(id)}`); }
  catch (err) { if (current()) $("#replay-message").textContent = err.message; return; }
  if (!current()) return;
  const puzzle = parseGrid(data.puzzle);
  const runs = runsOf(puzzle);
  ui.replay = { id, data, puzzle, index: runIndex(runs), at: 0, timer: null, player: data.players[0] ? data.players[0].player_id : null };
  $("#replay-message").textContent = "";
  $("#replay-title").textContent = `${data.mode} · ${data.spec.size} ${data.spec.difficulty || ""}`;
  const select = $("#replay-player");
  select.replaceChildren(...data.players.map((p) => { const o = document.createElement("option"); o.value = p.player_id; o.textContent = p.name; return o; }));
  $("#replay-player-field").hidden = data.shared_board || data.players.length < 2;
  $("#replay-pos").max = String(data.frames.length);
  document.body.dataset.replayTotal = String(data.frames.length);
  drawReplay();
}

/** The board after the first ``at`` frames: the chosen player's (a shared board: everyone's). */
function drawReplay() {
  const r = ui.replay;
  if (!r) return;
  const frames = r.data.frames;
  // digits on the board; pencil marks per player (a Battle's are everyone's, shown together)
  const entries = new Map(), marksBy = new Map();
  for (const frame of frames.slice(0, r.at)) {
    if (!r.data.shared_board && frame.player_id !== r.player) continue;
    if (!marksBy.has(frame.player_id)) marksBy.set(frame.player_id, new Map());
    const own = marksBy.get(frame.player_id);
    for (const change of frame.cells) {
      const key = keyOf(change.cell);
      if (change.digit) entries.set(key, change.digit); else entries.delete(key);
      if (change.marks.length) own.set(key, new Set(change.marks)); else own.delete(key);
    }
  }
  const marks = new Map();
  for (const own of marksBy.values()) {
    for (const [key, digits] of own) {
      if (entries.has(key)) continue;
      if (!marks.has(key)) marks.set(key, new Set());
      for (const d of digits) marks.get(key).add(d);
    }
  }
  const last = r.at ? frames[r.at - 1] : null;
  const moved = new Set(last ? last.cells.map((change) => keyOf(change.cell)) : []);
  drawBoard($("#replay-board"), {
    puzzle: r.puzzle, index: r.index, entries, marks, locked: new Set(), wrong: new Set(),
    hinted: moved, runCells: new Set(), done: new Set(), selected: null, selectedClue: null, solution: null,
  });
  $("#replay-pos").value = String(r.at);
  $("#replay-at").textContent = `${r.at} / ${frames.length}`;
  $("#replay-clock").textContent = clockText(last ? last.t : 0);
  $("#replay-caption").textContent = last ? last.text : "The empty grid";
  document.body.dataset.replayAt = String(r.at);
}

function replayTo(at) {
  const r = ui.replay;
  if (!r) return;
  r.at = Math.max(0, Math.min(r.data.frames.length, at));
  if (r.at === r.data.frames.length) stopReplay();
  drawReplay();
}

function playReplay() {
  const r = ui.replay;
  if (!r) return;
  if (r.timer) { stopReplay(); return; }
  if (r.at >= r.data.frames.length) r.at = 0;
  const speed = Number($("#replay-speed").value) || 4;
  r.timer = setInterval(() => replayTo(r.at + 1), 1000 / speed);
  $("#replay-play").textContent = "Pause";
  $("#replay-play").setAttribute("aria-pressed", "true");
}

$("#replay-start").addEventListener("click", () => { stopReplay(); replayTo(0); });
$("#replay-prev").addEventListener("click", () => { stopReplay(); ui.replay && replayTo(ui.replay.at - 1); });
$("#replay-next").addEventListener("click", () => { stopReplay(); ui.replay && replayTo(ui.replay.at + 1); });
$("#replay-end").addEventListener("click", () => { stopReplay(); ui.replay && replayTo(ui.replay.data.frames.length); });
$("#replay-play").addEventListener("click", playReplay);
$("#replay-speed").addEventListener("change", () => { if (ui.replay && ui.replay.timer) { stopReplay(); playReplay(); } });
$("#replay-pos").addEventListener("input", (event) => { stopReplay(); replayTo(Number(event.target.value)); });
$("#replay-player").addEventListener("change", (event) => { if (ui.replay) { ui.replay.player = event.target.value; drawReplay(); } });
$("#replay-copy").addEventListener("click", () => {
  const link = $("#replay-link");
  link.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => {});
});
document.addEventListener("keydown", (event) => {
  if ($("#page-replay").hidden || !ui.replay || event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const keys = { ArrowLeft: -1, ArrowRight: 1 };
  if (keys[event.key]) { stopReplay(); replayTo(ui.replay.at + keys[event.key]); }
  else if (event.key === "Home") { stopReplay(); replayTo(0); }
  else if (event.key === "End") { stopReplay(); replayTo(ui.replay.data.frames.length); }
  else if (event.key === " ") playReplay();
  else return;
  event.preventDefault();
});

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
    clockBase: 0, clockAt: 0, closed: false, chosen: false,
    outbox: store.get(outboxKey(id), []).map(restoreQueued),
    zoom: 1, fitWidth: 0, viewKey: "", announced: "",
    showCands: false, cands: null, candsAsked: null,
  };
  const saved = store.get(undoKey(id), null);
  if (saved) {
    const withId = (step) => (step.sid ? step : { ...step, sid: stepId() }); // saved before ids
    ui.game.undo = (saved.undo || []).map(withId);
    ui.game.redo = (saved.redo || []).map(withId);
  }
  setZoom(ui.game, 1);
  $("#shield-output").textContent = "";
  say("");
  connect(ui.game);
  loadCombos();
}

// the undo history and the moves typed while offline outlive a reload (per game and player)
const undoKey = (id) => `kakuro.undo.${id}.${ui.player}`;
const outboxKey = (id) => `kakuro.outbox.${id}.${ui.player}`;
/** The last view of the game (the page draws it when a reload finds the server unreachable). */
const lastViewKey = (id) => `kakuro.view.${id}.${ui.player}`;
const KEPT_VIEWS = 12;
/** Keep a game's last view, and only the newest few games' (a view of a big grid is tens of
 * kB: older ones would fill the storage the queued moves and undo histories need). */
function keepView(id, view) {
  const key = lastViewKey(id);
  const kept = store.get("kakuro.views", []).filter((k) => k !== key);
  kept.push(key);
  for (const old of kept.splice(0, Math.max(0, kept.length - KEPT_VIEWS))) {
    try { localStorage.removeItem(old); } catch { /* private mode */ }
  }
  store.set("kakuro.views", kept);
  store.set(key, view);
}
function saveUndo(g) { store.set(undoKey(g.id), { undo: g.undo.slice(-200), redo: g.redo.slice(-200) }); }
/** A queued move is kept with what the page meant by it: the mark state it sets (a mark move
 * toggles) and the undo step it belongs to, so a reload made offline loses neither. */
function saveOutbox(g) {
  store.set(outboxKey(g.id), g.outbox.map(({ move, on, step }) => ({ move, on, step })));
}
function restoreQueued(item) {
  return item && item.move ? { move: item.move, on: item.on, step: item.step } : { move: item }; // a bare move: saved before
}
function showPending(g) { document.body.dataset.pending = String(g.pending.size + g.outbox.length); }

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
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", game: g.id, token: g.token }));
    flush(g);
  });
  ws.addEventListener("message", (event) => {
    g.stale = false; // the server's own views from here on
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    onMessage(g, msg);
  });
  ws.addEventListener("close", () => {
    const lost = [...g.pending.values()].filter((sent) => sent.move).length;
    const unsure = [...g.pending.values()];
    g.pending.clear();
    for (const sent of unsure) failed(g, sent); // unconfirmed: not in the history
    showPending(g);
    if (g.closed) return;
    document.body.dataset.connection = "down";
    if (!g.view) { // a reload while the server cannot be reached: the game as last seen
      const kept = store.get(lastViewKey(g.id), null);
      if (kept && kept.game_id === g.id) { g.stale = true; setView(g, kept); }
    }
    const queued = g.outbox.length ? ` ${g.outbox.length} move(s) queued.` : "";
    say(`Connection lost${lost ? ` before ${lost} move(s) were confirmed: check them when it is back` : ""}:`
      + ` moves typed now are queued and sent when it is back.${queued}`);
    setTimeout(() => { if (!g.closed) connect(g); }, 1000);
  });
}

/** Send the moves typed while the connection was down, in order. */
function flush(g) {
  document.body.dataset.connection = "up";
  const queued = g.outbox;
  g.outbox = [];
  saveOutbox(g);
  for (const item of queued) transmit(g, item);
  if (queued.length) say(`Reconnected: ${queued.length} queued move(s) sent`);
  showPending(g);
}

function onMessage(g, msg) {
  if (msg.type === "ack" || msg.type === "error") {
    const pending = g.pending.get(msg.id);
    g.pending.delete(msg.id);
    if (msg.type === "error") {
      say(msg.error);
      if (pending) failed(g, pending);
      if (!msg.view) render(g); // what the page expects no longer holds the refused move
    } else if (msg.outcome) showOutcome(g, msg.outcome);
  } else if (msg.type === "over") {
    // the server settled the game (its clock ran out): say so, whatever key is (not) pressed
    say(msg.reason === "time" ? "Time is up: the game is over" : "The game is over");
  } else if (msg.type === "fatal") {
    g.closed = true; // a wrong or stale token: reconnecting would not help
    say(msg.error);
  }
  if (msg.view) setView(g, msg.view);
  showPending(g);
}

function say(text) { $("#message").textContent = text || ""; }

const boardEntries = (view) => new Map(Object.entries(view.board).map(([name, d]) => [keyOf(name), d]));

/** The player's own digits and pencil marks as they will be once every move sent or queued
 * is taken: the last view with those moves laid over it, in order.  Inverses for undo are
 * computed against it (typing ahead of the acks still undoes correctly) and it is what the
 * board draws, so a move queued offline shows at once. */
function expected(g) {
  const entries = boardEntries(g.view);
  const marks = new Map(Object.entries(g.view.marks).map(([name, ds]) => [keyOf(name), new Set(ds)]));
  for (const { move, on } of [...g.pending.values(), ...g.outbox]) {
    if (!move || !move.cell) continue;
    const key = keyOf(move.cell);
    if (move.kind === "place") entries.set(key, move.digit);
    else if (move.kind === "erase") entries.delete(key);
    else if (move.kind === "mark" && !entries.has(key)) {
      if (!marks.has(key)) marks.set(key, new Set());
      if (on) marks.get(key).add(move.digit); else marks.get(key).delete(move.digit);
      if (!marks.get(key).size) marks.delete(key);
    }
  }
  return { entries, marks };
}

function setView(g, view) {
  if (!g.puzzle || g.puzzle.id !== view.puzzle.id) {
    g.puzzle = parseGrid(view.puzzle);
    g.runs = runsOf(g.puzzle);
    g.index = runIndex(g.runs);
    const first = g.runs.find((run) => run.dir === "a" && run.cells.length) || g.runs[0];
    if (first && !g.selected) {
      g.selected = `${first.cells[0][0]},${first.cells[0][1]}`;
      g.chosen = false; // the page chose it: the player's first tap on it selects, not flips
    }
  }
  g.view = view;
  if (!g.stale) keepView(g.id, view);
  const mine = ui.games[g.id];
  if (mine && mine.phase !== view.phase) { mine.phase = view.phase; store.set("kakuro.games", ui.games); }
  g.clockBase = view.elapsed_s;
  g.clockAt = performance.now();
  document.body.dataset.version = String(view.version);
  document.body.dataset.phase = view.phase;
  render(g);
  refreshCandidates(g);
}

// --- the whole-grid candidates view: the engine's answer (practice only: ModeRules) ----------
/** Ask the engine for the candidates of the view's version, once per version while shown. */
function refreshCandidates(g) {
  if (!g.showCands || !g.view || !g.view.rules.candidates_view || g.view.paused) return;
  const version = g.view.version;
  if (g.candsAsked === version) return;
  g.candsAsked = version;
  api("GET", `/api/games/${encodeURIComponent(g.id)}/candidates`, null, g.token).then((data) => {
    if (ui.game !== g || !g.showCands) return;
    g.cands = new Map(Object.entries(data.cells).map(([name, ds]) => [keyOf(name), new Set(ds)]));
    document.body.dataset.cands = String(data.version);
    render(g);
  }).catch((err) => { g.candsAsked = null; say(err.message); });
}

function toggleCandidates(g) {
  if (!g.view || !g.view.rules.candidates_view) return; // a race or a calendar day: none
  g.showCands = !g.showCands;
  if (!g.showCands) { g.cands = null; g.candsAsked = null; delete document.body.dataset.cands; }
  render(g);
  refreshCandidates(g);
}

/** Send a move now, or queue it (kept across a reload) while the connection is down:
 * a move is never dropped in silence.  ``step`` names the undo step the move belongs to and
 * the stack it came from ({sid, from}), so a refusal can put the history back. */
function send(g, move, step = null) {
  const item = { move, step };
  if (move.kind === "mark") {
    const marks = expected(g).marks.get(keyOf(move.cell));
    item.on = !(marks && marks.has(move.digit)); // a toggle: the state it leads to
  }
  if (!g.ws || g.ws.readyState !== WebSocket.OPEN || g.outbox.length) {
    g.outbox.push(item);
    saveOutbox(g);
    showPending(g);
    say(`Offline: ${g.outbox.length} move(s) queued, sent when the connection is back`);
    render(g);
    return;
  }
  transmit(g, item);
}

function transmit(g, item) {
  const id = g.nextId++;
  g.pending.set(id, item);
  showPending(g);
  g.ws.send(JSON.stringify({ type: "move", id, move: item.move }));
}

let stepCount = 0;
const stepId = () => `${Date.now().toString(36)}.${(stepCount++).toString(36)}`;

/** Moves sent as one step (a placed digit and the pencil marks it cleared undo together).
 * The step is in the undo history from the moment it is typed, queued offline or not: a
 * refusal takes it out again (``failed``). */
function play(g, moves, inverses) {
  const step = { sid: stepId(), moves, inverses };
  g.undo.push(step);
  g.redo = [];
  saveUndo(g);
  for (const move of moves) send(g, move, { sid: step.sid, from: null });
}

/** A move the server refused (or one lost with the connection, unconfirmed): its undo step
 * goes back where it was, or out of the history if it was a new one. */
function failed(g, item) {
  const tag = item.step;
  if (!tag) return;
  const find = (stack) => stack.findIndex((step) => step.sid === tag.sid);
  if (tag.from === null) {
    for (const stack of [g.undo, g.redo]) { const i = find(stack); if (i >= 0) stack.splice(i, 1); }
  } else {
    const other = tag.from === "undo" ? g.redo : g.undo;
    const i = find(other);
    if (i >= 0) g[tag.from].push(...other.splice(i, 1));
  }
  saveUndo(g);
}

/** The pencil marks of ``digit`` in the other cells of the entries through ``key``. */
function marksToClear(g, key, digit) {
  const { entries, marks } = expected(g);
  const runs = g.index.get(key) || {};
  const out = [];
  for (const run of [runs.a, runs.d]) {
    if (!run) continue;
    for (const [r, c] of run.cells) {
      const other = `${r},${c}`;
      const name = nameOf(r, c);
      if (other !== key && !entries.has(other) && marks.has(other) && marks.get(other).has(digit)
          && !out.some((m) => m.cell === name)) out.push({ kind: "mark", cell: name, digit });
    }
  }
  return out;
}

function place(g, digit, mark) {
  if (!g.selected || !playable(g)) return;
  const cell = nameOfKey(g.selected);
  const before = expected(g).entries.get(g.selected);
  if (mark) {
    if (before) return;
    const move = { kind: "mark", cell, digit };
    play(g, [move], [move]);
    return;
  }
  const move = { kind: "place", cell, digit };
  const inverse = before ? { kind: "place", cell, digit: before } : { kind: "erase", cell };
  const cleared = help().automarks && !g.view.rules.public_marks ? marksToClear(g, g.selected, digit) : [];
  play(g, [move, ...cleared], [inverse, ...cleared]);
}

function erase(g) {
  if (!g.selected || !playable(g)) return;
  const cell = nameOfKey(g.selected);
  const before = expected(g).entries.get(g.selected);
  if (!before) return;
  play(g, [{ kind: "erase", cell }], [{ kind: "place", cell, digit: before }]);
}

const stepMoves = (step) => step.moves || [step.move];       // steps saved before grouping
const stepInverses = (step) => step.inverses || [step.inverse];

function undo(g) {
  if (!playable(g)) return; // paused or over: the engine would refuse it
  const step = g.undo.pop();
  if (!step) return;
  g.redo.push(step);
  saveUndo(g);
  for (const move of stepInverses(step)) send(g, move, { sid: step.sid, from: "undo" });
  render(g);
}

function redo(g) {
  if (!playable(g)) return; // paused or over: the engine would refuse it
  const step = g.redo.pop();
  if (!step) return;
  g.undo.push(step);
  saveUndo(g);
  for (const move of stepMoves(step)) send(g, move, { sid: step.sid, from: "redo" });
  render(g);
}

/** Moves are typed only into a running, unpaused game (the engine would refuse them). */
const playable = (g) => g.view && g.view.phase === "active" && !g.view.paused;

function togglePause(g) {
  if (!g.view || !g.view.rules.pausable || g.view.phase !== "active") return;
  send(g, { kind: g.view.paused ? "resume" : "pause" });
}

// a solo game stops its clock when the player switches away (tab, app, screen off); not when
// the page is being left or reloaded (hidden too, but then the pause would greet the reload)
let leaving = false;
window.addEventListener("pagehide", () => { leaving = true; });
window.addEventListener("pageshow", () => { leaving = false; }); // back from the page cache
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "hidden") return;
  setTimeout(() => {
    const g = ui.game;
    if (leaving || document.visibilityState !== "hidden" || !g || !g.view || !help().autopause) return;
    if (g.view.rules.pausable && g.view.phase === "active" && !g.view.paused) togglePause(g);
  }, 400);
});

/** The digits the combination helper still allows in an empty cell, crossing both entries. */
function allowedDigits(g, key, entries) {
  let allowed = null;
  for (const run of Object.values(g.index.get(key) || {})) {
    const placed = run.cells.map(([r, c]) => entries.get(`${r},${c}`)).filter(Boolean);
    const digits = new Set();
    for (const set of ui.combos[`${run.cells.length},${run.sum}`] || []) {
      if (placed.every((d) => set.includes(d))) for (const d of set) if (!placed.includes(d)) digits.add(d);
    }
    allowed = allowed === null ? digits : new Set([...allowed].filter((d) => digits.has(d)));
  }
  return allowed || new Set();
}

/** Pencil in, for every empty cell of the selected entry, what the helper allows (one undo step). */
function fillCandidates(g) {
  const run = selectedRun(g);
  if (!run || !ui.combos || !playable(g)) return;
  const { entries, marks } = expected(g);
  const moves = [];
  for (const [r, c] of run.cells) {
    const key = `${r},${c}`;
    if (entries.has(key)) continue;
    const want = allowedDigits(g, key, entries);
    const have = marks.get(key) || new Set();
    for (let d = 1; d <= 9; d++) {
      if (want.has(d) !== have.has(d)) moves.push({ kind: "mark", cell: nameOf(r, c), digit: d });
    }
  }
  if (moves.length) play(g, moves, moves);
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
  g.chosen = true;
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
/** Draw the game page from the view.  ``focus``: give the board's tab stop keyboard focus
 * (a tap on the board); focus already in the board follows the selection. */
function render(g, focus = false) {
  if (!g.view) return;
  const v = g.view;
  const prefs = help();
  const rules = v.rules;
  const practice = rules.aids;
  const mine = expected(g); // moves sent or queued are drawn before the server has them
  const entries = mine.entries;
  const marks = mine.marks;
  const markSources = rules.public_marks ? v.players.filter((p) => p.player_id !== v.you).map((p) => p.marks || {}) : [];
  for (const source of markSources) {
    for (const [name, ds] of Object.entries(source)) {
      const key = keyOf(name);
      if (!marks.has(key)) marks.set(key, new Set());
      for (const d of ds) marks.get(key).add(d);
    }
  }
  const locked = new Set(v.locked.map(keyOf));
  const live = prefs.conflicts && practice;
  const solution = solutionOf(v);
  let wrong = (g.showErrors && !rules.competitive) || live ? new Set(v.conflicts.map(keyOf)) : new Set();
  if (solution) wrong = new Set([...entries].filter(([key, d]) => solution.get(key) !== d).map(([key]) => key));
  const run = selectedRun(g);
  const runCells = new Set(run ? run.cells.map(([r, c]) => `${r},${c}`) : []);
  const done = new Set(prefs.done ? g.runs.filter((each) => finished(each, entries)).map((each) => each.key) : []);
  const sameDigit = g.selected ? entries.get(g.selected) || null : null;
  const ruled = prefs.ruledout ? ruledOut(g, entries, marks) : null;
  const cands = g.showCands && rules.candidates_view ? g.cands : null;
  const svg = $("#board");
  drawBoard(svg, {
    puzzle: g.puzzle, index: g.index, entries, marks, locked, wrong, hinted: g.hinted, runCells,
    done, selected: g.selected, selectedClue: g.selectedClue, solution, sameDigit, ruled, cands,
  });
  const stop = tabStop(svg); // roving focus: it moves with the selection
  if (stop && stop !== document.activeElement && (focus || svg.contains(document.activeElement))) {
    stop.focus({ preventScroll: true });
  }
  solutionNote(solution, entries);
  const hidden = Boolean(v.paused);
  $("#board").style.visibility = hidden ? "hidden" : "";
  $("#paused-cover").hidden = !hidden;
  document.body.dataset.paused = String(hidden);
  const pause = $("#pause");
  pause.hidden = !rules.pausable || v.phase !== "active";
  pause.textContent = hidden ? "Resume" : "Pause";
  pause.setAttribute("aria-pressed", String(hidden));
  announce(g, marks, entries, wrong, ruled, cands);
  const viewKey = `${g.selected}|${g.selectedClue}|${g.dir}`;
  if (viewKey !== g.viewKey) { g.viewKey = viewKey; keepInView(g, run); }
  const spec = v.spec;
  $("#mode-label").textContent = `${v.mode} · ${spec.size} ${spec.difficulty || ""}`;
  const room = rules.seats > 1;
  $("#room-code").textContent = room ? `room ${v.game_id}` : "";
  $("#room-code").dataset.code = room ? v.game_id : "";
  $("#watch-share").hidden = !v.rules.watchable || v.phase !== "active"; // a lobby's link is its room code
  $("#watch-share").href = `${location.origin}/#/watch/${encodeURIComponent(v.game_id)}`;
  const turnPlayer = v.players.find((p) => p.player_id === v.turn);
  const seats = rules.seats;
  $("#turn").textContent = v.phase === "finished" ? `Game over${v.end_reason ? ` (${v.end_reason})` : ""}`
    : v.phase === "waiting" ? `Waiting for players (${v.players.length}/${seats}): share the room code`
    : turnPlayer ? (turnPlayer.player_id === v.you ? "Your turn" : `${turnPlayer.name}'s turn`) : "";
  $("#start-game").hidden = !(v.phase === "waiting" && v.host === v.you && v.players.length >= 2);
  $("#shield-count").textContent = v.shields_left;
  const shieldKinds = rules.shields;
  for (const b of document.querySelectorAll("[data-shield]")) {
    const kind = b.dataset.shield;
    b.hidden = !shieldKinds.includes(kind);
    b.disabled = !playable(g) || v.shields_left <= 0 || (kind === "unlock" && !spec.options.permanent);
  }
  // nothing of play is enabled while the game is paused or over (the engine would refuse it)
  const open = playable(g);
  for (const b of document.querySelectorAll("[data-digit], #erase, #pencil, #submit, #errors, #fill, #candidates")) b.disabled = !open;
  for (const b of document.querySelectorAll(".zoom-bar button")) b.disabled = hidden; // the board is covered
  $("#undo").disabled = !open || !g.undo.length;
  $("#redo").disabled = !open || !g.redo.length;
  // rule breaks on demand: a help of solo play, not of a race or a battle (where a toggle
  // would light them as they happen, which the rulebook's competitive play does without)
  $("#errors").hidden = rules.competitive;
  $("#pencil").setAttribute("aria-pressed", String(g.pencil));
  $("#errors").setAttribute("aria-pressed", String(g.showErrors));
  $("#candidates").hidden = !rules.candidates_view; // the engine's rule: practice only
  $("#candidates").setAttribute("aria-pressed", String(Boolean(g.showCands && rules.candidates_view)));
  $("#submit").hidden = !rules.needs_submit;
  $("#restart").hidden = !rules.restart; // no copy of a live race or calendar day (the engine refuses it too)
  renderPlayers(v);
  renderCombos(g, run, entries);
  const left = $("#run-left");
  left.hidden = !prefs.remaining || !run;
  if (run && prefs.remaining) {
    const placed = run.cells.map(([r, c]) => entries.get(`${r},${c}`)).filter(Boolean);
    const open = run.cells.length - placed.length;
    const rest = run.sum - placed.reduce((a, b) => a + b, 0);
    left.textContent = open ? `${rest} left in ${open} cell${open > 1 ? "s" : ""}` : rest === 0 ? "entry complete" : `off by ${-rest}`;
    left.dataset.left = String(rest);
  }
  $("#fill").hidden = !(prefs.fill && practice && v.phase === "active" && run);
  renderScore(v);
  tick();
}

/** The solution a finished view carries (the engine decides when it may), as "r,c" -> digit;
 * null while there is none.  Its rows are strings with "-" for the cells without a digit. */
function solutionOf(v) {
  if (!v.solution) return null;
  const out = new Map();
  v.solution.forEach((row, r) => [...row].forEach((ch, c) => { if (ch >= "1" && ch <= "9") out.set(`${r},${c}`, Number(ch)); }));
  return out;
}

/** Under the score: what the green digits are, when the board shows any. */
function solutionNote(solution, entries) {
  const note = $("#solution-note");
  const open = [], wrong = [];
  if (solution) {
    for (const [key, digit] of solution) {
      if (!entries.has(key)) open.push(key); else if (entries.get(key) !== digit) wrong.push(key);
    }
  }
  note.hidden = !open.length && !wrong.length;
  const where = [open.length ? "empty" : "", wrong.length ? "wrong" : ""].filter(Boolean).join(" or ");
  note.textContent = `The board shows the solution: its digits in green where your grid was ${where}`
    + (wrong.length ? ", your wrong digits small and struck through in the corner." : ".");
}

/** The pencil marks a digit placed in the same entry rules out (the no-repeat rule alone:
 * nothing here needs the solution), as "r,c" -> Set of digits. */
function ruledOut(g, entries, marks) {
  const out = new Map();
  for (const [key, digits] of marks) {
    if (entries.has(key)) continue;
    const seen = new Set();
    for (const run of Object.values(g.index.get(key) || {})) {
      for (const [r, c] of run.cells) { const d = entries.get(`${r},${c}`); if (d) seen.add(d); }
    }
    const hit = new Set([...digits].filter((d) => seen.has(d)));
    if (hit.size) out.set(key, hit);
  }
  return out;
}

/** An entry whose cells are all filled, with its sum and no repeat (no solution needed). */
function finished(run, entries) {
  const digits = run.cells.map(([r, c]) => entries.get(`${r},${c}`));
  if (!digits.every(Boolean)) return false;
  return new Set(digits).size === digits.length && digits.reduce((a, b) => a + b, 0) === run.sum;
}

/** The selected cell, said once per change through the aria-live region.  With keyboard focus
 * in the board a screen reader already says the cell focus moves to: the region then speaks
 * only a change to the same cell (a digit typed), never the move itself a second time. */
function announce(g, marks, entries, wrong, ruled, cands) {
  let text = "";
  if (g.selected) {
    const [r, c] = g.selected.split(",").map(Number);
    const more = { ruled: ruled && ruled.get(g.selected), cands: cands && (cands.get(g.selected) || new Set()) };
    text = cellLabel(r, c, g.index.get(g.selected), entries.get(g.selected), marks.get(g.selected), wrong.has(g.selected), undefined, more);
  } else if (g.selectedClue) {
    const run = selectedRun(g);
    if (run) text = `clue ${run.dir === "a" ? "across" : "down"} ${run.sum} in ${run.cells.length}`;
  }
  const at = g.selected || g.selectedClue;
  const focusMoved = at !== g.announcedAt && $("#board").contains(document.activeElement);
  if (text !== g.announced && !focusMoved) $("#announce").textContent = text;
  g.announced = text;
  g.announcedAt = at;
}

// --- zoom and pan (buttons, + and -, and a two-finger pinch) ----------------------------------
const wrap = $("#board-wrap");
const ZOOM_MAX = 4;
function setZoom(g, zoom) {
  const svg = $("#board");
  if (g.zoom <= 1 || !g.fitWidth) g.fitWidth = svg.getBoundingClientRect().width || wrap.clientWidth;
  g.zoom = Math.min(ZOOM_MAX, Math.max(1, zoom));
  const zoomed = g.zoom > 1.001;
  wrap.classList.toggle("zoomed", zoomed);
  svg.style.width = zoomed ? `${Math.round(g.fitWidth * g.zoom)}px` : "";
  document.body.dataset.zoom = g.zoom.toFixed(2);
  keepInView(g, selectedRun(g));
}

/** Scroll a zoomed board so the selected entry (or at least the selected cell) is in view. */
function keepInView(g, run) {
  if (!g || g.zoom <= 1 || !g.puzzle) return;
  const svg = $("#board").getBoundingClientRect();
  const box = wrap.getBoundingClientRect();
  const side = svg.width / g.puzzle.cols;
  const cells = run ? [run.clue, ...run.cells] : [];
  const focus = (g.selected || g.selectedClue || "").split(",").map(Number);
  if (focus.length === 2) cells.push(focus);
  if (!cells.length) return;
  const rs = cells.map(([r]) => r), cs = cells.map(([, c]) => c);
  const span = (lo, hi, fr, fc) => [lo, hi, fr, fc];
  const [top, bottom, left, right] = span(
    svg.top + Math.min(...rs) * side, svg.top + (Math.max(...rs) + 1) * side,
    svg.left + Math.min(...cs) * side, svg.left + (Math.max(...cs) + 1) * side);
  const fx = svg.left + focus[1] * side, fy = svg.top + focus[0] * side;
  const fit = (lo, hi, start, end, f) => {
    if (hi - lo > end - start) return f - start - (end - start - side) / 2; // too long: centre the cell
    if (lo < start) return lo - start - 4;
    if (hi > end) return hi - end + 4;
    return 0;
  };
  wrap.scrollLeft += fit(left, right, box.left, box.left + wrap.clientWidth, fx);
  wrap.scrollTop += fit(top, bottom, box.top, box.top + wrap.clientHeight, fy);
}

$("#zoom-in").addEventListener("click", () => ui.game && setZoom(ui.game, ui.game.zoom * 1.5));
$("#zoom-out").addEventListener("click", () => ui.game && setZoom(ui.game, ui.game.zoom / 1.5));
$("#zoom-fit").addEventListener("click", () => ui.game && setZoom(ui.game, 1));
const touches = new Map();
let pinch = null;
wrap.addEventListener("pointerdown", (e) => {
  if (e.pointerType !== "touch") return;
  touches.set(e.pointerId, [e.clientX, e.clientY]);
  if (touches.size === 2 && ui.game) {
    const [a, b] = [...touches.values()];
    pinch = { dist: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, zoom: ui.game.zoom };
  }
});
wrap.addEventListener("pointermove", (e) => {
  if (!touches.has(e.pointerId)) return;
  touches.set(e.pointerId, [e.clientX, e.clientY]);
  if (pinch && touches.size === 2 && ui.game) {
    const [a, b] = [...touches.values()];
    setZoom(ui.game, pinch.zoom * Math.hypot(a[0] - b[0], a[1] - b[1]) / pinch.dist);
  }
});
for (const type of ["pointerup", "pointercancel"]) {
  wrap.addEventListener(type, (e) => { touches.delete(e.pointerId); if (touches.size < 2) pinch = null; });
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

const TITLE = "Master of the Countless Spire";

function renderScore(v) {
  const card = $("#score-card");
  if (v.phase !== "finished" || !v.standings.length) { card.hidden = true; return; }
  const first = card.hidden;
  card.hidden = false;
  if (first) setTimeout(() => card.scrollIntoView({ block: "nearest", behavior: "smooth" }), 0);
  const cell = (x) => `<td>${x === undefined || x === null ? "–" : escapeHtml(x)}</td>`;
  const mastery = !v.rules.running_points;
  $("#score-title").textContent = mastery ? "Kakuro Mastery Formula" : "Battle Matrix points";
  const top = v.standings[0];
  const winners = v.standings.filter((s) => s.rank === 1 && (s.solved || !mastery) && s.score > 0);
  const solo = v.players.length === 1;
  $("#winner").textContent = winners.length
    ? `${winners.map((s) => s.name).join(" and ")} ${winners.length > 1 ? "share the title" : "is crowned"} ${TITLE}`
      + ` with ${top.score} points`
    : solo ? `No crown this time: the grid was not solved` : `No ${TITLE} this time: nobody scored`;
  const head = mastery
    ? "<tr><th>#</th><th>Player</th><th>Base</th><th>Speed</th><th>Flawless</th><th>Shields</th><th>Total</th></tr>"
    : "<tr><th>#</th><th>Player</th><th>Points</th></tr>";
  const rows = v.standings.map((s) => {
    const b = s.breakdown || {};
    const parts = mastery ? [b.base, b.speed, b.flawless, b.shields].map(cell).join("") : "";
    const name = s.flagged ? `${s.name} (flagged: faster than a human)` : s.name;
    return `<tr data-player="${escapeHtml(s.player_id)}" data-flagged="${Boolean(s.flagged)}">${cell(s.rank)}${cell(name)}${parts}<td class="total"><b>${escapeHtml(s.score)}</b></td></tr>`;
  });
  const illegal = v.illegal_entries === null || v.illegal_entries === undefined ? ""
    : `<p class="note" id="illegal">Your illegal entries: <b>${escapeHtml(v.illegal_entries)}</b></p>`;
  $("#score").innerHTML = `<table>${head}${rows.join("")}</table>${illegal}`
    + (mastery ? `<p class="note" id="target">Target time ${v.spec.target_s} s (${clockText(v.spec.target_s)}); +10 per full 30 s under it.</p>` : "");
  const list = $("#score-reasons");
  list.innerHTML = "";
  // the engine words the reasons and the tie-breaks (kakurolab.game.scoring)
  for (const reason of v.reasons || []) {
    const li = document.createElement("li");
    li.textContent = reason.text;
    li.dataset.player = reason.player_id;
    list.append(li);
  }
  $("#replay-open").href = `#/replay/${encodeURIComponent(v.game_id)}`;
  const ties = v.ties || [];
  $("#tie-break").textContent = ties.length ? `Tie-break: ${ties.join("; ")}` : "";
}

function tick() {
  const g = ui.game;
  if (!g || !g.view) return;
  const v = g.view;
  const running = v.phase === "active" && !v.paused;
  const since = running ? (performance.now() - g.clockAt) / 1000 : 0;
  let seconds = g.clockBase + since;
  if (v.remaining_s !== null && v.remaining_s !== undefined) seconds = Math.max(0, v.remaining_s - since);
  const s = Math.floor(seconds);
  $("#timer").textContent = clockText(s);
  $("#clock-mini").textContent = clockText(s);
  if (running && v.remaining_s !== null && v.remaining_s !== undefined) overdue(g, v.remaining_s - since);
}

/** The server tells every page when time runs out (an ``over`` frame); should that frame be
 * late (a socket that reconnected at the wrong moment), ask for the view once, 1.5 s past the
 * page's own zero: reading a view settles the clock in the engine. */
function overdue(g, left) {
  if (left > -1.5 || g.askedAt === g.view.version) return;
  if (!g.ws || g.ws.readyState !== WebSocket.OPEN) return;
  g.askedAt = g.view.version;
  const id = g.nextId++;
  g.pending.set(id, { move: null });
  g.ws.send(JSON.stringify({ type: "view", id }));
}
setInterval(tick, 500);

// --- input -----------------------------------------------------------------------------------
const board = $("#board");
board.addEventListener("pointerdown", (event) => {
  const g = ui.game;
  if (!g || !g.puzzle || (g.view && g.view.paused)) return;
  const hit = hitTest(board, event, g.puzzle);
  if (!hit) return;
  const key = `${hit.r},${hit.c}`;
  const sq = g.puzzle.cells[hit.r][hit.c];
  if (sq === ".") {
    // a second tap on the player's own selection flips the entry; the first tap on the cell
    // the page selected at the start only selects it
    if (g.selected === key && g.chosen) g.dir = g.dir === "a" ? "d" : "a";
    g.selected = key;
    g.selectedClue = null;
  } else if (Array.isArray(sq)) {
    g.selectedClue = key;
    g.selected = null;
    const [down, across] = sq;
    g.dir = across === null ? "d" : down === null ? "a" : hit.half;
  }
  g.chosen = true;
  event.preventDefault(); // focus goes to the selected cell (or clue), not to what was hit
  render(g, true);
});

for (const b of document.querySelectorAll("[data-digit]")) {
  b.addEventListener("click", () => ui.game && place(ui.game, Number(b.dataset.digit), ui.game.pencil));
}
$("#erase").addEventListener("click", () => ui.game && erase(ui.game));
$("#undo").addEventListener("click", () => ui.game && undo(ui.game));
$("#redo").addEventListener("click", () => ui.game && redo(ui.game));
$("#pencil").addEventListener("click", () => { if (ui.game) { ui.game.pencil = !ui.game.pencil; render(ui.game); } });
$("#errors").addEventListener("click", () => toggleErrors());
$("#candidates").addEventListener("click", () => ui.game && toggleCandidates(ui.game));
$("#submit").addEventListener("click", () => ui.game && send(ui.game, { kind: "submit" }));
$("#start-game").addEventListener("click", () => ui.game && send(ui.game, { kind: "start" }));
$("#pause").addEventListener("click", () => ui.game && togglePause(ui.game));
$("#resume").addEventListener("click", () => ui.game && togglePause(ui.game));
$("#fill").addEventListener("click", () => ui.game && fillCandidates(ui.game));
$("#restart").addEventListener("click", async () => {
  const g = ui.game;
  if (!g || !g.view) return;
  try { await startGame(restartBody(g.view)); } catch (err) { say(err.message); }
});

/** A new practice game on the same puzzle: by its seed when the engine's chooser drew it,
 * else the grid itself (a file, a puzz.link URL, a calendar day). */
function restartBody(v) {
  const spec = v.spec;
  const options = { permanent: spec.options.permanent, shields: spec.options.shields };
  if (spec.options.time_limit_s) options.time_limit_s = spec.options.time_limit_s;
  if (v.rules.chooses_puzzle && spec.seed && spec.source !== "file") {
    return { mode: "practice", size: spec.size, difficulty: spec.difficulty, seed: spec.seed, ...options };
  }
  return { mode: "practice", puzzle: v.puzzle.grid.map((row) => row.join(" ")).join("\n"), ...options };
}
for (const b of document.querySelectorAll("[data-shield]")) {
  b.addEventListener("click", () => ui.game && useShield(ui.game, b.dataset.shield));
}

function toggleErrors() {
  const g = ui.game;
  if (!g || !playable(g) || g.view.rules.competitive) return;
  g.showErrors = !g.showErrors;
  render(g);
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
document.addEventListener("keydown", (event) => {
  const g = ui.game;
  if (!g || !g.puzzle || $("#page-game").hidden) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (settings.open) return;
  const digit = /^(Digit|Numpad)([1-9])$/.exec(event.code);
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (event.key === "Escape") { togglePause(g); event.preventDefault(); return; }
  if (!ctrl && (event.key === "+" || event.key === "=")) { setZoom(g, g.zoom * 1.5); event.preventDefault(); return; }
  if (!ctrl && event.key === "-") { setZoom(g, g.zoom / 1.5); event.preventDefault(); return; }
  if (g.view && g.view.paused) return;
  if (ARROWS[event.key]) moveSelection(g, ...ARROWS[event.key]);
  else if (digit && !ctrl) place(g, Number(digit[2]), g.pencil || event.shiftKey);
  else if (event.key === "Backspace" || event.key === "Delete" || event.code === "Digit0") erase(g);
  else if (ctrl && key === "z") { if (event.shiftKey) redo(g); else undo(g); }
  else if (ctrl && key === "y") redo(g);
  else if (!ctrl && key === "p") { if (playable(g)) { g.pencil = !g.pencil; render(g); } }
  else if (!ctrl && key === "e") toggleErrors();
  else if (!ctrl && key === "c") toggleCandidates(g);
  else if (event.key === " ") { g.dir = g.dir === "a" ? "d" : "a"; render(g); }
  else return;
  event.preventDefault();
});

route();
