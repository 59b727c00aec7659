// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): printing.  A small streaming JSON writer for -j, compact
 * like ip -j: members take a key inside an object and NULL inside an
 * array.  And what more than one command prints, in text and in JSON:
 * names, waits, banks, counters, the programs of a core, and programs.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "print.h"

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

/* "sem" or "event": a bank as the JSON vocabulary names it. */
const char *bank_label(uint8_t bank)
{
	return bank == NCSYNC_BANK_EVENT ? "event" : "sem";
}

const char *engine_label(uint8_t engine)
{
	const char *n = ncsync_engine_name(engine);

	return n ? n : "?";
}

/* "sem[3] >= 5", "ev[2] set", "drain" */
void describe_wait(char *buf, size_t len, uint8_t kind, uint8_t mode,
		   uint8_t index, int32_t threshold)
{
	switch (kind) {
	case NCSYNC_BLOCK_SEM:
		snprintf(buf, len, "sem[%u] %s %d", index,
			 ncsync_wait_mode_name(mode), threshold);
		break;
	case NCSYNC_BLOCK_EVENT:
		snprintf(buf, len, "ev[%u] %s", index,
			 ncsync_wait_mode_name(mode));
		break;
	case NCSYNC_BLOCK_DRAIN:
		snprintf(buf, len, "drain");
		break;
	case NCSYNC_BLOCK_DMA_FULL:
		snprintf(buf, len, "a DMA slot");
		break;
	default:
		snprintf(buf, len, "nothing");
		break;
	}
}

void source_where(struct ncsync_program *prog, uint8_t engine,
		  uint32_t record, char *buf, size_t len)
{
	uint32_t line = ncsync_stream_line(prog ?
			ncsync_program_find_stream(prog, engine) : NULL,
			record);

	if (line)
		snprintf(buf, len, "line %u", line);
	else
		snprintf(buf, len, "record %u", record);
}

void refused_record(char *buf, size_t len, struct ncsync_program *prog,
		    const struct ncsync_submit_error *e)
{
	uint32_t line = ncsync_stream_line(prog ?
			ncsync_program_find_stream(prog, e->engine) : NULL,
			e->index);
	int n = 0;

	if (line)
		n = snprintf(buf, len, "line %u: ", line);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "engine %s record %u",
			 engine_label(e->engine), e->index);
}

void source_wait(char *buf, size_t len, struct ncsync_program *prog,
		 uint8_t engine, uint32_t pc, uint8_t kind, uint8_t mode,
		 uint8_t index, int32_t threshold)
{
	char where[32], what[64];
	bool owned = false;

	source_where(prog, engine, pc, where, sizeof(where));
	if (kind == NCSYNC_BLOCK_SEM)
		owned = ncsync_program_barrier_owns(prog, NCSYNC_BANK_SEM,
						    index);
	else if (kind == NCSYNC_BLOCK_EVENT)
		owned = ncsync_program_barrier_owns(prog, NCSYNC_BANK_EVENT,
						    index);
	if (owned) {
		snprintf(buf, len, "waits in barrier (%s)", where);
		return;
	}
	describe_wait(what, sizeof(what), kind, mode, index, threshold);
	snprintf(buf, len, "waits for %s (%s)", what, where);
}

/* "pool", or across cores "1:pool". */
static const char *core_engine(bool multi, unsigned int core, uint8_t engine,
			       char *buf, size_t len)
{
	if (!multi)
		return engine_label(engine);
	snprintf(buf, len, "%u:%s", core, engine_label(engine));
	return buf;
}

/* Whether record @r of @engine of @prog is an Exit. */
static bool is_exit(struct ncsync_program *prog, uint8_t engine, int64_t r)
{
	struct ncsync_stream *s = prog ? ncsync_program_find_stream(prog,
								      engine) :
					 NULL;
	struct ncsync_record_view v;

	return s && r >= 0 && r < ncsync_stream_count(s) &&
	       !ncsync_record_view(ncsync_stream_peek(s, r), UINT32_MAX, &v) &&
	       v.opcode == NCSYNC_OPC_EXIT;
}

