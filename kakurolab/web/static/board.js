// The board: an SVG drawn from the puzzle data the server sends (no solution in it), with
// the conventions of the rulebook and of kakurolab/render.py: clue cells split by a diagonal,
// the across sum top right with a right-pointing badge, the down sum bottom left with a
// down-pointing badge, pencil marks on a 3x3 keypad layout (digits 1, 3, 7, 9 in the corners).

const S = 40; // cell side in SVG user units; the viewBox scales it to any screen
const M = 2;  // margin

/** The engine's cell name ("r3c4", 1-based) of a 0-based cell, and back. */
export const nameOf = (r, c) => `r${r + 1}c${c + 1}`;
export function cellOf(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  return m ? [Number(m[1]) - 1, Number(m[2]) - 1] : null;
}

/** The engine's grid tokens ("#", ".", "D\\A") as "#", "." or [down, across]. */
export function parseGrid(puzzle) {
  const cells = puzzle.grid.map((row) => row.map((token) => {
    if (token === "#" || token === ".") return token;
    const [down, across] = token.split("\\");
    return [down === "" ? null : Number(down), across === "" ? null : Number(across)];
  }));
  return { id: puzzle.id, rows: puzzle.rows, cols: puzzle.cols, cells };
}

/** Runs of a parsed grid: [{key, clue:[r,c], dir:'a'|'d', sum, cells:[[r,c],...]}]. */
export function runsOf(puzzle) {
  const runs = [];
  const { rows, cols, cells } = puzzle;
  const white = (r, c) => r >= 0 && c >= 0 && r < rows && c < cols && cells[r][c] === ".";
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const sq = cells[r][c];
      if (!Array.isArray(sq)) continue;
      const [down, across] = sq;
      if (across !== null && across !== undefined) {
        const run = [];
        for (let k = c + 1; white(r, k); k++) run.push([r, k]);
        runs.push({ key: `${r},${c},a`, clue: [r, c], dir: "a", sum: across, cells: run });
      }
      if (down !== null && down !== undefined) {
        const run = [];
        for (let k = r + 1; white(k, c); k++) run.push([k, c]);
        runs.push({ key: `${r},${c},d`, clue: [r, c], dir: "d", sum: down, cells: run });
      }
    }
  }
  return runs;
}

