// Shared set-up for the browser tests: a static server over dist/ on a free
// loopback port, and Debian's Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
// KQP_DIST points the tests at another build (e.g. trunk build --dist /tmp/x).
export const dist = process.env.KQP_DIST ?? join(root, 'dist');
export const artifacts = join(root, 'tests', 'e2e', 'artifacts');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/**
 * Serves `dir` on 127.0.0.1 at a free port, under the path `prefix`
 * (`/` by default; `/docs/tools/` serves the page as a docs site would);
 * resolves to { url, close }. With `{ gzip: true }` a file is sent
 * gzip-compressed (level 9, as a static host serves a pre-compressed file)
 * to a client that accepts it, for the benchmark's throttled-link load.
 */
export async function serve(dir = dist, prefix = '/', { gzip = false } = {}) {
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    const full = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!full.startsWith(prefix)) { res.writeHead(404).end('not found'); return; }
    const path = normalize('/' + full.slice(prefix.length));
    const file = join(dir, path.endsWith('/') ? path + 'index.html' : path);
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      const type = types[extname(file)] ?? 'application/octet-stream';
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        if (!compressed.has(file)) compressed.set(file, gzipSync(body, { level: 9 }));
        res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip' });
        res.end(compressed.get(file));
        return;
      }
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => server.close(r)) };
}

/** Launches headless Debian Chromium with the flags this machine needs. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** Opens a page that records console errors and page errors into `errors`. */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { page, errors, context };
}

/** Saves a screenshot under tests/e2e/artifacts/ (not committed). */
export async function shot(page, name, fullPage = true) {
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage });
}

/**
 * Opens `url` and waits for the first complete render of the app, then for
 * its first simulation run: the page starts the simulation worker only when
 * the Simulation or Cluster and time panel comes near the viewport, so this
 * scrolls to the first of them and back to the top (a page without either,
 * e.g. `?embed=answer`, has no run to wait for). `{ run: false }` skips it.
 */
export async function openApp(browser, url, options = {}) {
  const { run = true, ...contextOptions } = options;
  const opened = await openPage(browser, url, contextOptions);
  await opened.page.waitForSelector('body[data-first-render-ms]', { timeout: 20000 });
  if (run) await waitForRun(opened.page);
  return opened;
}

/** Scrolls to the panel that shows the run, waits until the run of the page's
 * revision is on screen, and scrolls back to the top. */
export async function waitForRun(page) {
  const panel = page.locator('#simulation, #cluster').first();
  if (!(await panel.count())) return;
  await panel.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Opens the Simulation panel's "Clients and broker settings" section, if closed. */
export async function openSetup(page) {
  const setup = page.locator('details.setup');
  if (!(await setup.evaluate((d) => d.open))) await setup.locator('summary').click();
}

/** The text of `locator` as a reader sees it once scrolled there. The
 * panels of the run are laid out only near the viewport (`content-visibility:
 * auto`, web/style.css), and the innerText of a part not laid out is empty. */
export async function shownText(locator) {
  await locator.scrollIntoViewIfNeeded();
  // The browser lays a part out again once it is near the viewport, at the
  // next frame after the scroll.
  await locator.page().evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return locator.innerText();
}

/**
 * The playground link of `scenario` (the bare scenario object): `#v1.` and
 * base64url(raw deflate(JSON)), as quota-formats' permalink writes it.
 */
export async function permalink(scenario) {
  const { deflateRawSync } = await import('node:zlib');
  return 'v1.' + deflateRawSync(Buffer.from(JSON.stringify(scenario)), { level: 9 }).toString('base64url');
}
