// The validation worker: the library (tracelint.wasm) reads the dropped files
// through Emscripten's WORKERFS, which reads a File by slices (File.slice and
// FileReaderSync) as the library asks for bytes, so a large trace is never
// held whole (small reads go through a few cached blocks). Messages in:
// { run: { entries, blobs, format, settings, werror, maxErrors, endian, pair,
// instrMap } }. Messages out: progress, one "file" per entry, then "done"
// with the run's JSON and SARIF reports.
'use strict';
importScripts('tracelint.js');

// Windows of 8 MiB over a file read in slices: each slice is one
// FileReaderSync call, whose fixed cost dominates small reads.
const ready = createTracelint({
  print: () => {},
  printErr: (s) => console.warn(s),
  preRun: [(M) => { M.ENV.TRACELINT_WINDOW_CAPACITY = String(8 << 20); }],
});
let mounted = false;

function readText(FS, path) {
  return FS.readFile(path, { encoding: 'utf8' });
}

// Each read of a File (one FileReaderSync call) costs about a millisecond
// whatever its size, so small reads (a diagnostic's field, decoded record
// and hex rows; fields found through file pointers) come from blocks of the
// file read once each and kept a while. Large reads go straight through.
const BLOCK = 256 << 10;
const BLOCKS_KEPT = 16; // 4 MiB
const blocks = new Map(); // "node id:block number" -> bytes, oldest first

// Reads the File's bytes [start, end); onFileRead(ms, bytes) after each.
function fileBytes(node, start, end, onFileRead) {
  const t0 = performance.now();
  const bytes = new Uint8Array(new FileReaderSync().readAsArrayBuffer(node.contents.slice(start, end)));
  onFileRead(performance.now() - t0, bytes.length);
  return bytes;
}

function block(node, number, onFileRead) {
  const key = node.id + ':' + number;
  let bytes = blocks.get(key);
  if (bytes) {
    blocks.delete(key); // most recent last
  } else {
    bytes = fileBytes(node, number * BLOCK, Math.min(node.size, (number + 1) * BLOCK), onFileRead);
    if (blocks.size >= BLOCKS_KEPT) blocks.delete(blocks.keys().next().value);
  }
  blocks.set(key, bytes);
  return bytes;
}

// Replaces WORKERFS's read: small reads through the blocks, and
// onRead(node, end) tells how far the library has read.
function readThroughBlocks(FS, onFileRead, onRead) {
  const ops = FS.filesystems.WORKERFS.stream_ops;
  ops.read = function (stream, buffer, offset, length, position) {
    const node = stream.node;
    if (position >= node.size) return 0;
    length = Math.min(length, node.size - position);
    let done = 0;
    if (length >= BLOCK) {
      const bytes = fileBytes(node, position, position + length, onFileRead);
      buffer.set(bytes, offset);
      done = bytes.length;
    }
    while (done < length) {
      const at = position + done;
      const bytes = block(node, Math.floor(at / BLOCK), onFileRead);
      const from = at % BLOCK;
      const n = Math.min(length - done, bytes.length - from);
      if (n <= 0) break;
      buffer.set(bytes.subarray(from, from + n), offset + done);
      done += n;
    }
    onRead(node, position + done);
    return done;
  };
}

let current = null; // { node size, reached, posted, name }

onmessage = async (event) => {
  const M = await ready;
  const FS = M.FS;
  const job = event.data.run;
  if (!mounted) {
    FS.mkdir('/in');
    FS.mkdir('/out');
    readThroughBlocks(FS, (ms, bytes) => {
      if (!current) return;
      current.readMs += ms;
      current.reads++;
      current.bytesRead += bytes;
    }, (node, end) => {
      if (!current || end <= current.reached) return;
      current.reached = end;
      // a message per 1% at most
      if (end - current.posted >= current.size / 100 || end >= current.size) {
        current.posted = end;
        postMessage({ type: 'progress', name: current.name, done: Math.min(end, current.size), size: current.size });
      }
    });
    mounted = true;
  } else {
    FS.chdir('/');
    FS.unmount('/in');
    blocks.clear();
  }
  FS.mount(FS.filesystems.WORKERFS, { blobs: job.blobs }, '/in');
  FS.chdir('/in');
  const run = M.ccall('tlw_run_new', 'number', ['string', 'string', 'number', 'number', 'string', 'string', 'string'],
    [job.format, job.settings, job.werror ? 1 : 0, job.maxErrors, job.endian || 'auto', job.pair || '', job.instrMap || '']);
  if (!run) {
    postMessage({ type: 'error', message: 'a rule setting names no rule of the catalog, or its level is unknown' });
    return;
  }
  for (const entry of job.entries) {
    current = { name: entry.path, size: entry.size, reached: 0, posted: 0, readMs: 0, reads: 0, bytesRead: 0 };
    postMessage({ type: 'progress', name: entry.path, done: 0, size: entry.size });
    const t0 = performance.now();
    M.ccall('tlw_run_file', 'number', ['number', 'string'], [run, entry.path]);
    const seconds = (performance.now() - t0) / 1000;
    const lines = readText(FS, '/out/file.jsonl').split('\n').filter((l) => l).map((l) => JSON.parse(l));
    const result = lines.pop();
    // where the time went: reading the File's slices, and how many of them
    const reading = { seconds: current.readMs / 1000, reads: current.reads, bytes: current.bytesRead };
    postMessage({ type: 'file', path: entry.path, result, diagnostics: lines, seconds, reading,
      memory: M.HEAP8.buffer.byteLength });
  }
  current = null;
  M.ccall('tlw_run_finish', null, ['number'], [run]);
  postMessage({ type: 'done', json: readText(FS, '/out/run.json'), sarif: readText(FS, '/out/run.sarif'),
    memory: M.HEAP8.buffer.byteLength });
};
