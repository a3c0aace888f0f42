/* Transparent decompression of gzip, bzip2 and zstd inputs (see decompress.h).
 * The stream is inflated into an unlinked temporary file, the way standard
 * input is spooled, so validators keep mapping or windowing one regular file
 * and the decompressed bytes never sit on the heap. */
#define _GNU_SOURCE
#include "decompress.h"
#include "write_cap.h"
#include "knob.h"
#ifndef TL_NO_DECOMPRESSORS
#include "bzip2_par.h"
#include <bzlib.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef TL_NO_DECOMPRESSORS
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>
#endif

enum { CHUNK = 1 << 16 };

/* A small compressed file may not expand past this many bytes... */
#define MIN_EXPANSION_LIMIT (UINT64_C(1) << 30)
/* ...nor past this many times its size, so a tiny bomb cannot fill the disk
 * while a genuine trace compressed 100x or more still opens. */
#define MAX_EXPANSION_RATIO 2000u


const char *tl_compression_name(enum tl_compression c)
{
	switch (c) {
	case TL_COMPRESSION_GZIP: return "gzip";
	case TL_COMPRESSION_BZIP2: return "bzip2";
	case TL_COMPRESSION_ZSTD: return "zstd";
	default: return "none";
	}
}

enum tl_compression tl_compression_sniff(const uint8_t *p, size_t n)
{
	if (n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 0x08)
		return TL_COMPRESSION_GZIP;
	/* "BZh" and a block size digit 1..9, then a block or end-of-stream magic. */
	if (n >= 10 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9' &&
	    ((p[4] == 0x31 && p[5] == 0x41 && p[6] == 0x59 && p[7] == 0x26 && p[8] == 0x53 && p[9] == 0x59) ||
	     (p[4] == 0x17 && p[5] == 0x72 && p[6] == 0x45 && p[7] == 0x38 && p[8] == 0x50 && p[9] == 0x90)))
		return TL_COMPRESSION_BZIP2;
	if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
		return TL_COMPRESSION_ZSTD;
	return TL_COMPRESSION_NONE;
}

int tl_decompress_to_file(enum tl_compression kind, const uint8_t *data, size_t size, const char *path,
			  unsigned threads, char *err, size_t errlen)
{
	struct tl_stream_defect defect;
	return tl_decompress_to_file_at(kind, data, size, path, threads, err, errlen, &defect);
}

#ifdef TL_NO_DECOMPRESSORS
/* A build without the decoders (the WebAssembly page): compressed input is refused. */
int tl_decompress_to_file_at(enum tl_compression kind, const uint8_t *data, size_t size, const char *path,
			     unsigned threads, char *err, size_t errlen, struct tl_stream_defect *defect)
{
	(void)data, (void)size, (void)threads;
	memset(defect, 0, sizeof *defect);
	if (err && errlen)
		snprintf(err, errlen, "cannot read %s: it is %s-compressed, and this build has no decompressors "
			 "(decompress it first)", path, tl_compression_name(kind));
	return -1;
}
#else
struct sink {
	int fd;
	uint64_t written;
	uint64_t limit;
	bool by_rlimit;       /* the limit is ulimit -f, not the bomb limit */
	const char *path;
	char *err;
	size_t errlen;
	struct tl_stream_defect *defect;
};

/* The data themselves are at fault at compressed byte at. */
static void fault(struct sink *s, enum tl_stream_fault f, uint64_t at, const char *reason)
{
	s->defect->fault = f;
	s->defect->compressed_at = at;
	s->defect->decoded_at = s->written;
	snprintf(s->defect->reason, sizeof s->defect->reason, "%s", reason ? reason : "");
}

