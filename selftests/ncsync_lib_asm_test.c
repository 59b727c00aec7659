// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync selftests of libncsync against the driver (ncsync_lib.h): the text
 * form (labels, barriers, calls, lowered opcodes, the disassembler's round
 * trip) and the submission errors.
 *
 * Run inside the test VM:
 *   tools/vm-run build/selftests/ncsync_lib_asm_test
 */
#include "ncsync_lib.h"

/* ---------------------------------------------------------------------- */
/* The text form                                                           */

/*
 * Three engines count 60 barrier passes in loops written in the text form:
 * labels (the same name in each stream), a barrier inside the loops with a
 * sync clause (a NoOp that counts every engine's passes), PollSem and a
 * register branch checking that no engine is behind.
 */
static const char asm_loop[] =
	"# three engines, 60 barrier passes\n"
	"engine pool\n"
	"\tmovi r1, 0\n"
	"loop:\n"
	"engine act\n"
	"\tmovi r1, 0\n"
	"loop:\n"
	"engine sp\n"
	"\tmovi r1, 0\n"
	"loop:\n"
	"barrier then sem[30]++\n"
	"engine pool\n"
	"\tpoll min r2, sem[20]..sem[22]\n"
	"\tbr.lt.s32 r2, r1, bad\n"
	"\tevsem lane1 then sem[20]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 60, loop\n"
	"\texit\n"
	"bad:\thalt\n"
	"engine act\n"
	"\tpoll min r2, sem[20]..sem[22]\n"
	"\tbr.lt.s32 r2, r1, bad\n"
	"\tevsem lane1 then sem[21]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 60, loop\n"
	"\texit\n"
	"bad:\thalt\n"
	"engine sp\n"
	"\tpoll min r2, sem[20]..sem[22]   ; the same check\n"
	"\tbr.lt.s32 r2, r1, bad\n"
	"\tevsem lane1 then sem[22]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 60, loop\n"
	"\texit\n"
	"bad:\thalt\n";

TEST_F(core, asm_program_with_labels_and_barrier)
{
	struct ncsync_program *prog = NULL;
	struct ncsync_asm_error err;
	struct ncsync_prog_status st;
	unsigned int k;
	int ret, state;
	uint32_t id;

	ret = ncsync_asm(asm_loop, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", err.line, err.col, err.msg);
	EXPECT_EQ((1U << NCSYNC_ENGINE_POOL) | (1U << NCSYNC_ENGINE_ACT) |
		  (1U << NCSYNC_ENGINE_SP), ncsync_program_engines(prog));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	state = wait_end(_metadata, self->dev, id);
	status_get(_metadata, self->dev, id, &st, NULL);
	if (state != NCSYNC_PROG_DONE)
		status_log(_metadata, &st);
	ASSERT_EQ(NCSYNC_PROG_DONE, state);
	for (k = 0; k < 3; k++) {
		EXPECT_EQ(NCSYNC_ENG_DONE, st.engines[k].state);
		EXPECT_EQ(60, ncsync_sem_read(self->dev, 20 + k));
	}
	EXPECT_EQ(3 * 60, ncsync_sem_read(self->dev, 30));
	/* 3 engines, one +1 each per pass, on Pool's counter */
	EXPECT_EQ(3 * 60,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));

	/* A finalized program runs again; its start resets the counter. */
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, ncsync_sem_set(self->dev, 20 + k, 0, NULL));
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	for (k = 0; k < 3; k++)
		EXPECT_EQ(60, ncsync_sem_read(self->dev, 20 + k));
	EXPECT_EQ(3 * 60,
		  ncsync_sem_read(self->dev, barrier_counter(self->info)));
	EXPECT_EQ(2 * 3 * 60, ncsync_sem_read(self->dev, 30));
	ncsync_program_free(prog);
}

/*
 * Functions, Call and Return (lowered by the library, inlined): pool's
 * "post" adds 1 to sem[40] and, on odd passes, 1 more (an early ret on
 * even ones); act's "twice" calls its "one" twice (nested calls), each
 * adding 3 to sem[41]; both call in a loop of 10 passes.
 */