void print_barrier_short(bool multi, struct ncsync_program *prog,
			 const struct ncsync_barrier_short *b,
			 const char *indent)
{
	const struct ncsync_barrier_miss *m;
	char name[24];
	unsigned int i;

	printf("%sbarrier (line %u):", indent, b->line);
	for (i = 0; i < b->nwaiting; i++)
		printf("%s %s", i ? "," : "",
		       core_engine(multi, b->core, b->waiting[i], name,
				   sizeof(name)));
	printf(" wait%s", b->nwaiting == 1 ? "s" : "");
	for (i = 0; i < b->nmissing; i++) {
		m = &b->missing[i];
		printf("; %s %s", core_engine(multi, b->core, m->engine, name,
					      sizeof(name)),
		       m->ended ? "ended" : "waits elsewhere");
		if (m->branch >= 0)
			printf(": its %s at line %u (%s@%lld) skips it",
			       is_exit(prog, m->engine, m->branch) ?
			       "exit" : "branch", m->line,
			       engine_label(m->engine), (long long)m->branch);
	}
	putchar('\n');
}

void json_barrier_short(bool multi, const struct ncsync_barrier_short *b)
{
	const struct ncsync_barrier_miss *m;
	unsigned int i;

	j_obj("barrier");
	if (multi)
		j_uint("core", b->core);
	j_uint("line", b->line);
	j_arr("waiting");
	for (i = 0; i < b->nwaiting; i++) {
		j_obj(NULL);
		j_str("engine", engine_label(b->waiting[i]));
		j_end();
	}
	j_end();
	j_arr("missing");
	for (i = 0; i < b->nmissing; i++) {
		m = &b->missing[i];
		j_obj(NULL);
		j_str("engine", engine_label(m->engine));
		j_bool("ended", m->ended);
		if (m->branch >= 0) {
			j_uint("record", m->branch);
			j_uint("line", m->line);
		}
		j_end();
	}
	j_end();
	j_end();
}

/* "[3]=1 [240]=16 ..." wrapped at 78 columns. */
void print_sem_list(FILE *f, const char *indent,
		    const struct ncsync_sem_value *sems, unsigned int n)
{
	unsigned int i, col = 0;
	char item[32];

	if (!n) {
		fprintf(f, "%snone\n", indent);
		return;
	}
	for (i = 0; i < n; i++) {
		int len = snprintf(item, sizeof(item), "[%u]=%d",
				   sems[i].index, sems[i].value);

		if (col && col + 1 + len > 78 - strlen(indent)) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%s%s", col ? " " : indent, item);
		col += len + (col ? 1 : 0);
	}
	fputc('\n', f);
}

/* Set events as "3 7-9 241" wrapped at 78 columns. */
void print_event_list(const char *indent, const bool *ev)
{
	unsigned int i = 0, col = 0, n = 0, first;
	char item[16];

	while (i < NCSYNC_NUM_EVENTS) {
		if (!ev[i]) {
			i++;
			continue;
		}
		first = i;
		while (i + 1 < NCSYNC_NUM_EVENTS && ev[i + 1])
			i++;
		if (i == first)
			snprintf(item, sizeof(item), "%u", first);
		else
			snprintf(item, sizeof(item), "%u-%u", first, i);
		if (col && col + 1 + strlen(item) > 78 - strlen(indent)) {
			putchar('\n');
			col = 0;
		}
		printf("%s%s", col ? " " : indent, item);
		col += strlen(item) + (col ? 1 : 0);
		n++;
		i++;
	}
	printf("%s\n", n ? "" : "none");
}

void print_progs(const struct nl_core *nc, const char *indent)
{
	unsigned int i;

	if (!nc->nprogs) {
		printf("%snone\n", indent);
		return;
	}
	for (i = 0; i < nc->nprogs; i++)
		print_nl_prog(&nc->progs[i], indent);
	if (nc->progs_truncated)
		printf("%s... (more programs not shown)\n", indent);
}

