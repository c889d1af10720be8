// The embed script (web/kafka-quota-embed.js) on a documentation page of
// another origin, against the release build: two <kafka-quota-playground>
// elements and one ```kafka-quota fence become three widgets with their
// panels and heights, in light and dark; a bad line is reported inside the
// widget; without the script the text stays; no request leaves the two
// origins (the docs site's and the playground's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch, shot } from './harness.mjs';

let playground, docs, browser, docsDir;
const fixture = await readFile(new URL('./fixtures/embed-docs.html', import.meta.url), 'utf8');

before(async () => {
  playground = await serve();
  docsDir = await mkdtemp(join(tmpdir(), 'kqp-docs-'));
  docs = await serve(docsDir, '/guide/');
  for (const theme of ['light', 'dark']) {
    await writeFile(join(docsDir, `quotas-${theme}.html`),
      fixture.replaceAll('__PLAYGROUND__', playground.url).replaceAll('__THEME__', theme));
  }
  // A Docusaurus-rendered fence (Prism: one .token-line span per line, ended
  // by <br>) with a misspelled directive on its third line.
  await writeFile(join(docsDir, 'bad.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${playground.url}kafka-quota-embed.js" defer></script></head><body><h1>Bad block</h1>
    <div class="language-kafka-quota theme-code-block"><div><pre class="prism-code language-kafka-quota" tabindex="0"><code class="codeBlockLines"><span class="token-line"><span class="token plain">connection: listener=SASL_SSL user=alice</span><br></span><span class="token-line"><span class="token plain">kafka-configs.sh --alter --add-config 'producer_byte_rate=1048576' --entity-type users --entity-name alice</span><br></span><span class="token-line"><span class="token plain">producr: records=100</span><br></span></code></pre></div></div>
    </body></html>`);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await docs?.close();
  await playground?.close();
  await rm(docsDir, { recursive: true, force: true });
});

/** Opens a docs page recording every request's origin. */
async function open(path, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, ...options });
  const requests = [];
  const errors = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  if (options.block) await context.route('**/kafka-quota-embed.js', (r) => r.abort());
  await page.goto(docs.url + path);
  return { context, page, requests, errors };
}

const origins = (urls) => [...new Set(urls.map((u) => new URL(u).origin))].sort();

/** The iframes of the widgets (in the elements' shadow roots), in page order. */
const widgets = (page) => page.locator('kafka-quota-playground');

/** Waits until widget `i` has rendered and its frame's height follows its content. */
async function ready(page, i) {
  const w = widgets(page).nth(i);
  await w.scrollIntoViewIfNeeded();
  await page.waitForFunction((i) => document.querySelectorAll('kafka-quota-playground')[i].dataset.state === 'ready', i, { timeout: 30000 });
  const handle = await w.evaluateHandle((el) => el.shadowRoot.querySelector('iframe'));
  const frame = await (await handle.asElement()).contentFrame();
  await frame.waitForSelector('body[data-first-render-ms]', { timeout: 30000 });
  // A text scenario is read by the worker; its height messages say
  // pending meanwhile, so a ready widget has read it (or failed).
  assert.equal(await frame.getByTestId('text-pending').count(), 0, `widget ${i} is ready while still reading`);
  return { w, frame, iframe: handle.asElement() };
}

for (const theme of ['light', 'dark']) {
  test(`a docs page (${theme}) turns two elements and one fence into three widgets of the right panels and heights`, async () => {
    const { context, page, requests, errors } = await open(`quotas-${theme}.html`, { colorScheme: theme === 'dark' ? 'light' : 'dark' });
    // The fence became a third element, placed before its block.
    await page.waitForFunction(() => document.querySelectorAll('kafka-quota-playground').length === 3);
    const panels = [];
    for (let i = 0; i < 3; i++) {
      const { frame, iframe } = await ready(page, i);
      const embed = frame.getByTestId('embed');
      panels.push(await embed.getAttribute('data-panel'));
      // The page's data-theme wins over the system's (emulated as the opposite).
      const scheme = await frame.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
      assert.equal(scheme, theme, `widget ${i} color-scheme`);
      const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, theme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(246, 247, 249)', `widget ${i} background`);
      // Read-only: no editing control of the scenario.
      assert.equal(await frame.locator('main.embed.readonly').count(), 1);
      // A simulation opens at the end of its run (what happened), not at 0 ms.
      if (panels[i] === 'simulation') {
        const scrub = frame.getByTestId('scrubber');
        await frame.waitForFunction(() => { const s = document.querySelector('[data-testid="scrubber"]'); return s && Number(s.value) > 0 && Math.abs(Number(s.max) - Number(s.value)) <= 1; }, null, { timeout: 10000 });
        assert.ok(Number(await scrub.inputValue()) > 0);
      }
      assert.equal(await frame.locator('details.setup:visible, form.add-quota:visible').count(), 0);
      // An Answer of a scenario without producer or consumer (issue 29):
      // once its (empty) run is settled, no warning about simulating it.
      if (panels[i] === 'answer') {
        await frame.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, null, { timeout: 30000 });
        assert.equal(await frame.locator('.answer-loss, [data-testid^="answer-run"]').count(), 0);
        assert.doesNotMatch(await frame.locator('body').innerText(), /simulat/i);
      }
      // The frame is as tall as its content: no inner scrolling, no gap (the
      // frame is of another origin: its side is measured from inside).
      const fits = async () => {
        const outer = (await iframe.boundingBox()).height;
        const inner = await frame.evaluate(() => ({
          app: document.getElementById('app').getBoundingClientRect().height,
          scroll: document.documentElement.scrollHeight,
          view: window.innerHeight,
        }));
        return Math.abs(outer - inner.app) < 40 && inner.scroll <= inner.view + 1 && Math.abs(inner.view - outer) < 1;
      };
      for (let t = 0; !(await fits()); t++) {
        assert.ok(t < 50, `widget ${i} does not fit its content`);
        await page.waitForTimeout(100);
      }
      const h = (await iframe.boundingBox()).height;
      assert.ok(h > 150, `widget ${i} is ${h} px tall`);
      assert.equal(await iframe.getAttribute('loading'), 'lazy');
      assert.match(await iframe.getAttribute('title'), /^Kafka Quota Playground: /);
    }
    assert.deepEqual(panels, ['answer', 'resolution', 'simulation']);
    // The scenario is the text's: alice's 1 MB/s user quota, the fence's producer.
    const answer = await (await ready(page, 0)).frame.locator('body').innerText();
    assert.match(answer, /alice/);
    assert.match(answer, /1048576|1 MB\/s|1\.0 MiB\/s|1 MiB\/s/);
    const sim = await (await ready(page, 2)).frame.locator('body').innerText();
    assert.match(sim, /throttled-producer/);
    // The text blocks are hidden once the widgets show; the fence's block stays in the page.
    assert.equal(await page.locator('pre:has(code.language-kafka-quota)').isVisible(), false);
    assert.equal(await page.locator('pre:has(code.language-kafka-quota)').count(), 1);
    assert.equal(await widgets(page).nth(0).locator('pre').isVisible(), false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `embed-docs-${theme}`, true);
    // Switching the page's theme re-themes the frames (theme="auto").
    const other = theme === 'dark' ? 'light' : 'dark';
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, other);
    const { frame } = await ready(page, 0);
    await frame.waitForFunction((t) => getComputedStyle(document.documentElement).colorScheme === t, other, { timeout: 5000 });
    // Two origins only: the docs site and the playground.
    assert.deepEqual(origins(requests), origins([docs.url, playground.url]));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the widget height follows its content both ways (a <details> opening and closing)', async () => {
  const { context, page } = await open('quotas-light.html');
  const { frame, iframe } = await ready(page, 1);
  const height = async () => (await iframe.boundingBox()).height;
  await page.waitForFunction(() => true);
  const h0 = await height();
  await frame.locator('#resolution details > summary').first().click();
  await page.waitForFunction((h) => document.querySelectorAll('kafka-quota-playground')[1].shadowRoot.querySelector('iframe').getBoundingClientRect().height > h + 20, h0);
  await frame.locator('#resolution details > summary').first().click();
  await page.waitForFunction((h) => document.querySelectorAll('kafka-quota-playground')[1].shadowRoot.querySelector('iframe').getBoundingClientRect().height <= h + 1, h0);
  await context.close();
});

test('a Docusaurus fence with a bad line shows the line, the column and the text inside the widget', async () => {
  const { context, page, requests, errors } = await open('bad.html');
  const { frame } = await ready(page, 0);
  const problems = frame.getByTestId('text-problem');
  await problems.first().waitFor();
  const first = await problems.first().innerText();
  assert.match(first, /^Line 3, column 1: .*producr/);
  const listing = await frame.getByTestId('text-listing').innerText();
  // The Prism lines came through as lines: the text is the block's, numbered.
  assert.match(listing, /^ {2}1 connection: listener=SASL_SSL user=alice$/m);
  assert.match(listing, /^ {2}3 producr: records=100$/m);
  assert.match(listing, /^ {4}\^$/m);
  // Said to a docs page's reader: the format's name, never a repository path (issue 29).
  const box = await frame.getByTestId('text-problems').innerText();
  assert.doesNotMatch(box, /\.md\b|docs\//);
  assert.match(await frame.getByTestId('text-format-hint').innerText(), /^The scenario text format takes kafka-configs\.sh --alter commands/);
  // Its own box says it, not the notice bar over a default scenario the widget does not show.
  assert.equal(await frame.getByTestId("notice").count(), 0);
  assert.equal(await frame.locator("#answer").count(), 0);
  // The widget is not a blank box: it has the height of the problems.
  const h = (await (await page.locator('kafka-quota-playground').evaluateHandle((el) => el.shadowRoot.querySelector('iframe'))).asElement().boundingBox()).height;
  assert.ok(h > 150, `${h} px`);
  await shot(page, 'embed-bad-line', true);
  assert.deepEqual(origins(requests), origins([docs.url, playground.url]));
  assert.deepEqual(errors, []);
  await context.close();
});

test('without the script the page shows the text as plain code blocks', async () => {
  const { context, page } = await open('quotas-light.html', { block: true });
  await page.waitForLoadState('load');
  assert.equal(await page.locator('iframe').count(), 0);
  const text = await page.locator('body').innerText();
  assert.match(text, /kafka-configs\.sh --bootstrap-server localhost:9092 --alter --add-config 'producer_byte_rate=1048576'/);
  assert.match(text, /connection: listener=SASL_SSL user=alice client\.id=app-1/);
  assert.match(text, /producer: records=30000 record\.size=1000 acks=1/);
  assert.ok(await page.locator('code.language-kafka-quota').isVisible());
  await shot(page, 'embed-docs-no-script', true);
  await context.close();
});

test('a fixed height, a v1. link and readonly="false" reach the frame', async () => {
  const main = await browser.newContext();
  const p = await main.newPage();
  await p.goto(playground.url);
  await p.waitForSelector('body[data-first-render-ms]');
  const link = new URL(await p.getByTestId('share-link').inputValue()).hash.slice(1);
  await main.close();
  await writeFile(join(docsDir, 'fixed.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${playground.url}kafka-quota-embed.js"></script></head><body>
    <kafka-quota-playground panel="quotas" height="420" readonly="false" theme="dark" link="${link}"></kafka-quota-playground></body></html>`);
  const { context, page } = await open('fixed.html');
  const { frame, iframe } = await ready(page, 0);
  const src = await iframe.getAttribute('src');
  assert.equal(src, `${playground.url}index.html?embed=quotas&theme=dark#${link}`);
  assert.equal((await iframe.boundingBox()).height, 420);
  // Editable: the quota form is there and enabled.
  assert.equal(await frame.locator('form.add-quota button[type=submit]').count(), 1);
  assert.equal(await frame.locator('fieldset.readonly-panel').count(), 0);
  await context.close();
});

test('?readonly leaves no enabled control in the editing panels, and the simulation its player only', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  const enabled = () => page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((e) => !e.matches(':disabled') && e.offsetParent !== null).map((e) => e.getAttribute('aria-label') || e.id || e.textContent.trim()));
  for (const panel of ['quotas', 'connection', 'lessons', 'import']) {
    await page.goto(`${playground.url}?embed=${panel}`);
    await page.waitForSelector('body[data-first-render-ms]');
    assert.ok((await enabled()).length > 0, `${panel} is editable without ?readonly`);
    await page.goto(`${playground.url}?embed=${panel}&readonly`);
    await page.waitForSelector('body[data-first-render-ms]');
    assert.deepEqual(await enabled(), [], `${panel} with ?readonly`);
    // The content stays: the panel's heading and text are there.
    assert.ok((await page.locator(`#${panel}`).innerText()).length > 40, panel);
  }
  await page.goto(`${playground.url}?embed=simulation&readonly`);
  await page.waitForSelector('body[data-first-render-ms]');
  // The player is enabled once the run (from the simulation worker) is there.
  await page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
  const left = await enabled();
  assert.ok(left.includes('Play') && left.includes('Playback speed'), left.join(', '));
  assert.equal(left.some((n) => /Add producer|Add consumer|Remove/.test(n)), false, left.join(', '));
  assert.equal(await page.locator('details.setup').isVisible(), false);
  // The cluster panel: its editor hidden, its per-broker view kept.
  await page.goto(`${playground.url}?embed=cluster&readonly`);
  await page.waitForSelector('body[data-first-render-ms]');
  await page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
  assert.deepEqual(await enabled(), []);
  assert.ok(await page.getByTestId('cluster-view').isVisible());
  await context.close();
});

