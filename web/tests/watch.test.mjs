// (d) A spectator (#watch=ID) sees each move as it is played, has no move
// to make nor any seat's buttons; a resignation (asked twice) ends the game
// for both, in words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, createTable, waitPly, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

test('a spectator follows the moves and has no move buttons', { timeout: 60000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'nim/traditional-3-4-5', seats: ['random'] });
  await ann.page.locator('.stone.playable').first().waitFor({ timeout: WAIT });

  const sam = await openPage(live.browser, live.server, { name: 'Sam', hash: `#watch=${table}` });
  await waitPly(sam.page, 0);
  assert.equal(await sam.page.textContent('#t-title'), 'Nim · Traditional 3-4-5');
  assert.match(await sam.page.textContent('#t-turn'), /^Ann to move\.$/);

  for (let i = 0; i < 2; i++) {
    await ann.page.locator('.stone.playable').last().click();
    await waitPly(sam.page, 2 * (i + 1)); // Ann's move and the agent's
    assert.equal(await sam.page.locator('#t-log li').count(), 2 * (i + 1));
    await ann.page.locator('.stone.playable').first().waitFor({ timeout: WAIT });
  }
  const log = await sam.page.locator('#t-log li').allTextContents();
  assert.match(log[0], /^Ann: take 1 stone from pile \d$/);
  assert.match(log[1], /^random \(computer\): take \d+ stones? from pile \d$/);

  // Nothing to press for a spectator: no stone, no move, no seat's button.
  assert.equal(await sam.page.locator('.stone.playable').count(), 0);
  assert.equal(await sam.page.locator('button.move').count(), 0);
  assert.equal(await sam.page.locator('#t-legal-box').isVisible(), false);
  for (const b of ['#a-takeback', '#a-resign', '#a-rematch']) assert.equal(await sam.page.locator(b).isVisible(), false, b);
  // Clicking a stone does nothing.
  await sam.page.locator('.stone').first().click();
  assert.equal(await sam.page.evaluate(() => document.querySelector('#table').dataset.ply), '4');

  // Resign asks first; "No" plays on, "Yes" ends it.
  await ann.page.click('#a-resign');
  assert.ok(await ann.page.locator('#t-confirm').isVisible());
  await ann.page.click('#a-resign-no');
  assert.equal(await ann.page.locator('#t-confirm').isVisible(), false);
  await ann.page.click('#a-resign');
  await ann.page.click('#a-resign-yes');
  await ann.page.locator('#t-result').waitFor({ timeout: WAIT });
  assert.equal(await ann.page.textContent('#t-result'), 'You lost: you resigned.');
  await sam.page.locator('#t-result').waitFor({ timeout: WAIT });
  assert.equal(await sam.page.textContent('#t-result'), 'random (computer) won: Ann resigned.');
  assert.equal(await sam.page.locator('#a-rematch').isVisible(), false, 'no rematch button for a spectator');

  assert.deepEqual(ann.problems, []);
  assert.deepEqual(sam.problems, []);
});
