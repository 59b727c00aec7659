// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the public decoded view of a record (struct
 * ncsync_record_view), filled from the one decoder the kernel uses too
 * (common/ncsync_record.c), so that no caller reads byte offsets.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "ncsync_optab.h"

static void wait_view(const struct ncsync_lane *l, struct ncsync_wait_view *w)
{
	if (!l->wait.active)
		return;
	w->active = 1;
	w->bank = l->wait.bank;
	w->index = l->wait.index;
	w->mode = l->wait_mode;
	w->reg = l->wait.reg;
	w->value = l->wait.value;
}

static void update_view(const struct ncsync_lane *l,
			struct ncsync_update_view *u)
{
	static const uint8_t sem_kind[] = {
		[NCSYNC_SEM_UPD_SET] = NCSYNC_UPDATE_SEM_SET,
		[NCSYNC_SEM_UPD_ADD] = NCSYNC_UPDATE_SEM_ADD,
		[NCSYNC_SEM_UPD_SUB] = NCSYNC_UPDATE_SEM_SUB,
	};

	if (!l->upd.active)
		return;
	u->active = 1;
	u->bank = l->upd.bank;
	u->index = l->upd.index;
	if (l->upd.bank == NCSYNC_BANK_EVENT)
		u->op = l->upd.set ? NCSYNC_UPDATE_EVENT_SET :
				     NCSYNC_UPDATE_EVENT_CLEAR;
	else
		u->op = sem_kind[l->upd.op];
	u->reg = l->upd.reg;
	u->on_land = l->upd.on_land;
	u->paired = l->paired;
	u->operand = l->upd.operand;
}

/**
 * ncsync_record_view() - decode a record into what it does.
 * @rec: NCSYNC_RECORD_SIZE bytes.
 * @nrecords: records in its queue: a branch target must be below it.
 * @v: out: the view; all zero but @reason when the record is refused.
 *
 * The record is validated as the kernel validates it at submission,
 * except that a DMA range is checked against the largest device memory
 * (the device's own size is the kernel's to check).
 *
 * Return: 0; -EINVAL when @rec or @v is NULL, or when the record is
 * refused (@v->reason says why, ncsync_reason_name() names it).
 */
int ncsync_record_view(const uint8_t *rec, uint32_t nrecords,
		       struct ncsync_record_view *v)
{
	struct ncsync_insn in;
	unsigned int i;
	uint32_t r;

	if (!rec || !v)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	r = ncsync_record_decode(rec, nrecords, UINT64_MAX, &in);
	if (r) {
		v->reason = r;
		return -EINVAL;
	}
	v->opcode = in.opcode;
	v->nlanes = in.nlanes;
	for (i = 0; i < in.nlanes; i++) {
		wait_view(&in.lane[i], &v->wait[i]);
		update_view(&in.lane[i], &v->update[i]);
	}
	v->target = ncsync_op_has(in.opcode, NCSYNC_OPF_FLOW) ?
		    (int64_t)in.br.target : -1;
	if (ncsync_op_has(in.opcode, NCSYNC_OPF_DMA)) {
		v->dma_src = in.dma.src;
		v->dma_dst = in.dma.dst;
		v->dma_len = in.dma.len;
		v->dma_latency_us = in.dma.latency_us;
	}
	return 0;
}

static const char *const update_kind_names[] = {
	[NCSYNC_UPDATE_SEM_SET] = "sem_set",
	[NCSYNC_UPDATE_SEM_ADD] = "sem_add",
	[NCSYNC_UPDATE_SEM_SUB] = "sem_sub",
	[NCSYNC_UPDATE_EVENT_SET] = "event_set",
	[NCSYNC_UPDATE_EVENT_CLEAR] = "event_clear",
};

/**
 * ncsync_update_kind_name() - the name of an update's operation.
 * @kind: enum ncsync_update_kind (struct ncsync_update_view.op).
 *
 * Return: "sem_set", "sem_add", "sem_sub", "event_set" or "event_clear";
 * "unknown" for another value.
 */
const char *ncsync_update_kind_name(uint8_t kind)
{
	if (kind >= sizeof(update_kind_names) / sizeof(update_kind_names[0]))
		return "unknown";
	return update_kind_names[kind];
}
