// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The shared encoder is the decoder's exact inverse:
 * ncsync_record_encode(ncsync_record_decode(r)) is r byte for byte for
 * every record the builders and both barrier lowerings make, every record
 * the assembler makes of the examples (*.s) and of the text-form fuzzer's seeds,
 * and thousands of random records the decoder accepts (filled field by
 * field through the typed view, then mutated byte by byte).  Every
 * accepted record also reads the same through the typed view,
 * struct ncsync_record of <linux/ncsync.h>, as through the decoder.
 */
#include <dirent.h>
#include <endian.h>

#include "asm_test.h"
#include "ncsync_record.h"

#ifndef NCSYNC_TEST_TOP
#define NCSYNC_TEST_TOP "."
#endif

static const uint8_t opcodes[] = {
	NCSYNC_OPC_EVENT_SEMAPHORE, NCSYNC_OPC_HALT, NCSYNC_OPC_DRAIN,
	NCSYNC_OPC_NOOP, NCSYNC_OPC_MOV32, NCSYNC_OPC_BRANCH,
	NCSYNC_OPC_GROUP_RESET, NCSYNC_OPC_POLL_SEM, NCSYNC_OPC_EXIT,
	NCSYNC_OPC_DMA,
};

/* What a set of records gave. */
struct tally {
	unsigned int ok;	/* accepted and encoded back the same */
	unsigned int refused;	/* not accepted: nothing to round-trip */
	unsigned int differ;	/* accepted, encoded differently */
	unsigned int view;	/* accepted, the typed view disagrees */
	unsigned int per_opcode[256];
};

static void hex(const char *what, const uint8_t *r)
{
	char buf[2 * NCSYNC_RECORD_SIZE + 1];

	t_hex(r, buf);
	printf("# %s %s\n", what, buf);
}

/* The fields past the events block, as the typed view has them. */
static bool view_ops_agree(const struct ncsync_record *v,
			   const struct ncsync_insn *in)
{
	const struct ncsync_lane *l1 = &in->lane[1];
	unsigned int i;

	switch (in->opcode) {
	case NCSYNC_OPC_EVENT_SEMAPHORE:
		return v->evsem.ex_wait_mode == l1->wait_mode &&
		       v->evsem.ex_wait_idx == l1->wait_idx &&
		       v->evsem.ex_upd_mode == l1->upd_mode &&
		       v->evsem.ex_upd_idx == l1->upd_idx &&
		       le32toh(v->evsem.ex_wait_value) == l1->wait_value &&
		       le32toh(v->evsem.ex_upd_value) == l1->upd_value;
	case NCSYNC_OPC_DRAIN:
		return v->drain.count == in->drain.count;
	case NCSYNC_OPC_MOV32:
		return v->mov.alu == in->mov.alu && v->mov.dst == in->mov.dst &&
		       v->mov.src == in->mov.src &&
		       le32toh(v->mov.imm) == in->mov.imm;
	case NCSYNC_OPC_BRANCH:
		return v->br.comp_op == in->br.comp &&
		       v->br.dtype == in->br.dtype &&
		       v->br.operand_kind ==
			(in->br.comp ? NCSYNC_BR_OPERANDS : 0) &&
		       le32toh(v->br.imm) == in->br.imm &&
		       v->br.lhs_reg == in->br.lhs &&
		       v->br.rhs_reg == in->br.rhs &&
		       le64toh(v->br.target) == in->br.target;
	case NCSYNC_OPC_GROUP_RESET:
		/* The range form's mask is the decoder's, not the record's. */
		for (i = 0; in->gr.mode == NCSYNC_CLEAR_MASK && i < 8; i++)
			if (le32toh(v->gr.mask[i]) != in->gr.mask[i])
				return false;
		return v->gr.clear_mode == in->gr.mode &&
		       v->gr.first == in->gr.first && v->gr.last == in->gr.last;
	case NCSYNC_OPC_POLL_SEM:
		return v->poll.op == in->poll.op && v->poll.dst == in->poll.dst &&
		       v->poll.first == in->poll.first &&
		       v->poll.count == in->poll.count &&
		       v->poll.writeback == in->poll.writeback;
	case NCSYNC_OPC_EXIT:
		return !v->exit.flags;
	case NCSYNC_OPC_DMA:
		return le64toh(v->dma.src) == in->dma.src &&
		       le64toh(v->dma.dst) == in->dma.dst &&
		       le32toh(v->dma.len) == in->dma.len &&
		       le32toh(v->dma.latency_us) == in->dma.latency_us;
	default:
		return true;
	}
}

