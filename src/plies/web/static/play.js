// The Play page: start a game session, move by clicking (or typing), follow the AI's search
// live over a WebSocket, open the search behind any move. The game lives on the server (kept
// in its database, unless it runs with --no-db): the page's URL names the session
// (?session=ID), so a reload, a second tab or a restarted server finds it. The browser that
// started a game keeps its owner token (localStorage) and alone plays in it; any other
// browser given the link watches.
import { api, el, guarded, showError } from "/static/common.js";
import { renderBoard } from "/static/boards.js";

const page = {
  games: [],
  session: null,
  socket: null,
  reconnect: 0,
  updates: 0,
};

const $ = (id) => document.getElementById(id);

const TOKEN_HEADER = "X-Plies-Token";

/** The owner token this browser keeps for game ``id``, or null (then it watches). */
function tokenOf(id) {
  try {
    return localStorage.getItem(`plies-token:${id}`);
  } catch {
    return null; // storage refused (a private window's settings): this page watches
  }
}

function keepToken(id, token) {
  try {
    localStorage.setItem(`plies-token:${id}`, token);
  } catch {
    showError("this browser keeps no data for the page: after a reload it will only watch the game");
  }
}

function forgetToken(id) {
  try {
    localStorage.removeItem(`plies-token:${id}`);
  } catch {
    // nothing kept, nothing to forget
  }
}

function gameEntry(name) {
  return page.games.find((game) => game.name === name);
}

/** A game spec's name and options: the longest listed name it starts with (a game served by
 * module path, such as kalah.py:Kalah, has a colon in its name), then what follows it. */
function splitSpec(spec) {
  const names = page.games.map((g) => g.name).filter((n) => spec === n || spec.startsWith(`${n}:`));
  const name = names.sort((a, b) => b.length - a.length)[0] ?? spec.split(":")[0];
  return [name, spec.slice(name.length + 1)];
}

/** The seat inputs of the chosen game: one agent spec per player, suggesting the agents the
 * server lists for that game. */
function renderSeats(values = {}) {
  const entry = gameEntry($("game").value);
  $("options").placeholder = entry.options === "none" ? "no options" : entry.options;
  $("agent-specs").replaceChildren(...entry.agents.map((spec) => el("option", { value: spec })));
  const seats = $("seats");
  seats.replaceChildren();
  entry.players.forEach((player, index) => {
    const fallback = index === 0 ? "human" : entry.default_opponent;
    seats.append(
      el("label", { class: "seat" }, player,
        el("input", {
          "data-player": player, list: "agent-specs", value: values[player] || fallback,
          "aria-label": `agent for ${player}`,
        })),
    );
  });
}

function gameSpec() {
  const options = $("options").value.trim();
  return options ? `${$("game").value}:${options}` : $("game").value;
}

/** Start a game (``record``: plies' JSON record of a game to continue, its moves replayed). */
async function startGame(event, record = null) {
  event.preventDefault();
  const players = {};
  for (const input of $("seats").querySelectorAll("input")) {
    players[input.dataset.player] = input.value.trim() || "human";
  }
  $("start").disabled = true;
  $("status").textContent = "Seating the players…";
  try {
    await guarded(async () => {
      const session = await api("/api/sessions", { game: gameSpec(), players, record });
      keepToken(session.id, session.token);
      history.replaceState(null, "", `/play?session=${session.id}`);
      follow(session);
    });
  } finally {
    $("start").disabled = false;
    if (page.session) $("status").textContent = statusText(page.session);
    else $("status").textContent = "Choose a game and press Start.";
  }
}

/** A downloaded game chosen: its game and options set in the form, then played on from it. */
async function goOnFrom(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = "";
  let spec = null;
  try {
    spec = JSON.parse(text).game;
  } catch {
    spec = null; // the server names what is wrong with it
  }
  if (typeof spec === "string") {
    const [name, ...options] = spec.split(":");
    if (gameEntry(name)) {
      $("game").value = name;
      $("options").value = options.join(":");
      renderSeats();
    }
  }
  await startGame(event, text);
}

/** Show ``session`` and follow its changes over the live socket. */
function follow(session) {
  if (page.socket) {
    page.socket.onclose = null;
    page.socket.close();
  }
  page.session = session;
  render(session);
  connect(session.id);
}

