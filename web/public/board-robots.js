// The Robot board: tiles, robots and homes from the seat's view, drawn as
// the tabula window draws them; zoom and pan for large boards; moves by
// pointer (click a robot, then a lit tile) and keys. Only moves found in
// state.legal are ever sent.

import { svg, svgText, html, button, findLegal, clear, linkStyles, typing, touchInput } from './board-kit.js';

const T = 40; // user units a tile
const LABEL_W = 26; // px kept left of the board for row numbers at fit
const LABEL_H = 20; // px kept under it for column letters
const MAX_TILE_PX = 96;
const SMALL_TILE_PX = 14; // below this at fit, a board opens zoomed in
const OPEN_TILE_PX = 30;

const DIR = { North: [0, -1], East: [1, 0], South: [0, 1], West: [-1, 0] };
const QUARTER = { North: 0, East: 1, South: 2, West: 3 };
const HINTS = ['Ahead', 'AheadRight', 'Right', 'BehindRight', 'Behind', 'BehindLeft', 'Left', 'AheadLeft'];
const HINT_WORDS = ['ahead', 'ahead-right', 'right', 'behind-right', 'behind', 'behind-left', 'left', 'ahead-left'];
const COMPASS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];
const TURNS = { 1: 'turn 1 quarter left', 2: 'turn 2 quarters left (around)', 3: 'turn 3 quarters left (a quarter right)' };
const ARROW = { North: '↑', East: '→', South: '↓', West: '←' };
const LEGEND = {
  stood: 'crossed letter: that robot stood there (not its home)',
  hint: "arrow from a ?: where that robot's hint says its home lies",
  shade: 'shaded: where a home can still be',
  home: 'framed: the home reached',
};

// The window's colours (src/app/robots/art.rs).
const C = {
  ground: 'rgb(51,61,56)',
  alt: 'rgb(56,66,61)',
  line: 'rgb(36,44,40)',
  hint: 'rgb(46,71,107)',
  hintText: 'rgb(179,217,255)',
  broken: 'rgb(31,31,33)',
  brokenBody: 'rgb(92,87,84)',
  brokenX: 'rgb(204,71,56)',
  belt: 'rgb(71,69,61)',
  arrow: 'rgb(237,199,77)',
  target: 'rgba(115,242,140,0.3)',
  targetLine: 'rgb(170,255,185)',
  pick: 'rgba(242,140,242,0.6)',
  swappable: 'rgba(242,140,242,0.9)',
  ink: 'rgb(20,20,20)',
};

/** Column letters as the window names them: A to Z, then AA. */
export function columnName(x) {
  let s = '';
  for (let n = x + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A tile as on a chess board: column letters, row counted from the bottom. */
export function tileName(x, y, height) {
  return columnName(x) + (height - y);
}

/** The compass eighth (clockwise from north) of an offset's signs. */
function eighth(dx, dy) {
  const key = `${Math.sign(dx)},${Math.sign(dy)}`;
  return { '0,-1': 0, '1,-1': 1, '1,0': 2, '1,1': 3, '0,1': 4, '-1,1': 5, '-1,0': 6, '-1,-1': 7 }[key];
}

/** Where home lies on the board for a hint given facing `facing`. */
function bearing(hint, facing) {
  return (HINTS.indexOf(hint) + 2 * QUARTER[facing]) % 8;
}

/** Nice label strides: every row, every 2nd, 5th, 10th... */
function stride(pxPer, need) {
  for (const k of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (k * pxPer >= need) return k;
  return 1000;
}

/**
 * The tiles a robot's hidden home can still be on, from the public view
 * only (what the server's sightings say): reachable plain tiles under no
 * robot at the start, not stood on by it, agreeing with each of its hints.
 */
export function homeCandidates(v, r) {
  const W = v.width, H = v.height, tiles = v.tiles;
  const robot = v.robots[r];
  if (robot.home) return [robot.home];
  const at = (x, y) => tiles[y * W + x];
  const off = (x, y) => x < 0 || y < 0 || x >= W || y >= H;
  const conv = (x, y) => (typeof at(x, y) === 'object' && at(x, y).Conveyor) || null;
  const beltEnd = (x, y) => {
    for (let guard = W * H; guard > 0; guard--) {
      const d = conv(x, y);
      if (!d) break;
      const nx = x + DIR[d][0], ny = y + DIR[d][1];
      if (off(nx, ny) || at(nx, ny) === 'Broken') break;
      x = nx;
      y = ny;
    }
    return [x, y];
  };
  const seen = new Uint8Array(W * H);
  const start = beltEnd(robot.start[0], robot.start[1]);
  const stack = [start];
  seen[start[1] * W + start[0]] = 1;
  while (stack.length) {
    const [x, y] = stack.pop();
    for (const d of Object.keys(DIR)) {
      const nx = x + DIR[d][0], ny = y + DIR[d][1];
      if (off(nx, ny) || at(nx, ny) === 'Broken') continue;
      const [lx, ly] = beltEnd(nx, ny);
      if (!seen[ly * W + lx]) {
        seen[ly * W + lx] = 1;
        stack.push([lx, ly]);
      }
    }
  }
  const possible = Array.from(seen, (s, i) => !!s && tiles[i] === 'Normal');
  for (const o of v.robots) possible[o.start[1] * W + o.start[0]] = false;
  const hints = [];
  for (const s of v.sightings || []) {
    if (s.StoodOn && s.StoodOn.robot === robot.id) possible[s.StoodOn.at[1] * W + s.StoodOn.at[0]] = false;
    if (s.Hinted && s.Hinted.robot === robot.id) hints.push(s.Hinted);
  }
  const out = [];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!possible[y * W + x]) continue;
      if (hints.every((h) => (eighth(x - h.at[0], y - h.at[1]) - 2 * QUARTER[h.facing] + 8) % 8 === HINTS.indexOf(h.hint)))
        out.push([x, y]);
    }
  }
  return out;
}