/** For each white cell key "r,c": {a: run, d: run}. */
export function runIndex(runs) {
  const index = new Map();
  for (const run of runs) {
    for (const [r, c] of run.cells) {
      const key = `${r},${c}`;
      if (!index.has(key)) index.set(key, {});
      index.get(key)[run.dir] = run;
    }
  }
  return index;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Drawn text (in the ink layer, hidden from the accessibility tree: its cell's name says it). */
function text(x, y, size, cls, body, extra = "") {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-size="${size.toFixed(1)}" class="${cls}"${extra}>${esc(body)}</text>`;
}

/**
 * What a screen reader says for a white cell: "row 3 column 4, across 14, down 23, empty"
 * (1-based, as the cells are spoken of everywhere), then the pencil marks and a rule break.
 * On the end screen a cell whose digit is not the solution's says "solution 7" and, when the
 * player had typed one, "you had 3".  ``more`` adds the pencil marks a placed digit of the
 * same entry rules out (``ruled``, a Set) and the candidates view's digits (``cands``).
 */
export function cellLabel(r, c, runs, digit, marks, wrong, solved, more = {}) {
  const parts = [`row ${r + 1} column ${c + 1}`];
  if (runs && runs.a) parts.push(`across ${runs.a.sum}`);
  if (runs && runs.d) parts.push(`down ${runs.d.sum}`);
  if (solved && solved !== digit) {
    parts.push(`solution ${solved}`);
    if (digit) parts.push(`you had ${digit}`);
    return parts.join(", ");
  }
  parts.push(digit ? String(digit) : "empty");
  const sorted = (set) => [...set].sort().join(" ");
  if (!digit && marks && marks.size) {
    parts.push(`pencil ${sorted(marks)}`);
    const out = more.ruled ? [...marks].filter((d) => more.ruled.has(d)) : [];
    if (out.length) parts.push(`ruled out ${sorted(out)}`);
  } else if (!digit && more.cands) parts.push(more.cands.size ? `candidates ${sorted(more.cands)}` : "no candidate");
  if (wrong) parts.push("breaks a rule");
  return parts.join(", ");
}

/**
 * Draw the board.  `b` holds: puzzle, index (runIndex), entries (Map "r,c" -> digit), marks
 * (Map "r,c" -> Set), locked (Set), wrong (Set), hinted (Set), runCells (Set), done (Set of
 * finished run keys "r,c,a"), selected ("r,c" or null), selectedClue ("r,c" or null),
 * solution (Map "r,c" -> digit, or null: drawn where the entry is missing or wrong),
 * sameDigit (the selected cell's digit: its every copy lit, in entries and pencil marks, or
 * null), ruled (Map "r,c" -> Set of pencil marks a placed digit of the same entry rules out)
 * and cands (the engine's candidates view, Map "r,c" -> Set, or null: drawn in the empty cells
 * that hold no pencil mark of the player's own).
 *
 * For assistive technology it is an ARIA grid: one `row` per board row, one `gridcell` per
 * white or clue cell (blocks are scenery, hidden) with the whole of what it shows in its name,
 * and a roving tab stop: the selected cell (or clue) alone has tabindex 0.  The cells are made
 * once per puzzle and then only updated, so the focused cell keeps its focus through every
 * redraw (a screen reader is not told of a focus move that did not happen); what is drawn in
 * them (figures, digits, marks, strikes) is one layer hidden from the accessibility tree,
 * redrawn whole, painted over the cells.
 */
export function drawBoard(svg, b) {
  const { rows, cols, cells } = b.puzzle;
  const shape = `${rows}x${cols}:${cells.map((row) => row.map((sq) => (Array.isArray(sq) ? sq.join("\\") : sq)).join(" ")).join("/")}`;
  if (svg.dataset.shape !== shape) buildCells(svg, b.puzzle, shape);
  const stop = b.selected || b.selectedClue || firstWhite(cells);
  const ink = [];
  for (const rect of svg.querySelectorAll('[role="gridcell"]')) {
    const r = Number(rect.dataset.r), c = Number(rect.dataset.c);
    const x = M + c * S;
    const y = M + r * S;
    const key = `${r},${c}`;
    const sq = cells[r][c];
    let cls, label;
    if (sq === ".") {
      const typed = b.entries.get(key);
      const solved = b.solution ? b.solution.get(key) : undefined;
      cls = ["white"];
      if (b.runCells.has(key)) cls.push("in-run");
      if (b.selected === key) cls.push("selected");
      if (b.wrong.has(key)) cls.push("wrong");
      if (b.hinted.has(key)) cls.push("hinted");
      if (b.sameDigit && typed === b.sameDigit && !(solved && solved !== typed)) cls.push("same-digit");
      const more = { ruled: b.ruled && b.ruled.get(key), cands: b.cands && (b.cands.get(key) || new Set()) };
      label = cellLabel(r, c, b.index && b.index.get(key), typed, b.marks.get(key), b.wrong.has(key), solved, more);
      inkWhite(ink, b, key, x, y, typed, solved, `data-r="${r}" data-c="${c}"`);
    } else {
      const [down, across] = sq;
      cls = b.selectedClue === key ? ["clue", "selected-clue"] : ["clue"];
      const sums = [across !== null && across !== undefined ? `across ${across}` : "",
        down !== null && down !== undefined ? `down ${down}` : ""].filter(Boolean).join(", ");
      label = `row ${r + 1} column ${c + 1}, clue ${sums}`;
      inkClue(ink, b, key, x, y, down, across);
    }
    set(rect, "class", cls.join(" "));
    set(rect, "aria-label", label);
    set(rect, "aria-selected", b.selected === key ? "true" : null);
    set(rect, "tabindex", key === stop ? "0" : "-1");
  }
  if (b.selected) { // last, so no neighbour is painted over it
    const [r, c] = b.selected.split(",").map(Number);
    ink.push(`<rect class="sel-frame" x="${M + c * S}" y="${M + r * S}" width="${S}" height="${S}"/>`);
  }
  svg.querySelector("g.ink").innerHTML = ink.join("");
}

/** An attribute set only when it changes (null: removed). */
function set(el, name, value) {
  if (value === null) { if (el.hasAttribute(name)) el.removeAttribute(name); }
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** The cells of a new puzzle: rows of rects (gridcells, blocks hidden), then the ink layer. */
function buildCells(svg, puzzle, shape) {
  const { rows, cols, cells } = puzzle;
  svg.setAttribute("viewBox", `0 0 ${cols * S + 2 * M} ${rows * S + 2 * M}`);
  svg.setAttribute("aria-rowcount", rows);
  svg.setAttribute("aria-colcount", cols);
  const out = [];
  for (let r = 0; r < rows; r++) {
    // a row is named by its number: named from its content it would say every cell again
    out.push(`<g role="row" aria-rowindex="${r + 1}" aria-label="row ${r + 1}">`);
    for (let c = 0; c < cols; c++) {
      const sq = cells[r][c];
      const at = `data-r="${r}" data-c="${c}" x="${M + c * S}" y="${M + r * S}" width="${S}" height="${S}"`;
      out.push(sq === "#"
        ? `<rect class="block" ${at} aria-hidden="true"/>`
        : `<rect ${at} role="gridcell" aria-colindex="${c + 1}" tabindex="-1"/>`);
    }
    out.push("</g>");
  }
  out.push('<g class="ink" aria-hidden="true"></g>');
  svg.innerHTML = out.join("");
  svg.dataset.shape = shape;
}

/** What a white cell shows: its digit, the solution's on the end screen, or pencil marks. */
function inkWhite(out, b, key, x, y, typed, solved, at) {
  if (solved && solved !== typed) {
    // the end screen: the solution's digit, and the player's wrong one small and struck
    out.push(text(x + S / 2, y + 0.54 * S, 0.6 * S, "digit solution", solved));
    if (typed) {
      out.push(text(x + 0.21 * S, y + 0.23 * S, 0.3 * S, "typed", typed, ` ${at}`));
      out.push(`<line class="strike typed-strike" x1="${x + 3}" y1="${y + 0.4 * S}" x2="${x + 0.39 * S}" y2="${y + 3}"/>`);
    }
  } else if (typed) {
    const dcls = ["digit"];
    if (b.locked.has(key)) dcls.push("locked");
    if (b.wrong.has(key)) dcls.push("wrong");
    out.push(text(x + S / 2, y + 0.54 * S, 0.6 * S, dcls.join(" "), typed, ` ${at}`));
    if (b.wrong.has(key)) {
      out.push(`<line class="strike" x1="${x + 8}" y1="${y + S - 8}" x2="${x + S - 8}" y2="${y + 8}"/>`);
    }
  } else {
    // the player's own pencil marks; where there are none, the candidates view's digits
    const marks = b.marks.get(key);
    const own = marks && marks.size;
    const shown = own ? marks : (b.cands && b.cands.get(key)) || new Set();
    const ruled = (own && b.ruled && b.ruled.get(key)) || new Set();
    for (const d of [...shown].sort()) {
      const row = Math.floor((d - 1) / 3);
      const col = (d - 1) % 3;
      const mx = x + (0.2 + 0.3 * col) * S, my = y + (0.2 + 0.3 * row) * S;
      const mcls = ["mark"];
      if (!own) mcls.push("cand");
      if (d === b.sameDigit) mcls.push("same-digit");
      if (ruled.has(d)) mcls.push("ruled-out");
      out.push(text(mx, my, 0.24 * S, mcls.join(" "), d, own ? "" : ` ${at}`));
      if (ruled.has(d)) {
        const k = 0.11 * S;
        out.push(`<line class="mark-strike" x1="${(mx - k).toFixed(1)}" y1="${(my + k).toFixed(1)}" x2="${(mx + k).toFixed(1)}" y2="${(my - k).toFixed(1)}"/>`);
      }
    }
  }
}

/** What a clue cell shows: the diagonal, each sum with its badge (greyed once finished). */
function inkClue(out, b, key, x, y, down, across) {
  out.push(`<line class="diagonal" x1="${x}" y1="${y}" x2="${x + S}" y2="${y + S}"/>`);
  if (across !== null && across !== undefined) {
    const done = b.done && b.done.has(`${key},a`) ? " done" : "";
    out.push(text(x + 0.6 * S, y + 0.3 * S, 0.3 * S, `clue-text clue-across${done}`, across));
    const bx = x + 0.89 * S, by = y + 0.3 * S, k = 0.065 * S;
    out.push(`<polygon class="badge badge-across" points="${bx - k},${by - k} ${bx + k},${by} ${bx - k},${by + k}"/>`);
  }
  if (down !== null && down !== undefined) {
    const done = b.done && b.done.has(`${key},d`) ? " done" : "";
    out.push(text(x + 0.3 * S, y + 0.66 * S, 0.3 * S, `clue-text clue-down${done}`, down));
    const bx = x + 0.3 * S, by = y + 0.89 * S, k = 0.065 * S;
    out.push(`<polygon class="badge badge-down" points="${bx - k},${by - k} ${bx + k},${by - k} ${bx},${by + k}"/>`);
  }
}

/** The board's tab stop when nothing is selected yet: its first white cell. */
function firstWhite(cells) {
  for (let r = 0; r < cells.length; r++) {
    for (let c = 0; c < cells[r].length; c++) if (cells[r][c] === ".") return `${r},${c}`;
  }
  return null;
}

/** The board's tab stop (the one cell with tabindex 0), to give it focus after a redraw. */
export function tabStop(svg) {
  return svg.querySelector('[role="gridcell"][tabindex="0"]');
}

/** The cell under a pointer event and, for a clue cell, which half (a: top right, d: bottom left). */
export function hitTest(svg, event, puzzle) {
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const p = pt.matrixTransform(ctm.inverse());
  const c = Math.floor((p.x - M) / S);
  const r = Math.floor((p.y - M) / S);
  if (r < 0 || c < 0 || r >= puzzle.rows || c >= puzzle.cols) return null;
  const lx = p.x - M - c * S;
  const ly = p.y - M - r * S;
  return { r, c, half: lx > ly ? "a" : "d" };
}
