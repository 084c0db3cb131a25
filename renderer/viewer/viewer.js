// The viewer's page: decodes the game (embedded, or from the URL fragment), then shows it turn by
// turn: the board with our tile art and figures, the players' scores, the score chart.
// Reads the data the page was written with (renderer/viewer/page.py); decodeGame is decode.js.
// The board follows the action: each turn is fitted to the screen (the tiles placed so far, or
// on a big board the part around the last one, tiles never under FOLLOW_TILE pixels); the
// whole-board button shows it all. A link opens on the game's last turn unless it names one
// ("#code~12", kept in the address as the turns are walked, so that a copied link opens there).
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("viewer-data").textContent);
  const TILE = 64; // CSS pixels per square at zoom 1
  const FOLLOW_TILE = 44; // the smallest square while following the action (9 across a phone)
  const PLAY = "M7 4v16l12-8z";
  const PAUSE = "M6 4h4v16H6zM14 4h4v16h-4z";
  const $ = (id) => document.getElementById(id);
  const lang = pickLanguage();
  const words = data.texts[lang];
  let game = null;
  let frames = [];
  let current = 0;
  let zoom = 1;
  let whole = false; // the whole board shown, rather than following the action
  let code = "";
  let timer = null;

  function pickLanguage() {
    if (data.lang && data.texts[data.lang]) return data.lang;
    for (const wanted of navigator.languages || [navigator.language || "en"]) {
      const code = String(wanted).slice(0, 2).toLowerCase();
      if (data.texts[code]) return code;
    }
    return "en";
  }

  function t(key, values) {
    let text = words[key] || data.texts.en[key] || key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function fail(error) {
    stop();
    const known = error instanceof CodeError;
    if (!known) console.error(error);
    const key = known ? error.key : "viewer_bad_code";
    $("error").textContent = t(key, known ? error.values : {});
    $("error").hidden = false;
    $("viewer").hidden = true;
    $("turn-label").textContent = "";
    window.viewerState = { error: key };
  }

  function samePiece(a, b) {
    return a.every((v, i) => v === b[i]);
  }

  // Every frame's board: tiles and pieces standing, whose turn, the scores shown.
  function buildFrames(g) {
    const out = [];
    const tiles = [];
    const goods = goodsByTurn(g, data.variants[g.variant]);
    let standing = [];
    g.turns.forEach((turn, index) => {
      tiles.push(...turn.tiles);
      for (const gone of turn.returned) {
        const at = standing.findIndex((p) => samePiece(p, gone));
        if (at >= 0) standing.splice(at, 1);
      }
      standing = standing.concat(turn.placed);
      const last = turn.tiles.length ? turn.tiles[turn.tiles.length - 1] : null;
      out.push({
        turn: index,
        player: index ? turn.player : null,
        tiles: tiles.slice(),
        pieces: standing.slice(),
        scores: turn.scores,
        last: index ? last : null,
        final: false,
        goods: goods ? goods[index] : null,
      });
    });
    if (g.final) {
      const end = out[out.length - 1];
      out.push({ ...end, player: null, scores: g.final, last: null, final: true });
    }
    return out;
  }

  function extent(g, tables) {
    const cells = g.turns.flatMap((turn) => turn.tiles.map(([, x, y]) => [x, y]));
    if (tables.bounds) cells.push(...tables.bounds);
    if (!cells.length) cells.push([0, 0]);
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const minX = Math.min(...xs);
    const minY = Math.min(...ys);
    return { minX, minY, cols: Math.max(...xs) - minX + 1, rows: Math.max(...ys) - minY + 1 };
  }

  // The address's fragment: the game's code (the hosted page) and the turn it names, if any.
  function fragment() {
    const raw = decodeURIComponent(location.hash.replace(/^#/, ""));
    const at = raw.lastIndexOf("~");
    if (at < 0) return { code: raw, turn: null };
    const turn = raw.slice(at + 1);
    return { code: raw.slice(0, at), turn: /^[0-9]{1,5}$/.test(turn) ? Number(turn) : null };
  }

  function load() {
    stop();
    const embedded = $("viewer-game").textContent.trim();
    let named;
    try {
      named = fragment();
    } catch (error) {
      if (!embedded) return fail(new CodeError("viewer_bad_code"));
      named = { code: "", turn: null };
    }
    code = embedded || named.code;
    try {
      game = decodeGame(code, data);
    } catch (error) {
      return fail(error);
    }
    window.viewerGame = game;
    frames = buildFrames(game);
    $("error").hidden = true;
    $("viewer").hidden = false;
    const slider = $("slider");
    slider.max = String(frames.length - 1);
    slider.disabled = frames.length < 2;
    for (const id of ["first", "prev", "play", "next", "last"]) $(id).disabled = frames.length < 2;
    $("chart-title").textContent = t("viewer_chart");
    buildPlayers();
    buildLegend();
    zoom = 1;
    whole = false;
    $("viewer").dataset.view = "follow";
    // The last turn (the final scoring of a finished game), unless the link names a turn.
    const turn = named.turn === null ? frames.length - 1 : Math.min(named.turn, frames.length - 1);
    show(turn, false);
  }

  function tablesOf() {
    return data.variants[game.variant];
  }

  function sprite(role, seat) {
    const set = data.figures[tablesOf().sprites[role]];
    return set ? set[game.styles[seat] % set.length] : null;
  }

  // A player's list item with their figure and name (the players' list, the chart's legend).
  function seatItem(role, name, seat) {
    const item = document.createElement("li");
    item.dataset.seat = String(seat);
    const icon = document.createElement("span");
    icon.className = "icon";
    const art = sprite(role, seat);
    if (art) icon.style.backgroundImage = 'url("' + art.uri + '")';
    const label = document.createElement("span");
    label.className = "name";
    label.textContent = name || "—";
    return [item, icon, label];
  }

  function buildPlayers() {
    const list = $("players");
    list.textContent = "";
    const role = tablesOf().legend;
    game.names.forEach((name, seat) => {
      const [item, icon, label] = seatItem(role, name, seat);
      label.title = name;
      const score = document.createElement("span");
      score.className = "score";
      item.append(icon, label, score);
      if (tablesOf().cities) item.append(goodsCells());
      list.append(item);
    });
  }

  // The chart's legend: each player's line colour, figure and name.
  function buildLegend() {
    const list = $("chart-legend");
    list.textContent = "";
    const role = tablesOf().legend;
    game.names.forEach((name, seat) => {
      const [item, icon, label] = seatItem(role, name, seat);
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      const [r, g, b] = data.colours[game.styles[seat] % data.colours.length];
      swatch.style.backgroundColor = "rgb(" + r + "," + g + "," + b + ")";
      item.append(swatch, icon, label);
      list.append(item);
    });
  }

  // Traders & Builders: a token and its count per kind of goods, under the name.
  function goodsCells() {
    const row = document.createElement("span");
    row.className = "goods";
    row.setAttribute("aria-label", t("goods"));
    for (const kind of ["wine", "grain", "cloth"]) {
      const cell = document.createElement("span");
      cell.className = "good";
      cell.dataset.good = kind;
      cell.title = t(kind);
      const token = document.createElement("img");
      token.src = data.goods[kind];
      token.alt = t(kind);
      const count = document.createElement("b");
      cell.append(token, count);
      row.append(cell);
    }
    return row;
  }

  function drawBoard(frame) {
    const tables = tablesOf();
    const box = extent(game, tables);
    const board = $("board");
    board.textContent = "";
    const width = box.cols * TILE;
    const height = box.rows * TILE;
    board.style.width = width + "px";
    board.style.height = height + "px";
    const at = (x, y) => [(x - box.minX) * TILE, (y - box.minY) * TILE];
    const place = (el, x, y, w, h) => {
      el.style.left = x + "px";
      el.style.top = y + "px";
      el.style.width = w + "px";
      el.style.height = h + "px";
    };
    if (tables.bounds) {
      board.style.background = "#b2a48a";
      for (const [x, y] of tables.bounds) {
        const square = document.createElement("div");
        square.className = "square";
        place(square, ...at(x, y), TILE, TILE);
        board.append(square);
      }
    } else {
      board.style.background = "#ece8de";
    }
    const rotations = new Map();
    for (const [kind, x, y, rotation] of frame.tiles) {
      const el = document.createElement("div");
      el.className = "tile";
      const k = tables.kinds.indexOf(kind);
      el.style.backgroundImage = 'url("' + data.pictures[tables.art[k]] + '")';
      el.style.transform = "rotate(" + rotation + "deg)";
      el.dataset.kind = kind;
      place(el, ...at(x, y), TILE, TILE);
      if (frame.last && frame.last[1] === x && frame.last[2] === y) el.classList.add("last");
      rotations.set(x + "," + y, [k, rotation]);
      board.append(el);
    }
    const sorted = frame.pieces.slice().sort((a, b) => a[3] - b[3] || a[2] - b[2]);
    for (const [owner, role, x, y, spot] of sorted) {
      const under = rotations.get(x + "," + y);
      const art = sprite(role, owner);
      if (!under || !art) continue;
      const [u, v] = spotPoint(tables, under[0], under[1], spot);
      const el = document.createElement("div");
      el.className = "fig";
      el.dataset.role = role;
      el.dataset.seat = String(owner);
      const w = (art.w * TILE) / data.artSize;
      const h = (art.h * TILE) / data.artSize;
      const [x0, y0] = at(x, y);
      el.style.backgroundImage = 'url("' + art.uri + '")';
      place(el, x0 + u * TILE - w / 2, y0 + v * TILE - h / 2, w, h);
      board.append(el);
    }
    board.dataset.tiles = String(frame.tiles.length);
    board.dataset.figures = String(board.querySelectorAll(".fig").length);
    fit(frame, box, width, height);
  }

  // Where a piece stands on its tile (0..1 units): a feature's spot turns with the tile, a
  // barn's corner does not.
  function spotPoint(tables, kind, rotation, spot) {
    if (spot >= data.cornerBase) return data.corners[spot - data.cornerBase] || [0.5, 0.5];
    let [u, v] = tables.spots[kind][spot] || [0.5, 0.5];
    for (let r = 0; r < rotation; r += 90) [u, v] = [1 - v, u];
    return [u, v];
  }

  // The squares (min x, min y, max x, max y) a frame is fitted to: the tiles placed so far and
  // the ring around them, within the board.
  function action(frame, box) {
    const cells = frame.tiles.length ? frame.tiles.map(([, x, y]) => [x, y]) : [[0, 0]];
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const maxX = box.minX + box.cols - 1;
    const maxY = box.minY + box.rows - 1;
    return [
      Math.max(box.minX, Math.min(...xs) - 1),
      Math.max(box.minY, Math.min(...ys) - 1),
      Math.min(maxX, Math.max(...xs) + 1),
      Math.min(maxY, Math.max(...ys) + 1),
    ];
  }

  // Scale the board for the screen and scroll it: the whole board, or (following the action)
  // the tiles so far as large as fit, at most 1.5 times; on a board too big for squares of
  // FOLLOW_TILE pixels, the part around the last tile placed (the view stays while that tile is
  // in it).
  function fit(frame, box, width, height) {
    const wrap = $("board-wrap");
    const room = wrap.clientWidth || width;
    const tall = window.innerHeight * 0.75;
    let scale;
    let view = null;
    let below = 0;
    if (whole) {
      scale = Math.min(room / width, tall / height, 1.5) * zoom;
      wrap.style.height = "";
    } else {
      const high = Math.max(160, Math.min(tall, room * 1.1));
      const [x0, y0, x1, y1] = action(frame, box);
      const cols = x1 - x0 + 1;
      const rows = y1 - y0 + 1;
      const fitted = Math.min(room / (cols * TILE), high / (rows * TILE), 1.5);
      scale = Math.max(fitted, FOLLOW_TILE / TILE) * zoom;
      // The same height every turn, so that the buttons under it stay where the thumb is.
      wrap.style.height = high + "px";
      below = Math.max(0, (high - height * scale) / 2);
      view = [x0, y0, cols, rows];
      const last = frame.last || (frame.tiles.length ? frame.tiles[frame.tiles.length - 1] : null);
      if (fitted < FOLLOW_TILE / TILE && last) view = [last[1], last[2], 1, 1];
    }
    $("board").style.transform = "scale(" + scale + ")";
    $("board-size").style.width = width * scale + "px";
    $("board-size").style.height = height * scale + "px";
    $("board-size").style.marginTop = below + "px";
    if (view) {
      const side = TILE * scale;
      const [vx, vy, vc, vr] = view;
      const left = (vx - box.minX) * side;
      const top = (vy - box.minY) * side;
      const seen =
        left >= wrap.scrollLeft &&
        top >= wrap.scrollTop &&
        left + vc * side <= wrap.scrollLeft + wrap.clientWidth &&
        top + vr * side <= wrap.scrollTop + wrap.clientHeight;
      if (!seen || scale !== window.viewerScale) {
        wrap.scrollLeft = left + (vc * side) / 2 - wrap.clientWidth / 2;
        wrap.scrollTop = top + (vr * side) / 2 - wrap.clientHeight / 2;
      }
    }
    window.viewerScale = scale;
  }

  function label(frame) {
    if (frame.final) {
      const best = Math.max(...frame.scores);
      const winners = game.names.filter((_, seat) => frame.scores[seat] === best);
      return t("replay_final") + " · " + t(winners.length === 1 ? "winner" : "winners", { names: winners.join(", ") });
    }
    if (frame.turn === 0) return t("replay_start");
    return t("replay_turn", { n: frame.turn, total: game.turns.length - 1, name: game.names[frame.player] });
  }

  // Name the turn shown in the address (the last one needs no name), so that a copied link
  // opens on it; no reload: the address changes in place.
  function remember(frame) {
    const named = current === frames.length - 1 ? "" : "~" + frame.turn;
    const hash = "#" + ($("viewer-game").textContent.trim() ? "" : code) + named;
    if (location.hash === hash || (hash === "#" && !location.hash)) return;
    try {
      history.replaceState(null, "", hash === "#" ? location.pathname + location.search : hash);
    } catch (error) {
      // A page opened from a file may not change its address: nothing to remember then.
    }
  }

  function show(index, keep = true) {
    current = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[current];
    $("slider").value = String(current);
    $("turn-label").textContent = label(frame);
    drawBoard(frame);
    for (const item of $("players").children) {
      const seat = Number(item.dataset.seat);
      item.querySelector(".score").textContent = String(frame.scores[seat]);
      item.classList.toggle("current", frame.player === seat);
      item.querySelectorAll(".good b").forEach((count, i) => {
        count.textContent = String(frame.goods[seat][i]);
        count.parentElement.classList.toggle("none", frame.goods[seat][i] === 0);
      });
    }
    drawChart();
    if (keep) remember(frame);
    window.viewerState = {
      frame: current,
      frames: frames.length,
      turn: frame.turn,
      final: frame.final,
      tiles: frame.tiles.length,
      figures: Number($("board").dataset.figures),
      scores: frame.scores.slice(),
      goods: frame.goods,
      whole,
    };
  }

  function drawChart() {
    const svg = $("chart");
    const ns = "http://www.w3.org/2000/svg";
    svg.textContent = "";
    const best = Math.max(1, ...frames.flatMap((f) => f.scores));
    const span = Math.max(1, frames.length - 1);
    const px = (i) => 6 + (i / span) * 388;
    const py = (s) => 154 - (s / best) * 146;
    game.names.forEach((name, seat) => {
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", frames.map((f, i) => px(i) + "," + py(f.scores[seat])).join(" "));
      const [r, g, b] = data.colours[game.styles[seat] % data.colours.length];
      line.setAttribute("stroke", "rgb(" + r + "," + g + "," + b + ")");
      const title = document.createElementNS(ns, "title");
      title.textContent = name;
      line.append(title);
      svg.append(line);
    });
    const now = document.createElementNS(ns, "line");
    now.setAttribute("class", "now");
    now.setAttribute("x1", px(current));
    now.setAttribute("x2", px(current));
    now.setAttribute("y1", 2);
    now.setAttribute("y2", 158);
    svg.append(now);
    svg.setAttribute("aria-label", t("viewer_chart"));
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").querySelector("path").setAttribute("d", PLAY);
    $("play").title = t("viewer_play");
  }

  function play() {
    if (timer !== null) return stop();
    if (current >= frames.length - 1) show(0);
    $("play").querySelector("path").setAttribute("d", PAUSE);
    $("play").title = t("viewer_pause");
    timer = setInterval(() => {
      if (current >= frames.length - 1) return stop();
      show(current + 1);
    }, 800);
  }

  for (const button of document.querySelectorAll("[data-title]")) {
    button.title = t(button.dataset.title);
    button.setAttribute("aria-label", button.title);
  }
  $("slider").setAttribute("aria-label", t("viewer_slider"));
  $("first").onclick = () => (stop(), show(0));
  $("prev").onclick = () => (stop(), show(current - 1));
  $("next").onclick = () => (stop(), show(current + 1));
  $("last").onclick = () => (stop(), show(frames.length - 1));
  $("play").onclick = play;
  $("slider").oninput = (event) => (stop(), show(Number(event.target.value)));
  $("zoom-in").onclick = () => ((zoom = Math.min(zoom * 1.4, 6)), show(current));
  $("zoom-out").onclick = () => ((zoom = Math.max(zoom / 1.4, 0.3)), show(current));
  $("zoom-fit").onclick = () => {
    whole = !whole;
    zoom = 1;
    const button = $("zoom-fit");
    button.title = t(whole ? "viewer_follow" : "viewer_fit");
    button.setAttribute("aria-label", button.title);
    button.setAttribute("aria-pressed", String(whole));
    $("viewer").dataset.view = whole ? "whole" : "follow";
    show(current);
  };
  document.addEventListener("keydown", (event) => {
    if (!game || event.target.id === "slider") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) {
      stop();
      show(current + moves[event.key]);
    } else if (event.key === "Home") {
      stop();
      show(0);
    } else if (event.key === "End") {
      stop();
      show(frames.length - 1);
    } else if (event.key === " " && event.target.tagName !== "BUTTON") {
      event.preventDefault();
      play();
    } else {
      return;
    }
  });
  window.addEventListener("resize", () => game && show(current));
  window.addEventListener("hashchange", load); // another game, or another turn named
  window.viewerShow = (index) => (stop(), show(index));
  window.viewerDecode = (code) => decodeGame(code, data);
  window.viewerGoods = (code) => {
    const decoded = decodeGame(code, data);
    return goodsByTurn(decoded, data.variants[decoded.variant]);
  };
  load();
})();
