// The Play page: start a game session, move by clicking (or typing), follow the AI's search
// live over a WebSocket, open the search behind any move. The game lives on the server (kept
// in its database, unless it runs with --no-db): the page's URL names the session
// (?session=ID), so a reload, a second tab or a restarted server finds it. The browser that
// started a game keeps its owner token (localStorage) and alone plays in it; any other
// browser given the link watches. In a game of imperfect information where a person plays,
// the server sends only what that person's seat sees (``session.seat``): no search, record,
// review or hint; two people at one screen pass it between them, a curtain over the board
// until the seat to look clicks to show its view.
import { api, el, guarded, showError } from "/static/common.js";
import { renderBoard } from "/static/boards.js";
import { Setup, keptChoices } from "/static/play-setup.js";
import { markMoves, renderReview } from "/static/play-review.js";

const page = {
  games: [],
  setup: null,
  session: null,
  socket: null,
  reconnect: 0,
  updates: 0,
  flipped: false,
  clockShown: 0, // when the session's clocks were received (performance.now())
  viewing: null, // the ply whose board is shown instead of the game's (a review's point)
  reviewPoll: null, // the next look at a running review
  revealed: null, // the seat whose view the curtain was last lifted for (two people, one screen)
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

/** Start a game as the setup says (``record``: a record or position to start from, else the
 * one pasted under "Start from"; ``firstMove``: the person's move made on the start's board). */
async function startGame(event, record = null, firstMove = null) {
  if (event) event.preventDefault();
  const pasted = $("record-text").value.trim();
  const body = { ...page.setup.request(), record: record ?? (pasted || null) };
  $("start").disabled = true;
  $("status").textContent = "Seating the players…";
  try {
    await guarded(async () => {
      const session = await api("/api/sessions", body);
      keepToken(session.id, session.token);
      history.replaceState(null, "", `/play?session=${session.id}`);
      page.flipped = firstSeatIsTheirs(session);
      $("hint-text").hidden = true;
      $("draw-text").hidden = true;
      follow(session);
      if (firstMove) await act("move", { move: firstMove });
    });
  } finally {
    $("start").disabled = false;
    if (page.session) $("status").textContent = statusText(page.session);
    else $("status").textContent = "Choose a game, then move or press Play.";
  }
}

/** Whether the board is best seen turned round: the person plays the second seat alone. */
function firstSeatIsTheirs(session) {
  const people = session.players.filter((p) => p.human);
  return people.length === 1 && people[0].player === session.players[1]?.player;
}

/** Before a game: the chosen game's start, on which the person's first move starts it. */
function showStart() {
  if (page.session || !page.setup || !page.setup.game) return;
  const entry = page.setup.entry();
  const players = page.setup.players();
  const mine = players[entry.start.to_move] === "human";
  renderBoard($("board"), entry.start.board, mine ? entry.start.legal : [], {
    onMove: (notation) => startGame(null, null, notation),
    disabled: !mine,
  });
  $("status").textContent = mine
    ? `${entry.name}: make your first move to start, or press Play`
    : `${entry.name}: press Play to start (${entry.start.to_move === "chance" ? "chance moves first" : `${entry.start.to_move} moves first`})`;
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
    const [name, options] = splitSpec(spec);
    if (gameEntry(name)) page.setup.choose(name, { ...keptChoices(), options });
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
    } else if (event.type === "review") {
      if (page.session) {
        page.session.review = event.review;
        showReview(page.session);
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
  if (session.clock && session.clock.running === null && session.clock.left[session.to_move] === 0)
    return `${session.to_move}'s time is up`;
  if (session.error) return session.error;
  const seat = session.players.find((p) => p.player === session.to_move);
  if (!seat) return "Chance moves…";
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

/** A link for each text the game is written as (JSON, and PGN or SGF where the game has it;
 * none where the game is hidden from the seat shown), and the game's own link. */
function renderDownloads(session) {
  const box = $("downloads");
  box.hidden = false;
  box.replaceChildren(session.records.length ? el("span", { class: "muted" }, "Download:") : "", ...session.records.map((kind) =>
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
  const mine = Boolean(tokenOf(session.id));
  const last = session.moves.filter((m) => m.player !== "chance").at(-1);
  page.viewing = null;
  const people = session.players.filter((p) => p.human).length;
  if (session.seat && people > 1) page.flipped = session.seat !== session.players[0].player;
  drawBoard(session, session.board);
  if (page.flipped) turnBoard(session, null);
  $("undo").disabled = !(mine && session.can_undo && !session.clock);
  $("restart").disabled = !mine;
  $("stop").disabled = !(mine && session.thinking && session.thinking.stoppable);
  $("resign").disabled = !(mine && people > 0 && !session.finished);
  $("offer-draw").hidden = !(mine && people > 0 && session.draws);
  $("offer-draw").disabled = session.finished || Boolean(session.thinking);
  $("hint").hidden = !(mine && session.settings && session.settings.hints && !session.seat);
  $("hint").disabled = session.finished || !session.legal.length;
  $("review").hidden = !(session.finished && !session.review && session.moves.length > 0 && !session.seat);
  renderCurtain(session, people);
  $("moves-note").hidden = Boolean(session.seat);
  renderClocks(session);
  renderOwnership(session);
  renderDownloads(session);
  renderMoves(session);
  if (session.seat) {
    renderHiddenSearch(session);
  } else if (session.thinking) {
    renderLive(session.thinking.report, session.thinking);
  } else if (last && last.search) {
    renderLive(last.search, { ...last, done: true });
  } else {
    $("live-who").textContent = "";
  }
  const [name, options] = splitSpec(session.game);
  page.setup.showSession(session, name, options);
  showReview(session);
}

/** Two people at one screen in a game of imperfect information: the board, the moves and the
 * typed move hidden until the seat whose view the server sends now clicks to see it (the board
 * is turned to that seat, in render). */
function renderCurtain(session, people) {
  const closed = Boolean(session.seat) && people > 1 && page.revealed !== session.seat;
  document.querySelector("main .columns").classList.toggle("curtained", closed);
  $("curtain").hidden = !closed;
  if (!closed) return;
  $("curtain-text").textContent = `${session.seat}'s view: the other player looks away.`;
  $("curtain-show").textContent = `Show ${session.seat}'s view`;
}

/** The search panel of a game hidden from the seat shown: an agent's search names what its
 * own seat sees, so it is not shown. */
function renderHiddenSearch(session) {
  const thinking = session.thinking;
  $("live-who").textContent = thinking ? `${thinking.player} thinking (${thinking.spec})` : "";
  $("live").replaceChildren(el("p", { class: "muted", "data-hidden-search": "" },
    `Each player sees only part of this game: an agent's search names what its own seat sees, so it is not shown.`));
}

/** The board of ``view`` with the person's moves when it is the game's current board. */
function drawBoard(session, view) {
  const last = session.moves.filter((m) => m.player !== "chance").at(-1);
  const legal = Boolean(tokenOf(session.id)) && page.viewing === null ? session.legal : [];
  renderBoard($("board"), view, legal, {
    onMove: (notation) => act("move", { move: notation }),
    lastMove: page.viewing === null && last ? last.notation : null,
    disabled: legal.length === 0,
  });
  $("move-input").disabled = legal.length === 0;
}

/** The board after move ``ply`` (null: now), seen from the side the page is turned to. */
async function turnBoard(session, ply) {
  const query = `flipped=${page.flipped}` + (ply === null ? "" : `&ply=${ply}`);
  const found = await api(`/api/sessions/${session.id}/board?${query}`).catch(() => null);
  if (!found || page.session !== session) return;
  page.viewing = ply === null || ply === session.moves.length ? null : ply;
  drawBoard(session, found.board);
  for (const item of $("moves").children) {
    item.classList.toggle("viewing", page.viewing !== null && Number(item.dataset.ply) === page.viewing - 1);
  }
  if (page.viewing !== null) $("status").textContent = `After move ${ply} (click the last move, or Flip, to come back)`;
}

/** Moves in numbered pairs for two players (1. e4 e5), nature's rolls beside the move. */
function renderMoves(session) {
  const list = $("moves");
  const first = session.players[0].player;
  const pairs = session.players.length === 2;
  let number = 0;
  list.classList.toggle("pairs", pairs);
  list.replaceChildren(
    ...session.moves.map((move) => {
      if (move.player === first) number += 1;
      const item = el("li", {
        class: [move.player === "chance" ? "chance" : "", move.search ? "searched" : "",
          pairs && move.player === first ? "first" : ""].filter(Boolean).join(" "),
        "data-ply": move.ply,
        "data-number": pairs && move.player === first ? number : null,
        "data-player": move.player,
        title: move.search ? "show the search behind this move" : `${move.player}'s move`,
      }, move.player === "chance" ? `(${move.notation})` : pairs ? move.notation : `${move.player}: ${move.notation}`);
      item.addEventListener("click", () => {
        if (move.search) showSearch(move.ply);
        else if (page.session.finished) turnBoard(page.session, move.ply + 1);
      });
      return item;
    }),
  );
  const last = list.lastElementChild;
  if (last) last.classList.add("last-move");
}

function showReview(session) {
  renderReview(session.review, session.players.map((p) => p.player), (ply) => turnBoard(session, ply));
  markMoves(session.review);
  if (session.review && session.review.running && !page.reviewPoll) {
    // the live socket tells of its progress; a look every few seconds as well, in case an
    // event is missed, until it is done
    page.reviewPoll = setTimeout(async () => {
      page.reviewPoll = null;
      if (page.session !== session && page.session?.id !== session.id) return;
      const fresh = await api(`/api/sessions/${session.id}`).catch(() => null);
      if (fresh && page.session && fresh.id === page.session.id) {
        page.session.review = fresh.review;
        showReview(page.session);
      }
    }, 3000);
  }
}

/** Both clocks: the time each has, the running one counting down on the page. */
function renderClocks(session) {
  const box = $("clocks");
  box.hidden = !session.clock;
  page.clockShown = performance.now();
  if (!session.clock) return;
  box.replaceChildren(...session.players.map((p) => el("div", {
    class: "clock" + (session.clock.running === p.player ? " running" : ""), "data-player": p.player,
  }, el("span", { class: "who" }, p.player), el("span", { class: "time" }, clockText(session.clock.left[p.player])))));
}

function clockText(seconds) {
  const left = Math.max(0, seconds);
  const minutes = Math.floor(left / 60);
  const rest = left - 60 * minutes;
  return left < 10 ? `${minutes}:${rest.toFixed(1).padStart(4, "0")}` : `${minutes}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

function tickClocks() {
  const session = page.session;
  if (!session || !session.clock || !session.clock.running || session.finished) return;
  const player = session.clock.running;
  const node = $("clocks").querySelector(`.clock[data-player="${CSS.escape(player)}"] .time`);
  if (!node) return;
  const seconds = session.clock.left[player] - (performance.now() - page.clockShown) / 1000;
  node.textContent = clockText(seconds);
  node.parentElement.classList.toggle("low", seconds < 10);
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
  const clocks = (await api("/api/time-controls").catch(() => [])) || [];
  page.setup = new Setup(page.games, clocks, showStart);
  const params = new URLSearchParams(location.search);
  const kept = keptChoices();
  const asked = params.get("game") ? splitSpec(params.get("game")) : null;
  if (asked && gameEntry(asked[0])) {
    const seats = Object.fromEntries([...params.entries()]);
    const custom = Object.keys(seats).some((key) => gameEntry(asked[0]).players.includes(key));
    page.setup.choose(asked[0], { options: asked[1], seats, opponent: custom ? "custom" : undefined });
  } else {
    // the last game this browser played, else the first with a perfect solver, else the first
    const fallback = (page.games.find((g) => g.analyser === "solver") || page.games[0]).name;
    page.setup.choose(gameEntry(kept.game) ? kept.game : fallback, kept.game ? kept : {});
  }
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
  $("resign").addEventListener("click", () => {
    if (confirm("Resign this game?")) act("resign");
  });
  $("offer-draw").addEventListener("click", () => guarded(async () => {
    $("offer-draw").disabled = true;
    $("draw-text").textContent = "Draw offered…";
    $("draw-text").hidden = false;
    const id = page.session.id;
    const answer = await api(`/api/sessions/${id}/draw`, {}, "POST", { [TOKEN_HEADER]: tokenOf(id) || "" })
      .catch((error) => {
        $("draw-text").hidden = true;
        $("offer-draw").disabled = false;
        throw error;
      });
    $("draw-text").textContent = `${answer.accepted ? "Draw agreed" : "Draw declined"}: ${answer.text}`;
  }));
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    if (page.session) turnBoard(page.session, page.viewing);
  });
  $("hint").addEventListener("click", () => guarded(async () => {
    $("hint").disabled = true;
    const id = page.session.id;
    const hint = await api(`/api/sessions/${id}/hint`, {}, "POST", { [TOKEN_HEADER]: tokenOf(id) || "" });
    $("hint-text").textContent = hint.move ? `Hint: ${hint.move} (${hint.text}, by the ${hint.analyser})` : "No hint here.";
    $("hint-text").hidden = false;
    $("hint").disabled = false;
  }));
  $("review").addEventListener("click", () => guarded(async () => {
    $("review").hidden = true;
    show(await api(`/api/sessions/${page.session.id}/review`, {}));
  }));
  $("tree-close").addEventListener("click", () => $("tree-dialog").close());
  $("curtain-show").addEventListener("click", () => {
    page.revealed = page.session ? page.session.seat : null;
    if (page.session) render(page.session);
  });
  setInterval(tickClocks, 100);
  const id = params.get("session");
  if (id) {
    await guarded(async () => follow(await api(`/api/sessions/${encodeURIComponent(id)}`)));
  }
  showStart();
}

main();
