// Russian Bank's table from the seat's view: both sides' reserve, hand,
// turned card and waste (the seat's own at the bottom), the tableau T1-T8
// (each pile on a band of its own, its name at the band's outer end, its
// top card nearest the middle) and foundations F1-F8 between them, on a
// panel of their own. Cards move by drag and drop (pointer
// events: mouse, pen and touch alike), by click-then-click, or by keys;
// the buttons turn the hand, end the turn, accept, and a big Stop! calls a
// breach. Only moves found in state.legal are ever sent.

import { svg, svgText, html, button, findLegal, clear, linkStyles, typing, touchInput, fitText } from './board-kit.js';
import { CW, CH, drawCard, cardName } from './cards.js';

const PAD = 6;
const FAN = 20; // the most a tableau card shows of the one under it
const BAND = CW + 70; // a tableau pile's cards: the top one and the fan beyond it
const LBL = 20; // a tableau pile's name, at its band's outer end
const GAP = 10; // between a tableau pile's top card and the foundations' panel
const FP = 5; // the foundations' panel's margin
const G = 8;
const X_LBAND = PAD + LBL; // the left piles' cards
const X_LTOP = X_LBAND + BAND - CW; // their top cards
const X_PANEL = X_LBAND + BAND + GAP;
const X_F1 = X_PANEL + FP;
const X_F2 = X_F1 + CW + G;
const X_RBAND = X_F2 + CW + FP + GAP; // the right piles' top cards, their fans beyond
const VW = X_RBAND + BAND + LBL + PAD;
const TOP_Y = 6;
const ROW0 = 110;
const PITCH = CH + 10;
const BOTTOM_Y = ROW0 + 3 * PITCH + CH + 24;
const VH = BOTTOM_Y + CH + 6;
const NAME_ROOM = X_LTOP - PAD - 8; // a name beside its side's row of piles

const FELT = 'rgb(23,84,51)';
const LABEL = 'rgb(224,237,224)';
const SLOT = 'rgba(217,255,224,0.55)';
const LIT = 'rgb(120,255,140)';
const CHOSEN = 'rgb(255,242,153)';

const RULE_WORDS = {
  ReserveToFoundation: "the reserve's top card could go up to a foundation, and that comes before anything else",
  ToFoundation: 'a card could go up to a foundation, and that comes before any other move',
  ReserveBeforeHand: 'the reserve card had a move, and the reserve comes before the hand',
};

/** A pile of the move notation, as the absolute key this board uses. */
function fromKey(from, m) {
  if (from === 'Reserve') return 'R' + m;
  if (from === 'Hand') return 'S' + m;
  if (from && from.Tableau) return 'T' + from.Tableau;
  return null;
}
function toKey(to, m) {
  if (to === 'Waste') return 'W' + m;
  if (to === 'OpponentReserve') return 'R' + (1 - m);
  if (to === 'OpponentWaste') return 'W' + (1 - m);
  if (to && to.Tableau) return 'T' + to.Tableau;
  if (to && to.Foundation) return 'F' + to.Foundation;
  return null;
}
/** A pile named in a step (sides from 0, piles from 1). */
function stepKey(p) {
  if (!p || typeof p !== 'object') return null;
  const [k, n] = Object.entries(p)[0];
  return { Reserve: 'R', Shown: 'S', Waste: 'W', Hand: 'H', Tableau: 'T', Foundation: 'F' }[k] + n;
}

/** People's names for piles, from the seat's side. */
function pileWords(key, m) {
  const side = key[0], n = +key.slice(1);
  if (side === 'T') return 'T' + n;
  if (side === 'F') return 'F' + n;
  const whose = n === m ? 'your' : 'their';
  return `${whose} ${{ R: 'reserve', S: 'turned card', W: 'waste', H: 'hand' }[side]}`;
}

/**
 * @param {HTMLElement} root
 * @param {{play: (move: any) => void, seatColor: (i: number) => string}} ctx
 */