function connect(id) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${id}/live`);
  page.socket = socket;
  socket.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === "state") {
      page.reconnect = 0;
      show(event.session);
    } else if (event.type === "search") {
      if (page.session && page.session.thinking) {
        page.session.thinking.report = event.report;
        page.session.thinking.lines = event.lines;
        renderLive(event.report, page.session.thinking);
      }
    } else if (event.type === "error") {
      showError(event.error);
    }
  };
  socket.onclose = () => {
    if (page.socket !== socket || !page.session) return;
    page.reconnect = Math.min(page.reconnect + 1, 4);
    setTimeout(() => {
      if (page.socket !== socket) return;
      // Catch up on what was missed (the game goes on on the server), then listen again.
      api(`/api/sessions/${id}`).then(show, () => {});
      connect(id);
    }, 250 * 2 ** page.reconnect);
  };
}

/** A person's action in the game (move, undo, new, stop), with this browser's owner token;
 * refused (403) when it has none that fits: the page then watches. */
async function act(path, body) {
  const id = page.session.id;
  await guarded(async () => {
    try {
      show(await api(`/api/sessions/${id}/${path}`, body, "POST", { [TOKEN_HEADER]: tokenOf(id) || "" }));
    } catch (error) {
      if (error.status === 403) {
        forgetToken(id);
        render(page.session);
      }
      throw error;
    }
  });
}

/** Show ``session`` unless the page already shows a later version of it (an answer to a
 * request can arrive after the live socket told of what followed). */
function show(session) {
  const current = page.session;
  if (current && current.id === session.id && session.version < current.version) return;
  page.session = session;
  render(session);
}

function statusText(session) {
  if (session.finished) return `Game over: ${session.result}`;
  if (session.error) return session.error;
  const seat = session.players.find((p) => p.player === session.to_move);
  if (!seat) return "Rolling the dice…";
  if (session.thinking && session.thinking.waiting)
    return `${seat.player} (${seat.spec}) waits for a free thinker (the server is busy)…`;
  if (session.thinking) return `${seat.player} (${seat.spec}) is thinking…`;
  if (!seat.human) return `${seat.player} (${seat.spec}) to move`;
  return tokenOf(session.id) ? `${seat.player} to move: your move` : `${seat.player} (a person) to move`;
}

/** Whether this page watches the game or plays in it, and whether the server keeps it. */
function renderOwnership(session) {
  $("watching").hidden = Boolean(tokenOf(session.id));
  const kept = $("kept");
  kept.classList.toggle("bad", Boolean(session.keep_error));
  if (session.keep_error) kept.textContent = `Not kept on the server: ${session.keep_error}`;
  else if (!session.kept) kept.textContent = "This server keeps no games: a restart loses this one.";
  else kept.textContent = "";
  kept.hidden = !kept.textContent;
}

/** A link for each text the game is written as (JSON, and PGN or SGF where the game has it). */
function renderDownloads(session) {
  const box = $("downloads");
  box.hidden = !session.records.length;
  box.replaceChildren(el("span", { class: "muted" }, "Download:"), ...session.records.map((kind) =>
    el("a", { class: "button secondary", id: `download-${kind}`, download: "",
      href: `/api/sessions/${session.id}/record.${kind}` }, kind.toUpperCase())),
    el("a", { id: "game-link", href: `/play?session=${session.id}`,
      title: "this game's address: it reopens the game, here or in another browser (which watches)" },
    "Link to this game"));
}

function render(session) {
  const status = $("status");
  status.textContent = statusText(session);
  status.classList.toggle("over", session.finished);
  status.classList.toggle("bad", Boolean(session.error));
  const last = session.moves.filter((m) => m.player !== "chance").at(-1);
  const mine = Boolean(tokenOf(session.id));
  const legal = mine ? session.legal : [];
  renderBoard($("board"), session.board, legal, {
    onMove: (notation) => act("move", { move: notation }),
    lastMove: last ? last.notation : null,
    disabled: legal.length === 0,
  });
  $("move-input").disabled = legal.length === 0;
  $("undo").disabled = !(mine && session.can_undo);
  $("restart").disabled = !mine;
  $("stop").disabled = !(mine && session.thinking && session.thinking.stoppable);
  renderOwnership(session);
  renderDownloads(session);
  renderMoves(session);
  if (session.thinking) {
    renderLive(session.thinking.report, session.thinking);
  } else if (last && last.search) {
    renderLive(last.search, { ...last, done: true });
  } else {
    $("live-who").textContent = "";
  }
  syncSetup(session);
}

/** The setup form shows the session's game and players (after a reload, too). */
function syncSetup(session) {
  const [name, options] = splitSpec(session.game);
  if (gameEntry(name) && $("game").value !== name) $("game").value = name;
  if (document.activeElement?.closest("#setup")) return;
  $("options").value = options;
  renderSeats(Object.fromEntries(session.players.map((p) => [p.player, p.spec])));
}

function renderMoves(session) {
  const list = $("moves");
  list.replaceChildren(
    ...session.moves.map((move) => {
      const item = el("li", {
        class: move.player === "chance" ? "chance" : move.search ? "searched" : "",
        "data-ply": move.ply,
        title: move.search ? "show the search behind this move" : null,
      }, move.player === "chance" ? `roll ${move.notation}` : `${move.player}: ${move.notation}`);
      if (move.search) item.addEventListener("click", () => showSearch(move.ply));
      return item;
    }),
  );
}

// The live search panel -------------------------------------------------------------------

const number = (value, digits = 3) =>
  value === null || value === undefined ? "–" : Number(value).toFixed(digits).replace(/\.?0+$/, "");
const count = (value) => (value ?? 0).toLocaleString("en");

function renderLive(report, thinking) {
  $("live-who").textContent = thinking
    ? thinking.done
      ? `behind ${thinking.player}'s ${thinking.notation}`
      : thinking.waiting
        ? `${thinking.player} waits for a free thinker (${thinking.spec})`
        : `${thinking.player} thinking (${thinking.spec})`
    : "";
  const live = $("live");
  page.updates += 1;
  live.dataset.updates = String(page.updates);
  if (!report) {
    live.replaceChildren(el("p", { class: "muted" }, "Starting the search…"));
    return;
  }
  live.dataset.algorithm = report.algorithm;
  const parts = [facts(report)];
  if (report.move_scores && report.move_scores.length) parts.push(solverScores(report));
  if (report.root && report.root.length) parts.push(rootBars(report));
  if (report.algorithm === "engine" && thinking && thinking.lines) parts.push(engineLines(thinking.lines, report));
  else if (report.pv && report.pv.length) parts.push(el("p", { class: "mono small" }, "line: ", report.pv.join(" ")));
  if (report.note) parts.push(el("p", { class: "muted small" }, report.note));
  live.replaceChildren(...parts);
}

