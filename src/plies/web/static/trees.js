// The Trees page: a textbook tree drawn as SVG, its search stepped through event by event,
// a quiz the server checks, editing by clicking, export, and links that restore it all.
// Every value, bound, window and explanation comes from the API: the page only draws them.
import { api, guarded, el, svg } from "/static/common.js";

const LECTURE = "[[3,12,8],[2,4,6],[14,5,2]]";
const MODES = ["step", "quiz", "edit"];
const DY = 92; // between layers
const MARGIN = 34;
const FONT = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif";

const $ = (id) => document.getElementById(id);

const state = {
  mode: "step",
  data: null, // the last answer of /api/trees/parse or /api/trees/analyse
  stops: [], // the events each step ends on (a leaf's enter goes with its value)
  step: 0,
  timer: null,
  marks: new Set(), // quiz: the edges the student marked pruned
  checked: null, // quiz: the last /api/trees/check answer
  solution: false, // quiz: the solution is shown
  selected: null, // edit: the selected node's path
  ticket: 0, // the latest request for the tree: older answers are dropped
};

// Settings and the address ----------------------------------------------------------------

/** The request body of the tree and its settings, as the form holds them. */
function settings() {
  const body = { tree: $("tree-text").value, order: $("order").value };
  const algorithm = $("algorithm").value;
  if (algorithm) body.algorithm = algorithm;
  if (algorithm !== "star1") body.strict = $("strict").checked;
  const players = playersField();
  if (players.length) body.players = players;
  else body.root = $("root").value;
  const low = $("bound-low").value.trim();
  const high = $("bound-high").value.trim();
  if (algorithm === "star1" && (low || high)) {
    const bounds = [Number(low), Number(high)];
    if (!low || !high || !bounds.every(Number.isFinite)) {
      throw new Error("leaf bounds: write two numbers, L and U");
    }
    body.bounds = bounds;
  }
  return body;
}

function playersField() {
  return $("players").value.split(/[\s,]+/).filter(Boolean).map((p) => p.toUpperCase());
}

/** Put the tree, the settings, the mode and the step in the address, for sharing. */
function writeAddress() {
  const query = new URLSearchParams();
  query.set("tree", $("tree-text").value.trim());
  if ($("algorithm").value) query.set("algorithm", $("algorithm").value);
  if ($("strict").checked) query.set("strict", "1");
  const players = playersField();
  if (players.length) query.set("players", players.join(","));
  else if ($("root").value !== "MAX") query.set("root", $("root").value);
  if ($("order").value !== "ltr") query.set("order", $("order").value);
  if ($("algorithm").value === "star1" && $("bound-low").value && $("bound-high").value) {
    query.set("bounds", `${$("bound-low").value},${$("bound-high").value}`);
  }
  if (state.mode !== "step") query.set("mode", state.mode);
  if (state.mode === "step" && state.step) query.set("step", String(state.step));
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

/** Fill the form from the address (the lecture's tree when it names none). */
function readAddress() {
  const query = new URLSearchParams(location.search);
  $("tree-text").value = query.get("tree") || LECTURE;
  const pick = (id, value, allowed) => {
    if (value !== null && allowed.includes(value)) $(id).value = value;
  };
  pick("algorithm", query.get("algorithm"), ["minimax", "alphabeta", "expectiminimax", "star1"]);
  pick("root", (query.get("root") || "").toUpperCase(), ["MAX", "MIN"]);
  pick("order", query.get("order"), ["ltr", "rtl"]);
  $("strict").checked = query.get("strict") === "1";
  $("players").value = query.get("players") || "";
  const [low, high] = (query.get("bounds") || "").split(",");
  $("bound-low").value = low || "";
  $("bound-high").value = high || "";
  state.mode = MODES.includes(query.get("mode")) ? query.get("mode") : "step";
  state.step = Math.max(0, parseInt(query.get("step"), 10) || 0);
}

// Loading ---------------------------------------------------------------------------------

/** Ask the server for the tree: with its search in step mode, without it otherwise (a quiz
 * must not carry its answer before Check or Show solution). */
async function load({ keepStep = false } = {}) {
  stopPlaying();
  const ticket = ++state.ticket;
  const body = settings();
  const path = state.mode === "step" ? "/api/trees/analyse" : "/api/trees/parse";
  const data = await api(path, body).catch((error) => {
    if (ticket === state.ticket) throw error;
  });
  if (ticket === state.ticket) show(data, keepStep); // answers overtaken by a newer request are dropped
}

function show(data, keepStep = false) {
  state.data = data;
  state.stops = (data.events || []).flatMap((e, i) => (e.leaf && e.kind === "enter" ? [] : [i]));
  state.step = keepStep ? Math.min(state.step, state.stops.length) : 0;
  state.marks = new Set();
  state.checked = null;
  state.solution = false;
  if (state.selected !== null && !findNode(data.tree, state.selected)) state.selected = null;
  $("quiz-feedback").hidden = true;
  render();
  writeAddress();
}

const reload = () => guarded(() => load());

// Drawing ---------------------------------------------------------------------------------

function colours() {
  const css = getComputedStyle(document.documentElement);
  const get = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    ink: get("--ink", "#1d2330"),
    muted: get("--muted", "#5f6b7a"),
    line: "#8d97a5",
    MAX: get("--max", "#1f5fbf"),
    MIN: get("--min", "#c0392b"),
    chance: get("--chance", "#7d5fb2"),
    good: get("--good", "#1e8e3e"),
    bad: get("--bad", "#c0392b"),
    accent: get("--accent", "#1f5fbf"),
  };
}

