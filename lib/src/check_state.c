// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the state of ncsync_check(), the bottom of the checker's
 * files (Documentation/ncsync/check.rst, "The checker's files"): a program
 * decoded for the executor (struct ck_prog: its cores, its engines'
 * records, which actors touch which semaphore and event, the dense index
 * of the semaphores it uses) and the operations on a state that do not
 * step it (copy, hash).  It calls no other file of the checker.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ncsync_exec.h"
#include "ncsync_optab.h"

const struct ncsync_insn *ck_insn(const struct ck_prog *cp,
					 const struct ck_state *st,
					 unsigned int e)
{
	return &cp->insns[e][st->eng[e].pc];
}

bool ck_ended(const struct ck_state *st, unsigned int e)
{
	return st->eng[e].status != CK_RUNNING;
}

unsigned int ck_land_core(const struct ck_prog *cp, unsigned int e,
			  const struct ncsync_insn *in)
{
	return in->dma.flags & NCSYNC_DMA_F_PEER ? cp->bank_of[in->dma.peer] :
						   cp->core[e];
}

/* Note that @users touch semaphore or event @index of core @c, bank @bank. */
static void ck_use(struct ck_prog *cp, unsigned int c, uint8_t bank,
		   unsigned int index, uint32_t users)
{
	if (bank == NCSYNC_BANK_SEM)
		cp->sem_users[CK_G(c, index)] |= users;
	else
		cp->ev_users[CK_G(c, index)] |= users;
}

/* The footprint of one record of slot @e in the users masks. */
static void ck_use_insn(struct ck_prog *cp, const struct ncsync_insn *in,
			unsigned int e)
{
	unsigned int l, i, c = cp->core[e];
	struct ncsync_footprint fp;

	for (l = 0; l < in->nlanes; l++) {
		const struct ncsync_lane *ln = &in->lane[l];

		if (ln->wait.active)
			ck_use(cp, c, ln->wait.bank, ln->wait.index,
			       CK_ACTOR_ENG(e));
		if (ln->upd.active && ln->upd.on_land)
			ck_use(cp, ck_land_core(cp, e, in), ln->upd.bank,
			       ln->upd.index, CK_ACTOR_DMA(e));
		else if (ln->upd.active)
			ck_use(cp, c, ln->upd.bank, ln->upd.index,
			       CK_ACTOR_ENG(e));
	}
	/* The op's own effect: the opcode table's footprint. */
	ncsync_op_footprint(in, &fp);
	for (i = 0; i < NCSYNC_NUM_SEMS; i++)
		if (ncsync_footprint_sem(fp.sem_read, i) ||
		    ncsync_footprint_sem(fp.sem_write, i))
			cp->sem_users[CK_G(c, i)] |= CK_ACTOR_ENG(e);
}

/*
 * The semaphores and events the state hash covers, of every core, and the
 * dense index of those semaphores.
 */
static void ck_used(struct ck_prog *cp, const int32_t *sems,
		    const uint8_t *events)
{
	unsigned int c, i;

	for (c = 0; c < cp->ncores; c++)
		for (i = 0; i < NCSYNC_NUM_SEMS; i++)
			if (cp->sem_users[CK_G(c, i)] || (sems && sems[i]))
				cp->sem_used[cp->nsem_used++] = CK_G(c, i);
	for (c = 0; c < cp->ncores; c++)
		for (i = 0; i < NCSYNC_NUM_EVENTS; i++)
			if (cp->ev_users[CK_G(c, i)] || (events && events[i]))
				cp->ev_used[cp->nev_used++] = CK_G(c, i);
	memset(cp->sem_dense, 0xff, sizeof(cp->sem_dense));
	for (i = 0; i < cp->nsem_used; i++)
		cp->sem_dense[cp->sem_used[i]] = i;
	memset(cp->ev_dense, 0xff, sizeof(cp->ev_dense));
	for (i = 0; i < cp->nev_used; i++)
		cp->ev_dense[cp->ev_used[i]] = cp->nsem_used + i;
	cp->nacc = cp->nsem_used + cp->nev_used;
}

