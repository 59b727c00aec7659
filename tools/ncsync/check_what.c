// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): what a defect of a check is, in the source program's terms:
 * the headline of each kind (KIND: ENGINE waits for WHAT (line N), why)
 * and the barrier a deadlock or an imbalance waits in, with the engine
 * that misses it and the line of the branch that jumps over it
 * (ncsync_program_barrier_short()).  A lowered barrier is "barrier (line
 * N)", never its counters or event bits.  Record numbers stay the words
 * of a schedule (replay reads them) and come second.
 */
#include <string.h>

#include "check.h"
#include "print.h"

void check_where(const struct checking *ck, unsigned int core,
		 uint8_t engine, uint32_t record, char *buf, size_t len)
{
	source_where(check_prog(ck, core), engine, record, buf, len);
}

/* The name of @engine of the core at @core: "pool", or "1:pool". */
static const char *who(const struct checking *ck, unsigned int core,
		       uint8_t engine, char *buf, size_t len)
{
	if (!ck->multi)
		return engine_label(engine);
	snprintf(buf, len, "%u:%s", core, engine_label(engine));
	return buf;
}

/* The engine of @st that @d is about, or NULL. */
static const struct ncsync_check_engine *
defect_engine(const struct ncsync_check_defect *d)
{
	uint32_t i;

	for (i = 0; i < d->state.nengines; i++)
		if (d->state.engines[i].engine == d->engine)
			return &d->state.engines[i];
	return NULL;
}

/* "waits for sem[2] > 0 (line 30)", or "waits in barrier (line 14)". */
static void what_wait(const struct checking *ck,
		      const struct ncsync_check_defect *d, char *buf,
		      size_t len)
{
	const struct ncsync_check_engine *e = defect_engine(d);
	char where[40];

	check_where(ck, d->core, d->engine, d->record, where, sizeof(where));
	if (!e || !check_engine_wait(ck, d->core, &d->state, e, buf, len))
		snprintf(buf, len, "waits (%s)", where);
}

/* An unposted wait's values: the first 16 and how many. */
static void print_values(const struct ncsync_check_defect *d)
{
	uint32_t i;

	if (!d->values) {
		printf(", nothing posts it");
		return;
	}
	printf(", never true: what it waits on takes only");
	for (i = 0; i < d->nvalues && i < 16; i++)
		printf("%s %d", i ? "," : "", d->values[i]);
	if (d->nvalues > 16)
		printf(", ... %u values", d->nvalues);
}

/* ", which dve skips (line 11)", for a barrier left short. */
static void print_skipper(const struct checking *ck,
			  const struct ncsync_barrier_short *b)
{
	const struct ncsync_barrier_miss *m = &b->missing[0];
	char name[24];

	printf(", which %s", who(ck, b->core, m->engine, name, sizeof(name)));
	if (m->branch >= 0 && m->line)
		printf(" skips (line %u)", m->line);
	else if (m->ended)
		printf(" ended without reaching");
	else
		printf(" never reaches");
}

/* The update of the last step of @d (event, overflow), or NULL. */
static const struct ncsync_update_view *
last_update(const struct checking *ck, const struct ncsync_check_defect *d,
	    struct ncsync_record_view *v)
{
	const struct ncsync_check_step *s;
	unsigned int lane;

	if (!d->nsteps)
		return NULL;
	s = &d->steps[d->nsteps - 1];
	if (!check_view(ck, s->core, s->engine, s->record, v))
		return NULL;
	lane = s->part == NCSYNC_PART_UPDATE1 ||
	       s->part == NCSYNC_PART_WAIT1;
	if (d->kind == NCSYNC_DEFECT_EVENT &&
	    v->update[lane].bank != NCSYNC_BANK_EVENT)
		lane = !lane;
	return v->update[lane].active ? &v->update[lane] : NULL;
}

/* "sets ev[3] while it is set", "adds to sem[3] past 2^31 - 1". */
static void print_update(const struct checking *ck,
			 const struct ncsync_check_defect *d)
{
	const struct ncsync_update_view *u;
	struct ncsync_record_view v;

	u = last_update(ck, d, &v);
	if (!u)
		printf(" updates");
	else if (d->kind == NCSYNC_DEFECT_EVENT)
		printf(" %s ev[%u] while it is %s",
		       u->op == NCSYNC_UPDATE_EVENT_SET ? "sets" : "clears",
		       u->index,
		       u->op == NCSYNC_UPDATE_EVENT_SET ? "set" : "clear");
	else if (u->op == NCSYNC_UPDATE_SEM_SUB)
		printf(" subtracts from sem[%u] below -2^31", u->index);
	else
		printf(" adds to sem[%u] past 2^31 - 1", u->index);
}

static void print_race(const struct checking *ck,
		       const struct ncsync_check_defect *d)
{
	char w1[40], w2[40], name[24];
	const char *other;

	check_where(ck, d->core, d->engine, d->record, w1, sizeof(w1));
	check_where(ck, d->other.core, d->other.engine, d->other.record, w2,
		    sizeof(w2));
	printf("%s's copy (%s) overlaps ",
	       who(ck, d->core, d->engine, name, sizeof(name)), w1);
	other = who(ck, d->other.core, d->other.engine, name, sizeof(name));
	printf("%s's copy in flight (%s, %s#%u@%u)", other, w2, other,
	       d->other.copy, d->other.record);
}

void check_print_what(const struct checking *ck,
		      const struct ncsync_check_defect *d)
{
	char name[24], wait[96], where[40];

	printf("%s: ", ncsync_defect_name(d->kind));
	switch (d->kind) {
	case NCSYNC_DEFECT_DMA_RACE:
		print_race(ck, d);
		return;
	case NCSYNC_DEFECT_EVENT:
	case NCSYNC_DEFECT_OVERFLOW:
		check_where(ck, d->core, d->engine, d->record, where,
			    sizeof(where));
		printf("%s", who(ck, d->core, d->engine, name, sizeof(name)));
		print_update(ck, d);
		printf(" (%s)", where);
		return;
	default:
		break;
	}
	what_wait(ck, d, wait, sizeof(wait));
	printf("%s %s", who(ck, d->core, d->engine, name, sizeof(name)), wait);
	if (d->kind == NCSYNC_DEFECT_UNPOSTED_WAIT)
		print_values(d);
	else if (d->barrier && d->barrier->nmissing)
		print_skipper(ck, d->barrier);
	else
		printf(", no step can run");
}
