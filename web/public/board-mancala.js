// Mancala / Kalah's board: two rows of pits and two stores, your row at
// the bottom (seat 1's for a spectator), sown counter-clockwise as the
// window draws it. Hovering one of your pits shows where its last stone
// lands and what that does (on a touch screen a first tap does); a click
// sows it. Keys: digits 1..pits sow that pit of your row; ←/→ and Enter too.

import { el, touchInput, fitText, findLegal, boardParts, pointing, newsFor, isNarrow, onNarrow } from './board-kit.js';

const BOARD = 'rgb(107, 69, 38)';
const CELL = 'rgb(217, 184, 140)';
const CELL_HOVER = 'rgb(255, 230, 166)';
const CELL_TARGET = 'rgb(140, 242, 153)';
const LABEL = 'rgb(242, 235, 217)';
const INK = 'rgb(70, 45, 25)';
const STONES = ['rgb(237, 97, 84)', 'rgb(84, 158, 237)', 'rgb(250, 204, 77)', 'rgb(107, 204, 115)', 'rgb(199, 128, 235)', 'rgb(242, 242, 235)'];
const P = 100; // a pit's room
const S = 130; // a store's column: room for "Name's store" under it
const MOST_DRAWN = 24; // stones drawn in a pit; the count says the rest

/**
 * Where a sowing from `side`'s pit `pit` ends, and what follows
 * (docs/rules/mancala.md): the last cell, another turn, the stones
 * captured, whether the game ends, and the cells after it (before any
 * end-of-game sweep).
 */
export function sow(view, side, pit) {
  const n = view.pits;
  const size = 2 * n + 2;
  const c = view.cells.slice(0, size);
  const from = side * (n + 1) + pit;
  const own = side === 0 ? n : 2 * n + 1;
  const theirs = side === 0 ? 2 * n + 1 : n;
  let seeds = c[from];
  c[from] = 0;
  let pos = from;
  while (seeds > 0) {
    pos = (pos + 1) % size;
    if (pos === theirs) continue; // the opponent's store is skipped
    c[pos] += 1;
    seeds -= 1;
  }
  const mine = (cell) => (side === 0 ? cell < n : cell > n && cell < 2 * n + 1);
  let again = pos === own;
  let captured = 0;
  if (mine(pos) && c[pos] === 1) {
    const opposite = 2 * n - pos;
    if ((view.capture === 'Standard' && c[opposite] > 0) || view.capture === 'Empty') {
      captured = c[opposite] + 1;
      c[own] += captured;
      c[pos] = 0;
      c[opposite] = 0;
    }
  }
  const row = (s) => c.slice(s * (n + 1), s * (n + 1) + n).reduce((a, b) => a + b, 0);
  const ends = row(0) === 0 || row(1) === 0;
  if (ends) again = false;
  return { last: pos, again, captured, ends, from, cells: c };
}

function cellName(n, cell) {
  if (cell < n) return `A${cell + 1}`;
  if (cell === n) return 'store A';
  if (cell < 2 * n + 1) return `B${cell - n}`;
  return 'store B';
}