static bool sink_write(struct sink *s, const void *data, size_t n)
{
	if (n > s->limit - s->written) {
		snprintf(s->err, s->errlen, "%s: decompressed data exceed %llu bytes (%s)", s->path,
			 (unsigned long long)s->limit,
			 s->by_rlimit ? "the file size limit, ulimit -f"
				      : "the limit for a compressed file of this size");
		return false;
	}
	if (!tl_write_all(s->fd, data, n)) {
		snprintf(s->err, s->errlen, "%s: cannot write the decompressed data: %s", s->path,
			 strerror(errno));
		return false;
	}
	s->written += n;
	return true;
}

struct source {
	const uint8_t *data;
	size_t size;
};

static bool inflate_gzip(const struct source *in, struct sink *out)
{
	uint8_t buf[CHUNK]; /* on the stack: the library keeps no static state */
	z_stream z;
	memset(&z, 0, sizeof z);
	/* 15 + 16: a gzip wrapper, the largest window. */
	int init = inflateInit2(&z, 15 + 16);
	if (init != Z_OK) {
		snprintf(out->err, out->errlen, "%s: cannot start gzip decompression%s", out->path,
			 init == Z_MEM_ERROR ? ": out of memory" : "");
		return false;
	}
	size_t pos = 0;
	bool ok = true;
	while (ok) {
		size_t take = in->size - pos > (1u << 30) ? (1u << 30) : in->size - pos;
		z.next_in = (Bytef *)(uintptr_t)(in->data + pos);
		z.avail_in = (uInt)take;
		z.next_out = buf;
		z.avail_out = sizeof buf;
		int rc = inflate(&z, Z_NO_FLUSH);
		pos += take - z.avail_in;
		if (!sink_write(out, buf, sizeof buf - z.avail_out)) {
			ok = false;
			break;
		}
		if (rc == Z_STREAM_END) {
			if (pos == in->size)
				break;
			/* Concatenated members are one gzip file; anything else after the end is not. */
			if (tl_compression_sniff(in->data + pos, in->size - pos) != TL_COMPRESSION_GZIP) {
				snprintf(out->err, out->errlen, "%s: %zu bytes after the end of the gzip data at byte %zu",
					 out->path, in->size - pos, pos);
				fault(out, TL_STREAM_TRAILING, pos, NULL);
				ok = false;
				break;
			}
			inflateReset(&z);
			continue;
		}
		if (rc == Z_OK)
			continue;
		/* No progress: the input ran out inside a member, or the data are bad. */
		if (rc == Z_BUF_ERROR && pos == in->size) {
			snprintf(out->err, out->errlen, "%s: gzip data end early (truncated at byte %zu)", out->path, pos);
			fault(out, TL_STREAM_CUT, pos, NULL);
		} else if (rc == Z_MEM_ERROR) { /* the machine's, not the data's */
			snprintf(out->err, out->errlen, "%s: out of memory decompressing gzip data", out->path);
		} else {
			snprintf(out->err, out->errlen, "%s: corrupt gzip data near byte %zu: %s", out->path, pos,
				 z.msg ? z.msg : "inflate failed");
			fault(out, TL_STREAM_CORRUPT, pos, z.msg ? z.msg : "inflate failed");
		}
		ok = false;
	}
	inflateEnd(&z);
	return ok;
}

static bool sink_emit(void *ctx, const void *data, size_t n)
{
	return sink_write(ctx, data, n);
}

/* Empties the output file for a decoding that starts again. */
static bool sink_rewind(struct sink *s)
{
	if (ftruncate(s->fd, 0) != 0 || lseek(s->fd, 0, SEEK_SET) != 0) {
		snprintf(s->err, s->errlen, "%s: cannot write the decompressed data: %s", s->path,
			 strerror(errno));
		return false;
	}
	s->written = 0;
	return true;
}

