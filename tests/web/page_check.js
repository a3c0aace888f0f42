// Browser tests of the page (build/web) in headless Chromium, driven by
// puppeteer-core: the user's steps (choose files, read the verdict, click a
// diagnostic, download the reports) checked against the CLI.
//
//   node page_check.js MODE   with SRCDIR, WEB_DIR, NPM_DIR, CLI, CHROMIUM set
//
// Modes: corpus (verdict and rules of corpus cases = the CLI's), hexview
// (marked bytes = the CLI's --context), large (an XRay trace and a tfile of
// LARGE_MB each, or the LARGE_FORMATS listed, validate with flat memory), screenshots (the main states against
// reports/web/*.png; UPDATE=1 writes them). Every mode fails when the page
// or its worker asked for anything outside the page's origin.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { serve } = require('./serve.js');

const env = (name) => {
  if (!process.env[name]) throw new Error(`${name} is not set`);
  return process.env[name];
};
const SRCDIR = env('SRCDIR');
const puppeteer = require(path.join(env('NPM_DIR'), 'node_modules', 'puppeteer-core'));

let failures = 0;
function fail(msg) {
  failures++;
  console.log('FAIL: ' + msg);
}

async function start() {
  const site = await serve(env('WEB_DIR'));
  const host = new URL(site.origin).host;
  const browser = await puppeteer.launch({
    executablePath: env('CHROMIUM'),
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-default-apps', '--font-render-hinting=none'],
  });
  const page = await browser.newPage();
  // Every request of the page and of its worker, as Chromium's network
  // layer reports it (also those the server never sees: other hosts).
  site.seen = [];
  const watch = (session) => {
    session.on('Network.requestWillBeSent', (e) => site.seen.push(e.request.url));
    return session.send('Network.enable');
  };
  const session = await page.createCDPSession();
  await watch(session);
  // The worker is held at its start until its requests are watched too.
  session.on('Target.attachedToTarget', async ({ sessionId, targetInfo }) => {
    const child = session.connection().session(sessionId);
    if (!child) return;
    if (targetInfo.type === 'worker') await watch(child).catch(() => {});
    await child.send('Runtime.runIfWaitingForDebugger').catch(() => {});
  });
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
  await page.setViewport({ width: 1100, height: 860, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => fail('page error: ' + e.message));
  await page.goto(site.origin + '/index.html', { waitUntil: 'load' });
  return { site, browser, page };
}

async function stop(t) {
  await t.browser.close();
  t.site.server.close();
  for (const url of t.site.seen)
    if (!url.startsWith(t.site.origin + '/') && !/^(data|blob):/.test(url)) fail('request outside the page\'s origin: ' + url);
  if (!t.site.seen.some((u) => u.endsWith('/tracelint.wasm'))) fail('the worker\'s requests were not seen');
  if (process.env.SHOW_REQUESTS) console.log(t.site.seen.join('\n'));
  if (!t.site.requests.some((u) => u.endsWith('/tracelint.wasm'))) fail('the worker never fetched tracelint.wasm');
}

// Sets the controls, chooses the files as a user does, waits for the run.
async function validate(page, files, opts = {}) {
  await page.evaluate((o) => {
    document.getElementById('format').value = o.format || 'auto';
    document.getElementById('max-errors').value = String(o.maxErrors ?? 0);
    document.getElementById('select').value = o.select || '';
    document.getElementById('ignore').value = o.ignore || '';
    document.getElementById('severity').value = o.severity || '';
    document.getElementById('werror').checked = !!o.werror;
    document.getElementById('endian').value = o.endian || 'auto';
    for (const id of ['pair', 'instr-map']) document.getElementById(id).value = '';
    document.body.setAttribute('data-state', 'choosing');
  }, opts);
  // the files of --pair and --instr-map, chosen as the trace's are
  if (opts.pair) await (await page.$('#pair')).uploadFile(opts.pair);
  if (opts.instrMap) await (await page.$('#instr-map')).uploadFile(opts.instrMap);
  const input = await page.$(opts.folder ? '#folder' : '#files');
  await input.uploadFile(...files);
  await page.waitForSelector('body[data-state=done], body[data-state=error]', { timeout: 120000 });
  return page.evaluate(() => [...document.querySelectorAll('article.file')].map((a) => ({
    path: a.dataset.path,
    verdict: a.querySelector('[data-verdict]').getAttribute('data-verdict'),
    rules: [...a.querySelectorAll('[data-rule]')].map((d) => d.getAttribute('data-rule')),
    memory: Number(a.dataset.memory),
    seconds: Number(a.dataset.seconds),
    readSeconds: Number(a.dataset.readSeconds),
    reads: Number(a.dataset.reads),
    readBytes: Number(a.dataset.readBytes),
  })));
}

// The CLI's verdicts and rules: tracelint -o json --max-errors=0.
function cli(paths, extra = [], cwd = SRCDIR) {
  let out;
  try {
    out = execFileSync(env('CLI'), ['-o', 'json', '--max-errors=0', ...extra, ...paths],
      { cwd, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout; // exit 1: some file is invalid
  }
  return JSON.parse(out).files.map((f) => ({
    path: f.path,
    verdict: f.error !== undefined ? 'unreadable' : f.valid ? 'valid' : 'invalid',
    rules: (f.diagnostics || []).map((d) => d.rule),
  }));
}

const SIDECAR = /\.(expected|args|md)$/;
const COMPRESSED = /\.(gz|bz2|zst)$/;

function cases(format, kind) {
  const dir = path.join(SRCDIR, 'corpus', format, kind);
  return fs.readdirSync(dir).filter((n) => !SIDECAR.test(n)).sort().map((name) => {
    const argsFile = path.join(dir, name + '.args');
    const args = fs.existsSync(argsFile) ? fs.readFileSync(argsFile, 'utf8').split('\n').filter((l) => l) : [];
    return { name, path: path.join(dir, name), args };
  });
}

// Options the page has: --format, --endian, --pair and --instr-map (its
// controls) and --max-errors (0 here). Paths in .args are relative to the
// case's directory; a compressed --instr-map binary is given to both
// decompressed, as the page does not decompress.
function pageOptions(c) {
  if (c.args.some((a) => !/^--(format|max-errors|endian|pair|instr-map)=/.test(a))) return null;
  const value = (name) => {
    const a = c.args.find((x) => x.startsWith(`--${name}=`));
    return a ? a.slice(name.length + 3) : undefined;
  };
  const o = { format: value('format') || 'auto' };
  if (value('endian')) o.endian = value('endian');
  if (value('pair')) o.pair = path.resolve(path.dirname(c.path), value('pair'));
  if (value('instr-map')) o.instrMap = plainFile(path.resolve(path.dirname(c.path), value('instr-map')));
  return o;
}

// The CLI's options for the page's controls o (besides --format).
function cliOptions(o) {
  return [...(o.endian ? [`--endian=${o.endian}`] : []), ...(o.pair ? [`--pair=${o.pair}`] : []),
    ...(o.instrMap ? [`--instr-map=${o.instrMap}`] : [])];
}

const plainDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracelint-web-plain-'));
process.on('exit', () => fs.rmSync(plainDir, { recursive: true, force: true }));
function plainFile(file) {
  if (!file.endsWith('.zst')) return file;
  const out = path.join(plainDir, path.basename(file, '.zst'));
  if (!fs.existsSync(out)) execFileSync('zstd', ['-q', '-d', '-f', '-o', out, file]);
  return out;
}

function compare(label, got, want) {
  const key = (r) => r.rules.slice().sort().join(' ');
  if (!got) return fail(`${label}: the page showed no result`);
  if (got.verdict !== want.verdict || key(got) !== key(want))
    fail(`${label}: page ${got.verdict} [${got.rules.join(' ')}], CLI ${want.verdict} [${want.rules.join(' ')}]`);
}

// UMTracer cases are mostly directories; a fixed sample of them, chosen as
// folders and as member files in turn.
const UMT_SAMPLE = { valid: 12, invalid: 24 };

async function modeCorpus(t) {
  let compared = 0;
  let withOptions = 0;
  for (const format of ['xray', 'dcfg', 'dcfg-trace', 'tfile', 'umtrace']) {
    for (const kind of ['valid', 'invalid']) {
      let list = cases(format, kind).filter((c) => pageOptions(c));
      if (format === 'umtrace') {
        const step = Math.max(1, Math.floor(list.length / UMT_SAMPLE[kind]));
        list = list.filter((c, i) => i % step === 0).slice(0, UMT_SAMPLE[kind]);
        let folders = 0;
        for (const c of list) {
          // a trace directory: chosen as a folder, or (every other one) as its member files
          const isDir = fs.statSync(c.path).isDirectory();
          const asFolder = isDir && folders++ % 2 === 0;
          const files = !isDir || asFolder ? [c.path] : fs.readdirSync(c.path).sort().map((m) => path.join(c.path, m));
          const [got] = await validate(t.page, files, { ...pageOptions(c), folder: asFolder });
          const [want] = cli([c.path], c.args.filter((a) => a.startsWith('--format=')));
          compare(`${format}/${kind}/${c.name}`, got, want);
          compared++;
        }
        continue;
      }
      // Compressed files are refused by the page with a reason.
      for (const c of list.filter((x) => COMPRESSED.test(x.name))) {
        const [got] = await validate(t.page, [c.path]);
        if (!got || got.verdict !== 'unreadable') fail(`${format}/${kind}/${c.name}: compressed, not refused`);
      }
      list = list.filter((c) => !COMPRESSED.test(c.name));
      // One run per choice of the controls, all its files at once.
      const groups = new Map();
      for (const c of list) {
        const k = JSON.stringify(pageOptions(c));
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(c);
      }
      for (const [k, group] of groups) {
        const o = JSON.parse(k);
        const got = await validate(t.page, group.map((c) => c.path), o);
        const want = cli(group.map((c) => c.path), [...(o.format === 'auto' ? [] : [`--format=${o.format}`]), ...cliOptions(o)]);
        const byName = new Map(got.map((g) => [g.path, g]));
        group.forEach((c, i) => compare(`${format}/${kind}/${c.name}`, byName.get(c.name), want[i]));
        compared += group.length;
        if (o.pair || o.instrMap || o.endian) withOptions += group.length;
      }
    }
  }
  // The rule settings as controls, against the same options of the CLI.
  const files = ['xray/invalid/extents-eof.xray', 'xray/invalid/basic-argument-orphan.xray',
    'tfile/invalid/' + cases('tfile', 'invalid').find((c) => !c.args.length && !COMPRESSED.test(c.name)).name]
    .map((f) => path.join(SRCDIR, 'corpus', f));
  const settings = [
    [{ select: 'XRAY-BASIC-*, tfile' }, ['--select=XRAY-BASIC-*,tfile']],
    [{ ignore: 'XRAY-FDR-EXTENTS-EOF' }, ['--ignore=XRAY-FDR-EXTENTS-EOF']],
    [{ severity: 'xray=warning' }, ['--severity=xray=warning']],
    [{ severity: 'xray=warning', werror: true }, ['--severity=xray=warning', '--werror']],
    [{ format: 'xray' }, ['--format=xray']],
  ];
  for (const [controls, options] of settings) {
    const got = await validate(t.page, files, controls);
    const want = cli(files, options);
    files.forEach((f, i) => compare(`${path.basename(f)} with ${options.join(' ')}`,
      got.find((g) => g.path === path.basename(f)), want[i]));
    compared++;
  }
  console.log(`corpus: ${compared} cases and settings compared with the CLI (${withOptions} with --pair, --instr-map or --endian)`);
  if (compared < 300) fail(`only ${compared} cases compared`);
  if (withOptions < 25) fail(`only ${withOptions} cases with --pair, --instr-map or --endian compared`);
}

// The bytes the CLI's context marks (^~~ under the hex rows), per diagnostic,
// keyed by member, offset and rule (the text output orders diagnostics by
// place, the page in the order they were found).
function cliMarks(file) {
  let text;
  try {
    text = execFileSync(env('CLI'), ['--context', '--max-errors=0', file],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    text = e.stdout;
  }
  const marks = new Map();
  let current = null;
  let row = null;
  for (const line of text.split('\n')) {
    const head = /^(.*):offset (\d+)(?: \(record \d+\))?: \w+: .*\[([A-Z0-9-]+)\]$/.exec(line);
    if (head) {
      const member = head[1].startsWith(file + '/') ? head[1].slice(file.length + 1) : '';
      const key = `${member}|${head[2]}|${head[3]}`;
      if (!marks.has(key)) marks.set(key, []);
      current = [];
      marks.get(key).push(current);
      row = null;
      continue;
    }
    const hexRow = /^ {2}([0-9a-f]{8}): /.exec(line);
    if (hexRow && current) {
      row = parseInt(hexRow[1], 16);
      continue;
    }
    if (/^ +[\^~]+$/.test(line) && row !== null && current) {
      for (let a = 0; a < 16; a++) {
        const col = 12 + 3 * a + (a >= 8 ? 1 : 0);
        if (line[col] === '^' || line[col] === '~') current.push(row + a);
      }
      continue;
    }
    if (line && !line.startsWith(' ')) current = null;
  }
  return marks;
}

async function modeHexview(t) {
  const sample = [];
  for (const format of ['xray', 'tfile', 'umtrace'])
    sample.push(...cases(format, 'invalid').filter((c) => !c.args.length && !COMPRESSED.test(c.name))
      .slice(0, format === 'umtrace' ? 3 : 6).map((c) => c.path));
  let checked = 0;
  for (const file of sample) {
    // a UMTracer trace directory is chosen as a folder; its diagnostics point into members
    await validate(t.page, [file], { folder: fs.statSync(file).isDirectory() });
    const want = cliMarks(file);
    const items = await t.page.$$('li.diag');
    for (let i = 0; i < items.length; i++) {
      const d = await items[i].evaluate((e) => ({ rule: e.dataset.rule, offset: e.dataset.offset,
        member: e.dataset.member, binary: /offset \d+/.test(e.querySelector('.loc').textContent) }));
      const cliSide = want.get(`${d.member}|${d.offset}|${d.rule}`);
      if (!d.binary || !cliSide || !cliSide.length) continue;
      const expected = cliSide.shift();
      await items[i].click();
      await t.page.waitForFunction((rule) => document.getElementById('detail-title').textContent === rule &&
        document.querySelectorAll('#hex .byte').length > 0, {}, d.rule);
      const marked = await t.page.$$eval('#hex .byte.marked', (bs) => bs.map((b) => Number(b.dataset.offset)));
      const explanation = await t.page.$eval('#explanation', (e) => e.textContent);
      if (!explanation.includes('Why it matters')) fail(`${file}: no explanation beside ${d.rule}`);
      if (marked.join(',') !== expected.join(','))
        fail(`${path.basename(file)} ${d.member} offset ${d.offset} (${d.rule}): page marks [${marked}], CLI [${expected}]`);
      checked++;
    }
  }
  console.log(`hexview: ${checked} diagnostics' marked bytes compared with the CLI's context`);
  if (checked < 20) fail(`only ${checked} hex views compared`);
  // The reports of the run are there to download, and are the library's JSON and SARIF.
  const json = await t.page.$eval('#download-json', (a) => fetch(a.href).then((r) => r.text()));
  const sarif = await t.page.$eval('#download-sarif', (a) => fetch(a.href).then((r) => r.text()));
  if (!JSON.parse(json).files || JSON.parse(sarif).version !== '2.1.0') fail('the downloads are not JSON and SARIF reports');
}

// The generators of large files, per format: XRay and tfile (binary, read
// in slices through the library's window).
const LARGE_MAKERS = {
  xray: (dir, file, mb) => {
    const gen = path.join(dir, 'xraygen');
    if (!fs.existsSync(gen)) execFileSync('cc', ['-std=c11', '-O2', '-o', gen, path.join(SRCDIR, 'corpus/xray/xraygen.c')]);
    execFileSync(gen, ['--big', String(mb * 1048576), file], { stdio: 'ignore' });
  },
  tfile: (dir, file, mb) => execFileSync('sh', [path.join(SRCDIR, 'corpus/tfile/gen-large.sh'), String(mb), file],
    { stdio: 'ignore' }),
};
const LARGE_SUFFIX = { xray: 'xray', tfile: 'tf' };

async function modeLarge(t) {
  const mb = Number(process.env.LARGE_MB || 200);
  const formats = (process.env.LARGE_FORMATS || 'xray,tfile').split(',');
  const MiB = 1 << 20;
  // The bound: the initial 32 MiB of WebAssembly memory and the page's
  // 8 MiB window; a heap copy of the file would pass it.
  const BOUND = 64 * MiB;
  for (const format of formats) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracelint-web-'));
    const file = path.join(dir, `big-${mb}mb.${LARGE_SUFFIX[format]}`);
    LARGE_MAKERS[format](dir, file, mb);
    const size = fs.statSync(file).size;
    if (size <= BOUND) fail(`the ${format} file (${size} bytes) is not larger than the memory bound`);
    const heapBefore = (await t.page.metrics()).JSHeapUsedSize;
    // sampled while it runs: the page's heap and the worker's memory
    let peakHeap = heapBefore;
    const sampler = setInterval(async () => {
      try { peakHeap = Math.max(peakHeap, (await t.page.metrics()).JSHeapUsedSize); } catch (e) { /* closing */ }
    }, 200);
    const [got] = await validate(t.page, [file], { format: 'auto' });
    clearInterval(sampler);
    const t0 = process.hrtime.bigint();
    const [want] = cli([file]);
    const native = Number(process.hrtime.bigint() - t0) / 1e9;
    compare(path.basename(file), got, want);
    if (!got || got.verdict !== 'valid') fail(`${path.basename(file)}: the generated ${format} file is not valid in the page`);
    const wasm = got.memory;
    console.log(`large: ${(size / MiB).toFixed(1)} MiB ${format}, ${got.verdict}; page ${got.seconds.toFixed(2)} s ` +
      `(${(size / MiB / got.seconds).toFixed(1)} MiB/s), CLI ${native.toFixed(2)} s (${(size / MiB / native).toFixed(1)} MiB/s); ` +
      `WebAssembly memory ${(wasm / MiB).toFixed(0)} MiB, page heap ${(heapBefore / MiB).toFixed(1)} -> peak ${(peakHeap / MiB).toFixed(1)} MiB; ` +
      `${got.reads} reads of ${(got.readBytes / MiB).toFixed(1)} MiB in ${got.readSeconds.toFixed(2)} s`);
    const windowed = await t.page.$eval('article.file', (a) => a.dataset.windowed);
    if (windowed !== 'true') fail(`${path.basename(file)} was not read in slices`);
    const progress = await t.page.$eval('#progress', (p) => p.value);
    if (progress !== 1) fail(`the progress bar ended at ${progress}, not 1`);
    if (wasm > BOUND) fail(`WebAssembly memory grew to ${wasm} bytes for a ${size}-byte ${format} file`);
    if (peakHeap - heapBefore > 32 * MiB) fail(`the page's heap grew by ${peakHeap - heapBefore} bytes`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// A trace with hundreds of diagnostics: each one's field, decoded record and
// hex rows are read back from the file, and each File read costs about a
// millisecond in the browser. The page must give the CLI's diagnostics with
// a bounded number of reads, not several per diagnostic.
async function modeReads(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracelint-web-'));
  const file = path.join(dir, 'damaged.xray');
  LARGE_MAKERS.xray(dir, file, 8);
  const bytes = fs.readFileSync(file);
  for (let i = 4096; i < bytes.length; i += 400) bytes[i] ^= 0x10; // a bit flipped every 400 bytes
  fs.writeFileSync(file, bytes);
  const [got] = await validate(t.page, [file], { format: 'auto' });
  const [want] = cli([file]);
  compare(path.basename(file), got, want);
  const MiB = 1 << 20;
  console.log(`reads: ${got.rules.length} diagnostics of an ${(bytes.length / MiB).toFixed(1)} MiB XRay trace; ` +
    `${got.reads} File reads of ${(got.readBytes / MiB).toFixed(1)} MiB in ${got.readSeconds.toFixed(2)} s; page ${got.seconds.toFixed(2)} s`);
  if (got.rules.length < 500) fail(`only ${got.rules.length} diagnostics: the damage did not give enough`);
  // the window's reads and a block per 256 KiB of the file at most
  const bound = Math.ceil(bytes.length / (256 << 10)) + 8;
  if (got.reads > bound) fail(`${got.reads} File reads for ${got.rules.length} diagnostics (bound ${bound})`);
  if (got.readBytes > 2 * bytes.length) fail(`${got.readBytes} bytes read of a ${bytes.length}-byte file`);
  fs.rmSync(dir, { recursive: true, force: true });
}

// Compares two PNGs pixel by pixel in the browser (canvas): the share of
// pixels that differ.
async function pixelDiff(page, a, b) {
  return page.evaluate(async (x, y) => {
    const load = async (b64) => {
      const img = new Image();
      img.src = 'data:image/png;base64,' + b64;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      return { w: img.width, h: img.height, d: g.getImageData(0, 0, img.width, img.height).data };
    };
    const p = await load(x);
    const q = await load(y);
    if (p.w !== q.w || p.h !== q.h) return 1;
    let differ = 0;
    for (let i = 0; i < p.d.length; i += 4)
      if (Math.abs(p.d[i] - q.d[i]) + Math.abs(p.d[i + 1] - q.d[i + 1]) + Math.abs(p.d[i + 2] - q.d[i + 2]) > 48) differ++;
    return differ / (p.w * p.h);
  }, Buffer.from(a).toString('base64'), Buffer.from(b).toString('base64'));
}

const SHOTS_DIR = () => path.join(SRCDIR, 'reports', 'web');
// Above this share of differing pixels a screenshot is a change of layout
// (Chromium renders the same page to the same pixels on one machine; the
// share leaves room for antialiasing on another).
const LAYOUT_CHANGED = 0.0005;

async function states(t) {
  const shots = {};
  // the times of a run vary: hidden (through the CSSOM, which the page's CSP allows)
  const hideTimes = () => t.page.$$eval('.rate', (es) => es.forEach((e) => { e.style.visibility = 'hidden'; }));
  shots.empty = await t.page.screenshot();
  await validate(t.page, [path.join(SRCDIR, 'corpus/xray/invalid/extents-eof.xray'),
    path.join(SRCDIR, 'corpus/xray/invalid/basic-argument-orphan.xray'),
    path.join(SRCDIR, 'corpus/tfile/valid', cases('tfile', 'valid')[0].name)], { maxErrors: 100 });
  await hideTimes();
  shots.results = await t.page.screenshot({ fullPage: true });
  await (await t.page.$('li.diag'))?.click();
  await t.page.waitForSelector('#hex .byte');
  shots.detail = await t.page.screenshot({ fullPage: true });
  return shots;
}

async function modeScreenshots(t) {
  const dir = SHOTS_DIR();
  const shots = await states(t);
  if (process.env.UPDATE === '1') {
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, png] of Object.entries(shots)) fs.writeFileSync(path.join(dir, `page-${name}.png`), png);
    console.log(`screenshots written to ${dir}`);
    return;
  }
  for (const [name, png] of Object.entries(shots)) {
    const file = path.join(dir, `page-${name}.png`);
    if (!fs.existsSync(file)) {
      fail(`${file} is missing (UPDATE=1 writes it)`);
      continue;
    }
    const share = await pixelDiff(t.page, png, fs.readFileSync(file));
    console.log(`screenshot ${name}: ${(100 * share).toFixed(3)}% of pixels differ`);
    if (share > LAYOUT_CHANGED) {
      fs.writeFileSync(path.join(process.cwd(), `page-${name}.actual.png`), png);
      fail(`screenshot ${name} differs from ${file} in ${(100 * share).toFixed(2)}% of its pixels`);
    }
  }
  // The comparison catches a change of layout that keeps the page's size:
  // the diagnostics' location and message columns moved by 10 pixels.
  await t.page.$$eval('.diag', (ds) => ds.forEach((d) => { d.style.gridTemplateColumns = '70px 250px 200px 1fr'; }));
  const moved = await t.page.screenshot({ fullPage: true });
  const share = await pixelDiff(t.page, moved, shots.detail);
  console.log(`columns moved by 10 pixels: ${(100 * share).toFixed(2)}% of pixels differ`);
  if (share <= LAYOUT_CHANGED) fail('a shift of the layout went unnoticed by the comparison');
}

// `make web-bench`: throughput in the page against the native CLI on the
// bench generators' files (best of 5 runs each), and the size of what the
// page downloads, compressed.
async function modeBench(t) {
  const MiB = 1 << 20;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracelint-web-bench-'));
  const gen = path.join(dir, 'xraygen');
  execFileSync('cc', ['-std=c11', '-O2', '-o', gen, path.join(SRCDIR, 'corpus/xray/xraygen.c')]);
  const mb = (name, dflt) => Number(process.env[name] || dflt);
  const inputs = [
    { format: 'xray', mb: mb('BENCH_XRAY_MB', 200),
      make: (f, n) => execFileSync(gen, ['--big', String(n * 1000000), f], { stdio: 'ignore' }) },
    { format: 'tfile', mb: mb('BENCH_TFILE_MB', 100),
      make: (f, n) => execFileSync('sh', [path.join(SRCDIR, 'corpus/tfile/gen-large.sh'), String(n), f], { stdio: 'ignore' }) },
    { format: 'dcfg', mb: mb('BENCH_DCFG_MB', 25),
      make: (f, n) => execFileSync('python3', [path.join(SRCDIR, 'corpus/dcfg/gen_large.py'),
        String(Math.floor((n * 1000000) / 420)), f, f + '.trace'], { stdio: 'ignore' }) },
    // the DCFG-trace the DCFG generator writes beside its DCFG, validated alone
    { format: 'dcfg-trace', mb: mb('BENCH_DCFG_MB', 25), target: (f) => f + '.trace',
      make: (f, n) => execFileSync('python3', [path.join(SRCDIR, 'corpus/dcfg/gen_large.py'),
        String(Math.floor((n * 1000000) / 420)), f, f + '.trace'], { stdio: 'ignore' }) },
    // a trace directory of 16 threads, about 77 bytes a record, chosen as a folder
    { format: 'umtrace', mb: mb('BENCH_UMTRACE_MB', 25), folder: true,
      make: (f, n) => {
        const umtgen = path.join(dir, 'umtgen');
        execFileSync('cc', ['-std=c11', '-D_POSIX_C_SOURCE=200809L', '-O2', '-o', umtgen, path.join(SRCDIR, 'corpus/umtrace/umtgen.c')]);
        execFileSync(umtgen, ['gen', f, '-n', String(Math.floor((n * 1000000) / 77)), '-t', '16'], { stdio: 'ignore' });
      } },
  ];
  const rows = [];
  for (const b of inputs) {
    const made = path.join(dir, `bench-${b.mb}mb.${b.format}`);
    b.make(made, b.mb);
    const file = b.target ? b.target(made) : made;
    const size = b.folder ? fs.readdirSync(file).reduce((n, m) => n + fs.statSync(path.join(file, m)).size, 0)
      : fs.statSync(file).size;
    let page = Infinity, native = Infinity, got, want;
    for (let i = 0; i < 5; i++) {
      [got] = await validate(t.page, [file], { format: b.format, folder: b.folder });
      page = Math.min(page, got.seconds);
      const t0 = process.hrtime.bigint();
      [want] = cli([file], [`--format=${b.format}`]);
      native = Math.min(native, Number(process.hrtime.bigint() - t0) / 1e9);
    }
    compare(path.basename(file), got, want);
    if (b.format === 'xray' && got.memory > 64 * MiB)
      fail(`WebAssembly memory grew to ${got.memory} bytes for a ${size}-byte XRay trace`);
    rows.push(`| ${b.format} | ${(size / MiB).toFixed(0)} MiB | ${(size / MiB / page).toFixed(0)} MiB/s | ` +
      `${(size / MiB / native).toFixed(0)} MiB/s | ${(page / native).toFixed(1)}x | ${(got.memory / MiB).toFixed(0)} MiB | ` +
      `${got.reads} in ${got.readSeconds.toFixed(2)} s |`);
    fs.rmSync(made, { recursive: true, force: true });
    fs.rmSync(made + '.trace', { force: true });
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const zlib = require('zlib');
  const web = env('WEB_DIR');
  const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(web, f)), { level: 9 }).length;
  const core = gz('tracelint.wasm') + gz('tracelint.js');
  const all = fs.readdirSync(web).reduce((n, f) => n + gz(f), 0);
  console.log('| format | file | page (Chromium) | CLI | page/CLI time | WebAssembly memory | File reads (last run) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  console.log(`\ngzip -9: tracelint.wasm + tracelint.js ${(core / 1024).toFixed(0)} KiB; the whole page ${(all / 1024).toFixed(0)} KiB`);
  if (core >= 1000000) fail(`the compressed WebAssembly and JavaScript take ${core} bytes, not under 1 MB`);
}

const MODES = { corpus: modeCorpus, hexview: modeHexview, large: modeLarge, reads: modeReads, screenshots: modeScreenshots, bench: modeBench };

(async () => {
  const mode = MODES[process.argv[2]];
  if (!mode) throw new Error('mode: ' + Object.keys(MODES).join(', '));
  const t = await start();
  try {
    await mode(t);
  } finally {
    await stop(t);
  }
  console.log(failures ? `${failures} failure(s)` : 'ok');
  process.exit(failures ? 1 : 0);
})().catch((e) => {
  console.log('FAIL: ' + (e.stack || e));
  process.exit(1);
});
