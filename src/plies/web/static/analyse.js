// The Analyse page: the positions of the game with a perfect solver solved column by column
// (the "solved" tab), the positions of the game scored in centipawns evaluated by the engine
// from their FEN ("evaluated"), each game found by the server by capability, and any game's
// positions analysed by what its game has (its perfect solver or the engine: "any"). The URL
// holds the tab and the position (?tab=solved&position=4453, ?tab=evaluated&fen=... or
// ?tab=any&game=NAME&position=...), so an analysis can be shared.
import { api, el, guarded } from "/static/common.js";
import { renderBoard } from "/static/boards.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const TABS = ["solved", "evaluated", "any"];
const latest = { solved: 0, evaluated: 0, any: 0 }; // each tab's newest request: older answers are dropped

function remember(entries) {
  const url = new URLSearchParams(entries);
  history.replaceState(null, "", `${location.pathname}?${url}`);
}

function showTab(name) {
  for (const tab of TABS) {
    $(tab).hidden = tab !== name;
    $(`tab-${tab}`).classList.toggle("secondary", tab !== name);
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
  }
}

function pending(box, text) {
  box.replaceChildren(el("p", { class: "pending" }, text));
}

// Solved ------------------------------------------------------------------------------------

const solved = { position: "", requested: "", busy: null };

/** Draw ``position`` and, if ``solve``, solve it; keeps the last good position on an error. */
async function analyseSolved(position, solve = true) {
  const ticket = ++latest.solved;
  solved.requested = position; // a click before the answer comes plays on from here
  const seconds = Number($("solved-time").value);
  if (solve) pending($("solved-result"), `solving… (up to ${seconds} s)`);
  const answer = await guarded(() =>
    api("/api/analyse/solved", { position, seconds, solve }));
  if (ticket !== latest.solved) return;
  if (!answer) {
    solved.requested = solved.position;
    $("solved-position").value = solved.position;
    if (solve) $("solved-result").replaceChildren();
    return;
  }
  solved.position = answer.position;
  $("solved-position").value = answer.position;
  if (!$("solved").hidden) remember({ tab: "solved", position: answer.position, seconds });
  renderBoard($("solved-board"), answer.view, answer.moves, {
    onMove: (column) => analyseSolved(solved.requested + column, $("solved-auto").checked),
    lastMove: answer.position.slice(-1) || null,
  });
  if (solve || answer.over) showSolved(answer);
  else $("solved-result").replaceChildren(el("p", { class: "muted" }, `${answer.status}: press Solve.`));
}

function scoreClass(score) {
  return score === null ? "muted" : score > 0 ? "good" : score < 0 ? "bad" : "draw";
}

function signed(score) {
  return score === null ? "–" : score > 0 ? `+${score}` : String(score);
}

function showSolved(answer) {
  const box = $("solved-result");
  const say = (meaning) => meaning.replace(/^the side to move/, answer.to_move);
  if (answer.over) {
    box.replaceChildren(el("p", { class: "headline" }, answer.status));
    return;
  }
  const parts = [el("p", { class: "headline", id: "solved-headline" },
    `${answer.to_move} to move`,
    answer.solved ? [": score ", el("strong", { class: scoreClass(answer.score) }, signed(answer.score)),
      ` – ${say(answer.meaning)}`] : null)];
  if (answer.best.length) {
    parts.push(el("p", {}, `Best column${answer.best.length > 1 ? "s" : ""}: `,
      el("strong", { id: "solved-best" }, answer.best.join(", "))));
  }
  if (answer.message) parts.push(el("p", { class: "notice", id: "solved-message" }, answer.message));
  if (answer.solved) parts.push(columnTable(answer, say));
  parts.push(el("p", { class: "muted" },
    `${answer.stones} stones · ${answer.nodes.toLocaleString("en")} positions in ${answer.seconds} s`));
  box.replaceChildren(...parts);
}

/** Every column's score and meaning, the best ones starred. */
function columnTable(answer, say) {
  const row = (column) => el("tr", { class: column.best ? "best" : undefined, "data-column": column.column },
    el("td", {}, column.column + (column.best ? " ★" : "")),
    el("td", { class: `num ${scoreClass(column.score)}` }, column.playable ? signed(column.score) : "full"),
    el("td", {}, !column.playable ? "the column is full"
      : column.meaning ? say(column.meaning) : "not solved in time"));
  return el("table", { class: "data", id: "solved-columns" },
    el("thead", {}, el("tr", {}, ["column", "score", "with perfect play"].map((h) => el("th", {}, h)))),
    el("tbody", {}, answer.columns.map(row)));
}

function setUpSolved() {
  $("solved-form").addEventListener("submit", (event) => {
    event.preventDefault();
    analyseSolved($("solved-position").value.trim());
  });
  $("solved-undo").addEventListener("click", () =>
    analyseSolved(solved.position.slice(0, -1), $("solved-auto").checked));
  $("solved-clear").addEventListener("click", () => analyseSolved("", false));
}

