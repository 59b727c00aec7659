// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: ncsync_program_conform(), a program against the conformance
 * profile as the kernel checks a submission with NCSYNC_SUBMIT_F_CONFORM:
 * the first refused record by engine, index and reason, queues in engine
 * order (a group that repeats an earlier engine's), a malformed 0xD5 by
 * its index before the lowering, and the bad arguments.
 */
#include <errno.h>
#include <string.h>

#include "ncsync.h"
#include "tap.h"

static struct ncsync_program *assemble(const char *text)
{
	struct ncsync_asm_error e;
	struct ncsync_program *p = NULL;

	if (ncsync_asm(text, &p, &e) || ncsync_program_finalize(p)) {
		ncsync_program_free(p);
		return NULL;
	}
	return p;
}

/* The profile's verdict on @text: its return and *@err. */
static int conform(const char *text, struct ncsync_submit_error *err)
{
	struct ncsync_program *p = assemble(text);
	int ret = p ? ncsync_program_conform(p, err) : -ENOEXEC;

	ncsync_program_free(p);
	return ret;
}

int main(void)
{
	struct ncsync_submit_error err;
	struct ncsync_program *p;
	uint8_t bad[NCSYNC_RECORD_SIZE] = { NCSYNC_OPC_ALL_ENGINE_BARRIER,
					    0x10 };

	memset(&err, 0xAA, sizeof(err));
	TAP_CHECK(conform("engine pool\n\tevsem wait sem[1] >= 2\n\texit\n",
			  &err) == 0 && !err.reason && !err.index,
		  "a GE wait conforms; the error is cleared");
	TAP_CHECK(conform("engine pe\n\tnop\n\tevsem wait sem[1] == 0\n",
			  &err) == -EINVAL && err.engine == NCSYNC_ENGINE_PE &&
		  err.index == 1 && err.reason == NCSYNC_REC_CONF_EVSEM_WAIT,
		  "an EQ wait: engine, index, reason");
	TAP_CHECK(conform("engine pool\n\tsema_clear 3..4\n"
			  "engine act\n\tsema_clear 4..5\n", &err) == -EINVAL &&
		  err.engine == NCSYNC_ENGINE_ACT && err.index == 0 &&
		  err.reason == NCSYNC_REC_CONF_GR_DUPLICATE,
		  "a group repeating an earlier engine's, in engine order");
	TAP_CHECK(conform("engine sp\n\tsema_clear 4..5\n"
			  "engine act\n\tsema_clear 6..7\n", &err) == 0,
		  "disjoint groups conform");

	p = NULL;
	TAP_CHECK(!ncsync_program_new(&p), "new");
	if (p) {
		struct ncsync_stream *s;

		bad[0x30] = 1;
		ncsync_program_stream(p, NCSYNC_ENGINE_POOL, &s);
		ncsync_add_nop(s, NULL);
		ncsync_add_raw(s, bad);
		ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &s);
		ncsync_add_all_engine_barrier(p, NULL);
		TAP_CHECK(ncsync_program_conform(p, &err) == -EINVAL &&
			  !err.reason, "not finalized: -EINVAL, no record");
		TAP_CHECK(!ncsync_program_finalize(p) &&
			  ncsync_program_conform(p, &err) == -EINVAL &&
			  err.engine == NCSYNC_ENGINE_POOL && err.index == 1 &&
			  err.reason == NCSYNC_REC_CONF_PSEUDO,
			  "a malformed 0xD5: its index before the lowering");
		ncsync_program_free(p);
	}
	TAP_CHECK(ncsync_program_conform(NULL, &err) == -EINVAL &&
		  !err.reason, "NULL program: -EINVAL");
	return tap_done();
}