const FILLS = { MAX: "#e4edfa", MIN: "#fae6e3", chance: "#eee8f7", leaf: "#ffffff" };

/** Every node with its place: leaves one column each, parents over their children. */
function layout(tree) {
  const items = [];
  let column = 0;
  const walk = (node, depth, parent) => {
    const item = { node, depth, parent, children: [] };
    items.push(item);
    if (node.children.length) {
      item.children = node.children.map((child) => walk(child, depth + 1, item));
      item.column = (item.children[0].column + item.children.at(-1).column) / 2;
    } else {
      item.column = column++;
    }
    return item;
  };
  walk(tree, 0, null);
  const leaves = items.filter((item) => !item.children.length);
  const widest = Math.max(...leaves.map((item) => valueText(item.node).length));
  const dx = Math.max(50, widest * 8 + 20);
  for (const item of items) {
    item.x = MARGIN + 40 + item.column * dx;
    item.y = MARGIN + 14 + item.depth * DY;
  }
  const width = MARGIN * 2 + 110 + (column - 1) * dx;
  const height = MARGIN * 2 + 40 + Math.max(...items.map((i) => i.depth)) * DY;
  return { items, width, height };
}

function valueText(node) {
  return node.value === null || node.value === undefined ? "" : String(node.value);
}

const pretty = (text) =>
  text
    .replace(/<=/g, "≤")
    .replace(/>=/g, "≥")
    .replace(/\balpha=/g, "α=")
    .replace(/\bbeta=/g, "β=")
    .replace(/([+-])inf\b/g, "$1∞");

/** Long decimals cut to two places in the drawing (the trace keeps them whole). */
const short = (text) =>
  text.replace(/\d+\.\d{3,}/g, (decimal) => String(Number(Number(decimal).toFixed(2))));

/** What the drawing shows at each node and edge in the current mode. */
function scene() {
  const data = state.data;
  const view = { shown: new Map(), entered: null, pruned: new Set(), current: null, best: new Set() };
  if (state.mode === "step") {
    view.entered = new Set();
    const last = state.step ? state.stops[state.step - 1] : -1;
    for (let i = 0; i <= last; i++) {
      const event = data.events[i];
      view.entered.add(event.path);
      for (const shown of event.shown) view.shown.set(shown.path, shown);
      for (const path of event.skipped || []) view.pruned.add(path);
    }
    view.current = last >= 0 ? data.events[last].path : null;
    if (state.step === state.stops.length) view.best = bestEdges(data.report.pv);
  } else if (state.mode === "quiz") {
    view.pruned = state.solution ? new Set(data.solution.pruned) : state.marks;
    if (state.solution) view.best = bestEdges(data.report.pv);
  }
  return view;
}