static bool view_agrees(const uint8_t *rec, const struct ncsync_insn *in)
{
	const struct ncsync_lane *l0 = &in->lane[0];
	struct ncsync_record v;

	memcpy(&v, rec, sizeof(v));
	return v.head.opcode == in->opcode &&
	       v.head.wordlen == NCSYNC_RECORD_WORDLEN &&
	       !v.head.reserved[0] && !v.head.reserved[1] &&
	       v.head.ev_wait_mode == l0->wait_mode &&
	       v.head.ev_wait_idx == l0->wait_idx &&
	       v.head.ev_upd_mode == l0->upd_mode &&
	       v.head.ev_upd_idx == l0->upd_idx &&
	       le32toh(v.head.ev_value) == l0->wait_value &&
	       view_ops_agree(&v, in);
}

/* Round-trip @rec if the decoder accepts it; false when it does not. */
static bool check_rec(struct tally *t, const uint8_t *rec)
{
	uint8_t enc[NCSYNC_RECORD_SIZE];
	struct ncsync_insn in;

	if (ncsync_record_decode(rec, UINT32_MAX, UINT64_MAX, &in)) {
		t->refused++;
		return false;
	}
	ncsync_record_encode(&in, enc);
	if (memcmp(enc, rec, NCSYNC_RECORD_SIZE)) {
		if (t->differ++ < 5) {
			hex("record ", rec);
			hex("encoded", enc);
		}
	} else {
		t->ok++;
	}
	if (!view_agrees(rec, &in) && t->view++ < 5)
		hex("typed view disagrees on", rec);
	t->per_opcode[rec[0]]++;
	return true;
}

static void check_program(struct tally *t, struct ncsync_program *prog)
{
	unsigned int e;
	uint32_t i;

	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(prog, e);

		for (i = 0; s && i < ncsync_stream_count(s); i++)
			check_rec(t, ncsync_stream_record(s, i));
	}
}

static bool tally_clean(const struct tally *t)
{
	return t->ok && !t->refused && !t->differ && !t->view;
}

/* Builders */

static const struct ncsync_events evs[] = {
	{ 0, 0, 0, 0, 0 },
	{ NCSYNC_WAIT_SEM_GE, 2, 0, 0, 10 },
	{ 0, 0, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, 9, 0 },
	{ NCSYNC_WAIT_SEM_EQ | NCSYNC_WAIT_REG, 3, NCSYNC_UPD_SEM_ADD, 3, 7 },
	{ NCSYNC_WAIT_EVT_SET_THEN_CLEAR, 4, NCSYNC_UPD_EVT_SET, 5, 0 },
	{ NCSYNC_WAIT_EVT_CLEAR, 6, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_EVT_CLEAR,
	  6, 0 },
	{ 0, 0, NCSYNC_UPD_SEM_WRITE | NCSYNC_UPD_REG, 1, 31 },
	{ NCSYNC_WAIT_SEM_LT, 255, NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_SUB,
	  255, 0xFFFFFFFF },
};

/* The EventSemaphore builders: lane 1, and both lanes. */
static void build_evsem(struct ncsync_stream *s, const struct ncsync_events *ev,
			uint8_t i)
{
	uint8_t mode;

	ncsync_add_evsem(s, ev, NCSYNC_WAIT_SEM_LE, i, 0x80000000 + i,
			 NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_WRITE, 3, i);
	ncsync_add_evsem(s, ev, 0, 0, 0, NCSYNC_UPD_COMPLETE |
			 NCSYNC_UPD_SEM_SUB | NCSYNC_UPD_REG, i, 30);
	ncsync_add_semaphore_wait(s, i);
	ncsync_add_semaphore_wait_eq_and_inc(s, i, 3 * i);
	for (mode = NCSYNC_WAIT_SEM_EQ; mode <= NCSYNC_WAIT_SEM_GE; mode++) {
		ncsync_add_semaphore_wait_cmp(s, i, mode, -(int32_t)i);
		ncsync_add_semaphore_wait_reg(s, i, mode, i % 32);
	}
	ncsync_add_semaphore_wait_eq(s, i, 1);
	ncsync_add_semaphore_wait_lt(s, i, -1);
	ncsync_add_semaphore_wait_le(s, i, 0x7FFFFFFF);
	ncsync_add_semaphore_wait_gt(s, i, 0);
	ncsync_add_semaphore_wait_ge(s, i, INT32_MIN);
	ncsync_add_semaphore_inc(s, i);
	ncsync_add_semaphore_dec(s, i);
	ncsync_add_semaphore_add(s, i, 0x01020304);
	ncsync_add_semaphore_sub(s, i, 7);
	ncsync_add_semaphore_set(s, i, 0xFFFFFFFF);
	ncsync_add_event_set(s, i);
	ncsync_add_event_clear(s, i);
	ncsync_add_event_wait(s, i, NCSYNC_WAIT_EVT_SET);
	ncsync_add_event_wait(s, i, NCSYNC_WAIT_EVT_CLEAR_THEN_SET);
}

