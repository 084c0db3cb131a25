// The viewer's game code, read: the mirror of renderer/viewer/codec.py (same symbols, same
// order, same frequencies). A code is a version character, then a big number in base64url;
// each symbol is taken off the number with the frequencies both sides compute.
"use strict";

class CodeError extends Error {
  constructor(key, values) {
    super(key);
    this.key = key;
    this.values = values || {};
  }
}

class Reader {
  constructor(x) {
    this.x = x;
  }
  weighted(freqs) {
    let total = 0n;
    for (const f of freqs) total += BigInt(f);
    const r = this.x % total;
    let cum = 0n;
    for (let s = 0; s < freqs.length; s++) {
      const f = BigInt(freqs[s]);
      if (r < cum + f) {
        this.x = f * (this.x / total) + r - cum;
        return s;
      }
      cum += f;
    }
    throw new CodeError("viewer_bad_code");
  }
  uniform(n) {
    if (n <= 1) return 0;
    const big = BigInt(n);
    const s = this.x % big;
    this.x = this.x / big;
    return Number(s);
  }
}

class Adaptive {
  constructor(n, step) {
    this.counts = new Array(n).fill(1);
    this.step = step;
  }
  read(reader) {
    const s = reader.weighted(this.counts);
    this.counts[s] += this.step;
    return s;
  }
}

const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]];