test("the Share panel's element snippet, pasted into a docs page, shows the page's scenario", async () => {
  const main = await browser.newContext();
  const p = await main.newPage();
  await p.goto(playground.url);
  await p.waitForSelector('body[data-first-render-ms]');
  await p.locator('#embed-panel').selectOption('resolution');
  const snippet = await p.getByTestId('element-snippet').inputValue();
  const full = await p.getByTestId('share-link').inputValue();
  const link = new URL(full).hash.slice(1);
  await main.close();
  // Inside the element, a link to the same scenario: what a page without
  // JavaScript shows (issue 29).
  assert.equal(snippet, `<script src="${playground.url}kafka-quota-embed.js" defer></script>\n<kafka-quota-playground panel="resolution" link="${link}">\n  <a href="${full}">Open this scenario in the Kafka Quota Playground</a>\n</kafka-quota-playground>`);
  await writeFile(join(docsDir, 'pasted.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><h1>Pasted</h1>\n${snippet}\n</body></html>`);
  const { context, page, requests, errors } = await open('pasted.html');
  const { frame } = await ready(page, 0);
  assert.equal(await frame.getByTestId('embed').getAttribute('data-panel'), 'resolution');
  assert.match(await frame.locator('body').innerText(), /tenant-a/);
  // The widget took the link's place.
  assert.equal(await page.locator('kafka-quota-playground > a').isVisible(), false);
  assert.deepEqual(origins(requests), origins([docs.url, playground.url]));
  assert.deepEqual(errors, []);
  await context.close();

  // Without the script: the link, to the full page with the same scenario.
  const bare = await open('pasted.html', { block: true });
  await bare.page.waitForLoadState('load');
  assert.equal(await bare.page.locator('iframe').count(), 0);
  const a = bare.page.locator('kafka-quota-playground > a');
  assert.ok(await a.isVisible());
  assert.equal(await a.innerText(), 'Open this scenario in the Kafka Quota Playground');
  assert.equal(await a.getAttribute('href'), full);
  await a.click();
  await bare.page.waitForSelector('body[data-first-render-ms]');
  assert.equal(new URL(bare.page.url()).hash.slice(1), link);
  assert.equal(await bare.page.getByTestId('principal-name').innerText(), 'User:tenant-a');
  await bare.context.close();
});

test("the Share panel's link and snippets are read-only, selected whole on focus (light, 390 px)", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(playground.url);
  await page.waitForSelector('body[data-first-render-ms]');
  // The panel fits the phone's width.
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.doc <= widths.view, JSON.stringify(widths));
  // tests/e2e/artifacts/share-panel-light-390.png: the whole panel in view, as it opens.
  const height = await page.locator('#share').evaluate((e) => Math.ceil(e.getBoundingClientRect().height));
  await page.setViewportSize({ width: 390, height: Math.max(844, height + 16) });
  // (Twice: the panels above are laid out as they near the viewport, which moves this one.)
  for (let i = 0; i < 2; i++) {
    await page.evaluate(() => new Promise((r) => { document.getElementById('share').scrollIntoView({ block: 'start' }); requestAnimationFrame(() => requestAnimationFrame(r)); }));
  }
  await shot(page, 'share-panel-light-390', false);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const id of ['share-link', 'embed-snippet', 'element-snippet']) {
    const field = page.getByTestId(id);
    await field.scrollIntoViewIfNeeded();
    assert.notEqual(await field.getAttribute('readonly'), null, `${id} has no readonly attribute`);
    assert.equal(await field.isEditable(), false, `${id} is editable`);
    const before = await field.inputValue();
    await field.focus();
    // Focus selects the whole text, ready to copy.
    assert.deepEqual(await field.evaluate((e) => [e.selectionStart, e.selectionEnd]), [0, before.length], id);
    // Typing (a reader's stray key) changes nothing.
    await page.keyboard.press('End');
    await page.keyboard.type('x<');
    await page.keyboard.press('Backspace');
    assert.equal(await field.inputValue(), before, id);
  }
  // A click (focus by the mouse) selects the whole snippet too.
  await page.evaluate(() => document.activeElement?.blur());
  const element = page.getByTestId('element-snippet');
  await element.click();
  assert.deepEqual(await element.evaluate((e) => [e.selectionStart, e.selectionEnd]), [0, (await element.inputValue()).length]);
  await context.close();
});

