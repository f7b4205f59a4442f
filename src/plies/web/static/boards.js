// Boards of every game, drawn from the JSON of plies.web.boards (board_view) by the kind of
// board and the look the view describes (never by the game's name), and played by clicking the
// targets of move_paths: a move is the path of target ids clicked to make it.
import { el, svg } from "/static/common.js";

/**
 * Draw ``view`` into ``container`` and let the user click one of the ``legal`` moves
 * (``[{notation, path}]``; empty when the user may not move). ``options``: ``onMove(notation)``
 * (called once a move is complete; while a promise it returns is pending, clicks are ignored),
 * ``lastMove`` (a notation shown under the board, or null) and ``disabled``.
 * Returns ``{reset()}``, which drops a half-entered move.
 */
export function renderBoard(container, view, legal = [], options = {}) {
  const moves = options.disabled ? [] : legal || [];
  const root = el("div", {
    class: `board board-${view.kind}` + (moves.length ? " playable" : ""),
    "data-board": view.game,
    "data-kind": view.kind,
  });
  const draw = DRAWINGS[view.kind] || drawText;
  root.append(draw(view, legal || []));
  if (view.buttons && view.buttons.length) {
    root.append(el("div", { class: "board-buttons" }, view.buttons.map((button) =>
      el("button", { type: "button", class: "secondary", "data-target": button.id }, button.label))));
  }
  if (view.pairs && moves.length > 1) root.append(moveList(moves, options));
  const chooser = el("div", { class: "board-chooser", hidden: true });
  root.append(chooser, caption(view, options.lastMove));
  for (const id of view.last || []) {
    for (const node of root.querySelectorAll(`[data-target="${CSS.escape(id)}"], [data-cell="${CSS.escape(id)}"]`)) {
      node.classList.add("last");
    }
  }
  container.replaceChildren(root);
  const picker = new Picker(root, chooser, moves, view, options.onMove);
  return { reset: () => picker.reset() };
}

// Entering a move ---------------------------------------------------------------------------

/** The clicks of a move being entered, the targets they leave open, and the highlights. */
class Picker {
  constructor(root, chooser, moves, view, onMove) {
    this.root = root;
    this.chooser = chooser;
    this.moves = moves;
    this.pairs = Boolean(view.pairs);
    this.explain = Boolean(view.explain_illegal);
    this.onMove = onMove || (() => {});
    this.busy = false;
    this.path = [];
    this.dragFrom = null; // the target a press began on: released on another, a move is dragged
    this.dragged = false;
    root.addEventListener("click", (event) => this.click(event));
    root.addEventListener("pointerdown", (event) => this.press(event));
    root.addEventListener("pointerup", (event) => this.release(event));
    const away = (event) => {  // Escape, or a click outside the board, drops the clicks so far
      if (!root.isConnected) {
        document.removeEventListener("keydown", away);
        document.removeEventListener("click", away);
      } else if (this.path.length && (event.key === "Escape" || (event.type === "click" && !root.contains(event.target)))) {
        this.reset();
      }
    };
    document.addEventListener("keydown", away);
    document.addEventListener("click", away);
    this.show();
  }

  /** The moves still possible after ``path``: [{move, next: [ids], complete}]. */
  options(path) {
    const found = [];
    for (const move of this.moves) {
      const state = this.pairs ? pairsLeft(move.path, path) : sequenceLeft(move.path, path);
      if (state) found.push({ move, ...state });
    }
    return found;
  }

  /** The ids that may be clicked next. */
  nextTargets() {
    return new Set(this.options(this.path).flatMap((option) => option.next));
  }

  /** A press on a target a move may start from: the start of a drag. */
  press(event) {
    const target = event.target.closest("[data-target]");
    const id = target && this.root.contains(target) ? target.dataset.target : null;
    this.dragFrom = id !== null && !this.path.length && this.nextTargets().has(id) ? id : null;
    if (this.dragFrom !== null) event.preventDefault(); // no text selection while dragging
  }

  /** Released over another target: the two clicks of a move, dragged (click-click works too). */
  release(event) {
    const from = this.dragFrom;
    this.dragFrom = null;
    if (from === null || this.busy) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const target = under && under.closest("[data-target]");
    const id = target && this.root.contains(target) ? target.dataset.target : null;
    if (id === null || id === from) return; // a click: the click handler takes it
    this.dragged = true; // the click the browser may send after a drag is not one
    setTimeout(() => { this.dragged = false; }, 0);
    this.path = [from];
    this.click({ target });
  }