/* The builders that take an events block, each with @ev. */
static void build_ops(struct ncsync_stream *s, const struct ncsync_events *ev,
		      int label, unsigned int i)
{
	uint32_t mask[8] = { 1U << i, 0, 0, 0x80000000, 0, 0, 0, ~0U };
	uint8_t alu, comp;

	ncsync_add_drain(s, ev);
	ncsync_add_halt(s, ev);
	ncsync_add_nop(s, ev);
	ncsync_add_exit(s, ev);
	ncsync_add_sema_clear(s, i, 3 * i, ev);
	ncsync_add_sema_clear_mask(s, mask, ev);
	/* r30 and r31 belong to the barrier lowerings: r29 is the last. */
	ncsync_add_poll_sem(s, i % 2, 29 - i, 16 * i, 16 - i, ev);
	ncsync_add_poll_sem_writeback(s, i, 16 * i, 1 + i, ev);
	for (alu = 0; alu <= NCSYNC_ALU_LAST; alu++)
		ncsync_add_mov32(s, alu, i, 2 * i, alu * 0x11111111U, ev);
	ncsync_add_mov32_imm(s, 29, 0xDEADBEEF, ev);
	ncsync_add_branch(s, label, ev);
	for (comp = NCSYNC_BR_LT; comp <= NCSYNC_BR_GT; comp++) {
		ncsync_add_branch_imm(s, comp, 1 + comp % 2, i, -comp, label,
				      ev);
		ncsync_add_branch_reg(s, comp, 2 - comp % 2, i, 31 - comp,
				      label, ev);
	}
	ncsync_add_dma(s, 0x1000 * i, 0xFFFFFFFF00000000ULL, 256, 10 * i,
		       NCSYNC_UPD_COMPLETE | NCSYNC_UPD_SEM_INC, i, ev);
	ncsync_add_dma(s, 0, 64, 64, 1000000, NCSYNC_UPD_EVT_SET, i, ev);
	ncsync_add_dma(s, 8, 0, 1, 0, 0, 0, ev);
}

static struct ncsync_program *build_program(void)
{
	struct ncsync_program *p;
	struct ncsync_stream *s[2];
	unsigned int i, k;
	int label[2];

	/*
	 * The lowerings' slices away from the semaphores and events the
	 * records write, which a program with barriers may not write.
	 */
	if (ncsync_program_new(&p) ||
	    ncsync_program_set_reserved(p, 200, 16, 200, 16)) {
		ncsync_program_free(p);
		return NULL;
	}
	for (k = 0; k < 2; k++) {
		if (ncsync_program_stream(p, k + 1, &s[k])) {
			ncsync_program_free(p);
			return NULL;
		}
		label[k] = ncsync_label_new(p);
		ncsync_label_bind(s[k], label[k]);
	}
	for (i = 0; i < ARRAY_LEN(evs); i++) {
		k = i % 2;
		build_evsem(s[k], &evs[i], i);
		build_ops(s[k], &evs[i], label[k], i);
		ncsync_insert_events(s[k], ncsync_add_drain(s[k], NULL),
				     &evs[i]);
		ncsync_add_all_engine_barrier(p, &evs[i]);
	}
	ncsync_add_sync_barrier(p);
	ncsync_add_lower_control_fence(p);
	return p;
}

/* Every record of the builders, lowered each way. */
static void test_builders(void)
{
	static const enum ncsync_barrier_lowering hows[] = {
		NCSYNC_LOWER_COUNTER, NCSYNC_LOWER_EVENTS,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(hows); i++) {
		struct ncsync_program *p = build_program();
		struct tally t = { 0 };

		TAP_CHECK(p && !ncsync_program_lower(p, hows[i]) &&
			  !ncsync_program_finalize(p),
			  "the builders' program lowers (%s) and finalizes",
			  i ? "events" : "counter");
		if (p)
			check_program(&t, p);
		TAP_CHECK(tally_clean(&t) && t.ok > 500,
			  "%u builder and lowering records round-trip (%u refused, %u differ, %u typed views disagree)",
			  t.ok, t.refused, t.differ, t.view);
		ncsync_program_free(p);
	}
}

