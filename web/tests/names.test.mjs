// (f) A name is text, never markup: a player named like an HTML injection
// shows as those very characters, in the header, the seats, the log, the
// lobby's list and a result, and nothing runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, createTable, waitPly, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

const EVIL = '<img src=x onerror=alert(1)>';

test('a name made of markup is shown as text', { timeout: 60000 }, async () => {
  const eve = await openPage(live.browser, live.server, { name: EVIL });
  assert.equal(await eve.page.textContent('#me-name'), EVIL);
  const table = await createTable(eve.page, { level: 'nim/beginner-2-3', seats: ['person'], listed: true });
  await eve.page.locator('#t-seats li').first().waitFor({ timeout: WAIT });
  assert.equal(await eve.page.textContent('#t-seats li:first-child .seat-name'), EVIL);

  // Someone else finds the table in the lobby, by the name as text.
  const bob = await openPage(live.browser, live.server, { name: 'Bob' });
  const item = bob.page.locator('#tables-list li.table-item', { hasText: EVIL });
  await item.waitFor({ timeout: WAIT });
  await item.locator('a', { hasText: 'Join' }).click();
  await waitPly(bob.page, 0);
  assert.equal(await bob.page.evaluate(() => location.hash), `#table=${table}&seat=2`);
  assert.equal(await bob.page.textContent('#t-seats li:first-child .seat-name'), EVIL);
  assert.equal(await bob.page.textContent('#t-turn'), `${EVIL} to move.`);

  await eve.page.locator('.stone.playable').last().waitFor({ timeout: WAIT });
  await eve.page.locator('.stone.playable').last().click();
  await waitPly(bob.page, 1);
  assert.equal(await bob.page.textContent('#t-log li'), `${EVIL}: take 1 stone from pile 2`);
  await bob.page.click('#a-resign');
  await bob.page.click('#a-resign-yes');
  await bob.page.locator('#t-result').waitFor({ timeout: WAIT });
  assert.equal(await bob.page.textContent('#t-result'), 'You lost: you resigned.');
  await eve.page.locator('#t-result').waitFor({ timeout: WAIT });
  assert.equal(await eve.page.textContent('#t-result'), 'You won: Bob resigned.');

  for (const p of [eve.page, bob.page]) {
    assert.equal(await p.locator('img').count(), 0, 'no element was made of the name');
  }
  assert.deepEqual(eve.problems, []);
  assert.deepEqual(bob.problems, [], 'no alert, no error');
});
