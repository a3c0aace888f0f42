/* Parallel bzip2 by blocks (see bzip2_par.h). */
#include "bzip2_par.h"
#include "threads.h"

#include <bzlib.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK_MAGIC UINT64_C(0x314159265359)
#define END_MAGIC UINT64_C(0x177245385090)
#define MAX_BLOCK_BITS (UINT64_C(8) << 23)

/* One block: its bits [start, end) of the file, from its magic to the next. */
struct piece {
	uint64_t start, end;
	uint32_t crc;
	uint8_t level;
	/* filled by a worker: the decoded bytes in an unlinked temporary file */
	int fd;          /* -1 until decoded */
	uint64_t len;
	enum { WAITING, RUNNING, DECODED, FAILED } state;
};

static uint64_t bits_at(const uint8_t *d, size_t size, uint64_t bit, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++, bit++) {
		size_t byte = (size_t)(bit >> 3);
		unsigned b = byte < size ? (d[byte] >> (7 - (bit & 7))) & 1u : 0u;
		v = v << 1 | b;
	}
	return v;
}

/* Bit positions of every block (low bit 0) and end-of-stream (low bit 1)
 * magic, in order. A cheap filter on the two bytes every alignment of a
 * magic covers whole keeps the full 48-bit test off most bytes. */
static uint64_t *find_magics(const uint8_t *d, size_t size, size_t *count, size_t most)
{
	uint16_t first[256] = { 0 }, second[256] = { 0 };
	for (unsigned s = 0; s < 8; s++) {
		first[(BLOCK_MAGIC >> (32 + s)) & 0xff] |= (uint16_t)(1u << s);
		second[(BLOCK_MAGIC >> (24 + s)) & 0xff] |= (uint16_t)(1u << s);
		first[(END_MAGIC >> (32 + s)) & 0xff] |= (uint16_t)(0x100u << s);
		second[(END_MAGIC >> (24 + s)) & 0xff] |= (uint16_t)(0x100u << s);
	}
	size_t n = 0, cap = 64;
	uint64_t *at = malloc(cap * sizeof *at);
	if (!at)
		return NULL;
	for (size_t i = 0; i + 7 <= size; i++) {
		unsigned m = first[d[i + 1]] & second[d[i + 2]];
		if (!m)
			continue;
		uint64_t w = 0;
		for (unsigned k = 0; k < 7; k++)
			w = w << 8 | d[i + k];
		for (unsigned s = 0; s < 8; s++) {
			uint64_t v = (w >> (8 - s)) & UINT64_C(0xffffffffffff);
			unsigned kind = (m >> s & 1u) && v == BLOCK_MAGIC ? 1 : (m >> (8 + s) & 1u) && v == END_MAGIC ? 2 : 0;
			if (!kind)
				continue;
			if (n == most) {
				free(at);
				return NULL;
			}
			if (n == cap) {
				uint64_t *grown = realloc(at, 2 * cap * sizeof *at);
				if (!grown) {
					free(at);
					return NULL;
				}
				at = grown;
				cap *= 2;
			}
			at[n++] = ((uint64_t)i * 8 + s) << 1 | (kind == 2);
		}
	}
	*count = n;
	return at;
}

/* Checks the file is streams of blocks ending at its last byte and fills
 * one piece per block; false when anything else is there. */
static bool plan(const uint8_t *d, size_t size, const uint64_t *magic, size_t nmagic, struct piece *p,
		 size_t *npieces)
{
	size_t pos = 0, k = 0, n = 0;
	while (pos < size) {
		if (size - pos < 4 || memcmp(d + pos, "BZh", 3) != 0 || d[pos + 3] < '1' || d[pos + 3] > '9')
			return false;
		uint8_t level = (uint8_t)(d[pos + 3] - '0');
		uint64_t bit = (uint64_t)(pos + 4) * 8;
		uint32_t combined = 0;
		for (;;) {
			if (k == nmagic || magic[k] >> 1 != bit)
				return false;
			if (magic[k] & 1) {
				if ((uint32_t)bits_at(d, size, bit + 48, 32) != combined)
					return false;
				pos = (size_t)((bit + 80 + 7) / 8);
				k++;
				break;
			}
			if (k + 1 == nmagic)
				return false;
			/* A block takes about 1 MB compressed at most: a span past 8 MB is
			 * no block (and would strain libbz2's unsigned counts). */
			if ((magic[k + 1] >> 1) - bit > MAX_BLOCK_BITS)
				return false;
			uint32_t crc = (uint32_t)bits_at(d, size, bit + 48, 32);
			combined = (combined << 1 | combined >> 31) ^ crc;
			p[n++] = (struct piece){ .start = bit, .end = magic[k + 1] >> 1, .crc = crc, .level = level };
			bit = magic[++k] >> 1;
		}
	}
	*npieces = n;
	return pos == size && k == nmagic;
}

