// Nim's board: a row of stones per pile, as the window draws it. A click
// on a stone takes it and every stone to its right; hovering shows what
// would go (on a touch screen a first tap does, a second takes). Keys: a
// digit chooses a pile, then a digit takes that many (or arrows choose,
// Enter takes, Esc lets go).

import { el, touchInput, findLegal, boardParts, pointing, newsFor, isNarrow, onNarrow } from './board-kit.js';

const STONE = 'rgb(219, 214, 199)';
const STONE_HOVER = 'rgb(255, 237, 158)';
const STONE_CHOSEN = 'rgb(242, 115, 77)';
const ROW = 'rgb(43, 51, 46)';
const ROW_CURSOR = 'rgb(61, 77, 66)';
const LABEL = 'rgb(217, 224, 217)';
const DIM = 'rgb(140, 153, 145)';

const W = 1000;
const LEFT = 170; // "Pile 1"
const RIGHT = 90; // the count
const GAP = 14;

/** The piles the level starts with, read from its text (they fix the layout). */
function startPiles(level) {
  const m = /piles\s*:\s*\[([^\]]*)\]/.exec((level && level.text) || '');
  if (!m) return null;
  const piles = m[1].split(',').map((x) => parseInt(x, 10)).filter((n) => Number.isFinite(n) && n >= 0);
  return piles.length ? piles : null;
}