test('a javascript: link makes no frame and keeps the text; a fence inside an element is not upgraded twice', async () => {
  await writeFile(join(docsDir, 'edge.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${playground.url}kafka-quota-embed.js"></script></head><body>
    <kafka-quota-playground id="evil" link="javascript:alert(1)//#v1.x"><pre>connection: user=alice</pre></kafka-quota-playground>
    <kafka-quota-playground id="nested" panel="answer"><pre><code class="language-kafka-quota">connection: listener=SASL_SSL user=alice client.id=app-1</code></pre></kafka-quota-playground>
    </body></html>`);
  const { context, page, errors } = await open('edge.html');
  let dialog = false;
  page.on('dialog', (d) => { dialog = true; d.dismiss(); });
  const { frame } = await ready(page, 1);
  assert.match(await frame.locator('body').innerText(), /User:alice/);
  assert.equal(await page.locator('kafka-quota-playground').count(), 2);
  assert.equal(await page.locator('#evil iframe').count(), 0);
  assert.ok(await page.locator('#evil pre').isVisible());
  assert.equal(dialog, false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a fence's '# embed:' line sets only the widget's options; a link that is no address is said, not thrown", async () => {
  await writeFile(join(docsDir, 'hostile.html'), `<!doctype html><html lang="en" data-theme="dark"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${playground.url}kafka-quota-embed.js" defer></script></head><body>
    <pre><code class="language-kafka-quota"># embed: onmouseover=alert(1) style=position:fixed;inset:0 link=https://evil.example/#v1.x "x"=1 src=https://evil.example/ panel=resolution
connection: listener=SASL_SSL user=alice client.id=app-1</code></pre>
    <kafka-quota-playground id="badlink" link="http://[::1"><pre>connection: user=alice</pre></kafka-quota-playground>
    </body></html>`);
  const { context, page, errors, requests } = await open('hostile.html', { colorScheme: 'light' });
  const { w, frame } = await ready(page, 0);
  // No theme attribute: the widget follows the page (dark), not the system (light).
  assert.equal(await frame.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark');
  const attrs = await w.evaluate((el) => el.getAttributeNames().sort());
  assert.deepEqual(attrs, ['data-state', 'panel']);
  assert.equal(await frame.locator('main.embed').getAttribute('data-panel'), 'resolution');
  await page.locator('#badlink p[role=note]').waitFor();
  assert.match(await page.locator('#badlink p[role=note]').innerText(), /not shown because its link attribute is not an address/);
  assert.ok(await page.locator('#badlink pre').isVisible());
  assert.deepEqual(origins(requests), origins([docs.url, playground.url]));
  assert.deepEqual(errors, []);
  await context.close();
});

test('oEmbed: the page names oembed.json, a rich iframe of the read-only answer; scripts/oembed.mjs makes both absolute', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(playground.url);
  const href = await page.locator('link[rel="alternate"][type="application/json+oembed"]').getAttribute('href');
  const response = await page.request.get(new URL(href, playground.url).href);
  assert.equal(response.status(), 200);
  const o = await response.json();
  assert.equal(o.version, '1.0');
  assert.equal(o.type, 'rich');
  assert.ok(o.width > 0 && o.height > 0);
  const src = /<iframe src="([^"]+)"/.exec(o.html)[1].replaceAll('&amp;', '&');
  // The described iframe works: the read-only answer panel of the default scenario.
  await page.goto(new URL(src, new URL(href, playground.url)).href);
  await page.waitForSelector('body[data-first-render-ms]');
  assert.equal(await page.getByTestId('embed').getAttribute('data-panel'), 'answer');
  assert.equal(await page.locator('main.embed.readonly').count(), 1);
  await context.close();

  const { execFileSync } = await import('node:child_process');
  const { dist } = await import('./harness.mjs');
  const copy = await mkdtemp(join(tmpdir(), 'kqp-oembed-'));
  for (const f of ['index.html', 'oembed.json']) await writeFile(join(copy, f), await readFile(join(dist, f)));
  execFileSync('node', [fileURLToPath(new URL('../../scripts/oembed.mjs', import.meta.url)), 'https://quotas.example.com/tools', copy]);
  const abs = JSON.parse(await readFile(join(copy, 'oembed.json'), 'utf8'));
  assert.equal(abs.provider_url, 'https://quotas.example.com/tools/');
  assert.match(abs.html, /<iframe src="https:\/\/quotas\.example\.com\/tools\/\?embed=answer&amp;readonly"/);
  // The release build's index.html is minified (attributes reordered, unquoted).
  const link = /<link\b[^>]*json\+oembed[^>]*>/.exec(await readFile(join(copy, 'index.html'), 'utf8'))[0];
  assert.match(link, /\bhref="https:\/\/quotas\.example\.com\/tools\/oembed\.json"/);
  await rm(copy, { recursive: true, force: true });
});

test('the full page reads a #text= link too: its scenario, or its problems above the default', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const bad = "connection: listener=TLS user=bob\nkafka-configs.sh --alter --add-config 'producer_byte_rate=abc' --entity-type users --entity-name bob";
  await page.goto(`${playground.url}#text=${encodeURIComponent(bad)}`);
  await page.getByTestId('text-problems').waitFor({ timeout: 30000 });
  const problems = await page.getByTestId('text-problem').allInnerTexts();
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems[0], /^Line 1, column 13: .*TLS/);
  assert.match(problems[1], /^Line 2, column \d+: .*producer_byte_rate/);
  assert.match(await page.getByTestId('text-problems').innerText(), /default scenario/);
  // The rest of the page works on the default scenario.
  assert.equal(await page.getByTestId('principal-name').innerText(), 'User:tenant-a');
  await page.goto(`${playground.url}index.html#text=${encodeURIComponent('connection: listener=SASL_SSL user=bob client.id=c9')}`);
  await page.reload();
  await page.getByTestId('principal-name').filter({ hasText: 'User:bob' }).waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('text-problems').count(), 0);
  await context.close();
});

