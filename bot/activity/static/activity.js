// The live board (docs/ACTIVITY.md): signs in through Discord's Embedded App SDK (or its mock
// outside Discord), opens the WebSocket and draws every board the server sends: the board with
// our tile art and figures (pan by dragging, pinch or wheel to zoom), and a panel with the tile in
// play, whose turn, the players, the clocks, the tiles left, the user's own hand, the final
// scores. Drawing follows renderer/viewer/viewer.js (tiles rotated by their rotation, figures at
// their spots); the art comes from /art/{variant}.json.
"use strict";

(function () {
  const config = JSON.parse(document.getElementById("activity-config").textContent);
  const TILE = 64; // CSS pixels per square at scale 1
  const MIN_FIT_TILE = 44; // the smallest square a fitted board shows (it scrolls rather)
  const MAX_FIT = 1.6; // the largest scale a fitted board shows
  const MIN_SCALE = 0.12;
  const MAX_SCALE = 4;
  const PING_SECONDS = 20;
  const SILENT_SECONDS = 50; // a socket that heard nothing for so long is taken as lost
  const $ = (id) => document.getElementById(id);
  const query = new URLSearchParams(location.search);
  const inDiscord = query.has("frame_id");

  let lang = pickLanguage();
  let sdk = null;
  let session = null;
  let user = null;
  let socket = null;
  let pingTimer = null;
  let retryTimer = null;
  let retries = 0;
  let heard = 0; // when the socket last heard the server (ms)
  let reconnects = 0;
  let sessionRefused = false;
  let games = [];
  let wanted = null; // the game asked for (null: the channel's)
  let shown = null; // the game shown
  let view = null;
  let drawn = null; // the view drawn (the art of a new variant may still be on its way)
  let received = 0; // when the view arrived (ms, this browser's clock)
  let art = null;
  const arts = new Map();
  let camera = { x: 0, y: 0, s: 1 }; // the board's transform: screen = world * s + (x, y)
  let moved = false; // the user panned or zoomed since the last fit
  let error = null;
  let paintedAt = null; // when the first board was drawn (ms since navigation start)

  function pickLanguage() {
    for (const wanted of navigator.languages || [navigator.language || "en"]) {
      const code = String(wanted).slice(0, 2).toLowerCase();
      if (config.texts[code]) return code;
    }
    return "en";
  }

  // A word with plural forms is [singular, plural]: French takes the singular for 0 and 1,
  // English and German for 1 alone (the catalogs' rules).
  function t(key, values) {
    let text = (config.texts[lang] || {})[key] || config.texts.en[key] || key;
    if (Array.isArray(text)) {
      const n = Number((values || {}).n);
      text = text[(lang === "fr" ? n <= 1 : n === 1) ? 0 : 1];
    }
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function applyWords() {
    document.documentElement.lang = lang;
    document.title = t("title");
    for (const button of document.querySelectorAll("[data-title]")) {
      button.title = t(button.dataset.title);
      button.setAttribute("aria-label", button.title);
    }
    $("chooser-label").textContent = t("game_choice");
    $("sign-in").textContent = t("sign_in_again");
    $("hand-title").textContent = t("your_hand");
    $("final-title").textContent = t("final");
  }

  function publish() {
    const board = $("board");
    if (paintedAt === null && Number(board.dataset.tiles) > 0) paintedAt = performance.now();
    window.activityState = {
      signedIn: session !== null,
      connected: socket !== null && socket.readyState === WebSocket.OPEN,
      user,
      lang,
      games: games.map((g) => g.id),
      game: drawn ? drawn.game : null,
      version: drawn ? drawn.version : null,
      variant: drawn ? drawn.variant : null,
      tiles: Number(board.dataset.tiles),
      figures: Number(board.dataset.figures),
      scores: drawn ? drawn.players.map((p) => p.score) : [],
      final: drawn ? drawn.final : null,
      turnSeat: drawn && drawn.turn ? drawn.turn.seat : null,
      tilesLeft: drawn ? drawn.tilesLeft : null,
      hand: drawn && drawn.hand ? drawn.hand.slice() : null,
      transform: { ...camera },
      moved,
      reconnects,
      error,
      paintedAt,
      ...playState(),
    };
  }

  // --- Messages to the user -------------------------------------------------------------------

  function status(key) {
    $("status").textContent = key ? t(key) : "";
  }

  function notice(text, { signIn = false, picker = false } = {}) {
    $("notice").hidden = !text && !picker;
    $("notice-text").textContent = text || "";
    $("sign-in").hidden = !signIn;
    $("picker").hidden = !picker;
  }

  let toastTimer = null;
  function toast(text) {
    $("toast").textContent = text;
    $("toast").hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => ($("toast").hidden = true), 6000);
  }

  function failSignIn(key, text) {
    error = key;
    session = null;
    status(null);
    notice(text || t("sign_in_failed"), { signIn: true });
    publish();
  }

  // --- Sign-in --------------------------------------------------------------------------------

  function makeSdk() {
    if (inDiscord) return new window.DiscordSDK(config.clientId);
    const mock = new window.DiscordSDKMock(
      config.clientId,
      query.get("guild"),
      query.get("channel"),
      null
    );
    const code = query.get("code") || "mock_code";
    mock._updateCommandMocks({ authorize: async () => ({ code }) });
    return mock;
  }

  async function signIn() {
    error = null;
    sessionRefused = false;
    notice(null);
    status("signing_in");
    publish();
    try {
      if (!window.DiscordSDK) throw new Error("the SDK did not load");
      if (sdk === null) {
        sdk = makeSdk();
        await sdk.ready();
      }
      const { code } = await sdk.commands.authorize({
        client_id: config.clientId,
        response_type: "code",
        state: "",
        prompt: "none",
        scope: ["identify", "guilds"],
      });
      const answer = await fetch("api/token", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code, guild: sdk.guildId, channel: sdk.channelId }),
      });
      const body = await answer.json().catch(() => ({}));
      if (!answer.ok || !body.session) return failSignIn(body.reason || "sign_in_failed", body.text);
      if (inDiscord) await sdk.commands.authenticate({ access_token: body.access_token });
      session = body.session;
      user = body.user || null;
    } catch (problem) {
      console.error(problem);
      return failSignIn("sign_in_failed");
    }
    connect();
  }

  // --- The WebSocket --------------------------------------------------------------------------

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect() {
    clearTimeout(retryTimer);
    status(retries ? "reconnecting" : "connecting");
    const address = new URL("ws", location.href);
    address.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    address.search = "";
    address.hash = "";
    const ws = new WebSocket(address.href);
    socket = ws;
    ws.onopen = () => {
      heard = Date.now();
      send({ type: "hello", session, game: wanted });
      clearInterval(pingTimer);
      pingTimer = setInterval(() => {
        if (Date.now() - heard > SILENT_SECONDS * 1000) return lost(ws);
        send({ type: "ping" });
      }, PING_SECONDS * 1000);
      publish();
    };
    ws.onmessage = (event) => {
      heard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (problem) {
        return;
      }
      receive(message);
    };
    ws.onclose = (event) => closed(ws, event.code);
  }

  // A socket silent for too long (a phone back from sleep, a dead connection): closed here and
  // reconnected without waiting for the browser to notice.
  function lost(ws) {
    ws.onclose = null;
    ws.onmessage = null;
    try {
      ws.close();
    } catch (problem) {
      // Already closing.
    }
    closed(ws, 1006);
  }

  function closed(ws, code) {
    if (socket !== ws) return;
    clearInterval(pingTimer);
    socket = null;
    if (sending || pending) {
      // Whatever was on its way is lost with the socket: the choice starts again.
      sending = false;
      resetChoice();
      drawPlay();
    }
    if (sessionRefused || code === 4001) {
      if (!sessionRefused) failSignIn("session_invalid");
      return publish();
    }
    retries += 1;
    status("reconnecting");
    const delay = Math.min(30000, 500 * 2 ** Math.min(retries - 1, 6)) * (0.8 + Math.random() * 0.4);
    retryTimer = setTimeout(() => {
      reconnects += 1;
      connect();
    }, delay);
    publish();
  }

  function receive(message) {
    if (message.type === "welcome") {
      retries = 0;
      status(null);
      if (message.lang && config.texts[message.lang]) lang = message.lang;
      applyWords();
      user = message.user || user;
      games = message.games || [];
      shown = message.game;
      buildChooser();
      if (shown === null || shown === undefined) {
        shown = null;
        wanted = null;
        view = null;
        clearBoard();
        if (games.length > 1) showPicker();
        else if (games.length === 1) watch(games[0].id);
        else notice(t("no_game"));
      } else {
        wanted = shown;
        notice(null);
      }
      if (view) drawAll();
    } else if (message.type === "board") {
      // The game asked for, or (until it comes) the one shown; no other.
      if (message.game !== wanted && message.game !== shown) return;
      shown = message.game;
      wanted = shown;
      notice(null);
      buildChooser();
      const variantChanged =
        !view || view.variant !== message.view.variant || view.game !== message.view.game;
      view = message.view;
      received = Date.now();
      if (variantChanged) moved = false;
      $("game-select").value = String(shown);
      loadArt(view.variant).then(drawAll, (problem) => {
        console.error(problem);
        error = "art";
        publish();
      });
    } else if (message.type === "step") {
      answerStep(message);
    } else if (message.type === "played") {
      answered("played", message);
    } else if (message.type === "undo" || message.type === "resigned") {
      // Taken back, asked of the others, or left: the server's words for it.
      if (message.text) toast(message.text);
    } else if (message.type === "refused") {
      if (pending || sending || trying) answered("refused", message);
      if (String(message.reason || "").startsWith("session")) {
        sessionRefused = true;
        failSignIn(message.reason, message.text);
      } else {
        toast(message.text || message.reason);
        // A game that may not be watched: back to the one shown (or the picker).
        wanted = shown;
        buildChooser();
        if (shown === null && games.length > 1) showPicker();
      }
    }
    publish();
  }

  // --- Games ----------------------------------------------------------------------------------

  function gameLabel(game) {
    const players = (game.players || []).join(", ");
    return (game.title || "#" + game.id) + (players ? " · " + players : "");
  }

  function buildChooser() {
    const select = $("game-select");
    select.textContent = "";
    for (const game of games) {
      const option = document.createElement("option");
      option.value = String(game.id);
      option.textContent = gameLabel(game);
      select.append(option);
    }
    $("chooser").hidden = games.length < 2;
    if (shown !== null) select.value = String(shown);
    const current = games.find((g) => g.id === shown);
    $("game-title").textContent = current ? current.title || "#" + current.id : "";
    $("game-title").hidden = games.length >= 2;
  }

  // Ask for game ``id``: the one shown stays until its board comes.
  function watch(id) {
    wanted = id;
    notice(null);
    send({ type: "watch", game: id });
    publish();
  }

  function showPicker() {
    const list = $("picker");
    list.textContent = "";
    for (const game of games) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.game = String(game.id);
      button.textContent = gameLabel(game);
      button.onclick = () => watch(game.id);
      item.append(button);
      list.append(item);
    }
    notice(t("pick_game"), { picker: true });
  }

  // --- Art ------------------------------------------------------------------------------------

  function loadArt(variant) {
    if (!arts.has(variant)) {
      const promise = fetch("art/" + encodeURIComponent(variant) + ".json").then((answer) => {
        if (!answer.ok) throw new Error("no art for " + variant);
        return answer.json();
      });
      promise.catch(() => arts.delete(variant));
      arts.set(variant, promise);
    }
    return arts.get(variant).then((data) => (art = data));
  }

  function tables() {
    return art.variants[view.variant];
  }

  function tilePicture(kind) {
    const k = tables().kinds.indexOf(kind);
    return k >= 0 ? art.pictures[tables().art[k]] : null;
  }

  function styleOf(seat) {
    const player = view.players[seat];
    return player ? player.style : seat;
  }

  function sprite(role, seat) {
    const set = art.figures[tables().sprites[role]];
    return set ? set[styleOf(seat) % set.length] : null;
  }

  function colour(seat) {
    const [r, g, b] = art.colours[styleOf(seat) % art.colours.length];
    return "rgb(" + r + "," + g + "," + b + ")";
  }

  // A supply's figure as an icon: its own sprite, the main figure for The Castle's subjects, the
  // abbey tile for an abbey.
  function supplyIcon(name, seat) {
    const icon = document.createElement("span");
    icon.className = "icon";
    const own = sprite(name, seat) || (name === "subject" ? sprite(tables().legend, seat) : null);
    if (own) {
      icon.style.backgroundImage = 'url("' + own.uri + '")';
    } else if (name === "abbey") {
      const k = tables().perPlayer.findIndex(Boolean);
      if (k >= 0) {
        icon.classList.add("tile-icon");
        icon.style.backgroundImage = 'url("' + art.pictures[tables().art[k]] + '")';
      }
    }
    return icon;
  }

  // --- The board ------------------------------------------------------------------------------

  function clearBoard() {
    drawn = null;
    const board = $("board");
    board.textContent = "";
    board.dataset.tiles = "0";
    board.dataset.figures = "0";
    $("players").textContent = "";
    $("turn-box").hidden = true;
    $("final").hidden = true;
    $("hand-box").hidden = true;
    $("tiles-left").textContent = "";
    you = null;
    resetChoice();
    $("marks").textContent = "";
    $("actions").hidden = true;
    $("tray").hidden = true;
    $("seat-actions").hidden = true;
  }

  // Where a piece stands on its tile (0..1 units): a feature's spot turns with the tile, a
  // barn's corner does not (as the viewer draws it).
  function spotPoint(kind, rotation, spot) {
    if (spot >= art.cornerBase) return art.corners[spot - art.cornerBase] || [0.5, 0.5];
    let [u, v] = tables().spots[kind][spot] || [0.5, 0.5];
    for (let r = 0; r < rotation; r += 90) [u, v] = [1 - v, u];
    return [u, v];
  }

  function place(el, x, y, w, h) {
    el.style.left = x + "px";
    el.style.top = y + "px";
    el.style.width = w + "px";
    el.style.height = h + "px";
  }

  function drawBoard() {
    const tab = tables();
    const board = $("board");
    board.textContent = "";
    if (tab.bounds) {
      board.classList.add("walled");
      for (const [x, y] of tab.bounds) {
        const square = document.createElement("div");
        square.className = "square";
        place(square, x * TILE, y * TILE, TILE, TILE);
        board.append(square);
      }
    } else {
      board.classList.remove("walled");
    }
    const under = new Map();
    const last = view.last;
    for (const [kind, x, y, rotation] of view.tiles) {
      const el = document.createElement("div");
      el.className = "tile";
      const k = tab.kinds.indexOf(kind);
      if (k >= 0) el.style.backgroundImage = 'url("' + art.pictures[tab.art[k]] + '")';
      el.style.transform = "rotate(" + rotation + "deg)";
      el.dataset.kind = kind;
      place(el, x * TILE, y * TILE, TILE, TILE);
      if (last && last[1] === x && last[2] === y) el.classList.add("last");
      under.set(x + "," + y, [k, rotation]);
      board.append(el);
    }
    const sorted = view.pieces.slice().sort((a, b) => a[3] - b[3] || a[2] - b[2]);
    for (const [owner, role, x, y, spot] of sorted) {
      const tile = under.get(x + "," + y);
      const figure = sprite(role, owner);
      if (!tile || !figure || tile[0] < 0) continue;
      const [u, v] = spotPoint(tile[0], tile[1], spot);
      const el = document.createElement("div");
      el.className = "fig";
      el.dataset.role = role;
      el.dataset.seat = String(owner);
      const w = (figure.w * TILE) / art.artSize;
      const h = (figure.h * TILE) / art.artSize;
      el.style.backgroundImage = 'url("' + figure.uri + '")';
      place(el, x * TILE + u * TILE - w / 2, y * TILE + v * TILE - h / 2, w, h);
      board.append(el);
    }
    board.dataset.tiles = String(board.querySelectorAll(".tile").length);
    board.dataset.figures = String(board.querySelectorAll(".fig").length);
    if (!moved) fit();
    else transform();
  }

  // The squares the board covers (tiles and The Castle's squares): min x, min y, max x, max y.
  function extent() {
    const cells = view.tiles.map(([, x, y]) => [x, y]);
    if (view.you) {
      // The squares the player may tap, on screen too.
      for (const entry of view.you.tiles || []) for (const s of entry.squares) cells.push([s.x, s.y]);
      for (const h of view.you.holes || []) cells.push([h.x, h.y]);
    }
    if (tables().bounds) cells.push(...tables().bounds);
    if (!cells.length) cells.push([0, 0]);
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }

  // The whole board as large as fits (at most MAX_FIT), its squares never under MIN_FIT_TILE
  // pixels: a board too big for that is shown around the last tile, and scrolls.
  function fit() {
    const vp = $("viewport");
    const width = vp.clientWidth;
    const height = vp.clientHeight;
    if (!view || !width || !height) return;
    const [x0, y0, x1, y1] = extent();
    const margin = 0.3;
    const w = (x1 - x0 + 1 + 2 * margin) * TILE;
    const h = (y1 - y0 + 1 + 2 * margin) * TILE;
    let s = Math.min(width / w, height / h, MAX_FIT);
    let cx = ((x0 + x1 + 1) / 2) * TILE;
    let cy = ((y0 + y1 + 1) / 2) * TILE;
    if (s < MIN_FIT_TILE / TILE) {
      s = MIN_FIT_TILE / TILE;
      const last = view.last || view.tiles[view.tiles.length - 1];
      if (last) {
        // The last tile in the middle, but no farther out than the board's edges allow.
        const halfW = width / 2 / s;
        const halfH = height / 2 / s;
        const lo = (a, b) => Math.min(a, b);
        cx = Math.max((x0 - margin) * TILE + halfW, lo((last[1] + 0.5) * TILE, (x1 + 1 + margin) * TILE - halfW));
        cy = Math.max((y0 - margin) * TILE + halfH, lo((last[2] + 0.5) * TILE, (y1 + 1 + margin) * TILE - halfH));
      }
    }
    camera = { x: width / 2 - cx * s, y: height / 2 - cy * s, s };
    moved = false;
    transform();
  }

  // Keep some of the board on screen whatever the pan.
  function clamp() {
    if (!view) return;
    const vp = $("viewport");
    const [x0, y0, x1, y1] = extent();
    const keep = 48;
    const left = x0 * TILE * camera.s + camera.x;
    const right = (x1 + 1) * TILE * camera.s + camera.x;
    const top = y0 * TILE * camera.s + camera.y;
    const bottom = (y1 + 1) * TILE * camera.s + camera.y;
    if (right < keep) camera.x += keep - right;
    if (left > vp.clientWidth - keep) camera.x -= left - (vp.clientWidth - keep);
    if (bottom < keep) camera.y += keep - bottom;
    if (top > vp.clientHeight - keep) camera.y -= top - (vp.clientHeight - keep);
  }

  function transform() {
    clamp();
    $("board").style.transform =
      "translate(" + camera.x + "px," + camera.y + "px) scale(" + camera.s + ")";
    placeMarks();
    publish();
  }

  // Zoom by ``factor`` keeping the point (px, py) of the viewport where it is.
  function zoomAt(px, py, factor) {
    const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, camera.s * factor));
    const wx = (px - camera.x) / camera.s;
    const wy = (py - camera.y) / camera.s;
    camera = { x: px - wx * s, y: py - wy * s, s };
    moved = true;
    transform();
  }

  function zoomCentre(factor) {
    const vp = $("viewport");
    zoomAt(vp.clientWidth / 2, vp.clientHeight / 2, factor);
  }

  // Drag with one finger (or the mouse) to pan, pinch with two to zoom.
  const pointers = new Map();
  let gesture = null;
  let tap = null; // the pointer that may be a tap: {id, x, y}
  const TAP_SLOP = 8; // pixels a tap may move

  function local(event) {
    const box = $("viewport").getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function startGesture() {
    const points = [...pointers.values()].map((p) => ({ ...p }));
    gesture = points.length ? { points, start: { ...camera } } : null;
  }

  function pointerDown(event) {
    if (event.button !== undefined && event.button > 0) return;
    try {
      $("viewport").setPointerCapture(event.pointerId);
    } catch (problem) {
      // A synthetic pointer cannot be captured: its moves still reach the viewport.
    }
    pointers.set(event.pointerId, local(event));
    // One finger that lifts where it went down is a tap (on a lit square, on the tile tried).
    tap = pointers.size === 1 ? { id: event.pointerId, ...local(event) } : null;
    startGesture();
    $("viewport").classList.add("dragging");
  }

  function pointerMove(event) {
    if (!pointers.has(event.pointerId) || !gesture) return;
    pointers.set(event.pointerId, local(event));
    if (tap && (tap.id !== event.pointerId || Math.hypot(local(event).x - tap.x, local(event).y - tap.y) > TAP_SLOP)) {
      tap = null;
    }
    const now = [...pointers.values()];
    const then = gesture.points;
    const start = gesture.start;
    if (now.length === 1 || then.length === 1) {
      const dx = now[0].x - then[0].x;
      const dy = now[0].y - then[0].y;
      if (!moved && Math.hypot(dx, dy) < 3) return;
      camera = { x: start.x + dx, y: start.y + dy, s: start.s };
    } else {
      const d0 = Math.hypot(then[1].x - then[0].x, then[1].y - then[0].y) || 1;
      const d1 = Math.hypot(now[1].x - now[0].x, now[1].y - now[0].y) || 1;
      const m0 = { x: (then[0].x + then[1].x) / 2, y: (then[0].y + then[1].y) / 2 };
      const m1 = { x: (now[0].x + now[1].x) / 2, y: (now[0].y + now[1].y) / 2 };
      const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, (start.s * d1) / d0));
      const wx = (m0.x - start.x) / start.s;
      const wy = (m0.y - start.y) / start.s;
      camera = { x: m1.x - wx * s, y: m1.y - wy * s, s };
    }
    moved = true;
    transform();
  }

  function pointerUp(event) {
    if (!pointers.delete(event.pointerId)) return;
    if (tap && tap.id === event.pointerId && event.type === "pointerup") boardTap(tap);
    tap = null;
    startGesture();
    if (!pointers.size) $("viewport").classList.remove("dragging");
  }

  function wheel(event) {
    event.preventDefault();
    const point = local(event);
    const step = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    zoomAt(point.x, point.y, Math.exp(-step * 0.0015));
  }

  // --- Playing on the board (docs/ACTIVITY.md, "Playing on the board") ------------------------
  //
  // The VIEW of the player in turn carries ``you``: its squares are lit on the board, a tap on
  // one puts the tile there (see-through, its first legal rotation) and sends ``try``; a tap on
  // the tile again turns it to the next legal rotation, and the small buttons under it pick a
  // rotation at once; the ``step`` answer shows a silhouette at each place and No figure, and a
  // tap on one sends the whole decision (``play``). Nothing is sent while a play is on its way.

  let you = null; // ``view.you`` of the board drawn, or null (a spectator, another's turn)
  let pick = null; // the index in ``you.tiles`` of the tile chosen, or null
  let pending = null; // what is tried: {tile, x, y, rotation, rotations} or {abbey: true, x, y}
  let step = null; // the ``step`` answering ``pending``
  let trying = false; // a ``try`` on its way
  let sending = false; // a ``play`` (or an undo, a resignation) on its way
  let resignArmed = false;
  let resignTimer = null;
  let sentPlays = 0;
  let menu = null; // the place whose figures are listed (a place offering several), or null
  let focused = false; // the board was zoomed to the tile tried (fitted again after the turn)
  const FOCUS_TILE = 168; // the size (CSS px) a tile tried is shown at least, for its places

  function resetChoice() {
    pending = null;
    step = null;
    trying = false;
    menu = null;
    pick = you && you.tiles && you.tiles.length === 1 ? 0 : null;
  }

  // A new board: its ``you``; a new version drops any half-made choice.
  function takeYou(fresh) {
    you = view && view.you && view.turn ? view.you : null;
    if (fresh) {
      sending = false;
      resignArmed = false;
      resetChoice();
      if (focused) {
        // Zoomed to the tile tried: the new board fitted again.
        focused = false;
        moved = false;
      }
    } else if (pick !== null && !(you && you.tiles && you.tiles[pick])) {
      resetChoice();
    }
  }

  function isPlayer() {
    return Boolean(view && view.turn && (you || typeof view.seat === "number"));
  }

  function chosenTile() {
    return you && you.tiles && pick !== null ? you.tiles[pick] || null : null;
  }

  function squareOf(entry, x, y) {
    return entry ? entry.squares.find((s) => s.x === x && s.y === y) || null : null;
  }

  function holeAt(x, y) {
    return you && you.holes ? you.holes.some((h) => h.x === x && h.y === y) : false;
  }

  // The squares lit now: [x, y, "square" | "hole"].
  function litSquares() {
    if (!you || sending) return [];
    const lit = [];
    const entry = chosenTile();
    for (const s of entry ? entry.squares : []) lit.push([s.x, s.y, "square"]);
    for (const h of you.holes || []) if (!squareOf(entry, h.x, h.y)) lit.push([h.x, h.y, "hole"]);
    return lit;
  }

  // The looks a tap on the square cycles through: the tile's legal rotations, then the abbey
  // where the square is also a hole.
  function looksAt(x, y) {
    const looks = [];
    const entry = chosenTile();
    const square = squareOf(entry, x, y);
    if (square) for (const r of square.rotations) looks.push({ tile: entry.tile, x, y, rotation: r, rotations: square.rotations });
    if (holeAt(x, y)) looks.push({ abbey: true, x, y });
    return looks;
  }

  function sameLook(a, b) {
    return Boolean(a && b) && a.x === b.x && a.y === b.y && Boolean(a.abbey) === Boolean(b.abbey) &&
      (a.abbey || (a.tile === b.tile && a.rotation === b.rotation));
  }

  function tryLook(look) {
    if (!you || sending) return;
    pending = look;
    step = null;
    trying = true;
    menu = null;
    focusOn(look.x, look.y);
    const message = { type: "try", version: view.version, x: look.x, y: look.y };
    if (look.abbey) message.abbey = true;
    else Object.assign(message, { tile: look.tile, rotation: look.rotation });
    send(message);
    drawPlay();
  }

  // The tile tried large enough for a finger to pick its places, and on screen.
  function focusOn(x, y) {
    const vp = $("viewport");
    const width = vp.clientWidth;
    const height = vp.clientHeight;
    const want = Math.min(FOCUS_TILE, width * 0.45, height * 0.45);
    const size = TILE * camera.s;
    const left = x * size + camera.x;
    const top = y * size + camera.y;
    const margin = 56;
    const inside = left >= margin && top >= margin && left + size <= width - margin && top + size <= height - margin;
    if (size >= want * 0.9 && inside) return;
    const s = Math.max(camera.s, want / TILE);
    // A little above the middle: the buttons of the turn are at the bottom.
    camera = { x: width / 2 - (x + 0.5) * TILE * s, y: height * 0.42 - (y + 0.5) * TILE * s, s };
    moved = true;
    focused = true;
    transform();
  }

  function firstOf(look) {
    if (!look) return null;
    if (look.abbey) return { abbey: true, x: look.x, y: look.y };
    return { tile: look.tile, x: look.x, y: look.y, rotation: look.rotation };
  }

  // One whole decision.
  function play(parts) {
    if (!you || sending) return;
    sending = true;
    sentPlays += 1;
    send({ type: "play", version: view.version, first: null, figure: null, wagon: null, wall: null, pass: false, ...parts });
    drawPlay();
  }

  // A tap on the board (not a drag): on a lit square, on the tile tried (the next look).
  function boardTap(point) {
    if (!you || sending || !view) return;
    const x = Math.floor((point.x - camera.x) / camera.s / TILE);
    const y = Math.floor((point.y - camera.y) / camera.s / TILE);
    const looks = looksAt(x, y);
    if (!looks.length) return;
    const at = pending ? looks.findIndex((look) => sameLook(look, pending)) : -1;
    const next = looks[(at + 1) % looks.length];
    if (at >= 0 && looks.length === 1) return; // one look only: nothing to turn
    tryLook(next);
  }

  function pickTile(k) {
    if (!you || sending || !you.tiles[k]) return;
    pick = k;
    pending = null;
    step = null;
    trying = false;
    drawPlay();
    drawHandPicks();
  }

  function answerStep(message) {
    if (!pending || !view || message.version !== view.version) return;
    if (message.x !== pending.x || message.y !== pending.y) return;
    if (!pending.abbey && message.rotation !== pending.rotation) return;
    step = message;
    trying = false;
    drawPlay();
  }

  function answered(kind, message) {
    if (kind === "played") {
      // Played: nothing more to send until its board comes (it may have come already).
      if (!view || !(message.version > view.version)) {
        sending = false;
        resetChoice();
      }
    } else {
      // A refusal: the choice is dropped (a new board may follow).
      sending = false;
      resetChoice();
    }
    drawPlay();
    if (message && message.text && kind !== "played") toast(message.text);
  }

  function screenOf(wx, wy) {
    return { left: wx * TILE * camera.s + camera.x, top: wy * TILE * camera.s + camera.y };
  }

  function button(className, text, onclick) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = className;
    if (text) el.textContent = text;
    el.onclick = (event) => {
      event.stopPropagation();
      onclick();
    };
    return el;
  }

  function abbeyPicture() {
    const k = tables().perPlayer.findIndex(Boolean);
    return k >= 0 ? art.pictures[tables().art[k]] : null;
  }

  function placeSprite(choice) {
    const seat = view.turn ? view.turn.seat : 0;
    return sprite(choice.role, seat) || sprite(choice.figure, seat) || sprite(tables().legend, seat);
  }

  // The places offered now: the step's, or those of a figure phase reached otherwise (on the
  // tile placed last). [{place, x, y}]
  function placesShown() {
    if (step && pending) return (step.places || []).map((place) => ({ place, x: pending.x, y: pending.y }));
    if (you && !pending && you.figures && you.figures.length && view.last) {
      return you.figures.map((place) => ({ place, x: view.last[1], y: view.last[2] }));
    }
    return [];
  }

  function figureOf(choice, place) {
    return { figure: choice.figure, at: place.at };
  }

  // Everything to tap drawn anew: lit squares and the tile tried on the board, the marks over
  // it (silhouettes, choices, rotations, wagon targets), the buttons (No figure, wall tiles,
  // pass), the hand to pick from.
  function drawPlay() {
    if (!view || !art || !art.variants[view.variant]) return;
    const board = $("board");
    let layer = $("play-layer");
    if (!layer) {
      layer = document.createElement("div");
      layer.id = "play-layer";
      board.append(layer);
    }
    layer.textContent = "";
    for (const [x, y, kind] of litSquares()) {
      const el = document.createElement("div");
      el.className = "lit " + kind;
      el.dataset.x = String(x);
      el.dataset.y = String(y);
      if (pending && pending.x === x && pending.y === y) el.classList.add("chosen");
      place(el, x * TILE, y * TILE, TILE, TILE);
      layer.append(el);
    }
    if (pending) {
      const ghost = document.createElement("div");
      ghost.className = "ghost" + (pending.abbey ? " abbey" : "");
      const uri = pending.abbey ? abbeyPicture() : tilePicture(pending.tile);
      if (uri) ghost.style.backgroundImage = 'url("' + uri + '")';
      if (!pending.abbey) ghost.style.transform = "rotate(" + pending.rotation + "deg)";
      place(ghost, pending.x * TILE, pending.y * TILE, TILE, TILE);
      layer.append(ghost);
    }
    drawMarks();
    drawActions();
    drawHandPicks();
    publish();
  }

  function drawMarks() {
    const marks = $("marks");
    marks.textContent = "";
    let menuBox = null;
    if (!you || sending) return placeMarks();
    for (const { place: spot, x, y } of placesShown()) {
      const box = document.createElement("div");
      box.className = "place";
      box.dataset.wx = String(x + spot.u);
      box.dataset.wy = String(y + spot.v);
      box.dataset.at = String(spot.at);
      const choices = spot.choices || [];
      const key = String(spot.at);
      const one = choices.length === 1;
      // One figure: a tap places it. Several (a follower or a large follower, a fisher or a
      // hut): a tap lists them, a button each with its role.
      const el = button("spot", "", () => {
        if (one) return play({ first: firstOf(pending), figure: figureOf(choices[0], spot) });
        menu = menu === key ? null : key;
        drawMarks();
        publish();
      });
      const figure = choices.length ? placeSprite(choices[0]) : null;
      if (figure) el.style.backgroundImage = 'url("' + figure.uri + '")';
      el.title = choices.map((c) => c.name).join(" / ") + (spot.words ? " · " + spot.words : "");
      el.setAttribute("aria-label", el.title);
      el.dataset.figure = one ? choices[0].figure : "";
      if (!one) {
        el.classList.add("several");
        el.setAttribute("aria-expanded", String(menu === key));
      }
      box.append(el);
      marks.append(box);
      if (!one && menu === key) {
        const list = document.createElement("div");
        list.className = "choices";
        list.dataset.wx = box.dataset.wx;
        list.dataset.wy = box.dataset.wy;
        list.dataset.at = key;
        for (const choice of choices) {
          const item = button("choice", "", () => play({ first: firstOf(pending), figure: figureOf(choice, spot) }));
          const icon = document.createElement("span");
          icon.className = "icon";
          const own = sprite(choice.figure, view.turn.seat) || placeSprite(choice);
          if (own) icon.style.backgroundImage = 'url("' + own.uri + '")';
          const words = document.createElement("span");
          words.textContent = choice.name;
          item.append(icon, words);
          item.dataset.figure = choice.figure;
          item.title = choice.name + (spot.words ? " · " + spot.words : "");
          list.append(item);
        }
        menuBox = list;
      }
    }
    if (menuBox) marks.append(menuBox); // over the other marks
    // The looks of the square tried, one tap each (the tile turned, or the abbey).
    if (pending) {
      const looks = looksAt(pending.x, pending.y);
      if (looks.length > 1) {
        const row = document.createElement("div");
        row.className = "looks";
        row.dataset.wx = String(pending.x + 0.5);
        row.dataset.wy = String(pending.y + 1);
        for (const look of looks) {
          const el = button("look", "", () => tryLook(look));
          const picture = document.createElement("span");
          const uri = look.abbey ? abbeyPicture() : tilePicture(look.tile);
          if (uri) picture.style.backgroundImage = 'url("' + uri + '")';
          if (!look.abbey) picture.style.transform = "rotate(" + look.rotation + "deg)";
          el.append(picture);
          el.dataset.look = look.abbey ? "abbey" : String(look.rotation);
          el.title = look.abbey ? t("play_abbey") : t("rotation", { n: look.rotation });
          el.setAttribute("aria-label", el.title);
          el.setAttribute("aria-pressed", String(sameLook(look, pending)));
          row.append(el);
        }
        marks.append(row);
      }
    }
    // A freed wagon's targets, lettered on their spots.
    if (!pending) {
      const under = new Map(view.tiles.map(([kind, x, y, rotation]) => [x + "," + y, [kind, rotation]]));
      for (const target of you.wagons || []) {
        const tile = under.get(target.x + "," + target.y);
        const k = tile ? tables().kinds.indexOf(tile[0]) : -1;
        const [u, v] = k >= 0 && typeof target.at === "number" ? spotPoint(k, tile[1], target.at) : [0.5, 0.5];
        const box = document.createElement("div");
        box.className = "place";
        box.dataset.wx = String(target.x + u);
        box.dataset.wy = String(target.y + v);
        const el = button("wagon-target", target.label, () => play({ wagon: target.value }));
        el.dataset.value = target.value;
        el.title = t("move_wagon", { label: target.label });
        el.setAttribute("aria-label", el.title);
        box.append(el);
        marks.append(box);
      }
    }
    placeMarks();
  }

  // The marks follow the board (their size stays: fingers do not zoom).
  function placeMarks() {
    for (const el of $("marks").children) {
      const at = screenOf(Number(el.dataset.wx), Number(el.dataset.wy));
      el.style.left = at.left + "px";
      el.style.top = at.top + "px";
    }
  }

  function passWords() {
    const phase = you.phase;
    if (phase === "wagon") return t("wagon_back");
    if (phase === "abbey_end") return t("no_abbey");
    if (phase === "figure" && !(you.walls && you.walls.length)) return t("no_figure");
    return t("end_turn");
  }

  function hint() {
    if (sending) return t("play_sending");
    if (pending && !step) return t("play_trying");
    if (step) return step.places && step.places.length ? t("play_pick_figure") : "";
    if (you.tiles && you.tiles.length > 1 && pick === null) return t("play_pick_tile");
    if (you.tiles && you.tiles.length) return t("play_pick_square");
    if (you.holes && you.holes.length) return t("play_pick_hole");
    if (you.wagons && you.wagons.length) return t("play_pick_wagon");
    if (you.figures && you.figures.length) return t("play_pick_figure");
    return "";
  }

  function drawActions() {
    const bar = $("actions");
    bar.textContent = "";
    bar.hidden = !you;
    if (!you) return;
    const text = document.createElement("span");
    text.id = "play-hint";
    text.textContent = hint();
    bar.append(text);
    const add = (id, words, onclick) => {
      const el = button("act", words, onclick);
      el.id = id;
      el.disabled = sending;
      bar.append(el);
      return el;
    };
    if (step && step.none) {
      add("no-figure", step.open ? t("no_figure_open") : t("no_figure"), () => play({ first: firstOf(pending), figure: null }));
    }
    if (!pending) {
      for (const wall of you.walls || []) {
        const el = add("wall-" + wall.value, wall.label, () => play({ wall: wall.value }));
        el.classList.add("wall");
        el.dataset.value = wall.value;
      }
      if (you.pass) add("pass", passWords(), () => play({ pass: true }));
    } else {
      add("cancel-try", t("cancel"), () => {
        if (sending) return;
        pending = null;
        step = null;
        trying = false;
        drawPlay();
      }).classList.add("quiet");
    }
  }

  function drawHandPicks() {
    const tray = $("tray");
    tray.textContent = "";
    const choosing = Boolean(you && you.tiles && you.tiles.length > 1 && you.phase === "tile");
    tray.hidden = !choosing;
    if (choosing) {
      you.tiles.forEach((entry, k) => {
        const el = button("pick", "", () => pickTile(k));
        const uri = tilePicture(entry.tile);
        if (uri) el.style.backgroundImage = 'url("' + uri + '")';
        el.dataset.kind = entry.tile;
        el.dataset.index = String(k);
        el.disabled = sending || !entry.squares.length;
        el.title = t("play_tile");
        el.setAttribute("aria-label", el.title);
        el.setAttribute("aria-pressed", String(pick === k));
        tray.append(el);
      });
    }
    // The panel's hand: the same picks.
    for (const el of $("hand").children) {
      const k = choosing ? you.tiles.findIndex((entry) => entry.tile === el.dataset.kind) : -1;
      el.classList.toggle("pickable", k >= 0);
      el.classList.toggle("picked", k >= 0 && k === pick);
      el.onclick = k >= 0 ? () => pickTile(k) : null;
    }
  }

  // Undo and resign, for the players (resigning asks for a second tap).
  function drawSeatActions() {
    const box = $("seat-actions");
    box.hidden = !isPlayer();
    $("undo").textContent = t("undo");
    $("resign").textContent = resignArmed ? t("resign_confirm") : t("resign");
    $("resign").classList.toggle("armed", resignArmed);
    $("resign-cancel").hidden = !resignArmed;
    $("resign-cancel").textContent = t("cancel");
  }

  function undo() {
    if (!isPlayer()) return;
    send({ type: "undo" });
  }

  function resign() {
    if (!isPlayer()) return;
    clearTimeout(resignTimer);
    if (!resignArmed) {
      resignArmed = true;
      resignTimer = setTimeout(() => {
        resignArmed = false;
        drawSeatActions();
      }, 6000);
    } else {
      resignArmed = false;
      send({ type: "resign" });
    }
    drawSeatActions();
    publish();
  }

  function playState() {
    return {
      you: you ? JSON.parse(JSON.stringify(you)) : null,
      pick,
      lit: litSquares(),
      pending: pending ? firstOf(pending) : null,
      trying,
      menu,
      focused,
      step: step ? { places: (step.places || []).length, none: Boolean(step.none), open: Boolean(step.open) } : null,
      sending,
      sentPlays,
      resignArmed,
      player: isPlayer(),
    };
  }

  // --- The panel ------------------------------------------------------------------------------

  function clockText(seconds) {
    const total = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = String(total % 60).padStart(2, "0");
    return h ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
  }

  function durationText(seconds) {
    const total = Math.max(0, Math.floor(seconds));
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    if (h) return t("hours_minutes", { h, m });
    if (m) return t("minutes", { m });
    return t("seconds", { s: total });
  }

  function elapsed() {
    return (Date.now() - received) / 1000;
  }

  // Seat ``seat``'s chess clock now: its bank at the view's time, less the time since when it runs.
  function bank(seat) {
    const clock = view.clock;
    const left = clock.banks[seat];
    if (left === null || left === undefined) return null;
    return clock.running && clock.seat === seat ? left - elapsed() : left;
  }

  function tick() {
    if (!view) return;
    if (view.clock) {
      for (const item of $("players").children) {
        const seat = Number(item.dataset.seat);
        const cell = item.querySelector(".clock");
        const left = bank(seat);
        if (cell) cell.textContent = left === null ? "" : clockText(left);
      }
    }
    const timer = $("timer");
    if (view.clock && view.clock.paused) {
      timer.textContent = t("clock_paused");
    } else if (view.deadline && view.turn) {
      const left = view.deadline - view.now - elapsed();
      timer.textContent = left > 0 ? t("deadline", { time: durationText(left) }) : t("deadline_over");
    } else {
      timer.textContent = "";
    }
  }

  function winnersOf(scores) {
    const best = Math.max(...scores);
    return view.players.map((p, seat) => seat).filter((seat) => scores[seat] === best);
  }

  function drawPanel() {
    const tab = tables();
    const over = !view.turn;
    const turn = view.turn;
    const handOn = Array.isArray(view.hand) || view.players.some((p) => p.held > 0);
    $("turn-box").hidden = over && Boolean(view.final); // the final scores say it
    $("turn-box").classList.toggle("over", over);
    const picture = $("play-tile");
    picture.textContent = "";
    picture.style.backgroundImage = "";
    picture.classList.remove("empty");
    if (!over && turn.tile) {
      const uri = tilePicture(turn.tile);
      if (uri) picture.style.backgroundImage = 'url("' + uri + '")';
      picture.dataset.kind = turn.tile;
      picture.title = t("tile_in_play");
    } else {
      delete picture.dataset.kind;
      picture.classList.add("empty");
      picture.textContent = over ? "" : "?";
      picture.title = over ? "" : handOn ? t("tile_choosing") : t("tile_not_drawn");
    }
    picture.hidden = over;
    const icon = $("turn-icon");
    if (over) {
      $("turn-name").textContent = view.status === "abandoned" ? t("abandoned") : t("game_over");
      icon.style.backgroundImage = "";
      icon.hidden = true;
      $("turn-number").textContent = "";
    } else {
      const player = view.players[turn.seat];
      $("turn-name").textContent = t("turn_of", { name: player ? player.name : "—" });
      const figure = sprite(tab.legend, turn.seat);
      icon.hidden = !figure;
      if (figure) icon.style.backgroundImage = 'url("' + figure.uri + '")';
      const hidden = handOn ? t("tile_choosing") : t("tile_not_drawn");
      $("turn-number").textContent =
        t("turn_number", { n: turn.number }) + " · " + (turn.tile ? t("tile_in_play") : hidden);
    }
    $("turn-box").style.borderColor = over ? "" : colour(turn.seat);

    const scores = view.final || view.players.map((p) => p.score);
    const winners = view.final ? winnersOf(view.final) : [];
    $("final").hidden = !view.final;
    if (view.final) {
      const names = winners.map((seat) => view.players[seat].name);
      $("winners").textContent = t(names.length === 1 ? "winner" : "winners", { names: names.join(", ") });
    }

    const list = $("players");
    list.textContent = "";
    list.setAttribute("aria-label", t("players"));
    view.players.forEach((player, seat) => {
      const item = document.createElement("li");
      item.dataset.seat = String(seat);
      item.style.setProperty("--seat", colour(seat));
      if (!over && turn.seat === seat) item.classList.add("current");
      if (player.left) item.classList.add("gone");
      if (winners.includes(seat)) item.classList.add("winner");
      const head = document.createElement("div");
      head.className = "head";
      const icon = document.createElement("span");
      icon.className = "icon";
      const figure = sprite(tab.legend, seat);
      if (figure) icon.style.backgroundImage = 'url("' + figure.uri + '")';
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = player.name || "—";
      name.title = player.name || "";
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = String(scores[seat]);
      score.title = t("points", { n: scores[seat] });
      head.append(icon, name);
      if (view.clock) {
        const clock = document.createElement("span");
        clock.className = "clock";
        if (view.clock.running && view.clock.seat === seat) clock.classList.add("running");
        head.append(clock);
      }
      head.append(score);
      const line = document.createElement("div");
      line.className = "line";
      const supply = document.createElement("span");
      supply.className = "supply";
      supply.title = t("supply");
      for (const [figureName, count] of Object.entries(player.supply || {})) {
        const cell = document.createElement("span");
        cell.className = "piece" + (count ? "" : " none");
        cell.dataset.figure = figureName;
        cell.title = t("figure_" + figureName);
        const number = document.createElement("b");
        number.textContent = String(count);
        cell.append(supplyIcon(figureName, seat), number);
        supply.append(cell);
      }
      line.append(supply);
      const tags = [];
      if (handOn && !over) tags.push(["held", t("in_hand", { n: player.held })]);
      if (player.computer) tags.push(["computer", t("computer")]);
      if (player.left) tags.push(["left", t("left")]);
      for (const [kind, text] of tags) {
        const tag = document.createElement("span");
        tag.className = "tag " + kind;
        tag.textContent = text;
        line.append(tag);
      }
      item.append(head, line);
      list.append(item);
    });

    $("tiles-left").textContent = over ? "" : t("tiles_left", { n: view.tilesLeft, total: view.tilesTotal });

    const hand = $("hand");
    hand.textContent = "";
    const own = Array.isArray(view.hand) && view.hand.length && !over;
    $("hand-box").hidden = !own;
    if (own) {
      for (const kind of view.hand) {
        const tile = document.createElement("span");
        tile.className = "hand-tile";
        tile.dataset.kind = kind;
        const uri = tilePicture(kind);
        if (uri) tile.style.backgroundImage = 'url("' + uri + '")';
        hand.append(tile);
      }
    }
    const current = games.find((g) => g.id === shown);
    $("game-title").textContent = current ? current.title || "#" + current.id : "#" + view.game;
    tick();
  }

  function drawAll() {
    if (!view || !art || !art.variants[view.variant]) return;
    const fresh = !drawn || drawn.game !== view.game || drawn.version !== view.version;
    takeYou(fresh);
    drawPanel();
    drawBoard();
    drawPlay();
    drawSeatActions();
    drawn = view;
    publish();
  }

  // --- Start ----------------------------------------------------------------------------------

  $("zoom-in").onclick = () => zoomCentre(1.4);
  $("zoom-out").onclick = () => zoomCentre(1 / 1.4);
  $("zoom-fit").onclick = () => fit();
  $("sign-in").onclick = () => signIn();
  $("undo").onclick = () => undo();
  $("resign").onclick = () => resign();
  $("resign-cancel").onclick = () => {
    resignArmed = false;
    drawSeatActions();
    publish();
  };
  $("game-select").onchange = (event) => watch(Number(event.target.value));
  const viewport = $("viewport");
  viewport.addEventListener("pointerdown", pointerDown);
  viewport.addEventListener("pointermove", pointerMove);
  viewport.addEventListener("pointerup", pointerUp);
  viewport.addEventListener("pointercancel", pointerUp);
  viewport.addEventListener("wheel", wheel, { passive: false });
  let width = 0;
  new ResizeObserver(() => {
    if (!view || !art) return;
    if (!moved || !width) fit();
    else transform();
    width = viewport.clientWidth;
  }).observe(viewport);
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { "+": () => zoomCentre(1.4), "=": () => zoomCentre(1.4), "-": () => zoomCentre(1 / 1.4), "0": fit };
    if (keys[event.key]) keys[event.key]();
  });
  setInterval(tick, 1000);
  applyWords();
  clearBoard();
  publish();
  signIn();
})();
