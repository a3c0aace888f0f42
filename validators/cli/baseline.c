/* See baseline.h: the multiset of a baseline read, and writing one. */
#include "baseline.h"
#include "baseline_read.h"
#include "json_emit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BASELINE_VERSION 2

struct known_slot {
	uint64_t fingerprint;
	uint32_t recorded;   /* 0: the slot is free */
	uint32_t matched;
	uint32_t passed;     /* entries seen again by baseline_each_gone */
};

static size_t home(const struct baseline_known *b, uint64_t fp)
{
	/* the fingerprints are hashes already; mixed once more against clustering */
	fp ^= fp >> 33;
	fp *= 0xff51afd7ed558ccdULL;
	fp ^= fp >> 33;
	return (size_t)fp & (b->slot_count - 1);
}

static struct known_slot *find(const struct baseline_known *b, uint64_t fp)
{
	if (!b->slot_count)
		return NULL;
	for (size_t i = home(b, fp);; i = (i + 1) & (b->slot_count - 1)) {
		struct known_slot *s = &b->slots[i];
		if (!s->recorded || s->fingerprint == fp)
			return s;
	}
}

static bool grow(struct baseline_known *b)
{
	size_t count = b->slot_count ? 2 * b->slot_count : 1024;
	struct known_slot *old = b->slots;
	size_t old_count = b->slot_count;
	b->slots = calloc(count, sizeof *b->slots);
	if (!b->slots) {
		b->slots = old;
		return false;
	}
	b->slot_count = count;
	for (size_t i = 0; i < old_count; i++)
		if (old[i].recorded)
			*find(b, old[i].fingerprint) = old[i];
	free(old);
	return true;
}

static uint64_t parse_hex(const char *s)
{
	return strtoull(s, NULL, 16);
}

static bool add_entry(const char *path, const char *rule, const char *fingerprint,
		      const char *message, void *user)
{
	(void)path, (void)rule, (void)message;
	struct baseline_known *b = user;
	if ((b->used + 1) * 10 > b->slot_count * 7 && !grow(b))
		return false;
	uint64_t fp = parse_hex(fingerprint);
	struct known_slot *s = find(b, fp);
	if (!s->recorded) {
		s->fingerprint = fp;
		b->used++;
	}
	if (s->recorded < UINT32_MAX)
		s->recorded++;
	b->entries++;
	return true;
}

bool baseline_load(struct baseline_known *b, const char *file, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	pthread_mutex_init(&b->lock, NULL);
	/* not a FIFO, a device or a directory: they would block or never end */
	int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			snprintf(err, errlen, "cannot read the baseline %s: not a regular file", file);
		else
			snprintf(err, errlen, "cannot read the baseline %s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	b->file = fdopen(fd, "rb");
	b->name = strdup(file);
	if (!b->file || !b->name) {
		if (!b->file)
			close(fd);
		snprintf(err, errlen, "cannot read the baseline %s: out of memory", file);
		return false;
	}
	bool ok = baseline_read(b->file, file, &b->version, add_entry, b, err, errlen);
	if (ok && b->version != 1 && b->version != 2) {
		snprintf(err, errlen, "%s: expected a tracelint baseline (an object with \"baseline\": %d "
			 "and a \"diagnostics\" array)", file, BASELINE_VERSION);
		ok = false;
	}
	if (ok && b->version == 2 && !baseline_anchor_init(&b->anchor, file)) {
		snprintf(err, errlen, "cannot read the baseline %s: %s", file, strerror(errno));
		ok = false;
	}
	return ok;
}

bool baseline_match(struct baseline_known *b, uint64_t fingerprint)
{
	pthread_mutex_lock(&b->lock);
	struct known_slot *s = find(b, fingerprint);
	bool known = s && s->recorded && s->matched < s->recorded;
	if (known)
		s->matched++;
	pthread_mutex_unlock(&b->lock);
	return known;
}

struct gone_pass {
	struct baseline_known *b;
	baseline_gone_fn gone;
	void *user;
};

static bool each_entry(const char *path, const char *rule, const char *fingerprint,
		       const char *message, void *user)
{
	struct gone_pass *g = user;
	struct known_slot *s = find(g->b, parse_hex(fingerprint));
	if (s && s->recorded && ++s->passed > s->matched)
		g->gone(path, rule, message, g->user);
	return true;
}

bool baseline_each_gone(struct baseline_known *b, baseline_gone_fn gone, void *user, char *err,
			size_t errlen)
{
	struct gone_pass g = { b, gone, user };
	int version;
	for (size_t i = 0; i < b->slot_count; i++)
		b->slots[i].passed = 0;
	return baseline_read(b->file, b->name, &version, each_entry, &g, err, errlen);
}

void baseline_known_free(struct baseline_known *b)
{
	if (b->file)
		fclose(b->file);
	free(b->name);
	free(b->slots);
	baseline_anchor_free(&b->anchor);
	pthread_mutex_destroy(&b->lock);
	memset(b, 0, sizeof *b);
}

bool baseline_out_open(struct baseline_out *b, const char *file, bool follow_symlink, char *err,
		       size_t errlen)
{
	char why[512];
	memset(b, 0, sizeof *b);
	if (!safe_file_open(&b->file, file, follow_symlink, why, sizeof why)) {
		snprintf(err, errlen, "cannot write the baseline %s: %s", file, why);
		return false;
	}
	if (!baseline_anchor_init(&b->anchor, file)) {
		snprintf(err, errlen, "cannot write the baseline %s: %s", file, strerror(errno));
		safe_file_abort(&b->file);
		return false;
	}
	FILE *f = b->file.out;
	bool first = true;
	fputs("{\n", f);
	tl_je_kstr(f, &first, 1, "tool", "tracelint");
	tl_je_ku64(f, &first, 1, "baseline", BASELINE_VERSION);
	tl_je_key(f, &first, 1, "diagnostics");
	fputs("[\n", f);
	return true;
}

void baseline_out_add(struct baseline_out *b, const char *path, const char *rule,
		      uint64_t fingerprint, const char *message)
{
	FILE *f = b->file.out;
	char hex[17];
	bool first = true;
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fingerprint);
	bool any = !b->any;
	tl_je_item(f, &any, 2);
	b->any = true;
	fputs("{\n", f);
	tl_je_ktext(f, &first, 3, "path", path);
	tl_je_kstr(f, &first, 3, "rule", rule);
	tl_je_kstr(f, &first, 3, "fingerprint", hex);
	tl_je_ktext(f, &first, 3, "message", message);
	tl_je_close(f, first, 2, '}');
}

bool baseline_out_commit(struct baseline_out *b, char *err, size_t errlen)
{
	char why[512], *target = strdup(b->file.target);
	tl_je_close(b->file.out, !b->any, 1, ']');
	fputs("\n}\n", b->file.out);
	baseline_anchor_free(&b->anchor);
	bool ok = safe_file_commit(&b->file, why, sizeof why);
	if (!ok)
		snprintf(err, errlen, "cannot write the baseline %s: %s", target ? target : "", why);
	free(target);
	return ok;
}

void baseline_out_abort(struct baseline_out *b)
{
	baseline_anchor_free(&b->anchor);
	safe_file_abort(&b->file);
}

uint64_t baseline_fingerprint(const char *keyed_path, const struct tl_diagnostic *d)
{
	char hex[17];
	tl_diagnostic_fingerprint(hex, sizeof hex, keyed_path, d);
	return parse_hex(hex);
}
