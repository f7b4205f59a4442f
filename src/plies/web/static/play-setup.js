// The Play page's setup: the games as a row of pictures, the opponent as a level of the game's
// strength ladder (with its measured figure) or custom agent specs, the side, the clock and
// hints. The last choices are kept in this browser (localStorage) for the next visit.
import { el } from "/static/common.js";
import { renderBoard } from "/static/boards.js";

const $ = (id) => document.getElementById(id);
const KEPT = "plies-play-setup";
export const CUSTOM = "custom";

/** The choices kept from the last visit (an empty object when none, or storage is off). */
export function keptChoices() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "{}") || {};
  } catch {
    return {};
  }
}

function keepChoices(choices) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(choices));
  } catch {
    // storage refused: the page starts from its defaults next time
  }
}

/** Shrink each card's board to the card's picture box, whatever its size. */
function fitPictures() {
  for (const box of document.querySelectorAll(".game-card .picture")) {
    const board = box.firstElementChild;
    if (!board) continue;
    const scale = Math.min(box.clientWidth / board.scrollWidth, box.clientHeight / board.scrollHeight, 1);
    board.style.transform = `scale(${scale})`;
  }
}

/** The setup form over ``games`` (the server's list); ``changed`` is called after every
 * choice (the page shows the chosen game's start). */
export class Setup {
  constructor(games, clocks, changed) {
    this.games = games;
    this.changed = changed;
    this.game = null;
    $("clock").replaceChildren(
      el("option", { value: "" }, "Untimed"),
      ...clocks.map((preset) => el("option", { value: preset.clock }, preset.name)),
      el("option", { value: CUSTOM }, "Custom…"),
    );
    $("games").replaceChildren(...games.map((entry) => this.card(entry)));
    requestAnimationFrame(() => fitPictures());
    $("opponent").addEventListener("change", () => this.opponentChosen());
    $("side").addEventListener("change", () => this.save());
    $("clock").addEventListener("change", () => { this.showCustomClock(); this.save(); });
    $("hints").addEventListener("change", () => this.save());
  }

  entry(name = this.game) {
    return this.games.find((game) => game.name === name);
  }

  /** A game's card: a small picture of its start and its name. */
  card(entry) {
    const picture = el("div", { class: "picture", "aria-hidden": "true" });
    renderBoard(picture, entry.start.board, [], { disabled: true });
    return el("button", {
      type: "button", class: "game-card", "data-game": entry.name, title: entry.summary,
      onclick: () => this.choose(entry.name),
    }, picture, el("span", {}, entry.name));
  }

  /** Choose game ``name``, with ``kept`` choices (a level's spec, the side, the clock...). */
  choose(name, kept = {}) {
    const entry = this.entry(name);
    if (!entry) return;
    this.game = name;
    for (const card of $("games").children) {
      card.setAttribute("aria-pressed", String(card.dataset.game === name));
    }
    const levels = entry.levels.map((level) =>
      el("option", { value: level.spec, title: level.summary }, level.name));
    const custom = el("option", { value: CUSTOM }, "Custom players (agent specs)");
    $("opponent").replaceChildren(...levels, custom);
    const wanted = kept.opponent ?? (entry.levels.find((level) => level.default) || {}).spec;
    $("opponent").value = [...$("opponent").options].some((o) => o.value === wanted) ? wanted : CUSTOM;
    $("side").replaceChildren(...entry.players.map((player) => el("option", { value: player }, player)));
    if (kept.side && entry.players.includes(kept.side)) $("side").value = kept.side;
    if (kept.clock !== undefined) $("clock").value = kept.clock;
    if (kept.hints !== undefined) $("hints").checked = kept.hints;
    // where each player sees only part of the game, the server refuses clocks and hints
    $("clock").closest("label").hidden = entry.hidden_information;
    $("hints").closest("label").hidden = entry.hidden_information;
    this.renderFields(kept.options || "");
    $("options").placeholder = entry.options === "none" ? "no options" : entry.options;
    this.renderSeats(kept.seats || {});
    this.opponentChosen();
  }

  opponentChosen() {
    const custom = $("opponent").value === CUSTOM;
    $("side-label").hidden = custom;
    $("seats").hidden = !custom;
    if (custom) $("more").open = true;
    const level = this.entry().levels.find((l) => l.spec === $("opponent").value);
    $("level-note").textContent = level
      ? `${level.name}: ${level.summary} (${level.spec}). ${level.figure ? `Measured: ${level.figure}.` : "Not measured yet."}`
      : "Custom: give each seat an agent spec, or human.";
    $("level-note").title = level && level.source ? `measured by ${level.source}` : "";
    this.showCustomClock();
    this.save();
  }

