// The review of a finished game on the Play page: the first player's expected score over the
// game as a graph (click a point to see the board after that move), the moves that lost ground
// marked in the move list with the better move, and each player's summary.
import { el, svg } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const WIDTH = 320;
const HEIGHT = 120;
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** Show ``review`` (the session's: null, running, or done) in the review panel; ``jump(ply)``
 * shows the board after move ``ply``. */
export function renderReview(review, players, jump) {
  const panel = $("review-panel");
  panel.hidden = !review;
  if (!review) return;
  const body = $("review-body");
  if (review.error) {
    body.replaceChildren(el("p", { class: "bad" }, `The review failed: ${review.error}`));
    return;
  }
  if (!review.result) {
    const share = review.total ? Math.round((100 * review.done) / review.total) : 0;
    $("review-who").textContent = "";
    body.replaceChildren(
      el("p", { class: "muted" }, `Reviewing: ${review.done} of ${review.total} positions…`),
      el("div", { class: "bar", role: "progressbar", "aria-valuenow": share },
        el("span", { style: `width:${share}%` })),
    );
    return;
  }
  const result = review.result;
  $("review-who").textContent = `by the ${result.analyser}, ${result.seconds} s a position`;
  body.replaceChildren(graph(result, players, jump), summary(result));
}

/** The first player's expected score after each move (0 to 1), a point a move. */
function graph(result, players, jump) {
  const values = [result.start_expected, ...result.moves.map((move) => move.first_expected)];
  const step = WIDTH / Math.max(values.length - 1, 1);
  const y = (value) => HEIGHT - value * HEIGHT;
  const known = values.map((value, ply) => [ply, value]).filter(([, value]) => value !== null);
  const line = known.map(([ply, value], i) => `${i ? "L" : "M"}${(ply * step).toFixed(1)},${y(value).toFixed(1)}`);
  const area = known.length ? `${line.join(" ")} L${(known.at(-1)[0] * step).toFixed(1)},${HEIGHT} L0,${HEIGHT} Z` : "";
  const points = known.map(([ply, value]) => {
    const move = result.moves[ply - 1];
    const mark = move && move.mark ? ` (${move.mark})` : "";
    return svg("circle", {
      cx: ply * step, cy: y(value), r: move && move.mark ? 4 : 2.5, "data-ply": ply,
      class: `point${move && move.mark ? ` mark-${move.mark}` : ""}`,
    }, svg("title", {}, move ? `${ply}. ${move.player} ${move.move}${mark}: ${Math.round(100 * value)}% for ${players[0]}` : `start: ${Math.round(100 * value)}% for ${players[0]}`));
  });
  const picture = svg("svg", { viewBox: `-6 -6 ${WIDTH + 12} ${HEIGHT + 12}`, class: "review-graph", role: "img",
    "aria-label": `${players[0]}'s expected score over the game` },
  svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "frame" }),
  svg("path", { d: area, class: "area" }),
  svg("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "even" }),
  svg("path", { d: line.join(" "), class: "curve" }),
  ...points);
  picture.addEventListener("click", (event) => {
    const ply = event.target.dataset && event.target.dataset.ply;
    if (ply !== undefined) jump(Number(ply));
  });
  return el("div", {}, picture,
    el("p", { class: "muted small" }, `${players[0]}'s expected score (top: a win, bottom: a loss); click a point to see the board then.`));
}

function summary(result) {
  return el("div", { class: "summary" }, el("table", { class: "data", "data-panel": "review-summary" },
    el("tr", {}, ["player", "moves judged", "average loss", "inaccuracies", "mistakes", "blunders"].map((h) => el("th", {}, h))),
    result.players.map((p) => el("tr", {},
      el("td", {}, p.player), el("td", {}, p.judged), el("td", {}, `${(100 * p.average_loss).toFixed(1)}%`),
      el("td", {}, p.inaccuracies), el("td", {}, p.mistakes), el("td", {}, p.blunders)))));
}

/** Mark the move list's items (``data-ply``) that the review judged, with the better move. */
export function markMoves(review) {
  if (!review || !review.result) return;
  for (const move of review.result.moves) {
    const item = document.querySelector(`#moves li[data-ply="${move.ply - 1}"]`);
    if (!item || !move.mark) continue;
    item.classList.add(`mark-${move.mark}`);
    item.append(el("span", { class: "mark" }, SYMBOLS[move.mark]));
    item.title = `${move.mark}: lost ${Math.round(100 * move.loss)}% of the game's value${move.best ? `; better was ${move.best}` : ""}`;
  }
}
