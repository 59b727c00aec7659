// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): program images.  A program's FILE is the text form
 * (Documentation/ncsync/asm.rst), or a program image that "ncsync asm -o"
 * wrote: the header below, then per queue its engine and record count,
 * then the records of each queue in that order.  All little-endian:
 *
 *	0x00  "NCSYNCPG"       magic, 8 bytes
 *	0x08  u32 version      1
 *	0x0c  u32 nqueues      1 .. 5
 *	0x10  nqueues x { u8 engine, u8 pad[3] = 0, u32 count }
 *	....  the records, 64 bytes each
 */
#include <errno.h>
#include <string.h>

#include "build.h"

#define IMG_MAGIC	"NCSYNCPG"
#define IMG_VERSION	1

bool is_image(const char *buf, size_t len)
{
	return len >= 16 && !memcmp(buf, IMG_MAGIC, 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

int image_load(const char *path, const uint8_t *buf, size_t len,
	       struct ncsync_program **progp)
{
	struct ncsync_program *prog;
	uint32_t nq, q, i, version;
	size_t off;
	int ret;

	version = get_le32(buf + 8);
	nq = get_le32(buf + 12);
	if (version != IMG_VERSION)
		return fail_msg("%s: image version %u, expected %u", path,
				version, IMG_VERSION);
	if (!nq || nq > NCSYNC_NUM_ENGINES || len < 16 + 8 * (size_t)nq)
		return fail_msg("%s: bad image: %u queues", path, nq);
	ret = ncsync_program_new(&prog);
	if (ret)
		return fail_err(ret, "%s", path);
	off = 16 + 8 * (size_t)nq;
	for (q = 0; q < nq; q++) {
		const uint8_t *qh = buf + 16 + 8 * q;
		uint32_t count = get_le32(qh + 4);
		struct ncsync_stream *s;

		if (qh[1] || qh[2] || qh[3] ||
		    count > (len - off) / NCSYNC_RECORD_SIZE) {
			ncsync_program_free(prog);
			return fail_msg("%s: bad image: queue %u", path, q);
		}
		ret = ncsync_program_stream(prog, qh[0], &s);
		if (ret) {
			ncsync_program_free(prog);
			return fail_err(ret, "%s: queue %u, engine %u", path,
					q, qh[0]);
		}
		for (i = 0; i < count; i++, off += NCSYNC_RECORD_SIZE) {
			ret = ncsync_add_raw(s, buf + off);
			if (ret < 0) {
				ncsync_program_free(prog);
				return fail_err(ret, "%s", path);
			}
		}
	}
	if (off != len) {
		ncsync_program_free(prog);
		return fail_msg("%s: bad image: %zu bytes after the records",
				path, len - off);
	}
	*progp = prog;
	return 0;
}

int image_write(const char *path, struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog), nq = 0, e;
	uint8_t hdr[16 + 8 * NCSYNC_NUM_ENGINES];
	FILE *f;
	uint32_t i;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, IMG_MAGIC, 8);
	put_le32(hdr + 8, IMG_VERSION);
	for (e = 0; e < MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s;

		if (!(mask & (1U << e)))
			continue;
		s = ncsync_program_find_stream(prog, e);
		hdr[16 + 8 * nq] = e;
		put_le32(hdr + 16 + 8 * nq + 4, ncsync_stream_count(s));
		nq++;
	}
	put_le32(hdr + 12, nq);
	f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
	if (!f)
		return fail_err(errno, "%s", path);
	fwrite(hdr, 1, 16 + 8 * nq, f);
	for (e = 0; e < MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s;

		if (!(mask & (1U << e)))
			continue;
		s = ncsync_program_find_stream(prog, e);
		for (i = 0; i < ncsync_stream_count(s); i++)
			fwrite(ncsync_stream_peek(s, i), 1,
			       NCSYNC_RECORD_SIZE, f);
	}
	if (f == stdout ? fflush(f) : fclose(f))
		return fail_err(errno, "%s", path);
	if (f == stdout && ferror(f))
		return fail_err(EIO, "%s", path);
	return 0;
}