/* The block as a stream of its own: header, the block's bits re-aligned,
 * end-of-stream magic and a stream CRC, which for one block is its CRC. */
static uint8_t *wrap(const uint8_t *d, const struct piece *p, size_t *len)
{
	uint64_t nbits = p->end - p->start;
	size_t body = (size_t)((nbits + 7) / 8);
	uint8_t *w = calloc(4 + body + 11, 1);
	if (!w)
		return NULL;
	memcpy(w, "BZh", 3);
	w[3] = (uint8_t)('0' + p->level);
	size_t from = (size_t)(p->start >> 3);
	unsigned sh = (unsigned)(p->start & 7);
	/* Both bytes are in the data: they reach at most the second byte of
	 * the next magic, which find_magics found whole inside it. */
	for (size_t j = 0; j < body; j++)
		w[4 + j] = (uint8_t)(d[from + j] << sh | (sh ? d[from + j + 1] >> (8 - sh) : 0));
	uint64_t bit = 32 + nbits;
	/* Bits past the block in the last body byte are cleared, then the tail appended. */
	if (nbits & 7)
		w[bit >> 3] &= (uint8_t)(0xff00u >> (bit & 7));
	uint64_t tail[2] = { END_MAGIC, p->crc };
	unsigned widths[2] = { 48, 32 };
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = widths[t]; i-- > 0; bit++)
			if (tail[t] >> i & 1)
				w[bit >> 3] |= (uint8_t)(0x80u >> (bit & 7));
	*len = (size_t)((bit + 7) / 8);
	return w;
}

/* Decoded bytes go through buffers of this size: a worker's memory is its
 * libbz2 state, the piece's compressed bits and one such buffer. */
#define CHUNK_BYTES (256u << 10)

/* Worker memory, all workers together, whatever --threads says: each
 * decoder takes 400 KB per compression level (its block index) plus its
 * buffers, so at level 9 about 22 workers fit. */
#define WORKER_BUDGET (128u << 20)

static int temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-block-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmpl);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

static bool write_all(int fd, const uint8_t *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		b += w;
		n -= (size_t)w;
	}
	return true;
}

/* Decodes one piece into a temporary file (p->fd, p->len); false when
 * libbz2 refuses it, or the file cannot be written (the sequential decoder
 * then says why). */
static bool decode(const uint8_t *d, struct piece *p, uint64_t limit)
{
	size_t wlen;
	uint8_t *w = wrap(d, p, &wlen);
	uint8_t *buf = malloc(CHUNK_BYTES);
	int fd = w && buf ? temp_file() : -1;
	bz_stream b;
	memset(&b, 0, sizeof b);
	if (fd < 0 || BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK) {
		if (fd >= 0)
			close(fd);
		free(w);
		free(buf);
		return false;
	}
	int rc = BZ_OK;
	uint64_t len = 0;
	bool written = true;
	b.next_in = (char *)w;
	b.avail_in = (unsigned)wlen;
	/* limit + 1 bytes are enough for emit to refuse the piece */
	while (rc == BZ_OK && len <= limit && written) {
		b.next_out = (char *)buf;
		b.avail_out = CHUNK_BYTES;
		rc = BZ2_bzDecompress(&b);
		size_t got = CHUNK_BYTES - b.avail_out;
		written = write_all(fd, buf, got);
		len += got;
		if (rc == BZ_OK && b.avail_out != 0)
			break; /* input used up before the end: not a block */
	}
	BZ2_bzDecompressEnd(&b);
	free(w);
	free(buf);
	if (!written || (rc != BZ_STREAM_END && len <= limit)) {
		close(fd);
		return false;
	}
	p->fd = fd;
	p->len = len > limit ? limit + 1 : len; /* enough for emit to refuse it */
	return true;
}

/* Hands a decoded piece to emit in CHUNK_BYTES steps; false when emit
 * refuses, or the file cannot be read back (err set to true). */
static bool emit_piece(struct piece *p, tl_bzip2_emit_fn emit, void *ctx, bool *err)
{
	uint8_t *buf = malloc(CHUNK_BYTES);
	*err = !buf || lseek(p->fd, 0, SEEK_SET) != 0;
	for (uint64_t left = p->len; !*err && left;) {
		size_t want = left < CHUNK_BYTES ? (size_t)left : CHUNK_BYTES;
		ssize_t r = read(p->fd, buf, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*err = true;
			break;
		}
		left -= (uint64_t)r;
		if (!emit(ctx, buf, (size_t)r)) {
			free(buf);
			return false;
		}
	}
	free(buf);
	return !*err;
}

