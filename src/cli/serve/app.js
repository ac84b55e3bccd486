// The board page of `mancala-lab serve`. It holds no rule: it asks /api for every position,
// legal move, explanation and reading, so any game the registry lists plays here unchanged.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

const app = {
  games: [],        // GET /api/games
  policies: [],
  databases: false,
  game: null,       // the game's entry of /api/games
  start: null,      // the position text the game started from (null: the game's start)
  moves: [],        // the whole record
  ply: 0,           // moves shown: moves.slice(0, ply)
  view: null,       // the current /api/state answer
  explained: null,  // the /api/explain answer of the move that led here
  marked: [],       // pits marked by the selected step
  reading: null,    // the reading the game shown is played under: {preset, parameters, settings}
  seq: 0,           // the latest position asked for: an older answer is dropped
  pending: null,    // that latest position, until its answer comes: later changes build on it
  thinking: null,   // the position a policy is choosing a move for (its key), if any
};

// ---- talking to the server -------------------------------------------------------------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch("/api/" + path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = { error: response.status + " " + response.statusText };
  }
  if (!response.ok) {
    const err = new Error(data && data.error ? data.error : String(response.status));
    err.status = response.status;
    err.line = data ? data.line : undefined;
    err.column = data ? data.column : undefined;
    throw err;
  }
  return data;
}

// The reading the controls name.
function readingOfControls() {
  const settings = {};
  for (const input of document.querySelectorAll("#settings input")) {
    if (input.value.trim()) settings[input.dataset.setting] = input.value.trim();
  }
  return { preset: $("preset").value, parameters: $("parameters").value.trim(), settings };
}

// The controls set back to `reading` (after the server refused another).
function showReading(reading) {
  $("preset").value = reading.preset;
  $("parameters").value = reading.parameters;
  for (const input of document.querySelectorAll("#settings input")) {
    input.value = reading.settings[input.dataset.setting] || "";
  }
}

function variantOf(reading) {
  return reading.parameters ? reading.preset + ":" + reading.parameters : reading.preset;
}

function variantText() {
  return variantOf(app.reading || readingOfControls());
}

function settings() {
  return (app.reading || readingOfControls()).settings;
}

// The body naming the game at `at` ({start, reading}) after `moves`.
function requestAt(at, moves, extra) {
  const body = { game: app.game.name, variant: variantOf(at.reading), settings: at.reading.settings, moves };
  if (at.start !== null) body.start = at.start;
  return Object.assign(body, extra || {});
}

function request(moves, extra) {
  return requestAt(app, moves, extra);
}

