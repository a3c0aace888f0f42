/* The traced program of make-real-traces.sh: work() is hit once per
 * iteration (argv[1], default 3), idle() never runs (zero-frame runs),
 * done() marks the end of the run and owns the large collection. */
#include <stdlib.h>

volatile int counter;
char small_buf[64] = "tracelint small buffer";
char big_buf[100000];

int work(int i)
{
	int local = i * 3;

	counter += local;
	small_buf[i % 64] = (char)('a' + i % 26);
	big_buf[i] = (char)i;
	return local;
}

void idle(void)
{
	counter = 0;
}

void done(void)
{
	big_buf[sizeof big_buf - 1] = 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;

	for (int i = 0; i < n; i++)
		work(i);
	done();
	return 0;
}