function bestEdges(pv) {
  const edges = new Set();
  for (let i = 1; i <= pv.length; i++) edges.add(pv.slice(0, i).join("."));
  return edges;
}

function drawTree() {
  const { items, width, height } = layout(state.data.tree);
  const view = scene();
  const palette = colours();
  const marks = quizMarks();
  // A tree too wide to stand beside the trace goes above it. Drawn to fit the space there is:
  // small trees up to half as large again, large ones down to 70% (and scrolled beyond).
  const stage = $("canvas").parentElement;
  const trace = state.mode === "step" ? $("trace").offsetWidth + 13 : 0;
  stage.classList.toggle("wide", width > stage.clientWidth - trace);
  const scale = Math.min(1.5, Math.max(0.7, ($("canvas").clientWidth - 4) / width));
  const root = svg("svg", {
    id: "tree-svg",
    width: width * scale,
    height: height * scale,
    "data-width": width,
    "data-height": height,
    viewBox: `0 0 ${width} ${height}`,
    "font-family": FONT,
    "font-size": 12,
  });
  root.append(svg("rect", { width, height, fill: "#ffffff" }));
  const edges = svg("g", { class: "edges" });
  const nodes = svg("g", { class: "nodes" });
  for (const item of items) {
    const below = Boolean(item.parent && item.parent.pruned); // under a pruned edge already
    item.pruned = below || view.pruned.has(item.node.path);
    if (item.parent) edges.append(drawEdge(item, view, palette, marks, below));
    nodes.append(drawNode(item, view, palette, marks));
  }
  root.append(edges, nodes);
  const inner = el("div", { class: "stage-inner" }, root);
  if (state.mode === "quiz") inner.append(...quizInputs(items, scale));
  const canvas = $("canvas");
  const [left, top] = [canvas.scrollLeft, canvas.scrollTop];
  canvas.replaceChildren(inner);
  if (canvas.dataset.drawn === state.data.text) {
    [canvas.scrollLeft, canvas.scrollTop] = [left, top]; // the same tree: stay where the reader is
  } else {
    canvas.scrollLeft = items[0].x * scale - canvas.clientWidth / 2; // a new one: its root
    canvas.dataset.drawn = state.data.text;
  }
}

function drawEdge(item, view, palette, marks, below) {
  const path = item.node.path;
  const parent = item.parent;
  const cut = view.pruned.has(path) && !below;
  const mark = marks.edges.get(path);
  const top = [parent.x, parent.y + (parent.node.kind === "MIN" ? 14 : 16)];
  const end = [item.x, item.y - (item.node.kind === "leaf" ? 12 : 16)];
  const best = view.best.has(path);
  let stroke = best ? palette.accent : palette.line;
  if (mark && !mark.right) stroke = palette.bad;
  const group = svg("g", {
    class: "edge",
    "data-edge": path,
    "data-pruned": String(cut),
    "data-mark": mark ? (mark.right ? "right" : "wrong") : null,
    opacity: below ? 0.35 : 1,
  });
  if (mark && !mark.right) group.append(svg("title", {}, mark.why));
  group.append(
    svg("line", {
      x1: top[0], y1: top[1], x2: end[0], y2: end[1],
      stroke,
      "stroke-width": best ? 3 : mark && !mark.right ? 2.6 : 1.6,
      "stroke-dasharray": below || cut ? "5 4" : null,
    }),
  );
  const middle = [(top[0] + end[0]) / 2, (top[1] + end[1]) / 2];
  if (item.node.probability_text !== null) {
    const [x, y] = [top[0] + (end[0] - top[0]) * 0.62, top[1] + (end[1] - top[1]) * 0.62];
    const side = end[0] > top[0] + 1 ? 1 : end[0] < top[0] - 1 ? -1 : 0;
    group.append(
      svg("text", {
        x: x + (side || 1) * 5,
        y: y + (side ? -3 : 4),
        "text-anchor": side < 0 ? "end" : "start",
        fill: palette.chance,
        "font-size": 11,
        stroke: "#ffffff", "stroke-width": 3, "paint-order": "stroke",
      }, item.node.probability_text),
    );
  }
  if (cut) {
    const colour = mark ? (mark.right ? palette.good : palette.bad) : palette.bad;
    const [x, y] = middle;
    group.append(
      svg("path", {
        class: "cross",
        d: `M${x - 7},${y - 7}L${x + 7},${y + 7}M${x - 7},${y + 7}L${x + 7},${y - 7}`,
        stroke: colour,
        "stroke-width": 3,
        "stroke-linecap": "round",
      }),
    );
  }
  if (state.mode === "quiz" && !below && !state.solution) {
    group.append(svg("polygon", { class: "hit", points: band(top, end, 8), fill: "transparent" }));
    group.addEventListener("click", () => toggleMark(path));
  }
  return group;
}