  click(event) {
    if (event instanceof Event && this.dragged) return;
    if (this.busy || !this.moves.length) return;
    const choice = event.target.closest("[data-choice]");
    if (choice) return this.finish(choice.dataset.choice);
    const target = event.target.closest("[data-target]");
    const id = target && this.root.contains(target) ? target.dataset.target : null;
    if (id !== null && this.nextTargets().has(id)) {
      this.path.push(id);
    } else if (id !== null && this.path.length && this.options([]).some((o) => o.next.includes(id))) {
      this.path = [id]; // a fresh start: another piece, another column
    } else if (id !== null && this.explain && !this.path.length) {
      return this.finish(id); // no legal move: sent all the same, for the game to say why
    } else {
      return this.reset();
    }
    const open = this.options(this.path);
    const complete = open.filter((option) => option.complete).map((option) => option.move);
    const more = open.some((option) => option.next.length);
    if (complete.length === 1 && !more) return this.finish(complete[0].notation);
    this.show(complete);
  }

  finish(notation) {
    this.reset();
    this.busy = true;
    let answer;
    try {
      answer = this.onMove(notation);
    } finally {
      if (answer && typeof answer.then === "function") {
        answer.then(() => { this.busy = false; }, () => { this.busy = false; });
      } else {
        this.busy = false;
      }
    }
  }

  reset() {
    this.path = [];
    this.show();
  }

  /** Mark the clicked ids and the possible next ones; offer ``complete`` moves to choose. */
  show(complete = []) {
    const next = this.nextTargets();
    const starting = this.path.length === 0;
    for (const node of this.root.querySelectorAll("[data-target]")) {
      const id = node.dataset.target;
      node.classList.toggle("selected", this.path.includes(id));
      node.classList.toggle("start", starting && next.has(id));
      node.classList.toggle("target", !starting && next.has(id));
      if (node.tagName === "BUTTON") node.disabled = !next.has(id);
    }
    this.chooser.replaceChildren();
    this.chooser.hidden = complete.length === 0;
    if (complete.length) {
      this.chooser.append(el("span", { class: "muted" }, next.size ? "play, or keep clicking:" : "choose:"),
        ...complete.map((move) => el("button", { type: "button", "data-choice": move.notation }, move.notation)));
    }
  }
}

/** A path entered in order: what is left of ``full`` after the clicks ``path``, or null. */
function sequenceLeft(full, path) {
  if (path.length > full.length || path.some((id, i) => full[i] !== id)) return null;
  const complete = path.length === full.length;
  return { next: complete ? [] : [full[path.length]], complete };
}

/** A path of (from, to) pairs entered in any order: what is left after ``path``, or null. A
 * path of one target (a button: pass, a cube action) is entered as it is. */
function pairsLeft(full, path) {
  if (full.length === 1) return sequenceLeft(full, path);
  const rest = [];
  for (let i = 0; i + 1 < full.length; i += 2) rest.push([full[i], full[i + 1]]);
  const pending = path.length % 2 ? path[path.length - 1] : null;
  for (let i = 0; i + 1 < path.length; i += 2) {
    const at = rest.findIndex(([from, to]) => from === path[i] && to === path[i + 1]);
    if (at < 0) return null;
    rest.splice(at, 1);
  }
  if (pending !== null) {
    const next = rest.filter(([from]) => from === pending).map(([, to]) => to);
    return next.length ? { next, complete: false } : null;
  }
  return { next: rest.map(([from]) => from), complete: rest.length === 0 };
}

/** Every move in a list, for turns that are long to click. */
function moveList(moves, options) {
  const select = el("select", { "data-moves": "" },
    el("option", { value: "" }, `or pick one of the ${moves.length} moves`),
    moves.map((move) => el("option", { value: move.notation }, move.notation)));
  const play = el("button", { type: "button", class: "secondary", "data-choice": "" }, "play");
  select.addEventListener("change", () => { play.dataset.choice = select.value; });
  play.addEventListener("click", (event) => { if (!select.value) event.stopPropagation(); });
  return el("div", { class: "board-list row" }, select, play);
}