  showCustomClock() {
    $("custom-clock").hidden = $("clock").value !== CUSTOM || Boolean(this.entry()?.hidden_information);
  }

  /** The game's options as fields (board size, komi...), set from ``options`` (a spec's
   * ``key=value,...``); what no field shows stays in the free options text. */
  renderFields(options) {
    const given = new Map(options.split(",").filter(Boolean).map((pair) => pair.split("=")));
    const fields = this.entry().fields.map((field) => {
      const value = given.has(field.key) ? given.get(field.key) : field.default;
      given.delete(field.key);
      const common = { "data-option": field.key, "data-default": String(field.default), title: field.help,
        onchange: () => this.save() };
      let input;
      if (field.kind === "choice") {
        input = el("select", common, field.choices.map((choice) => el("option", { value: choice }, choice)));
        input.value = value;
      } else if (field.kind === "flag") {
        input = el("input", { ...common, type: "checkbox", checked: String(value) === "true" });
      } else if (field.kind === "text") {
        input = el("input", { ...common, size: 8, value });
      } else {
        input = el("input", { ...common, type: "number", value, class: "option-number",
          step: field.kind === "int" ? 1 : "any", min: field.minimum, max: field.maximum });
      }
      return el("label", {}, field.help, " ", input);
    });
    $("fields").replaceChildren(...fields);
    $("options").value = [...given].map(([key, value]) => `${key}=${value}`).join(",");
  }

  /** The options set: the fields that differ from their defaults, then the free text. */
  options() {
    const set = [...$("fields").querySelectorAll("[data-option]")].map((input) => {
      const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
      return value === input.dataset.default ? null : `${input.dataset.option}=${value}`;
    }).filter(Boolean);
    const free = $("options").value.trim();
    return [...set, ...(free ? [free] : [])].join(",");
  }

  /** The seat inputs of custom players: an agent spec per player, the server's suggestions
   * offered. */
  renderSeats(values = {}) {
    const entry = this.entry();
    $("agent-specs").replaceChildren(...entry.agents.map((spec) => el("option", { value: spec })));
    $("seats").replaceChildren(...entry.players.map((player, index) => {
      const fallback = index === 0 ? "human" : entry.default_opponent;
      return el("label", { class: "seat" }, player,
        el("input", {
          "data-player": player, list: "agent-specs", value: values[player] || fallback,
          "aria-label": `agent for ${player}`, onchange: () => this.save(),
        }));
    }));
  }

  /** Who sits where: the person on the chosen side against the level, or the custom specs. */
  players() {
    const players = {};
    if ($("opponent").value === CUSTOM) {
      for (const input of $("seats").querySelectorAll("input")) {
        players[input.dataset.player] = input.value.trim() || "human";
      }
      return players;
    }
    for (const player of this.entry().players) {
      players[player] = player === $("side").value ? "human" : $("opponent").value;
    }
    return players;
  }

  /** The time control asked for: BASE+INC in seconds, or null for an untimed game. */
  clock() {
    if (this.entry().hidden_information) return null;
    const chosen = $("clock").value;
    if (chosen !== CUSTOM) return chosen || null;
    const seconds = Number($("clock-minutes").value) * 60;
    return `${seconds}+${Number($("clock-increment").value)}`;
  }

  spec() {
    const options = this.options();
    return options ? `${this.game}:${options}` : this.game;
  }

  /** The game spec, its players, clock and hints, as the server's new session takes them. */
  request() {
    const hints = $("hints").checked && !this.entry().hidden_information;
    return { game: this.spec(), players: this.players(), clock: this.clock(), hints };
  }

  save() {
    const seats = Object.fromEntries([...$("seats").querySelectorAll("input")].map((i) => [i.dataset.player, i.value]));
    keepChoices({
      game: this.game, opponent: $("opponent").value, side: $("side").value,
      clock: $("clock").value, hints: $("hints").checked, options: this.options(), seats,
    });
    this.changed();
  }

  /** The setup shows a session's game and players (after a reload, or a link). */
  showSession(session, name, options) {
    if (!this.entry(name) || document.activeElement?.closest("#setup")) return;
    const seats = Object.fromEntries(session.players.map((p) => [p.player, p.spec]));
    const people = session.players.filter((p) => p.human);
    const others = [...new Set(session.players.filter((p) => !p.human).map((p) => p.spec))];
    const level = people.length === 1 && others.length === 1 ? others[0] : CUSTOM;
    this.game = name;
    this.choose(name, {
      opponent: level, side: people.length === 1 ? people[0].player : undefined, seats, options,
      clock: session.settings ? session.settings.clock || "" : "",
    });
  }
}
