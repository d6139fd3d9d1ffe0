// (a) A browser seat plays a whole game of Nim against a `tabula bot` (its
// own client of the protocol, playing seat 2 with the random agent) by
// clicking stones (and once by keys), to a result said in words, and the
// bot tells the same game to its end and exits by itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, gameAgainstBot, logHas, openPage, createTable, playToEnd, shot, assertBotFinished, waitPly, ply, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

test('a whole game of Nim against a tabula bot, by clicking stones', { timeout: 90000 }, async (t) => {
  // The game begins once the bot has taken seat 2, under its name.
  const { page, problems, bot } = await gameAgainstBot(t, live, { level: 'nim/traditional-3-4-5', agent: 'random', ready: '.stone.playable' });
  assert.match(await page.textContent('.board-note'), /Normal play: whoever takes the last stone wins/);
  await shot(page, 'nim-start');

  // Hovering a stone says what a click would take.
  const pile3 = page.locator('.stone[data-pile="2"]');
  await pile3.nth(1).hover();
  assert.match(await page.textContent('.board-caption'), /take 4 stones from pile 3/);

  // The first move by keys: pile 2, then 1 stone.
  await page.locator('#t-turn').click(); // focus on the page, not a button
  await page.keyboard.press('2');
  assert.match(await page.textContent('.board-caption'), /Pile 2: take 1 stone from pile 2/);
  await page.keyboard.press('1');
  await logHas(page, 'take 1 stone from pile 2', WAIT);

  // Then clicks: the last stone of the fullest pile each time.
  const played = await playToEnd(page, {
    playable: '.stone.playable',
    move: async (p) => {
      const target = await p.evaluate(() => {
        const counts = [...document.querySelectorAll('.stone.playable')].reduce((m, s) => {
          m[s.dataset.pile] = Math.max(m[s.dataset.pile] ?? -1, Number(s.dataset.index));
          return m;
        }, {});
        const pile = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
        return { pile, index: counts[pile] };
      });
      await p.click(`.stone[data-pile="${target.pile}"][data-index="${target.index}"]`);
    },
    maxMoves: 12,
    timeout: 40000,
  });
  assert.ok(played >= 1);
  const result = await page.textContent('#t-result');
  assert.match(result, /^(You won: you|You lost: random bot) took the last stone\.$/);
  assert.equal(await page.locator('.stone').count(), 0, 'no stone is left');
  assert.equal(await page.locator('#t-legal-box').isVisible(), false, 'no moves after the end');
  assert.ok(await page.locator('#a-rematch').isVisible(), 'a rematch is offered');
  const log = await page.locator('#t-log li').count();
  assert.ok(log >= 3, `the log lists the moves (${log})`);
  await shot(page, 'nim-end');
  // The bot heard the same moves and the same end, and stopped by itself.
  const game = await assertBotFinished(page, bot);
  assert.equal(game.over.reason, 'rules');
  assert.deepEqual(problems, []);
});

// On a touch screen there is no hover: the first tap on a stone shows what
// would go, the second takes it; the help speaks of taps, not of keys.
test('on a touch screen, a first tap shows what would go and a second takes it', { timeout: 60000 }, async () => {
  const { context: phone, page, problems } = await openPage(live.browser, live.server, { name: 'Pia', touch: true });
  await createTable(page, { level: 'nim/traditional-3-4-5', seats: ['random'] });
  await page.locator('.stone.playable').first().waitFor({ timeout: WAIT });
  assert.doesNotMatch(await page.textContent('.board-caption'), /Key|Click|Hover/);
  const stone = page.locator('.stone[data-pile="2"][data-index="1"]');
  await stone.tap();
  assert.match(await page.textContent('.board-caption'), /^Tap it again to take 4 stones from pile 3/);
  await page.waitForTimeout(300);
  assert.equal(await ply(page), 0, 'the first tap takes nothing');
  await stone.tap();
  await waitPly(page, 1);
  assert.equal(await page.textContent('#t-log li'), 'Pia: take 4 stones from pile 3');
  assert.deepEqual(problems, []);
  await phone.close();
});