/** The points of a band ``half`` wide each side of the segment from ``a`` to ``b``: an
 * edge's area to click. */
function band(a, b, half) {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const [nx, ny] = [((a[1] - b[1]) / length) * half, ((b[0] - a[0]) / length) * half];
  return [
    [a[0] + nx, a[1] + ny],
    [b[0] + nx, b[1] + ny],
    [b[0] - nx, b[1] - ny],
    [a[0] - nx, a[1] - ny],
  ].map((p) => p.join(",")).join(" ");
}

function drawNode(item, view, palette, marks) {
  const node = item.node;
  const kind = node.kind;
  const colour = kind === "leaf" ? palette.ink : palette[kind];
  const shown = view.shown.get(node.path);
  const visited = !view.entered || view.entered.has(node.path);
  const mark = marks.nodes.get(node.path);
  const group = svg("g", {
    class: "node",
    "data-path": node.path,
    "data-kind": kind,
    "data-label": node.label,
    "data-value": kind === "leaf" ? valueText(node) : shown ? shown.text : null,
    "data-mark": mark ? (mark.right ? "right" : "wrong") : null,
    transform: `translate(${item.x},${item.y})`,
    opacity: item.pruned ? 0.35 : 1,
  });
  if (view.current === node.path) {
    group.append(svg("circle", { r: 25, fill: "#ffe58a", stroke: "#f0c419", "stroke-width": 1.5 }));
  }
  if (state.mode === "edit" && state.selected === node.path) {
    const ring = { fill: "none", stroke: palette.accent, "stroke-width": 3 };
    ring["stroke-dasharray"] = "4 3";
    if (kind === "leaf") {
      const width = Math.max(30, valueText(node).length * 8 + 12) + 12;
      group.append(svg("rect", { x: -width / 2, y: -18, width, height: 36, rx: 6, ...ring }));
    } else {
      group.append(svg("circle", { r: 26, ...ring }));
    }
  }
  const style = { fill: visited ? FILLS[kind] : "#ffffff", stroke: colour, "stroke-width": 2 };
  if (kind === "MAX") group.append(svg("polygon", { points: "0,-17 20,15 -20,15", ...style }));
  else if (kind === "MIN") group.append(svg("polygon", { points: "0,17 20,-15 -20,-15", ...style }));
  else if (kind === "chance") group.append(svg("circle", { r: 17, ...style }));
  else {
    const width = Math.max(30, valueText(node).length * 8 + 12);
    const box = { x: -width / 2, y: -12, width, height: 24, rx: 3 };
    group.append(svg("rect", { ...box, ...style, "stroke-width": 1.4 }));
  }
  const middle = kind === "MAX" ? 5 : kind === "MIN" ? -4 : 0;
  let text = kind === "leaf" ? valueText(node) : shown ? short(pretty(shown.text)) : "";
  if (state.mode === "quiz" && kind !== "leaf") text = "";
  const final = kind === "leaf" || (shown && shown.final);
  group.append(
    svg("text", {
      class: "value",
      y: middle,
      "dominant-baseline": "central",
      "text-anchor": "middle",
      "font-weight": final ? 700 : 400,
      "font-style": final ? null : "italic",
      "font-size": text.length > 4 ? 10 : 12.5,
      fill: final ? palette.ink : palette.muted,
    }, text),
  );
  const place = kind === "leaf"
    ? { y: 26, "text-anchor": "middle", "font-size": 11 }
    : { x: -23, y: -13, "text-anchor": "end", "font-size": 11.5, "font-weight": 600 };
  group.append(svg("text", { ...place, fill: palette.muted }, node.label));
  if (state.mode === "step" && kind !== "leaf" && shown && shown.alpha !== null) {
    const bounds = [`α=${shown.alpha}`, `β=${shown.beta}`].map((line) => short(pretty(line)));
    bounds.forEach((line, i) => {
      const at = { class: "window", x: 23, y: -3 + i * 13, fill: palette.muted, "font-size": 10.5 };
      group.append(svg("text", at, line));
    });
  }
  if (state.mode === "edit") group.addEventListener("click", () => select(node.path));
  return group;
}

