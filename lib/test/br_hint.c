// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * BranchHint (0xE1; Documentation/ncsync/records.rst, "BranchHint
 * (0xE1)"): "Inside every builder that can carry a predicate (add_evsem,
 * add_poll_sem, add_drain, add_halt, add_mov32_imm, add_br_hint_rel_imm,
 * ...) the tail is the identical idiom" (SYNC, "The embedded-events
 * predicate").  The builder with its events block; its relative target
 * written at finalization from a label and moved by the lowering as a
 * branch's is (a barrier lowered between, a function inlined twice); a
 * target outside the queue refused at finalization and by
 * ncsync_record_check_at() at the queue's edges; the text form, the
 * program's disassembly with labels; the checker runs it as a NoOp.
 */
#include <errno.h>

#include "asm_test.h"
#include "ncsync_optab.h"
#include "ncsync_record.h"

static int32_t hint_offset(const uint8_t *r)
{
	return (int32_t)(r[0x10] | r[0x11] << 8 | r[0x12] << 16 |
			 (uint32_t)r[0x13] << 24);
}

static uint64_t br_target(const uint8_t *r)
{
	uint64_t t = 0;
	int i;

	for (i = 7; i >= 0; i--)
		t = t << 8 | r[NCSYNC_REC_BR_TARGET + i];
	return t;
}

/* Only the opcode, the header, the events block and +0x10 - +0x13 set. */
static bool hint_bytes(const uint8_t *r, const struct ncsync_events *ev)
{
	unsigned int i;

	if (r[0] != NCSYNC_OPC_BR_HINT || r[1] != 0x10 || r[2] || r[3] ||
	    r[4] != ev->wait_mode || r[5] != ev->wait_idx ||
	    r[6] != ev->upd_mode || r[7] != ev->upd_idx ||
	    (r[8] | r[9] << 8 | r[10] << 16 | (uint32_t)r[11] << 24) !=
	    ev->value)
		return false;
	for (i = 0x0C; i < NCSYNC_RECORD_SIZE; i++)
		if ((i < 0x10 || i > 0x13) && r[i])
			return false;
	return true;
}

/* The builder: a label forward and backward, its events block kept. */
static void builder(void)
{
	struct ncsync_events ev = {
		.wait_mode = NCSYNC_WAIT_SEM_GE, .wait_idx = 3,
		.upd_mode = NCSYNC_UPD_SEM_INC | NCSYNC_UPD_COMPLETE,
		.upd_idx = 3, .value = 2,
	};
	struct ncsync_events none = { 0 };
	struct ncsync_program *p;
	struct ncsync_stream *s, *t;
	int back, fwd, other, i0, i1;

	if (ncsync_program_new(&p) ||
	    ncsync_program_stream(p, NCSYNC_ENGINE_PE, &s) ||
	    ncsync_program_stream(p, NCSYNC_ENGINE_ACT, &t))
		abort();
	back = ncsync_label_new(p);
	fwd = ncsync_label_new(p);
	other = ncsync_label_new(p);
	ncsync_add_nop(s, NULL);
	ncsync_label_bind(s, back);
	ncsync_add_nop(s, NULL);
	i0 = ncsync_add_br_hint_rel_imm(s, fwd, &ev);
	i1 = ncsync_add_br_hint_rel_imm(s, back, NULL);
	ncsync_add_nop(s, NULL);
	ncsync_add_nop(s, NULL);
	ncsync_label_bind(s, fwd);
	ncsync_add_exit(s, NULL);
	ncsync_label_bind(t, other);
	ncsync_add_nop(t, NULL);
	TAP_CHECK(i0 == 2 && i1 == 3, "ncsync_add_br_hint_rel_imm() appends");
	TAP_CHECK(ncsync_add_br_hint_rel_imm(NULL, fwd, NULL) == -EINVAL &&
		  ncsync_add_br_hint_rel_imm(s, 99, NULL) == -EINVAL &&
		  ncsync_add_br_hint_rel_imm(s, -1, NULL) == -EINVAL &&
		  ncsync_add_br_hint_rel_imm(s, other, NULL) == -EXDEV,
		  "a NULL stream, an unknown label: EINVAL; another stream's: EXDEV");
	ev.upd_mode = 0x0A;
	TAP_CHECK(ncsync_add_br_hint_rel_imm(s, fwd, &ev) == -EINVAL &&
		  ncsync_stream_count(s) == 7,
		  "an invalid events block is EINVAL, nothing appended");
	ev.upd_mode = NCSYNC_UPD_SEM_INC | NCSYNC_UPD_COMPLETE;
	TAP_CHECK(!ncsync_program_finalize(p), "the program finalizes");
	TAP_CHECK(hint_bytes(ncsync_stream_peek(s, 2), &ev) &&
		  hint_offset(ncsync_stream_peek(s, 2)) == 6 - 2,
		  "forward: +0x10 is the label's index less the hint's (4), the events block as given");
	TAP_CHECK(hint_bytes(ncsync_stream_peek(s, 3), &none) &&
		  hint_offset(ncsync_stream_peek(s, 3)) == 1 - 3,
		  "backward: -2, no events block");
	ncsync_program_free(p);
}