export function mount(root, ctx) {
  const { note, svg, caption } = boardParts(root);

  let state = null;
  let news = null;
  let cursor = null; // a cell chosen by the arrow keys
  let pits = new Map(); // cell -> its circle

  const mySide = () => (state && state.seat === 2 ? 1 : 0);
  const legalFor = (cell) => {
    if (!state || !state.legal.length) return null;
    const n = state.view.pits;
    const side = cell <= n ? 0 : 1;
    const pit = side === 0 ? cell : cell - n - 1;
    return findLegal(state, { side, pit });
  };
  // The pit under the mouse (of the mover's row), or one tapped once on a
  // touch screen, which a second tap sows.
  const pick = pointing({
    legal: legalFor,
    paint,
    chose: () => (cursor = null),
    play: (l) => ctx.play(l.move),
  });
  const whose = (side) => {
    const s = state.seats && state.seats.find((x) => x.seat === side + 1);
    if (state.seat === side + 1) return 'You';
    if (!s) return `Player ${side + 1}`;
    const name = s.name || (s.taken ? `Player ${side + 1}` : 'Open seat');
    // The board has room for a short name; the panel says it whole.
    return name.length > 16 ? `${name.slice(0, 15)}…` : name;
  };

  function draw() {
    const view = state.view;
    const n = view.pits;
    const bottom = mySide();
    const top = 1 - bottom;
    // On a phone the board is a third of its size: bigger words keep it readable.
    const k = isNarrow() ? 1.45 : 1;
    const nameF = 34 * k;
    const fs = 40 * k;
    const W = n * P + 2 * S;
    const topNameY = nameF;
    const boardY = topNameY + fs + 22;
    const boardH = 2 * P + 24;
    const bottomNameY = boardY + boardH + fs + nameF + 10;
    const H = bottomNameY + 12;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const defs = el('defs');
    const well = el('radialGradient', { id: 'mancala-well', cx: '50%', cy: '45%', r: '55%' });
    well.append(el('stop', { offset: '0%', 'stop-color': '#000', 'stop-opacity': '0.28' }), el('stop', { offset: '75%', 'stop-color': '#000', 'stop-opacity': '0.05' }), el('stop', { offset: '100%', 'stop-color': '#000', 'stop-opacity': '0' }));
    defs.append(well);
    svg.append(defs, el('rect', { x: 0, y: boardY, width: W, height: boardH, rx: 14, fill: BOARD }));
    pits = new Map();
    const lastFrom = news && news.move && typeof news.move.side === 'number' ? news.move.side * (n + 1) + news.move.pit : null;

    // Where each cell sits: the bottom row left to right in sowing order,
    // its store at the right; the top row right to left, its store left.
    const place = (cell) => {
      const side = cell <= n ? 0 : 1;
      const i = side === 0 ? cell : cell - n - 1; // 0..n, n = store
      if (i === n) return side === bottom ? { x: W - S / 2, y: boardY + boardH / 2, store: true } : { x: S / 2, y: boardY + boardH / 2, store: true };
      if (side === bottom) return { x: S + i * P + P / 2, y: boardY + 12 + P * 1.5, row: 'bottom' };
      return { x: W - S - i * P - P / 2, y: boardY + 12 + P / 2, row: 'top' };
    };

    for (let cell = 0; cell < 2 * n + 2; cell++) {
      const at = place(cell);
      const count = view.cells[cell];
      const g = el('g', { class: 'cell', 'data-cell': cell });
      svg.append(g); // first: its words are measured as they go in
      let shape;
      if (at.store) {
        const side = cell === n ? 0 : 1;
        shape = el('ellipse', { cx: at.x, cy: at.y, rx: S * 0.36, ry: P * 0.98, fill: CELL, stroke: ctx.seatColor(side), 'stroke-width': 4 });
        // Whose store, under the board where the pits' counts leave room.
        // Whose store, in its column: "your store", or a name (cut to fit)
        // over "store"; on a phone "yours" or "store".
        const owner = whose(side);
        const attrs = { x: at.x, y: boardY + boardH + 20 * k + 4, fill: ctx.seatColor(side), 'font-size': 18 * k, 'text-anchor': 'middle', 'pointer-events': 'none' };
        const t = el('text', attrs, owner === 'You' ? (k > 1 ? 'yours' : 'your store') : 'store');
        g.append(t);
        if (owner !== 'You' && k === 1) {
          g.append(el('text', { ...attrs, y: attrs.y + 20 }, 'store'));
          fitText(t, owner, S - 10, "'s");
        }
        g.append(shape, el('ellipse', { cx: at.x, cy: at.y, rx: S * 0.36, ry: P * 0.98, fill: 'url(#mancala-well)', 'pointer-events': 'none' }));
      } else {
        shape = el('circle', { cx: at.x, cy: at.y, r: P * 0.42, fill: CELL, class: 'pit', 'data-cell': cell });
        g.append(shape, el('circle', { cx: at.x, cy: at.y, r: P * 0.42, fill: 'url(#mancala-well)', 'pointer-events': 'none' }));
      }
      if (cell === lastFrom) {
        g.append(el('circle', { cx: at.x, cy: at.y, r: P * 0.455, fill: 'none', stroke: ctx.seatColor(news.seat - 1), 'stroke-width': 4, 'pointer-events': 'none' }));
      }
      // The stones, spread from the middle (a sunflower's pattern).
      const drawn = Math.min(count, at.store ? MOST_DRAWN * 2 : MOST_DRAWN);
      const spread = at.store ? P * 0.28 : P * 0.3;
      for (let s = 0; s < drawn; s++) {
        const a = s * 2.39996;
        const d = Math.sqrt((s + 0.5) / Math.max(drawn, 6)) * spread;
        const sx = at.x + Math.cos(a) * d;
        const sy = at.y + Math.sin(a) * d * (at.store ? 2.4 : 1);
        g.append(el('circle', { cx: sx, cy: sy, r: P * 0.075, fill: STONES[(cell * 7 + s * 5) % STONES.length], stroke: 'rgba(0,0,0,0.35)', 'stroke-width': 1.5, 'pointer-events': 'none' }));
      }
      // The count, outside the board where stones never hide it.
      const ty = at.store || at.row === 'top' ? boardY - 12 : boardY + boardH + fs;
      g.append(el('text', { x: at.x, y: ty, fill: LABEL, 'font-size': fs, 'text-anchor': 'middle', 'pointer-events': 'none' }, String(count)));
      if (!at.store) {
        const lf = k > 1 ? 21 : 17;
        const ly = at.row === 'top' ? at.y - P * 0.42 - 2 : at.y + P * 0.42 + lf;
        g.append(el('text', { x: at.x, y: ly, fill: LABEL, 'font-size': lf, 'text-anchor': 'middle', 'pointer-events': 'none', opacity: 0.8 }, cellName(n, cell)));
      }
      pits.set(cell, shape);
      if (!at.store) pick.wire(shape, cell); // a first tap shows, the second sows
    }
    // Who owns which row and store.
    const nameY = [topNameY, bottomNameY];
    for (const [side, y, anchorX] of [[top, nameY[0], W * 0.3], [bottom, nameY[1], W * 0.7]]) {
      const t = el('text', { x: anchorX, y, fill: ctx.seatColor(side), 'font-size': nameF, 'text-anchor': 'middle' }, `${whose(side)} (row ${side === 0 ? 'A' : 'B'})`);
      svg.append(t);
    }
    svg.setAttribute('aria-label', `Row A: ${view.cells.slice(0, n).join(', ')}; store A ${view.cells[n]}. Row B: ${view.cells.slice(n + 1, 2 * n + 1).join(', ')}; store B ${view.cells[2 * n + 1]}.`);
    const rules = [];
    rules.push('last stone in your store: play again');
    if (view.capture === 'Standard') rules.push('captures when the opposite pit has stones');
    else if (view.capture === 'Empty') rules.push('a last stone in your empty pit captures');
    if (view.sweep) rules.push("stones left at the end go to their side's store");
    note.textContent = rules.join(' · ');
    paint();
  }

  function paint() {
    if (!state) return;
    const view = state.view;
    const n = view.pits;
    const chosen = pick.hover ?? pick.armed ?? cursor;
    const out = chosen != null ? sow(view, chosen <= n ? 0 : 1, chosen <= n ? chosen : chosen - n - 1) : null;
    for (const [cell, shape] of pits) {
      let fill = CELL;
      if (out && cell === chosen) fill = CELL_HOVER;
      if (out && cell === out.last) fill = CELL_TARGET;
      if (out && out.captured && cell === 2 * n - out.last) fill = 'rgb(240, 150, 120)';
      shape.setAttribute('fill', fill);
      shape.classList.toggle('playable', !!legalFor(cell));
    }
    if (!state.legal.length) {
      caption.textContent = state.result ? endWords() : '';
      return;
    }
    if (!out) {
      caption.textContent = touchInput()
        ? 'Tap a pit to see where its last stone lands; tap it again to sow.'
        : 'Hover one of your pits to see where its last stone lands; click to sow. Keys: 1 to ' + n + ' sow that pit of your row.';
      return;
    }
    const count = view.cells[chosen];
    let words = `Sow ${cellName(n, chosen)} (${count} stone${count === 1 ? '' : 's'}): the last lands in `;
    const own = mySideOf(chosen, n) === 0 ? n : 2 * n + 1;
    words += out.last === own ? 'your store' : cellName(n, out.last);
    if (out.captured) words += ` and captures ${out.captured} stone${out.captured === 1 ? '' : 's'}`;
    if (out.ends) words += ', and the game ends';
    else if (out.again) words += ': you play again';
    caption.textContent = chosen === pick.armed && pick.hover == null ? `${words}. Tap ${cellName(n, chosen)} again to sow.` : `${words}.`;
  }

  /** The end: where the last move's sweep put the stones left, if it moved any (the result is the page's). */
  function endWords() {
    const swept = (news && news.ply === state.ply && news.steps) || [];
    const moved = swept.map((x) => x.Moved).filter((m) => m && m.why === 'Sweep');
    if (!moved.length) return '';
    const stones = moved.reduce((a, m) => a + m.stones, 0);
    const side = moved[0].to === state.view.pits ? 0 : 1;
    const owner = whose(side);
    return `The game is over: the ${stones} stone${stones === 1 ? '' : 's'} left in row ${'AB'[side]} went to ${owner === 'You' ? 'your' : `${owner}'s`} store.`;
  }

  const mySideOf = (cell, n) => (cell <= n ? 0 : 1);

  /** The legal pits of your row, left to right on screen. */
  function playable() {
    const n = state.view.pits;
    const side = mySide();
    const out = [];
    for (let pit = 0; pit < n; pit++) {
      const cell = side * (n + 1) + pit;
      if (legalFor(cell)) out.push(cell);
    }
    return out;
  }

  function key(e) {
    if (!state || !state.legal.length) return false;
    const n = state.view.pits;
    const side = mySide();
    if (/^[1-9]$/.test(e.key)) {
      const pit = Number(e.key) - 1;
      if (pit >= n) return false;
      const l = legalFor(side * (n + 1) + pit);
      if (l) {
        cursor = null;
        ctx.play(l.move);
      } else {
        caption.textContent = `Pit ${side === 0 ? 'A' : 'B'}${pit + 1} cannot be sown: it is empty.`;
      }
      return true;
    }
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const list = playable();
      if (!list.length) return true;
      const at = list.indexOf(cursor);
      const step = e.key === 'ArrowRight' ? 1 : -1;
      cursor = at < 0 ? (step > 0 ? list[0] : list[list.length - 1]) : list[(at + step + list.length) % list.length];
      paint();
      return true;
    }
    if ((e.key === 'Enter' || e.key === ' ') && cursor != null) {
      const l = legalFor(cursor);
      if (l) {
        cursor = null;
        ctx.play(l.move);
      }
      return true;
    }
    if (e.key === 'Escape' && cursor != null) {
      cursor = null;
      paint();
      return true;
    }
    return false;
  }

  const stopNarrow = onNarrow(() => state && draw());

  return {
    update(s, n) {
      state = s;
      news = newsFor(news, s, n);
      pick.update(s.ply);
      if (cursor != null && !legalFor(cursor)) cursor = null;
      draw();
    },
    key,
    unmount() {
      stopNarrow();
      root.replaceChildren();
    },
  };
}