function render() {
  document.body.dataset.mode = state.mode;
  document.body.dataset.algorithm = $("algorithm").value;
  for (const mode of MODES) {
    $(`mode-${mode}`).setAttribute("aria-selected", String(mode === state.mode));
    $(`${mode}-tools`).hidden = mode !== state.mode;
  }
  $("trace").hidden = state.mode !== "step";
  $("root").disabled = playersField().length > 0;
  $("quiz-check").disabled = state.solution;
  if (!state.data) return;
  drawTree();
  const data = state.data;
  $("summary").textContent = data.summary
    ? data.summary
    : `${data.node_count} nodes, ${data.leaf_count} leaves`;
  if (state.mode === "step") renderTrace();
  if (state.mode === "edit") renderEditTools();
}

// Step mode -------------------------------------------------------------------------------

function renderTrace() {
  const events = state.data.events;
  const list = $("trace");
  if (list.dataset.length !== String(state.stops.length) || list.dataset.for !== state.data.text) {
    list.replaceChildren(
      ...state.stops.map((index, k) =>
        el(
          "li",
          { "data-step": k + 1, "data-kind": events[index].kind, onclick: () => goTo(k + 1) },
          el("span", { class: "n" }, k + 1),
          el("span", { style: `padding-left:${events[index].depth * 0.9}em` },
            pretty(events[index].text)),
        ),
      ),
    );
    list.dataset.length = String(state.stops.length);
    list.dataset.for = state.data.text;
  }
  for (const item of list.children) {
    const k = Number(item.dataset.step);
    item.classList.toggle("current", k === state.step);
    item.classList.toggle("future", k > state.step);
  }
  const current = list.querySelector("li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  const total = state.stops.length;
  const done = state.step === total ? ": done" : "";
  $("step-count").textContent = `step ${state.step} of ${total}${done}`;
  $("step-back").disabled = $("step-first").disabled = state.step === 0;
  $("step-forward").disabled = $("step-last").disabled = state.step === total;
  $("step-play").textContent = state.timer ? "Pause" : "Play";
}

function goTo(step) {
  if (state.mode !== "step" || !state.data) return;
  state.step = Math.max(0, Math.min(step, state.stops.length));
  render();
  writeAddress();
}

function stopPlaying() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
}

function togglePlay() {
  if (state.timer) {
    stopPlaying();
  } else {
    if (state.step === state.stops.length) state.step = 0;
    state.timer = setInterval(() => {
      if (state.step + 1 >= state.stops.length) stopPlaying();
      goTo(state.step + 1);
    }, Number($("speed").value));
  }
  render();
}

// Quiz mode -------------------------------------------------------------------------------

function quizMarks() {
  const marks = { nodes: new Map(), edges: new Map() };
  if (state.mode !== "quiz" || !state.checked) return marks;
  for (const mark of state.checked.nodes) marks.nodes.set(mark.path, mark);
  for (const mark of state.checked.edges) {
    if (!mark.right || state.marks.has(mark.path)) marks.edges.set(mark.path, mark);
  }
  return marks;
}

