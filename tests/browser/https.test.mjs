#!/usr/bin/env node
// The web client over HTTPS (docs/deploy.md), in Debian's headless Chromium driven by
// playwright-core: the server serves TLS itself with a certificate of a CA the test makes
// (tests/integration/make_certificates.py), which Chromium is told to trust by the CA's
// public key. A visitor who types the plain http:// address lands on https://; the page is a
// secure context, its game connection is wss://, the service worker registers and holds the
// shell, Chromium finds the page installable, and the page says Strict-Transport-Security.
//
//   ELGRANDE_SERVER=/path/to/elgrande-server node tests/browser/https.test.mjs

import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {chromium} from 'playwright-core';
import {checkProblems, chromiumPath, cleanups, launchBrowser, personInLobby, runTest, say, shot, sourceDir, startServer} from './support.mjs';

const OVERALL_TIMEOUT_MS = 120_000;

function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const {port} = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Chromium trusts certificates whose chain holds a key of this list: the test CA's.
function spkiHash(pemFile) {
  const der = new crypto.X509Certificate(fs.readFileSync(pemFile)).publicKey.export({type: 'spki', format: 'der'});
  return crypto.createHash('sha256').update(der).digest('base64');
}

async function main() {
  const tls = fs.mkdtempSync(path.join(os.tmpdir(), 'elgrande-browser-tls-'));
  cleanups.push(() => fs.rmSync(tls, {recursive: true, force: true}));
  execFileSync('/usr/bin/python3', [path.join(sourceDir, 'tests', 'integration', 'make_certificates.py'), tls]);
  const httpPort = await freePort();
  const url = await startServer([
    '--tls-certificate', path.join(tls, 'server.pem'), '--tls-private-key', path.join(tls, 'server.key'),
    '--http-port', String(httpPort),
  ]);
  say(`server at ${url}, plain HTTP on ${httpPort}`);
  const trusted = `--ignore-certificate-errors-spki-list=${spkiHash(path.join(tls, 'ca.pem'))}`;
  const browser = await launchBrowser([trusted]);

  // Typed without https://: the redirect brings the visitor to the secure page.
  const {context, page} = await personInLobby(browser, `http://localhost:${httpPort}/`, 'Tessa', 'https');
  assert.ok(page.url().startsWith(url), `landed on ${page.url()}`);
  const facts = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shell = (await caches.keys()).filter((key) => key.startsWith('elgrande-shell-'));
    return {secure: window.isSecureContext, active: Boolean(registration.active), scope: registration.scope, shell: shell.length};
  });
  assert.ok(facts.secure, 'the page is a secure context');
  assert.ok(facts.active, 'the service worker is active');
  assert.equal(facts.shell, 1, 'the service worker cached the shell');
  assert.equal(facts.scope, url);

  // The lobby came over the game's WebSocket, which on this page is wss://.
  const sockets = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));
  const reloaded = await page.reload();
  await page.waitForSelector('[data-testid=lobby]');
  assert.equal(reloaded.headers()['strict-transport-security'], 'max-age=63072000');
  assert.ok(sockets.length > 0 && sockets.every((address) => address.startsWith('wss://localhost:')), `sockets: ${sockets}`);

  await shot(page, 'https-lobby');
  await context.close();
  await installable(url, trusted);
  say(`https: redirected, secure context, wss, service worker at ${facts.scope}, installable`);
  checkProblems();
}

// What Chromium's "Install app" asks of a page, in a profile of its own: Chromium offers no
// installing in the incognito-like contexts of launchBrowser.
async function installable(url, trusted) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'elgrande-browser-install-'));
  cleanups.push(() => fs.rmSync(profile, {recursive: true, force: true}));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', trusted],
  });
  cleanups.unshift(() => context.close());
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const devtools = await context.newCDPSession(page);
  const {installabilityErrors} = await devtools.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, [], 'Chromium finds the page installable');
  await context.close();
}

await runTest(main, OVERALL_TIMEOUT_MS);
