// The page: gathers the dropped files, hands them to the worker (worker.js,
// which runs the library compiled to WebAssembly), and shows each file's
// verdict and diagnostics; a diagnostic's bytes are read back from the File
// (a slice of 48 bytes) for the hex view.
'use strict';

const RULES = new Map((self.TRACELINT_RULES ? self.TRACELINT_RULES.rules : []).map((r) => [r.id, r]));
const $ = (id) => document.getElementById(id);

// A UMTracer trace's member files, by name.
const UMT_MEMBER = /^(trace\.xml|.*\.(vtable|itable|offsets|column))$/;

let worker = null;
let lastEntries = null;
let blobsByPath = new Map();
let objectUrls = [];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

// files: [{ path: 'dir/name' or 'name', file }]. Entries to validate: each
// top-level folder (a UMTracer trace), loose UMTracer members together as
// one trace named "trace", every other file alone.
function entriesOf(files) {
  const blobs = [];
  const entries = [];
  const dirs = new Map();
  const loose = files.filter((f) => !f.path.includes('/'));
  const members = loose.filter((f) => UMT_MEMBER.test(f.path));
  const asTrace = members.length >= 2 && members.some((f) => f.path === 'trace.xml');
  for (const f of files) {
    let path = f.path;
    if (asTrace && !path.includes('/') && UMT_MEMBER.test(path)) path = 'trace/' + path;
    blobs.push({ name: path, data: f.file });
    const slash = path.indexOf('/');
    if (slash < 0) {
      entries.push({ path, size: f.file.size });
    } else {
      const dir = path.slice(0, slash);
      if (!dirs.has(dir)) {
        dirs.set(dir, { path: dir, size: 0 });
        entries.push(dirs.get(dir));
      }
      dirs.get(dir).size += f.file.size;
    }
  }
  return { entries, blobs };
}

function settingsText() {
  const list = (id) => $(id).value.split(',').map((s) => s.trim()).filter((s) => s);
  const lines = [];
  const selected = list('select');
  if (selected.length) lines.push('* off', ...selected.map((p) => p + ' default'));
  lines.push(...list('ignore').map((p) => p + ' off'));
  for (const item of list('severity')) {
    const eq = item.lastIndexOf('=');
    if (eq > 0) lines.push(item.slice(0, eq).trim() + ' ' + item.slice(eq + 1).trim());
    else lines.push(item + ' ?');
  }
  return lines.join('\n');
}

// The files the options --pair and --instr-map name: beside the entries,
// under their own names, unless an entry's file already has the name (then
// under options/).
const OPTION_FILES = ['pair', 'instr-map'];
function optionPath(id, blobs) {
  const file = $(id).files[0];
  if (!file) return '';
  const taken = blobs.find((b) => b.name === file.name);
  return taken && taken.data === file ? file.name : taken ? `options/${id}/${file.name}` : file.name;
}

function optionBlobs(blobs) {
  const extra = [];
  for (const id of OPTION_FILES) {
    const name = optionPath(id, blobs);
    if (name && !blobs.some((b) => b.name === name) && !extra.some((b) => b.name === name))
      extra.push({ name, data: $(id).files[0] });
  }
  return extra;
}

function showMessage(text, isError) {
  $('status').hidden = false;
  $('message').textContent = text;
  $('message').classList.toggle('error', !!isError);
}

function setProgress(name, done, size) {
  $('status').hidden = false;
  $('progress-name').textContent = name;
  $('progress').value = size ? done / size : 1;
  $('progress-text').textContent = size ? `${Math.floor((100 * done) / size)}% of ${formatSize(size)}` : '';
}

function formatSize(n) {
  if (n >= 1 << 30) return (n / (1 << 30)).toFixed(1) + ' GiB';
  if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MiB';
  if (n >= 1 << 10) return (n / (1 << 10)).toFixed(1) + ' KiB';
  return n + ' bytes';
}

function locationText(d) {
  const where = d.line ? `${d.line}:${d.column}` : `offset ${d.offset}`;
  const parts = [d.member ? `${d.member}:${where}` : where];
  if (d.record >= 0) parts.push(`record ${d.record}`);
  if (d.pointer) parts.push(d.pointer);
  return parts.join(', ');
}

