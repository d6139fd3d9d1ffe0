// (e) Two people at one Nim table: one creates it and sends the invitation
// link, the other opens it; each sees the other's moves, a take-back is
// asked and accepted, the game ends in words for both, and a rematch takes
// both to a new table with the seats turned round.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, createTable, waitPly, atPly, until, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

test('two people at one table by the invitation link', { timeout: 60000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'nim/beginner-2-3', seats: ['person'] });
  await ann.page.locator('#t-invite').waitFor({ timeout: WAIT });
  assert.match(await ann.page.textContent('#t-turn'), /Waiting for a player at seat 2/);
  const link = await ann.page.inputValue('#invite-2');
  assert.equal(link, `${live.server.url}#table=${table}&seat=2`);
  await ann.page.click('#t-invite button');
  await until(async () => /Copied|Selected/.test(await ann.page.textContent('#t-invite .copied')), { what: 'the copy said' });

  const bob = await openPage(live.browser, live.server, { name: 'Bob', hash: link.slice(live.server.url.length) });
  await waitPly(bob.page, 0);
  assert.equal(await bob.page.evaluate(() => location.hash), `#table=${table}&seat=2`);
  await ann.page.waitForFunction(() => /Bob/.test(document.querySelector('#t-seats').textContent), null, { timeout: WAIT });
  assert.equal(await ann.page.locator('#t-invite').isVisible(), false, 'no invitation once the seat is taken');
  assert.match(await bob.page.textContent('#t-seats'), /Ann.*here.*Bob \(you\)/);
  assert.match(await bob.page.textContent('#t-turn'), /^Ann to move\.$/);

  // Ann moves; Bob sees it. Ann takes it back; Bob accepts.
  await ann.page.locator('.stone.playable[data-pile="1"]').last().click();
  await waitPly(bob.page, 1);
  assert.equal(await bob.page.textContent('#t-log li'), 'Ann: take 1 stone from pile 2');
  await ann.page.click('#a-takeback');
  await bob.page.waitForFunction(() => /Ann asks to take back to move 1\./.test(document.querySelector('#t-takeback').textContent), null, { timeout: WAIT });
  // Each page hears the question on its own connection: Ann's may be later than Bob's.
  await ann.page.waitForFunction(() => /You asked to take back to move 1/.test(document.querySelector('#t-takeback').textContent), null, { timeout: WAIT });
  await bob.page.click('#t-takeback button:has-text("Accept")');
  await atPly(ann.page, 0);
  await atPly(bob.page, 0);
  assert.equal(await bob.page.locator('#t-log li').count(), 0);

  // Then a whole game, each moving when the page lets them.
  const pages = [ann.page, bob.page];
  for (let i = 0; i < 10; i++) {
    const over = await ann.page.evaluate(() => !document.querySelector('#t-result').hidden);
    if (over) break;
    const mover = pages[i % 2];
    await mover.locator('.stone.playable').last().waitFor({ timeout: WAIT });
    await mover.locator('.stone.playable').last().click();
    await waitPly(pages[(i + 1) % 2], i + 1);
  }
  await ann.page.locator('#t-result').waitFor({ timeout: WAIT });
  await bob.page.locator('#t-result').waitFor({ timeout: WAIT });
  const said = [await ann.page.textContent('#t-result'), await bob.page.textContent('#t-result')].sort();
  assert.ok(
    (said[0] === 'You lost: Ann took the last stone.' && said[1] === 'You won: you took the last stone.') ||
      (said[0] === 'You lost: Bob took the last stone.' && said[1] === 'You won: you took the last stone.'),
    said.join(' / '),
  );
  assert.equal(await ann.page.locator('#t-log li').count(), await bob.page.locator('#t-log li').count());

  // A rematch: Ann asks, Bob accepts; both move to the new table, turned.
  await ann.page.click('#a-rematch');
  await bob.page.waitForFunction(() => /Ann asks for a rematch/.test(document.querySelector('#t-takeback').textContent), null, { timeout: WAIT });
  assert.equal(await bob.page.textContent('#a-rematch'), 'Accept the rematch');
  await bob.page.click('#a-rematch');
  const hashes = await Promise.all(
    [ann.page, bob.page].map((p) => p.waitForFunction((old) => !location.hash.includes(old) && location.hash, table, { timeout: WAIT }).then((h) => h.jsonValue())),
  );
  const fresh = new URLSearchParams(hashes[0].slice(1)).get('table');
  assert.notEqual(fresh, table);
  assert.equal(hashes[0], `#table=${fresh}&seat=2`);
  assert.equal(hashes[1], `#table=${fresh}&seat=1`);
  await atPly(ann.page, 0);
  await bob.page.locator('.stone.playable').last().click();
  await waitPly(ann.page, 1);
  assert.equal(await ann.page.textContent('#t-log li'), 'Bob: take 1 stone from pile 2');
  // Each token is kept: a reload of Ann's page sits her at seat 2 again.
  await ann.page.reload();
  await waitPly(ann.page, 1);
  assert.match(await ann.page.textContent('#t-seats li:nth-child(2)'), /Ann \(you\)/);

  assert.deepEqual(ann.problems, []);
  assert.deepEqual(bob.problems, []);
});
