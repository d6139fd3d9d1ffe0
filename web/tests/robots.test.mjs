// The Robot board in the browser: (a) a seat plays a whole game against a
// `tabula bot` (its own client of the protocol, seat 2, the casual agent)
// through the board alone (robots picked by click and by key, steps by
// arrow keys and by clicking lit tiles, a turn by its button), to a result
// the bot tells too before it exits by itself; an exchange of two tiles by
// clicking them; a large board opens zoomed on the seat's robot, and zooms
// and pans.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, gameAgainstBot, logHas, openPage, createTable, playToEnd, waitPly, ply, shot, assertBotFinished, PHONE } from './harness.mjs';

const T = 40; // board-robots.js's user units a tile

const live = useServerAndBrowser();

/** Where tile (x, y)'s middle is on the screen. */
async function tileAt(page, x, y) {
  await page.locator('.rb-svg').scrollIntoViewIfNeeded();
  return page.evaluate(([x, y, t]) => {
    const s = document.querySelector('.rb-svg');
    const p = s.createSVGPoint();
    p.x = (x + 0.5) * t;
    p.y = (y + 0.5) * t;
    const q = p.matrixTransform(s.getScreenCTM());
    return { x: q.x, y: q.y };
  }, [x, y, T]);
}

async function clickTile(page, x, y) {
  const p = await tileAt(page, x, y);
  await page.mouse.click(p.x, p.y);
}

/** The robots as the board draws them. */
function robots(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-robot]')].map((g) => ({
      id: g.dataset.robot, x: +g.dataset.x, y: +g.dataset.y, facing: g.dataset.facing, rule: g.dataset.rule, seat: +g.dataset.seat,
    })),
  );
}

/** The lit tiles the chosen robot may go to. */
function targets(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-kind="target"]')].map((r) => r.dataset.tile.split(',').map(Number)));
}

test('a whole Robot board game against a tabula bot, played through the board', { timeout: 120000 }, async (t) => {
  const { page, problems, bot } = await gameAgainstBot(t, live, { level: 'robots/01-first-steps', agent: 'casual', ready: '.bd-robots[data-can-act]' });
  await shot(page, 'robots-start');

  // Clicking robot B (rule B, at H6 facing south) chooses it: its walks
  // are lit ahead of it and the note says what it may do.
  await clickTile(page, 7, 0);
  assert.match(await page.textContent('.bd-robots .bd-note'), /Robot B \(rule B, facing south\)/);
  assert.deepEqual((await targets(page)).sort(), [[7, 1], [7, 2]], 'B walks 1 or 2 south (C stands 3 ahead)');
  assert.ok(await page.locator('.bd-actions button', { hasText: '3 quarters left' }).isEnabled());

  // The letter A chooses robot A; the right arrow steps it east.
  await page.locator('#t-turn').click();
  await page.keyboard.press('a');
  assert.match(await page.textContent('.bd-robots .bd-note'), /Robot A \(rule A, facing east\)/);
  await page.keyboard.press('ArrowRight');
  await logHas(page, 'A steps east');

  // Next turn, B turns by its button.
  await page.locator('.bd-robots[data-can-act]').waitFor({ timeout: 10000 });
  await page.keyboard.press('b');
  await page.locator('.bd-actions button', { hasText: '3 quarters left' }).click();
  await logHas(page, 'B turns 3 quarters left');

  // Then A walks home (E4 is a): by clicking the lit tile nearest it;
  // B turns when A is boxed in.
  const home = [5, 2];
  const dist = ([x, y]) => Math.abs(x - home[0]) + Math.abs(y - home[1]);
  let byKey = false;
  const played = await playToEnd(page, {
    playable: '.bd-robots[data-can-act]',
    move: async (p) => {
      const a = (await robots(p)).find((r) => r.id === 'A');
      await clickTile(p, a.x, a.y);
      const lit = await targets(p);
      if (!lit.length) {
        await p.keyboard.press('b');
        await p.keyboard.press('r');
        return;
      }
      lit.sort((u, v) => dist(u) - dist(v));
      const [x, y] = lit[0];
      byKey = !byKey;
      if (byKey) {
        const key = x > a.x ? 'ArrowRight' : x < a.x ? 'ArrowLeft' : y > a.y ? 'ArrowDown' : 'ArrowUp';
        await p.keyboard.press(key);
      } else await clickTile(p, x, y);
    },
    maxMoves: 30,
    timeout: 60000,
  });
  assert.ok(played >= 0);
  const result = await page.textContent('#t-result');
  assert.match(result, /won|lost|draw/i, `a result is said: ${result}`);
  // The board says which robot got home, and where.
  if (!/draw/i.test(result)) assert.match(await page.textContent('.bd-robots .bd-note'), /^Robot [A-Z] reached its home at [A-Z]+\d+: (you win|casual bot wins)\.$/);
  assert.equal(await page.locator('.bd-robots[data-can-act]').count(), 0, 'no move is offered after the end');
  assert.equal(await page.locator('[data-kind="target"]').count(), 0, 'no tile is lit after the end');
  await shot(page, 'robots-end');
  // The bot tells the same game and the same end, and stops by itself.
  await assertBotFinished(page, bot);
  assert.deepEqual(problems, []);
});

