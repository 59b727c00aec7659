/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): printing (print.c): the JSON writer of -j, and the text and
 * JSON of what more than one command prints, with the same words.
 */
#ifndef NCSYNC_PRINT_H
#define NCSYNC_PRINT_H

#include "device.h"
#include "nl.h"

/*
 * A streaming JSON writer to stdout, compact like ip -j.  Members take a
 * key inside an object and NULL inside an array.
 */
void j_obj(const char *key);
void j_arr(const char *key);
void j_end(void);
void j_int(const char *key, long long v);
void j_uint(const char *key, unsigned long long v);
void j_str(const char *key, const char *s);
void j_bool(const char *key, bool v);
void j_null(const char *key);
void j_wait(const char *on, uint8_t kind, uint8_t mode, uint8_t index,
	    int lane, int32_t threshold, int32_t current);
void j_done(void);

/* Names. */
const char *engine_label(uint8_t engine);
const char *bank_label(uint8_t bank);
void describe_wait(char *buf, size_t len, uint8_t kind, uint8_t mode,
		   uint8_t index, int32_t threshold);
/*
 * A refused record (@e) of @prog as a refusal names it: "line 3: engine
 * pool record 1", or "engine pool record 1" for a record without a line.
 */
void refused_record(char *buf, size_t len, struct ncsync_program *prog,
		    const struct ncsync_submit_error *e);
/* Where record @record of @engine of @prog is: "line 12", or "record 7". */
void source_where(struct ncsync_program *prog, uint8_t engine,
		  uint32_t record, char *buf, size_t len);
/*
 * A blocked engine's wait in the source's terms: "waits for sem[2] > 0
 * (line 30)", and for a wait on a lowered barrier's own semaphore or
 * event "waits in barrier (line 14)".
 */
void source_wait(char *buf, size_t len, struct ncsync_program *prog,
		 uint8_t engine, uint32_t pc, uint8_t kind, uint8_t mode,
		 uint8_t index, int32_t threshold);
/*
 * "barrier (line 14): pool, act wait; dve ended: its branch at line 11
 * (dve@17) skips it" (ncsync_program_barrier_short()), and its -j
 * "barrier"; @prog is the part of @b's core.
 */
void print_barrier_short(bool multi, struct ncsync_program *prog,
			 const struct ncsync_barrier_short *b,
			 const char *indent);
void json_barrier_short(bool multi, const struct ncsync_barrier_short *b);

/* Banks. */
void print_sem_list(FILE *f, const char *indent,
		    const struct ncsync_sem_value *sems, unsigned int n);
void print_event_list(const char *indent, const bool *ev);
/* "sems": [{"index": N, "value": V}, ...] of the non-zero ones. */
void json_nonzero_sems(const int32_t *sems);
/* "sems" and "events": the non-zero and set ones, or every one (@all). */
void json_banks(const struct banks *b, bool all);

/* The fault counters, shared by info and dump. */
void json_stats_counts(const struct ncsync_stats *st);
void print_fault_counts(const struct ncsync_stats *st);

/* The programs of a core and their engines, from the netlink family. */
void print_nl_engine(const struct nl_engine *e, const char *indent);
void print_nl_prog(const struct nl_prog *p, const char *indent);
void json_nl_prog(const char *key, const struct nl_prog *p);
void print_progs(const struct nl_core *nc, const char *indent);
void json_progs(const struct nl_core *nc);

/* Programs: a record as JSON; a program, or one across cores, printed. */
void json_record(uint32_t index, const uint8_t *rec);
int print_program(const char *path, struct ncsync_program *prog);
void json_parts(const char *path, const struct ncsync_asm_part *parts,
		unsigned int n);

#endif /* NCSYNC_PRINT_H */