function caption(view, lastMove) {
  const facts = (view.facts || []).map(([label, value]) => `${label} ${value}`);
  if (lastMove) facts.push(`last move ${lastMove}`);
  return el("div", { class: "board-caption" },
    el("strong", { class: "board-status" }, view.status),
    facts.length ? el("span", { class: "muted" }, " · " + facts.join(" · ")) : null);
}

// Grids -------------------------------------------------------------------------------------

/** A grid of cells drawn as its ``look`` says (plies.games.grid.Look): its surface under the
 * cells, its pieces, and its coordinates. */
function drawGrid(view) {
  const look = view.look;
  const size = Math.max(16, Math.min(look.cell, Math.floor(look.span / Math.max(view.columns, view.rows))));
  const [left, top, right, bottom] = margins(look.labels, view.row_labels.length > 0);
  const frame = { x: left, y: top, width: view.columns * size, height: view.rows * size };
  const width = left + frame.width + right;
  const height = top + frame.height + bottom;
  const picture = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, class: `grid surface-${look.surface}`,
  });
  const surface = SURFACES[look.surface] || SURFACES.paper;
  const drawPiece = PIECES[look.piece] || PIECES.mark;
  const mover = look.colours[view.to_move];
  if (look.piece === "stone") picture.append(shades(look.colours));
  picture.append(...surface.under(frame, size, width, height));
  view.cells.forEach((row, r) => row.forEach((cell, c) => {
    if (cell.gap) return; // a cell left out: the space between two boards
    const node = svg("g", { transform: `translate(${left + c * size},${top + r * size})`, "data-cell": cell.id || undefined });
    if (view.cell_targets && cell.id) node.setAttribute("data-target", cell.id);
    node.append(...surface.ground(cell, size));
    if (cell.label) node.append(svg("text", { x: 3, y: 11, class: "cell-label" }, cell.label));
    if (cell.star) node.append(svg("circle", { cx: size / 2, cy: size / 2, r: Math.max(2.5, size * 0.1), class: "star" }));
    if (cell.piece) node.append(...drawPiece(cell, size, size * surface.room, look.colours[cell.piece] || ""));
    node.append(...surface.marks(cell, size, mover));
    picture.append(node);
  }));
  (view.column_targets || []).forEach((id, c) => picture.append(svg("rect", {
    x: left + c * size, y: top - 4, width: size, height: frame.height + 8, class: "column-target", "data-target": id,
  })));
  picture.append(...coordinates(view, frame, size));
  return picture;
}

/** The room left round the cells for the coordinates: [left, top, right, bottom]. */
function margins(labels, rowLabels) {
  if (labels === "around") return [26, 22, 26, 24];
  const left = rowLabels ? 22 : 6;
  return labels === "bottom" ? [left, 6, 6, 24] : [left, 22, 6, 6];
}

/** The column labels above or below the cells (both ``around``), the row labels to the left
 * (both sides ``around``). */
function coordinates(view, frame, size) {
  const around = view.look.labels === "around";
  const under = frame.y + frame.height + 17;
  const ys = around ? [15, under] : [view.look.labels === "bottom" ? under : 15];
  const xs = around ? [[frame.x - 7, "end"], [frame.x + frame.width + 7, "start"]] : [[frame.x - 7, "end"]];
  return [
    ...ys.flatMap((y) => view.column_labels.map((label, c) => svg("text", {
      x: frame.x + (c + 0.5) * size, y, class: "coord", "text-anchor": "middle",
    }, label))),
    ...xs.flatMap(([x, anchor]) => view.row_labels.map((label, r) => svg("text", {
      x, y: frame.y + (r + 0.5) * size + 4, class: "coord", "text-anchor": anchor,
    }, label))),
  ];
}

/** A circle in the middle of a cell of ``size``, of radius ``share`` of it. */
function dot(size, share, cls) {
  return svg("circle", { cx: size / 2, cy: size / 2, r: size * share, class: cls });
}

const square = (cell, size) => [svg("rect", { width: size, height: size, class: "cell" })];
const back = (frame) => [svg("rect", { ...frame, class: "grid-back" })];
const nothing = () => [];

/** The surfaces (``look.surface``): ``under`` the cells (given the cells' frame, the cell's
 * size and the picture's), each cell's ``ground``, the ``marks`` over its piece (given the
 * mover's colour), and ``room``, a piece's radius there as a share of the cell. */