/** An input beside every internal node; those below a marked edge are never searched. */
function quizInputs(items, scale) {
  const same = $("canvas").dataset.drawn === state.data.text; // keep what was written in it
  const inputs = same ? [...document.querySelectorAll(".quiz-value")] : [];
  const old = new Map(inputs.map((input) => [input.dataset.valuePath, input.value]));
  const marks = quizMarks();
  return items
    .filter((item) => item.node.kind !== "leaf")
    .map((item) => {
      const path = item.node.path;
      const mark = marks.nodes.get(path);
      const value = state.solution ? state.data.solution.values[path] || "" : old.get(path) || "";
      const classes = ["quiz-value"];
      if (mark) classes.push(mark.right ? "right" : "wrong");
      if (state.solution) classes.push("solution");
      const input = el("input", {
        class: classes.join(" "),
        "data-value-path": path,
        "aria-label": `value of ${item.node.label}`,
        title: mark && !mark.right ? mark.why : null,
        autocomplete: "off",
        style: `left:${(item.x + 22) * scale}px;top:${(item.y - 11) * scale}px;` +
          `width:${52 * scale}px;font-size:${13 * scale}px`,
        disabled: item.pruned || undefined,
        readonly: state.solution || undefined,
      });
      input.value = value;
      input.addEventListener("input", () => input.classList.remove("right", "wrong"));
      return input;
    });
}

/** Mark or unmark an edge pruned; a mark goes with everything below it. */
function toggleMark(path) {
  if (state.marks.has(path)) state.marks.delete(path);
  else state.marks.add(path);
  for (const mark of state.marks) if (mark.startsWith(`${path}.`)) state.marks.delete(mark);
  state.checked = null;
  $("quiz-feedback").hidden = true;
  render();
}

async function checkQuiz() {
  const values = {};
  for (const input of document.querySelectorAll(".quiz-value:not([disabled])")) {
    if (input.value.trim()) values[input.dataset.valuePath] = input.value.trim();
  }
  const answer = await api("/api/trees/check", { ...settings(), values, pruned: [...state.marks] });
  state.checked = answer;
  render();
  feedback(
    answer.correct ? "good" : "bad",
    answer.correct
      ? `All ${answer.total} right: every value and every pruned edge.`
      : `${answer.right} of ${answer.total} right. First mistake: ${pretty(answer.first_mistake)}`,
  );
}

async function showSolution() {
  const data = await api("/api/trees/analyse", settings());
  const marks = new Set(state.marks);
  show(data);
  state.marks = marks;
  state.solution = true;
  render();
  const pruned = data.report.pruned_subtrees.flatMap((cut) => cut.skipped_labels);
  feedback(
    "",
    `Solution: ${data.summary}. ` +
      (pruned.length ? `Pruned: ${pruned.join(", ")}.` : "Nothing is pruned."),
  );
}

function clearQuiz() {
  state.marks = new Set();
  state.checked = null;
  state.solution = false;
  document.querySelectorAll(".quiz-value").forEach((input) => (input.value = ""));
  $("quiz-feedback").hidden = true;
  render();
}

function feedback(kind, text) {
  const box = $("quiz-feedback");
  box.className = `feedback ${kind}`.trim();
  box.textContent = text;
  box.hidden = false;
}

// Edit mode -------------------------------------------------------------------------------

function findNode(tree, path) {
  if (path === "") return tree;
  let node = tree;
  for (const i of path.split(".")) {
    node = node.children[Number(i)];
    if (!node) return null;
  }
  return node;
}

const parentPath = (path) => (path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "");

function select(path) {
  state.selected = path;
  render();
}

function renderEditTools() {
  const node = state.selected === null ? null : findNode(state.data.tree, state.selected);
  const parent = node && node.path !== "" ? findNode(state.data.tree, parentPath(node.path)) : null;
  $("edit-selected").textContent = node
    ? `${node.label} (${node.kind === "leaf" ? "leaf" : node.kind})`
    : "Click a node to edit it.";
  $("edit-add").disabled = !node;
  $("edit-delete").disabled = !node || node.path === "";
  $("edit-chance").disabled = !node || node.kind === "leaf";
  $("edit-value").disabled = !node || node.kind !== "leaf";
  $("edit-probability").disabled = !parent || parent.kind !== "chance";
  $("edit-value").value = node && node.kind === "leaf" ? valueText(node) : "";
  $("edit-probability").value = parent && parent.kind === "chance" ? node.probability_text : "";
}

/** The tree as JSON that the server reads back: labels only where the tree names them,
 * so that the others are named afresh as nodes are added and removed. */
