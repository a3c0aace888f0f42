/* bzip2 decoded by blocks on several threads. bzip2 blocks are independent:
 * each is found by its bit-aligned magic, re-wrapped as a one-block stream
 * and decoded by libbz2 on a worker while the caller's emit receives the
 * output in file order. Only a file whose whole structure checks (every
 * stream header, block chain, end-of-stream magic and combined CRC, nothing
 * after) is decoded this way; anything else, or a piece libbz2 refuses (a
 * false magic inside compressed data), is left to the sequential decoder,
 * which gives the exact diagnostics. */
#ifndef TL_BZIP2_PAR_H
#define TL_BZIP2_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Receives decoded bytes in order; false stops decoding (its message is final). */
typedef bool (*tl_bzip2_emit_fn)(void *ctx, const void *data, size_t n);

enum tl_bzip2_par {
	TL_BZIP2_PAR_DONE,        /* everything was emitted */
	TL_BZIP2_PAR_STOPPED,     /* emit returned false */
	TL_BZIP2_PAR_SEQUENTIAL   /* decode sequentially from the start; bytes emitted so far are void */
};

/* limit: no piece is decoded past limit + 1 bytes, so a bomb block is
 * refused by emit after at most that much of it. Decoded pieces wait in
 * unlinked temporary files ($TMPDIR), not in memory, and reach emit in
 * steps of at most 256 KiB; the workers (at most `threads`, fewer when
 * their decoders would pass 128 MiB together) are all the memory taken. */
enum tl_bzip2_par tl_bzip2_parallel(const uint8_t *data, size_t size, unsigned threads, uint64_t limit,
				    tl_bzip2_emit_fn emit, void *ctx);

#endif
