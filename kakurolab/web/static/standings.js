// Standings pages: a calendar day's leaderboard and the Arena's (#/standings), and the
// calendar archive by month (#/calendar/archive).  The engine decides what each board holds
// (finished results only: names, scores, times; never a grid); this file lays it out.
// app.js hands in its helpers once (setupStandings) and routes here.

let h = null; // { api, identity, show, showing, remember, clockText }

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};

const PAGES = `
<section id="page-standings" class="page" hidden>
  <div class="card board-card" id="day-card">
    <h2>Calendar day <span id="day-title" class="note"></span></h2>
    <p class="board-nav"><a id="day-prev" href="#/standings">◀ Day before</a>
      <a id="day-next" href="#/standings">Day after ▶</a>
      <a href="#/calendar/archive">Archive</a></p>
    <p id="day-note" class="note"></p>
    <table id="board-ranked" class="board"><caption>Ranked: solved on the day</caption>
      <thead><tr><th>#</th><th>Player</th><th>Score</th><th>Time</th><th>Shields used</th></tr></thead><tbody></tbody></table>
    <table id="board-late" class="board" hidden><caption>Solved later (not ranked)</caption>
      <thead><tr><th></th><th>Player</th><th>Score</th><th>Time</th><th>Shields used</th></tr></thead><tbody></tbody></table>
    <table id="board-flagged" class="board" hidden><caption>⚑ Under the human floor (not ranked)</caption>
      <thead><tr><th></th><th>Player</th><th>Score</th><th>Time</th><th>Shields used</th></tr></thead><tbody></tbody></table>
    <p id="day-message" class="message" role="status"></p>
  </div>
  <div class="card board-card" id="arena-card">
    <h2>Speed Arena</h2>
    <p class="board-nav" id="arena-periods">
      <a href="#/standings/arena/today" data-period="today">Today</a>
      <a href="#/standings/arena/week" data-period="week">This week</a>
      <a href="#/standings/arena/all" data-period="all">All time</a></p>
    <p id="arena-note" class="note"></p>
    <table id="arena-board" class="board">
      <thead><tr><th>#</th><th>Player</th><th>Wins</th><th>Races</th><th>Points</th><th>Fastest win</th></tr></thead><tbody></tbody></table>
    <p id="arena-message" class="message" role="status"></p>
  </div>
</section>
<section id="page-archive" class="page" hidden>
  <div class="card">
    <h2>Calendar archive <span id="archive-month" class="note"></span></h2>
    <p class="board-nav"><a id="archive-prev" href="#/calendar/archive">◀ Month before</a>
      <a id="archive-next" href="#/calendar/archive">Month after ▶</a>
      <a href="#/calendar">This week</a></p>
    <p class="note">Today and the last 28 days are played as the calendar game, for a score; an older day is played for practice on the very puzzle of its day.</p>
    <ol id="archive-days" class="archive"></ol>
    <p id="archive-message" class="message" role="status"></p>
  </div>
</section>`;

export function setupStandings(helpers) {
  h = helpers;
  const stats = document.querySelector("#page-stats");
  stats.insertAdjacentHTML("afterend", PAGES);
}

const state = { date: null, period: "week" };

const shiftDay = (date, days) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** #/standings, #/standings/day/DATE, #/standings/arena/PERIOD */
export async function showStandings(parts) {
  if (parts[1] === "day" && parts[2]) state.date = decodeURIComponent(parts[2]);
  else if (parts[1] === "arena" && parts[2]) state.period = decodeURIComponent(parts[2]);
  else if (parts.length < 2 || !parts[1]) state.date = null;
  h.show("standings");
  const current = h.showing("standings");
  const me = await h.identity();
  await Promise.all([dayBoard(me, current), arenaBoard(me, current)]);
  if (current()) document.body.dataset.standings = `${state.date || "today"} ${state.period}`;
}

function resultRow(entry, me, ranked) {
  const tr = el("tr", { className: entry.player_id === me.player_id ? "me" : "" });
  tr.dataset.player = entry.name;
  tr.dataset.rank = ranked ? String(entry.rank) : "";
  const flag = entry.flagged ? el("span", { className: "flag", title: "under the human floor", textContent: " ⚑" }) : null;
  const late = entry.late ? el("span", { className: "note", textContent: " late" }) : null;
  tr.append(
    el("td", { textContent: ranked ? String(entry.rank) : "–" }),
    el("td", {}, entry.name, flag, late),
    el("td", { textContent: String(entry.score) }),
    el("td", { textContent: entry.time_s === null ? "–" : h.clockText(entry.time_s) }),
    el("td", { textContent: String(entry.shields_used) }),
  );
  return tr;
}