static const char asm_calls[] =
	"engine pool\n"
	"func post\n"
	"\tnop then sem[40]++\n"
	"\tandi r2, r1, 1\n"
	"\tbr.eq.u32 r2, 0, even\n"
	"\tret then sem[40]++\n"
	"even:\tret\n"
	"endfunc\n"
	"\tmovi r1, 0\n"
	"loop:\tcall post, args=5\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 10, loop\n"
	"\texit\n"
	"engine act\n"
	"func one\n"
	"\tnop then sem[41] += 3\n"
	"endfunc\n"
	"func twice\n"
	"\tcall one\n"
	"\tcall one\n"
	"endfunc\n"
	"\tmovi r1, 0\n"
	"loop:\tcall twice wait sem[40] >= 0 then sem[42]++\n"
	"\taddi r1, r1, 1\n"
	"\tbr.lt.u32 r1, 10, loop\n"
	"\texit\n";

/*
 * Pool's lowered stream, byte by byte (selftests/ncsync_rec.h): the body
 * inlined at the Call, its early ret a branch to the copy's end with the
 * ret's update, the last ret nothing, the loop's target relocated.
 */
static void check_pool_calls(struct __test_metadata *_metadata,
			     struct ncsync_program *prog)
{
	struct ncsync_stream *s;
	__u8 want[8][REC_SIZE];
	unsigned int i;

	enc_mov(want[0], NCSYNC_ALU_MOV_IMM, 1, 0, 0);
	enc_noop(want[1], 0, 0, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 40,
		 0);
	enc_mov(want[2], NCSYNC_ALU_AND_IMM, 2, 1, 1);
	enc_branch(want[3], NCSYNC_BR_EQ, NCSYNC_DTYPE_U32, 2, 0, 0, 5);
	enc_jump(want[4], 5);
	rec_lane0(want[4], 0, 0, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 40,
		  0);
	enc_mov(want[5], NCSYNC_ALU_ADD_IMM, 1, 1, 1);
	enc_branch(want[6], NCSYNC_BR_LT, NCSYNC_DTYPE_U32, 1, 0, 10, 1);
	enc_exit(want[7]);
	s = ncsync_program_find_stream(prog, NCSYNC_ENGINE_POOL);
	ASSERT_EQ(8U, ncsync_stream_count(s));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, memcmp(ncsync_stream_peek(s, i), want[i],
				    REC_SIZE)) TH_LOG("pool record %u", i);
}

TEST_F(core, asm_call_return_lowered)
{
	struct ncsync_program *prog = NULL;
	struct ncsync_asm_error err;
	int ret;
	uint32_t id;

	ret = ncsync_asm(asm_calls, &prog, &err);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", err.line, err.col, err.msg);
	ret = ncsync_program_finalize(prog);
	ASSERT_EQ(0, ret) TH_LOG("%s", ncsync_program_lower_error(prog));
	check_pool_calls(_metadata, prog);
	id = submit(_metadata, self->dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, self->dev, id));
	EXPECT_EQ(15, ncsync_sem_read(self->dev, 40));
	EXPECT_EQ(10 * 2 * 3, ncsync_sem_read(self->dev, 41));
	EXPECT_EQ(10, ncsync_sem_read(self->dev, 42));
	ncsync_program_free(prog);
}

/*
 * A pseudo-op of @add with an events block, lowered to a NoOp that keeps
 * it: pool's waits for act's sem[43] >= 1 and then sets ev[40], which act
 * waits on before it writes sem[44] = 7.  The record pool runs is that
 * NoOp, byte by byte.  The device is reset first.
 */
