/* The library's resource bounds: the thread count (threads.h) from the
 * caller, TRACELINT_THREADS or the cores, always 1..TL_THREADS_MAX; a
 * doubling array that refuses a size past size_t (grow.h) and leaves the
 * caller's array as it was; the cap on files the library writes
 * (write_cap.h) under a lower and a higher ulimit -f; and writes that
 * signals interrupt (write_cap.h), which still write everything. */
#include <atf-c.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "grow.h"
#include "threads.h"
#include "write_cap.h"

ATF_TC_WITHOUT_HEAD(thread_counts);
ATF_TC_BODY(thread_counts, tc)
{
	ATF_CHECK_EQ(tl_threads_resolve(3), 3);
	ATF_CHECK_EQ(tl_threads_resolve(TL_THREADS_MAX + 100), TL_THREADS_MAX);
	ATF_REQUIRE(setenv("TRACELINT_THREADS", "3", 1) == 0);
	ATF_CHECK_EQ(tl_threads_resolve(0), 3);
	ATF_CHECK_EQ(tl_threads_resolve(2), 2);
	ATF_REQUIRE(setenv("TRACELINT_THREADS", "64", 1) == 0);
	ATF_CHECK_EQ(tl_threads_resolve(0), TL_THREADS_MAX);
	ATF_REQUIRE(unsetenv("TRACELINT_THREADS") == 0);
	unsigned cores = tl_threads_resolve(0);
	ATF_CHECK(cores >= 1 && cores <= TL_THREADS_MAX);
	/* Past the cap the variable is ignored: the cores it is. */
	ATF_REQUIRE(setenv("TRACELINT_THREADS", "65", 1) == 0);
	ATF_CHECK_EQ(tl_threads_resolve(0), cores);
}

ATF_TC_WITHOUT_HEAD(growth_past_size_t);
ATF_TC_BODY(growth_past_size_t, tc)
{
	/* Doubling the capacity wraps around. */
	size_t cap = SIZE_MAX / 2 + 1;
	char *array = (char *)&cap; /* never touched: refused before realloc */
	ATF_CHECK(tl_grow_array(array, &cap, cap, 1, 16) == NULL);
	ATF_CHECK_EQ(cap, SIZE_MAX / 2 + 1);
	/* The first size times the element size passes size_t. */
	cap = 0;
	ATF_CHECK(tl_grow_array(NULL, &cap, 0, 16, SIZE_MAX / 8) == NULL);
	ATF_CHECK_EQ(cap, 0);
	/* And an ordinary growth for contrast. */
	int *a = tl_grow_array(NULL, &cap, 0, sizeof *a, 4);
	ATF_REQUIRE(a != NULL);
	ATF_CHECK_EQ(cap, 4);
	ATF_CHECK(tl_grow_array(a, &cap, 3, sizeof *a, 4) == a);
	a = tl_grow_array(a, &cap, 4, sizeof *a, 4);
	ATF_REQUIRE(a != NULL);
	ATF_CHECK_EQ(cap, 8);
	free(a);
}

ATF_TC_WITHOUT_HEAD(write_cap_under_ulimit);
ATF_TC_BODY(write_cap_under_ulimit, tc)
{
	struct rlimit rl;
	ATF_REQUIRE(getrlimit(RLIMIT_FSIZE, &rl) == 0);
	bool by_rlimit = true;
	if (rl.rlim_cur == RLIM_INFINITY) {
		ATF_CHECK_EQ(tl_write_cap(1000, &by_rlimit), 1000);
		ATF_CHECK(!by_rlimit);
	}
	struct rlimit low = { 1 << 20, rl.rlim_max };
	ATF_REQUIRE(setrlimit(RLIMIT_FSIZE, &low) == 0);
	ATF_CHECK_EQ(tl_write_cap(UINT64_C(1) << 30, &by_rlimit), 1u << 20);
	ATF_CHECK(by_rlimit);
	ATF_CHECK_EQ(tl_write_cap(1000, &by_rlimit), 1000);
	ATF_CHECK(!by_rlimit);
}

static atomic_int interrupts;

static void on_alarm(int sig)
{
	(void)sig;
	atomic_fetch_add(&interrupts, 1);
}

struct reader {
	int fd;
	pthread_t writer;
	size_t got;
	bool same;
};

/* Interrupts the writer while the pipe is full and nothing reads it, a few
 * times, then reads everything and checks the bytes. */
static void *drain(void *arg)
{
	struct reader *r = arg;
	for (int i = 0; i < 20; i++) {
		pthread_kill(r->writer, SIGUSR1);
		usleep(5000);
	}
	unsigned char buf[1 << 16];
	r->same = true;
	for (ssize_t n; (n = read(r->fd, buf, sizeof buf)) > 0;) {
		for (ssize_t i = 0; i < n; i++)
			r->same = r->same && buf[i] == (unsigned char)((r->got + (size_t)i) * 7);
		r->got += (size_t)n;
	}
	return NULL;
}

ATF_TC_WITHOUT_HEAD(interrupted_writes_complete);
ATF_TC_BODY(interrupted_writes_complete, tc)
{
	/* No SA_RESTART: a write blocked on a full pipe fails with EINTR. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	ATF_REQUIRE(sigaction(SIGUSR1, &sa, NULL) == 0);
	int p[2];
	ATF_REQUIRE(pipe(p) == 0);
	size_t n = 1 << 20;
	unsigned char *data = malloc(n);
	ATF_REQUIRE(data != NULL);
	for (size_t i = 0; i < n; i++)
		data[i] = (unsigned char)(i * 7);
	struct reader r = { .fd = p[0], .writer = pthread_self() };
	pthread_t t;
	ATF_REQUIRE(pthread_create(&t, NULL, drain, &r) == 0);
	ATF_CHECK(tl_write_all(p[1], data, n));
	close(p[1]);
	pthread_join(t, NULL);
	close(p[0]);
	ATF_CHECK_EQ(r.got, n);
	ATF_CHECK(r.same);
	ATF_CHECK(atomic_load(&interrupts) > 0);
	free(data);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, thread_counts);
	ATF_TP_ADD_TC(tp, growth_past_size_t);
	ATF_TP_ADD_TC(tp, write_cap_under_ulimit);
	ATF_TP_ADD_TC(tp, interrupted_writes_complete);
	return atf_no_error();
}