/* "sems": each {index, value}; the non-zero ones, or every one with @all. */
static void json_sems(const int32_t *sems, bool all)
{
	unsigned int i;

	j_arr("sems");
	for (i = 0; i < NCSYNC_NUM_SEMS; i++) {
		if (!all && !sems[i])
			continue;
		j_obj(NULL);
		j_uint("index", i);
		j_int("value", sems[i]);
		j_end();
	}
	j_end();
}

/* The non-zero semaphores of @sems as "sems" (dump, check's states). */
void json_nonzero_sems(const int32_t *sems)
{
	json_sems(sems, false);
}

/* "events": each {index, set}; the set ones, or every one with @all. */
static void json_events(const bool *events, bool all)
{
	unsigned int i;

	j_arr("events");
	for (i = 0; i < NCSYNC_NUM_EVENTS; i++) {
		if (!all && !events[i])
			continue;
		j_obj(NULL);
		j_uint("index", i);
		j_bool("set", events[i]);
		j_end();
	}
	j_end();
}

void json_banks(const struct banks *b, bool all)
{
	json_sems(b->sems, all);
	json_events(b->events, all);
}

void json_progs(const struct nl_core *nc)
{
	unsigned int i;

	j_arr("programs");
	for (i = 0; i < nc->nprogs; i++)
		json_nl_prog(NULL, &nc->progs[i]);
	j_end();
}

void json_stats_counts(const struct ncsync_stats *st)
{
	j_uint("resets", st->resets);
	j_uint("event_set_while_set", st->event_set_while_set);
	j_uint("event_clear_while_clear", st->event_clear_while_clear);
	j_uint("sem_overflows", st->sem_overflows);
	j_uint("notify_drops", st->notify_drops);
}

void print_fault_counts(const struct ncsync_stats *st)
{
	printf("set while set %llu, clear while clear %llu, overflows %llu, notify drops %llu",
	       (unsigned long long)st->event_set_while_set,
	       (unsigned long long)st->event_clear_while_clear,
	       (unsigned long long)st->sem_overflows,
	       (unsigned long long)st->notify_drops);
}

void print_nl_engine(const struct nl_engine *e, const char *indent)
{
	char what[64];

	printf("%sengine %u %-4s pc %-5u %s", indent, e->id,
	       engine_label(e->id), e->pc, ncsync_engine_state_name(e->state));
	if (e->blocked) {
		describe_wait(what, sizeof(what), e->wait_kind, e->wait_mode,
			      e->wait_index, e->wait_threshold);
		if (e->wait_kind == NCSYNC_BLOCK_DRAIN)
			printf(": in a drain");
		else if (e->wait_kind == NCSYNC_BLOCK_DMA_FULL)
			printf(": waits for a DMA slot");
		else
			printf(": waits for %s, now %d", what,
			       e->wait_current);
	}
	if (e->fault)
		printf(" (fault: %s)", ncsync_fault_name(e->fault));
	putchar('\n');
}

void print_nl_prog(const struct nl_prog *p, const char *indent)
{
	char sub[32];
	unsigned int i;

	printf("%sprogram %u of pid %u: %s\n", indent, p->id, p->pid,
	       ncsync_prog_state_name(p->state));
	snprintf(sub, sizeof(sub), "%s  ", indent);
	for (i = 0; i < p->nengines; i++)
		print_nl_engine(&p->engines[i], sub);
}

void json_nl_prog(const char *key, const struct nl_prog *p)
{
	unsigned int i;
	char what[64];

	j_obj(key);
	j_uint("id", p->id);
	j_uint("pid", p->pid);
	j_str("state", ncsync_prog_state_name(p->state));
	j_arr("engines");
	for (i = 0; i < p->nengines; i++) {
		const struct nl_engine *e = &p->engines[i];

		j_obj(NULL);
		j_uint("id", e->id);
		j_str("engine", engine_label(e->id));
		j_str("state", ncsync_engine_state_name(e->state));
		j_str("fault", ncsync_fault_name(e->fault));
		j_uint("pc", e->pc);
		if (e->blocked) {
			describe_wait(what, sizeof(what), e->wait_kind,
				      e->wait_mode, e->wait_index,
				      e->wait_threshold);
			j_wait(what, e->wait_kind, e->wait_mode,
			       e->wait_index, -1, e->wait_threshold,
			       e->wait_current);
		}
		j_end();
	}
	j_end();
	j_end();
}

