// The screenshots of docs/embedding.md, from the release build: a docs page
// on its own origin with the element, an MkDocs fence, a Docusaurus fence
// (dark) and the plain iframe. Run: node tests/e2e/embed-screenshots.mjs
// (after trunk build --release); writes docs/img/embed-*.png.
import { mkdtemp, writeFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch } from './harness.mjs';

const out = fileURLToPath(new URL('../../docs/img/', import.meta.url));
const playground = await serve();
const dir = await mkdtemp(join(tmpdir(), 'kqp-shots-'));
const docs = await serve(dir, '/docs/');
const P = playground.url;

const TEXT = `kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'producer_byte_rate=1048576' --entity-type users --entity-name alice
kafka-configs.sh --alter --add-config 'producer_byte_rate=4194304' --entity-type users --entity-default
connection: listener=SASL_SSL user=alice client.id=app-1`;
const SIM = `# embed: panel=simulation
kafka-configs.sh --alter --add-config 'producer_byte_rate=2000000' --entity-type users --entity-name tenant-a
connection: listener=SASL_SSL user=tenant-a client.id=throttled-producer
producer: records=30000 record.size=1000 acks=1
run: horizon_ms=30000`;
const esc = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

const page = (theme, body) => `<!doctype html><html lang="en" data-theme="${theme}"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><script src="${P}kafka-quota-embed.js" defer></script>
<style>body{font:16px/1.6 system-ui,sans-serif;margin:0;padding:16px 24px;background:${theme === 'dark' ? '#1b1b1d;color:#e3e3e3' : '#fff;color:#1c1e21'}}
pre{background:${theme === 'dark' ? '#2b2b2b' : '#f5f5f5'};padding:12px;overflow-x:auto;font-size:13px}h2{margin:0 0 8px;font-size:20px}</style>
</head><body>${body}</body></html>`;

const pages = {
  // The element with its scenario as text.
  element: page('light', `<h2>Which quota applies?</h2>
<kafka-quota-playground panel="answer">
<pre>
${esc(TEXT)}
</pre>
</kafka-quota-playground>`),
  // What Python-Markdown 3.x with pymdownx.superfences' custom fence (the
  // mkdocs.yml of docs/embedding.md) writes for a ```kafka-quota block.
  mkdocs: page('light', `<h2>A throttled producer (MkDocs)</h2>
<pre class="kafka-quota"><code>${esc(SIM)}</code></pre>`),
  // What Docusaurus 3 (Prism) writes for a ```kafka-quota block, in its dark theme.
  docusaurus: page('dark', `<h2>The precedence ladder (Docusaurus, dark)</h2>
<div class="language-kafka-quota theme-code-block"><div><pre tabindex="0" class="prism-code language-kafka-quota"><code>${
  ['# embed: panel=resolution theme=auto', ...TEXT.split('\n')].map((l) => `<span class="token-line"><span class="token plain">${esc(l)}</span><br></span>`).join('')
}</code></pre></div></div>`),
  // The plain iframe (no script): a fixed height, the permalink's hash.
  iframe: page('light', `<h2>The plain iframe</h2>
<iframe src="${P}index.html?embed=answer&amp;readonly#text=${encodeURIComponent(TEXT)}" title="Kafka Quota Playground: answer"
  style="width:100%;height:330px;border:1px solid #d0d7de;border-radius:8px" loading="lazy"></iframe>`),
  // A fence with a misspelled directive on its third line.
  'bad-line': page('light', `<h2>A mistake in the text</h2>
<pre><code class="language-kafka-quota">connection: listener=SASL_SSL user=alice
kafka-configs.sh --alter --add-config 'producer_byte_rate=1048576' --entity-type users --entity-name alice
producr: records=100
</code></pre>`),
  // Without the script: the text as a plain code block.
  noscript: page('light', `<h2>Without the script</h2>
<kafka-quota-playground panel="answer">
<pre>
${esc(TEXT)}
</pre>
</kafka-quota-playground>`),
};

const browser = await launch();
for (const [name, html] of Object.entries(pages)) {
  await writeFile(join(dir, `${name}.html`), html);
  const context = await browser.newContext({ viewport: { width: 760, height: 1400 }, colorScheme: 'light' });
  if (name === 'noscript') await context.route('**/kafka-quota-embed.js', (r) => r.abort());
  const p = await context.newPage();
  await p.goto(`${docs.url}${name}.html`);
  if (name === 'iframe') {
    await p.frameLocator('iframe').locator('body[data-first-render-ms]').waitFor({ timeout: 30000 });
  } else if (name !== 'noscript') {
    await p.waitForFunction(() => [...document.querySelectorAll('kafka-quota-playground')].every((e) => e.dataset.state === 'ready'), null, { timeout: 30000 });
  }
  await p.waitForTimeout(800);
  const height = Math.min(await p.evaluate(() => document.body.scrollHeight), { mkdocs: 720, docusaurus: 520 }[name] ?? 1400);
  const file = join(out, `embed-${name}.png`);
  await p.screenshot({ path: file, clip: { x: 0, y: 0, width: 760, height } });
  console.log(`${file}: ${(await stat(file)).size} bytes`);
  await context.close();
}
await browser.close();
await docs.close();
await playground.close();
await rm(dir, { recursive: true, force: true });