function treeJson(node) {
  const out = {};
  if (node.named) out.label = node.label;
  if (node.probability !== null && node.probability !== undefined) {
    out.probability = node.probability_text ?? node.probability;
  }
  if (node.player) out.player = node.player;
  if (node.children.length) {
    out[node.kind === "chance" ? "chance" : "children"] = node.children.map(treeJson);
  } else {
    out.value = node.value;
  }
  return out;
}

function share(node) {
  if (node.kind !== "chance") return;
  for (const child of node.children) {
    child.probability = 1 / node.children.length;
    child.probability_text = `1/${node.children.length}`;
  }
}

const newLeaf = (value) => ({
  named: false,
  kind: "leaf",
  value,
  children: [],
  probability: null,
  probability_text: null,
  player: null,
});

/** Apply ``change`` to a copy of the tree and have the server read it: a tree it refuses
 * leaves the page as it was, with the reason in the banner. */
async function edit(change, selectAfter) {
  const tree = structuredClone(state.data.tree);
  change(tree, findNode(tree, state.selected));
  const answer = await api("/api/trees/parse", { ...settings(), tree: JSON.stringify(treeJson(tree)) });
  $("tree-text").value = answer.text;
  state.selected = selectAfter ?? state.selected;
  show(answer);
}

function addChild() {
  return edit((tree, node) => {
    if (node.kind === "leaf") {
      node.children = [newLeaf(node.value)];
      node.kind = "decision";
      node.value = null;
    } else {
      node.children.push(newLeaf(0));
      share(node);
    }
  });
}

function deleteNode() {
  const parent = parentPath(state.selected);
  return edit((tree, node) => {
    const above = findNode(tree, parent);
    above.children = above.children.filter((child) => child !== node);
    if (!above.children.length) {
      above.kind = "leaf";
      above.value = 0;
    }
    share(above);
  }, parent);
}

function toggleChance() {
  return edit((tree, node) => {
    if (node.kind === "chance") {
      node.kind = "decision";
      for (const child of node.children) child.probability = child.probability_text = null;
    } else {
      node.kind = "chance";
      node.player = null;
      share(node);
    }
  });
}

function setValue() {
  const text = $("edit-value").value.trim();
  const value = Number(text);
  if (!text || !Number.isFinite(value)) throw new Error(`leaf value: '${text}' is not a number`);
  return edit((tree, node) => (node.value = value));
}

function readProbability(text) {
  const fraction = text.match(/^\s*(\d+)\s*\/\s*(\d+)\s*$/);
  const value = fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(text);
  if (!text.trim() || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new Error(`probability: '${text}' is not a number from 0 to 1 (write 0.25 or 1/4)`);
  }
  return value;
}

/** Set one outcome's probability; the others are scaled to share what is left. */
function setProbability() {
  const text = $("edit-probability").value.trim();
  const value = readProbability(text);
  return edit((tree, node) => {
    const others = findNode(tree, parentPath(node.path)).children.filter((c) => c !== node);
    const rest = others.reduce((sum, c) => sum + c.probability, 0);
    for (const other of others) {
      other.probability =
        rest > 0 ? (other.probability * (1 - value)) / rest : (1 - value) / others.length;
      other.probability_text = null;
    }
    node.probability = value;
    node.probability_text = fraction(text) ? text.replace(/\s+/g, "") : null;
  });
}

const fraction = (text) => /^\s*\d+\s*\/\s*\d+\s*$/.test(text);

// Export ----------------------------------------------------------------------------------

function svgText() {
  const copy = $("tree-svg").cloneNode(true);
  copy.querySelectorAll(".hit").forEach((hit) => hit.remove());
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  copy.setAttribute("width", copy.dataset.width);
  copy.setAttribute("height", copy.dataset.height);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function exportSvg() {
  if (!state.data) throw new Error("draw a tree first");
  download("tree.svg", new Blob([svgText()], { type: "image/svg+xml" }));
}

async function exportPng() {
  if (!state.data) throw new Error("draw a tree first");
  const picture = $("tree-svg");
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svgText()], { type: "image/svg+xml" }));
  image.src = url;
  await image.decode();
  const canvas = el("canvas", { width: picture.dataset.width * 2, height: picture.dataset.height * 2 });
  const context = canvas.getContext("2d");
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  URL.revokeObjectURL(url);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  download("tree.png", blob);
}

