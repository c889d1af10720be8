/*! Kafka Quota Playground embed: <kafka-quota-playground> and ```kafka-quota fences.
 * One classic script, no framework, no request except the playground's own
 * iframe. Documented in docs/embedding.md.
 *
 *   <script src="https://HOST/PATH/kafka-quota-embed.js" defer></script>
 *   <kafka-quota-playground panel="answer"><pre>
 *   kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=1048576' --entity-type users --entity-name alice
 *   connection: listener=SASL_SSL user=alice client.id=app-1
 *   </pre></kafka-quota-playground>
 *
 * Attributes: panel (default answer; lessons, quotas, import, connection, resolution,
 * simulation, cluster), link (a "v1." permalink or a full playground URL), text (else
 * the element's <pre>, else its text), height ("auto" or pixels), theme (light, dark, auto:
 * follow this page; the default), src (the playground's address; default: index.html next
 * to this script), readonly ("false" allows editing), title, quota (one quota key),
 * chart (one chart of the simulation panel).
 */
(function () {
  'use strict';
  var TAG = 'kafka-quota-playground';
  if (!window.customElements || customElements.get(TAG)) return;
  var NS = 'kafka-quota-playground:';
  var me = document.currentScript || document.querySelector('script[src*="kafka-quota-embed"]');
  var HOME = new URL('index.html', (me && me.src) || location.href).href;
  var FENCE = 'pre.language-kafka-quota,pre.kafka-quota,pre>code.language-kafka-quota,div.language-kafka-quota pre';
  var live = [];
  // What a fence's "# embed:" line may set.
  var OPTIONS = ['panel', 'height', 'theme', 'readonly', 'title', 'quota', 'chart'];

  // The page's own light/dark setting: Docusaurus (html[data-theme]),
  // MkDocs Material (body[data-md-color-scheme=slate|default]), a "dark" or
  // "light" class on <html> (Tailwind, VitePress), else the system's.
  function pageTheme() {
    var h = document.documentElement, b = document.body;
    var v = [h.getAttribute('data-theme'), h.getAttribute('data-color-scheme'), b && b.getAttribute('data-md-color-scheme')];
    if (v.indexOf('dark') >= 0 || v.indexOf('slate') >= 0 || h.classList.contains('dark')) return 'dark';
    if (v.indexOf('light') >= 0 || v.indexOf('default') >= 0 || h.classList.contains('light')) return 'light';
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  // Removes the indentation common to every non-blank line (a docs author
  // indents the text inside the element) and the blank lines around it.
  function dedent(t) {
    var lines = t.replace(/\r\n?/g, '\n').split('\n'), min = 1e9;
    while (lines.length && !lines[0].trim()) lines.shift();
    while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
    lines.forEach(function (l) { if (l.trim()) min = Math.min(min, l.match(/^[ \t]*/)[0].length); });
    return lines.map(function (l) { return l.slice(min); }).join('\n');
  }

  // The text of a code block: Prism (Docusaurus) puts each line in a
  // .token-line span ended by <br>, which textContent would run together.
  function codeText(el) {
    var lines = el.querySelectorAll('.token-line');
    return lines.length ? [].map.call(lines, function (l) { return l.textContent; }).join('\n') : el.textContent;
  }

  class Widget extends HTMLElement {
    connectedCallback() {
      if (this._frame) { live.push(this); return; }
      // A script run before the body (no defer) meets the element before
      // its text is parsed: wait for the document.
      if (document.readyState === 'loading') {
        var me = this;
        return document.addEventListener('DOMContentLoaded', function () { if (me.isConnected && !me._frame) me.connectedCallback(); });
      }
      var self = this, a = function (n, d) { var v = self.getAttribute(n); return v == null || v === '' ? d : v; };
      var panel = a('panel', 'answer').toLowerCase();
      var link = a('link', '').trim(), base = a('src', ''), hash = '';
      if (/^[a-z]+:|^\/\//i.test(link)) {
        var u;
        try { u = new URL(link, location.href); } catch (e) { return this._fail('its link attribute is not an address: ' + link.slice(0, 80)); }
        hash = u.hash.slice(1);
        if (!base) { u.hash = ''; u.search = ''; base = u.href; }
      } else if (link) {
        hash = link.replace(/^#/, '');
      } else {
        var from = this._fallback ? this._fallback.querySelector('code') || this._fallback : this.querySelector('pre') || this;
        var text = dedent(a('text', '') || codeText(from));
        // A lone surrogate (a broken character) cannot be percent-encoded.
        if (text) hash = 'text=' + encodeURIComponent(text.toWellFormed ? text.toWellFormed() : text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
      }
      // Default: follow this page (its own setting, else the reader's system).
      var theme = a('theme', 'auto');
      this._auto = theme === 'auto';
      if (this._auto) theme = pageTheme();
      var q = '?embed=' + encodeURIComponent(panel);
      if (!/^(false|off|no|0)$/i.test(a('readonly', ''))) q += '&readonly';
      if (theme === 'light' || theme === 'dark') q += '&theme=' + theme;
      // The playground checks these and names a bad value in the widget.
      ['quota', 'chart'].forEach(function (n) { var v = a(n, '').trim(); if (v) q += '&' + n + '=' + encodeURIComponent(v); });
      var fixed = parseInt(a('height', ''), 10);
      this._fixed = fixed > 0 ? fixed : 0;

      var url;
      try { url = new URL(base || HOME, location.href); } catch (e) { return this._fail('its src attribute is not an address: ' + base.slice(0, 80)); }
      // Only a web (or file) address becomes a frame: a javascript: link
      // in an attribute would run in this page's place.
      if (!/^(https?|file):$/.test(url.protocol)) return this._fail('only http, https and file addresses are framed, not ' + url.protocol);
      var root = this.attachShadow({ mode: 'open' });
      var style = document.createElement('style');
      style.textContent = ':host{display:block;position:relative;margin:1em 0}' +
        'iframe{display:block;width:100%;border:0}' +
        '.w{position:absolute;top:0;left:0;visibility:hidden;pointer-events:none}' +
        ':host([data-state=ready]) slot{display:none}';
      var f = this._frame = document.createElement('iframe');
      f.title = a('title', 'Kafka Quota Playground: ' + panel);
      f.loading = 'lazy';
      f.className = 'w';
      f.style.height = (this._fixed || 320) + 'px';
      f.src = url.href.replace(/[?#].*$/, '') + q + (hash ? '#' + hash : '');
      this._origin = new URL(f.src).origin;
      this.setAttribute('data-state', 'loading');
      // Without a height message 15 s after the frame loaded (its module did
      // not start), show the frame (it says why) under the text.
      f.addEventListener('load', function () {
        clearTimeout(self._timer);
        self._timer = setTimeout(function () { f.className = ''; }, 15000);
      });
      root.appendChild(style);
      root.appendChild(document.createElement('slot'));
      root.appendChild(f);
      live.push(this);
    }

    // Leaves the text in the page and says, under it, why no widget shows.
    _fail(why) {
      var p = document.createElement('p');
      p.setAttribute('role', 'note');
      p.textContent = 'Kafka Quota Playground: this widget is not shown because ' + why + '.';
      this.setAttribute('data-state', 'error');
      (this._block || this).insertAdjacentElement(this._block ? 'afterend' : 'beforeend', p);
    }

    disconnectedCallback() {
      live = live.filter(function (w) { return w !== this; }, this);
    }

    // A message from this widget's own frame (the caller checked
    // event.source): the first height shows the frame in place of the text.
    _message(d) {
      var f = this._frame;
      if (d.type !== NS + 'height' || !(d.height > 0)) return;
      if (!this._fixed) f.style.height = Math.min(Math.ceil(d.height), 30000) + 'px';
      // pending: the frame is still reading the text; keep showing it.
      if (!d.pending && this.getAttribute('data-state') !== 'ready') {
        clearTimeout(this._timer);
        f.className = '';
        this.setAttribute('data-state', 'ready');
        if (this._block) this._block.style.display = 'none';
      }
    }

    _theme(t) {
      var w = this._frame && this._frame.contentWindow;
      if (this._auto && w) w.postMessage({ type: NS + 'theme', theme: t }, this._origin === 'null' ? '*' : this._origin);
    }
  }

  customElements.define(TAG, Widget);

  addEventListener('message', function (e) {
    var d = e.data;
    if (!d || typeof d.type !== 'string') return;
    for (var i = 0; i < live.length; i++) {
      var w = live[i];
      if (w._frame.contentWindow === e.source && (w._origin === 'null' || e.origin === w._origin)) return w._message(d);
    }
  });

  function retheme() {
    var t = pageTheme();
    live.forEach(function (w) { w._theme(t); });
  }
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', retheme);

  // A ```kafka-quota fence becomes a widget placed before it; the block
  // stays in the page (hidden once the widget has rendered) as the fallback.
  // Options: a comment line of the text, "# embed: panel=simulation
  // height=600" (the scenario reader skips it), or data-* attributes where
  // the generator writes them (data-panel, data-height, data-theme, ...).
  function upgrade() {
    [].forEach.call(document.querySelectorAll(FENCE), function (el) {
      var pre = el.closest('pre');
      if (!pre || pre.hasAttribute('data-kqp') || pre.closest(TAG)) return;
      pre.setAttribute('data-kqp', '');
      var block = pre.parentElement.closest('div.language-kafka-quota') || pre;
      var w = document.createElement(TAG);
      // The fence's text is page content, not markup: its comment line
      // sets only the widget's own options, and a link only as a v1. hash
      // (never another address).
      var opts = /^[ \t]*#[ \t]*embed:(.*)$/m.exec(codeText(pre.querySelector('code') || pre));
      (opts ? opts[1].trim().split(/\s+/) : []).forEach(function (kv) {
        var i = kv.indexOf('='), k = kv.slice(0, i), v = kv.slice(i + 1);
        if (OPTIONS.indexOf(k) >= 0 || (k === 'link' && /^#?v\d+\.[\w-]*$/.test(v))) w.setAttribute(k, v);
      });
      ['panel', 'height', 'theme', 'link', 'readonly', 'src', 'quota', 'chart'].forEach(function (n) {
        var v = block.getAttribute('data-' + n) || pre.getAttribute('data-' + n);
        if (v != null) w.setAttribute(n, v);
      });
      w._fallback = pre;
      w._block = block;
      block.parentNode.insertBefore(w, block);
    });
    // A framework that re-rendered the block shows it again: hide it again.
    live.forEach(function (w) {
      if (w._block && w.getAttribute('data-state') === 'ready') w._block.style.display = 'none';
    });
  }

  var queued = 0;
  function later() {
    if (!queued) queued = setTimeout(function () { queued = 0; upgrade(); retheme(); }, 50);
  }
  function start() {
    upgrade();
    // Single-page docs (Docusaurus, MkDocs Material's instant navigation)
    // add blocks without a page load; theme switches change attributes.
    // New blocks anywhere; theme attributes only on <html> and <body> (a
    // hover class deep in the page does not re-run anything).
    // (Two observers: observing a node again replaces its options.)
    var themed = { attributes: true, attributeFilter: ['class', 'data-theme', 'data-color-scheme', 'data-md-color-scheme'] };
    new MutationObserver(later).observe(document.documentElement, { childList: true, subtree: true });
    var t = new MutationObserver(later);
    t.observe(document.documentElement, themed);
    if (document.body) t.observe(document.body, themed);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