static bool inflate_bzip2(const struct source *in, struct sink *out, unsigned threads)
{
	/* Blocks on several threads when the file's structure allows; any
	 * doubt goes to the sequential decoder below and its diagnostics. */
	switch (tl_bzip2_parallel(in->data, in->size, threads, out->limit, sink_emit, out)) {
	case TL_BZIP2_PAR_DONE: return true;
	case TL_BZIP2_PAR_STOPPED: return false;
	case TL_BZIP2_PAR_SEQUENTIAL:
		if (out->written && !sink_rewind(out))
			return false;
		break;
	}

	uint8_t buf[CHUNK]; /* on the stack: the library keeps no static state */
	size_t pos = 0;
	while (pos < in->size) {
		bz_stream b;
		memset(&b, 0, sizeof b);
		int init = BZ2_bzDecompressInit(&b, 0, 0);
		if (init != BZ_OK) {
			snprintf(out->err, out->errlen, "%s: cannot start bzip2 decompression%s", out->path,
				 init == BZ_MEM_ERROR ? ": out of memory" : "");
			return false;
		}
		int rc = BZ_OK;
		while (rc == BZ_OK) {
			size_t take = in->size - pos > (1u << 30) ? (1u << 30) : in->size - pos;
			b.next_in = (char *)(uintptr_t)(in->data + pos);
			b.avail_in = (unsigned)take;
			b.next_out = (char *)buf;
			b.avail_out = sizeof buf;
			rc = BZ2_bzDecompress(&b);
			pos += take - b.avail_in;
			if (!sink_write(out, buf, sizeof buf - b.avail_out)) {
				BZ2_bzDecompressEnd(&b);
				return false;
			}
			if (rc == BZ_OK && pos == in->size && b.avail_out != 0) {
				snprintf(out->err, out->errlen, "%s: bzip2 data end early (truncated at byte %zu)",
					 out->path, pos);
				fault(out, TL_STREAM_CUT, pos, NULL);
				BZ2_bzDecompressEnd(&b);
				return false;
			}
		}
		BZ2_bzDecompressEnd(&b);
		if (rc == BZ_MEM_ERROR) {
			snprintf(out->err, out->errlen, "%s: out of memory decompressing bzip2 data", out->path);
			return false;
		}
		if (rc != BZ_STREAM_END) {
			snprintf(out->err, out->errlen, "%s: corrupt bzip2 data near byte %zu (libbz2 error %d)",
				 out->path, pos, rc);
			if (rc == BZ_DATA_ERROR || rc == BZ_DATA_ERROR_MAGIC)
				fault(out, TL_STREAM_CORRUPT, pos, rc == BZ_DATA_ERROR_MAGIC ? "not bzip2 data" : "data error");
			return false;
		}
		/* Parallel compressors write one stream after another. */
		if (pos < in->size && tl_compression_sniff(in->data + pos, in->size - pos) != TL_COMPRESSION_BZIP2) {
			snprintf(out->err, out->errlen, "%s: %zu bytes after the end of the bzip2 data at byte %zu",
				 out->path, in->size - pos, pos);
			fault(out, TL_STREAM_TRAILING, pos, NULL);
			return false;
		}
	}
	return true;
}

/* The largest zstd window decoded: 2^30 bytes (1 GiB, `zstd --long=30`).
 * The decoder reserves a buffer the size of the window the frame asks for,
 * so a hostile header could otherwise claim 2 GiB for a few bytes. */
#define ZSTD_WINDOW_LOG_LIMIT 30

/* The window a frame header at p asks for (0 when it cannot be told). */
static uint64_t zstd_window_of(const uint8_t *p, size_t n)
{
	if (n < 6 || p[0] != 0x28 || p[1] != 0xb5 || p[2] != 0x2f || p[3] != 0xfd)
		return 0;
	if (p[4] & 0x20) /* single segment: the window is the content size, not told here */
		return 0;
	uint64_t base = (uint64_t)1 << (10 + (p[5] >> 3));
	return base + (base / 8) * (p[5] & 7);
}