// A key of the position shown: a policy's answer for another position is dropped.
function positionKey() {
  return JSON.stringify([app.game.name, variantText(), settings(), app.start, app.moves.slice(0, app.ply)]);
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// ---- games and readings ----------------------------------------------------------------

async function loadGames() {
  const data = await api("games");
  app.games = data.games;
  app.policies = data.policies;
  app.databases = data.databases;
  const select = $("game");
  select.innerHTML = "";
  for (const g of app.games) select.add(new Option(g.name, g.name));
  const policy = $("policy");
  policy.innerHTML = "";
  for (const p of app.policies) policy.add(new Option(p, p));
  policy.value = app.policies.includes("mcts") ? "mcts" : app.policies[0];
  budgetHint();
  $("values-label").hidden = !app.databases;
  const wanted = new URLSearchParams(location.search).get("game");
  select.value = app.games.some((g) => g.name === wanted) ? wanted : app.games[0].name;
  chooseGame();
}

function chooseGame() {
  app.game = app.games.find((g) => g.name === $("game").value);
  const preset = $("preset");
  preset.innerHTML = "";
  for (const p of app.game.presets) preset.add(new Option(p, p));
  preset.value = app.game.default_variant;
  $("parameters").value = "";
  $("parameters").placeholder = app.game.parameters.length
    ? app.game.parameters.map((p) => p + "=...").join(",")
    : "none";
  $("parameters-label").hidden = app.game.parameters.length === 0;
  app.reading = null;
  const box = $("settings");
  box.innerHTML = "";
  for (const name of app.game.settings) {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const input = document.createElement("input");
    input.dataset.setting = name;
    input.size = 10;
    input.setAttribute("aria-label", name);
    input.addEventListener("change", changeReading);
    label.appendChild(input);
    box.appendChild(label);
  }
  newGame();
}

function newGame() {
  show({ start: null, moves: [], ply: 0, reading: readingOfControls() });
}

// The reading controls changed: the game so far under the new reading, or, if the server
// refuses it there, the controls set back and the game left as it was.
function changeReading() {
  const at = base();
  show({ start: at.start, moves: at.moves, ply: at.ply, reading: readingOfControls() });
}

// The game the next change builds on: the one asked for last, if its answer has not come yet.
function base() {
  return app.pending || app;
}

// ---- the position shown ----------------------------------------------------------------

// Shows the game `next` ({start, moves, ply, reading}) once the server has answered for it; the
// game shown changes only then. A refusal leaves it as it was and is said; an answer to an
// older request than the latest is dropped. Whether `next` is shown, or the error.
async function show(next) {
  const my = ++app.seq;
  app.pending = next;
  document.body.dataset.pending = "1";
  showError("");
  try {
    const moves = next.moves.slice(0, next.ply);
    const state = await api("state", requestAt(next, moves));
    let explained = null;
    if (next.ply > 0) {
      explained = await api("explain", requestAt(next, moves.slice(0, -1), { move: moves[moves.length - 1] }));
    }
    if (my !== app.seq) return { ok: false };
    app.pending = null;
    delete document.body.dataset.pending;
    Object.assign(app, {
      start: next.start, moves: next.moves, ply: next.ply, reading: next.reading,
      view: state, explained, marked: [],
    });
    render();
    $("position-text").value = state.position;
    if ($("show-values").checked) showValues();
    if (app.ply > 0) compareReadings(moves.slice(0, -1), moves[moves.length - 1]);
    else clearReadings();
    maybePolicyMove();
    return { ok: true };
  } catch (e) {
    if (my !== app.seq) return { ok: false };
    app.pending = null;
    delete document.body.dataset.pending;
    if (app.reading) showReading(app.reading);
    showError(e.message);
    return { ok: false, error: e };
  }
}

function refresh() {
  return show({ start: app.start, moves: app.moves, ply: app.ply, reading: app.reading || readingOfControls() });
}

function render() {
  const view = app.view;
  const drawnMove = $("show-move").checked && app.explained;
  drawBoard(drawnMove ? app.explained.svg : view.svg, view, drawnMove);
  renderStatus(view);
  renderRecord();
  renderExplanation();
  $("choices").hidden = true;
}

function drawBoard(svgText, view, drawnMove) {
  const board = $("board");
  board.innerHTML = svgText;
  const svg = board.querySelector("svg");
  if (!svg) return;
  if (!svg.getAttribute("viewBox")) {
    svg.setAttribute("viewBox", "0 0 " + svg.getAttribute("width") + " " + svg.getAttribute("height"));
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const byPit = movesByPit(view);
  for (const pit of view.pits) {
    const c = document.createElementNS(SVG_NS, "circle");
    c.setAttribute("cx", pit.x);
    c.setAttribute("cy", pit.y);
    c.setAttribute("r", pit.r);
    // On the drawing of the last move the board is the one before it: nothing to play there.
    const legal = byPit.has(pit.name) && !drawnMove && !app.thinking;
    c.setAttribute("class", "pit-hit" + (legal ? " legal" : "")
      + (app.marked.includes(pit.name) ? " marked" : ""));
    c.dataset.pit = pit.name;
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = pit.name + (byPit.has(pit.name) ? ": " + byPit.get(pit.name).join(", ") : "");
    c.appendChild(title);
    c.addEventListener("click", () => clickPit(pit.name));
    svg.appendChild(c);
  }
}

function movesByPit(view) {
  const byPit = new Map();
  for (const m of view.legal) {
    if (!m.pit) continue;
    if (!byPit.has(m.pit)) byPit.set(m.pit, []);
    byPit.get(m.pit).push(m.notation);
  }
  return byPit;
}

function renderStatus(view) {
  const status = $("status");
  status.innerHTML = "";
  const line = document.createElement("span");
  line.textContent = app.game.name + " (" + view.variant + "): " + view.to_move + " to move; scores "
    + view.scores[0] + " (South) – " + view.scores[1] + " (North)";
  status.appendChild(line);
  const ending = $("ending");
  ending.innerHTML = "";
  if (view.ending) {
    line.textContent = app.game.name + " (" + view.variant + "): the game is over; scores "
      + view.scores[0] + " (South) – " + view.scores[1] + " (North)";
    const p = document.createElement("p");
    p.className = "ending";
    const who = view.ending.winner === "draw" ? "A draw"
      : view.ending.winner === "none" ? "No result: the rules are silent here"
      : view.ending.winner + " wins";
    p.appendChild(document.createTextNode(who + ", by "));
    p.appendChild(clauseLink(app.game.name + " " + view.ending.clause));
    if (view.ending.title) p.appendChild(document.createTextNode(" — " + view.ending.title));
    ending.appendChild(p);
  }
}

function clauseLink(clause) {
  const a = document.createElement("button");
  a.className = "clause-id";
  a.textContent = clause;
  a.addEventListener("click", (e) => {
    e.stopPropagation();
    showClause(clause);
  });
  return a;
}

async function showClause(clause) {
  const id = clause.startsWith(app.game.name + " ") ? clause.slice(app.game.name.length + 1) : clause;
  try {
    const c = await api("clause?game=" + encodeURIComponent(app.game.name) + "&id=" + encodeURIComponent(id));
    $("clause-title").textContent = c.game + " " + c.id + " — " + c.title;
    $("clause-text").textContent = c.text;
    $("clause").hidden = false;
  } catch (e) {
    showError(e.message);
  }
}

function renderExplanation() {
  const list = $("steps");
  list.innerHTML = "";
  const head = $("explained-move");
  if (!app.explained) {
    head.textContent = "No move played yet: click a pit to move from it.";
    return;
  }
  head.textContent = "Move " + app.ply + ": " + app.explained.move + " by " + app.explained.by;
  app.explained.steps.forEach((step, i) => {
    const li = document.createElement("li");
    li.className = "step";
    li.tabIndex = 0;
    if (step.clause) li.appendChild(clauseLink(step.clause));
    li.appendChild(document.createTextNode(" " + step.text));
    li.dataset.pits = step.pits.join(" ");
    const select = () => {
      for (const other of list.children) other.classList.remove("selected");
      li.classList.add("selected");
      app.marked = step.pits;
      const view = app.view;
      const drawnMove = $("show-move").checked;
      drawBoard(drawnMove ? app.explained.svg : view.svg, view, drawnMove);
    };
    li.addEventListener("click", select);
    li.addEventListener("keydown", (e) => { if (e.key === "Enter") select(); });
    list.appendChild(li);
  });
}

function renderRecord() {
  const list = $("moves");
  list.innerHTML = "";
  app.moves.forEach((mv, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = mv;
    b.className = "ply" + (i + 1 === app.ply ? " current" : "") + (i + 1 > app.ply ? " ahead" : "");
    b.addEventListener("click", () => goTo(i + 1));
    li.appendChild(b);
    list.appendChild(li);
  });
  $("ply-shown").textContent = "ply " + app.ply + " of " + app.moves.length;
}

function goTo(ply) {
  const at = base();
  const to = Math.max(0, Math.min(at.moves.length, ply));
  if (to === at.ply) return;
  show({ start: at.start, moves: at.moves, ply: to, reading: at.reading });
}

// ---- moving ----------------------------------------------------------------------------

function clickPit(name) {
  if (app.thinking || ($("show-move").checked && app.explained)) return;
  const byPit = movesByPit(app.view);
  const moves = byPit.get(name) || [];
  const box = $("choices");
  box.innerHTML = "";
  if (moves.length === 0) {
    box.hidden = false;
    box.textContent = "No legal move starts at " + name + ".";
    return;
  }
  if (moves.length === 1) {
    play(moves[0]);
    return;
  }
  box.hidden = false;
  box.appendChild(document.createTextNode("From " + name + ": "));
  for (const mv of moves) {
    const b = document.createElement("button");
    b.className = "choice";
    b.textContent = mv;
    b.addEventListener("click", () => play(mv));
    b.addEventListener("mouseenter", () => compareReadings(app.moves.slice(0, app.ply), mv));
    box.appendChild(b);
  }
}

// Plays `mv` after the ply shown: the record goes on as it was when `mv` is its next move, and
// is cut there otherwise.
function play(mv) {
  const moves = app.moves[app.ply] === mv ? app.moves : app.moves.slice(0, app.ply).concat([mv]);
  return show({ start: app.start, moves, ply: app.ply + 1, reading: app.reading });
}

// ---- the readings side by side ---------------------------------------------------------

function clearReadings() {
  $("readings-table").hidden = true;
  $("readings-note").textContent = "Play or pick a move: each reading's result is shown here.";
}

async function compareReadings(before, mv) {
  try {
    const data = await api("readings", request(before, { move: mv }));
    const body = $("readings-table").querySelector("tbody");
    body.innerHTML = "";
    for (const r of data.readings) {
      const tr = document.createElement("tr");
      tr.className = "reading " + r.outcome;
      const name = document.createElement("td");
      name.textContent = r.variant;
      const result = document.createElement("td");
      const words = {
        same: "the same result",
        different: "a different result",
        illegal: "the move is not legal here",
        unreachable: "the game so far is not this reading's",
      };
      result.textContent = words[r.outcome] + (r.detail ? ": " + r.detail : "");
      if (r.ending) result.textContent += " (ends: " + r.ending.winner + ", " + r.ending.clause + ")";
      const where = document.createElement("td");
      if (r.clause) where.appendChild(clauseLink(r.clause));
      tr.append(name, result, where);
      body.appendChild(tr);
    }
    $("readings-table").hidden = false;
    $("readings-note").textContent = "Move " + mv + " under each reading (the first row is the reading at hand):";
  } catch (e) {
    $("readings-note").textContent = e.message;
    $("readings-table").hidden = true;
  }
}

// ---- a policy's move -------------------------------------------------------------------

function policyText() {
  const budget = $("budget").value.trim();
  return budget ? $("policy").value + ":" + budget : $("policy").value;
}

// The policy's move in the position shown, played when it comes if that position is still the
// one shown; the board takes no click meanwhile. A busy server is asked again after a second.
async function policyMove(tries) {
  if (!app.view || app.view.ending || app.thinking) return;
  const key = positionKey();
  app.thinking = key;
  render();
  $("policy-move").disabled = true;
  $("policy-info").textContent = "thinking…";
  let retry = false;
  try {
    const moves = app.moves.slice(0, app.ply);
    const chosen = await api("policy", request(moves, { policy: policyText() }));
    app.thinking = null;
    if (positionKey() !== key) {
      $("policy-info").textContent = "";
      return;
    }
    $("policy-info").textContent = policyText() + " played " + chosen.move
      + (chosen.info ? " (" + chosen.info + (chosen.stopped ? ", stopped at the server's time cap" : "") + ")" : "");
    await play(chosen.move);
  } catch (e) {
    app.thinking = null;
    retry = e.status === 503 && (tries || 0) < 30 && positionKey() === key;
    $("policy-info").textContent = retry ? e.message + " (asking again)" : e.message;
  } finally {
    $("policy-move").disabled = false;
    if (!app.thinking) render();
  }
  if (retry) setTimeout(() => policyMove((tries || 0) + 1), 1000);
}

// What a budget looks like for the policy chosen.
function budgetHint() {
  const hints = {
    alphabeta: "depth=6 or ms=500", mcts: "sims=1000 or ms=500", perfect: "budget=…,depth=…",
  };
  const hint = hints[$("policy").value];
  $("budget").placeholder = hint || "none (it does not search)";
  $("budget").disabled = !hint;
  if (!hint) $("budget").value = "";
}

function maybePolicyMove() {
  const side = $("policy-side").value;
  if (side && app.view && !app.view.ending && app.view.to_move === side && app.ply === app.moves.length) {
    setTimeout(() => policyMove(0), 150);
  }
}

// ---- exact values ----------------------------------------------------------------------

async function showValues() {
  $("values-note").textContent = "";
  try {
    const data = await api("values", request(app.moves.slice(0, app.ply)));
    if (!data.known) {
      $("values-note").textContent = "(beyond the databases' reach)";
      return;
    }
    if ($("show-move").checked && app.explained) return;
    const svg = $("board").querySelector("svg");
    const byMove = new Map(app.view.legal.map((m) => [m.notation, m.pit]));
    for (const v of data.values) {
      const pit = app.view.pits.find((p) => p.name === byMove.get(v.move));
      if (!pit || !svg) continue;
      const t = document.createElementNS(SVG_NS, "text");
      t.setAttribute("x", pit.x);
      t.setAttribute("y", pit.y - pit.r - 4);
      t.setAttribute("class", "value");
      t.setAttribute("text-anchor", "middle");
      t.dataset.move = v.move;
      t.textContent = (v.value > 0 ? "+" : "") + v.value;
      svg.appendChild(t);
    }
    $("values-note").textContent = "(seeds the mover wins from here on, under perfect play)";
  } catch (e) {
    $("values-note").textContent = e.message;
  }
}

// ---- transcripts and the editor --------------------------------------------------------

async function loadTranscript() {
  const box = $("transcript-error");
  box.hidden = true;
  const text = $("transcript-text").value;
  try {
    const reading = readingOfControls();
    const view = await api("transcript", {
      game: app.game.name, variant: variantOf(reading), settings: reading.settings, text,
    });
    const shown = await show({ start: null, moves: view.moves, ply: view.moves.length, reading: readingOfControls() });
    if (!shown.ok && shown.error) throw shown.error;
  } catch (e) {
    box.hidden = false;
    box.textContent = e.line ? "line " + e.line + ", column " + e.column + ": " + e.message.replace(/^line \d+, column \d+: /, "") : e.message;
    box.dataset.line = e.line || "";
    box.dataset.column = e.column || "";
    if (e.line) selectLine($("transcript-text"), e.line, e.column);
  }
}

function selectLine(area, line, column) {
  const lines = area.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  const end = at + (lines[line - 1] || "").length;
  area.focus();
  area.setSelectionRange(Math.min(at + column - 1, end), end);
}

// The whole record (not only to the ply shown) as the game's transcript, into the box and a file.
async function exportTranscript() {
  let text = "";
  try {
    text = (await api("state", request(app.moves))).transcript;
  } catch (e) {
    showError(e.message);
    return;
  }
  const box = $("transcript-error");
  box.hidden = app.start === null;
  box.textContent = app.start === null ? "" : "This game started from an edited position: the "
    + "transcript gives that position as comments, and a replay starts from the game's start.";
  $("transcript-text").value = text;
  const blob = new Blob([text], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = app.game.name + "-game.txt";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function setPosition() {
  const box = $("position-error");
  box.hidden = true;
  const text = $("position-text").value;
  const shown = await show({ start: text, moves: [], ply: 0, reading: app.reading || readingOfControls() });
  if (!shown.ok && shown.error) {
    showError("");
    box.hidden = false;
    box.textContent = shown.error.message;
  }
}

// ---- wiring ----------------------------------------------------------------------------

function wire() {
  $("game").addEventListener("change", chooseGame);
  $("preset").addEventListener("change", changeReading);
  $("parameters").addEventListener("change", changeReading);
  $("policy").addEventListener("change", budgetHint);
  $("new-game").addEventListener("click", newGame);
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(base().ply - 1));
  $("forward").addEventListener("click", () => goTo(base().ply + 1));
  $("last").addEventListener("click", () => goTo(base().moves.length));
  $("show-move").addEventListener("change", render);
  $("show-values").addEventListener("change", () => (app.view ? refresh() : null));
  $("clause-close").addEventListener("click", () => ($("clause").hidden = true));
  $("policy-move").addEventListener("click", () => policyMove(0));
  $("policy-side").addEventListener("change", maybePolicyMove);
  $("load-transcript").addEventListener("click", loadTranscript);
  $("export-transcript").addEventListener("click", exportTranscript);
  $("transcript-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("transcript-text").value = await file.text();
  });
  $("set-position").addEventListener("click", setPosition);
  $("reset-position").addEventListener("click", newGame);
  document.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    const at = base();
    const go = { ArrowLeft: at.ply - 1, ArrowRight: at.ply + 1, Home: 0, End: at.moves.length }[e.key];
    if (go !== undefined) {
      e.preventDefault();
      goTo(go);
    }
  });
}

wire();
loadGames().catch((e) => showError(e.message));
