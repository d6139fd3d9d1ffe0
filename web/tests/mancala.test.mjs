// (b) A browser seat plays a whole game of Kalah (6,4) against a `tabula
// bot` (its own client of the protocol, seat 2, the greedy agent), by
// clicking pits and by digit keys, to the stores' result, which the bot
// tells too before it exits by itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, gameAgainstBot, openPage, createTable, playToEnd, shot, waitPly, ply, assertBotFinished, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

test('a whole game of Kalah against a tabula bot, by clicks and keys', { timeout: 120000 }, async (t) => {
  const { page, problems, bot } = await gameAgainstBot(t, live, { level: 'mancala/kalah-6-4', agent: 'greedy', ready: '.pit.playable' });
  assert.equal(await page.locator('.pit.playable').count(), 6, 'six pits to sow at the start');

  // Hovering A3 (4 stones) shows the last one landing in the store: again.
  await page.hover('.pit[data-cell="2"]');
  assert.match(await page.textContent('.board-caption'), /Sow A3 \(4 stones\): the last lands in your store: you play again/);
  await shot(page, 'mancala-hover');

  let n = 0;
  const played = await playToEnd(page, {
    playable: '.pit.playable',
    move: async (p) => {
      n += 1;
      if (n % 2) {
        // By key: the digit of the rightmost pit that can be sown.
        const cells = await p.$$eval('.pit.playable', (els) => els.map((e) => Number(e.dataset.cell)));
        await p.keyboard.press(String(Math.max(...cells) + 1));
      } else {
        await p.locator('.pit.playable').first().click();
      }
    },
    maxMoves: 120,
    timeout: 70000,
  });
  assert.ok(played >= 5, `a whole game (${played} moves of ours)`);
  const result = await page.textContent('#t-result');
  assert.match(result, /^(You won|You lost: greedy bot won|Draw), \d+ to \d+\.$/);
  // The stores hold every stone at the end (the sweep): 48 in all.
  const [a, b] = result.match(/(\d+) to (\d+)/).slice(1).map(Number);
  assert.equal(a + b, 48);
  // The board says where the last move's sweep put the stones left, if it moved any.
  assert.match(await page.textContent('.board-caption'), /^$|^The game is over: the \d+ stones? left in row [AB] went to (your|greedy bot's) store\.$/);
  await shot(page, 'mancala-end');
  // The bot tells the same game and the same stores, and stops by itself.
  const game = await assertBotFinished(page, bot);
  const [s1, s2] = game.over.scores; // seat 1's first; the page says the winner's first
  assert.deepEqual([a, b], game.over.winner === 2 ? [s2, s1] : [s1, s2], `the bot's scores: ${game.over.scores}`);
  assert.deepEqual(problems, []);
});

// The hover's forecast (board-mancala.js's sow) must be the rules': play
// whole games (random moves against a random agent, from the page's own
// WebSocket) and check each move against the server's position after it,
// on each shipped board.
test('the sowing shown on hover agrees with the server', { timeout: 60000 }, async () => {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann' });
  const report = await page.evaluate(async (levels) => {
    const { sow } = await import('./board-mancala.js');
    const out = { moves: 0, wrong: [] };
    for (const level of levels) {
      await new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/`);
        const timer = setTimeout(() => reject(new Error(`no end of ${level}`)), 20000);
        let view = null;
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          const ply = (m) => {
            if (!m.legal.length || m.result) return;
            const pick = m.legal[Math.floor(Math.random() * m.legal.length)];
            ws.send(JSON.stringify({ type: 'move', table: m.table, move: pick.move, ply: m.ply }));
          };
          if (m.type === 'welcome') ws.send(JSON.stringify({ type: 'create', id: 1, level, seats: ['person', 'random'] }));
          else if (m.type === 'created') ws.send(JSON.stringify({ type: 'join', table: m.table, seat: 1 }));
          else if (m.type === 'state') {
            view = m.view;
            ply(m);
          } else if (m.type === 'moved') {
            out.moves += 1;
            const f = sow(view, m.move.side, m.move.pit);
            const n = view.pits;
            const again = m.result == null && m.to_move === m.seat;
            if (f.again !== again) out.wrong.push(`${level} ply ${m.ply}: again ${f.again}, server ${again}`);
            if (!f.ends && JSON.stringify(f.cells) !== JSON.stringify(m.view.cells.slice(0, 2 * n + 2))) {
              out.wrong.push(`${level} ply ${m.ply}: ${f.cells} but ${m.view.cells.slice(0, 2 * n + 2)}`);
            }
            if (f.ends !== (m.result != null)) out.wrong.push(`${level} ply ${m.ply}: ends ${f.ends}`);
            view = m.view;
            ply(m);
            if (m.result) {
              clearTimeout(timer);
              ws.close();
              resolve();
            }
          } else if (m.type === 'error') reject(new Error(m.message));
        };
        ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', version: 1 }));
      });
    }
    return out;
  }, ['mancala/kalah-6-4', 'mancala/kalah-6-4-empty-capture', 'mancala/seed-003-3x2', 'mancala/kalah-6-6', 'mancala/small-solved-4x3']);
  assert.ok(report.moves > 50, `${report.moves} moves checked`);
  assert.deepEqual(report.wrong, []);
  assert.deepEqual(problems, []);
});

// Seat 2 sees the board turned: its row B at the bottom, B1 at the left,
// and its digits sow B pits; both clocks count.
test('seat 2 plays from its own side of the board', { timeout: 60000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'mancala/kalah-6-4', seats: ['person'], clock: { minutes: 5, increment: 2 } });
  const bob = await openPage(live.browser, live.server, { name: 'Bob', hash: `#table=${table}&seat=2` });
  await waitPly(bob.page, 0);
  await ann.page.locator('.pit.playable').first().waitFor({ timeout: WAIT });
  await ann.page.keyboard.press('1'); // A1's four stones: A2 to A5
  await waitPly(bob.page, 1);
  await bob.page.locator('.pit.playable').first().waitFor({ timeout: WAIT });
  // Bob's pits are B1..B6 (cells 7..12), left to right at the bottom.
  const xs = await bob.page.$$eval('.pit.playable', (els) => els.map((e) => [Number(e.dataset.cell), Number(e.getAttribute('cx'))]));
  assert.deepEqual(xs.map(([c]) => c), [7, 8, 9, 10, 11, 12]);
  assert.ok(xs.every(([, x], i) => i === 0 || x > xs[i - 1][1]), 'B1 to B6 from the left');
  await bob.page.hover('.pit[data-cell="9"]');
  assert.match(await bob.page.textContent('.board-caption'), /Sow B3 \(4 stones\): the last lands in your store: you play again/);
  assert.match(await bob.page.textContent('#t-turn'), /^Your move\.$/);
  // Bob's clock runs down from 5:00; Ann's stands (with her increment).
  await bob.page.waitForFunction(() => /^4:[0-5]\d$/.test(document.querySelector('#t-seats li:nth-child(2) .clock.running')?.textContent), null, { timeout: WAIT });
  assert.match(await bob.page.textContent('#t-seats li:nth-child(1) .clock:not(.running)'), /^(5:0[0-2]|4:5\d)$/);
  await bob.page.keyboard.press('2'); // B2
  await waitPly(ann.page, 2);
  assert.deepEqual(await ann.page.locator('#t-log li').allTextContents(), ['Ann: sow pit A1', 'Bob: sow pit B2']);
  assert.deepEqual(ann.problems, []);
  assert.deepEqual(bob.problems, []);
});

// On a touch screen there is no hover: the first tap on a pit shows where
// its last stone lands, the second sows it; the help speaks of taps, not
// of keys.
test('on a touch screen, a first tap shows the sowing and a second sows', { timeout: 60000 }, async () => {
  const { context: phone, page, problems } = await openPage(live.browser, live.server, { name: 'Pia', touch: true });
  await createTable(page, { level: 'mancala/kalah-6-4', seats: ['greedy'] });
  await page.locator('.pit.playable').first().waitFor({ timeout: WAIT });
  assert.equal(await page.textContent('.board-caption'), 'Tap a pit to see where its last stone lands; tap it again to sow.');
  await page.locator('.pit[data-cell="2"]').tap();
  assert.match(await page.textContent('.board-caption'), /^Sow A3 \(4 stones\): the last lands in your store: you play again\. Tap A3 again to sow\.$/);
  await page.waitForTimeout(300);
  assert.equal(await ply(page), 0, 'the first tap sows nothing');
  await page.locator('.pit[data-cell="2"]').tap();
  await waitPly(page, 1);
  assert.deepEqual(await page.locator('#t-log li').allTextContents(), ['Pia: sow pit A3']);
  assert.deepEqual(problems, []);
  await phone.close();
});