static void noop_pseudo_runs(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     int (*add)(struct ncsync_stream *s,
					const struct ncsync_events *ev))
{
	const struct ncsync_events ev = {
		.wait_mode = NCSYNC_WAIT_SEM_GE, .wait_idx = 43, .value = 1,
		.upd_mode = NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET,
		.upd_idx = 40,
	};
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_stream *p, *a;
	__u8 want[REC_SIZE];
	const uint8_t *rec;
	uint32_t id;

	ASSERT_EQ(0, ncsync_reset(dev));
	ADD(ncsync_program_stream(prog, NCSYNC_ENGINE_POOL, &p));
	ADD(ncsync_program_stream(prog, NCSYNC_ENGINE_ACT, &a));
	ADD(add(p, &ev));
	ADD(ncsync_add_exit(p, NULL));
	ADD(ncsync_add_semaphore_inc(a, 43));
	ADD(ncsync_add_event_wait(a, 40, NCSYNC_WAIT_EVT_SET));
	ADD(ncsync_add_semaphore_set(a, 44, 7));
	ADD(ncsync_add_exit(a, NULL));
	ASSERT_EQ(0, ncsync_program_finalize(prog));
	rec = ncsync_stream_peek(p, 0);
	ASSERT_NE(NULL, rec);
	enc_noop(want, NCSYNC_WAIT_SEM_GE, 43,
		 NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_SET, 40, 1);
	EXPECT_EQ(0, memcmp(rec, want, REC_SIZE));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	ASSERT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_TRUE(ncsync_event_read(dev, 40));
	EXPECT_EQ(1, ncsync_sem_read(dev, 43));
	EXPECT_EQ(7, ncsync_sem_read(dev, 44));
	ncsync_program_free(prog);
}

/* A DMA barrier (0xC3): BARRIER 6.2, "KRT lowers it to Nop(NUM_ROWS)". */
TEST_F(core, dma_barrier_lowered_with_events)
{
	noop_pseudo_runs(_metadata, self->dev, ncsync_add_dma_barrier);
}

/*
 * BARRIER, "See also": "TriggerCollective (0xC8) - the canonical collective
 * pseudo-op that carries the same events block"; "TriggerCollective2 + Ext
 * (0xD9/0xDA) - the SBUF-tensor v2 collective carrier".  Each is lowered as
 * the DMA barrier is, its events block kept, and runs on the engines.
 */
TEST_F(core, trigger_collective_lowered_with_events)
{
	noop_pseudo_runs(_metadata, self->dev, ncsync_add_trigger_collective);
	noop_pseudo_runs(_metadata, self->dev, ncsync_add_trigger_collective2);
	noop_pseudo_runs(_metadata, self->dev,
			 ncsync_add_trigger_collective2_ext);
}

/*
 * The text form is exact: a finalized program (lowered barriers, resolved
 * branches) printed by ncsync_disasm_program() assembles back into the
 * same records, and runs the same.  For both lowerings.
 */
static void disasm_roundtrip(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev,
			     const struct ncsync_info *info,
			     enum barrier_kind kind)
{
	const unsigned int iters = 200;
	struct ncsync_program *prog = prog_new(_metadata);
	struct ncsync_program *again = NULL;
	struct ncsync_asm_error err;
	struct barrier_loop bl;
	unsigned int k;
	char *text = NULL;
	size_t len = 0;
	uint32_t id, i;
	FILE *f;
	int ret;

	build_barrier_loop(_metadata, prog, info, kind, ALL_ENGINES, iters, 0,
			   false, &bl);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ncsync_disasm_program(prog, f));
	ASSERT_EQ(0, fclose(f));
	ret = ncsync_asm(text, &again, &err);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", err.line, err.col, err.msg);
	ASSERT_EQ(0, ncsync_program_finalize(again));
	ASSERT_EQ(ncsync_program_engines(prog),
		  ncsync_program_engines(again));
	for (k = 0; k < NCSYNC_NUM_ENGINES; k++) {
		struct ncsync_stream *a, *b;

		a = ncsync_program_find_stream(prog, engine_ids[k]);
		b = ncsync_program_find_stream(again, engine_ids[k]);
		ASSERT_NE(NULL, b);
		ASSERT_EQ(ncsync_stream_count(a), ncsync_stream_count(b));
		for (i = 0; i < ncsync_stream_count(a); i++)
			ASSERT_EQ(0, memcmp(ncsync_stream_record(a, i),
					    ncsync_stream_record(b, i),
					    NCSYNC_RECORD_SIZE))
				TH_LOG("engine %u record %u", engine_ids[k], i);
	}
	id = submit(_metadata, dev, again, 0, WD_LONG);
	check_barrier_loop(_metadata, dev, id, &bl, iters);
	free(text);
	ncsync_program_free(again);
	ncsync_program_free(prog);
}

TEST_F(core, disasm_roundtrip_counter_lowering)
{
	disasm_roundtrip(_metadata, self->dev, self->info, BK_SYNC);
}