/* Decode stream @s into slot @e; -EINVAL if the validator refuses it. */
static int ck_decode(struct ck_prog *cp, const struct ncsync_stream *s,
		     unsigned int e)
{
	uint32_t i;

	cp->engine[e] = s->engine;
	cp->count[e] = s->count;
	cp->insns[e] = calloc(s->count ? s->count : 1, sizeof(**cp->insns));
	if (!cp->insns[e])
		return -ENOMEM;
	for (i = 0; i < s->count; i++)
		if (!ncsync_stream_decode(s, i, &cp->insns[e][i]))
			return -EINVAL;
	return 0;
}

/* A core at position @pos: the one there, or a new one; -E2BIG. */
static int ck_add_core(struct ck_prog *cp, unsigned int pos)
{
	if (cp->bank_of[pos] != 0xFF)
		return cp->bank_of[pos];
	if (cp->ncores == CK_MAX_CORES)
		return -E2BIG;
	cp->pos[cp->ncores] = pos;
	cp->bank_of[pos] = cp->ncores;
	return cp->ncores++;
}

/* Part @prog at position @pos: a core and a slot for each engine. */
static int ck_add_part(struct ck_prog *cp, unsigned int pos,
		       const struct ncsync_program *prog)
{
	unsigned int e;
	int c, ret;

	if (!prog || !prog->finalized || pos >= NCSYNC_MAX_LNC ||
	    cp->bank_of[pos] != 0xFF)
		return -EINVAL;
	c = ck_add_core(cp, pos);
	if (c < 0)
		return c;
	cp->prog[c] = prog;
	cp->nparts++;
	for (e = 0; e < NCSYNC_MAX_ENGINE_ID; e++) {
		if (!prog->streams[e])
			continue;
		if (cp->n == CK_MAX_SLOTS)
			return -E2BIG;
		cp->core[cp->n] = c;
		ret = ck_decode(cp, prog->streams[e], cp->n++);
		if (ret)
			return ret;
	}
	return 0;
}

/* The peers the DMA records land on that no part runs on; the masks. */
static int ck_add_peers(struct ck_prog *cp)
{
	unsigned int e;
	uint32_t i;
	int ret;

	for (e = 0; e < cp->n; e++) {
		for (i = 0; i < cp->count[e]; i++) {
			const struct ncsync_insn *in = &cp->insns[e][i];

			if (!ncsync_op_has(in->opcode, NCSYNC_OPF_DMA) ||
			    !(in->dma.flags & NCSYNC_DMA_F_PEER))
				continue;
			ret = ck_add_core(cp, in->dma.peer);
			if (ret < 0)
				return ret;
		}
	}
	for (e = 0; e < cp->n; e++)
		for (i = 0; i < cp->count[e]; i++)
			ck_use_insn(cp, &cp->insns[e][i], e);
	return 0;
}

static int ck_prog_parts(struct ck_prog *cp,
			 const struct ncsync_asm_part *parts,
			 unsigned int nparts)
{
	unsigned int i;
	int ret;

	if (!parts || !nparts)
		return -EINVAL;
	for (i = 0; i < nparts; i++) {
		ret = ck_add_part(cp, parts[i].core, parts[i].prog);
		if (ret)
			return ret;
	}
	ret = ck_add_peers(cp);
	cp->state_size = offsetof(struct ck_state, bank) +
			 cp->ncores * sizeof(struct ck_bank);
	return ret;
}

int ck_prog_init(struct ck_prog *cp, const struct ncsync_asm_part *parts,
		 unsigned int nparts, bool fifo, const int32_t *sems,
		 const uint8_t *events)
{
	int ret;

	memset(cp, 0, sizeof(*cp));
	memset(cp->bank_of, 0xFF, sizeof(cp->bank_of));
	cp->fifo = fifo;
	ret = ck_prog_parts(cp, parts, nparts);
	if (!ret) {
		ck_used(cp, sems, events);
		ret = cp->n ? 0 : -EINVAL;
	}
	if (ret)
		ck_prog_fini(cp);
	return ret;
}

void ck_prog_fini(struct ck_prog *cp)
{
	unsigned int e;

	for (e = 0; e < CK_MAX_SLOTS; e++)
		free(cp->insns[e]);
	memset(cp->insns, 0, sizeof(cp->insns));
}

/*
 * Copy what a state uses: its copies in flight, the program's engines,
 * the cores' banks (a search copies a state at every step).
 */