/*
 * A barrier lowered between a hint and its target, and a Call inlining a
 * function twice: each hint still reaches the record its twin branch
 * (same label) reaches.
 */
static const char relocated_src[] =
	"engine pool\n"
	"func f\n"
	"\tbr_hint done\n"
	"\tbr.eq.u32 r0, 3, done\n"
	"\tnop\n"
	"done:\tret\n"
	"endfunc\n"
	"\tbr_hint top\n"
	"top:\tnop\n"
	"\tbr_hint end wait sem[1] >= 1\n"
	"\tbr.eq.u32 r0, 1, end\n"
	"\tcall f\n"
	"\tcall f\n"
	"engine act\n"
	"\tnop\n"
	"barrier\n"
	"engine pool\n"
	"\tbr_hint top\n"
	"\tbr.eq.u32 r0, 2, top\n"
	"end:\texit\n";

/* Every hint of @s reaches the target of the branch after it. */
static unsigned int hints_follow_branches(const struct ncsync_stream *s,
					  unsigned int *nhints)
{
	uint32_t i, n = ncsync_stream_count(s);
	unsigned int bad = 0;

	*nhints = 0;
	for (i = 0; i + 1 < n; i++) {
		const uint8_t *h = ncsync_stream_peek(s, i);
		const uint8_t *b = ncsync_stream_peek(s, i + 1);

		if (h[0] != NCSYNC_OPC_BR_HINT || b[0] != NCSYNC_OPC_BRANCH)
			continue;
		(*nhints)++;
		if ((int64_t)i + hint_offset(h) != (int64_t)br_target(b)) {
			printf("# hint %u: %+d, its branch: %llu\n", i,
			       hint_offset(h),
			       (unsigned long long)br_target(b));
			bad++;
		}
	}
	return bad;
}

static void relocated(void)
{
	struct ncsync_program *p;
	struct ncsync_asm_error err;
	struct ncsync_stream *s;
	unsigned int n, bad;

	if (ncsync_asm(relocated_src, &p, &err)) {
		printf("# %u:%u: %s\n", err.line, err.col, err.msg);
		abort();
	}
	TAP_CHECK(!ncsync_program_finalize(p), "lowered and finalized");
	s = ncsync_program_find_stream(p, NCSYNC_ENGINE_POOL);
	bad = hints_follow_branches(s, &n);
	TAP_CHECK(!bad && n == 4,
		  "across a lowered barrier and two inlined copies, %u hints reach their branches' targets",
		  n);
	TAP_CHECK(ncsync_stream_peek(s, 0)[0] != NCSYNC_OPC_BR_HINT ||
		  hint_offset(ncsync_stream_peek(s, 0)) == 1,
		  "a hint to the next record");
	ncsync_program_free(p);
}

/* @text fails to finalize: its @index is refused for its target. */
static bool refused_at(const char *text, uint32_t index)
{
	struct ncsync_submit_error e;
	struct ncsync_asm_error err;
	struct ncsync_program *p;
	const char *msg;
	bool ok;

	if (ncsync_asm(text, &p, &err)) {
		printf("# %u:%u: %s\n", err.line, err.col, err.msg);
		return false;
	}
	ok = ncsync_program_finalize(p) == -EINVAL &&
	     !ncsync_program_error(p, &e) && e.index == index &&
	     e.reason == NCSYNC_REC_BAD_TARGET;
	msg = ncsync_program_lower_error(p);
	printf("# %s\n", msg ? msg : "(no message)");
	ok = ok && msg && strstr(msg, "hint target outside the queue");
	ncsync_program_free(p);
	return ok;
}