export function mount(root, ctx) {
  const { note: ending, svg, caption } = boardParts(root);

  /** @type {any} */
  let state = null;
  let news = null;
  let sel = null; // {pile, count}: chosen by keys
  let stones = []; // stones[pile][i]: the circle elements
  let rows = [];

  const legalOf = (pile, count) => (state ? findLegal(state, { pile, count }) : null);
  // The stones ({pile, count}) under the mouse, or tapped once on a touch
  // screen, which a second tap takes.
  const pick = pointing({
    legal: (k) => legalOf(k.pile, k.count),
    same: (a, b) => a.pile === b.pile && a.count === b.count,
    paint,
    chose: () => (sel = null),
    play: (l) => ctx.play(l.move),
  });
  const piles = () => (state && state.view && state.view.piles) || [];

  function draw() {
    const view = state.view;
    const now = view.piles;
    const start = startPiles(state.level) || now;
    const size = now.map((n, i) => Math.max(n, start[i] || 0));
    const most = Math.max(1, ...size);
    // Long piles wrap: fewer stones a line on a phone, so they stay big enough to hit.
    const perLine = Math.min(most, isNarrow() ? 15 : 30);
    const pitch = Math.min(90, (W - LEFT - RIGHT - 20) / perLine);
    const r = pitch * 0.42;
    svg.replaceChildren();
    const defs = el('defs');
    const grad = el('radialGradient', { id: 'nim-shine', cx: '35%', cy: '30%', r: '70%' });
    grad.append(el('stop', { offset: '0%', 'stop-color': '#fff', 'stop-opacity': '0.55' }), el('stop', { offset: '60%', 'stop-color': '#fff', 'stop-opacity': '0' }));
    defs.append(grad);
    svg.append(defs);
    stones = [];
    rows = [];
    let y = 0;
    const lastPile = news && news.move && typeof news.move.pile === 'number' ? news.move.pile : null;
    now.forEach((left, p) => {
      const lines = Math.max(1, Math.ceil(size[p] / perLine));
      const h = lines * pitch + 16;
      const g = el('g', { class: 'pile' });
      const bg = el('rect', { x: 0, y, width: W, height: h, rx: 6, fill: ROW });
      if (lastPile === p) {
        bg.setAttribute('stroke', ctx.seatColor(news.seat - 1));
        bg.setAttribute('stroke-width', 4);
      }
      rows.push(bg);
      g.append(bg);
      const fs = Math.min(40, 16 + pitch * 0.3);
      g.append(el('text', { x: 24, y: y + Math.min(h / 2, pitch / 2 + 8) + fs * 0.35, fill: LABEL, 'font-size': fs }, `Pile ${p + 1}`));
      g.append(el('text', { x: W - 24, y: y + Math.min(h / 2, pitch / 2 + 8) + fs * 0.35, fill: left ? LABEL : DIM, 'font-size': fs * 1.1, 'text-anchor': 'end' }, String(left)));
      const row = [];
      for (let i = 0; i < size[p]; i++) {
        const cx = LEFT + 10 + (i % perLine) * pitch + pitch / 2;
        const cy = y + 8 + Math.floor(i / perLine) * pitch + pitch / 2;
        if (i >= left) {
          // A stone taken: a faint place, ringed in the mover's colour if
          // the last move took it.
          const took = news && lastPile === p && i < left + news.move.count;
          g.append(el('circle', { cx, cy, r: r * 0.9, fill: 'none', stroke: took ? ctx.seatColor(news.seat - 1) : 'rgb(70, 82, 76)', 'stroke-width': took ? 3 : 2, 'stroke-dasharray': took ? '' : '4 4' }));
          continue;
        }
        const c = el('circle', { cx, cy, r, class: 'stone', 'data-pile': p, 'data-index': i, fill: STONE });
        const shine = el('circle', { cx, cy, r, fill: 'url(#nim-shine)', 'pointer-events': 'none' });
        const count = left - i;
        pick.wire(c, { pile: p, count }); // a first tap shows, the second takes
        row.push(c);
        g.append(c, shine);
      }
      stones.push(row);
      svg.append(g);
      y += h + GAP;
    });
    const height = Math.max(1, y - GAP);
    svg.setAttribute('viewBox', `0 0 ${W} ${height}`);
    svg.setAttribute('aria-label', `Piles: ${now.join(', ')}`);
    ending.textContent = view.ending === 'Misere' ? 'Misère: whoever takes the last stone loses.' : 'Normal play: whoever takes the last stone wins.';
    paint();
  }

  /** Colours the stones chosen (keys) or hovered, and says what they are. */
  function paint() {
    const mine = state && state.legal.length > 0;
    const { hover, armed } = pick;
    const show = hover || armed || sel;
    stones.forEach((row, p) => {
      const left = piles()[p];
      row.forEach((c, i) => {
        let fill = STONE;
        if (show && show.pile === p && i >= left - show.count) fill = sel && !hover && !armed ? STONE_CHOSEN : STONE_HOVER;
        c.setAttribute('fill', fill);
        c.classList.toggle('playable', mine);
      });
    });
    rows.forEach((r, p) => r.setAttribute('fill', sel && sel.pile === p ? ROW_CURSOR : ROW));
    if (!mine) caption.textContent = '';
    else if (hover) caption.textContent = `Click to ${legalOf(hover.pile, hover.count).says}.`;
    else if (armed) caption.textContent = `Tap it again to ${legalOf(armed.pile, armed.count).says}; tap another stone to change.`;
    else if (sel) {
      const l = legalOf(sel.pile, sel.count);
      caption.textContent = `Pile ${sel.pile + 1}: ${l ? l.says : ''}. A digit takes that many, ←/→ change it, Enter takes, Esc lets go.`;
    } else if (touchInput()) caption.textContent = 'Tap a stone to see what goes (it and every stone to its right); tap it again to take them.';
    else caption.textContent = 'Click a stone: it goes with every stone to its right. Keys: a pile\'s digit, then how many.';
  }

  function choosePile(p) {
    if (p < 0 || p >= piles().length || !piles()[p]) return false;
    sel = { pile: p, count: sel && sel.pile === p ? Math.min(sel.count, piles()[p]) : 1 };
    return true;
  }

  function key(e) {
    if (!state || !state.legal.length) return false;
    const k = e.key;
    if (/^[0-9]$/.test(k)) {
      const d = Number(k);
      if (!sel) {
        if (d === 0) return false;
        pick.armed = null;
        if (choosePile(d - 1)) paint();
        return true;
      }
      const l = d > 0 ? legalOf(sel.pile, d) : null;
      if (l) {
        sel = null;
        ctx.play(l.move);
      } else {
        caption.textContent = `Pile ${sel.pile + 1} holds ${piles()[sel.pile]}: take 1 to ${piles()[sel.pile]}.`;
      }
      return true;
    }
    const n = piles().length;
    if (k === 'ArrowDown' || k === 'ArrowUp') {
      let p = sel ? sel.pile : k === 'ArrowDown' ? -1 : n;
      for (let i = 0; i < n; i++) {
        p = (p + (k === 'ArrowDown' ? 1 : -1) + n) % n;
        if (piles()[p]) break;
      }
      choosePile(p);
      paint();
      return true;
    }
    if (!sel) return false;
    if (k === 'ArrowLeft' || k === 'ArrowRight') {
      const most = piles()[sel.pile];
      sel.count = Math.max(1, Math.min(most, sel.count + (k === 'ArrowRight' ? 1 : -1)));
      paint();
      return true;
    }
    if (k === 'Enter' || k === ' ') {
      const l = legalOf(sel.pile, sel.count);
      if (l) {
        sel = null;
        ctx.play(l.move);
      }
      return true;
    }
    if (k === 'Escape') {
      sel = null;
      paint();
      return true;
    }
    return false;
  }

  const stopNarrow = onNarrow(() => state && draw());

  return {
    update(s, n) {
      state = s;
      // The last move's news stays drawn until the position changes.
      news = newsFor(news, s, n);
      pick.update(s.ply);
      if (sel && !(s.legal.length && s.view.piles[sel.pile])) sel = null;
      if (sel) sel.count = Math.min(sel.count, s.view.piles[sel.pile]);
      draw();
    },
    key,
    unmount() {
      stopNarrow();
      root.replaceChildren();
    },
  };
}