void ck_state_copy(const struct ck_prog *cp, struct ck_state *dst,
		   const struct ck_state *src)
{
	dst->ncopies = src->ncopies;
	memcpy(dst->copies, src->copies, src->ncopies * sizeof(src->copies[0]));
	memcpy(dst->eng, src->eng, cp->n * sizeof(src->eng[0]));
	memcpy(dst->bank, src->bank, cp->ncores * sizeof(src->bank[0]));
}

/* splitmix64's finalizer: a bijection with full avalanche. */
static uint64_t ck_fmix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

void ck_mix(uint64_t h[2], uint64_t v)
{
	h[0] = (h[0] ^ ck_fmix(v ^ 0x9E3779B97F4A7C15ULL)) *
	       0xFF51AFD7ED558CCDULL;
	h[1] = ((h[1] << 23 | h[1] >> 41) + ck_fmix(v + 0xC4CEB9FE1A85EC53ULL)) *
	       0x2545F4914F6CDD1DULL;
}

static void ck_hash_eng(uint64_t h[2], const struct ck_eng *x)
{
	unsigned int r;

	ck_mix(h, (uint64_t)x->pc << 32 | x->next);
	ck_mix(h, (uint64_t)x->sub << 24 | x->status << 16 | x->ending << 8 |
		  x->inflight);
	for (r = 0; r < NCSYNC_NUM_REGS; r += 2)
		ck_mix(h, (uint64_t)x->regs[r] << 32 | x->regs[r + 1]);
}

/*
 * Mix the copies in flight into @h, their issuers renamed by @inv: in the
 * order they are kept, which without --dma-fifo is canonical (check_exec.c)
 * and stays so after a renaming once sorted again by issuer and record.
 */
static void ck_hash_copies(const struct ck_prog *cp,
			   const struct ck_state *st, const uint8_t *inv,
			   uint64_t h[2])
{
	uint64_t key[CK_MAX_COPIES], k;
	unsigned int i, j;

	for (i = 0; i < st->ncopies; i++) {
		k = (uint64_t)(inv ? inv[st->copies[i].eng] :
				     st->copies[i].eng) << 32 |
		    st->copies[i].rec;
		for (j = i; inv && !cp->fifo && j && key[j - 1] > k; j--)
			key[j] = key[j - 1];
		key[j] = k;
	}
	for (i = 0; i < st->ncopies; i++)
		ck_mix(h, key[i]);
	ck_mix(h, st->ncopies);
}

/*
 * The 128-bit hash of what the state's future depends on: the semaphores
 * and events the program names, the engines, the copies in flight (not
 * the copy numbers, which only name them).
 */
void ck_hash_order(const struct ck_prog *cp, const struct ck_state *st,
		   const uint8_t *order, uint64_t h[2])
{
	uint8_t inv[CK_MAX_SLOTS];
	unsigned int i;

	for (i = 0; i < cp->n; i++)
		inv[order ? order[i] : i] = i;

	h[0] = 0x6A09E667F3BCC908ULL;
	h[1] = 0xBB67AE8584CAA73BULL;
	for (i = 0; i < cp->nsem_used; i++) {
		unsigned int g = cp->sem_used[i];

		ck_mix(h, (uint64_t)(uint32_t)st->bank[g / NCSYNC_NUM_SEMS]
				.sems[g % NCSYNC_NUM_SEMS] | (uint64_t)i << 32);
	}
	for (i = 0; i < cp->nev_used; i++) {
		unsigned int g = cp->ev_used[i];

		ck_mix(h, st->bank[g / NCSYNC_NUM_EVENTS]
				.events[g % NCSYNC_NUM_EVENTS] |
			  (uint64_t)i << 32 | 1ULL << 63);
	}
	for (i = 0; i < cp->n; i++)
		ck_hash_eng(h, &st->eng[order ? order[i] : i]);
	ck_hash_copies(cp, st, order ? inv : NULL, h);
	h[0] = ck_fmix(h[0] ^ h[1]);
	h[1] = ck_fmix(h[1] + h[0]);
}

void ck_hash(const struct ck_prog *cp, const struct ck_state *st,
	     uint64_t h[2])
{
	ck_hash_order(cp, st, NULL, h);
}
