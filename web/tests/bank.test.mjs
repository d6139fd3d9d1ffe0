// Russian Bank in the browser: (b) a seat plays a whole game against a
// `tabula bot` (its own client of the protocol, seat 2, the greedy agent;
// 04 A quick win), cards moved by drag and drop, by click-then-click and by
// keys, the hand turned by its button, to a win the bot tells too before
// it exits by itself; and a breach called with the big Stop button by a
// seat whose side is drawn at the bottom although it is seat 2.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, gameAgainstBot, logHas, openPage, createTable, shot, assertBotFinished } from './harness.mjs';

const live = useServerAndBrowser();

/** The middle of the first element `selector` finds, scrolled into view:
 * found and measured in one step, since the board may be drawn anew
 * between two (a seat's news), which detached the element found before. */
async function middle(page, selector) {
  await page.locator(selector).first().waitFor({ timeout: 10000 });
  const b = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }, selector);
  assert.ok(b, `${selector} is on the page`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Drags the top card of pile `from` onto pile `to` with the mouse. */
async function dragCard(page, from, to, { look } = {}) {
  const a = await middle(page, `.bk-svg [data-pile="${from}"]`);
  const b = await middle(page, `.bk-svg [data-pile="${to}"], .bk-svg [data-target="${to}"]`);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
  // Mid-drag: the card's targets are lit, the one it is headed for too.
  assert.ok(await page.locator(`.bk-svg [data-target="${to}"]`).count(), `${to} is lit while ${from} is dragged`);
  if (look) await look();
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}

/** Drags the top card of pile `from` onto pile `to` by touch (CDP touch events). */
async function touchDrag(page, from, to) {
  const a = await middle(page, `.bk-svg [data-pile="${from}"]`);
  const b = await middle(page, `.bk-svg [data-pile="${to}"]`);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [] });
  await touch('touchStart', a);
  for (let i = 1; i <= 8; i++) {
    await touch('touchMove', { x: a.x + ((b.x - a.x) * i) / 8, y: a.y + ((b.y - a.y) * i) / 8 });
    if (i === 4) assert.ok(await page.locator(`.bk-svg [data-target="${to}"]`).count(), `${to} is lit while ${from} is dragged by touch`);
  }
  await touch('touchEnd', null);
  await cdp.detach();
}

async function canAct(page) {
  await page.locator('.bd-bank[data-can-act]').waitFor({ timeout: 10000 });
}

test('a whole Russian Bank game against a tabula bot: drag and drop, clicks, keys and buttons', { timeout: 90000 }, async (t) => {
  const { page, problems, bot } = await gameAgainstBot(t, live, { level: 'russian_bank/04-quick-win', agent: 'greedy', ready: '.bd-bank[data-can-act]' });
  // The movable cards are marked: the reserve's 2♥ among them.
  assert.ok(await page.locator('.bk-svg [data-source="R0"]').count(), 'the reserve card is marked movable');
  assert.equal(await page.locator('.bk-stop').count(), 0, 'no Stop button without a breach');

  // 1. Drag and drop: the 2♥ up on its ace (F1).
  await dragCard(page, 'R0', 'F1', { look: () => shot(page, 'bank-dragging') });
  await logHas(page, '2♥ reserve to F1');

  // 2. Click then click: the 4♦ on the 5♠ (T1).
  await canAct(page);
  await page.locator('.bk-svg [data-pile="R0"]').click();
  assert.equal(await page.locator('.bk-svg [data-picked="R0"]').count(), 1, 'the clicked card is picked');
  const lit = await page.evaluate(() => [...document.querySelectorAll('.bk-svg [data-target]')].map((e) => e.dataset.target).sort());
  assert.ok(lit.includes('T1') && !lit.includes('F1'), `its targets are lit: ${lit}`);
  await page.locator('.bk-svg [data-target="T1"]').click({ force: true });
  await logHas(page, '4♦ reserve to T1');

  // 3. Keys: R picks the reserve card, 8 drops it on T8 (the 10♥).
  await canAct(page);
  await page.locator('#t-turn').click();
  await page.keyboard.press('r');
  assert.equal(await page.locator('.bk-svg [data-picked="R0"]').count(), 1, 'R picks the reserve card');
  await page.keyboard.press('8');
  await logHas(page, '9♠ reserve to T8');

  // 4. The button turns the hand.
  await canAct(page);
  await page.locator('.bd-bank .bd-actions button', { hasText: 'Turn hand' }).click();
  await logHas(page, 'turn the hand');

  // 5. Drag the turned 3♥ up on the 2♥: the last card, the game is won.
  await canAct(page);
  await dragCard(page, 'S0', 'F1');
  await logHas(page, '3♥ hand to F1');
  await page.locator('#t-result:not([hidden])').waitFor({ timeout: 10000 });
  assert.match(await page.textContent('#t-result'), /You won/);
  assert.equal(await page.locator('.bd-bank[data-can-act]').count(), 0, 'nothing to move after the end');
  await shot(page, 'bank-won');
  // The bot heard the five moves and the win, and stops by itself.
  const game = await assertBotFinished(page, bot);
  assert.equal(game.over.winner, 1);
  assert.equal(game.moves.length, 5);
  assert.match(await page.textContent('#t-result'), new RegExp(`^You won with ${game.over.scores[0]} points\\.$`));
  // The board says what the points are made of, from the loser's piles left.
  const made = /^Your (\d+) points: 30 for emptying your piles first \+ 2 × (\d+) cards? left in greedy bot's reserve \+ 1 × (\d+) in their hand and waste\.$/.exec(await page.textContent('.bd-bank .bd-note'));
  assert.ok(made, 'the points are explained');
  assert.equal(Number(made[1]), game.over.scores[0]);
  assert.equal(30 + 2 * Number(made[2]) + Number(made[3]), game.over.scores[0]);
  assert.deepEqual(problems, []);
});

