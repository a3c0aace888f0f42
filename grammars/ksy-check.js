#!/usr/bin/env node
// Compiles the Kaitai Struct grammars with the reference compiler and parses
// files with the result, for tests/grammars/.
//   ksy-check.js compile OUTDIR FILE.ksy...   JavaScript parsers into OUTDIR;
//   ksy-check.js compile-python OUTDIR FILE.ksy...   the same, Python parsers;
//                                             any compiler warning fails
//   ksy-check.js parse OUTDIR ID [NAME=VALUE...] -- FILE...
//                                             one line per file: "ok FILE" when the
//                                             grammar consumes it to the last byte,
//                                             "fail FILE: why" otherwise
//   ksy-check.js parse-each OUTDIR ID LIST
//                                             the same, with parameters per file:
//                                             each line of LIST is
//                                             "FILE [NAME=VALUE...]"
//   ksy-check.js slices OUTDIR ID TYPE ends|pairs -- INDEX FILE [INDEX FILE...]
//                                             cuts each FILE into the pieces its INDEX (a file
//                                             of little-endian i64) gives, "ends":
//                                             piece i is [I[i], I[i+1]), "pairs":
//                                             piece i is [I[2i], I[2i] + I[2i+1]),
//                                             and parses each to its last byte with
//                                             the grammar's type TYPE: "ok FILE N"
//                                             (N pieces) or "fail FILE: piece i: why"
//   ksy-check.js lint FILE.ksy...             every field, parameter and instance
//                                             has a doc: (they name the rules)
//   ksy-check.js spans OUTDIR ID [NAME=VALUE...] -- FILE...
//                                             after parsing, one line per type:
//                                             "TypeName SIZE..." (the distinct byte
//                                             counts its objects read)
'use strict';
const fs = require('fs');
const path = require('path');
const here = __dirname;
const modules = path.join(here, 'node_modules');

function usage() {
	process.stderr.write('usage: ksy-check.js compile OUTDIR FILE.ksy...\n' +
		'       ksy-check.js parse OUTDIR ID [NAME=VALUE...] -- FILE...\n' +
		'       ksy-check.js parse-each OUTDIR ID LIST\n' +
		'       ksy-check.js slices OUTDIR ID TYPE ends|pairs -- INDEX FILE...\n');
	process.exit(2);
}

// The compiler's JavaScript API drops every problem of severity warning
// (style, encoding) that its command-line tool prints; this loads it with one
// statement added where it looks at the problems, so the warnings reach us.
// The compiler is pinned by package-lock.json: a version without that place
// fails here rather than hiding warnings again.
function loadCompiler(problems) {
	const Module = require('module');
	const file = require.resolve(path.join(modules, 'kaitai-struct-compiler'));
	const anchor = 'var problems = $as_sc_Iterable(problems$2);';
	let src = fs.readFileSync(file, 'utf8');
	if (src.split(anchor).length !== 2)
		throw new Error(`${file}: cannot find where the compiler checks its problems`);
	src = src.replace(anchor, anchor + ' $n(problems).foreach__F1__V(new $c_sjsr_AnonFunction1(' +
		'(p$w) => { globalThis.__ksyProblems.push($n(p$w).message__T()); }));');
	globalThis.__ksyProblems = problems;
	const m = new Module(file, module);
	m.filename = file;
	m.paths = Module._nodeModulePaths(path.dirname(file));
	m._compile(src, file);
	return m.exports;
}

async function compile(outdir, files, target = 'javascript') {
	const problems = [];
	const compiler = loadCompiler(problems);
	const yaml = require(path.join(modules, 'js-yaml'));
	const warnings = [];
	const origWarn = console.warn, origLog = console.log, origErr = console.error;
	console.warn = console.log = console.error = (...a) => warnings.push(a.join(' '));
	let failed = false;
	fs.mkdirSync(outdir, { recursive: true });
	for (const file of files) {
		try {
			const spec = yaml.load(fs.readFileSync(file, 'utf8'));
			problems.length = 0;
			const out = await compiler.compile(target, spec, null, false);
			for (const p of problems)
				warnings.push(`${file}: ${p}`);
			for (const name of Object.keys(out))
				fs.writeFileSync(path.join(outdir, name), out[name]);
		} catch (e) {
			failed = true;
			warnings.push(`${file}: ${e && e.message ? e.message : e}`);
		}
	}
	console.warn = origWarn; console.log = origLog; console.error = origErr;
	for (const w of warnings)
		process.stderr.write(w + '\n');
	process.exit(failed || warnings.length ? 1 : 0);
}