/* One lane's wait of a decoded record. */
static void json_wait_view(unsigned int lane, const struct ncsync_wait_view *w)
{
	j_obj(NULL);
	j_uint("lane", lane);
	j_str("bank", bank_label(w->bank));
	j_uint("index", w->index);
	j_uint("mode", w->mode);
	if (w->bank == NCSYNC_BANK_SEM && w->reg)
		j_uint("reg", w->value);
	else if (w->bank == NCSYNC_BANK_SEM)
		j_int("threshold", (int32_t)w->value);
	j_end();
}

/* One lane's update of a decoded record. */
static void json_update_view(unsigned int lane,
			     const struct ncsync_update_view *u)
{
	j_obj(NULL);
	j_uint("lane", lane);
	j_str("bank", bank_label(u->bank));
	j_uint("index", u->index);
	j_str("op", ncsync_update_kind_name(u->op));
	if (u->bank == NCSYNC_BANK_SEM)
		j_uint(u->reg ? "reg" : "operand", u->operand);
	j_bool("paired", u->paired);
	j_bool("on_land", u->on_land);
	j_end();
}

/* A decoded record's waits and updates, lane by lane. */
static void json_lanes(const struct ncsync_record_view *v)
{
	unsigned int i;

	j_arr("waits");
	for (i = 0; i < v->nlanes; i++)
		if (v->wait[i].active)
			json_wait_view(i, &v->wait[i]);
	j_end();
	j_arr("updates");
	for (i = 0; i < v->nlanes; i++)
		if (v->update[i].active)
			json_update_view(i, &v->update[i]);
	j_end();
}

void json_record(uint32_t index, const uint8_t *rec)
{
	struct ncsync_record_view v;
	char line[NCSYNC_DISASM_LINE_MAX], hex[2 * NCSYNC_RECORD_SIZE + 1];
	int i;

	ncsync_disasm(rec, line, sizeof(line));
	for (i = 0; i < NCSYNC_RECORD_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", rec[i]);
	j_obj(NULL);
	j_uint("index", index);
	j_str("text", line);
	j_str("hex", hex);
	if (!ncsync_record_view(rec, UINT32_MAX, &v)) {
		json_lanes(&v);
		if (v.target >= 0)
			j_uint("target", v.target);
	}
	j_end();
}

/* "engines": each stream of @prog and its records. */
static void json_engines(struct ncsync_program *prog)
{
	unsigned int mask = ncsync_program_engines(prog), e;
	uint32_t i;

	j_arr("engines");
	for (e = 0; e < MAX_ENGINE_ID; e++) {
		struct ncsync_stream *s;

		if (!(mask & (1U << e)))
			continue;
		s = ncsync_program_find_stream(prog, e);
		j_obj(NULL);
		j_uint("id", e);
		j_str("engine", engine_label(e));
		j_arr("records");
		for (i = 0; i < ncsync_stream_count(s); i++)
			json_record(i, ncsync_stream_peek(s, i));
		j_end();
		j_end();
	}
	j_end();
}

static void json_program(const char *path, struct ncsync_program *prog)
{
	j_obj(NULL);
	j_str("file", path);
	json_engines(prog);
	j_end();
	j_done();
}

/* A program across cores: "cores", each its position and its engines. */
void json_parts(const char *path, const struct ncsync_asm_part *parts,
		unsigned int n)
{
	unsigned int i;

	j_obj(NULL);
	j_str("file", path);
	j_arr("cores");
	for (i = 0; i < n; i++) {
		j_obj(NULL);
		j_uint("core", parts[i].core);
		json_engines(parts[i].prog);
		j_end();
	}
	j_end();
	j_end();
	j_done();
}

/* The finalized program as text, or as JSON with -j. */
int print_program(const char *path, struct ncsync_program *prog)
{
	int ret;

	if (opt_json) {
		json_program(path, prog);
		return 0;
	}
	ret = ncsync_disasm_program(prog, stdout);
	return ret ? fail_err(ret, "%s: printing", path) : 0;
}