test('an exchange of two tiles is made by clicking them', { timeout: 60000 }, async () => {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann' });
  await createTable(page, { level: 'robots/09-swap-puzzle', seats: ['casual'] });
  await page.locator('.bd-robots[data-can-act]').waitFor({ timeout: 10000 });
  await page.locator('#t-turn').click();
  await page.keyboard.press('x');
  const first = await page.evaluate(() => document.querySelector('[data-kind="swap"]')?.dataset.tile);
  assert.ok(first, 'the tiles that may be exchanged are marked');
  const [ax, ay] = first.split(',').map(Number);
  await clickTile(page, ax, ay);
  assert.match(await page.textContent('.bd-robots .bd-note'), /^Exchange [A-Z]+\d+ with which tile\?/);
  const second = await page.evaluate(() => document.querySelector('[data-kind="swap-with"]')?.dataset.tile);
  assert.ok(second, 'the tiles it may be exchanged with are lit');
  const before = await ply(page);
  const [bx, by] = second.split(',').map(Number);
  await clickTile(page, bx, by);
  await waitPly(page, before + 1);
  await logHas(page, 'exchange');
  assert.deepEqual(problems, []);
});

test('a large board opens zoomed on the seat\'s robot, and zooms and pans', { timeout: 60000 }, async () => {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann', viewport: PHONE });
  await createTable(page, { level: 'robots/large-128x128-four-robots', seats: ['random', 'random', 'random'] });
  await page.locator('.bd-robots[data-can-act]').waitFor({ timeout: 20000 });
  const vb = () => page.evaluate(() => document.querySelector('.rb-svg').getAttribute('viewBox').split(' ').map(Number));
  const [x0, y0, w0] = await vb();
  assert.ok(w0 < 128 * T / 4, 'opened zoomed in');
  // The seat's robot A is in view.
  const a = (await robots(page)).find((r) => r.id === 'A');
  const ax = (a.x + 0.5) * T, ay = (a.y + 0.5) * T;
  const [, , , h0] = await vb();
  assert.ok(ax > x0 && ax < x0 + w0 && ay > y0 && ay < y0 + h0, 'robot A is in view');
  assert.ok((await targets(page)).length > 0, "A's steps are lit");
  // + zooms in, - out; 0 shows the whole board.
  await page.locator('#t-turn').click();
  await page.keyboard.press('+');
  assert.ok((await vb())[2] < w0 - 1, '+ zooms in');
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  assert.ok((await vb())[2] > w0 + 1, '- zooms out');
  await page.locator('.bd-bar button', { hasText: 'Fit' }).click();
  assert.ok((await vb())[2] >= 128 * T, 'Fit shows the whole board');
  // Zoomed in again, a drag pans.
  await page.locator('.bd-bar button', { hasText: '+' }).click();
  await page.locator('.bd-bar button', { hasText: '+' }).click();
  await page.locator('.bd-bar button', { hasText: '+' }).click();
  const before = await vb();
  const box = await page.locator('.rb-svg').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2 - 40, { steps: 5 });
  await page.mouse.up();
  const after = await vb();
  assert.ok(after[0] > before[0] + 1 && after[1] > before[1] + 1, `a drag pans (${before} -> ${after})`);
  await shot(page, 'robots-large-phone');
  assert.deepEqual(problems, []);
});