function lint(files) {
	const yaml = require(path.join(modules, 'js-yaml'));
	let missing = 0;
	const check = (file, type, where) => {
		for (const a of (type.seq || []).concat(type.params || []))
			if (!a.doc) {
				process.stdout.write(`${file}: ${where}.${a.id} has no doc\n`);
				missing++;
			}
		for (const [name, inst] of Object.entries(type.instances || {}))
			if (!inst.doc) {
				process.stdout.write(`${file}: ${where}.${name} has no doc\n`);
				missing++;
			}
		for (const [name, sub] of Object.entries(type.types || {}))
			check(file, sub, name);
	};
	for (const file of files)
		check(file, yaml.load(fs.readFileSync(file, 'utf8')), 'root');
	process.exit(missing ? 1 : 0);
}

function className(id) {
	return id.split('_').map(w => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

// Reads every lazy instance too, so that a `valid:` or a read behind one is checked.
function touch(obj, seen) {
	if (obj === null || typeof obj !== 'object' || seen.has(obj) || obj instanceof Uint8Array)
		return;
	seen.add(obj);
	if (Array.isArray(obj)) {
		obj.forEach(o => touch(o, seen));
		return;
	}
	for (const k of Object.keys(obj)) {
		if (k.startsWith('_'))
			continue;
		touch(obj[k], seen);
	}
	const proto = Object.getPrototypeOf(obj);
	for (const k of Object.getOwnPropertyNames(proto)) {
		const d = Object.getOwnPropertyDescriptor(proto, k);
		if (d && d.get && !k.startsWith('_'))
			touch(obj[k], seen);
	}
}

// Wraps every generated type's _read to note how many bytes each object reads.
function recordSpans(root, spans) {
	const seen = new Set();
	const patch = (name, cls) => {
		if (typeof cls !== 'function' || seen.has(cls) || !cls.prototype._read)
			return;
		seen.add(cls);
		const read = cls.prototype._read;
		cls.prototype._read = function () {
			const start = this._io.pos;
			read.call(this);
			if (!spans.has(name))
				spans.set(name, new Set());
			spans.get(name).add(this._io.pos - start);
		};
		for (const k of Object.keys(cls))
			patch(k, cls[k]);
	};
	patch(root.name, root);
}

// files: [file, params] pairs.
// The Kaitai runtime, which the generated modules require by name.
function loadRuntime() {
	const Module = require('module');
	const resolve = Module._resolveFilename;
	Module._resolveFilename = function (request, ...rest) {
		if (request === 'kaitai-struct/KaitaiStream')
			return path.join(modules, 'kaitai-struct', 'KaitaiStream.js');
		return resolve.call(this, request, ...rest);
	};
	return require(path.join(modules, 'kaitai-struct', 'KaitaiStream'));
}

function parse(outdir, id, files, spans) {
	const KaitaiStream = loadRuntime();
	const cls = className(id);
	const Parser = require(path.resolve(outdir, cls + '.js'))[cls];
	if (spans)
		recordSpans(Parser, spans);
	for (const [file, params] of files) {
		const bytes = fs.readFileSync(file);
		const stream = new KaitaiStream(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
		try {
			const obj = new Parser(stream, null, null, ...params);
			touch(obj, new Set());
			if (!stream.isEof())
				throw new Error(`stopped at byte ${stream.pos} of ${stream.size}`);
			if (!spans)
				process.stdout.write(`ok ${file}\n`);
		} catch (e) {
			const msg = (e && e.message ? e.message : String(e)).replace(/\s+/g, ' ');
			const at = e && e.srcPath ? ` (${e.srcPath})` : '';
			if (spans)
				process.exitCode = 1;
			process.stdout.write(`fail ${file}: ${e && e.name ? e.name + ': ' : ''}${msg}${at}\n`);
		}
	}
}

function slices(outdir, id, type, kind, pairs) {
	const KaitaiStream = loadRuntime();
	const cls = className(id);
	const Parser = require(path.resolve(outdir, cls + '.js'))[cls][className(type)];
	if (typeof Parser !== 'function')
		throw new Error(`${cls}.js has no type ${type}`);
	for (let k = 0; k + 1 < pairs.length; k += 2)
		slicesOf(KaitaiStream, Parser, kind, pairs[k], pairs[k + 1]);
}

function slicesOf(KaitaiStream, Parser, kind, index, file) {
	const ix = fs.readFileSync(index);
	const v = [];
	for (let o = 0; o + 8 <= ix.length; o += 8)
		v.push(Number(ix.readBigInt64LE(o)));
	const pieces = [];
	if (kind === 'ends')
		for (let i = 0; i + 1 < v.length; i++)
			pieces.push([v[i], v[i + 1]]);
	else
		for (let i = 0; i + 1 < v.length; i += 2)
			pieces.push([v[i], v[i] + v[i + 1]]);
	const bytes = fs.readFileSync(file);
	for (let i = 0; i < pieces.length; i++) {
		const [from, to] = pieces[i];
		try {
			if (!(from >= 0 && from <= to && to <= bytes.length))
				throw new Error(`[${from}, ${to}) is outside the file`);
			const b = bytes.subarray(from, to);
			const stream = new KaitaiStream(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
			const obj = new Parser(stream, null, null);
			touch(obj, new Set());
			if (!stream.isEof())
				throw new Error(`stopped at byte ${stream.pos} of ${stream.size}`);
		} catch (e) {
			const msg = (e && e.message ? e.message : String(e)).replace(/\s+/g, ' ');
			const at = e && e.srcPath ? ` (${e.srcPath})` : '';
			process.stdout.write(`fail ${file}: piece ${i}: ${e && e.name ? e.name + ': ' : ''}${msg}${at}\n`);
			return;
		}
	}
	process.stdout.write(`ok ${file} ${pieces.length}\n`);
}

// NAME=VALUE arguments: the values, in order (booleans, integers, strings).
function paramValues(args) {
	return args.map(p => {
		const v = p.slice(p.indexOf('=') + 1);
		if (v === 'true' || v === 'false')
			return v === 'true';
		return /^-?\d+$/.test(v) ? Number(v) : v;
	});
}

const [mode, outdir, ...rest] = process.argv.slice(2);
if (mode === 'lint' && outdir)
	lint([outdir, ...rest]);
else if (mode === 'compile' && outdir && rest.length)
	compile(outdir, rest);
else if (mode === 'compile-python' && outdir && rest.length)
	compile(outdir, rest, 'python');
else if ((mode === 'parse' || mode === 'spans') && outdir && rest.length) {
	const sep = rest.indexOf('--');
	if (sep < 1)
		usage();
	const params = paramValues(rest.slice(1, sep));
	const spans = mode === 'spans' ? new Map() : null;
	parse(outdir, rest[0], rest.slice(sep + 1).map(f => [f, params]), spans);
	if (spans)
		for (const [name, sizes] of [...spans].sort())
			process.stdout.write(`${name} ${[...sizes].sort((a, b) => a - b).join(' ')}\n`);
} else if (mode === 'parse-each' && outdir && rest.length === 2) {
	const lines = fs.readFileSync(rest[1], 'utf8').split('\n').filter(l => l.trim() !== '');
	parse(outdir, rest[0], lines.map(l => {
		const w = l.trim().split(/\s+/);
		return [w[0], paramValues(w.slice(1))];
	}), null);
} else if (mode === 'slices' && outdir && rest.length >= 6 && rest.length % 2 === 0 &&
	   ['ends', 'pairs'].includes(rest[2]) && rest[3] === '--')
	slices(outdir, rest[0], rest[1], rest[2], rest.slice(4));
else
	usage();