function validate(entries, blobs) {
  lastEntries = { entries, blobs };
  blobsByPath = new Map(blobs.map((b) => [b.name, b.data]));
  $('again').disabled = false;
  $('results').replaceChildren();
  $('detail').hidden = true;
  $('downloads').hidden = true;
  document.body.removeAttribute('data-state');
  if (!entries.length) return;
  if (!worker) {
    try {
      worker = new Worker('worker.js');
    } catch (e) {
      // Chromium refuses workers (and WebAssembly fetches) to pages opened from file://
      document.body.setAttribute('data-state', 'error');
      showMessage('the validator cannot start here (' + e.message + '): serve this directory over HTTP, ' +
        'e.g. python3 -m http.server in it, and open http://localhost:8000/', true);
      return;
    }
    worker.onmessage = onWorkerMessage;
    worker.onerror = (e) => showMessage('the validator failed to start: ' + (e.message || 'unknown error'), true);
  }
  document.body.setAttribute('data-state', 'running');
  showMessage(`validating ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}...`);
  worker.postMessage({ run: {
    entries, blobs: blobs.concat(optionBlobs(blobs)),
    format: $('format').value,
    settings: settingsText(),
    werror: $('werror').checked,
    maxErrors: Math.max(0, parseInt($('max-errors').value, 10) || 0),
    endian: $('endian').value,
    pair: optionPath('pair', blobs),
    instrMap: optionPath('instr-map', blobs),
  } });
}

function onWorkerMessage(event) {
  const m = event.data;
  if (m.type === 'progress') {
    setProgress(m.name, m.done, m.size);
  } else if (m.type === 'file') {
    showFile(m);
  } else if (m.type === 'done') {
    for (const u of objectUrls) URL.revokeObjectURL(u);
    objectUrls = [URL.createObjectURL(new Blob([m.json], { type: 'application/json' })),
      URL.createObjectURL(new Blob([m.sarif], { type: 'application/sarif+json' }))];
    $('download-json').href = objectUrls[0];
    $('download-sarif').href = objectUrls[1];
    $('downloads').hidden = false;
    document.body.setAttribute('data-state', 'done');
    document.body.setAttribute('data-wasm-memory', m.memory);
    showMessage('done');
  } else if (m.type === 'error') {
    document.body.setAttribute('data-state', 'error');
    showMessage(m.message, true);
  }
}

function showFile(m) {
  const r = m.result;
  const verdict = r.status !== 0 ? 'unreadable' : r.valid ? 'valid' : 'invalid';
  const counts = `${r.errors} error(s), ${r.warnings} warning(s), ${r.notes} note(s)` +
    (r.truncated ? ', reporting stopped at the limit' : '');
  const rate = m.seconds > 0 ? `${m.seconds.toFixed(2)} s` + (r.windowed ? ', read in slices' : '') : '';
  const head = el('div', { class: 'file-head' },
    el('span', { class: 'verdict ' + verdict, 'data-verdict': verdict }, verdict),
    el('span', { class: 'path' }, m.path),
    el('span', { class: 'format' }, r.format ? r.format + (r.detail ? ` (${r.detail})` : '') : ''),
    el('span', { class: 'counts' }, r.status !== 0 ? r.message : counts),
    el('span', { class: 'rate' }, r.status !== 0 ? '' : rate));
  const list = el('ol', { class: 'diagnostics' });
  for (const d of m.diagnostics) {
    const item = el('li', { class: 'diag ' + d.severity, 'data-rule': d.rule, 'data-offset': d.offset,
      'data-member': d.member || '', tabIndex: 0 },
      el('span', { class: 'sev' }, d.severity),
      el('code', { class: 'rule' }, d.rule),
      el('span', { class: 'loc' }, locationText(d)),
      el('span', { class: 'msg' }, d.message));
    const open = () => showDetail(m.path, d, item);
    item.addEventListener('click', open);
    item.addEventListener('keydown', (e) => { if (e.key === 'Enter') open(); });
    list.append(item);
  }
  const section = el('article', { class: 'file', 'data-path': m.path, 'data-memory': m.memory,
    'data-seconds': m.seconds, 'data-windowed': r.windowed ? 'true' : 'false',
    'data-read-seconds': m.reading.seconds, 'data-reads': m.reading.reads, 'data-read-bytes': m.reading.bytes },
  head, list);
  $('results').append(section);
}

