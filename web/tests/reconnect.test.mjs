// (c) Coming back: a reload mid-game returns to the same seat and plays on;
// a server restart (same port, same database) is waited out, said, and the
// seat resumed with its token.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, startServer, openPage, createTable, playToEnd, waitPly, waitConnected, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

const takeOne = async (p) => p.locator('.stone.playable').last().click();

test('a reload and a server restart come back to the same seat', { timeout: 60000 }, async () => {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(page, { level: 'nim/traditional-3-4-5', seats: ['random'] });
  await page.locator('.stone.playable').first().waitFor({ timeout: WAIT });
  await takeOne(page);
  await waitPly(page, 2); // ours, and the agent's answer

  await page.reload();
  await waitConnected(page);
  await waitPly(page, 2);
  assert.equal(await page.evaluate(() => location.hash), `#table=${table}&seat=1`);
  assert.match(await page.textContent('#t-seats li:first-child'), /Ann \(you\)/);
  assert.equal(await page.locator('#t-log li').count(), 2, 'the log is filled from the state');
  await page.locator('.stone.playable').first().waitFor({ timeout: WAIT });
  await takeOne(page);
  await waitPly(page, 4);

  // The server goes away: the page says so and counts down to its retry.
  const port = live.server.port;
  await live.server.stop({ keep: true });
  await page.waitForFunction(() => /Connection lost: trying again/.test(document.querySelector('#conn').textContent), null, { timeout: WAIT });
  live.server = await startServer({ port, dir: live.server.dir }); // the one stopped after
  await waitConnected(page, 15000);
  await page.locator('.stone.playable').first().waitFor({ timeout: WAIT });
  assert.equal(await page.locator('#t-log li').count(), 4);

  await playToEnd(page, { playable: '.stone.playable', move: takeOne, maxMoves: 12, timeout: 30000 });
  assert.match(await page.textContent('#t-result'), /took the last stone/);
  // The connection's loss is logged by the browser (a failed WebSocket);
  // nothing else may be.
  assert.deepEqual(problems.filter((p) => !/WebSocket/.test(p)), []);
});