function facts(report) {
  const items = [["search", report.algorithm]];
  if (report.depth !== null) items.push(["depth", report.depth]);
  if (report.score_text) items.push(["score", report.score_text]);
  else if (report.value !== null) items.push(["value", number(report.value)]);
  if (report.iterations) items.push(["iterations", count(report.iterations)]);
  items.push(["nodes", count(report.nodes)], ["nodes/s", count(report.nps)], ["time", `${number(report.time, 2)} s`]);
  if (report.move) items.push(["best", report.move]);
  if (report.solved) items.push(["", "solved"]);
  return el("div", { class: "facts" }, items.map(([k, v]) => el("span", {}, k ? `${k} ` : "", el("b", {}, v))));
}

function rootBars(report) {
  const most = Math.max(...report.root.map((m) => m.visits), 1);
  const withPrior = report.root.some((m) => m.prior !== null);
  const rows = [el("b", {}, "move"), el("b", {}, withPrior ? "visits (prior)" : "visits"), el("b", {}, "value")];
  for (const move of report.root.slice(0, 12)) {
    const share = (100 * move.visits) / most;
    const prior = move.prior !== null ? ` · ${(100 * move.prior).toFixed(0)}%` : "";
    rows.push(
      el("span", { class: "mono" }, move.move),
      el("div", { class: "bar", title: `${move.visits} visits${prior}` }, el("span", { style: `width:${share}%` })),
      el("span", {}, `${count(move.visits)}${prior}`),
    );
    if (move.value !== null) {
      const value = Math.max(-1, Math.min(1, move.value));
      rows.push(
        el("span", {}),
        el("div", { class: `bar value${value < 0 ? " negative" : ""}`, title: `mean value ${number(move.value)}` },
          el("span", { style: `width:${Math.abs(value) * 100}%` })),
        el("span", {}, number(move.value)),
      );
    }
  }
  return el("div", { class: "bars", "data-panel": "root" }, rows);
}

