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
  busy: 0,
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

function variantText() {
  const preset = $("preset").value;
  const parameters = $("parameters").value.trim();
  return parameters ? preset + ":" + parameters : preset;
}

function settings() {
  const out = {};
  for (const input of document.querySelectorAll("#settings input")) {
    if (input.value.trim()) out[input.dataset.setting] = input.value.trim();
  }
  return out;
}

function request(moves, extra) {
  const body = { game: app.game.name, variant: variantText(), settings: settings(), moves };
  if (app.start !== null) body.start = app.start;
  return Object.assign(body, extra || {});
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
  const box = $("settings");
  box.innerHTML = "";
  for (const name of app.game.settings) {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const input = document.createElement("input");
    input.dataset.setting = name;
    input.size = 10;
    input.setAttribute("aria-label", name);
    input.addEventListener("change", () => refresh());
    label.appendChild(input);
    box.appendChild(label);
  }
  newGame();
}

function newGame() {
  app.start = null;
  app.moves = [];
  app.ply = 0;
  refresh();
}

// ---- the position shown ----------------------------------------------------------------

async function refresh() {
  showError("");
  app.busy++;
  try {
    const moves = app.moves.slice(0, app.ply);
    const state = await api("state", request(moves));
    app.view = state;
    app.explained = null;
    app.marked = [];
    if (app.ply > 0) {
      app.explained = await api("explain", request(moves.slice(0, -1), { move: moves[moves.length - 1] }));
    }
    render();
    $("position-text").value = state.position;
    if ($("show-values").checked) showValues();
    if (app.ply > 0) compareReadings(moves.slice(0, -1), moves[moves.length - 1]);
    else clearReadings();
    maybePolicyMove();
  } catch (e) {
    showError(e.message);
  } finally {
    app.busy--;
  }
}

function render() {
  const view = app.view;
  const drawn = $("show-move").checked && app.explained ? app.explained.svg : view.svg;
  drawBoard(drawn, view);
  renderStatus(view);
  renderRecord();
  renderExplanation();
  $("choices").hidden = true;
}

function drawBoard(svgText, view) {
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
    c.setAttribute("class", "pit-hit" + (byPit.has(pit.name) ? " legal" : "")
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
      const drawn = $("show-move").checked ? app.explained.svg : view.svg;
      drawBoard(drawn, view);
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
  const to = Math.max(0, Math.min(app.moves.length, ply));
  if (to === app.ply) return;
  app.ply = to;
  refresh();
}

// ---- moving ----------------------------------------------------------------------------

function clickPit(name) {
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

function play(mv) {
  app.moves = app.moves.slice(0, app.ply).concat([mv]);
  app.ply = app.moves.length;
  refresh();
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

async function policyMove() {
  if (!app.view || app.view.ending) return;
  $("policy-info").textContent = "thinking…";
  try {
    const moves = app.moves.slice(0, app.ply);
    const chosen = await api("policy", request(moves, { policy: policyText() }));
    $("policy-info").textContent = policyText() + " played " + chosen.move
      + (chosen.info ? " (" + chosen.info + (chosen.stopped ? ", stopped at the server's time cap" : "") + ")" : "");
    play(chosen.move);
  } catch (e) {
    $("policy-info").textContent = e.message;
  }
}

function maybePolicyMove() {
  const side = $("policy-side").value;
  if (side && app.view && !app.view.ending && app.view.to_move === side && app.ply === app.moves.length) {
    setTimeout(policyMove, 150);
  }
}

// ---- exact values ----------------------------------------------------------------------

async function showValues() {
  $("values-note").textContent = "";
  try {
    const data = await api("values", request(app.moves.slice(0, app.ply)));
    if (!data.known) {
      $("values-note").textContent = "beyond the databases' reach";
      return;
    }
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
    $("values-note").textContent = "values: seeds won from here on by the mover, under perfect play";
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
    const view = await api("transcript", {
      game: app.game.name, variant: variantText(), settings: settings(), text,
    });
    app.start = null;
    app.moves = view.moves;
    app.ply = view.moves.length;
    refresh();
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

function exportTranscript() {
  const text = app.view ? app.view.transcript : "";
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
  try {
    await api("state", { game: app.game.name, variant: variantText(), settings: settings(), start: text, moves: [] });
    app.start = text;
    app.moves = [];
    app.ply = 0;
    refresh();
  } catch (e) {
    box.hidden = false;
    box.textContent = e.message;
  }
}

// ---- wiring ----------------------------------------------------------------------------

function wire() {
  $("game").addEventListener("change", chooseGame);
  $("preset").addEventListener("change", () => refresh());
  $("parameters").addEventListener("change", () => refresh());
  $("new-game").addEventListener("click", newGame);
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(app.ply - 1));
  $("forward").addEventListener("click", () => goTo(app.ply + 1));
  $("last").addEventListener("click", () => goTo(app.moves.length));
  $("show-move").addEventListener("change", render);
  $("show-values").addEventListener("change", () => (app.view ? refresh() : null));
  $("clause-close").addEventListener("click", () => ($("clause").hidden = true));
  $("policy-move").addEventListener("click", policyMove);
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
    const go = { ArrowLeft: app.ply - 1, ArrowRight: app.ply + 1, Home: 0, End: app.moves.length }[e.key];
    if (go !== undefined) {
      e.preventDefault();
      goTo(go);
    }
  });
}

wire();
loadGames().catch((e) => showError(e.message));
