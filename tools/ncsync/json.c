// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): a small streaming JSON writer for -j, compact like ip -j.
 * Members take a key inside an object and NULL inside an array.
 */
#include "tool.h"

#define J_MAX_DEPTH	32

static bool j_first[J_MAX_DEPTH + 1] = { true };
static int j_depth;

static void j_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putchar('"');
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		default:
			if (*p < 0x20)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

static void j_key(const char *key)
{
	if (!j_first[j_depth])
		putchar(',');
	j_first[j_depth] = false;
	if (key) {
		j_string(key);
		putchar(':');
	}
}

/* The closing bracket of each open level. */
static char j_closers[J_MAX_DEPTH + 1];

static void j_open(const char *key, char c)
{
	j_key(key);
	putchar(c);
	if (j_depth < J_MAX_DEPTH)
		j_depth++;
	j_first[j_depth] = true;
	j_closers[j_depth] = c == '{' ? '}' : ']';
}

void j_obj(const char *key)
{
	j_open(key, '{');
}

void j_arr(const char *key)
{
	j_open(key, '[');
}

void j_end(void)
{
	if (j_depth > 0)
		putchar(j_closers[j_depth--]);
}

void j_int(const char *key, long long v)
{
	j_key(key);
	printf("%lld", v);
}

void j_uint(const char *key, unsigned long long v)
{
	j_key(key);
	printf("%llu", v);
}

void j_str(const char *key, const char *s)
{
	j_key(key);
	if (s)
		j_string(s);
	else
		fputs("null", stdout);
}

void j_bool(const char *key, bool v)
{
	j_key(key);
	fputs(v ? "true" : "false", stdout);
}

void j_null(const char *key)
{
	j_key(key);
	fputs("null", stdout);
}

/*
 * The "wait" member of an engine: what a blocked engine waits on, the same
 * members in every command (Documentation/ncsync/tool.rst, "JSON").
 * @lane < 0: not known (the netlink family does not report it).
 */
void j_wait(const char *on, uint8_t kind, uint8_t mode, uint8_t index,
	    int lane, int32_t threshold, int32_t current)
{
	j_obj("wait");
	j_str("on", on);
	j_str("kind", ncsync_wait_kind_name(kind));
	j_uint("mode", mode);
	j_uint("index", index);
	if (lane >= 0)
		j_uint("lane", lane);
	j_int("threshold", threshold);
	j_int("current", current);
	j_end();
}

/* End of a top-level value: a newline, and reset for the next one. */
void j_done(void)
{
	putchar('\n');
	j_depth = 0;
	j_first[0] = true;
	fflush(stdout);
}
