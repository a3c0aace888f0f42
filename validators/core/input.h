/* Input mapping: a file, standard input or a memory buffer seen as one byte
 * range. Files are memory-mapped; standard input is spooled to an unlinked
 * temporary file and mapped too, so no input is ever copied whole onto the
 * heap. The file also stays open, for dense streaming validators that read
 * it through a bounded window (window.h) rather than through the mapping,
 * whose pages would otherwise pile up in RSS. */
#ifndef TL_INPUT_H
#define TL_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decompress.h"

struct tl_input {
	const uint8_t *data;  /* NULL for an empty input or a directory */
	size_t size;
	const char *name;     /* for diagnostics */
	bool is_directory;
	/* internal */
	void *map;
	size_t map_size;
	uint64_t released;    /* bytes before this were handed back to the kernel */
	int fd;               /* the open file, valid only when has_fd */
	bool has_fd;          /* false for memory inputs and directories */
	uint8_t compression;  /* enum tl_compression of the file as given; data is decompressed */
	uint64_t given_size;  /* bytes of the file as given (compressed), for amplification limits */
	unsigned guard;       /* guard.h handle of the mapping, 0 when none */
	int error;            /* after a failed open: the errno-style reason */
	/* A stream being fed (tl_stream_*): size is what has arrived so far and
	 * grows between calls; data is NULL, the bytes are read from fd. */
	bool growing;
	unsigned threads;     /* for decompression: tl_threads_resolve's argument (0: all cores) */
	/* after an open that failed on the compressed data themselves (error
	 * EBADMSG): what and where, and the compression */
	struct tl_stream_defect defect;
};

/* Standard input is spooled up to this many bytes by default. */
#define TL_STDIN_LIMIT_DEFAULT ((uint64_t)4 << 30)

/* path "-" is standard input. A gzip, bzip2 or zstd file (recognised by its
 * magic) is decompressed first (decompress.h). Returns false with a message
 * in err. */
bool tl_input_open(struct tl_input *in, const char *path, char *err, size_t errlen);
/* The same, with a limit on the bytes spooled from standard input (0: none).
 * Only regular files and directories are opened; FIFOs and devices are
 * refused without blocking. On failure in->error says why (ENOENT: absent). */
bool tl_input_open_limited(struct tl_input *in, const char *path, uint64_t stdin_limit,
			   char *err, size_t errlen);
/* The same, decompressing on up to threads threads (0: tl_threads_resolve's default). */
bool tl_input_open_threads(struct tl_input *in, const char *path, uint64_t stdin_limit, unsigned threads,
			   char *err, size_t errlen);
/* The same for a descriptor already open (it is closed on failure, or by
 * tl_input_close). in must be zeroed first. */
bool tl_input_from_fd(struct tl_input *in, int fd, const char *path, char *err, size_t errlen);
/* True when the file shrank or failed while it was read: the bytes read past
 * that point were zeros, so no verdict may be given on them. */
bool tl_input_changed(const struct tl_input *in);
/* tl_input_changed without the size check: a fault or a short read only
 * (one atomic load; for the reporting path). */
bool tl_input_changed_fast(const struct tl_input *in);
/* For readers that do not go through the mapping (window.h): the file ended
 * early (error 0) or a read failed with errno error. */
void tl_input_mark_changed(const struct tl_input *in);
void tl_input_mark_failed(const struct tl_input *in, int error);
/* Why a changed input could not be read, for "cannot read NAME: REASON": the
 * failed read's system error, else "it changed (shrank) while being read". */
const char *tl_input_change_reason(const struct tl_input *in);
/* Copies up to n bytes at offset off into buf (from the mapping, or read
 * from the file); returns how many there were. */
size_t tl_input_read_at(const struct tl_input *in, uint64_t off, void *buf, size_t n);
void tl_input_from_memory(struct tl_input *in, const void *data, size_t size, const char *name);
/* A streaming validator calls this with the offset below which it will not
 * read again, so the pages of a huge mapped file do not pile up in RSS.
 * Pages go back in steps of TL_INPUT_RELEASE_STEP (each is a system call;
 * the step is what a reader keeps mapped behind it at most). */
#define TL_INPUT_RELEASE_STEP (4u << 20)
void tl_input_release(const struct tl_input *in, uint64_t upto);
/* For a validator that makes a second pass: hands every mapped page back
 * and lets tl_input_release() start again from offset 0. */
void tl_input_restart(const struct tl_input *in);
/* Offset of the first non-zero byte at or after `from`, or the size when
 * there is none. Constant memory; time linear in the bytes that are not
 * holes of a sparse file. */
uint64_t tl_input_first_nonzero(const struct tl_input *in, uint64_t from);
void tl_input_close(struct tl_input *in);

#endif
