/* Runs the reader on one input and classifies what it did. The reader runs in
 * a process group of its own so that a timeout kills it and everything it
 * started; stdout and stderr go to unlinked temporary files. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "validators/conform/conform.h"

/* The reader's process group while it runs, for the interrupt handler. */
static volatile sig_atomic_t running_group;

/* On SIGINT/SIGTERM/SIGHUP the reader's group goes first, then the kit dies
 * of the same signal, so an interrupted campaign leaves no reader behind. */
static void on_interrupt(int sig)
{
	if (running_group > 0)
		kill(-(pid_t)running_group, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

void reader_install_interrupt_handler(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_interrupt;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/* Lines that the sanitizers print at the start of a report. */
static const char *const sanitizer_markers[] = {
	"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "ERROR: HWAddressSanitizer",
	"WARNING: MemorySanitizer", "WARNING: ThreadSanitizer", "runtime error: ",
};

/* Signals that mean the reader broke, not that it was asked to stop. */
static bool is_crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGILL ||
	       sig == SIGFPE || sig == SIGSYS || sig == SIGTRAP;
}

const char *run_outcome_name(enum run_outcome o)
{
	static const char *const names[RUN_OUTCOME_COUNT] = {
		"accepted", "rejected", "crashed", "sanitizer", "timeout",
	};
	return o < RUN_OUTCOME_COUNT ? names[o] : "?";
}

const char *disagreement_name(enum disagreement d)
{
	static const char *const names[DIS_COUNT] = { "agree", "lenient", "strict", "crash", "hang" };
	return d < DIS_COUNT ? names[d] : "?";
}

enum disagreement compare_verdicts(const struct verdict *ours, const struct run_result *run)
{
	switch (run->outcome) {
	case RUN_CRASHED:
	case RUN_SANITIZER:
		return DIS_CRASH;
	case RUN_TIMEOUT:
		return DIS_HANG;
	case RUN_ACCEPTED:
		return ours->reject ? DIS_LENIENT : DIS_AGREE;
	default:
		return ours->reject ? DIS_AGREE : DIS_STRICT;
	}
}

/* The command with every {} replaced by a reference to the path, which the
 * shell gets as $1 and never reads as code: "$1" where {} stands bare, $1
 * inside double quotes ("{}"), '"$1"' inside single quotes ('{}'), so any
 * quoting a user writes works and no byte of a file name is run. Without
 * any {}, "$1" is appended. */
static char *expand_command(const char *tmpl)
{
	size_t n = 0;
	for (const char *p = tmpl; (p = strstr(p, "{}")); p += 2)
		n++;
	char *out = xrealloc(NULL, strlen(tmpl) + 6 * (n ? n : 1) + 2), *o = out;
	char quote = 0; /* the quote the scan is inside: 0, '\'' or '"' */
	for (const char *p = tmpl; *p;) {
		if (p[0] == '{' && p[1] == '}') {
			const char *ref = quote == '\'' ? "'\"$1\"'" : quote == '"' ? "$1" : "\"$1\"";
			o += sprintf(o, "%s", ref);
			p += 2;
			continue;
		}
		if (quote != '\'' && *p == '\\' && p[1]) { /* an escaped character is no quote */
			*o++ = *p++;
			*o++ = *p++;
			continue;
		}
		if ((*p == '\'' || *p == '"') && (!quote || quote == *p))
			quote = quote ? 0 : *p;
		*o++ = *p++;
	}
	if (!n)
		o += sprintf(o, " \"$1\"");
	*o = '\0';
	return out;
}

static int temp_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	snprintf(tmpl, sizeof tmpl, "%s/tracelint-conform-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmpl);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

static const char *find_bytes(const char *hay, size_t haylen, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; n <= haylen && i <= haylen - n; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

/* Looks at one captured stream: a sanitizer report (its line goes to the
 * message) and, when message is still empty, the first line. */
static bool scan_output(int fd, char *message, size_t msglen, bool *sanitizer)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size <= 0)
		return false;
	size_t len = (size_t)st.st_size;
	void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return false;
	const char *text = map;
	for (size_t i = 0; !*sanitizer && i < sizeof sanitizer_markers / sizeof *sanitizer_markers; i++) {
		const char *hit = find_bytes(text, len, sanitizer_markers[i]);
		if (hit) {
			const char *start = hit;
			while (start > text && start[-1] != '\n')
				start--;
			copy_line(message, msglen, start, len - (size_t)(start - text));
			*sanitizer = true;
		}
	}
	if (!*message)
		copy_line(message, msglen, text, len);
	munmap(map, len);
	return true;
}

/* Everything the reader started is ours to end: the kit is a subreaper, so
 * a process that left the reader's group (setsid, a double fork) is
 * reparented to the kit once its parent dies, and this kills and reaps
 * every child of the kit until none is left. The kit runs one reader at a
 * time and starts no other child. */
static void end_descendants(void)
{
	char self[32];
	snprintf(self, sizeof self, "%ld", (long)getpid());
	for (int round = 0; round < 1000; round++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		DIR *proc = opendir("/proc");
		if (!proc)
			return;
		unsigned found = 0;
		for (struct dirent *e; (e = readdir(proc)) != NULL;) {
			if (e->d_name[0] < '1' || e->d_name[0] > '9')
				continue;
			char path[300], stat[512];
			snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			ssize_t got = read(fd, stat, sizeof stat - 1);
			close(fd);
			if (got <= 0)
				continue;
			stat[got] = '\0';
			/* "PID (COMM) STATE PPID ...": COMM may hold anything, so from its last ')'. */
			const char *close_paren = strrchr(stat, ')');
			char state, ppid[32];
			if (!close_paren || sscanf(close_paren + 1, " %c %31s", &state, ppid) != 2 || strcmp(ppid, self) != 0)
				continue;
			/* Killed and reaped one by one: its own children, reparented
			 * to the kit meanwhile, are found by the next scan. */
			pid_t child = (pid_t)atol(e->d_name);
			kill(child, SIGKILL);
			while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
				;
			found++;
		}
		closedir(proc);
		if (!found)
			return;
	}
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int reader_run(const struct reader *r, const char *path, const char *case_args,
	       struct run_result *out)
{
	memset(out, 0, sizeof *out);
	int out_fd = temp_fd(), err_fd = temp_fd();
	if (out_fd < 0 || err_fd < 0) {
		if (out_fd >= 0)
			close(out_fd);
		if (err_fd >= 0)
			close(err_fd);
		return -1;
	}
	char *cmd = expand_command(r->command);
	/* The case's options, space-separated, for readers that need e.g. the byte order. */
	char args[1024] = "";
	if (case_args) {
		snprintf(args, sizeof args, "%s", case_args);
		for (char *p = args; *p; p++)
			if (*p == '\n')
				*p = ' ';
	}

	/* SIGCHLD stays blocked while the reader runs: sigtimedwait() then wakes
	 * the moment it ends, with no polling delay. */
#ifdef PR_SET_CHILD_SUBREAPER
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
	sigset_t chld, old_mask;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old_mask);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		free(cmd);
		close(out_fd);
		close(err_fd);
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		setpgid(0, 0);
		int null_fd = open("/dev/null", O_RDONLY);
		if (null_fd >= 0)
			dup2(null_fd, 0);
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		setenv("TRACELINT_CONFORM_ARGS", args, 1);
		setenv("TRACELINT_CONFORM_INPUT", path, 1);
		execl("/bin/sh", "sh", "-c", cmd, "reader", path, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with the child's own call */
	running_group = pid;
	free(cmd);

	double deadline = now_seconds() + r->timeout;
	int status = 0;
	bool timed_out = false;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		double left = deadline - now_seconds();
		if (left <= 0) {
			timed_out = true;
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		/* At most 50 ms at a time: a SIGCHLD taken by someone else costs no more. */
		if (left > 0.05)
			left = 0.05;
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		sigtimedwait(&chld, NULL, &ts);
	}
	/* Whatever the reader left running goes too: its group, and whatever
	 * left the group (its own session) once orphaned to the kit. */
	kill(-pid, SIGKILL);
	end_descendants();
	running_group = 0;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);

	bool sanitizer = false;
	scan_output(err_fd, out->message, sizeof out->message, &sanitizer);
	scan_output(out_fd, out->message, sizeof out->message, &sanitizer);
	close(out_fd);
	close(err_fd);

	if (timed_out) {
		out->outcome = RUN_TIMEOUT;
		out->code = 0;
	} else if (WIFSIGNALED(status)) {
		out->outcome = RUN_CRASHED;
		out->code = WTERMSIG(status);
	} else if (sanitizer) {
		out->outcome = RUN_SANITIZER;
		out->code = WEXITSTATUS(status);
	} else {
		int rc = WEXITSTATUS(status);
		out->code = rc;
		/* A shell between us and the reader reports its death as 128+signal. */
		if (rc > 128 && is_crash_signal(rc - 128)) {
			out->outcome = RUN_CRASHED;
			out->code = rc - 128;
		} else {
			out->outcome = RUN_REJECTED;
			for (size_t i = 0; i < r->n_accept_rc; i++)
				if (r->accept_rc[i] == rc)
					out->outcome = RUN_ACCEPTED;
		}
	}
	return 0;
}
