// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Programs and streams: datapath engines only, one stream per engine made
 * on first use, the engine mask, record access, growth, and finalization
 * validating every record with the shared validator.
 */
#include <errno.h>

#include "ncsync.h"
#include "tap.h"

int main(void)
{
	struct ncsync_stream *s, *s2;
	struct ncsync_program *p;
	unsigned int e, ok = 0;
	uint32_t i;
	uint8_t *rec;
	int r;

	TAP_CHECK(ncsync_program_new(NULL) == -EINVAL, "new(NULL)");
	TAP_CHECK(ncsync_program_new(&p) == 0, "new");
	for (e = 0; e < 10; e++) {
		r = ncsync_program_stream(p, e, &s);
		if ((r == 0) == (e == 1 || e == 2 || e == 3 || e == 5 ||
				 e == 6))
			ok++;
	}
	TAP_CHECK(ok == 10, "streams for engines 1 2 3 5 6 only");
	TAP_CHECK(ncsync_program_stream(p, NCSYNC_ENGINE_DMA, &s) == -EINVAL,
		  "no DMA stream");
	TAP_CHECK(ncsync_program_engines(p) == NCSYNC_ENGINE_MASK,
		  "engine mask 0x6E");
	ncsync_program_stream(p, NCSYNC_ENGINE_DVE, &s);
	ncsync_program_stream(p, NCSYNC_ENGINE_DVE, &s2);
	TAP_CHECK(s == s2 && ncsync_program_find_stream(p, 5) == s,
		  "one stream per engine; find_stream");
	TAP_CHECK(ncsync_program_find_stream(p, 4) == NULL &&
		  ncsync_program_find_stream(p, 200) == NULL,
		  "find_stream of no stream");
	TAP_CHECK(ncsync_stream_engine(s) == 5 && ncsync_stream_count(s) == 0,
		  "stream engine and count");
	ncsync_program_free(p);

	ncsync_program_new(&p);
	ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
	TAP_CHECK(ncsync_program_engines(p) == 1U << NCSYNC_ENGINE_ACT,
		  "mask of one stream");
	for (i = 0; i < 10000; i++)
		if (ncsync_add_mov32_imm(s, i % 32, i, NULL) != (int)i)
			break;
	TAP_CHECK(i == 10000 && ncsync_stream_count(s) == 10000,
		  "10000 records, each at its index");
	rec = ncsync_stream_record(s, 9999);
	TAP_CHECK(rec && rec[0] == NCSYNC_OPC_MOV32 && rec[0x10] == 0x0F &&
		  rec[0x11] == 0x27, "record 9999 reads back");
	TAP_CHECK(ncsync_stream_record(s, 10000) == NULL,
		  "no record past the end");
	TAP_CHECK(ncsync_program_finalize(p) == 0, "finalize a valid program");

	/* a record broken behind the builders' back is caught */
	rec = ncsync_stream_record(s, 1234);
	rec[0x3F] = 1;
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL,
		  "finalize refuses a bad reserved byte");
	rec[0x3F] = 0;
	rec[1] = 0x11;
	TAP_CHECK(ncsync_program_finalize(p) == -EINVAL,
		  "finalize refuses a bad word length");
	rec[1] = 0x10;
	TAP_CHECK(ncsync_program_finalize(p) == 0, "and accepts it repaired");
	TAP_CHECK(ncsync_program_stream(p, NCSYNC_ENGINE_SP, &s2) == -EBUSY,
		  "no new stream after finalize");
	ncsync_program_free(p);
	ncsync_program_free(NULL);
	return tap_done();
}