const SURFACES = {
  paper: { room: 0.26, under: back, ground: square, marks: nothing },
  felt: {
    room: 0.41, under: back, ground: square,
    marks: (cell, size) => [...(cell.piece ? [] : [dot(size, 0.11, "hint")]), dot(size, 0.08, "last-mark")],
  },
  checkered: {
    room: 0.38, under: back,
    ground: (cell, size) => [svg("rect", { width: size, height: size, class: cell.dark ? "cell dark" : "cell light" })],
    marks: (cell, size) => (cell.id ? [dot(size, 0.12, "hint")] : []),
  },
  rack: {
    room: 0.38,
    under: (frame) => [svg("rect", {
      x: frame.x - 4, y: frame.y - 4, width: frame.width + 8, height: frame.height + 8, rx: 10, class: "rack-frame",
    })],
    ground: (cell, size) => [dot(size, 0.38, "hole")],
    marks: nothing,
  },
  blocks: {
    room: 0.32, under: nothing, marks: nothing,
    ground: (cell, size) => [svg("rect", { x: 2, y: 2, width: size - 4, height: size - 4, rx: 6, class: "cell" })],
  },
  lines: {
    room: 0.47, under: ruled, ground: square,
    marks: (cell, size, mover) => [cell.piece ? dot(size, 0.2, "last-mark") : dot(size, 0.47, `ghost ${mover || ""}`)],
  },
};

/** A wooden board under the cells, ruled through their middles. */
function ruled(frame, size, width, height) {
  const half = size / 2;
  const [x0, y0] = [frame.x + half, frame.y + half];
  const [x1, y1] = [frame.x + frame.width - half, frame.y + frame.height - half];
  const lines = [];
  for (let c = 0; c < Math.round(frame.width / size); c++) lines.push(`M${x0 + c * size},${y0} V${y1}`);
  for (let r = 0; r < Math.round(frame.height / size); r++) lines.push(`M${x0},${y0 + r * size} H${x1}`);
  return [svg("rect", { width, height, rx: 6, class: "grid-back" }),
    svg("path", { d: lines.join(" "), class: "rules" }),
    svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "rules-edge" })];
}

/** The pieces (``look.piece``): ``cell``'s piece of radius ``r`` in a cell of ``size``, its
 * ``colour`` a class. */
const PIECES = {
  mark(cell, size, r, colour) {
    const [m, c] = [size / 2 - r, size / 2];
    const strokes = {
      X: `M${m},${m} L${size - m},${size - m} M${size - m},${m} L${m},${size - m}`,
      Y: `M${m},${m} L${c},${c} L${size - m},${m} M${c},${c} L${c},${size - m}`,
    };
    const piece = svg("g", { class: `mark ${colour}`, "data-piece": cell.piece });
    if (cell.piece === "O") piece.append(svg("circle", { cx: c, cy: c, r }));
    else if (strokes[cell.piece]) piece.append(svg("path", { d: strokes[cell.piece] }));
    else piece.append(svg("text", { x: c, y: c + size * 0.15, "text-anchor": "middle", "font-size": size * 0.45 }, cell.piece));
    piece.style.strokeWidth = Math.max(2, size * 0.09);
    return [piece];
  },
  disc: (cell, size, r, colour) => [
    svg("circle", { cx: size / 2, cy: size / 2, r, class: `disc ${colour}`, "data-piece": cell.piece })],
  man(cell, size, r, colour) {
    const c = size / 2;
    const piece = svg("g", { class: `man ${colour}`, "data-piece": cell.piece, "data-king": cell.king ? "true" : undefined },
      svg("circle", { cx: c, cy: c + 2, r, class: "rim" }),
      svg("circle", { cx: c, cy: c, r, class: "top" }),
      svg("circle", { cx: c, cy: c, r: r * 0.71, class: "ring" }));
    if (cell.king) piece.append(crown(size));
    return [piece];
  },
  stone: (cell, size, r, colour) => [
    svg("circle", { cx: size / 2 + 1, cy: size / 2 + 1.5, r, class: "shadow" }),
    svg("circle", { cx: size / 2, cy: size / 2, r, class: `stone ${colour}`, "data-piece": cell.piece })],
  token(cell, size, r, colour) {
    const c = size / 2;
    return [svg("g", { class: `token ${colour}`, "data-piece": cell.piece },
      svg("circle", { cx: c, cy: c, r }),
      svg("text", { x: c, y: c + size * 0.12, "text-anchor": "middle", "font-size": size * 0.34 }, cell.piece))];
  },
};