export function mount(root, ctx) {
  linkStyles();
  const box = html('div', 'bd bd-bank', undefined, root);
  const alert = html('div', 'bk-alert', undefined, box);
  const view = html('div', 'bk-view', undefined, box);
  const s = svg('svg', { class: 'bk-svg', viewBox: `0 0 ${VW} ${VH}`, role: 'img', 'aria-label': 'Russian Bank table' }, view);
  const gTable = svg('g', {}, s);
  const gLit = svg('g', { 'pointer-events': 'none' }, s);
  const gDrag = svg('g', { 'pointer-events': 'none' }, s);
  const actions = html('div', 'bd-actions', undefined, box);
  const note = html('p', 'bd-note', '', box);
  note.setAttribute('aria-live', 'polite');

  /** @type {any} */ let st = null;
  /** @type {any} */ let v = null;
  let m = 0; // the seat's side (from 0); side 0 for a spectator
  let sent = false;
  let picked = null; // a source pile key
  let cursor = -1; // keyboard: index into the sources (or the picked card's targets)
  let said = '';
  /** @type {Map<string, {x: number, y: number, w: number, h: number, top: any, cardX: number, cardY: number}>} */
  let piles = new Map();
  /** @type {Map<string, Map<string, any>>} source -> target -> legal entry */
  let plays = new Map();
  let last = null; // {from, to} of the last card moved, to show it
  let lastPly = 0;
  let drag = null;

  const canAct = () => !!st && !!st.seat && !st.result && (st.legal || []).length > 0 && !sent;
  const nameOf = (side) => {
    const seat = (st.seats || []).find((x) => x.seat === side + 1);
    return (seat && seat.name) || `Player ${side + 1}`;
  };

  // ---- where things are ---------------------------------------------------

  /** The tableau slot of pile n (1-8): seat 1's T1 bottom left, T5 top right. */
  function tableauSlot(n) {
    const i = m === 0 ? n - 1 : (n + 3) % 8; // the seat's own T1 nearest it
    const left = i < 4;
    const row = left ? 3 - i : i - 4;
    return { left, y: ROW0 + row * PITCH };
  }
  function foundationSlot(n) {
    const i = m === 0 ? n - 1 : 8 - n;
    return { x: i < 4 ? X_F1 : X_F2, y: ROW0 + (i % 4) * PITCH };
  }
  /** Side slots: the seat's own along the bottom, the other's mirrored on top. */
  function sideSlot(kind, side) {
    const xs = { R: X_LTOP, H: X_F1, S: X_F2, W: X_RBAND };
    const bottom = side === m;
    const x = bottom ? xs[kind] : VW - xs[kind] - CW;
    return { x, y: bottom ? BOTTOM_Y : TOP_Y, bottom };
  }

  // ---- drawing ------------------------------------------------------------

  function label(text, x, y, anchor = 'middle', size = 12) {
    return svgText(text, { x, y, 'font-size': size, 'text-anchor': anchor, fill: LABEL }, gTable);
  }

  function emptySlot(x, y, text, key) {
    const r = svg('rect', { x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, rx: 5, fill: 'rgba(255,255,255,0.06)', stroke: SLOT, 'stroke-width': 1.5, 'stroke-dasharray': '5 4' }, gTable);
    r.dataset.pile = key;
    if (text) label(text, x + CW / 2, y + CH / 2 + 4, 'middle', 11);
  }

  function cardAt(code, x, y, deck, key) {
    const g = drawCard(gTable, code, x, y, deck);
    if (key) g.dataset.pile = key;
    return g;
  }

  function draw() {
    clear(gTable);
    piles = new Map();
    svg('rect', { width: VW, height: VH, rx: 10, fill: FELT }, gTable);
    // The foundations' panel.
    svg('rect', { x: X_PANEL, y: ROW0 - FP, width: X_F2 + CW + FP - X_PANEL, height: 3 * PITCH + CH + 2 * FP, rx: 8, fill: 'rgba(0,0,0,0.18)', stroke: 'rgba(217,255,224,0.25)', 'stroke-width': 1 }, gTable);
    // Tableau: each pile on a band, its name at the band's outer end, its
    // top card nearest the middle, the cards under it fanned outward and
    // shaded, the top card's shadow falling on them.
    for (let n = 1; n <= 8; n++) {
      const { left, y } = tableauSlot(n);
      const pile = v.tableau[n - 1] || [];
      const bandX = left ? PAD : X_RBAND;
      const topX = left ? X_LTOP : X_RBAND;
      svg('rect', { x: bandX - 2, y: y - 3, width: LBL + BAND + 4, height: CH + 6, rx: 7, fill: 'rgba(0,0,0,0.16)' }, gTable);
      svgText(`T${n}`, { x: left ? PAD + LBL / 2 : X_RBAND + BAND + LBL / 2, y: y + CH / 2 + 4, 'font-size': 13, 'font-weight': 700, 'text-anchor': 'middle', fill: LABEL }, gTable);
      if (!pile.length) emptySlot(topX, y, null, `T${n}`);
      const fan = pile.length > 1 ? Math.min(FAN, (BAND - CW) / (pile.length - 1)) : 0;
      pile.forEach((c, k) => {
        const off = (pile.length - 1 - k) * fan;
        const x = left ? topX - off : topX + off;
        const onTop = k === pile.length - 1;
        if (onTop && pile.length > 1) {
          svg('rect', { x: x + (left ? -2.5 : 2.5), y: y + 1.5, width: CW, height: CH, rx: 5, fill: 'rgba(0,0,0,0.5)' }, gTable);
        }
        const g = cardAt(c, x, y, 0, onTop ? `T${n}` : null);
        if (!onTop) svg('rect', { width: CW, height: CH, rx: 5, fill: 'rgba(20,40,30,0.28)' }, g);
      });
      piles.set(`T${n}`, { x: bandX, y, w: LBL + BAND, h: CH, top: pile[pile.length - 1] || null, cardX: topX, cardY: y });
    }
    // Foundations, each named inside its slot (under its card's suit when one is there).
    for (let n = 1; n <= 8; n++) {
      const { x, y } = foundationSlot(n);
      const top = v.foundations[n - 1];
      if (top) {
        cardAt(top, x, y, 0, `F${n}`);
        svg('rect', { x: x + CW / 2 - 11, y: y + CH - 14, width: 22, height: 12, rx: 3, fill: 'rgba(23,84,51,0.9)', 'pointer-events': 'none' }, gTable);
        svgText(`F${n}`, { x: x + CW / 2, y: y + CH - 4.5, 'font-size': 9.5, 'font-weight': 700, 'text-anchor': 'middle', fill: LABEL, 'pointer-events': 'none' }, gTable);
      } else emptySlot(x, y, `F${n}`, `F${n}`);
      piles.set(`F${n}`, { x, y, w: CW, h: CH, top, cardX: x, cardY: y });
    }
    // Each side's reserve, hand, turned card and waste.
    for (const side of [0, 1]) {
      const sd = v.sides[side];
      const parts = [
        ['R', sd.reserve, `Reserve ${sd.reserve.length}`],
        ['H', sd.hand, `Hand ${sd.hand.length}`],
        ['S', sd.shown ? [sd.shown] : [], 'Turned'],
        ['W', sd.waste, `Waste ${sd.waste.length}`],
      ];
      for (const [kind, list, words] of parts) {
        const { x, y, bottom } = sideSlot(kind, side);
        const top = list.length ? list[list.length - 1] : null;
        if (!list.length) emptySlot(x, y, null, `${kind}${side}`);
        else if (kind === 'H') {
          // A hand lies face down, even where its top card is known.
          if (list.length > 1) drawCard(gTable, null, x + 3, y - 3, side);
          cardAt(null, x, y, side, `H${side}`);
          if (top) {
            svg('rect', { x: x + 8, y: y + CH / 2 - 12, width: CW - 16, height: 22, rx: 4, fill: 'rgb(252,252,248)' }, gTable);
            svgText(cardName(top), { x: x + CW / 2, y: y + CH / 2 + 4, 'font-size': 14, 'font-weight': 700, 'text-anchor': 'middle', fill: /[HD]/.test(top[1]) ? 'rgb(199,20,26)' : 'rgb(20,20,26)' }, gTable);
          }
        } else {
          if (list.length > 1) drawCard(gTable, list[list.length - 2], x + 2, y - 2, side);
          cardAt(top, x, y, side, `${kind}${side}`);
        }
        label(words, x + CW / 2, bottom ? y - 7 : y + CH + 14);
        piles.set(`${kind}${side}`, { x, y, w: CW, h: CH, top, cardX: x, cardY: y });
      }
      // The side's name and whether it moves.
      const bottom = side === m;
      const nx = bottom ? VW - PAD - 2 : PAD + 2;
      const ny = bottom ? BOTTOM_Y + 30 : TOP_Y + 30;
      const name = nameOf(side);
      // Cut to fit beside its row (the panel says it whole).
      const t = svgText('', { x: nx, y: ny, 'font-size': 15, 'font-weight': 600, 'text-anchor': bottom ? 'end' : 'start', fill: ctx.seatColor(side) }, gTable);
      fitText(t, name, NAME_ROOM);
      svg('title', {}, t).textContent = name;
      const state = st.result ? (st.result.winner === side + 1 ? `won, ${v.points} points` : '') : (st.toMove ? st.toMove - 1 : v.turn) === side ? 'to move' : 'waits';
      const said = svgText(state, { x: nx, y: ny + 18, 'font-size': 12, 'text-anchor': bottom ? 'end' : 'start', fill: LABEL }, gTable);
      // Squeezed rather than run into the waste beside it.
      if (said.getComputedTextLength() > NAME_ROOM) for (const [k, x] of [['textLength', NAME_ROOM], ['lengthAdjust', 'spacingAndGlyphs']]) said.setAttribute(k, x);
    }
    // The last card moved: its way, faintly, for following the other's turn.
    if (last) {
      for (const k of [last.from, last.to]) {
        const p = piles.get(k);
        if (!p) continue;
        svg('rect', { x: p.cardX - 3, y: p.cardY - 3, width: CW + 6, height: CH + 6, rx: 7, fill: 'none', stroke: 'rgba(255,230,120,0.75)', 'stroke-width': 2, 'stroke-dasharray': k === last.from ? '4 3' : null }, gTable);
      }
    }
    drawLit();
  }

  /** The picked card's targets, lit clearly; the movable cards, marked. */
  function drawLit() {
    clear(gLit);
    if (!canAct()) return;
    const sources = [...plays.keys()];
    const lit = picked ? [...(plays.get(picked) || new Map()).keys()] : [];
    const kb = cursor >= 0 ? (picked ? lit : sources)[cursor] : null;
    for (const k of picked ? [] : sources) {
      const p = piles.get(k);
      svg('rect', { x: p.cardX - 2, y: p.cardY - 2, width: CW + 4, height: CH + 4, rx: 6, fill: 'none', stroke: CHOSEN, 'stroke-width': 1.5, 'stroke-dasharray': '6 4' }, gLit).dataset.source = k;
    }
    if (picked) {
      const p = piles.get(picked);
      svg('rect', { x: p.cardX - 3, y: p.cardY - 3, width: CW + 6, height: CH + 6, rx: 7, fill: 'rgba(255,242,153,0.25)', stroke: CHOSEN, 'stroke-width': 4 }, gLit).dataset.picked = picked;
      for (const k of lit) {
        const q = piles.get(k);
        svg('rect', { x: q.cardX - 4, y: q.cardY - 4, width: CW + 8, height: CH + 8, rx: 8, fill: 'rgba(115,242,140,0.35)', stroke: LIT, 'stroke-width': 4 }, gLit).dataset.target = k;
      }
    }
    if (kb) {
      const q = piles.get(kb);
      svg('rect', { x: q.cardX - 7, y: q.cardY - 7, width: CW + 14, height: CH + 14, rx: 10, fill: 'none', stroke: '#fff', 'stroke-width': 2.5 }, gLit);
    }
  }

  function drawAlert() {
    clear(alert);
    if (!st.seat || st.result) return;
    const stop = findLegal(st, 'Stop');
    const accept = findLegal(st, 'Accept');
    if (!stop && !accept) return;
    const b = v.breach;
    if (b && stop) {
      const who = nameOf(b.by);
      let what = 'turned the hand';
      if (b.mv && b.mv.Play) {
        const mine = b.by; // the move's words are from the breaker's side
        what = `played ${cardName(b.card)} from ${pileWords(fromKey(b.mv.Play.from, mine), m)} to ${pileWords(toKey(b.mv.Play.to, mine), m)}`;
      }
      html('p', 'bk-why', `${who} broke priority: they ${what}, but ${RULE_WORDS[b.rule] || 'the move came out of order'}.${v.deciding ? ' It also emptied their piles: stop it, or accept it and they win.' : ' Stop it before the next move and it is taken back and the turn is yours.'}`, alert);
    }
    if (stop) {
      const sb = button(touchInput() ? 'Stop!' : 'Stop! (S)', 'bk-stop', () => send('Stop'), alert);
      sb.disabled = !canAct();
    }
    if (accept) {
      const ab = button(`Accept: let it stand, they win${touchInput() ? '' : ' (A)'}`, 'bk-accept', () => send('Accept'), alert);
      ab.disabled = !canAct();
    }
  }

  function drawActions() {
    clear(actions);
    if (!st.seat || st.result) return;
    const act = (label, move, title) => {
      const b = button(label, 'bd-act', () => send(move), actions);
      b.disabled = !canAct() || !findLegal(st, move);
      b.title = title;
    };
    const key = (k) => (touchInput() ? '' : ` (${k})`);
    act(`Turn hand${key('H')}`, 'TurnHand', 'Turn the top card of your hand');
    act(`To waste${key('W')}`, { Play: { from: 'Hand', to: 'Waste' } }, 'Put the turned card on your waste: your turn ends');
    act(`End turn${key('E')}`, 'EndTurn', 'End the turn: nothing is left to turn');
  }

  // Help in a line (below the table it must not run out of the window):
  // keys only where there is a keyboard.
  function describe() {
    if (said) return said;
    if (!st) return '';
    if (st.result) return endWords();
    if (sent) return 'Sent…';
    if (!canAct()) return '';
    const touch = touchInput();
    if (picked) {
      const p = piles.get(picked);
      const card = `${cardName(p.top)} from ${pileWords(picked, m)}`;
      return touch ? `${card}: tap a lit pile, or the card again to put it back.` : `${card}: click a lit pile or press its key (1–8, F); Esc puts it back.`;
    }
    if (plays.size) return touch ? 'Drag a card to a pile, or tap it, then a lit pile.' : 'Drag a card to a pile, or click it, then a lit pile. Keys: 1–8, R, T, arrows, Enter.';
    if (findLegal(st, 'TurnHand')) return touch ? 'Turn your hand: tap it.' : 'Turn your hand (H, or click it).';
    return '';
  }

  /**
   * The winner's points (docs/rules/russian-bank.md, "End and score"): 30,
   * 2 for each card left in the loser's reserve, 1 for each in their hand
   * (a turned card too) and waste, counted from the final view.
   */
  function endWords() {
    const res = st.result;
    if (!res || res.winner == null || !v.points) return '';
    const w = res.winner - 1, l = 1 - w;
    const you = st.seat === res.winner;
    const loser = st.seat === l + 1 ? 'your' : `${nameOf(l)}'s`;
    const sd = v.sides[l];
    const reserve = sd.reserve.length;
    const rest = sd.hand.length + (sd.shown ? 1 : 0) + sd.waste.length;
    const head = `${you ? 'Your' : `${nameOf(w)}'s`} ${v.points} points`;
    const again = st.seat === l + 1 ? 'your' : 'their';
    const parts = [`30 for emptying ${you ? 'your' : 'their'} piles first`];
    if (30 + 2 * reserve + rest !== v.points) return `${head}: ${parts[0]}, 2 for each card left in ${loser} reserve, 1 for each in ${again} hand and waste.`;
    if (reserve) parts.push(`2 × ${reserve} card${reserve === 1 ? '' : 's'} left in ${loser} reserve`);
    if (rest) parts.push(`1 × ${rest} in ${reserve ? again : loser} hand and waste`);
    return `${head}: ${parts.join(' + ')}.`;
  }

  function redraw() {
    // While the seat has cards to move, touching the table drags them
    // rather than scrolling the page.
    view.classList.toggle('bk-grab', canAct() && plays.size > 0);
    if (canAct()) box.dataset.canAct = '1';
    else delete box.dataset.canAct;
    draw();
    drawAlert();
    drawActions();
    note.textContent = describe();
  }

  // ---- choosing -----------------------------------------------------------

  function send(move) {
    const l = findLegal(st, move);
    if (!l || !canAct()) return false;
    sent = true;
    picked = null;
    cursor = -1;
    ctx.play(l.move);
    redraw();
    return true;
  }

  function pick(key) {
    picked = key && plays.has(key) ? key : null;
    cursor = -1;
    said = '';
    drawLit();
    note.textContent = describe();
  }

  function say(text) {
    said = text;
    note.textContent = text;
  }

  /** The pile under a point of the table (user units), if any. */
  function pileAt(x, y, pad = 4) {
    for (const [k, p] of piles) {
      if (x >= p.x - pad && x <= p.x + p.w + pad && y >= p.y - pad && y <= p.y + p.h + pad) return k;
    }
    return null;
  }

  function clickPile(k) {
    if (!canAct()) return;
    said = '';
    if (picked && k && plays.get(picked)?.has(k)) return void send(plays.get(picked).get(k).move);
    if (k && plays.has(k)) return pick(k === picked ? null : k);
    if (k === `H${m}` && findLegal(st, 'TurnHand')) return void send('TurnHand');
    if (picked && k) say(`${cardName(piles.get(picked).top)} cannot go to ${pileWords(k, m)}.`);
    pick(null);
  }

  // ---- pointer: drag and drop, or click then click ------------------------

  function toTable(e) {
    const pt = s.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const q = pt.matrixTransform(s.getScreenCTM().inverse());
    return { x: q.x, y: q.y };
  }

  s.addEventListener('pointerdown', (e) => {
    if (drag || (e.pointerType === 'mouse' && e.button !== 0) || !canAct()) return;
    const at = toTable(e);
    const k = pileAt(at.x, at.y, 0);
    drag = { id: e.pointerId, k, x0: at.x, y0: at.y, moving: false, ghost: null };
    // Touch on a movable card drags it; elsewhere the page may scroll.
    if (k && plays.has(k)) e.preventDefault();
    try { s.setPointerCapture(e.pointerId); } catch { /* fine */ }
  });
  s.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const at = toTable(e);
    if (!drag.moving) {
      if (Math.hypot(at.x - drag.x0, at.y - drag.y0) < 6 || !drag.k || !plays.has(drag.k)) return;
      drag.moving = true;
      const p = piles.get(drag.k);
      picked = drag.k;
      cursor = -1;
      drawLit();
      note.textContent = describe();
      drag.dx = drag.x0 - p.cardX;
      drag.dy = drag.y0 - p.cardY;
      // The card leaves its pile (faintly kept there) and follows the pointer.
      const under = gTable.querySelector(`g[data-pile="${drag.k}"]`);
      if (under) under.setAttribute('opacity', '0.35');
      drag.ghost = drawCard(gDrag, p.top, 0, 0, m);
      svg('rect', { width: CW, height: CH, rx: 5, fill: 'none', stroke: CHOSEN, 'stroke-width': 3 }, drag.ghost);
      view.classList.add('bk-dragging');
    }
    drag.ghost.setAttribute('transform', `translate(${at.x - drag.dx} ${at.y - drag.dy}) rotate(3 ${CW / 2} ${CH / 2})`);
  });
  const end = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    clear(gDrag);
    view.classList.remove('bk-dragging');
    gTable.querySelector('g[opacity]')?.removeAttribute('opacity');
    if (e.type === 'pointercancel') return void (d.moving && pick(null));
    const at = toTable(e);
    if (!d.moving) return clickPile(pileAt(at.x, at.y));
    // Dropped: on the pile under the pointer, or else under the card's middle.
    const targets = plays.get(d.k) || new Map();
    let k = pileAt(at.x, at.y);
    if (!targets.has(k)) k = pileAt(at.x - d.dx + CW / 2, at.y - d.dy + CH / 2, 10);
    if (targets.has(k)) return void send(targets.get(k).move);
    pick(null);
  };
  s.addEventListener('pointerup', end);
  s.addEventListener('pointercancel', end);

  // ---- the module's interface --------------------------------------------

  function update(state, news) {
    st = state;
    v = state.view;
    m = state.seat ? state.seat - 1 : 0;
    sent = false;
    said = '';
    plays = new Map();
    for (const l of state.legal || []) {
      if (!l.move || !l.move.Play) continue;
      const f = fromKey(l.move.Play.from, m), t = toKey(l.move.Play.to, m);
      if (!plays.has(f)) plays.set(f, new Map());
      plays.get(f).set(t, l);
    }
    if (picked && !plays.has(picked)) picked = null;
    // News that moves nothing (a seat connecting, a clock) leaves a card
    // being dragged in the hand.
    const advanced = state.ply !== lastPly;
    if (state.ply < lastPly) last = null; // taken back
    lastPly = state.ply;
    if (news) {
      const moved = (news.steps || []).filter((x) => x.Moved || x.TakenBack).pop();
      const mv = moved && (moved.Moved || moved.TakenBack);
      last = mv ? { from: stepKey(mv.from), to: stepKey(mv.to) } : null;
    }
    cursor = -1;
    if (drag && (advanced || !plays.has(drag.k))) {
      drag = null;
      clear(gDrag);
      view.classList.remove('bk-dragging');
    }
    redraw();
  }

  function key(ev) {
    if (!st || typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const k = ev.key;
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if (!canAct()) return false;
    const tryMove = (move, why) => {
      if (!send(move)) say(why);
      return true;
    };
    if (lower === 's') return tryMove('Stop', 'Nothing to stop: Stop is for a move of the other side that broke priority.');
    if (lower === 'a' && findLegal(st, 'Accept')) return tryMove('Accept', '');
    if (lower === 'h') return tryMove('TurnHand', 'You cannot turn your hand now.');
    if (lower === 'e') return tryMove('EndTurn', 'End turn only when your hand and waste are empty.');
    if (lower === 'w') return tryMove({ Play: { from: 'Hand', to: 'Waste' } }, 'No turned card can go to your waste now.');
    if (k === 'Escape') {
      if (!picked && cursor < 0) return false;
      pick(null);
      return true;
    }
    const list = picked ? [...(plays.get(picked) || new Map()).keys()] : [...plays.keys()];
    if (/^[1-8]$/.test(k)) {
      const t = 'T' + k;
      if (picked) {
        if (plays.get(picked).has(t)) return void send(plays.get(picked).get(t).move), true;
        return say(`${cardName(piles.get(picked).top)} cannot go to T${k}.`), true;
      }
      if (plays.has(t)) return pick(t), true;
      return say(`No card of T${k} can move now.`), true;
    }
    if (!picked && (lower === 'r' || lower === 't')) {
      const src = (lower === 'r' ? 'R' : 'S') + m;
      if (plays.has(src)) return pick(src), true;
      return say(lower === 'r' ? 'Your reserve card cannot move now.' : 'No turned card can move now.'), true;
    }
    if (picked && lower === 'f') {
      const f = list.find((x) => x[0] === 'F');
      if (f) return void send(plays.get(picked).get(f).move), true;
      return say('That card cannot go up to a foundation now.'), true;
    }
    if (k === 'ArrowRight' || k === 'ArrowDown' || k === 'ArrowLeft' || k === 'ArrowUp') {
      if (!list.length) return false;
      const step = k === 'ArrowRight' || k === 'ArrowDown' ? 1 : -1;
      cursor = cursor < 0 ? (step > 0 ? 0 : list.length - 1) : (cursor + step + list.length) % list.length;
      drawLit();
      const p = piles.get(list[cursor]);
      say(picked ? `Drop on ${pileWords(list[cursor], m)}? Enter plays it.` : `${cardName(p.top)} on ${pileWords(list[cursor], m)}: Enter picks it up.`);
      return true;
    }
    if ((k === 'Enter' || k === ' ') && cursor >= 0 && cursor < list.length) {
      if (picked) return void send(plays.get(picked).get(list[cursor]).move), true;
      const src = list[cursor];
      pick(src);
      return true;
    }
    return false;
  }

  function unmount() {
    box.remove();
  }

  return { update, key, unmount };
}