/* Text */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = calloc(1, n + 1);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/* Assemble @text, lower it @how, finalize it and round-trip its records. */
static bool check_text(struct tally *t, const char *text,
		       enum ncsync_barrier_lowering how)
{
	struct ncsync_program *p;
	bool ok;

	if (ncsync_asm(text, &p, NULL))
		return false;
	ok = !ncsync_program_lower(p, how) && !ncsync_program_finalize(p);
	if (ok)
		check_program(t, p);
	ncsync_program_free(p);
	return ok;
}

/* Every file of @dir ending in @suffix that assembles and finalizes. */
static void test_text_dir(const char *dir, const char *suffix)
{
	struct tally t = { 0 };
	unsigned int files = 0;
	char path[4096];
	struct dirent *d;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/%s", NCSYNC_TEST_TOP, dir);
	dp = opendir(path);
	while (dp && (d = readdir(dp))) {
		size_t n = strlen(d->d_name), m = strlen(suffix);
		char *text;

		if (n <= m || strcmp(d->d_name + n - m, suffix))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", NCSYNC_TEST_TOP, dir,
			 d->d_name);
		text = slurp(path);
		if (text && check_text(&t, text, NCSYNC_LOWER_COUNTER))
			files++;
		if (text)
			check_text(&t, text, NCSYNC_LOWER_EVENTS);
		free(text);
	}
	if (dp)
		closedir(dp);
	TAP_CHECK(files && tally_clean(&t),
		  "%s/*%s: %u records of %u files round-trip (%u refused, %u differ, %u typed views disagree)",
		  dir, suffix, t.ok, files, t.refused, t.differ, t.view);
}

/* Random records */

static uint64_t rng = 0xB7E151628AED2A6BULL;

static uint32_t rnd(void)
{
	return t_rnd(&rng);
}

/* A byte a field is likely to hold, often zero, sometimes anything. */
static uint8_t pick8(void)
{
	static const uint8_t likely[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A,
		0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x17, 0x19,
		0x1F, 0x20, 0x81, 0x83, 0x85, 0x95, 0x97, 0x99, 0xF0, 0xFF,
	};
	uint32_t r = rnd();

	if (r % 4 < 2)
		return 0;
	return r % 4 == 2 ? likely[(r >> 8) % ARRAY_LEN(likely)] : r >> 8;
}

/* A 32-bit value: zero, small, near the top, or anything. */
static uint32_t pick32(void)
{
	uint32_t r = rnd(), small = r >> 27;

	if (r % 5 < 2)
		return 0;
	if (r % 5 == 2)
		return small;
	return r % 5 == 3 ? -small : rnd();
}

/* A wait or update mode: none, one of the table (valid or nearly), any. */
static uint8_t pick_mode(bool wait)
{
	static const uint8_t waits[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0E, 0x0F,
		0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x08,
	};
	static const uint8_t upds[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x09, 0x11, 0x12, 0x13,
		0x14, 0x15, 0x17, 0x19, 0x85, 0x87, 0x89, 0x95, 0x97, 0x99,
		0x83, 0x06, 0x21,
	};
	uint32_t r = rnd();

	if (r % 3 == 0)
		return 0;
	if (r % 16 == 1)
		return r >> 8;
	r >>= 4;
	return wait ? waits[r % ARRAY_LEN(waits)] : upds[r % ARRAY_LEN(upds)];
}

static uint64_t pick64(void)
{
	return rnd() % 2 ? pick32() : (uint64_t)pick32() << 32 | pick32();
}

static void fill_lane1(struct ncsync_record *v)
{
	v->evsem.ex_wait_mode = pick_mode(true);
	v->evsem.ex_wait_idx = pick8();
	v->evsem.ex_upd_mode = pick_mode(false);
	v->evsem.ex_upd_idx = pick8();
	v->evsem.ex_wait_value = htole32(pick32());
	v->evsem.ex_upd_value = htole32(pick32());
}

/* A branch: mostly the operands its comparison uses, sometimes others. */
static void fill_branch(struct ncsync_record *v)
{
	bool any = rnd() % 8 == 0;
	uint8_t comp = rnd() % 16;

	v->br.comp_op = comp;
	v->br.operand_kind = comp ? NCSYNC_BR_OPERANDS : 0;
	v->br.target = htole64(pick64());
	if (!comp && !any)
		return;
	v->br.dtype = any ? pick8() : 1 + rnd() % 2;
	v->br.lhs_reg = pick8() & 0x3F;
	if (any || (comp & NCSYNC_BR_REG))
		v->br.rhs_reg = pick8() & 0x3F;
	if (any || !(comp & NCSYNC_BR_REG))
		v->br.imm = htole32(pick32());
}