test('at 390 px a bad block opens its listing scrolled to the left: line numbers and carets in view', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // Line 2 is long, with a problem far along it; line 3 has one at its start.
  const bad = "connection: listener=SASL_SSL user=bob\nkafka-configs.sh --bootstrap-server broker-1.kafka.internal.example.com:9092 --alter --add-config 'producer_byte_rate=abc' --entity-type users --entity-name bob\nproducr: records=100";
  await page.goto(`${playground.url}?embed=answer#text=${encodeURIComponent(bad)}`);
  await page.getByTestId('text-problems').waitFor({ timeout: 30000 });
  const problems = await page.getByTestId('text-problem').allInnerTexts();
  const column = Number(/^Line 2, column (\d+):/.exec(problems[0])?.[1]);
  assert.ok(column > 60, `${problems[0]}: far enough along to be off a phone's screen`);
  assert.match(problems[1], /^Line 3, column 1:/);
  const listing = page.getByTestId('text-listing');
  // Give any late scrolling a chance, then look.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await listing.evaluate((e) => e.scrollLeft), 0);
  assert.ok(await listing.evaluate((e) => e.scrollWidth > e.clientWidth), 'the long line scrolls inside the listing');
  const box = await listing.boundingBox();
  const inside = (b) => b.x >= box.x && b.x + b.width <= box.x + box.width;
  // Line 3's number and its caret (column 1) are on screen.
  const row = page.locator('.text-listing .ln').nth(2);
  assert.match(await row.innerText(), /^ {2}3 producr/);
  const number = await row.evaluate((e) => { const r = document.createRange(); r.setStart(e.firstChild, 0); r.setEnd(e.firstChild, 4); const b = r.getBoundingClientRect(); return { x: b.x, width: b.width }; });
  assert.ok(inside(number), `line 3's number at ${number.x} px is outside the listing (${box.x}..${box.x + box.width})`);
  assert.ok(inside(await page.locator('.caret-mark').nth(1).boundingBox()), "line 3's caret is outside the listing");
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.doc <= widths.view, JSON.stringify(widths));
  await context.close();
});

test('theme="auto" follows MkDocs Material (body[data-md-color-scheme]) and a class on <html>', async () => {
  await writeFile(join(docsDir, 'material.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${playground.url}kafka-quota-embed.js" defer></script></head><body data-md-color-scheme="slate">
    <pre class="kafka-quota"><code># embed: theme=auto
connection: listener=SASL_SSL user=alice client.id=app-1</code></pre></body></html>`);
  const { context, page, errors } = await open('material.html', { colorScheme: 'light' });
  const { frame, iframe } = await ready(page, 0);
  assert.match(await iframe.getAttribute('src'), /\?embed=answer&readonly&theme=dark#text=/);
  assert.equal(await frame.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark');
  await page.evaluate(() => { document.body.dataset.mdColorScheme = 'default'; });
  await frame.waitForFunction(() => getComputedStyle(document.documentElement).colorScheme === 'light', null, { timeout: 5000 });
  await page.evaluate(() => { delete document.body.dataset.mdColorScheme; document.documentElement.className = 'dark'; });
  await frame.waitForFunction(() => getComputedStyle(document.documentElement).colorScheme === 'dark', null, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await context.close();
});
