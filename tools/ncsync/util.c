// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): utilities of every part: the messages "ncsync: WHAT: REASON",
 * numbers, time and files.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

int fail_err(int err, const char *fmt, ...)
{
	va_list ap;

	fputs("ncsync: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err < 0 ? -err : err));
	return EXIT_FAIL;
}

int fail_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("ncsync: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAIL;
}

bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* A signed 32-bit value, or an unsigned one up to 2^32 - 1 (wrapped). */
bool parse_s32(const char *s, int32_t *out)
{
	long long v;
	char *end;

	if (!*s || *s == ' ')
		return false;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || v < INT32_MIN || v > (long long)UINT32_MAX)
		return false;
	*out = (int32_t)(uint32_t)v;
	return true;
}

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int read_file(const char *path, char **bufp, size_t *lenp)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t len = 0, cap = 4096, n;
	char *buf, *nb;
	int err;

	if (!f)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (cap - len < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				err = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		err = -EIO;
		free(buf);
		goto out;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	err = 0;
out:
	if (f != stdin)
		fclose(f);
	return err;
}
