// The in-page half of the studio's browser fuzz (scripts/browser_fuzz.py): the mutator, the
// cases and their checks, run inside the built studio by ChromeDriver's execute_async_script.
// Every case is a function of the run's seed and the case's number alone (its own xorshift
// generator), so that a failure is found again by running the same seed up to it.
// `window.__fuzz` is made once per page; the seeds are kept in sessionStorage across reloads.
(() => {
  if (window.__fuzz) return;
  const F = (window.__fuzz = {});

  // --- Generator and mutator --------------------------------------------------------------
  const mix = (a, b) => {
    let h = (a ^ Math.imul(b + 0x7f4a7c15, 0x9e3779b1)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    return (h ^ (h >>> 16)) >>> 0 || 1;
  };
  F.rng = (seed, n) => {
    let s = mix(seed >>> 0, n >>> 0);
    const next = () => {
      s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
      return s;
    };
    const r = {
      next,
      below: k => (k <= 0 ? 0 : next() % k),
      chance: p => next() / 4294967296 < p,
      pick: a => a[next() % a.length],
    };
    return r;
  };

  // Markup whose element, if one is ever made, carries `data-fuzz`; script that sets __xss.
  const MARKUP = [
    '<img src=x data-fuzz=1 onerror="window.__xss=1">',
    '<b data-fuzz=1>bold</b>',
    '"><svg data-fuzz=1 onload="window.__xss=1">',
    "'><script data-fuzz=1>window.__xss=1</script>",
    '<iframe data-fuzz=1 srcdoc="x"></iframe>',
    '</textarea><i data-fuzz=1>i</i>',
  ];
  // Cell starts a spreadsheet reads as a formula.
  const FORMULAS = ['=cmd|\' /c calc\'!A1', '+1+1', '-2+3', '@SUM(A1:A9)', '=HYPERLINK("http://x")',
    "'=1", "''-1", '\t=1', '\r@x'];
  const TOKENS = [
    ...MARKUP, ...FORMULAS, '\t', '\r\n', '\n', '\0', '$', '/', '-', '\\', '"', "'", ',', ';',
    '{', '}', '[', ']', ':', 'null', 'true', '-0', '0', '1e999', '-1', '18446744073709551616',
    '-9223372036854775809', '4294967296', '1048576', '1048575', '999999999999', '"Shards"',
    '"BucketRanges"', '"Prefixed"', '"Orchestrator"', '"ShardedDatabaseId"', '"Sharding"',
    '"@metadata"', '"@id"', '"@collection"', '"Docs"', '"BuildVersion"', '"Id"', '{"a":',
    '[[[[[[[[[[[[[[[[', '%', '%0A', '%09', '%ZZ', '%E2%82', '%00', 'z=', '&', '=', 'ids=',
    'shards=', 'config=', 'db=', 'nodes=', '#', '?', '\u0130', '\u00df', '\ufeff', '\u202e',
    '\ud800', '\u{1f600}', 'A'.repeat(257), '9'.repeat(40), 'orders/1-A', 'customers/1-A$',
    '$customers/1-A', 'id,bucket,shard,collection,size\n', '"version":1', '"document_count":',
    '"parts":', '"generation":', 'ravenshard documents lines 1\n', 'ravenshard documents json 1\n',
  ];
  const BYTES = [0, 1, 9, 10, 13, 0x1e, 0x1f, 0x22, 0x24, 0x2c, 0x2f, 0x3c, 0x5b, 0x7b, 0x7f,
    0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf8, 0xff, 0x1f, 0x8b];
  const enc = new TextEncoder();
  const TOKEN_BYTES = TOKENS.map(t => enc.encode(t));
  F.MARKUP = MARKUP;
  F.FORMULAS = FORMULAS;
  const MAX_BYTES = 6000;

  const concat = parts => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };

  // `rounds` random edits of `bytes` (a Uint8Array), `others` the seeds to splice from.
  F.mutate = (r, bytes, others, rounds) => {
    let b = Uint8Array.from(bytes);
    const n = rounds === undefined ? r.below(7) : rounds;
    for (let i = 0; i < n; i++) {
      const at = r.below(b.length + 1);
      switch (r.below(11)) {
        case 0: if (b.length) b[r.below(b.length)] ^= 1 << r.below(8); break;
        case 1: if (b.length) b[r.below(b.length)] = r.pick(BYTES); break;
        case 2: case 3: b = concat([b.subarray(0, at), r.pick(TOKEN_BYTES), b.subarray(at)]); break;
        case 4: { const len = 1 + r.below(Math.min(64, b.length + 1)); b = concat([b.subarray(0, at), b.subarray(at + len)]); break; }
        case 5: { const len = 1 + r.below(64); const part = b.slice(at, at + len);
          b = concat([b.subarray(0, at), part, part, b.subarray(at)]); break; }
        case 6: if (others && others.length) { const o = r.pick(others); const from = r.below(o.length + 1);
          b = concat([b.subarray(0, at), o.subarray(from, from + 1 + r.below(200)), b.subarray(at)]); } break;
        case 7: b = b.slice(0, at); break;
        case 8: { // a run of digits replaced by a large or odd number
          const digits = []; for (let k = 0; k < b.length; k++) if (b[k] >= 48 && b[k] <= 57) digits.push(k);
          if (digits.length) { const k = r.pick(digits); let e = k; while (e < b.length && b[e] >= 48 && b[e] <= 57) e++;
            b = concat([b.subarray(0, k), enc.encode(r.pick(['0', '-1', '1048576', '4294967296', '18446744073709551616', '1e308', '007', '1.5'])), b.subarray(e)]); }
          break; }
        case 9: { const x = r.below(b.length + 1), y = r.below(b.length + 1); const [lo, hi] = x < y ? [x, y] : [y, x];
          b = concat([b.subarray(0, lo), b.slice(lo, hi).reverse(), b.subarray(hi)]); break; }
        default: { const byte = r.pick(BYTES); const len = 1 + r.below(300);
          b = concat([b.subarray(0, at), new Uint8Array(len).fill(byte), b.subarray(at)]); }
      }
      if (b.length > MAX_BYTES) b = b.slice(0, MAX_BYTES);
    }
    return b;
  };
  F.text = bytes => new TextDecoder('utf-8').decode(bytes);
  F.bytes = text => enc.encode(text);
  F.gzip = async bytes => new Uint8Array(await new Response(
    new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
  F.b64 = bytes => { let s = ''; for (const x of bytes) s += String.fromCharCode(x); return btoa(s); };
  const unb64 = t => Uint8Array.from(atob(t), c => c.charCodeAt(0));

  // --- The page ---------------------------------------------------------------------------
  const q = s => document.querySelector(s);
  F.q = q;
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  // A macrotask without setTimeout's 4 ms clamp.
  const tick = () => new Promise(ok => { waiting.push(ok); channel.port2.postMessage(0); });
  const sleep = ms => new Promise(ok => setTimeout(ok, ms));
  F.sleep = sleep;
  F.mutations = 0;
  new MutationObserver(l => { F.mutations += l.length; })
    .observe(document, {childList: true, subtree: true, characterData: true, attributes: true});
  const BUSY = '.planning, .balancing:not([hidden]), .work-progress, .import-progress, tr.pending, .restore-progress';
  // Something on its way: a job's progress, a plan, or the workspace's host behind the
  // editor (the panel counts the editor's documents, the masthead the host's).
  const behind = () => {
    const m = /^([\d,\s]+) documents?$/.exec(q('.workspace .doc-count')?.textContent || '');
    return !!m && m[1].replace(/[,\s]/g, '') !== count();
  };
  const busy = () => !!q(BUSY) || behind();
  // Until nothing has changed in the page for `quiet` ms and nothing is on its way.
  F.settle = async (quiet = 4, limit = 10000) => {
    const t = performance.now();
    let seen = F.mutations, since = performance.now();
    while (performance.now() - t < limit) {
      await tick();
      const now = performance.now();
      if (F.mutations !== seen || busy()) { seen = F.mutations; since = now; continue; }
      if (now - since >= quiet) return true;
      if (now - since > 1) await sleep(1);
    }
    return false;
  };
  // Polls `f` until it gives something truthy (or `limit` ms pass: null).
  F.until = async (f, limit = 10000) => {
    const t = performance.now();
    for (;;) {
      const v = f();
      if (v) return v;
      if (performance.now() - t > limit) return null;
      await (performance.now() - t > 50 ? sleep(2) : tick());
    }
  };
  const fire = (el, v) => {
    el.value = v;
    el.dispatchEvent(new InputEvent('input', {bubbles: true}));
  };
  F.fire = fire;
  const active = key => !!document.getElementById('tab-' + key)?.classList.contains('active');
  F.showTab = async key => {
    if (!active(key)) document.getElementById('tab-' + key)?.click();
    return F.until(() => active(key) && q('.view.view-' + key), 5000);
  };
  const notices = () => [...document.querySelectorAll('.notices .notice-text')].map(n => n.textContent);
  F.notices = notices;
  const count = () => (q('.count-documents strong')?.textContent || '').replace(/[,\s]/g, '');
  // What says the workspace is unchanged: the documents' count, the editor's page, the
  // panel's summary and the database.
  F.workspace = () => ({count: count(), ids: q('#ids')?.value ?? null,
    summary: q('.workspace .doc-count')?.textContent ?? null, database: q('#database')?.value ?? null});
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  // The workspace once the page is quiet and shows it the same twice 30 ms apart (the
  // editor's page comes from the workspace's host a moment after a change).
  F.steady = async () => {
    let seen = null;
    for (let i = 0; i < 50; i++) {
      await F.settle(10);
      const now = F.workspace();
      if (seen && same(seen, now)) return now;
      seen = now;
      await sleep(30);
    }
    return seen;
  };
  // The fields of two workspaces that differ, before -> after.
  F.changed = (a, b) => Object.keys(a).filter(k => a[k] !== b[k])
    .map(k => `${k}: ${JSON.stringify(a[k]).slice(0, 200)} -> ${JSON.stringify(b[k]).slice(0, 200)}`).join('; ');
  const excerpt = (t, at, n = 160) => JSON.stringify(t.slice(Math.max(0, at - 40), at + n));

  // What is wrong with the page now: its errors since `mark`, a panic shown, markup made
  // into an element, script run.
  F.mark = () => window.__fuzzErrors.length;
  F.problems = mark => {
    const p = [];
    const errors = window.__fuzzErrors.slice(mark);
    if (errors.length) p.push('the page logged: ' + errors.join(' | ').slice(0, 600));
    if (!q('.studio')) p.push('the studio is not on the page');
    const made = q('[data-fuzz]');
    if (made) p.push('markup of an input became an element: ' + made.outerHTML.slice(0, 200));
    if (window.__xss) p.push('script of an input ran');
    const text = document.body ? document.body.textContent : '';
    const at = text.search(/panicked at|RuntimeError|unreachable executed/);
    if (at >= 0) p.push('the page shows a crash: ' + excerpt(text, at));
    return p;
  };

  // --- The known vector, under the default configuration -----------------------------------
  F.BASE_CONFIG = '{"Shards": {"0": {}, "1": {}, "2": {}}}';
  const configArea = () => q('.view-ranges .config-json-text');
  const configError = () => q('.view-ranges .config-json .editor-error');
  // The Ranges & prefixes view's configuration back to the default three shards.
  F.baseline = async () => {
    if (!(await F.showTab('ranges')) || !configArea()) return 'the Ranges & prefixes view did not show its JSON editor';
    q('.view-ranges .config-json .revert').click();
    await F.settle();
    if (F.baseJson && configArea().value === F.baseJson) { F.dirty = false; return null; }
    fire(configArea(), F.BASE_CONFIG);
    await tick();
    q('.view-ranges .config-json .apply').click();
    await F.settle();
    if (configError()) return 'the default configuration was refused: ' + configError().textContent;
    if (!F.baseJson) F.baseJson = configArea().value;
    F.dirty = false;
    return null;
  };
  // customers/1-A (or its upper-case spelling, alternately) explained: bucket 982173, shard 2.
  F.vector = async () => {
    if (F.dirty || !F.baseJson) {
      const why = await F.baseline();
      if (why) return why;
    }
    if (!(await F.showTab('explain'))) return 'the Explain view did not show';
    const input = q('#explain-id');
    if (!input) return 'the Explain view has no ID field';
    const id = F.flip ? 'Customers/1-A' : 'customers/1-A';
    F.flip = !F.flip;
    fire(input, id);
    const ok = await F.until(() => {
      const t = q('.explain-view')?.textContent || '';
      return t.includes(id + ' → customers/1-a') && t.includes('= 982173') && t.includes('shard 2');
    }, 5000);
    return ok ? null : `the Explain view does not show ${id} in bucket 982173 on shard 2: ` +
      JSON.stringify((q('.explain-view')?.textContent || '').slice(0, 300));
  };

  // --- Seeds ------------------------------------------------------------------------------
  F.loadSeeds = () => {
    if (F.seeds) return true;
    const raw = sessionStorage.getItem('browser-fuzz-seeds');
    if (!raw) return false;
    const parsed = JSON.parse(raw);
    F.seeds = {};
    for (const [k, list] of Object.entries(parsed)) F.seeds[k] = list.map(unb64);
    F.all = Object.values(F.seeds).flat();
    return true;
  };
  const seedOf = (r, kind) => r.pick(F.seeds[kind]);

  // --- Cases ------------------------------------------------------------------------------
  const IMPORT_KINDS = ['text', 'csv', 'json', 'ndjson', 'dump', 'statistics', 'ids'];
  const EXT = {text: '.txt', csv: '.csv', json: '.json', ndjson: '.ndjson', dump: '.ravendbdump',
    statistics: '.json', ids: '.tsv'};

  // A file of a mutated seed, through the file input or dropped on the Documents panel.
  F.importCase = async (r, n, how) => {
    const kind = r.pick(IMPORT_KINDS);
    let bytes = F.mutate(r, seedOf(r, kind), F.all);
    let name = `fuzz-${n}${EXT[kind]}`;
    const zipped = kind === 'dump' ? r.chance(0.7) : r.chance(0.15);
    if (zipped) {
      bytes = await F.gzip(bytes);
      if (r.chance(0.4)) bytes = F.mutate(r, bytes, null, 1 + r.below(3));
      if (kind !== 'dump') name += '.gz';
    }
    if (r.chance(0.05)) name = `fuzz-${n}` + r.pick(['', '.bin', '.JSON', '.csv.gz', '.ravendb-full-backup']);
    const input = {kind: kind + (zipped ? '+gzip' : ''), how, name, b64: F.b64(bytes)};
    for (const b of [...document.querySelectorAll('.notices .dismiss')].reverse()) b.click();
    const before = await F.steady();
    const error = () => q('.workspace .import-error')?.textContent || '';
    const errorBefore = error();
    const file = new File([bytes], name);
    const transfer = new DataTransfer();
    transfer.items.add(file);
    if (how === 'file') {
      const picker = q('#import-file');
      picker.files = transfer.files;
      picker.dispatchEvent(new Event('change', {bubbles: true}));
    } else {
      const zone = q('section.panel.workspace');
      const at = r.pick([zone, q('#ids'), zone.querySelector('.panel-head') || zone]);
      at.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: transfer}));
      at.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: transfer}));
    }
    const t = performance.now();
    const outcome = await F.until(() => {
      if (busy()) return null;
      const e = error();
      if (e && (e !== errorBefore || e.includes(name))) return {refused: e};
      const said = notices().find(x => x.includes(name) || x.startsWith('Imported bucket statistics'));
      if (said) return {accepted: said};
      if (performance.now() - t > 3000 && e) return {refused: e};
      return null;
    }, 20000);
    if (!outcome) return {input, problems: [`the import of ${name} neither finished nor said why in 20 s`]};
    const problems = [];
    const after = await F.steady();
    if (outcome.refused !== undefined) {
      if (!same(before, after)) problems.push('a refused import changed the workspace: ' + F.changed(before, after));
      if (!/: \S/.test(outcome.refused)) problems.push('the import error does not say why: ' + outcome.refused);
    } else {
      const m = /^Imported ([\d,]+) documents? from /.exec(outcome.accepted);
      const said = m && m[1].replace(/,/g, '');
      if (said && !(await F.until(() => count() === said, 3000))) {
        problems.push(`the notice says ${m[1]} documents, the studio shows ${count()} after 3 s: ${outcome.accepted}`);
      }
    }
    return {input, problems, accepted: outcome.accepted !== undefined};
  };

  // The ID editor: mutated ID lines, some with markup or formula-like IDs, shown in a view.
  F.idsCase = async (r, n) => {
    // Mostly the Explain view, which the known vector is read from after each case.
    const tab = r.chance(0.6) ? 'explain' : r.pick(['documents', 'documents', 'groups', 'shards', 'nodes', 'map']);
    let text = F.text(F.mutate(r, seedOf(r, 'ids'), F.all));
    if (r.chance(0.35)) {
      const lines = text.split('\n');
      for (let k = 1 + r.below(3); k > 0; k--) {
        const at = r.below(lines.length + 1);
        const word = r.pick(r.chance(0.5) ? MARKUP : FORMULAS) + (r.chance(0.5) ? 'orders/' + r.below(99) : '');
        lines.splice(at, 0, r.chance(0.3) ? word + '\t' + r.below(5000) + '\t' + r.pick(MARKUP.concat(FORMULAS)) : word);
      }
      text = lines.join('\n');
    }
    const input = {kind: 'ids', tab, text};
    if (!(await F.showTab(tab))) return {input, problems: [`the ${tab} view did not show`]};
    fire(q('#ids'), text);
    await F.settle();
    if (tab === 'explain') {
      const line = text.split('\n').find(l => l.trim()) || '';
      fire(q('#explain-id'), line.split('\t')[0]);
      await F.settle();
    } else if (tab === 'documents') {
      q('.dt-row')?.click();
      await F.settle();
    }
    const problems = [];
    const editor = q('#ids').value;
    // The editor may end the last line (it shows the page of documents again).
    const typed = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
    if (editor.replace(/\n+$/, '') !== typed && typed.split('\n').length < 400) problems.push('the ID editor does not hold what was typed: ' + JSON.stringify(editor.slice(0, 200)));
    if (r.chance(0.15)) problems.push(...await F.csvCheck());
    return {input, problems, accepted: true};
  };

  // Export CSV: the file has the export's header, as many rows as documents, and no cell
  // beginning with a character a spreadsheet reads as a formula.
  F.csvCheck = async () => {
    const shown = Number(count());
    if (!(shown > 0) || shown > 20000) return [];
    const made = window.__fuzzDownloads.length;
    q('.export-csv').click();
    const blob = await F.until(() => window.__fuzzDownloads[made], 10000);
    if (!blob) return ['Export CSV made no file in 10 s'];
    const text = await blob.text();
    const rows = parseCsv(text);
    const problems = [];
    if (rows.length === 0 || rows[0].join(',') !== 'id,bucket,shard,collection,size') problems.push('the CSV export has no header: ' + text.slice(0, 80));
    if (rows.length - 1 !== shown) problems.push(`the CSV export has ${rows.length - 1} rows for ${shown} documents`);
    for (const row of rows.slice(1)) {
      for (const cell of row) {
        if (/^[=+\-@\t\r\0]/.test(cell)) { problems.push('a CSV cell is not neutralised: ' + JSON.stringify(cell.slice(0, 80))); return problems; }
      }
    }
    return problems;
  };
  // RFC 4180 records of `text`.
  const parseCsv = text => {
    const rows = [];
    let row = [], cell = '', quoted = false, i = 0;
    while (i < text.length) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') { cell += '"'; i += 2; continue; }
        if (c === '"') { quoted = false; i++; continue; }
        cell += c; i++; continue;
      }
      if (c === '"' && cell === '') { quoted = true; i++; continue; }
      if (c === ',') { row.push(cell); cell = ''; i++; continue; }
      if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
        row.push(cell); rows.push(row); row = []; cell = ''; i += c === '\r' ? 2 : 1; continue;
      }
      cell += c; i++;
    }
    if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
    return rows;
  };

  // The configuration JSON editor of Ranges & prefixes: a mutated configuration applied (or,
  // one time in six, imported as a file). Refused: the editor says why and Revert gives the
  // configuration in force before.
  F.configCase = async (r, n) => {
    if (!(await F.showTab('ranges')) || !configArea()) return {input: {kind: 'config'}, problems: ['the Ranges & prefixes view did not show its JSON editor']};
    q('.view-ranges .config-json .revert').click();
    await tick();
    await tick();
    const before = configArea().value;
    const seed = r.chance(0.4) ? F.bytes(before) : seedOf(r, 'config');
    const text = F.text(F.mutate(r, seed, F.seeds.config));
    const viaFile = r.chance(1 / 6);
    const input = {kind: viaFile ? 'config-file' : 'config', text};
    if (viaFile) {
      const picker = q('.view-ranges .config-json .import-file');
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], `fuzz-${n}.json`));
      picker.files = transfer.files;
      picker.dispatchEvent(new Event('change', {bubbles: true}));
      const said = await F.until(() => (q('.view-ranges .config-json-status')?.textContent || '').includes(`fuzz-${n}.json`), 5000);
      if (!said) return {input, problems: ['the configuration file was not read in 5 s']};
    } else {
      fire(configArea(), text);
      await tick();
      q('.view-ranges .config-json .apply').click();
    }
    await F.settle();
    const problems = [];
    const refused = configError();
    if (refused) {
      if (!refused.textContent.trim()) problems.push('the configuration was refused without a reason');
      q('.view-ranges .config-json .revert').click();
      await F.until(() => configArea().value === before, 2000);
      if (configArea().value !== before) problems.push('a refused configuration changed the one in force');
    } else {
      F.dirty = configArea().value !== F.baseJson;
    }
    return {input, problems, accepted: !refused};
  };

  // The kinds of case, each with its weight; `share` and `saved` need a page load, which
  // the Python side makes (they are returned to it).
  F.KINDS = [['ids', 38], ['import-file', 22], ['import-drop', 22], ['config', 16], ['share', 1], ['saved', 1]];
  F.kindOf = (seed, n) => {
    const r = F.rng(seed, n);
    const total = F.KINDS.reduce((s, k) => s + k[1], 0);
    let x = r.below(total);
    for (const [k, w] of F.KINDS) { if (x < w) return [k, r]; x -= w; }
    return [F.KINDS[0][0], r];
  };

  // Runs cases `from`..`to` (exclusive) in this page for at most `budget` ms; stops at the
  // first failure or at a case that needs a page load. Gives what it did.
  F.batch = async (seed, from, to, budget) => {
    const t = performance.now();
    const counts = {};
    let n = from;
    for (; n < to && performance.now() - t < budget; n++) {
      const [kind, r] = F.kindOf(seed, n);
      if (kind === 'share' || kind === 'saved') return {next: n, counts, reload: kind};
      const mark = F.mark();
      const started = performance.now();
      let result;
      try {
        result = kind === 'ids' ? await F.idsCase(r, n)
          : kind === 'config' ? await F.configCase(r, n)
          : await F.importCase(r, n, kind === 'import-file' ? 'file' : 'drop');
      } catch (e) {
        result = {input: {kind}, problems: ['the harness failed: ' + (e && e.stack || e)]};
      }
      const problems = result.problems.concat(F.problems(mark));
      const acted = performance.now();
      if (!problems.length) {
        const why = await F.vector();
        if (why) problems.push(why);
        problems.push(...F.problems(mark));
      }
      counts[kind] = (counts[kind] || 0) + 1;
      counts['ms ' + kind] = (counts['ms ' + kind] || 0) + Math.round(acted - started);
      counts['ms vector'] = (counts['ms vector'] || 0) + Math.round(performance.now() - acted);
      const sub = result.input && result.input.kind;
      if (sub && sub !== kind) counts[kind + ':' + sub] = (counts[kind + ':' + sub] || 0) + 1;
      if (result.accepted) counts[kind + ' accepted'] = (counts[kind + ' accepted'] || 0) + 1;
      if (problems.length) return {next: n + 1, counts, failure: {n, kind, input: result.input, problems}};
    }
    return {next: n, counts};
  };


  // --- The saved studio in IndexedDB (read and damaged from a page of the same origin) -----
  const request = req => new Promise((ok, no) => { req.onsuccess = () => ok(req.result); req.onerror = () => no(req.error); });
  // The records of the studio's store ({key: value}), or null when there is none.
  F.records = async () => {
    if (!(await indexedDB.databases()).some(d => d.name === 'ravenshard-studio')) return null;
    const db = await request(indexedDB.open('ravenshard-studio'));
    try {
      if (!db.objectStoreNames.contains('studio')) return null;
      const store = db.transaction('studio').objectStore('studio');
      const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      return Object.fromEntries(keys.map((k, i) => [String(k), values[i]]));
    } finally { db.close(); }
  };
  const asText = v => typeof v === 'string' ? v : v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? F.text(new Uint8Array(v.buffer || v)) : null;
  // The saved studio's database name and document count, as its settings record says.
  F.savedSummary = async () => {
    const records = await F.records();
    const text = records && asText(records.settings);
    if (!text) return null;
    try {
      const s = JSON.parse(text);
      return {database: s.database, count: s.document_count ?? (s.documents || []).length};
    } catch (_) { return null; }
  };
  const VALUES = [-1, 0, 1, 1e300, 2 ** 53 + 1, 4294967296, '', 'x', '\u0130', null, [], {}, true,
    'documents.0', 'documents.1.0', [1, 2], {generation: 1}, 'A'.repeat(300)];
  // One record of the saved studio damaged: removed, replaced by a value of another kind, a
  // field of the settings' JSON changed or removed, or its bytes mutated.
  F.corruptSave = async (seed, n) => {
    const [, r] = F.kindOf(seed, n);
    const records = await F.records();
    if (!records || records.settings === undefined) return {nothing: true};
    const keys = Object.keys(records).filter(k => !k.startsWith('unreadable.'));
    const key = r.chance(0.5) || keys.length < 2 ? 'settings' : r.pick(keys);
    const old = records[key];
    const text = asText(old);
    let value, op;
    const kind = r.below(10);
    if (kind === 0) { op = 'removed'; value = undefined; }
    else if (kind === 1) { op = 'replaced'; value = r.pick([42, null, {a: 1}, [1, 2], '', new Uint8Array(0), true, new Uint8Array([0xff, 0xfe])]); }
    else if (kind <= 4 && text !== null) {
      let tree = null;
      try { tree = JSON.parse(text); } catch (_) { /* not JSON: bytes mutated below */ }
      if (tree && typeof tree === 'object') {
        const paths = [];
        const walk = (v, path) => { if (paths.length < 400) paths.push(path); if (v && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], path.concat(k)); };
        walk(tree, []);
        const path = r.pick(paths.slice(1).length ? paths.slice(1) : paths);
        let parent = tree;
        for (const k of path.slice(0, -1)) parent = parent[k];
        const last = path[path.length - 1];
        if (r.chance(0.25)) { delete parent[last]; op = 'field removed: ' + path.join('.'); }
        else { parent[last] = r.pick(VALUES); op = 'field set: ' + path.join('.') + ' = ' + JSON.stringify(parent[last]).slice(0, 40); }
        const out = JSON.stringify(tree);
        value = typeof old === 'string' ? out : F.bytes(out);
      }
    }
    if (op === undefined) {
      op = 'bytes mutated';
      const bytes = F.mutate(r, text === null ? F.bytes(String(old)) : F.bytes(text), null, 1 + r.below(6));
      value = typeof old === 'string' ? F.text(bytes) : bytes;
    }
    const db = await request(indexedDB.open('ravenshard-studio'));
    try {
      const tx = db.transaction('studio', 'readwrite');
      const store = tx.objectStore('studio');
      if (value === undefined) store.delete(key); else store.put(value, key);
      await new Promise((ok, no) => { tx.oncomplete = ok; tx.onerror = () => no(tx.error); tx.onabort = () => no(tx.error); });
    } finally { db.close(); }
    const show = v => v === undefined ? 'none' : typeof v === 'string' ? v.slice(0, 1500) :
      (v instanceof Uint8Array ? 'bytes ' + F.text(v).slice(0, 1500) : JSON.stringify(v));
    return {kind: 'saved', key, op, before: show(text ?? old), after: show(value)};
  };

  // --- Cases that need a page load --------------------------------------------------------
  // A share link: a mutated fragment (the Python side opens it).
  F.shareLink = (seed, n) => {
    const [, r] = F.kindOf(seed, n);
    const bytes = F.mutate(r, seedOf(r, 'share'), F.seeds.share);
    let text = F.text(bytes).replace(/^#/, '');
    if (r.chance(0.2)) text = encodeURI(text);
    return text;
  };
  // After the page of a case that needed a load: the studio shown, then checked as every
  // case is, with `refusal` the notice that says the input was refused.
  F.afterLoad = async (refusal, saved) => {
    const ready = await F.until(() => q('.studio') && q('#ids') && !busy(), 20000);
    if (!ready) return ['the studio did not open in 20 s' + (q('body') ? ': ' + JSON.stringify(document.body.textContent.slice(0, 300)) : '')];
    await F.settle();
    const problems = F.problems(0);
    const said = notices().find(t => t.includes(refusal));
    if (said && !/: \S/.test(said)) problems.push('the notice does not say why: ' + said);
    if (said && saved && saved.database !== undefined) {
      const now = F.workspace();
      const shows = s => !!s && now.database === s.database && now.count === String(s.count);
      // The page left may have saved once more as it went (a save it started on pagehide).
      const later = shows(saved) ? saved : await F.savedSummary();
      if (!shows(saved) && !shows(later)) {
        problems.push(`the link was refused, and the studio does not show the saved one (${JSON.stringify(saved)}, ` +
          `now ${JSON.stringify(later)}): ${JSON.stringify(now).slice(0, 300)}; notices: ${JSON.stringify(notices()).slice(0, 600)}`);
      }
    }
    F.dirty = true;
    if (!problems.length) {
      const why = await F.vector();
      if (why) problems.push(why);
      problems.push(...F.problems(0));
    }
    return {problems, refused: !!said};
  };
})();
