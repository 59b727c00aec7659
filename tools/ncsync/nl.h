/* SPDX-License-Identifier: GPL-2.0 */
/* ncsync(1): the generic netlink family "ncsync" (nl.c). */
#ifndef NCSYNC_NL_H
#define NCSYNC_NL_H

#include "tool.h"

struct nl_engine {
	uint8_t id;
	uint8_t state;
	uint8_t fault;
	uint8_t wait_kind;
	uint8_t wait_mode;
	uint8_t wait_index;
	bool blocked;
	uint32_t pc;
	int32_t wait_threshold;
	int32_t wait_current;
};

struct nl_prog {
	uint32_t id;
	uint32_t state;
	uint32_t pid;
	unsigned int nengines;
	struct nl_engine engines[NCSYNC_NUM_ENGINES];
};

struct nl_core {
	uint32_t core;
	bool notify;
	uint64_t seq;
	uint64_t drops;
	int32_t sems[NCSYNC_NUM_SEMS];
	uint8_t events[NCSYNC_NUM_EVENTS / 8];
	unsigned int nprogs;
	unsigned int progs_cap;
	/*
	 * Some programs are missing: GET_CORE left them out and its dump
	 * failed (a module without it), or memory ran out.
	 */
	bool progs_truncated;
	struct nl_prog *progs;	/* malloc'd; nl_core_release() frees */
};

/*
 * Fill *@out (its previous contents are overwritten, not freed).  Prints
 * the error unless @quiet.  0 or EXIT_FAIL.
 */
int nl_get_core(unsigned int core, struct nl_core *out, bool quiet);
/* Free the programs of *@c, which keeps the rest. */
void nl_core_release(struct nl_core *c);
/* Free the programs of *@c, which keeps the rest. */

struct nl_sock;
struct nl_msg;
struct nlattr;

/**
 * struct nl_ctx - a socket of the family, for requests (or to listen).
 * @sock: the socket, connected.
 * @family: the family's id.
 * @err: errno of the kernel's error message.
 * @done: the ack, the error or the end of a dump came.
 */
struct nl_ctx {
	struct nl_sock *sock;
	int family;
	int err;
	bool done;
};

/* Connect and resolve the family; print the error.  0 or EXIT_FAIL. */
int nl_ctx_open(struct nl_ctx *nl);
void nl_ctx_close(struct nl_ctx *nl);
/* A request of command @cmd with @flags, to fill; NULL: out of memory. */
struct nl_msg *nl_new(struct nl_ctx *nl, uint8_t cmd, int flags);
/*
 * Send @msg (freed) and receive the answer into @cb: a reply and the ack
 * (libnl asks for one), the messages of a dump (NLM_F_DUMP) up to its
 * NLMSG_DONE, or an error; nothing of it is left on the socket.  Return
 * 0, a negative errno from the kernel, or -EIO for other failures
 * (printed by libnl's string into *why).
 */
int nl_request(struct nl_ctx *nl, struct nl_msg *msg,
	       int (*cb)(struct nl_msg *msg, void *arg), void *arg,
	       const char **why);
/* The state of @core on @nl; prints the error.  0 or EXIT_FAIL. */
int nl_get_core_on(struct nl_ctx *nl, unsigned int core,
		   struct nl_core *out);
/* The program of the attribute NCSYNC_A_PROG @nest. */
void nl_parse_prog(struct nlattr *nest, struct nl_prog *p);

#endif /* NCSYNC_NL_H */