/** The stones' shading, a gradient a colour (``stone-black``...), styled by boards.css. */
function shades(colours) {
  return svg("defs", {}, [...new Set(Object.values(colours))].map((colour) =>
    svg("radialGradient", { id: `stone-${colour}`, cx: "35%", cy: "30%", r: "75%" },
      svg("stop", { offset: "0%", class: "light" }), svg("stop", { offset: "100%", class: "dark" }))));
}

function crown(size) {
  const s = size / 56;
  const x = size / 2 - 13 * s;
  const y = size / 2 - 8 * s;
  const p = (a, b) => `${x + a * s},${y + b * s}`;
  return svg("path", {
    class: "crown",
    d: `M${p(0, 16)} L${p(0, 3)} L${p(7, 10)} L${p(13, 0)} L${p(19, 10)} L${p(26, 3)} L${p(26, 16)} Z`,
  });
}

// Heaps -------------------------------------------------------------------------------------

/** Heaps of sticks: a click takes a stick and every one after it. */
function drawHeaps(view) {
  const perLine = 25;
  const step = 16;
  const lineHeight = 58;
  const left = 70;
  const lines = view.heaps.map((heap) => Math.max(1, Math.ceil(heap.size / perLine)));
  const height = lines.reduce((a, b) => a + b, 0) * lineHeight + 10;
  const width = left + perLine * step + 60;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "heaps" });
  let y = 8;
  for (const [h, heap] of view.heaps.entries()) {
    const row = svg("g", { "data-heap": heap.id });
    row.append(svg("text", { x: 8, y: y + 32, class: "heap-label" }, `heap ${h + 1}`));
    heap.objects.forEach((id, i) => {
      const x = left + (i % perLine) * step;
      const top = y + Math.floor(i / perLine) * lineHeight;
      const stick = svg("g", { "data-target": id, "data-piece": "stick", class: "stick" },
        svg("rect", { x: x - 5, y: top, width: step - 2, height: 48, class: "stick-hit" }),
        svg("rect", { x: x - 2, y: top + 8, width: 5, height: 38, rx: 2, class: "stick-wood" }),
        svg("circle", { cx: x + 0.5, cy: top + 8, r: 4, class: "stick-head" }));
      stick.addEventListener("mouseenter", () => markTaking(row, i, true));
      stick.addEventListener("mouseleave", () => markTaking(row, i, false));
      row.append(stick);
    });
    row.append(svg("text", { x: left + Math.min(heap.size, perLine) * step + 6, y: y + 32, class: "heap-count" }, `(${heap.size})`));
    picture.append(row);
    y += lines[h] * lineHeight;
  }
  return picture;
}

/** While the pointer is on a stick that can be taken, mark it and those after it. */
function markTaking(row, index, on) {
  const sticks = [...row.querySelectorAll(".stick")];
  const active = on && sticks[index].matches(".start, .target");
  sticks.forEach((stick, i) => stick.classList.toggle("taking", active && i >= index));
}

// Pictures ----------------------------------------------------------------------------------

/** The game's own picture of its board, with its squares (``view.squares``, row by row from the
 * top left) laid over it as the click targets. */
function drawPicture(view) {
  const box = el("div", { class: "picture" });
  box.innerHTML = view.svg;
  const overlay = el("div", { class: "picture-overlay" });
  const pieces = new Map(view.pieces.map((p) => [p.square, p.piece]));
  const unit = 100 / view.size;
  view.squares.forEach((names, row) => names.forEach((name, column) => {
    const square = el("div", { class: "square", "data-target": name, "data-piece": pieces.get(name) });
    square.style.left = `${(view.margin + column * view.square) * unit}%`;
    square.style.top = `${(view.margin + row * view.square) * unit}%`;
    square.style.width = square.style.height = `${view.square * unit}%`;
    overlay.append(square);
  }));
  box.append(overlay);
  return box;
}

// Points ------------------------------------------------------------------------------------

const TABLE = { point: 40, bar: 40, tray: 46, edge: 12, depth: 176, gap: 56, checker: 34 };

/** A board of 24 points in four quarters, a bar between them and a tray for the men borne off
 * (``view.look.colours``: each side's men's colour), and the dice. */