struct pool {
	const uint8_t *data;
	uint64_t limit;
	struct piece *p;
	size_t n;
	size_t next;     /* the next piece a worker takes */
	size_t emitted;  /* pieces handed to emit */
	size_t ahead;    /* pieces a worker may decode past emitted: bounds memory */
	bool stop;
	pthread_mutex_t mu;
	pthread_cond_t changed;
};

static void *worker(void *arg)
{
	struct pool *q = arg;
	pthread_mutex_lock(&q->mu);
	for (;;) {
		while (!q->stop && q->next < q->n && q->next >= q->emitted + q->ahead)
			pthread_cond_wait(&q->changed, &q->mu);
		if (q->stop || q->next >= q->n)
			break;
		struct piece *p = &q->p[q->next++];
		p->state = RUNNING;
		pthread_mutex_unlock(&q->mu);
		bool ok = decode(q->data, p, q->limit);
		pthread_mutex_lock(&q->mu);
		p->state = ok ? DECODED : FAILED;
		pthread_cond_broadcast(&q->changed);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* Emits pieces in order as workers finish them. */
static enum tl_bzip2_par drain(struct pool *q, tl_bzip2_emit_fn emit, void *ctx)
{
	enum tl_bzip2_par r = TL_BZIP2_PAR_DONE;
	pthread_mutex_lock(&q->mu);
	while (q->emitted < q->n) {
		struct piece *p = &q->p[q->emitted];
		while (p->state == WAITING || p->state == RUNNING)
			pthread_cond_wait(&q->changed, &q->mu);
		if (p->state == FAILED) {
			r = TL_BZIP2_PAR_SEQUENTIAL;
			break;
		}
		pthread_mutex_unlock(&q->mu);
		bool unreadable;
		bool ok = emit_piece(p, emit, ctx, &unreadable);
		close(p->fd);
		p->fd = -1;
		pthread_mutex_lock(&q->mu);
		if (!ok) {
			/* A block file that cannot be read back: decode from the start. */
			r = unreadable ? TL_BZIP2_PAR_SEQUENTIAL : TL_BZIP2_PAR_STOPPED;
			break;
		}
		q->emitted++;
		pthread_cond_broadcast(&q->changed);
	}
	q->stop = true;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->mu);
	return r;
}

enum tl_bzip2_par tl_bzip2_parallel(const uint8_t *data, size_t size, unsigned threads, uint64_t limit,
				    tl_bzip2_emit_fn emit, void *ctx)
{
	if (threads < 2)
		return TL_BZIP2_PAR_SEQUENTIAL;
	/* Blocks of real data take kilobytes: more than one magic a kilobyte
	 * (past a few for tiny bombs) is not a file worth splitting, and the
	 * lists stay a few percent of the input. */
	size_t nmagic;
	uint64_t *magic = find_magics(data, size, &nmagic, size / 1024 + 16);
	if (!magic)
		return TL_BZIP2_PAR_SEQUENTIAL;
	struct piece *p = nmagic ? calloc(nmagic, sizeof *p) : NULL;
	size_t n = 0;
	bool planned = p && plan(data, size, magic, nmagic, p, &n);
	free(magic);
	if (!planned || n < 2) {
		free(p);
		return TL_BZIP2_PAR_SEQUENTIAL;
	}
	for (size_t i = 0; i < n; i++)
		p[i].fd = -1;
	unsigned level = 1;
	for (size_t i = 0; i < n; i++)
		level = p[i].level > level ? p[i].level : level;
	unsigned fit = WORKER_BUDGET / (400000u * level + 2 * CHUNK_BYTES + 100000u * level);
	if (threads > fit)
		threads = fit ? fit : 1;
	if (threads > n)
		threads = (unsigned)n;
	/* Pieces decoded ahead wait in temporary files, not in memory. */
	struct pool q = { .data = data, .limit = limit, .p = p, .n = n, .ahead = 2 * (size_t)threads };
	pthread_t tid[TL_THREADS_MAX];
	if (threads > TL_THREADS_MAX)
		threads = TL_THREADS_MAX;
	unsigned started = 0;
	enum tl_bzip2_par r = TL_BZIP2_PAR_SEQUENTIAL;
	if (pthread_mutex_init(&q.mu, NULL) != 0) {
		free(p);
		return r;
	}
	if (pthread_cond_init(&q.changed, NULL) == 0) {
		while (started < threads && pthread_create(&tid[started], NULL, worker, &q) == 0)
			started++;
		/* Without a worker nothing would decode: sequential it is. */
		if (started)
			r = drain(&q, emit, ctx);
		for (unsigned i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
		pthread_cond_destroy(&q.changed);
	}
	pthread_mutex_destroy(&q.mu);
	for (size_t i = 0; i < n; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	free(p);
	return r;
}