function exportJson() {
  if (!state.data) throw new Error("draw a tree first");
  const data = state.data;
  const out = { tree: data.text, settings: data.settings, mode: state.mode, link: location.href };
  if (data.report) {
    const trace = state.stops.map((index) => data.events[index].text);
    Object.assign(out, { summary: data.summary, report: data.report, trace });
  }
  download("tree.json", new Blob([JSON.stringify(out, null, 2)], { type: "application/json" }));
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    $("copy-link").textContent = "Copied";
  } catch {
    window.prompt("Copy this link:", location.href);
  }
  setTimeout(() => ($("copy-link").textContent = "Copy link"), 1500);
}

// Random trees ----------------------------------------------------------------------------

async function generate() {
  const number = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));
  const fewest = number("random-fewest");
  const most = number("random-most");
  const body = {
    depth: number("random-depth"),
    branching: fewest === most ? fewest : [fewest, most],
    low: number("random-low"),
    high: number("random-high"),
    chance: $("random-chance").checked,
    probabilities: $("random-probabilities").value,
  };
  if (number("random-seed") !== null) body.seed = number("random-seed");
  const drawn = await api("/api/trees/random", body);
  $("tree-text").value = drawn.text;
  $("random-seed").placeholder = `any (last: ${drawn.seed})`;
  if (body.chance && ["minimax", "alphabeta"].includes($("algorithm").value)) $("algorithm").value = "";
  await load();
}

// Wiring ----------------------------------------------------------------------------------

function wire() {
  $("tree-form").addEventListener("submit", (event) => {
    event.preventDefault();
    reload();
  });
  $("settings").addEventListener("submit", (event) => event.preventDefault());
  $("example").addEventListener("change", () => {
    const option = $("example").selectedOptions[0];
    if (!option.value) return;
    $("tree-text").value = option.value;
    $("players").value = option.dataset.players || "";
    $("example").value = "";
    reload();
  });
  for (const id of ["algorithm", "root", "order", "strict", "players", "bound-low", "bound-high"]) {
    $(id).addEventListener("change", reload);
  }
  for (const mode of MODES) {
    $(`mode-${mode}`).addEventListener("click", () => {
      state.mode = mode;
      reload();
    });
  }
  $("generate").addEventListener("click", () => guarded(generate));
  $("step-first").addEventListener("click", () => goTo(0));
  $("step-back").addEventListener("click", () => goTo(state.step - 1));
  $("step-forward").addEventListener("click", () => goTo(state.step + 1));
  $("step-last").addEventListener("click", () => goTo(state.stops.length));
  $("step-play").addEventListener("click", togglePlay);
  $("speed").addEventListener("change", () => {
    if (state.timer) {
      stopPlaying();
      togglePlay();
    }
  });
  $("quiz-check").addEventListener("click", () => guarded(checkQuiz));
  $("quiz-solution").addEventListener("click", () => guarded(showSolution));
  $("quiz-clear").addEventListener("click", clearQuiz);
  $("edit-add").addEventListener("click", () => guarded(addChild));
  $("edit-delete").addEventListener("click", () => guarded(deleteNode));
  $("edit-chance").addEventListener("click", () => guarded(toggleChance));
  $("edit-value").addEventListener("change", () => guarded(setValue));
  $("edit-probability").addEventListener("change", () => guarded(setProbability));
  $("export-svg").addEventListener("click", () => guarded(exportSvg));
  $("export-png").addEventListener("click", () => guarded(exportPng));
  $("export-json").addEventListener("click", () => guarded(exportJson));
  $("copy-link").addEventListener("click", copyLink);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
  });
  document.addEventListener("keydown", (event) => {
    if (state.mode !== "step" || event.target.closest("input, textarea, select")) return;
    const last = state.stops.length;
    const moves = { ArrowRight: state.step + 1, ArrowLeft: state.step - 1, Home: 0, End: last };
    if (event.key in moves) {
      event.preventDefault();
      goTo(moves[event.key]);
    }
  });
}

wire();
readAddress();
render();
guarded(() => load({ keepStep: true }));