class BoardModel {
  constructor(tables) {
    this.tables = tables;
    this.tiles = new Map();
    this.order = [];
    this.bounds = tables.bounds ? new Set(tables.bounds.map(([x, y]) => x + "," + y)) : null;
  }
  lay(kind, x, y, rotation) {
    this.tiles.set(x + "," + y, [kind, rotation]);
    this.order.push([x, y]);
  }
  letter(x, y, side) {
    const found = this.tiles.get(x + "," + y);
    if (!found) return null;
    const [kind, rotation] = found;
    return this.tables.edges[kind][(((side - rotation / 90) % 4) + 4) % 4];
  }
  matches(mine, theirs) {
    if (this.tables.match === "paths") return (mine === "P") === (theirs === "P");
    return mine === theirs || mine === "*" || theirs === "*";
  }
  frontier() {
    const found = new Map();
    for (const [x, y] of this.order) {
      for (const [dx, dy] of STEPS) {
        const key = x + dx + "," + (y + dy);
        if (this.tiles.has(key) || found.has(key)) continue;
        if (this.bounds && !this.bounds.has(key)) continue;
        found.set(key, [x + dx, y + dy]);
      }
    }
    return [...found.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }
  fits(kind) {
    const edges = this.tables.edges[kind];
    const out = [];
    for (const [x, y] of this.frontier()) {
      const around = STEPS.map(([dx, dy], side) => this.letter(x + dx, y + dy, (side + 2) % 4));
      for (let turns = 0; turns < 4; turns++) {
        const ok = around.every(
          (theirs, side) => theirs === null || this.matches(edges[(side - turns + 4) % 4], theirs),
        );
        if (ok) out.push([x, y, turns * 90]);
      }
    }
    return out;
  }
}

function codeNumber(text, C) {
  let x = 0n;
  for (const ch of text) {
    const d = C.alphabet.indexOf(ch);
    if (d < 0) throw new CodeError("viewer_bad_code");
    x = x * 64n + BigInt(d);
  }
  return x;
}

// Decode a code into the game as renderer/viewer/turns.py reads it (plain arrays).
function decodeGame(code, data) {
  const C = data.codec;
  code = (code || "").trim();
  if (!code) throw new CodeError("viewer_no_game");
  if (code[0] !== C.alphabet[C.version]) {
    throw new CodeError("viewer_other_version");
  }
  if (code.length < 3 || [...code].some((ch) => !C.alphabet.includes(ch))) {
    throw new CodeError("viewer_bad_code");
  }
  const check = C.alphabet.indexOf(code[1]) * 64 + C.alphabet.indexOf(code[2]);
  if (!data.checksums.includes(check)) throw new CodeError("viewer_other_version");
  const r = new Reader(codeNumber(code.slice(3), C));
  const vi = r.uniform(data.variantKeys.length);
  const tables = data.variants[data.variantKeys[vi]];
  if (!tables) throw new CodeError("viewer_not_here", { game: data.variantKeys[vi] });
  const n = r.uniform(C.maxPlayers) + 1;
  let styles = [...Array(n).keys()];
  if (r.uniform(2)) styles = styles.map(() => r.uniform(C.styles));
  const names = [];
  for (let i = 0; i < n; i++) names.push(readName(r, C));
  const ended = r.uniform(2) === 1;
  const last = r.uniform(C.maxTurns);
  const g = new GameReader(r, tables, n, C);
  const turns = [g.start()];
  for (let t = 1; t <= last; t++) turns.push(g.turn());
  const final = ended ? g.scores(g.previous, g.mFinal, g.mFinalAmount) : null;
  if (r.uniform(C.checkSpace) !== g.hash % C.checkSpace || r.x !== 0n) {
    throw new CodeError("viewer_bad_code");
  }
  return { variant: tables.key, names, styles, turns, final };
}

function readName(r, C) {
  const length = r.uniform(C.maxName + 1);
  const chars = C.nameChars.map(([g]) => g).join("");
  const freqs = [];
  for (const [group, weight] of C.nameChars) for (let i = 0; i < group.length; i++) freqs.push(weight);
  freqs.push(1);
  let name = "";
  for (let i = 0; i < length; i++) {
    const s = r.weighted(freqs);
    name += s < chars.length ? chars[s] : String.fromCodePoint(r.uniform(0x110000));
  }
  return name;
}

class GameReader {
  constructor(r, tables, n, C) {
    this.r = r;
    this.t = tables;
    this.n = n;
    this.C = C;
    this.board = new BoardModel(tables);
    this.left = tables.counts.map((c, k) => c * (tables.perPlayer[k] ? n : 1));
    this.standing = [];
    this.hash = 0;
    const A = (size) => new Adaptive(size, C.step);
    this.mPlayer = A(2);
    this.mTiles = A(8);
    this.mReturns = A(16);
    this.mPlaced = A(8);
    this.mTarget = A(2);
    this.mOwner = A(2);
    this.mScored = A(n + 1);
    this.mAmount = A(C.buckets);
    this.mFinal = A(n + 1);
    this.mFinalAmount = A(C.buckets);
    this.expected = 0;
    this.previous = new Array(n).fill(0);
  }
  mix(value) {
    const mod = this.C.hashMod;
    this.hash = (((this.hash * 31 + value) % mod) + mod) % mod;
  }
  lay(kind, x, y, rotation) {
    if (this.board.order.length >= 4096) throw new CodeError("viewer_bad_code");
    this.board.lay(kind, x, y, rotation);
    this.left[kind] -= 1;
    this.mix(kind + (x + 128) * 64 + (y + 128) * 16384 + rotation / 90);
    return [this.t.kinds[kind], x, y, rotation];
  }
  raw() {
    const half = this.C.rawSpan / 2;
    const x = this.r.uniform(this.C.rawSpan) - half;
    const y = this.r.uniform(this.C.rawSpan) - half;
    return [x, y, this.r.uniform(4) * 90];
  }
  start() {
    const r = this.r;
    let laid = this.t.setup;
    if (r.uniform(2)) {
      laid = [];
      const count = r.uniform(64);
      for (let i = 0; i < count; i++) laid.push([r.uniform(this.t.kinds.length), ...this.raw()]);
    }
    const tiles = laid.map(([k, x, y, rot]) => this.lay(k, x, y, rot));
    const [returned, placed] = this.pieces(0, 0);
    const scores = this.scores(this.previous, this.mScored, this.mAmount);
    this.previous = scores;
    return { player: 0, tiles, returned, placed, scores };
  }
  turn() {
    const r = this.r;
    let player = this.expected;
    if (this.mPlayer.read(r)) player = r.uniform(this.n);
    this.expected = (player + 1) % this.n;
    const count = this.mTiles.read(r);
    const tiles = [];
    for (let i = 0; i < count; i++) tiles.push(this.tile());
    const [returned, placed] = this.pieces(player, count);
    const scores = this.scores(this.previous, this.mScored, this.mAmount);
    this.previous = scores;
    return { player, tiles, returned, placed, scores };
  }
  kindFreqs() {
    const river = this.t.river;
    const flowing = this.left.some((c, k) => river[k] && c > 0);
    return this.left.map(
      (c, k) => (this.C.kindWeight * Math.max(c, 0) + 1) * (flowing && river[k] ? this.C.riverBoost : 1),
    );
  }
  tile() {
    const r = this.r;
    const kind = r.weighted(this.kindFreqs());
    const fits = this.board.fits(kind);
    const freqs = fits.map(() => this.C.fitWeight);
    freqs.push(1);
    const s = r.weighted(freqs);
    const [x, y, rotation] = s < fits.length ? fits[s] : this.raw();
    return this.lay(kind, x, y, rotation);
  }
  pieces(player, laid) {
    const r = this.r;
    let count = this.mReturns.read(r);
    if (count === 15) count += r.uniform(this.C.maxPieces);
    const returned = [];
    for (let i = 0; i < count; i++) {
      if (!this.standing.length) throw new CodeError("viewer_bad_code");
      returned.push(this.standing.splice(r.uniform(this.standing.length), 1)[0]);
    }
    let placing = this.mPlaced.read(r);
    if (placing === 7) placing += r.uniform(this.C.maxPieces);
    const placed = [];
    for (let i = 0; i < placing; i++) {
      const piece = this.piece(player, laid);
      placed.push(piece);
      this.standing.push(piece);
    }
    return [returned, placed];
  }
  piece(player, laid) {
    const r = this.r;
    const order = this.board.order;
    const onLast = laid > 0 && this.mTarget.read(r) === 0;
    const [x, y] = onLast ? order[order.length - 1] : order[r.uniform(order.length)];
    const kind = this.board.tiles.get(x + "," + y)[0];
    const options = this.t.options[kind];
    const s = r.uniform(options.length + 1);
    let spot, role;
    if (s < options.length) [spot, role] = options[s];
    else [spot, role] = [r.uniform(128), r.uniform(this.t.roles.length)];
    const owner = this.mOwner.read(r) ? r.uniform(this.n) : player;
    return [owner, this.t.roles[role], x, y, spot];
  }
  scores(before, count, amounts) {
    const r = this.r;
    const now = before.slice();
    const changed = [];
    const seats = [...Array(this.n).keys()];
    const k = count.read(r);
    for (let i = 0; i < k; i++) changed.push(seats.splice(r.uniform(seats.length), 1)[0]);
    const half = this.C.buckets / 2;
    for (const seat of changed) {
      const bucket = amounts.read(r);
      const size = (bucket % half) + 1;
      const low = r.uniform(2 ** (size - 1));
      const magnitude = 2 ** (size - 1) + low;
      now[seat] += bucket >= half ? -magnitude : magnitude;
    }
    for (const score of now) this.mix(score + 100000);
    return now;
  }
}
