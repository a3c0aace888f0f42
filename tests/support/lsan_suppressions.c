/* Linked into every ATF-C test program: libatf-c keeps its test-case list
 * allocated until exit, which LeakSanitizer would report as our leak. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libatf-c.so\n";
}

/* Suppressed leaks are expected; listing them on stderr would break Kyua's
 * test-case listing, which must write nothing to stderr. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