TEST_F(core, disasm_roundtrip_event_lowering)
{
	disasm_roundtrip(_metadata, self->dev, self->info, BK_EVENTS);
}

/* ---------------------------------------------------------------------- */
/* Submission errors                                                       */

/* The 64 bytes of @rec as the hex of a .raw line. */
static void raw_hex(const uint8_t *rec, char *buf)
{
	unsigned int i;

	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		sprintf(buf + 2 * i, "%02x", rec[i]);
}

static void submit_refused(struct __test_metadata *_metadata,
			   struct ncsync_dev *dev, const char *text,
			   uint8_t engine, uint32_t index, uint32_t reason)
{
	struct ncsync_program *prog = NULL;
	struct ncsync_submit_error err;
	struct ncsync_asm_error aerr;
	struct ncsync_stats s0, s1;
	uint32_t id = 12345;
	int ret;

	ret = ncsync_asm(text, &prog, &aerr);
	ASSERT_EQ(0, ret) TH_LOG("%u:%u: %s", aerr.line, aerr.col, aerr.msg);
	ASSERT_EQ(0, ncsync_stats(dev, &s0));
	memset(&err, 0xa5, sizeof(err));
	ret = ncsync_program_submit(dev, prog, 0, WD_LONG, &id, &err);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(engine, err.engine);
	EXPECT_EQ(index, err.index);
	EXPECT_EQ(reason, err.reason)
		TH_LOG("reason %u (%s), expected %u (%s)", err.reason,
		       ncsync_reason_name(err.reason), reason,
		       ncsync_reason_name(reason));
	EXPECT_NE(NULL, ncsync_reason_name(err.reason));
	EXPECT_EQ(12345U, id);
	/* Nothing ran. */
	ASSERT_EQ(0, ncsync_stats(dev, &s1));
	EXPECT_EQ(s0.seq, s1.seq);
	ncsync_program_free(prog);
}

/* Records the library or the kernel refuses, each at its engine and index. */
static void submit_bad_records(struct __test_metadata *_metadata,
			       struct ncsync_dev *dev,
			       const struct ncsync_info *info)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	char hex[2 * NCSYNC_RECORD_SIZE + 1], text[1024];
	struct ncsync_program *prog;
	struct ncsync_submit_error err;
	uint32_t id = 0;

	/* A NoOp with a reserved byte set, on PE at index 2. */
	enc_header(rec, NCSYNC_OPC_NOOP);
	rec[0x0c] = 0xff;
	raw_hex(rec, hex);
	snprintf(text, sizeof(text),
		 "engine pool\n\tnop\n\tnop\n\tnop\n"
		 "engine pe\n\tnop\n\tevsem lane1 then sem[1]++\n\t.raw %s\n"
		 "\tnop\n", hex);
	submit_refused(_metadata, dev, text, NCSYNC_ENGINE_PE, 2,
		       NCSYNC_REC_RESERVED_BYTE);

	/* A bad word length, first record of SP, after valid streams. */
	rec[0x0c] = 0;
	rec[1] = 0x0f;
	raw_hex(rec, hex);
	snprintf(text, sizeof(text),
		 "engine act\n\tnop\nengine sp\n\t.raw %s\n", hex);
	submit_refused(_metadata, dev, text, NCSYNC_ENGINE_SP, 0,
		       NCSYNC_REC_BAD_WORDLEN);

	/* A pseudo-op with no lowering (0xC7; CoreBarrier 0xD8 has one) */
	rec[1] = NCSYNC_RECORD_WORDLEN;
	rec[0] = 0xC7;
	raw_hex(rec, hex);
	snprintf(text, sizeof(text), "engine dve\n\tnop\n\t.raw %s\n", hex);
	prog = NULL;
	ASSERT_EQ(0, ncsync_asm(text, &prog, NULL));
	EXPECT_EQ(-EOPNOTSUPP, ncsync_program_submit(dev, prog, 0,
						     WD_LONG, &id, &err));
	ncsync_program_free(prog);

	/*
	 * A copy past the end of the device memory: only the kernel knows
	 * its size, so the kernel refuses it and the library passes its
	 * report on.
	 */
	snprintf(text, sizeof(text),
		 "engine pool\n\tnop\nengine dve\n\tnop\n\tnop\n"
		 "\tdma 0x0, 0x%x, 64\n\tnop\n",
		 info->devmem_size - 32);
	submit_refused(_metadata, dev, text, NCSYNC_ENGINE_DVE, 2,
		       NCSYNC_REC_BAD_DMA);
}