function drawPoints(view) {
  const { point, bar, tray, edge, depth, gap } = TABLE;
  const colours = view.look.colours;
  const inner = 12 * point + bar;
  const width = edge * 2 + inner + tray + edge;
  const height = edge * 2 + 2 * depth + gap + 28;
  const top = edge + 14;
  const bottom = top + 2 * depth + gap;
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "points" });
  picture.append(svg("rect", { width, height, rx: 10, class: "table-frame" }),
    svg("rect", { x: edge, y: top, width: inner, height: bottom - top, class: "table-felt" }));
  const points = new Map(view.points.map((p) => [p.id, p]));
  const xOf = (i) => edge + i * point + (i >= 6 ? bar : 0);
  view.top.forEach((id, i) => picture.append(drawPoint(points.get(id), xOf(i), top, 1, i, colours)));
  view.bottom.forEach((id, i) => picture.append(drawPoint(points.get(id), xOf(i), bottom, -1, i + 1, colours)));
  const barX = edge + 6 * point;
  const sides = [view.bottom_side, ...Object.keys(colours).filter((side) => side !== view.bottom_side)];
  const mover = view.to_move in colours ? view.to_move : null;
  const middle = (top + bottom) / 2;
  picture.append(svg("rect", { x: barX, y: top, width: bar, height: bottom - top, class: "table-bar" }));
  for (const [k, side] of sides.entries()) {  // the bottom side's men on the bar below the middle
    const zone = svg("g", { class: "table-bar-zone", "data-target": side === mover ? "bar" : undefined });
    zone.append(svg("rect", { x: barX, y: k ? top : middle, width: bar, height: (bottom - top) / 2, class: "zone" }));
    stack(zone, side, colours[side], view.bar[side], barX + bar / 2, k ? middle - 24 : middle + 24, k ? -1 : 1);
    picture.append(zone);
  }
  const trayX = edge + inner + 8;
  for (const [k, side] of sides.entries()) {
    const zone = svg("g", { class: "table-off", "data-target": side === mover ? "off" : undefined });
    const y = k ? top : middle + 4;
    zone.append(svg("rect", { x: trayX, y, width: tray - 8, height: (bottom - top) / 2 - 4, rx: 4, class: "zone" }));
    for (let n = 0; n < view.off[side]; n++) {
      zone.append(svg("rect", {
        x: trayX + 3, y: k ? y + 4 + n * 10 : y + (bottom - top) / 2 - 18 - n * 10, width: tray - 14, height: 8, rx: 2,
        class: `slab ${colours[side]}`, "data-piece": side,
      }));
    }
    picture.append(zone);
  }
  drawDice(picture, view, edge + 9 * point + bar, middle, colours[mover]);
  if (view.cube) drawCube(picture, view.cube, view.bottom_side, edge + 3 * point, middle);
  return picture;
}

/** The doubling cube (``cube``: its value and owner, null in the middle) in the middle of the
 * left half, moved towards its owner's side; in the middle it shows 64, as on a real board. */
function drawCube(picture, cube, bottomSide, x, y) {
  const size = 28;
  const shift = cube.owner === null ? 0 : cube.owner === bottomSide ? 12 : -12;
  const top = y - size / 2 + shift;
  const shown = cube.owner === null && cube.value === 1 ? 64 : cube.value;
  const node = svg("g", { class: "cube", "data-cube": String(cube.value), "data-owner": cube.owner || "" });
  node.append(svg("rect", { x: x - size / 2, y: top, width: size, height: size, rx: 4 }),
    svg("text", { x, y: top + size / 2 + 5, "text-anchor": "middle", class: "cube-value" }, String(shown)));
  picture.append(node);
}

function drawPoint(point, x, base, direction, index, colours) {
  const { point: w, depth } = TABLE;
  const tip = base + direction * depth * 0.92;
  const node = svg("g", { class: "table-point", "data-target": point.id });
  node.append(svg("path", { d: `M${x},${base} L${x + w / 2},${tip} L${x + w},${base} Z`, class: index % 2 ? "tri-a" : "tri-b" }),
    svg("rect", { x, y: direction > 0 ? base : base - depth, width: w, height: depth, class: "zone" }),
    svg("text", { x: x + w / 2, y: direction > 0 ? base - 4 : base + 13, class: "table-label", "text-anchor": "middle" }, point.label));
  if (point.side) stack(node, point.side, colours[point.side], point.count, x + w / 2, base + direction * (TABLE.checker / 2 + 1), direction);
  return node;
}