test('a breach is called with the big Stop button, said in words', { timeout: 60000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'russian_bank/06-a-stop', seats: ['person'] });
  // Bob is on a phone: his drags are touches.
  const bob = await openPage(live.browser, live.server, { name: 'Bob', hash: `#table=${table}&seat=2`, touch: true });
  await canAct(ann.page);
  // Bob, seat 2, sees his own side at the bottom: his reserve top (7♥) low on the table.
  const mine = await middle(bob.page, '.bk-svg [data-pile="R1"]');
  const theirs = await middle(bob.page, '.bk-svg [data-pile="R0"]');
  assert.ok(mine.y > theirs.y, "seat 2's own reserve is drawn below seat 1's");

  // Ann loads her 6♥ on Bob's 7♥ while the A♣ on T3 could go up: a breach.
  await dragCard(ann.page, 'R0', 'R1');
  await logHas(ann.page, "6♥ reserve to the opponent's reserve");
  const stop = bob.page.locator('.bk-stop');
  await stop.waitFor({ timeout: 10000 });
  const why = await bob.page.textContent('.bk-why');
  assert.match(why, /Ann broke priority: they played 6♥\uFE0E from their reserve to your reserve, but a card could go up to a foundation/);
  await shot(bob.page, 'bank-stop-phone');
  await stop.click();
  await logHas(bob.page, 'Stop!');
  await bob.page.locator('.bd-bank[data-can-act]').waitFor({ timeout: 10000 });
  assert.equal(await bob.page.locator('.bk-stop').count(), 0, 'the Stop button goes once used');
  // The turn is Bob's: he drags his A♣ up by touch.
  await touchDrag(bob.page, 'T3', 'F1');
  await logHas(bob.page, 'A♣ T3 to F1');
  assert.deepEqual(ann.problems, []);
  assert.deepEqual(bob.problems, []);
  await ann.context.close();
  await bob.context.close();
});

test('a breach that empties its player: Stop or Accept, and Accept ends the game', { timeout: 60000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'russian_bank/seed-004-move-card-from-reserve', seats: ['person'] });
  const bob = await openPage(live.browser, live.server, { name: 'Bob', hash: `#table=${table}&seat=2` });
  // Ann: the A♠ up (keys), the 6♥ on the 7♣ (keys), the 5♦ on Bob's waste (clicks).
  await canAct(ann.page);
  await ann.page.locator('#t-turn').click();
  await ann.page.keyboard.press('r');
  await ann.page.keyboard.press('f');
  await logHas(ann.page, 'A♠ reserve to F1');
  await canAct(ann.page);
  await ann.page.keyboard.press('r');
  await ann.page.keyboard.press('1');
  await logHas(ann.page, '6♥ reserve to T1');
  await canAct(ann.page);
  await ann.page.locator('.bk-svg [data-pile="R0"]').click();
  await ann.page.locator('.bk-svg [data-target="W1"]').click({ force: true });
  await logHas(ann.page, "5♦ reserve to the opponent's waste");
  // Then the 2♠ on Bob's 3♠ though it could go up: her last card.
  await canAct(ann.page);
  await dragCard(ann.page, 'R0', 'R1');
  await logHas(ann.page, "2♠ reserve to the opponent's reserve");
  await bob.page.locator('.bk-stop').waitFor({ timeout: 10000 });
  assert.match(await bob.page.textContent('.bk-why'), /emptied their piles: stop it, or accept it and they win/);
  const accept = bob.page.locator('.bk-accept');
  assert.ok(await accept.isVisible(), 'Accept is offered beside Stop');
  await shot(bob.page, 'bank-deciding');
  await accept.click();
  await bob.page.locator('#t-result:not([hidden])').waitFor({ timeout: 10000 });
  assert.match(await bob.page.textContent('#t-result'), /lost/i);
  // The winner's points: 30, 2 for each of Bob's 2 reserve cards, 1 for each of his 2 waste cards.
  assert.match(await bob.page.textContent('.bk-svg'), /won, 36 points/);
  assert.equal(await bob.page.textContent('.bd-bank .bd-note'), "Ann's 36 points: 30 for emptying their piles first + 2 × 2 cards left in your reserve + 1 × 2 in your hand and waste.");
  assert.equal(await bob.page.locator('.bk-stop, .bk-accept').count(), 0, 'no Stop nor Accept after the end');
  assert.deepEqual(ann.problems, []);
  assert.deepEqual(bob.problems, []);
  await ann.context.close();
  await bob.context.close();
});

test('a card being dragged stays in the hand when news that moves nothing comes', { timeout: 90000 }, async (t) => {
  const { page, bot } = await gameAgainstBot(t, live, { level: 'russian_bank/04-quick-win', agent: 'greedy', ready: '.bd-bank[data-can-act]' });
  const a = await middle(page, '.bk-svg [data-pile="R0"]');
  const b = await middle(page, '.bk-svg [data-pile="F1"], .bk-svg [data-target="F1"]');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
  // The bot goes away mid-drag: the seats' news redraws the table.
  await bot.stop();
  await page.waitForFunction(() => !/here/.test(document.querySelector('#t-seats li:nth-child(2)').textContent), null, { timeout: 20000 });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
  await logHas(page, '2♥ reserve to F1');
});