/* A valid .raw record runs. */
static void submit_valid_raw(struct __test_metadata *_metadata,
			     struct ncsync_dev *dev)
{
	uint8_t rec[NCSYNC_RECORD_SIZE];
	char hex[2 * NCSYNC_RECORD_SIZE + 1], text[1024];
	struct ncsync_program *prog;
	uint32_t id;

	enc_noop(rec, NCSYNC_WAIT_NONE, 0,
		 NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_ADD, 50, 3);
	raw_hex(rec, hex);
	snprintf(text, sizeof(text), "engine pe\n\t.raw %s\n\t.raw %s\n", hex,
		 hex);
	prog = NULL;
	ASSERT_EQ(0, ncsync_asm(text, &prog, NULL));
	id = submit(_metadata, dev, prog, 0, WD_LONG);
	EXPECT_EQ(NCSYNC_PROG_DONE, wait_end(_metadata, dev, id));
	EXPECT_EQ(6, ncsync_sem_read(dev, 50));
	ncsync_program_free(prog);
}

/* Programs the library refuses: empty, unbound or out-of-range labels. */
static void submit_bad_programs(struct __test_metadata *_metadata,
				struct ncsync_dev *dev)
{
	struct ncsync_program *prog;
	struct ncsync_submit_error err;
	struct ncsync_stream *q;
	uint32_t id = 0;
	int label;

	/* An empty program; a branch to a label never bound. */
	prog = prog_new(_metadata);
	stream(_metadata, prog, NCSYNC_ENGINE_POOL);
	memset(&err, 0xa5, sizeof(err));
	EXPECT_EQ(-ENODATA, ncsync_program_submit(dev, prog, 0, WD_LONG,
						  &id, &err));
	EXPECT_EQ((unsigned int)(NCSYNC_REC_OK), err.reason);
	ncsync_program_free(prog);
	prog = prog_new(_metadata);
	ADD(ncsync_add_branch(stream(_metadata, prog, NCSYNC_ENGINE_POOL),
			      ncsync_label_new(prog), NULL));
	EXPECT_EQ(-ENOENT, ncsync_program_submit(dev, prog, 0, WD_LONG,
						 &id, &err));
	ncsync_program_free(prog);

	/* A branch to a label past the last record (refused by finalize). */
	prog = prog_new(_metadata);
	q = stream(_metadata, prog, NCSYNC_ENGINE_SP);
	label = ncsync_label_new(prog);
	ADD(label);
	ADD(ncsync_add_nop(q, NULL));
	ADD(ncsync_add_branch(q, label, NULL));
	ADD(ncsync_label_bind(q, label));
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(dev, prog, 0, WD_LONG,
						 &id, &err));
	EXPECT_EQ(NCSYNC_ENGINE_SP, err.engine);
	EXPECT_EQ(1U, err.index);
	EXPECT_EQ((uint32_t)NCSYNC_REC_BAD_TARGET, err.reason);
	ncsync_program_free(prog);
}

TEST_F(core, submit_errors)
{
	struct ncsync_program *prog;
	struct ncsync_submit_error err;
	uint32_t id = 0;

	submit_bad_records(_metadata, self->dev, self->info);
	submit_valid_raw(_metadata, self->dev);
	submit_bad_programs(_metadata, self->dev);

	/* Bad flags, bad watchdog */
	memset(&err, 0, sizeof(err));
	prog = prog_new(_metadata);
	ADD(ncsync_add_nop(stream(_metadata, prog, NCSYNC_ENGINE_POOL), NULL));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, 0x80,
						 WD_LONG, &id, &err));
	EXPECT_EQ((unsigned int)(NCSYNC_REC_OK), err.reason);
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, prog, 0,
						 3600001, &id, &err));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(NULL, prog, 0, WD_LONG, &id,
						 &err));
	EXPECT_EQ(-EINVAL, ncsync_program_submit(self->dev, NULL, 0, WD_LONG,
						 &id, &err));
	ncsync_program_free(prog);
}

TEST_HARNESS_MAIN