function stack(node, side, colour, count, x, y, direction) {
  const r = TABLE.checker / 2 - 1;
  for (let i = 0; i < Math.min(count, 5); i++) {
    node.append(svg("circle", { cx: x, cy: y + direction * i * (TABLE.checker - 2), r, class: `checker ${colour}`, "data-piece": side }));
  }
  if (count > 5) {
    node.append(svg("text", { x, y: y + direction * 4 * (TABLE.checker - 2) + 5, class: `stack-count ${colour}`, "text-anchor": "middle" }, String(count)));
  }
}

const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]] };

/** The dice, coloured as the mover's men (``colour``). */
function drawDice(picture, view, x, y, colour) {
  const size = 30;
  const dice = view.dice || [];
  dice.forEach((value, i) => {
    const left = x + (i - dice.length / 2) * (size + 8) + 4;
    const die = svg("g", { class: `die ${colour || ""}`, "data-die": value });
    die.append(svg("rect", { x: left, y: y - size / 2, width: size, height: size, rx: 5 }));
    for (const [a, b] of PIPS[value] || []) {
      die.append(svg("circle", { cx: left + 7 + a * 8, cy: y - size / 2 + 7 + b * 8, r: 2.7, class: "pip" }));
    }
    picture.append(die);
  });
  if (dice.length === 2 && dice[0] === dice[1]) {
    picture.append(svg("text", { x: x + size + 14, y: y + 5, class: "table-label" }, "×2"));
  }
}

// Cards -------------------------------------------------------------------------------------

/** A card table: the seats top to bottom, each with its cards (null: face down), what it has
 * put in the pot, and whether it is to act, has folded or won; the public cards between them
 * (empty slots for those still to come), the pot, and the betting so far. The seat whose view
 * is drawn (``view.seat``) is marked "you"; the actions are the board's buttons. */
function drawCards(view) {
  const seat = (s) => el("div", {
    class: ["seat", s.to_move ? "to-move" : "", s.folded ? "folded" : "", s.won ? "won" : ""].filter(Boolean).join(" "),
    "data-player": s.player,
  },
  el("div", { class: "seat-name" }, s.player, s.player === view.seat ? el("span", { class: "you" }, " (you)") : null),
  el("div", { class: "hand" }, s.cards.length ? s.cards.map(card) : el("span", { class: "card slot" })),
  el("div", { class: "stake" }, `in the pot: ${s.stake}`,
    s.folded ? el("span", { class: "tag" }, "folded") : null, s.won ? el("span", { class: "tag" }, "wins") : null));
  const empty = Array.from({ length: Math.max(0, view.public_slots - view.public.length) }, () => el("span", { class: "card slot" }));
  const middle = el("div", { class: "middle" },
    view.public_slots ? el("div", { class: "hand public", "data-public": "" }, view.public.map(card), empty) : null,
    el("div", { class: "pot", "data-pot": view.pot }, `pot ${view.pot}`));
  const [top, ...rest] = view.seats;
  const betting = el("ol", { class: "betting" }, view.betting.map((round) => el("li", {},
    el("span", { class: "round" }, `${round.label}: `),
    round.actions.length ? round.actions.map((a) => `${a.player} ${a.action}`).join(", ") : "nothing yet")));
  return el("div", { class: "card-table" },
    el("div", { class: "felt" }, seat(top), middle, ...rest.map(seat)), betting);
}

/** One card: its rank face up, or its back (``rank`` null). */
function card(rank) {
  if (rank === null) return el("span", { class: "card down", "data-card": "", title: "face down" });
  return el("span", { class: "card up", "data-card": rank },
    el("span", { class: "corner" }, rank), el("span", { class: "face" }, rank));
}

// Anything else -----------------------------------------------------------------------------

function drawText(view, legal) {
  return el("div", { class: "board-text" },
    el("pre", { class: "mono" }, view.text || ""),
    legal.length ? el("div", { class: "row" }, legal.map((move) =>
      el("button", { type: "button", class: "secondary", "data-target": move.path[0] }, move.notation))) : null);
}

const DRAWINGS = { grid: drawGrid, heaps: drawHeaps, picture: drawPicture, points: drawPoints, cards: drawCards, text: drawText };
