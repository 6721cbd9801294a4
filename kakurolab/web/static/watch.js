// Watching a live Arena or Battle (issue 50 §1): #/watch/ID, shared by its link or picked from
// "Live now" on the start page.  The page opens a spectator's socket ("watch" and the game, no
// token) and draws what the server pushes: the engine's spectator view, which holds a Battle's
// public board, each player's progress, shields and points, and never a pencil mark, an Arena
// racer's digits or (before the end) the solution.  It has no input at all: no digit pad, no
// keys, no moves; the server refuses a move on such a socket anyway.
import { drawBoard, parseGrid, runIndex, runsOf } from "./board.js";

const $ = (sel) => document.querySelector(sel);
let watching = null; // {id, ws, view, puzzle, index, closed, clockAt, timer}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor(s / 60));
  return `${mm}:${String(s % 60).padStart(2, "0")}`;
}

/** Leave the watch page: its socket is closed, and not opened again. */
export function stopWatch() {
  const w = watching;
  watching = null;
  if (!w) return;
  w.closed = true;
  clearInterval(w.timer);
  if (w.ws) w.ws.close();
}

/** Show game ``id`` as a spectator (``show`` is the page switcher of app.js). */
export function showWatch(id, show) {
  show("watch");
  if (watching && watching.id === id) return;
  stopWatch();
  const w = { id, ws: null, view: null, puzzle: null, index: null, closed: false, clockAt: 0, timer: null };
  watching = w;
  const board = $("#watch-board");
  board.innerHTML = "";
  delete board.dataset.shape;
  $("#watch-title").textContent = "";
  $("#watch-turn").textContent = "";
  $("#watch-players").innerHTML = "";
  $("#watch-standings").innerHTML = "";
  $("#watch-message").textContent = "Connecting...";
  $("#watch-link").value = `${location.origin}/#/watch/${encodeURIComponent(id)}`;
  delete document.body.dataset.watchVersion;
  connect(w);
  w.timer = setInterval(() => tick(w), 250);
}

function connect(w) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  w.ws = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "watch", game: w.id })));
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "fatal") { w.closed = true; $("#watch-message").textContent = msg.error; return; }
    if (msg.type === "error") { $("#watch-message").textContent = msg.error; return; }
    if (msg.view && watching === w) setView(w, msg.view);
  });
  ws.addEventListener("close", () => {
    if (w.closed || watching !== w) return;
    document.body.dataset.watchConnection = "down";
    $("#watch-message").textContent = "Connection lost: watching again when it is back";
    setTimeout(() => { if (!w.closed && watching === w) connect(w); }, 1000);
  });
}

function setView(w, v) {
  w.view = v;
  w.clockAt = performance.now();
  document.body.dataset.watchConnection = "up";
  if (!w.puzzle || w.puzzle.id !== v.puzzle.id) {
    w.puzzle = parseGrid(v.puzzle);
    w.index = runIndex(runsOf(w.puzzle));
  }
  const key = (name) => { const m = /^r(\d+)c(\d+)$/.exec(name); return `${Number(m[1]) - 1},${Number(m[2]) - 1}`; };
  const entries = new Map(Object.entries(v.board).map(([name, d]) => [key(name), d]));
  let solution = null;
  if (v.solution) {
    solution = new Map();
    v.solution.forEach((row, r) => [...row].forEach((ch, c) => { if (ch >= "1" && ch <= "9") solution.set(`${r},${c}`, Number(ch)); }));
  }
  drawBoard($("#watch-board"), {
    puzzle: w.puzzle, index: w.index, entries, marks: new Map(), locked: new Set(entries.keys()),
    wrong: new Set(), hinted: new Set(), runCells: new Set(), done: new Set(), selected: null,
    selectedClue: null, solution, sameDigit: null, ruled: null, cands: null,
  });
  $("#watch-title").textContent = `${v.rules.title || v.mode} · ${v.spec.size} ${v.spec.difficulty || ""}`;
  const names = Object.fromEntries(v.players.map((p) => [p.player_id, p.name]));
  $("#watch-turn").textContent = v.phase === "waiting" ? `Waiting for players (${v.players.length}/${v.rules.seats})`
    : v.phase === "finished" ? (v.end_reason === "time" ? "Over: the time ran out" : "Over")
    : v.turn ? `${names[v.turn] || "?"} to play` : "Racing";
  $("#watch-message").textContent = v.phase === "finished" ? "The game is over: the board shows the solution"
    : v.rules.shared_board ? "Watching live: digits appear as they are placed"
    : "Watching live: each racer's progress (their digits stay theirs until the race is over)";
  drawPlayers(v);
  drawStandings(v);
  document.body.dataset.watchPhase = v.phase;
  document.body.dataset.watchVersion = String(v.version);
}

function drawPlayers(v) {
  const list = $("#watch-players");
  list.innerHTML = "";
  for (const p of v.players) {
    const li = document.createElement("li");
    li.className = p.player_id === v.turn ? "turn" : "";
    li.dataset.player = p.player_id;
    const name = document.createElement("span");
    name.textContent = p.name;
    const right = document.createElement("span");
    right.className = "player-score";
    const pct = Math.round(100 * p.progress);
    const shields = `${p.shields_used} shield${p.shields_used === 1 ? "" : "s"} spent`;
    right.textContent = p.points !== undefined ? `${p.points} pts · ${shields}` : `${pct}% filled · ${shields}`;
    right.dataset.progress = String(p.progress);
    li.append(name, right);
    list.append(li);
  }
}

function drawStandings(v) {
  const box = $("#watch-standings");
  box.innerHTML = "";
  if (v.phase !== "finished" || !v.standings.length) return;
  const table = document.createElement("table");
  for (const s of v.standings) {
    const tr = document.createElement("tr");
    for (const text of [s.rank, s.flagged ? `${s.name} (flagged: faster than a human)` : s.name, `${s.score} pts`]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.append(td);
    }
    table.append(tr);
  }
  const replay = document.createElement("a");
  replay.className = "button";
  replay.href = `#/replay/${encodeURIComponent(v.game_id)}`;
  replay.textContent = "Replay this game";
  box.append(table, replay);
}

function tick(w) {
  const v = w.view;
  if (!v) return;
  const since = v.phase === "active" ? (performance.now() - w.clockAt) / 1000 : 0;
  const shown = v.remaining_s !== null && v.remaining_s !== undefined ? v.remaining_s - since : v.elapsed_s + since;
  $("#watch-clock").textContent = clockText(shown);
}

/** The start page's "Live now" list: running races and duels, each a link to watch it. */
export async function drawLive(list) {
  let found;
  try {
    const res = await fetch("/api/live");
    if (!res.ok) return;
    found = (await res.json()).games;
  } catch { return; }
  list.innerHTML = "";
  for (const game of found) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#/watch/${encodeURIComponent(game.game_id)}`;
    a.textContent = `${game.mode} ${game.size} · ${game.players.join(" vs ")}`;
    li.append(a);
    list.append(li);
  }
  if (!found.length) {
    const li = document.createElement("li");
    li.className = "note";
    li.textContent = "No race or duel is running now.";
    list.append(li);
  }
}

$("#watch-copy").addEventListener("click", () => {
  const link = $("#watch-link");
  link.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => {});
});