async function dayBoard(me, current) {
  const msg = document.querySelector("#day-message");
  msg.textContent = "";
  const query = state.date ? `?date=${encodeURIComponent(state.date)}` : "";
  let data;
  try { data = await h.api("GET", `/api/standings/calendar${query}`, null, me.token); }
  catch (err) {
    if (!current()) return;
    for (const id of ["#board-ranked", "#board-late", "#board-flagged"]) document.querySelector(`${id} tbody`).replaceChildren();
    msg.textContent = err.message;
    return;
  }
  if (!current()) return;
  document.querySelector("#day-title").textContent = `${data.weekday} ${data.date} · ${data.title} · ${data.size} ${data.difficulty}`;
  const notes = [];
  if (data.open) notes.push("Today's day is still open: only finished games are shown.");
  else if (data.live) notes.push("Over for the streak; still played late for a score until it is 28 days old.");
  if (data.floor_s !== null) notes.push(`Human floor: ${data.floor_s} s for this grid.`);
  if (!data.made) notes.push("No puzzle was made for this day.");
  document.querySelector("#day-note").textContent = notes.join(" ");
  const prev = document.querySelector("#day-prev");
  prev.href = `#/standings/day/${shiftDay(data.date, -1)}`;
  const next = document.querySelector("#day-next");
  next.hidden = data.open;
  next.href = `#/standings/day/${shiftDay(data.date, 1)}`;
  const fill = (id, entries, ranked) => {
    const table = document.querySelector(id);
    table.querySelector("tbody").replaceChildren(...entries.map((e) => resultRow(e, me, ranked)));
    return table;
  };
  const ranked = fill("#board-ranked", data.ranked, true);
  if (!data.ranked.length) ranked.querySelector("tbody").append(el("tr", {}, el("td", { colSpan: 5, className: "note", textContent: "Nobody has solved this day yet." })));
  fill("#board-late", data.late, false).hidden = !data.late.length;
  fill("#board-flagged", data.flagged, false).hidden = !data.flagged.length;
}

async function arenaBoard(me, current) {
  const msg = document.querySelector("#arena-message");
  msg.textContent = "";
  for (const a of document.querySelectorAll("#arena-periods a")) a.setAttribute("aria-current", String(a.dataset.period === state.period));
  let data;
  try { data = await h.api("GET", `/api/standings/arena?period=${encodeURIComponent(state.period)}`, null, me.token); }
  catch (err) { if (current()) msg.textContent = err.message; return; }
  if (!current()) return;
  document.querySelector("#arena-note").textContent = data.first
    ? `Races ended ${data.first === data.last ? `on ${data.first}` : `from ${data.first} to ${data.last}`} (UTC). Ranked by wins, then points, then the fastest win.`
    : "Every race ever. Ranked by wins, then points, then the fastest win.";
  const rows = data.racers.map((r) => {
    const tr = el("tr", { className: r.player_id === me.player_id ? "me" : "" });
    tr.dataset.player = r.name;
    tr.dataset.rank = String(r.rank);
    const flag = r.flagged ? el("span", { className: "flag", title: "wins under the human floor (not counted)", textContent: ` ⚑${r.flagged}` }) : null;
    tr.append(
      el("td", { textContent: String(r.rank) }), el("td", {}, r.name, flag),
      el("td", { textContent: String(r.wins) }), el("td", { textContent: String(r.races) }),
      el("td", { textContent: String(r.points) }),
      el("td", { textContent: r.best_s === null ? "–" : h.clockText(r.best_s) }),
    );
    return tr;
  });
  if (!rows.length) rows.push(el("tr", {}, el("td", { colSpan: 6, className: "note", textContent: "No race finished in this period." })));
  document.querySelector("#arena-board tbody").replaceChildren(...rows);
}

/** #/calendar/archive, #/calendar/archive/YYYY-MM */
export async function showArchive(month) {
  h.show("archive");
  const current = h.showing("archive");
  const list = document.querySelector("#archive-days");
  const msg = document.querySelector("#archive-message");
  msg.textContent = "";
  const me = await h.identity();
  let data;
  const query = month ? `?month=${encodeURIComponent(month)}` : "";
  try { data = await h.api("GET", `/api/calendar/archive${query}`, null, me.token); }
  catch (err) { if (current()) { list.replaceChildren(); msg.textContent = err.message; } return; }
  if (!current()) return;
  document.querySelector("#archive-month").textContent = `${data.month} · since ${data.first_day}`;
  const prev = document.querySelector("#archive-prev");
  prev.hidden = !data.previous;
  prev.href = `#/calendar/archive/${data.previous || ""}`;
  const next = document.querySelector("#archive-next");
  next.hidden = !data.next;
  next.href = `#/calendar/archive/${data.next || ""}`;
  list.replaceChildren(...data.days.map((day) => archiveDay(day, me)));
  document.body.dataset.archive = data.month;
}

const PLAY = {
  today: ["Play today's", "campaign"],
  live: ["Play (scored, late)", "campaign"],
  practice: ["Practice", "practice"],
};

function archiveDay(day, me) {
  const li = el("li", { className: `state-${day.state}` });
  li.dataset.date = day.date;
  li.dataset.state = day.state;
  const mine = day.mine && day.mine.solved_on ? ` · you: ${day.mine.score} points` : "";
  const solvers = `${day.solvers} solved on the day`;
  li.append(
    el("b", { textContent: `${day.weekday} ${day.date}` }),
    el("span", { className: "note", textContent: ` ${day.title} · ${day.size} ${day.difficulty} · ${solvers}${mine}` }),
    " ",
    el("a", { href: `#/standings/day/${day.date}`, className: "button", textContent: "Leaderboard" }),
  );
  const play = PLAY[day.state];
  if (play) {
    const button = el("button", { type: "button", textContent: play[0] });
    button.dataset.play = play[1];
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const view = await h.api("POST", "/api/games", { mode: play[1], date: day.date }, me.token);
        h.remember(view);
        location.hash = `#/game/${encodeURIComponent(view.game_id)}`;
      } catch (err) { document.querySelector("#archive-message").textContent = err.message; }
      finally { button.disabled = false; }
    });
    li.append(" ", button);
  } else {
    li.append(el("span", { className: "note", textContent: " no puzzle was made that day" }));
  }
  return li;
}