function solverScores(report) {
  return el("table", { class: "data", "data-panel": "solver" },
    el("tr", {}, el("th", {}, "column"), el("th", {}, "score"), el("th", {}, "meaning")),
    report.move_scores.map((m) =>
      el("tr", {}, el("td", { class: "mono" }, m.move), el("td", {}, m.score), el("td", {}, m.meaning || ""))));
}

function engineLines(lines, report) {
  const rows = lines.slice().reverse().slice(0, 14).map((line) =>
    el("tr", {}, el("td", {}, line.depth), el("td", {}, line.score_text), el("td", {}, count(line.nodes)),
      el("td", { class: "pv" }, line.pv.join(" "))));
  return el("table", { class: "data", "data-panel": "iterations" },
    el("tr", {}, el("th", {}, "depth"), el("th", {}, "score"), el("th", {}, "nodes"), el("th", {}, "line")),
    rows.length ? rows : el("tr", {}, el("td", { colspan: 4 }, `searching depth ${(report.depth ?? 0) + 1}…`)));
}

// The search behind a move ----------------------------------------------------------------

async function showSearch(ply) {
  await guarded(async () => {
    const found = await api(`/api/sessions/${page.session.id}/moves/${ply}/search`);
    $("tree-title").textContent = `The search behind ${found.player}'s ${found.notation} (move ${ply + 1})`;
    const body = [facts(found.search)];
    if (found.search.move_scores && found.search.move_scores.length) body.push(solverScores(found.search));
    if (found.tree && found.tree.length) {
      body.push(el("p", { class: "muted small" }, "The first levels of the Monte Carlo tree: visits and mean value for the player who moves; click a move to open it."));
      body.push(el("div", { class: "tree", "data-panel": "tree" }, treeList(found.tree, 0)));
    }
    if (found.lines && found.lines.length) {
      body.push(el("p", { class: "muted small" }, "The engine's best line after each iteration of its deepening:"));
      body.push(engineLines(found.lines, found.search));
    } else if (found.search.pv.length) {
      body.push(el("p", { class: "mono" }, "line: ", found.search.pv.join(" ")));
    }
    $("tree-body").replaceChildren(...body);
    $("tree-dialog").showModal();
  });
}

function treeList(nodes, depth) {
  return el("ul", {}, nodes.map((node) => {
    const label = [
      el("span", { class: "move" }, node.move), " ",
      `${count(node.visits)} visits, value ${number(node.value)}`,
      node.proved ? el("span", { class: "proved" }, " (proved)") : null,
    ];
    if (!node.children.length) return el("li", { class: "leaf" }, label);
    return el("li", {}, el("details", { open: depth === 0 && nodes.indexOf(node) === 0 },
      el("summary", {}, label), treeList(node.children, depth + 1)));
  }));
}

// Start -------------------------------------------------------------------------------------

async function main() {
  await guarded(async () => {
    page.games = await api("/api/games");
  });
  $("game").append(...page.games.map((g) => el("option", { value: g.name, title: g.summary }, g.name)));
  const params = new URLSearchParams(location.search);
  if (params.get("game") && gameEntry(splitSpec(params.get("game"))[0])) {
    const [name, options] = splitSpec(params.get("game"));
    $("game").value = name;
    $("options").value = options;
  } else {
    // the first game with a perfect solver, whose default opponent never errs; else the first
    $("game").value = (page.games.find((g) => g.analyser === "solver") || page.games[0]).name;
  }
  renderSeats(Object.fromEntries([...params.entries()]));
  $("game").addEventListener("change", () => { $("options").value = ""; renderSeats(); });
  $("setup").addEventListener("submit", startGame);
  $("record-file").addEventListener("change", goOnFrom);
  $("type-move").addEventListener("submit", (event) => {
    event.preventDefault();
    const move = $("move-input").value.trim();
    if (move) act("move", { move }).then(() => { $("move-input").value = ""; });
  });
  $("undo").addEventListener("click", () => act("undo"));
  $("restart").addEventListener("click", () => act("new"));
  $("stop").addEventListener("click", () => act("stop"));
  $("tree-close").addEventListener("click", () => $("tree-dialog").close());
  const id = params.get("session");
  if (id) {
    await guarded(async () => follow(await api(`/api/sessions/${encodeURIComponent(id)}`)));
  }
}

main();