static void outside(void)
{
	struct ncsync_insn in;
	uint8_t r[NCSYNC_RECORD_SIZE];
	unsigned int i, n = 6, ok = 0;

	TAP_CHECK(refused_at("engine pool\n\tnop\n\tbr_hint .+1\n", 1),
		  "finalize: a hint past the last record");
	TAP_CHECK(refused_at("engine pool\n\tbr_hint .-1\n\tnop\n", 0),
		  "finalize: a hint before the first record");
	TAP_CHECK(refused_at("engine pool\n\tnop\n\tbr_hint .+4\n\tnop\n", 1),
		  "finalize: a hint of an offset the queue has but not there");
	/* At every index of a queue of n: the edges, both ways. */
	t_rec(r, NCSYNC_OPC_BR_HINT);
	for (i = 0; i < n; i++) {
		t_put32(r + 0x10, n - 1 - i);
		ok += !ncsync_record_decode(r, n, 0, &in) &&
		      !ncsync_record_check_at(&in, i, n);
		t_put32(r + 0x10, n - i);
		ok += ncsync_record_decode(r, n, 0, &in) ==
			      NCSYNC_REC_BAD_TARGET ||
		      ncsync_record_check_at(&in, i, n) ==
			      NCSYNC_REC_BAD_TARGET;
		t_put32(r + 0x10, -(int32_t)i);
		ok += !ncsync_record_decode(r, n, 0, &in) &&
		      !ncsync_record_check_at(&in, i, n);
		t_put32(r + 0x10, -(int32_t)i - 1);
		ok += ncsync_record_decode(r, n, 0, &in) ==
			      NCSYNC_REC_BAD_TARGET ||
		      ncsync_record_check_at(&in, i, n) ==
			      NCSYNC_REC_BAD_TARGET;
	}
	TAP_CHECK(ok == 4 * n,
		  "ncsync_record_check_at(): the first and last record reachable from every index, no further");
	t_put32(r + 0x10, n);
	TAP_CHECK(ncsync_record_decode(r, n, 0, &in) == NCSYNC_REC_BAD_TARGET,
		  "the decoder alone refuses an offset no index reaches");
}

/* The text form: a program's disassembly prints labels and reassembles. */
static void text(void)
{
	static const char src[] =
		"engine pool\n"
		"\tnop\n"
		"a:\tbr_hint b wait sem[2] == 1\n"
		"\tbr_hint a\n"
		"b:\tbr_hint .+0\n"
		"\tbr_hint .-3\n";
	struct ncsync_program *p, *q;
	struct ncsync_asm_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (ncsync_asm(src, &p, &err) || ncsync_program_finalize(p))
		abort();
	f = open_memstream(&buf, &len);
	if (!f || ncsync_disasm_program(p, f))
		abort();
	fclose(f);
	printf("%s", buf);
	TAP_CHECK(strstr(buf, "L1:\n\tbr_hint L3 wait sem[2] == 1\n") &&
		  strstr(buf, "\tbr_hint L3 wait sem[2] == 1\n\tbr_hint L1\n") &&
		  strstr(buf, "L3:\n\tbr_hint L3\n\tbr_hint L1\n"),
		  "the program's hints print their targets as labels");
	ret = ncsync_asm(buf, &q, &err);
	TAP_CHECK(!ret && !ncsync_program_finalize(q) && t_same_program(p, q),
		  "and assemble back to the same records");
	if (!ret)
		ncsync_program_free(q);
	ncsync_program_free(p);
	free(buf);
}

/* A hint checks as the NoOp with its events block: same states, verdict. */
static bool check_as(const char *text, uint64_t *states,
		     enum ncsync_check_verdict *v)
{
	struct ncsync_check_result *res;
	struct ncsync_check_opts o;
	struct ncsync_asm_error err;
	struct ncsync_program *p;

	ncsync_check_opts_init(&o);
	if (ncsync_asm(text, &p, &err) || ncsync_program_finalize(p) ||
	    ncsync_check(p, &o, &res))
		return false;
	*states = ncsync_check_states(res);
	*v = ncsync_check_verdict(res);
	ncsync_check_free(res);
	ncsync_program_free(p);
	return true;
}

static void checker(void)
{
	static const char hint[] =
		"engine pool\n\tbr_hint x then sem[1]++\nx:\tnop wait sem[2] >= 1\n"
		"engine act\n\tbr_hint y wait sem[1] >= 1\ny:\tnop then sem[2]++\n";
	static const char nop[] =
		"engine pool\n\tnop then sem[1]++\n\tnop wait sem[2] >= 1\n"
		"engine act\n\tnop wait sem[1] >= 1\n\tnop then sem[2]++\n";
	static const char stuck[] =
		"engine pool\n\tbr_hint x wait sem[1] >= 1\nx:\texit\n";
	enum ncsync_check_verdict vh, vn;
	uint64_t sh, sn;

	TAP_CHECK(check_as(hint, &sh, &vh) && check_as(nop, &sn, &vn) &&
		  vh == NCSYNC_CHECK_SAFE && vn == vh && sh == sn,
		  "the checker runs a hint as a NoOp: safe, %llu states as the NoOps' %llu",
		  (unsigned long long)sh, (unsigned long long)sn);
	TAP_CHECK(check_as(stuck, &sh, &vh) && vh == NCSYNC_CHECK_DEFECT,
		  "a hint's wait nothing posts is a defect");
}

int main(void)
{
	builder();
	relocated();
	outside();
	text();
	checker();
	return tap_done();
}
