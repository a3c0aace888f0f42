/* The window the frame walks read through (window.h). */
#include <stdint.h>

#include "tfile.h"

void tl_tfile_window_open(struct tl_window *win, struct tl_input *flat, const struct tl_input *in, size_t cap)
{
	*flat = *in;
	if (in->data) {
		/* Mapped or in memory: read in place, never copied. */
		flat->has_fd = false;
		tl_window_open(win, flat, SIZE_MAX);
		return;
	}
	/* Only a descriptor (a file the browser reads in slices): a buffer
	 * filled by reads. */
	tl_window_open(win, in, cap);
}
