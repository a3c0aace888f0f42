/* Compressed inputs: SDE writes DCFGs as .dcfg.json.bz2, and traces travel
 * gzipped or zstd-compressed. The compression is recognised by its magic
 * bytes, never by the file name, and the stream is decompressed into an
 * unlinked temporary file that the input then maps (input.c). Diagnostics
 * give offsets in the decompressed data. */
#ifndef TL_DECOMPRESS_H
#define TL_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tl_compression { TL_COMPRESSION_NONE = 0, TL_COMPRESSION_GZIP, TL_COMPRESSION_BZIP2, TL_COMPRESSION_ZSTD };

/* What the first bytes of a file say; n is how many of them there are. */
enum tl_compression tl_compression_sniff(const uint8_t *p, size_t n);
const char *tl_compression_name(enum tl_compression c);

/* Decompresses data (all of the compressed file) into a new unlinked
 * temporary file and returns its descriptor, or -1 with a message naming
 * path and the compressed byte near the defect (truncated or corrupt data,
 * bytes after the end, or output past the limit of max(1 GiB, 2000 x the
 * compressed size), which stops decompression bombs; TRACELINT_DECOMPRESS_FLOOR,
 * bytes, lowers the 1 GiB for tests). threads (tl_threads_resolve) above 1
 * decodes bzip2 blocks in parallel (bzip2_par.h) with the same output and
 * diagnostics. */
int tl_decompress_to_file(enum tl_compression kind, const uint8_t *data, size_t size, const char *path,
			  unsigned threads, char *err, size_t errlen);

/* What was wrong with the compressed data themselves (not with the machine:
 * no room, a limit): the stream ends early, is corrupt, or is followed by
 * bytes of no stream. */
enum tl_stream_fault { TL_STREAM_OK = 0, TL_STREAM_CUT, TL_STREAM_CORRUPT, TL_STREAM_TRAILING };

struct tl_stream_defect {
	enum tl_stream_fault fault;
	uint64_t compressed_at;  /* byte of the compressed file where it was found */
	uint64_t decoded_at;     /* bytes decompressed before it */
	char reason[96];         /* the decoder's word for a corrupt stream, or "" */
};

/* tl_decompress_to_file, saying in defect (zeroed first) when the failure is
 * the data's own. */
int tl_decompress_to_file_at(enum tl_compression kind, const uint8_t *data, size_t size, const char *path,
			     unsigned threads, char *err, size_t errlen, struct tl_stream_defect *defect);

#endif