/* The fields of the opcode's layout past the events block. */
static void fill_ops(struct ncsync_record *v)
{
	unsigned int i;

	switch (v->head.opcode) {
	case NCSYNC_OPC_EVENT_SEMAPHORE:
		fill_lane1(v);
		break;
	case NCSYNC_OPC_BRANCH:
		fill_branch(v);
		break;
	case NCSYNC_OPC_DRAIN:
		v->drain.count = rnd() % 8 ? 1 : pick8();
		break;
	case NCSYNC_OPC_MOV32:
		v->mov.alu = pick8() & 0x0F;
		v->mov.dst = pick8() & 0x3F;
		v->mov.src = pick8() & 0x3F;
		v->mov.imm = htole32(pick32());
		break;
	case NCSYNC_OPC_GROUP_RESET:
		v->gr.clear_mode = 1 + rnd() % 2;
		v->gr.first = pick8();
		v->gr.last = pick8();
		for (i = 0; v->gr.clear_mode == NCSYNC_CLEAR_MASK && i < 8; i++)
			v->gr.mask[i] = htole32(pick32());
		break;
	case NCSYNC_OPC_POLL_SEM:
		v->poll.op = rnd() % 3;
		v->poll.dst = pick8() & 0x3F;
		v->poll.first = pick8();
		v->poll.count = 1 + rnd() % 17;
		v->poll.writeback = rnd() % 3;
		break;
	case NCSYNC_OPC_DMA:
		v->dma.src = htole64(pick64());
		v->dma.dst = htole64(pick64());
		v->dma.len = htole32(pick32());
		v->dma.latency_us = htole32(pick32() % 1100000);
		break;
	}
}

/* A random record of @opcode: its named fields only, all else zero. */
static void random_rec(uint8_t *rec, uint8_t opcode)
{
	struct ncsync_record v;

	memset(&v, 0, sizeof(v));
	v.head.opcode = opcode;
	v.head.wordlen = NCSYNC_RECORD_WORDLEN;
	v.head.ev_wait_mode = pick_mode(true);
	v.head.ev_wait_idx = pick8();
	v.head.ev_upd_mode = pick_mode(false);
	v.head.ev_upd_idx = pick8();
	v.head.ev_value = htole32(pick32());
	fill_ops(&v);
	memcpy(rec, &v, NCSYNC_RECORD_SIZE);
}

#define NEACH	400	/* accepted random records of each opcode */
#define NRANDOM	(NEACH * ARRAY_LEN(opcodes))
#define NTRIES	4000000

static uint8_t pool[NRANDOM][NCSYNC_RECORD_SIZE];

/* Random records of each opcode until NEACH of them are accepted. */
static unsigned int test_random(void)
{
	unsigned int i, n = 0, tries = 0;
	struct tally t = { 0 };

	for (i = 0; i < ARRAY_LEN(opcodes); i++)
		for (; t.per_opcode[opcodes[i]] < NEACH && tries < NTRIES;
		     tries++) {
			random_rec(pool[n], opcodes[i]);
			if (check_rec(&t, pool[n]))
				n++;
		}
	TAP_CHECK(n == NRANDOM && t.ok == n && !t.view,
		  "%u random records of %u round-trip (%u differ, %u typed views disagree), %u of each opcode",
		  t.ok, tries, t.differ, t.view, NEACH);
	return n;
}

/*
 * The accepted records mutated, one to four bytes at a time, anywhere
 * (header and reserved bytes too), until NRANDOM mutants are accepted;
 * each accepted mutant replaces its parent, so mutations add up.
 */
static void test_mutants(unsigned int n)
{
	uint8_t r[NCSYNC_RECORD_SIZE];
	unsigned int k, j, tries;
	struct tally t = { 0 };

	for (tries = 0; n && t.ok + t.differ < NRANDOM && tries < NTRIES;
	     tries++) {
		j = rnd() % n;
		memcpy(r, pool[j], sizeof(r));
		for (k = 1 + rnd() % 4; k; k--)
			r[rnd() % NCSYNC_RECORD_SIZE] = pick8();
		if (check_rec(&t, r))
			memcpy(pool[j], r, sizeof(r));
	}
	TAP_CHECK(t.ok == NRANDOM && !t.differ && !t.view,
		  "%u mutated records of %u round-trip (%u differ, %u typed views disagree)",
		  t.ok, tries, t.differ, t.view);
}

int main(void)
{
	test_builders();
	test_text_dir("examples", ".s");
	test_text_dir("fuzz/corpus/asm", ".asm");
	test_mutants(test_random());
	return tap_done();
}