/** The engine's iterations as a table (depth, score coloured by ``tone``, nodes, time, line). */
function iterationsTable(id, iterations, tone) {
  return el("table", { class: "data", id },
    el("thead", {}, el("tr", {}, ["depth", "score", "nodes", "time", "line"].map((h) => el("th", {}, h)))),
    el("tbody", {}, iterations.map((it) => el("tr", {},
      el("td", { class: "num" }, it.depth + (it.complete ? "" : " (cut short)")),
      el("td", { class: `num ${tone(it.score)}` }, it.score.text),
      el("td", { class: "num" }, it.nodes.toLocaleString("en")),
      el("td", { class: "num" }, `${it.seconds} s`),
      el("td", { class: "mono" }, it.pv.join(" "))))));
}

// Evaluated ---------------------------------------------------------------------------------

const evaluated = { fen: "startpos", back: [] };

/** Analyse ``fen``, after ``move`` when one is given. */
async function analyseEvaluated(fen, move = null) {
  const ticket = ++latest.evaluated;
  const seconds = Number($("evaluated-time").value);
  pending($("evaluated-result"), `the engine is thinking… (${seconds} s)`);
  const answer = await guarded(() => api("/api/analyse/evaluated", { fen, move, seconds }));
  if (ticket !== latest.evaluated) return;
  if (!answer) {
    $("fen").value = evaluated.fen;
    $("evaluated-result").replaceChildren();
    return;
  }
  if (answer.fen !== evaluated.fen && evaluated.fen !== "startpos") evaluated.back.push(evaluated.fen);
  evaluated.fen = answer.fen;
  $("fen").value = answer.fen;
  $("evaluated-back").disabled = evaluated.back.length === 0;
  if (!$("evaluated").hidden) remember({ tab: "evaluated", fen: answer.fen, seconds });
  renderBoard($("evaluated-board"), answer.view, answer.moves, {
    onMove: (san) => analyseEvaluated(evaluated.fen, san),
    lastMove: move,
  });
  showEvaluated(answer);
}

function evaluation(answer) {
  const white = answer.white;
  if (white.mate !== null) return `${white.mate > 0 ? "White" : "Black"} mates in ${Math.abs(white.mate)}`;
  return `${white.text} (White's view)`;
}

function showEvaluated(answer) {
  const box = $("evaluated-result");
  if (answer.over) {
    box.replaceChildren(el("p", { class: "headline" }, answer.status));
    return;
  }
  const good = (score) => (score.mate !== null ? score.mate > 0 : score.pawns > 0.3);
  const bad = (score) => (score.mate !== null ? score.mate < 0 : score.pawns < -0.3);
  const tone = (score) => (good(score) ? "good" : bad(score) ? "bad" : "draw");
  box.replaceChildren(
    el("p", { class: "headline", id: "evaluated-headline" }, "Evaluation ",
      el("strong", { class: tone(answer.white) }, evaluation(answer))),
    el("p", {}, `${answer.to_move} to move: `, el("strong", { class: tone(answer.score) }, answer.score.text),
      ` · best move `, el("strong", { class: "mono", id: "evaluated-best" }, answer.best || "–")),
    el("p", { class: "line mono", id: "evaluated-line" }, answer.line),
    el("p", { class: "muted" },
      `depth ${answer.depth} (selective ${answer.seldepth}) · ${answer.nodes.toLocaleString("en")} nodes · ` +
      `${answer.nps.toLocaleString("en")} nodes/s · ${answer.seconds} s`),
    iterationsTable("evaluated-iterations", answer.iterations, tone));
}

function setUpEvaluated() {
  $("evaluated-form").addEventListener("submit", (event) => {
    event.preventDefault();
    analyseEvaluated($("fen").value.trim() || "startpos");
  });
  $("evaluated-back").addEventListener("click", () => {
    if (!evaluated.back.length) return;
    const fen = evaluated.back.pop();
    evaluated.fen = fen; // going back is no new step to return from
    analyseEvaluated(fen);
  });
  $("evaluated-start").addEventListener("click", () => analyseEvaluated("startpos"));
}

// Any game ----------------------------------------------------------------------------------

const any = { game: "", position: "", back: [] };

function anyGame() {
  return $("any-spec").value.trim() || $("any-game").value;
}

/** Analyse ``position`` of the chosen game, after ``move`` when one is given. */
async function analyseAny(position, move = null) {
  const ticket = ++latest.any;
  const game = anyGame();
  const seconds = Number($("any-time").value);
  pending($("any-result"), `analysing… (${seconds} s)`);
  const answer = await guarded(() => api("/api/analyse", { game, position, move, seconds }));
  if (ticket !== latest.any) return;
  if (!answer) {
    $("any-position").value = any.position;
    $("any-result").replaceChildren();
    return;
  }
  if (game === any.game && answer.position !== any.position) any.back.push(any.position);
  if (game !== any.game) any.back = [];
  any.game = game;
  any.position = answer.position;
  $("any-position").value = answer.position;
  $("any-back").disabled = any.back.length === 0;
  if (!$("any").hidden) remember({ tab: "any", game, position: answer.position, seconds });
  renderBoard($("any-board"), answer.view, answer.moves, {
    onMove: (notation) => analyseAny(any.position, notation),
    lastMove: move,
  });
  showAny(answer);
}