static bool inflate_zstd(const struct source *in, struct sink *out)
{
	uint8_t buf[CHUNK]; /* on the stack: the library keeps no static state */
	ZSTD_DStream *z = ZSTD_createDStream();
	if (!z) {
		snprintf(out->err, out->errlen, "%s: cannot start zstd decompression: out of memory", out->path);
		return false;
	}
	ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, ZSTD_WINDOW_LOG_LIMIT);
	ZSTD_inBuffer ib = { in->data, in->size, 0 };
	size_t last = 1, frame_at = 0;
	bool ok = true;
	while (ok && (ib.pos < ib.size || last != 0)) {
		ZSTD_outBuffer ob = { buf, sizeof buf, 0 };
		size_t before = ib.pos;
		last = ZSTD_decompressStream(z, &ob, &ib);
		if (ZSTD_isError(last) && ZSTD_getErrorCode(last) == ZSTD_error_frameParameter_windowTooLarge) {
			uint64_t want = zstd_window_of(in->data + frame_at, in->size - frame_at);
			char told[64] = "";
			if (want)
				snprintf(told, sizeof told, " of %llu MiB", (unsigned long long)(want >> 20));
			snprintf(out->err, out->errlen,
				 "%s: the zstd frame at byte %zu needs a window%s, more than the %u MiB this tool decodes (recompress with --long=%u or less)",
				 out->path, frame_at, told, 1u << (ZSTD_WINDOW_LOG_LIMIT - 20), ZSTD_WINDOW_LOG_LIMIT);
			ok = false;
			break;
		}
		if (ZSTD_isError(last) && ZSTD_getErrorCode(last) == ZSTD_error_memory_allocation) {
			snprintf(out->err, out->errlen, "%s: out of memory decompressing zstd data", out->path);
			ok = false;
			break;
		}
		if (ZSTD_isError(last)) {
			snprintf(out->err, out->errlen, "%s: corrupt zstd data near byte %zu: %s", out->path, ib.pos,
				 ZSTD_getErrorName(last));
			fault(out, TL_STREAM_CORRUPT, ib.pos, ZSTD_getErrorName(last));
			ok = false;
			break;
		}
		if (!sink_write(out, buf, ob.pos)) {
			ok = false;
			break;
		}
		if (last == 0)
			frame_at = ib.pos; /* a frame ended: the next starts here */
		if (ib.pos == ib.size && last != 0 && ob.pos < ob.size && before == ib.pos) {
			snprintf(out->err, out->errlen, "%s: zstd data end early (truncated at byte %zu)", out->path,
				 ib.pos);
			fault(out, TL_STREAM_CUT, ib.pos, NULL);
			ok = false;
		}
	}
	ZSTD_freeDStream(z);
	return ok;
}

int tl_decompress_to_file_at(enum tl_compression kind, const uint8_t *data, size_t size, const char *path,
			     unsigned threads, char *err, size_t errlen, struct tl_stream_defect *defect)
{
	memset(defect, 0, sizeof *defect);
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-unpack-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a file for the decompressed data: %s", path, strerror(errno));
		return -1;
	}
	unlink(tmpl);
	uint64_t limit = (uint64_t)size * MAX_EXPANSION_RATIO;
	/* TRACELINT_DECOMPRESS_FLOOR lowers the floor so tests can reach the bomb check */
	uint64_t floor = tl_knob("TRACELINT_DECOMPRESS_FLOOR", MIN_EXPANSION_LIMIT, UINT64_MAX);
	if (limit < floor)
		limit = floor;
	bool by_rlimit;
	limit = tl_write_cap(limit, &by_rlimit);
	struct sink out = { .fd = fd, .limit = limit, .by_rlimit = by_rlimit, .path = path, .err = err,
			    .errlen = errlen, .defect = defect };
	struct source in = { data, size };
	bool ok;
	switch (kind) {
	case TL_COMPRESSION_GZIP: ok = inflate_gzip(&in, &out); break;
	case TL_COMPRESSION_BZIP2: ok = inflate_bzip2(&in, &out, threads); break;
	case TL_COMPRESSION_ZSTD: ok = inflate_zstd(&in, &out); break;
	default:
		snprintf(err, errlen, "%s: not compressed", path);
		ok = false;
		break;
	}
	if (!ok) {
		close(fd);
		return -1;
	}
	return fd;
}
#endif
