// The page over https://: a server started with a certificate and key
// serves the page and its WebSocket (wss://) on one port, and a game is
// played there; the seat's token goes in no HTTP request, only on the
// WebSocket. The certificate is made here, self-signed for 127.0.0.1,
// and the browser's context told to accept it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useServerAndBrowser, createTable, waitConnected, waitPly, WAIT } from './harness.mjs';

// The certificate is made as the server starts, before the tests.
const live = useServerAndBrowser(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tabula-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { args: ['--tls-cert', cert, '--tls-key', key] };
});

test('the page and its WebSocket over https and wss, a move played', { timeout: 60000 }, async () => {
  assert.match(live.server.url, /^https:\/\//);
  const context = await live.browser.newContext({ ignoreHTTPSErrors: true });
  await context.addInitScript(() => localStorage.setItem('tabula.name', 'Ann'));
  const page = await context.newPage();
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  const requests = [];
  page.on('request', (r) => requests.push(`${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`));
  const answer = await page.goto(live.server.url);
  assert.equal(answer.status(), 200);
  assert.match(answer.headers()['content-security-policy'], /default-src 'self'/);
  await waitConnected(page);
  await createTable(page, { level: 'nim/traditional-3-4-5', seats: ['random'] });
  await page.locator('.stone.playable').first().waitFor({ timeout: WAIT });
  await page.locator('.stone.playable').last().click();
  await waitPly(page, 1);
  // A reload comes back to the seat with its token, sent on the WebSocket
  // alone: no HTTP request of the page ever holds it.
  await page.reload();
  await waitConnected(page);
  await waitPly(page, 1);
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tabula.seat.')).map((k) => JSON.parse(localStorage.getItem(k)).token));
  assert.equal(kept.length, 1);
  assert.match(kept[0], /^[0-9a-f]{32}$/);
  assert.ok(requests.length >= 2 && requests.every((r) => !r.includes(kept[0])), 'the token is in no HTTP request');
  assert.deepEqual([...new Set(sockets)], [live.server.url.replace('https:', 'wss:')], 'the page talks to its own server only');
});