function showAny(answer) {
  const box = $("any-result");
  if (answer.over) {
    box.replaceChildren(el("p", { class: "headline" }, answer.status));
    return;
  }
  const notice = answer.message ? [el("p", { class: "notice" }, answer.message)] : [];
  const facts = el("p", { class: "muted" },
    (answer.depth === null ? "" : `depth ${answer.depth} · `) +
    `${answer.nodes.toLocaleString("en")} nodes · ${answer.seconds} s`);
  if (answer.analyser === "solver") {
    box.replaceChildren(
      el("p", { class: "headline", id: "any-eval" }, `${answer.status}: `,
        el("strong", { class: scoreClass(answer.score) }, answer.meaning || "not solved in time")),
      el("p", {}, "best ", el("strong", { class: "mono", id: "any-best" }, answer.best.join(", ") || "–")),
      ...notice,
      el("table", { class: "data", id: "any-moves" },
        el("thead", {}, el("tr", {}, ["move", "score", "meaning"].map((h) => el("th", {}, h)))),
        el("tbody", {}, answer.scored.map((m) => el("tr", { class: m.best ? "best" : "" },
          el("td", { class: "mono" }, m.move),
          el("td", { class: `num ${scoreClass(m.score)}` }, m.score === null ? "–" : String(m.score)),
          el("td", {}, m.meaning || "not solved in time"))))),
      facts);
    return;
  }
  const tone = (score) => {
    const sign = score.forced !== null ? score.forced : score.value;
    return sign > 0 ? "good" : sign < 0 ? "bad" : "draw";
  };
  box.replaceChildren(
    el("p", { class: "headline", id: "any-eval" }, `${answer.status}: `,
      el("strong", { class: tone(answer.evaluation) }, answer.evaluation.text),
      " · best move ", el("strong", { class: "mono", id: "any-best" }, answer.best[0] || "–")),
    el("p", { class: "line mono", id: "any-line" }, answer.pv.join(" ")),
    facts,
    iterationsTable("any-iterations", answer.iterations, tone));
}

async function setUpAny(chosen) {
  const games = (await guarded(() => api("/api/games"))) || [];
  const analysable = games.filter((game) => game.analyser !== null);
  $("any-game").replaceChildren(...analysable.map((game) =>
    el("option", { value: game.name }, `${game.name} (${game.analyser})`)));
  const name = chosen ? chosen.split(":")[0] : null;  // else the first listed
  if (analysable.some((game) => game.name === name)) $("any-game").value = name;
  if (chosen && chosen !== name) $("any-spec").value = chosen;
  $("any-game").addEventListener("change", () => {
    $("any-spec").value = "";
    analyseAny("");
  });
  $("any-form").addEventListener("submit", (event) => {
    event.preventDefault();
    analyseAny($("any-position").value.trim());
  });
  $("any-back").addEventListener("click", () => {
    if (!any.back.length) return;
    const position = any.back.pop();
    any.position = position; // going back is no new step to return from
    analyseAny(position);
  });
  $("any-start").addEventListener("click", () => analyseAny(""));
}

// Start -------------------------------------------------------------------------------------

function start() {
  setUpSolved();
  setUpEvaluated();
  const asked = params.get("tab");
  const tab = TABS.includes(asked) ? asked : params.has("fen") ? "evaluated" : "solved";
  const ready = setUpAny(tab === "any" ? params.get("game") : null);
  for (const name of TABS) {
    $(`tab-${name}`).addEventListener("click", async () => {
      showTab(name);
      if (name === "evaluated" && !$("evaluated-board").hasChildNodes()) analyseEvaluated(evaluated.fen);
      if (name === "any" && !$("any-board").hasChildNodes()) {
        await ready;
        analyseAny(any.position);
      }
      if (name === "solved") remember({ tab: name, position: solved.position, seconds: $("solved-time").value });
      else if (name === "evaluated") remember({ tab: name, fen: evaluated.fen, seconds: $("evaluated-time").value });
      else remember({ tab: "any", game: anyGame(), position: any.position, seconds: $("any-time").value });
    });
  }
  const seconds = params.get("seconds");
  const select = $(`${tab}-time`);
  if (seconds && [...select.options].some((o) => o.value === seconds)) select.value = seconds;
  showTab(tab);
  if (tab === "evaluated") {
    analyseEvaluated(params.get("fen") || "startpos");
  } else if (tab === "any") {
    ready.then(() => analyseAny(params.get("position") || ""));
  } else {
    const position = params.get("position") || "";
    analyseSolved(position, position !== "");
  }
}

start();
