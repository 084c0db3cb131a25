// Traders & Builders' goods tokens, turn by turn, derived from the tiles laid: the code carries
// no goods, the page follows the cities as the engine does (engine/carcassonne/traders_builders).
// Each city of a tile is a node; a city edge meeting a city edge joins the two cities, a city
// edge meeting an abbey is closed; a city is complete when none of its edges is open. The player
// in turn takes the goods of every city their tile completed (an abbey completes its
// neighbours' cities too). tables.cities (renderer/viewer/page.py city_table) gives, per tile
// kind, each city's edges on the unrotated tile and its goods symbol (0 wine, 1 grain, 2 cloth,
// -1 none).
"use strict";

// Per turn of the decoded game, each player's [wine, grain, cloth]; null without goods.
function goodsByTurn(game, tables) {
  if (!tables.cities) return null;
  const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
  const parent = [];
  const open = [];
  const symbols = [];
  const find = (n) => {
    while (parent[n] !== n) n = parent[n] = parent[parent[n]];
    return n;
  };
  const join = (a, b) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) {
      parent[rb] = ra;
      open[ra] += open[rb];
      symbols[ra] = symbols[ra].map((v, i) => v + symbols[rb][i]);
    }
    return ra;
  };
  const cells = new Map(); // "x,y" -> the city node on each board side (N, E, S, W), or -1
  const held = game.names.map(() => [0, 0, 0]);
  const out = [];
  game.turns.forEach((turn, index) => {
    for (const [kind, x, y, rotation] of turn.tiles) {
      const k = tables.kinds.indexOf(kind);
      const sides = [-1, -1, -1, -1];
      const touched = [];
      for (const [edges, symbol] of tables.cities[k] || []) {
        const node = parent.length;
        parent.push(node);
        open.push(edges.length);
        symbols.push([0, 1, 2].map((i) => (i === symbol ? 1 : 0)));
        for (const edge of edges) sides[(edge + rotation / 90) % 4] = node;
        touched.push(node);
      }
      cells.set(x + "," + y, sides);
      STEPS.forEach(([dx, dy], side) => {
        const other = cells.get(x + dx + "," + (y + dy));
        if (!other) return;
        const mine = sides[side];
        const theirs = other[(side + 2) % 4];
        if (mine >= 0 && theirs >= 0) open[join(mine, theirs)] -= 2;
        else if (mine >= 0) open[find(mine)] -= 1;
        else if (theirs >= 0) {
          open[find(theirs)] -= 1;
          touched.push(theirs);
        }
      });
      if (!index) continue; // the start tiles are nobody's
      for (const root of new Set(touched.map(find))) {
        if (open[root] !== 0) continue;
        symbols[root].forEach((v, i) => (held[turn.player][i] += v));
      }
    }
    out.push(held.map((row) => row.slice()));
  });
  return out;
}