/** The robot a move names, if any. */
function robotOf(move) {
  if (!move || typeof move !== 'object') return null;
  const inner = move.Step || move.Forward || move.Rotate;
  return inner ? inner.robot : null;
}

/**
 * @param {HTMLElement} root
 * @param {{play: (move: any) => void, seatColor: (i: number) => string}} ctx
 */
export function mount(root, ctx) {
  linkStyles();
  const box = html('div', 'bd bd-robots', undefined, root);
  const bar = html('div', 'bd-bar', undefined, box);
  const zoomOutB = button('−', 'bd-zoom', () => zoomBy(1 / 1.5), bar);
  const zoomInB = button('+', 'bd-zoom', () => zoomBy(1.5), bar);
  const fitB = button('Fit', 'bd-zoom', () => fit(), bar);
  zoomOutB.title = 'Zoom out (-)';
  zoomInB.title = 'Zoom in (+)';
  fitB.title = 'Show the whole board (0)';
  zoomOutB.setAttribute('aria-label', 'Zoom out');
  zoomInB.setAttribute('aria-label', 'Zoom in');
  const shadeB = button('', 'bd-toggle', () => toggleShade(), bar);
  shadeB.hidden = true;

  const viewBox = html('div', 'rb-view', undefined, box);
  const s = svg('svg', { class: 'rb-svg', role: 'img', 'aria-label': 'Robot board' }, viewBox);
  const defs = svg('defs', {}, s);
  const pat = svg('pattern', { id: 'rb-ground', width: 2 * T, height: 2 * T, patternUnits: 'userSpaceOnUse' }, defs);
  svg('rect', { width: 2 * T, height: 2 * T, fill: C.ground }, pat);
  svg('rect', { width: T, height: T, fill: C.alt }, pat);
  svg('rect', { x: T, y: T, width: T, height: T, fill: C.alt }, pat);
  svg('path', { d: `M0 0H${2 * T}M0 ${T}H${2 * T}M0 0V${2 * T}M${T} 0V${2 * T}`, stroke: C.line, 'stroke-width': 1.5, fill: 'none' }, pat);
  const gTiles = svg('g', { class: 'rb-tiles' }, s);
  const gMarks = svg('g', { class: 'rb-marks' }, s);
  const gTargets = svg('g', { class: 'rb-targets' }, s);
  const gRobots = svg('g', { class: 'rb-robots' }, s);
  const gLabels = svg('g', { class: 'rb-labels', 'pointer-events': 'none' }, s);

  const legend = html('p', 'rb-legend', undefined, box);
  const actions = html('div', 'bd-actions', undefined, box);
  const note = html('p', 'bd-note', '', box);
  note.setAttribute('aria-live', 'polite');
  const cluesBox = html('ul', 'rb-clues', undefined, box);

  /** @type {any} */ let st = null;
  /** @type {any} */ let v = null;
  let tilesKey = '';
  let selected = null; // robot id
  let exchange = false;
  let pickA = null; // "x,y"
  let shade = false;
  let sent = false; // a move went out: no second one until the next update
  let said = ''; // a passing remark (a refused key), cleared by the next update
  const cam = { s: 1, cx: 0, cy: 0 };
  let pxW = 320, pxH = 240, fitS = 1;
  let opened = false;
  let wonBy = null; // the robot a Won step named (a hidden home stays hidden in the view)
  let marks = new Set(); // the kinds of mark drawn, for the legend
  /** @type {Map<string, {g: SVGElement, body: SVGElement, nose: SVGElement, angle: number}>} */
  const robotEls = new Map();
  /** @type {Map<string, any>} */ let targets = new Map();
  /** @type {Map<string, any[]>} the legal moves of each robot */ let byRobot = new Map();
  /** @type {Map<string, Map<string, any>>} */ let swaps = new Map();
  const reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  const me = () => (st && st.seat ? st.seat - 1 : null);
  const mine = (r) => me() !== null && r.player === me();
  const robotById = (id) => v.robots.find((r) => r.id === id);
  const movesOf = (id) => byRobot.get(id) || [];
  const canAct = () => !!st && !!st.seat && !st.result && (st.legal || []).length > 0 && !sent;

  // ---- camera ------------------------------------------------------------

  function measure() {
    if (!v) return;
    const W = v.width * T, H = v.height * T;
    pxW = Math.max(200, viewBox.clientWidth || root.clientWidth || 320);
    const maxH = Math.max(240, Math.round(window.innerHeight * 0.72));
    pxH = Math.round(Math.min(maxH, Math.max(180, (H * (pxW - LABEL_W - 4)) / W + LABEL_H + 4)));
    fitS = Math.min((pxW - LABEL_W - 4) / W, (pxH - LABEL_H - 4) / H, MAX_TILE_PX / T);
    s.setAttribute('width', String(pxW));
    s.setAttribute('height', String(pxH));
  }

  function clampCam() {
    const W = v.width * T, H = v.height * T;
    cam.s = Math.min(Math.max(cam.s, fitS), MAX_TILE_PX / T);
    const vw = pxW / cam.s, vh = pxH / cam.s;
    const x0 = -LABEL_W / cam.s, x1 = W + 4 / cam.s, y0 = -4 / cam.s, y1 = H + LABEL_H / cam.s;
    cam.cx = vw >= x1 - x0 ? (x0 + x1) / 2 : Math.min(Math.max(cam.cx, x0 + vw / 2), x1 - vw / 2);
    cam.cy = vh >= y1 - y0 ? (y0 + y1) / 2 : Math.min(Math.max(cam.cy, y0 + vh / 2), y1 - vh / 2);
  }

  function apply() {
    if (!v) return;
    clampCam();
    const vw = pxW / cam.s, vh = pxH / cam.s;
    s.setAttribute('viewBox', `${cam.cx - vw / 2} ${cam.cy - vh / 2} ${vw} ${vh}`);
    // Small boards leave touch scrolling to the page; a zoomed one pans.
    viewBox.classList.toggle('rb-pannable', zoomed() || fitS * T < SMALL_TILE_PX);
    zoomOutB.disabled = !zoomed();
    fitB.disabled = !zoomed();
    zoomInB.disabled = cam.s >= MAX_TILE_PX / T - 1e-9;
    drawLabels();
  }

  const zoomed = () => cam.s > fitS * 1.001;

  function fit() {
    cam.s = fitS;
    apply();
  }

  /** Zooms by `f` keeping the point under screen offset (ox, oy) still. */
  function zoomBy(f, ox = pxW / 2, oy = pxH / 2) {
    const ux = cam.cx + (ox - pxW / 2) / cam.s, uy = cam.cy + (oy - pxH / 2) / cam.s;
    cam.s = Math.min(Math.max(cam.s * f, fitS), MAX_TILE_PX / T);
    cam.cx = ux - (ox - pxW / 2) / cam.s;
    cam.cy = uy - (oy - pxH / 2) / cam.s;
    apply();
  }

  function centerOn(x, y) {
    cam.cx = (x + 0.5) * T;
    cam.cy = (y + 0.5) * T;
    apply();
  }

  /** Brings tile (x, y) into view if it is near the edge or out of it. */
  function follow(x, y) {
    if (!zoomed()) return;
    const vw = pxW / cam.s, vh = pxH / cam.s;
    const ux = (x + 0.5) * T, uy = (y + 0.5) * T;
    if (Math.abs(ux - cam.cx) > vw * 0.38 || Math.abs(uy - cam.cy) > vh * 0.38) centerOn(x, y);
  }

  function drawLabels() {
    clear(gLabels);
    const vw = pxW / cam.s, vh = pxH / cam.s;
    const vx = cam.cx - vw / 2, vy = cam.cy - vh / 2;
    const fs = 11 / cam.s;
    const tilePx = T * cam.s;
    // The bands sit in the margins at fit, over the edge tiles when zoomed.
    const left = Math.max(vx, -LABEL_W / cam.s);
    const bottom = Math.min(vy + vh, v.height * T + LABEL_H / cam.s);
    const bandW = LABEL_W / cam.s, bandH = LABEL_H / cam.s;
    svg('rect', { x: left, y: vy, width: bandW, height: vh, fill: 'rgba(24,29,27,0.78)' }, gLabels);
    svg('rect', { x: vx, y: bottom - bandH, width: vw, height: bandH, fill: 'rgba(24,29,27,0.78)' }, gLabels);
    const rs = stride(tilePx, 15);
    const y0 = Math.max(0, Math.floor(vy / T)), y1 = Math.min(v.height - 1, Math.ceil((vy + vh) / T));
    for (let y = y0; y <= y1; y++) {
      const n = v.height - y;
      if (rs > 1 && n % rs !== 0 && n !== 1) continue;
      const ty = (y + 0.5) * T + fs * 0.35;
      if (ty > bottom - bandH) continue;
      svgText(String(n), { x: left + bandW - 4 / cam.s, y: ty, 'font-size': fs, 'text-anchor': 'end', fill: 'rgb(190,198,194)' }, gLabels);
    }
    const cs = stride(tilePx, 26);
    const x0 = Math.max(0, Math.floor(vx / T)), x1 = Math.min(v.width - 1, Math.ceil((vx + vw) / T));
    for (let x = x0; x <= x1; x++) {
      if (cs > 1 && x % cs !== 0) continue;
      const tx = (x + 0.5) * T;
      if (tx < left + bandW) continue;
      svgText(columnName(x), { x: tx, y: bottom - 6 / cam.s, 'font-size': fs, 'text-anchor': 'middle', fill: 'rgb(190,198,194)' }, gLabels);
    }
  }

  // ---- drawing -----------------------------------------------------------

  function drawTiles() {
    clear(gTiles);
    const W = v.width, H = v.height;
    svg('rect', { x: 0, y: 0, width: W * T, height: H * T, fill: 'url(#rb-ground)' }, gTiles);
    svg('rect', { x: 0, y: 0, width: W * T, height: H * T, fill: 'none', stroke: C.line, 'stroke-width': 2 }, gTiles);
    for (let i = 0; i < v.tiles.length; i++) {
      const t = v.tiles[i];
      if (t === 'Normal') continue;
      const x = (i % W) * T, y = Math.floor(i / W) * T;
      if (t === 'Hint') {
        svg('rect', { x: x + 1, y: y + 1, width: T - 2, height: T - 2, fill: C.hint }, gTiles);
        svgText('?', { x: x + T / 2, y: y + T * 0.68, 'font-size': T * 0.5, 'text-anchor': 'middle', fill: C.hintText }, gTiles);
      } else if (t === 'Broken') {
        svg('rect', { x: x + 1, y: y + 1, width: T - 2, height: T - 2, fill: C.broken }, gTiles);
        svg('circle', { cx: x + T / 2, cy: y + T / 2, r: T * 0.34, fill: C.brokenBody }, gTiles);
        const a = T * 0.18;
        svg('path', {
          d: `M${x + T / 2 - a} ${y + T / 2 - a}L${x + T / 2 + a} ${y + T / 2 + a}M${x + T / 2 + a} ${y + T / 2 - a}L${x + T / 2 - a} ${y + T / 2 + a}`,
          stroke: C.brokenX, 'stroke-width': T * 0.09, 'stroke-linecap': 'round',
        }, gTiles);
      } else if (t.Conveyor) {
        svg('rect', { x: x + 1, y: y + 1, width: T - 2, height: T - 2, fill: C.belt }, gTiles);
        const ang = QUARTER[t.Conveyor] * 90;
        svg('path', {
          d: 'M-9 5L0 -5L9 5',
          transform: `translate(${x + T / 2} ${y + T / 2}) rotate(${ang})`,
          stroke: C.arrow, 'stroke-width': 4.5, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round',
        }, gTiles);
      } else if (t.Home !== undefined) {
        const r = v.robots[t.Home];
        const color = r ? ctx.seatColor(r.player) : '#ccc';
        svg('circle', { cx: x + T / 2, cy: y + T / 2, r: T * 0.36, fill: C.ink, stroke: color, 'stroke-width': T * 0.08 }, gTiles);
        if (r) svgText(r.id.toLowerCase(), { x: x + T / 2, y: y + T * 0.64, 'font-size': T * 0.42, 'text-anchor': 'middle', fill: color }, gTiles);
      }
    }
  }

  /** Sightings (tiles stood on, hints given) and, when asked, candidates. */
  function drawMarks() {
    clear(gMarks);
    marks = new Set();
    if (!v.homes_hidden) return;
    // The end shows the hidden home the winning robot reached.
    const won = homeReached();
    if (won) {
      svg('rect', { x: won.at[0] * T + 1.5, y: won.at[1] * T + 1.5, width: T - 3, height: T - 3, rx: 3, fill: C.ink, stroke: ctx.seatColor(won.player), 'stroke-width': 3 }, gMarks);
      marks.add('home');
    }
    const cornerOf = (r) => {
      const nth = v.robots.slice(0, v.robots.indexOf(r)).filter((o) => o.player === r.player).length;
      return [[0.2, 0.8], [0.8, 0.2], [0.8, 0.8], [0.2, 0.2]][nth % 4];
    };
    if (shade && !st.result) {
      for (let i = 0; i < v.robots.length; i++) {
        const r = v.robots[i];
        // Before its first hint a home could be nearly anywhere: shading
        // the whole board would hide what the other hints tell.
        if (me() !== null && r.player !== me()) continue;
        if (!(v.sightings || []).some((s) => s.Hinted && s.Hinted.robot === r.id)) continue;
        const color = ctx.seatColor(r.player);
        const [cx, cy] = cornerOf(r);
        marks.add('shade');
        for (const [x, y] of homeCandidates(v, i)) {
          svg('rect', { x: x * T + 5, y: y * T + 5, width: T - 10, height: T - 10, fill: color, 'fill-opacity': 0.3 }, gMarks);
          svgText(r.id.toLowerCase(), { x: (x + cx) * T, y: (y + cy) * T + 4, 'font-size': 11, 'text-anchor': 'middle', fill: color }, gMarks);
        }
      }
    }
    // A tile a robot stood on is not its home: a small crossed-out letter.
    const stood = new Map();
    for (const sg of v.sightings || []) {
      if (!sg.StoodOn) continue;
      const k = sg.StoodOn.at.join(',');
      if (!stood.has(k)) stood.set(k, new Set());
      stood.get(k).add(sg.StoodOn.robot);
    }
    for (const [k, ids] of stood) {
      const [x, y] = k.split(',').map(Number);
      for (const id of ids) {
        const r = robotById(id);
        // Under the robot that stands there now the mark says nothing new.
        if (!r || (r.at[0] === x && r.at[1] === y)) continue;
        marks.add('stood');
        const [cx, cy] = cornerOf(r);
        const color = ctx.seatColor(r.player);
        const px = (x + cx) * T, py = (y + cy) * T;
        svgText(id.toLowerCase(), { x: px, y: py + 4, 'font-size': 12, 'text-anchor': 'middle', fill: color, 'fill-opacity': 0.9 }, gMarks);
        svg('path', { d: `M${px - 6} ${py + 5}L${px + 6} ${py - 5}`, stroke: color, 'stroke-width': 1.5, 'stroke-opacity': 0.9 }, gMarks);
      }
    }
    // Each hint given: an arrow from its tile toward where home lies.
    const perTile = new Map();
    for (const sg of v.sightings || []) {
      if (!sg.Hinted) continue;
      const h = sg.Hinted;
      const r = robotById(h.robot);
      if (!r) continue;
      const k = h.at.join(',');
      marks.add('hint');
      const n = perTile.get(k) || 0;
      perTile.set(k, n + 1);
      const b = bearing(h.hint, h.facing);
      const color = ctx.seatColor(r.player);
      const g = svg('g', { transform: `translate(${(h.at[0] + 0.5) * T} ${(h.at[1] + 0.5) * T}) rotate(${b * 45})` }, gMarks);
      const shift = (n % 3) * 5 - 5;
      svg('path', { d: `M${shift} 9V-16M${shift - 6} -10L${shift} -17L${shift + 6} -10`, stroke: C.ink, 'stroke-width': 6, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, g);
      svg('path', { d: `M${shift} 9V-16M${shift - 6} -10L${shift} -17L${shift + 6} -10`, stroke: color, 'stroke-width': 3, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, g);
      const title = svg('title', {}, g);
      title.textContent = `${h.robot}: home ${COMPASS[b]} of ${tileName(h.at[0], h.at[1], v.height)}`;
    }
  }

  function angleFor(el, facing) {
    // The shortest turn from where the nose points now.
    const want = QUARTER[facing] * 90;
    let d = (((want - el.angle) % 360) + 540) % 360 - 180;
    el.angle += d;
    return el.angle;
  }

  function drawRobots(animate) {
    const seen = new Set();
    const transition = animate && !reduced ? 'transform 0.28s ease-out' : 'none';
    for (const r of v.robots) {
      seen.add(r.id);
      let el = robotEls.get(r.id);
      const fresh = !el;
      if (!el) {
        const g = svg('g', { class: 'rb-robot' }, gRobots);
        const body = svg('g', {}, g);
        const nose = svg('g', {}, g);
        el = { g, body, nose, angle: QUARTER[r.facing] * 90 };
        robotEls.set(r.id, el);
      }
      el.g.dataset.robot = r.id;
      el.g.dataset.x = String(r.at[0]);
      el.g.dataset.y = String(r.at[1]);
      el.g.dataset.facing = r.facing;
      el.g.dataset.rule = r.rule;
      el.g.dataset.seat = String(r.player + 1);
      // Only a move glides; a robot that did not move keeps whatever glide
      // it is in (a later message must not cut it short).
      const place = `translate(${(r.at[0] + 0.5) * T}px, ${(r.at[1] + 0.5) * T}px)`;
      const turn = `rotate(${angleFor(el, r.facing)}deg)`;
      if (el.g.style.transform !== place) {
        el.g.style.transition = fresh ? 'none' : transition;
        el.g.style.transform = place;
      }
      if (el.nose.style.transform !== turn) {
        el.nose.style.transition = fresh ? 'none' : transition;
        el.nose.style.transform = turn;
      }
      clear(el.body);
      clear(el.nose);
      const color = ctx.seatColor(r.player);
      const home = v.tiles[r.at[1] * v.width + r.at[0]];
      const won = st.result && (r.id === wonBy || (home && home.Home !== undefined && v.robots[home.Home] === r));
      const isSel = r.id === selected && canAct();
      const movable = canAct() && mine(r) && movesOf(r.id).length > 0;
      if (isSel) svg('circle', { r: T * 0.5, fill: 'none', stroke: '#fff', 'stroke-width': 3 }, el.body);
      else if (movable) svg('circle', { r: T * 0.49, fill: 'none', stroke: '#fff', 'stroke-width': 1.5, 'stroke-dasharray': '4 3', 'stroke-opacity': 0.8 }, el.body);
      if (won) svg('circle', { r: T * 0.55, fill: 'none', stroke: 'rgb(255,230,110)', 'stroke-width': 4 }, el.body);
      svg('circle', { r: T * 0.4, fill: color, stroke: C.ink, 'stroke-width': 2 }, el.body);
      svgText(r.id, { y: T * 0.15, 'font-size': T * 0.42, 'font-weight': 'bold', 'text-anchor': 'middle', fill: C.ink }, el.body);
      svgText(r.rule, { x: T * 0.22, y: T * 0.3, 'font-size': T * 0.2, 'text-anchor': 'middle', fill: C.ink }, el.body);
      const t = svg('title', {}, el.body);
      t.textContent = `Robot ${r.id} (rule ${r.rule}, facing ${r.facing.toLowerCase()}), ${mine(r) ? 'yours' : 'seat ' + (r.player + 1) + "'s"}, at ${tileName(r.at[0], r.at[1], v.height)}`;
      svg('rect', { x: -4.5, y: -T * 0.4 - 4.5, width: 9, height: 9, transform: `rotate(45 0 ${-T * 0.4})`, fill: C.ink, stroke: '#fff', 'stroke-width': 1 }, el.nose);
    }
    for (const [id, el] of robotEls) {
      if (!seen.has(id)) {
        el.g.remove();
        robotEls.delete(id);
      }
    }
  }

  function drawTargets() {
    clear(gTargets);
    targets = new Map();
    if (!canAct()) return;
    if (exchange) {
      const lit = pickA ? swaps.get(pickA) || new Map() : swaps;
      for (const k of lit.keys()) {
        const [x, y] = k.split(',').map(Number);
        const lit = pickA
          ? svg('rect', { x: x * T + 2, y: y * T + 2, width: T - 4, height: T - 4, fill: C.target, stroke: '#fff', 'stroke-width': 1.5 }, gTargets)
          : svg('rect', { x: x * T + 3, y: y * T + 3, width: T - 6, height: T - 6, fill: 'none', stroke: C.swappable, 'stroke-width': 2, 'stroke-dasharray': '5 3' }, gTargets);
        lit.dataset.tile = k;
        lit.dataset.kind = pickA ? 'swap-with' : 'swap';
      }
      if (pickA) {
        const [x, y] = pickA.split(',').map(Number);
        svg('rect', { x: x * T + 1, y: y * T + 1, width: T - 2, height: T - 2, fill: C.pick, stroke: '#fff', 'stroke-width': 3 }, gTargets);
      }
      return;
    }
    const r = selected && robotById(selected);
    if (!r) return;
    for (const l of movesOf(r.id)) {
      let x, y, label;
      if (l.move.Step) {
        const d = DIR[l.move.Step.dir];
        x = r.at[0] + d[0];
        y = r.at[1] + d[1];
        label = null;
      } else if (l.move.Forward) {
        const d = DIR[r.facing];
        x = r.at[0] + d[0] * l.move.Forward.steps;
        y = r.at[1] + d[1] * l.move.Forward.steps;
        label = String(l.move.Forward.steps);
      } else continue;
      if (x < 0 || y < 0 || x >= v.width || y >= v.height) continue;
      targets.set(`${x},${y}`, l);
      // A see-through light, its marks small and off the middle: the
      // tile's own mark (a hint's "?", a belt's arrow) stays in sight.
      const lit = svg('rect', { x: x * T + 2, y: y * T + 2, width: T - 4, height: T - 4, rx: 4, fill: C.target, stroke: C.targetLine, 'stroke-width': 2.5 }, gTargets);
      lit.dataset.tile = `${x},${y}`;
      lit.dataset.kind = 'target';
      const dir = l.move.Step ? l.move.Step.dir : r.facing;
      const [dx, dy] = DIR[dir];
      const mark = { fill: C.targetLine, stroke: C.ink, 'stroke-width': 3, 'paint-order': 'stroke', 'font-weight': 'bold', 'text-anchor': 'middle' };
      // A walk's length in the near corner; an arrow by the far edge.
      if (label) svgText(label, { ...mark, x: (x + 0.5 - (dx || 1) * 0.28) * T, y: (y + 0.6 - (dy || 1) * 0.28) * T, 'font-size': 13 }, gTargets);
      svgText('›', { ...mark, transform: `translate(${(x + 0.5 + dx * 0.3) * T} ${(y + 0.5 + dy * 0.3) * T}) rotate(${QUARTER[dir] * 90 - 90})`, y: 6, 'font-size': 20 }, gTargets);
    }
  }

  function actionButton(label, move, title) {
    const l = findLegal(st, move);
    const b = button(label, 'bd-act', () => send(move), actions);
    b.disabled = !l;
    if (title) b.title = title;
    return b;
  }

  function drawActions() {
    clear(actions);
    if (!canAct()) return;
    const own = v.robots.filter((r) => mine(r) && movesOf(r.id).length > 0);
    if (own.length > 1 || (own.length === 1 && own[0].id !== selected)) {
      for (const r of own) {
        const b = button(`Robot ${r.id}`, 'bd-act bd-robot-pick' + (r.id === selected && !exchange ? ' bd-on' : ''), () => select(r.id), actions);
        b.style.borderColor = ctx.seatColor(r.player);
        b.title = `Select robot ${r.id} (key ${r.id})`;
      }
    }
    const r = selected && robotById(selected);
    if (r && !exchange) {
      // In the move list's words ("B turns 3 quarters left").
      if (r.rule === 'A') {
        for (const d of ['North', 'West', 'South', 'East']) actionButton(`${ARROW[d]} ${d.toLowerCase()}`, { Step: { robot: r.id, dir: d } }, `${r.id} steps ${d.toLowerCase()} (arrow key)`);
      } else {
        for (const n of [1, 2, 3]) actionButton(`Walk ${n}`, { Forward: { robot: r.id, steps: n } }, `${r.id} walks ${n} ahead (key ${n}${n === 1 ? ', F or ↑' : ''})`);
        actionButton('⟲ 1 quarter left', { Rotate: { robot: r.id, quarters: 1 } }, `${r.id} turns 1 quarter left (R or ←)`);
        actionButton('↻ 2 quarters left', { Rotate: { robot: r.id, quarters: 2 } }, `${r.id} turns 2 quarters left: around (↓)`);
        actionButton('⟳ 3 quarters left', { Rotate: { robot: r.id, quarters: 3 } }, `${r.id} turns 3 quarters left: a quarter right (Shift+R or →)`);
      }
    }
    if (swaps.size) {
      const left = v.swaps_left && me() !== null ? v.swaps_left[me()] : 0;
      const keys = !touchInput();
      const b = button(exchange ? `Cancel exchange${keys ? ' (Esc)' : ''}` : `Exchange tiles${keys ? ' (X)' : ''} · ${left} left`, 'bd-act' + (exchange ? ' bd-on' : ''), () => toggleExchange(), actions);
      b.title = 'Swap two tiles of the board (X)';
    }
    if (findLegal(st, 'Pass')) actionButton(touchInput() ? 'Pass' : 'Pass (P)', 'Pass', 'No other move is possible');
  }

  function describe() {
    if (said) return said;
    if (!st) return '';
    if (st.result) return endWords();
    if (!canAct()) {
      if (sent) return 'Sent…';
      return '';
    }
    // Keys only where there is a keyboard; taps on a touch screen.
    const touch = touchInput();
    const click = touch ? 'Tap' : 'Click';
    if (exchange) {
      if (pickA) {
        const [x, y] = pickA.split(',').map(Number);
        return `Exchange ${tileName(x, y, v.height)} with which tile? ${click} a lit one${touch ? '' : ' (Esc cancels)'}.`;
      }
      return `Exchange: ${click.toLowerCase()} a tile (dashed), then the tile to swap it with.`;
    }
    const r = selected && robotById(selected);
    if (!r) return findLegal(st, 'Pass') ? `None of your robots can move: pass${touch ? '' : ' (P)'}.` : `${click} one of your robots.`;
    const head = `Robot ${r.id} (rule ${r.rule}, facing ${r.facing.toLowerCase()}): ${click.toLowerCase()} a lit tile`;
    if (r.rule === 'A') return `${head}${touch ? '' : ' or press an arrow key'} to step.`;
    return touch ? `${head} to walk, or a button to turn 1 to 3 quarters left (3: a quarter right).` : `${head} or press 1–3 (F or ↑ for 1) to walk; ← turns 1 quarter left, ↓ 2, → 3 (a quarter right).`;
  }

  /**
   * The end in the board's words: which robot got home, and where (the
   * result's own line is the page's). A hidden home stays hidden in the
   * view: then only the last move's Won step tells.
   */
  function endWords() {
    const res = st.result;
    if (!res || res.winner == null || res.reason !== 'rules') return '';
    const r = homeReached();
    const seat = (p) => (me() === p ? 'you' : (st.seats || []).find((x) => x.seat === p + 1)?.name || `seat ${p + 1}`);
    if (!r) return `A robot of ${seat(res.winner - 1).replace(/^you$/, 'yours')} reached its home.`;
    const who = seat(r.player);
    return `Robot ${r.id} reached its home at ${tileName(r.at[0], r.at[1], v.height)}: ${who} win${who === 'you' ? '' : 's'}.`;
  }

  /** The robot standing on its own home at the end (named by a Won step, or by the view), or null. */
  function homeReached() {
    if (!st.result) return null;
    return (wonBy && robotById(wonBy)) || v.robots.find((r) => v.robots[v.tiles[r.at[1] * v.width + r.at[0]].Home] === r) || null;
  }

  function drawClues() {
    clear(cluesBox);
    const lines = [];
    if (v.homes_hidden) {
      for (const sg of v.sightings || []) {
        if (!sg.Hinted) continue;
        const h = sg.Hinted;
        const r = robotById(h.robot);
        if (!r) continue;
        const b = bearing(h.hint, h.facing);
        const at = tileName(h.at[0], h.at[1], v.height);
        const where = b % 2 ? `${COMPASS[b]} of ${at}` : `straight ${COMPASS[b]} of ${at}, ${b % 4 ? 'in its row' : 'in its column'}`;
        lines.push([r.player, `${h.robot}'s home: ${where} (at ${at}, ${h.robot} faced ${h.facing.toLowerCase()}; its hint said ${HINT_WORDS[HINTS.indexOf(h.hint)]})`]);
      }
      if (shade && !st.result) {
        v.robots.forEach((r, i) => {
          if (me() !== null && r.player !== me()) return;
          const n = homeCandidates(v, i).length;
          lines.push([r.player, `${r.id}'s home could be on ${n} tile${n === 1 ? '' : 's'} (shaded)`]);
        });
      }
    } else {
      for (const r of v.robots) {
        if (r.hints && r.hints.length) lines.push([r.player, `${r.id}'s hint${r.hints.length > 1 ? 's' : ''}: its home lay ${r.hints.map((h) => HINT_WORDS[HINTS.indexOf(h)]).join(', then ')} (as it faced when told)`]);
      }
    }
    for (const [p, text] of lines) {
      const li = html('li', '', text, cluesBox);
      li.style.color = ctx.seatColor(p);
    }
    cluesBox.hidden = lines.length === 0;
  }

  /** A line under the board saying what its small marks mean (those drawn only). */
  function drawLegend() {
    const said = Object.entries(LEGEND).filter(([k]) => marks.has(k)).map(([, w]) => w);
    legend.textContent = `Marks: ${said.join(' · ')}.`;
    legend.hidden = !said.length;
  }

  function drawShadeButton() {
    const can = v.homes_hidden && !st.result;
    shadeB.hidden = !can;
    shadeB.textContent = `${shade ? 'Hide' : 'Shade'} where ${me() === null ? 'homes' : 'my homes'} can be${touchInput() ? '' : ' (H)'}`;
    shadeB.classList.toggle('bd-on', shade);
  }

  function redraw(animate) {
    if (canAct()) box.dataset.canAct = '1';
    else delete box.dataset.canAct;
    drawMarks();
    drawLegend();
    drawRobots(animate);
    drawTargets();
    drawActions();
    drawShadeButton();
    drawClues();
    note.textContent = describe();
  }

  // ---- choosing ----------------------------------------------------------

  function send(move) {
    const l = findLegal(st, move);
    if (!l || !canAct()) return false;
    sent = true;
    ctx.play(l.move);
    redraw(false);
    return true;
  }

  function select(id) {
    exchange = false;
    pickA = null;
    selected = id;
    said = '';
    const r = robotById(id);
    if (r) follow(r.at[0], r.at[1]);
    redraw(false);
  }

  function toggleExchange() {
    if (!swaps.size && !exchange) return;
    exchange = !exchange;
    pickA = null;
    said = '';
    redraw(false);
  }

  function toggleShade() {
    shade = !shade;
    redraw(false);
  }

  function say(text) {
    said = text;
    note.textContent = text;
  }

  function clickTile(x, y) {
    if (!v || x < 0 || y < 0 || x >= v.width || y >= v.height || !canAct()) return;
    said = '';
    const k = `${x},${y}`;
    if (exchange) {
      if (pickA === k) pickA = null;
      else if (pickA && swaps.get(pickA)?.has(k)) return void send(swaps.get(pickA).get(k).move);
      else if (swaps.has(k)) pickA = k;
      else say(`${tileName(x, y, v.height)} cannot be exchanged now.`);
      return void redraw(false);
    }
    if (targets.has(k)) return void send(targets.get(k).move);
    const occ = v.occupant[y * v.width + x];
    const r = occ ? v.robots[occ - 1] : null;
    if (r && mine(r)) {
      if (movesOf(r.id).length) return select(r.id);
      return say(`Robot ${r.id} has no move now.`);
    }
    if (r) return say(`Robot ${r.id} is seat ${r.player + 1}'s.`);
    if (selected) say(`Robot ${selected} cannot get to ${tileName(x, y, v.height)} in one move: ${touchInput() ? "tap" : "click"} a lit tile.`);
  }

  // ---- pointer: click, drag to pan, wheel and pinch to zoom ---------------

  const pointers = new Map();
  let drag = null; // {x, y, cx, cy, moved, pinch}

  function toUser(clientX, clientY) {
    const rect = s.getBoundingClientRect();
    return { ox: clientX - rect.left, oy: clientY - rect.top };
  }

  s.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    try { s.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
    if (pointers.size === 1) drag = { x: e.clientX, y: e.clientY, cx: cam.cx, cy: cam.cy, moved: false, pinch: null };
    else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      drag = { ...(drag || {}), moved: true, pinch: { d: Math.hypot(a.x - b.x, a.y - b.y), s: cam.s } };
    }
  });
  s.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId) || !drag) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (drag.pinch && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const { ox, oy } = toUser((a.x + b.x) / 2, (a.y + b.y) / 2);
      zoomBy((drag.pinch.s * d) / Math.max(1, drag.pinch.d) / cam.s, ox, oy);
      return;
    }
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) > 6) drag.moved = true;
    if (drag.moved && !drag.pinch && zoomed()) {
      cam.cx = drag.cx - dx / cam.s;
      cam.cy = drag.cy - dy / cam.s;
      apply();
    }
  });
  const up = (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (pointers.size === 0 && drag) {
      const d = drag;
      drag = null;
      if (!d.moved && e.type === 'pointerup') {
        const { ox, oy } = toUser(e.clientX, e.clientY);
        const ux = cam.cx + (ox - pxW / 2) / cam.s, uy = cam.cy + (oy - pxH / 2) / cam.s;
        clickTile(Math.floor(ux / T), Math.floor(uy / T));
      }
    }
  };
  s.addEventListener('pointerup', up);
  s.addEventListener('pointercancel', up);
  s.addEventListener(
    'wheel',
    (e) => {
      const f = Math.pow(1.0015, -e.deltaY * (e.deltaMode === 1 ? 30 : 1));
      // At the whole board, scrolling down is left to the page.
      if (f < 1 && !zoomed()) return;
      e.preventDefault();
      const { ox, oy } = toUser(e.clientX, e.clientY);
      zoomBy(f, ox, oy);
    },
    { passive: false },
  );

  const resize = new ResizeObserver(() => {
    if (!v) return;
    const wasFit = !zoomed();
    const old = pxW;
    measure();
    if (Math.abs(old - pxW) < 1 && !wasFit) return;
    if (wasFit) cam.s = fitS;
    apply();
  });
  resize.observe(viewBox);

  // ---- the module's interface --------------------------------------------

  function update(state, news) {
    st = state;
    v = state.view;
    sent = false;
    said = '';
    if (!state.result) wonBy = null;
    const won = news && (news.steps || []).find((x) => x.Won);
    if (won) wonBy = won.Won.robot;
    const key = `${v.width}x${v.height}:${JSON.stringify(v.tiles)}`;
    const fresh = !opened;
    if (key !== tilesKey) {
      const dims = !tilesKey || !tilesKey.startsWith(`${v.width}x${v.height}:`);
      tilesKey = key;
      drawTiles();
      if (dims) {
        measure();
        cam.s = fitS;
        cam.cx = (v.width * T) / 2;
        cam.cy = (v.height * T) / 2;
      }
    }
    // The exchanges legal now, by tile, each way round; the rest by robot.
    swaps = new Map();
    byRobot = new Map();
    for (const l of state.legal || []) {
      const id = robotOf(l.move);
      if (id) {
        if (!byRobot.has(id)) byRobot.set(id, []);
        byRobot.get(id).push(l);
      }
      if (!l.move.Exchange) continue;
      const a = l.move.Exchange.a.join(','), b = l.move.Exchange.b.join(',');
      if (!swaps.has(a)) swaps.set(a, new Map());
      if (!swaps.has(b)) swaps.set(b, new Map());
      swaps.get(a).set(b, l);
      swaps.get(b).set(a, l);
    }
    if (!swaps.size) exchange = false;
    if (pickA && !swaps.has(pickA)) pickA = null;
    // Keep the chosen robot while it can move; else the first that can.
    if (!selected || !robotById(selected) || !mine(robotById(selected)) || !movesOf(selected).length) {
      const first = v.robots.find((r) => mine(r) && movesOf(r.id).length);
      selected = first ? first.id : null;
    }
    if (fresh) {
      opened = true;
      measure();
      cam.s = fitS;
      // A board too big to read whole opens zoomed on the seat's robot.
      if (fitS * T < SMALL_TILE_PX) {
        const focus = (selected && robotById(selected)) || v.robots.find(mine) || v.robots.find((r) => r.player === v.to_move) || v.robots[0];
        cam.s = OPEN_TILE_PX / T;
        cam.cx = (focus.at[0] + 0.5) * T;
        cam.cy = (focus.at[1] + 0.5) * T;
      }
    }
    apply();
    redraw(!!news);
    // Follow the robot that just moved, then the seat's own when its turn comes.
    const moved = news && robotOf(news.move) && robotById(robotOf(news.move));
    const r = canAct() && selected ? robotById(selected) : moved;
    if (r) follow(r.at[0], r.at[1]);
  }

  function key(ev) {
    if (!st || typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const k = ev.key;
    if (k === '+' || k === '=') return zoomBy(1.5), true;
    if (k === '-' || k === '_') return zoomBy(1 / 1.5), true;
    if (k === '0') return fit(), true;
    if (ev.shiftKey && k.startsWith('Arrow')) {
      const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[k];
      cam.cx += d[0] * 3 * T;
      cam.cy += d[1] * 3 * T;
      apply();
      return true;
    }
    if ((k === 'h' || k === 'H') && v.homes_hidden && !st.result) return toggleShade(), true;
    if (!canAct()) return false;
    if (k === 'Escape') {
      if (exchange) return toggleExchange(), true;
      return false;
    }
    // A letter naming one of the seat's robots selects it (unless it is the
    // chosen one already: then F, R, P... mean their command).
    if (k.length === 1 && /\p{L}/u.test(k)) {
      const r = v.robots.find((o) => mine(o) && o.id === k.toUpperCase());
      if (r && (r.id !== selected || exchange)) {
        if (!movesOf(r.id).length) return say(`Robot ${r.id} has no move now.`), true;
        return select(r.id), true;
      }
    }
    const r = selected && robotById(selected);
    const lower = k.toLowerCase();
    const tryMove = (move, why) => {
      if (!send(move)) say(why);
      return true;
    };
    if (lower === 'p') return tryMove('Pass', 'Pass only when nothing else is possible.');
    if (lower === 'x') {
      if (!swaps.size) return say('No exchange is possible now.'), true;
      return toggleExchange(), true;
    }
    if (lower === 'n') {
      const own = v.robots.filter((o) => mine(o) && movesOf(o.id).length);
      if (own.length) select(own[(own.findIndex((o) => o.id === selected) + 1) % own.length].id);
      return true;
    }
    if (!r) return false;
    if (r.rule === 'A') {
      const dir = { ArrowUp: 'North', ArrowDown: 'South', ArrowLeft: 'West', ArrowRight: 'East' }[k];
      if (dir) return tryMove({ Step: { robot: r.id, dir } }, `Robot ${r.id} cannot step ${dir.toLowerCase()} now.`);
      if (lower === 'f' || lower === 'r' || /^[1-3]$/.test(k)) return say(`Robot ${r.id} follows rule A: it steps with the arrow keys.`), true;
      return false;
    }
    let steps = 0, quarters = 0;
    if (/^[1-3]$/.test(k)) steps = +k;
    else if (lower === 'f' || k === 'ArrowUp') steps = 1;
    else if (k === 'ArrowLeft' || k === 'r') quarters = 1;
    else if (k === 'ArrowDown') quarters = 2;
    else if (k === 'ArrowRight' || k === 'R') quarters = 3;
    if (steps) return tryMove({ Forward: { robot: r.id, steps } }, `Robot ${r.id} cannot walk ${steps} ahead now.`);
    if (quarters) return tryMove({ Rotate: { robot: r.id, quarters } }, `Robot ${r.id} cannot ${TURNS[quarters]} now.`);
    return false;
  }

  function unmount() {
    resize.disconnect();
    box.remove();
  }

  return { update, key, unmount };
}
