/* Input mapping: files are mapped whole, directories recognised, errors said.
 * The window over an input (window.h): steps, records straddling a step,
 * jumps, a file that shrinks under it, standard input from a pipe, empty
 * inputs, memory read in place or copied. */
#include <atf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input.h"
#include "window.h"

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	ATF_REQUIRE(f != NULL);
	ATF_REQUIRE_EQ(fwrite(data, 1, n, f), n);
	fclose(f);
}

ATF_TC_WITHOUT_HEAD(maps_a_file);
ATF_TC_BODY(maps_a_file, tc)
{
	struct tl_input in;
	char err[256];
	write_file("f.bin", "hello", 5);
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	ATF_CHECK_EQ(in.size, 5u);
	ATF_CHECK(!in.is_directory);
	ATF_CHECK(memcmp(in.data, "hello", 5) == 0);
	/* Releasing pages already read must not change what is mapped. */
	tl_input_release(&in, 5);
	ATF_CHECK(memcmp(in.data, "hello", 5) == 0);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(empty_file_has_no_data);
ATF_TC_BODY(empty_file_has_no_data, tc)
{
	struct tl_input in;
	char err[256];
	write_file("empty", "", 0);
	ATF_REQUIRE(tl_input_open(&in, "empty", err, sizeof err));
	ATF_CHECK_EQ(in.size, 0u);
	ATF_CHECK(in.data == NULL);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(directory_is_flagged);
ATF_TC_BODY(directory_is_flagged, tc)
{
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(mkdir("trace", 0755) == 0);
	ATF_REQUIRE(tl_input_open(&in, "trace", err, sizeof err));
	ATF_CHECK(in.is_directory);
	ATF_CHECK(in.data == NULL);
	tl_input_close(&in);
}

ATF_TC_WITHOUT_HEAD(missing_file_is_an_error);
ATF_TC_BODY(missing_file_is_an_error, tc)
{
	struct tl_input in;
	char err[256] = "";
	ATF_CHECK(!tl_input_open(&in, "no-such-file", err, sizeof err));
	ATF_CHECK(strstr(err, "cannot open no-such-file") != NULL);
	ATF_CHECK(strstr(err, "No such file") != NULL);
}

ATF_TC_WITHOUT_HEAD(memory_input);
ATF_TC_BODY(memory_input, tc)
{
	struct tl_input in;
	static const char bytes[] = "abc";
	tl_input_from_memory(&in, bytes, 3, "buf");
	ATF_CHECK_EQ(in.size, 3u);
	ATF_CHECK_STREQ(in.name, "buf");
	tl_input_release(&in, 3); /* a no-op for memory, and must not crash */
	tl_input_close(&in);
}

/* A byte that depends on its offset, so misplaced bytes show. */
static uint8_t pattern(uint64_t offset)
{
	return (uint8_t)(offset * 7 % 251);
}

static uint8_t *pattern_bytes(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);
	ATF_REQUIRE(p != NULL);
	for (size_t i = 0; i < n; i++)
		p[i] = pattern(i);
	return p;
}

/* Checks the window's promise at `at`: the bytes are the input's, and at
 * least min(need, size - at) of them are there. */
static void check_at(struct tl_window *w, uint64_t at, size_t need, uint64_t size)
{
	size_t avail;
	const uint8_t *p = tl_window_at(w, at, need, &avail);
	ATF_REQUIRE(p != NULL);
	uint64_t rest = size - at;
	ATF_REQUIRE_MSG(avail >= (need < rest ? need : rest),
			"at %llu need %zu: only %zu bytes", (unsigned long long)at, need, avail);
	ATF_REQUIRE(avail <= rest);
	for (size_t i = 0; i < avail; i++)
		ATF_REQUIRE_MSG(p[i] == pattern(at + i), "byte %llu wrong",
				(unsigned long long)(at + i));
}

/* Walks an input in uneven steps asking for uneven amounts, as a decoder of
 * records of different sizes does. */
static void walk_unevenly(struct tl_window *w, uint64_t size)
{
	static const size_t needs[] = { 16, 8, 1, 16, 32, 8, 8, 5, 16, 64 };
	static const size_t steps[] = { 8, 16, 3, 8, 24, 1, 8, 13, 16, 40 };
	uint64_t at = 0;
	for (size_t i = 0; at < size; i++) {
		check_at(w, at, needs[i % 10], size);
		at += steps[i % 10];
	}
	check_at(w, size, 16, size);
}

ATF_TC_WITHOUT_HEAD(window_reads_a_file_in_steps);
ATF_TC_BODY(window_reads_a_file_in_steps, tc)
{
	const size_t size = 5000;
	uint8_t *bytes = pattern_bytes(size);
	write_file("f.bin", bytes, size);
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	ATF_REQUIRE(in.has_fd);
	for (size_t cap = TL_WINDOW_MIN_CAPACITY; cap <= 200; cap += 17) {
		struct tl_window w;
		tl_window_open(&w, &in, cap);
		ATF_REQUIRE(w.buf != NULL);
		walk_unevenly(&w, size);
		ATF_CHECK(!w.read_failed);
		tl_window_close(&w);
	}
	/* Each step reads a whole buffer: a few dozen reads, not one per record. */
	struct tl_window w;
	tl_window_open(&w, &in, 128);
	for (uint64_t at = 0; at < size; at += 8)
		check_at(&w, at, 16, size);
	ATF_CHECK_MSG(w.reads <= size / (128 - 16) + 1, "%llu reads",
		      (unsigned long long)w.reads);
	tl_window_close(&w);
	tl_input_close(&in);
	free(bytes);
}

ATF_TC_WITHOUT_HEAD(window_carries_a_straddling_record);
ATF_TC_BODY(window_carries_a_straddling_record, tc)
{
	uint8_t *bytes = pattern_bytes(300);
	write_file("f.bin", bytes, 300);
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	struct tl_window w;
	tl_window_open(&w, &in, 64);
	size_t avail;
	ATF_REQUIRE(tl_window_at(&w, 0, 16, &avail) != NULL);
	ATF_REQUIRE_EQ(avail, 64u);
	/* A 16-byte record at 56 has 8 bytes in this step and 8 in the next. */
	const uint8_t *p = tl_window_at(&w, 56, 16, &avail);
	ATF_REQUIRE(avail >= 16);
	ATF_CHECK(memcmp(p, bytes + 56, 16) == 0);
	ATF_CHECK_EQ(w.start, 56u);
	/* Jumping past the window (an event payload) and back both work. */
	check_at(&w, 250, 16, 300);
	check_at(&w, 10, 16, 300);
	check_at(&w, 299, 16, 300);
	/* Past the end: nothing, and no arithmetic past the buffer. */
	ATF_CHECK(tl_window_at(&w, 301, 16, &avail) != NULL);
	ATF_CHECK_EQ(avail, 0u);
	ATF_CHECK(tl_window_at(&w, UINT64_MAX, 1, &avail) != NULL);
	ATF_CHECK_EQ(avail, 0u);
	tl_window_close(&w);
	tl_input_close(&in);
	free(bytes);
}

ATF_TC_WITHOUT_HEAD(window_survives_a_shrinking_file);
ATF_TC_BODY(window_survives_a_shrinking_file, tc)
{
	uint8_t *bytes = pattern_bytes(1000);
	write_file("f.bin", bytes, 1000);
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	struct tl_window w;
	tl_window_open(&w, &in, 64);
	check_at(&w, 0, 16, 1000);
	/* Another process cuts the file: reads come back short, then empty. */
	ATF_REQUIRE(truncate("f.bin", 500) == 0);
	size_t avail;
	const uint8_t *p = tl_window_at(&w, 480, 64, &avail);
	ATF_REQUIRE_EQ(avail, 64u);
	ATF_CHECK(memcmp(p, bytes + 480, 20) == 0);
	for (size_t i = 20; i < 64; i++)
		ATF_REQUIRE_EQ(p[i], 0);
	ATF_CHECK(w.read_failed);
	p = tl_window_at(&w, 900, 16, &avail);
	ATF_REQUIRE(avail >= 16);
	ATF_CHECK_EQ(p[0], 0);
	tl_window_close(&w);
	tl_input_close(&in);
	free(bytes);
}

ATF_TC_WITHOUT_HEAD(window_reads_standard_input_from_a_pipe);
ATF_TC_BODY(window_reads_standard_input_from_a_pipe, tc)
{
	/* More than one default step, written in small pieces by another process. */
	const size_t size = 3 * TL_WINDOW_DEFAULT_CAPACITY + 12345;
	uint8_t *bytes = pattern_bytes(size);
	int fds[2];
	ATF_REQUIRE(pipe(fds) == 0);
	pid_t child = fork();
	ATF_REQUIRE(child >= 0);
	if (child == 0) {
		close(fds[0]);
		for (size_t done = 0; done < size;) {
			size_t n = size - done < 1000 ? size - done : 1000;
			ssize_t k = write(fds[1], bytes + done, n);
			if (k <= 0)
				_exit(1);
			done += (size_t)k;
		}
		_exit(0);
	}
	close(fds[1]);
	int saved = dup(STDIN_FILENO);
	ATF_REQUIRE(saved >= 0 && dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
	close(fds[0]);
	struct tl_input in;
	char err[256];
	bool opened = tl_input_open(&in, "-", err, sizeof err);
	ATF_REQUIRE(dup2(saved, STDIN_FILENO) == STDIN_FILENO);
	close(saved);
	int status;
	ATF_REQUIRE(waitpid(child, &status, 0) == child);
	ATF_REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ATF_REQUIRE_MSG(opened, "%s", err);
	ATF_REQUIRE_EQ(in.size, size);
	struct tl_window w;
	tl_window_open(&w, &in, 0);
	/* Spooled into a file and mapped: read in place, not copied. */
	ATF_CHECK(w.mapped && w.buf == NULL);
	for (uint64_t at = 0; at < size; at += 4096 - 8)
		check_at(&w, at, 16, size);
	ATF_CHECK(!w.read_failed);
	tl_window_close(&w);
	tl_input_close(&in);
	free(bytes);
}

/* The first `need` bytes at `at` (or all that are left) are the input's;
 * returns them. */
static const uint8_t *check_head(struct tl_window *w, uint64_t at, size_t need, uint64_t size)
{
	size_t avail;
	const uint8_t *p = tl_window_at(w, at, need, &avail);
	ATF_REQUIRE(p != NULL);
	uint64_t rest = size - at;
	size_t want = need < rest ? need : (size_t)rest;
	ATF_REQUIRE_MSG(avail >= want && avail <= rest, "at %llu: %zu bytes", (unsigned long long)at, avail);
	for (size_t i = 0; i < want; i++)
		ATF_REQUIRE_MSG(p[i] == pattern(at + i), "byte %llu wrong", (unsigned long long)(at + i));
	return p;
}

ATF_TC_WITHOUT_HEAD(window_reads_a_mapped_file_in_place);
ATF_TC_BODY(window_reads_a_mapped_file_in_place, tc)
{
	/* Two release steps and a bit, so the window moves and hands pages back. */
	const size_t size = 2 * TL_INPUT_RELEASE_STEP + 12345;
	uint8_t *bytes = pattern_bytes(size);
	write_file("f.bin", bytes, size);
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	struct tl_window w;
	tl_window_open(&w, &in, 0);
	ATF_REQUIRE(w.mapped);
	ATF_CHECK(w.buf == NULL);
	/* Records of 16 bytes at 8-byte steps straddle every step boundary. */
	for (uint64_t at = 0; at < size; at += 8) {
		const uint8_t *p = check_head(&w, at, 16, size);
		ATF_REQUIRE(p == in.data + at);
	}
	check_head(&w, size, 16, size);
	/* One move a step (and the first), not one a record. */
	ATF_CHECK_MSG(w.reads <= 2 * (size / TL_INPUT_RELEASE_STEP + 2), "%llu moves", (unsigned long long)w.reads);
	ATF_CHECK(in.released >= TL_INPUT_RELEASE_STEP);
	ATF_CHECK(!w.read_failed);
	/* Going back still reads the right bytes (they fault back in). */
	check_head(&w, 100, 16, size);
	tl_window_close(&w);
	/* An explicit capacity copies in steps, as tests of the step boundaries need. */
	tl_window_open(&w, &in, 4096);
	ATF_CHECK(!w.mapped && w.buf != NULL);
	check_head(&w, 5000, 16, size);
	tl_window_close(&w);
	tl_input_close(&in);
	free(bytes);
}

ATF_TC_WITHOUT_HEAD(window_in_place_stops_on_a_shrinking_file);
ATF_TC_BODY(window_in_place_stops_on_a_shrinking_file, tc)
{
	const size_t size = 3 * TL_INPUT_RELEASE_STEP;
	uint8_t *bytes = pattern_bytes(size);
	write_file("f.bin", bytes, size);
	struct tl_input in;
	char err[256];
	ATF_REQUIRE(tl_input_open(&in, "f.bin", err, sizeof err));
	struct tl_window w;
	tl_window_open(&w, &in, 0);
	ATF_REQUIRE(w.mapped);
	check_head(&w, 0, 16, size);
	/* Another process cuts the file: the mapping past its end reads as
	 * zeros, and the next step tells the reader to stop. */
	ATF_REQUIRE(truncate("f.bin", TL_INPUT_RELEASE_STEP / 2) == 0);
	uint64_t at = 0, zeros = 0;
	while (at < size && !w.read_failed) {
		size_t avail;
		const uint8_t *p = tl_window_at(&w, at, 8, &avail);
		ATF_REQUIRE(avail >= 8);
		zeros += p[0] == 0 && at >= TL_INPUT_RELEASE_STEP / 2;
		at += 4096;
	}
	ATF_CHECK(w.read_failed);
	ATF_CHECK(zeros > 0);
	ATF_CHECK(at < size);
	ATF_CHECK(tl_input_changed(&in));
	tl_window_close(&w);
	tl_input_close(&in);
	free(bytes);
}

ATF_TC_WITHOUT_HEAD(window_over_empty_inputs);
ATF_TC_BODY(window_over_empty_inputs, tc)
{
	struct tl_input in;
	char err[256];
	struct tl_window w;
	size_t avail = 99;
	write_file("empty", "", 0);
	ATF_REQUIRE(tl_input_open(&in, "empty", err, sizeof err));
	tl_window_open(&w, &in, 0);
	ATF_CHECK(tl_window_at(&w, 0, 16, &avail) != NULL);
	ATF_CHECK_EQ(avail, 0u);
	ATF_CHECK(!w.read_failed);
	tl_window_close(&w);
	tl_input_close(&in);

	tl_input_from_memory(&in, NULL, 0, "nothing");
	tl_window_open(&w, &in, 0);
	avail = 99;
	ATF_CHECK(tl_window_at(&w, 0, 16, &avail) != NULL);
	ATF_CHECK_EQ(avail, 0u);
	tl_window_close(&w);
}

ATF_TC_WITHOUT_HEAD(window_over_memory);
ATF_TC_BODY(window_over_memory, tc)
{
	const size_t size = 1000;
	uint8_t *bytes = pattern_bytes(size);
	struct tl_input in;
	tl_input_from_memory(&in, bytes, size, "buf");
	ATF_CHECK(!in.has_fd);
	/* Fits: read in place, no copy, no buffer. */
	struct tl_window w;
	tl_window_open(&w, &in, 0);
	size_t avail;
	ATF_CHECK(tl_window_at(&w, 100, 16, &avail) == bytes + 100);
	ATF_CHECK_EQ(avail, size - 100);
	ATF_CHECK(w.buf == NULL);
	ATF_CHECK(tl_window_at(&w, size + 1, 16, &avail) != NULL);
	ATF_CHECK_EQ(avail, 0u);
	tl_window_close(&w);
	/* Smaller than the input: copied in steps, exactly like a file. */
	tl_window_open(&w, &in, 100);
	ATF_REQUIRE(w.buf != NULL);
	walk_unevenly(&w, size);
	tl_window_close(&w);
	/* The default capacity tests set moves memory inputs to copying too. */
	setenv("TRACELINT_WINDOW_CAPACITY", "64", 1);
	tl_window_open(&w, &in, 0);
	ATF_CHECK_EQ(w.cap, 64u);
	walk_unevenly(&w, size);
	tl_window_close(&w);
	unsetenv("TRACELINT_WINDOW_CAPACITY");
	tl_window_open(&w, &in, 0);
	ATF_CHECK(w.buf == NULL);
	tl_window_close(&w);
	free(bytes);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, maps_a_file);
	ATF_TP_ADD_TC(tp, empty_file_has_no_data);
	ATF_TP_ADD_TC(tp, directory_is_flagged);
	ATF_TP_ADD_TC(tp, missing_file_is_an_error);
	ATF_TP_ADD_TC(tp, memory_input);
	ATF_TP_ADD_TC(tp, window_reads_a_file_in_steps);
	ATF_TP_ADD_TC(tp, window_carries_a_straddling_record);
	ATF_TP_ADD_TC(tp, window_survives_a_shrinking_file);
	ATF_TP_ADD_TC(tp, window_reads_standard_input_from_a_pipe);
	ATF_TP_ADD_TC(tp, window_reads_a_mapped_file_in_place);
	ATF_TP_ADD_TC(tp, window_in_place_stops_on_a_shrinking_file);
	ATF_TP_ADD_TC(tp, window_over_empty_inputs);
	ATF_TP_ADD_TC(tp, window_over_memory);
	return atf_no_error();
}