// The excerpt's rows, as the CLI's context prints them (core/excerpt.c):
// the 16-byte row of the offset and of the field, at least two, at most three.
function hexRows(d) {
  const ROW = 16;
  const f = d.field;
  const first = Math.min(f.offset, d.offset);
  const start = first - (first % ROW);
  const last = Math.max(f.offset + f.width - 1, d.offset);
  let rows = Math.floor((last - start) / ROW) + 1;
  rows = Math.min(3, Math.max(2, rows));
  return { start, length: rows * ROW };
}

async function showDetail(path, d, item) {
  for (const s of document.querySelectorAll('.diag.selected')) s.classList.remove('selected');
  item.classList.add('selected');
  const rule = RULES.get(d.rule);
  $('detail').hidden = false;
  $('detail-title').textContent = d.rule;
  $('detail-message').textContent = `${locationText(d)}: ${d.message}`;
  $('decoded').textContent = d.field.fields || '';
  $('excerpt').textContent = d.line ? d.excerpt : '';
  const hex = $('hex');
  hex.replaceChildren();
  const file = blobsByPath.get(d.member ? `${path}/${d.member}` : path);
  if (!d.line && file) {
    const { start, length } = hexRows(d);
    const bytes = new Uint8Array(await file.slice(start, start + length).arrayBuffer());
    const f = d.field;
    for (let row = 0; row * 16 < bytes.length; row++) {
      const line = el('div', { class: 'hex-row' }, el('span', { class: 'addr' },
        (start + row * 16).toString(16).padStart(8, '0') + ':'));
      let ascii = '';
      for (let i = 0; i < 16; i++) {
        const k = row * 16 + i;
        const off = start + k;
        if (k >= bytes.length) {
          line.append(el('span', { class: 'byte empty' + (i === 8 ? ' half' : '') }, '  '));
          continue;
        }
        const marked = off >= f.offset && off < f.offset + f.width;
        const cls = 'byte' + (marked ? ' marked' : '') + (off === d.offset ? ' at' : '') + (i === 8 ? ' half' : '');
        line.append(el('span', { class: cls, 'data-offset': off, title: `offset ${off}` },
          bytes[k].toString(16).padStart(2, '0')));
        ascii += bytes[k] >= 0x20 && bytes[k] < 0x7f ? String.fromCharCode(bytes[k]) : '.';
      }
      line.append(el('span', { class: 'ascii' }, ascii));
      hex.append(line);
    }
  }
  const ex = $('explanation');
  ex.replaceChildren();
  if (rule) {
    ex.append(el('p', { class: 'summary' }, rule.summary));
    if (rule.why) ex.append(el('h3', {}, 'Why it matters'), el('p', {}, rule.why));
    if (rule.fix) ex.append(el('h3', {}, 'How to fix it'), el('p', {}, rule.fix));
    if (rule.source) ex.append(el('h3', {}, 'Source'), el('p', {}, rule.source));
  }
  $('detail').scrollIntoView({ block: 'nearest' });
}

// Files from a drop: folders walked (webkitGetAsEntry) so a UMTracer trace
// keeps its directory.
async function droppedFiles(dataTransfer) {
  const out = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      const file = await new Promise((ok, fail) => entry.file(ok, fail));
      out.push({ path: prefix + entry.name, file });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
        if (!batch.length) break;
        for (const e of batch) await walk(e, prefix + entry.name + '/');
      }
    }
  };
  const items = [...dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry());
  if (items.every((i) => i)) {
    for (const e of items) await walk(e, '');
  } else {
    for (const f of dataTransfer.files) out.push({ path: f.name, file: f });
  }
  return out;
}

function fromInput(input) {
  const files = [...input.files].map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
  const { entries, blobs } = entriesOf(files);
  validate(entries, blobs);
  input.value = '';
}

function init() {
  const ids = $('rule-ids');
  for (const id of RULES.keys()) ids.append(el('option', { value: id }));
  $('files').addEventListener('change', (e) => fromInput(e.target));
  $('folder').addEventListener('change', (e) => fromInput(e.target));
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const { entries, blobs } = entriesOf(await droppedFiles(e.dataTransfer));
    validate(entries, blobs);
  });
  $('again').addEventListener('click', () => lastEntries && validate(lastEntries.entries, lastEntries.blobs));
  document.body.setAttribute('data-state', 'ready');
}

init();
