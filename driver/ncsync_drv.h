/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync: the central device header of the module.
 *
 * Lock order (outer first):
 *   ncsync_group_mutex (ncsync_group.c) -> ncsync_core.prog_lock
 *   -> ncsync_group.lock -> ncsync_core.lock -> ncsync_core.ntf_lock
 *   -> ncsync_core.dma_lock -> ncsync_users_lock (ncsync_user.c)
 *   -> wait queue and workqueue locks
 * No spinlock is held across a sleep, a copy to or from userspace, or
 * kthread_stop().  Two cores' prog_locks are never held together: what a
 * program across cores does to its other members goes through
 * ncsync_group.lock and the group's work.
 */
#ifndef _NCSYNC_DRV_H
#define _NCSYNC_DRV_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/kref.h>
#include <linux/workqueue.h>
#include <linux/atomic.h>
#include <linux/kfifo.h>
#include <linux/llist.h>

#include <linux/ncsync.h>
#include "ncsync_record.h"

#define NCSYNC_MAX_CORES	64
#define NCSYNC_MAX_PROGS_PER_FD	256
#define NCSYNC_MAX_WATCHDOG_MS	(3600 * 1000)

struct ncsync_core;
struct ncsync_prog;
struct ncsync_user;

/**
 * struct ncsync_group - a program across the cores of a logical core: one
 *	member program per named core (NCSYNC_SUBMIT_F_CORES).
 * @ref: references: each member, the group's pending work.
 * @lock: protects @members, @mstate, @stop, @origin, @nlive, @state and
 *	@poll_pending; taken inside a member core's prog_lock.
 * @n: members; member 0 is the submitter's core's (the primary), whose id
 *	names the program.
 * @members: the members, each with a reference, until the primary is
 *	forgotten by its descriptor (ncsync_group_forget()); NULL before a
 *	member is queued and after.
 * @mstate: each member's final NCSYNC_PROG_* state once it ended.
 * @nready: members that may start (no earlier program of their core
 *	shares an engine with them); atomic.
 * @go: every member is ready: they start; WRITE_ONCE()/READ_ONCE().
 * @stop: the NCSYNC_FAULT_* reason the first stopped member stopped with,
 *	0 before; the work stops the other members with it.
 * @origin: index of that member, or -1.
 * @nlive: members not ended.
 * @state: the program's final state once @ended.
 * @ended: every member ended; set with smp_store_release().
 * @poll_pending: the primary's descriptor is to be woken (EPOLLPRI): the
 *	program ended on another core.
 * @last_progress: jiffies of the last progress of any member: the
 *	watchdog of each member's core measures the whole program.
 * @done_wq: where NCSYNC_IOC_PROG_WAIT of the program sleeps.
 * @work: stops the other members, wakes the primary's pollers.
 */
struct ncsync_group {
	struct kref ref;
	spinlock_t lock;	/* see above */
	unsigned int n;
	struct ncsync_prog *members[NCSYNC_MAX_LNC];
	u8 mstate[NCSYNC_MAX_LNC];
	atomic_t nready;
	bool go;
	int stop;
	int origin;
	unsigned int nlive;
	u32 state;
	bool ended;
	bool poll_pending;
	unsigned long last_progress;
	wait_queue_head_t done_wq;
	struct work_struct work;
};

/**
 * struct ncsync_dma_copy - a copy issued on the core's DMA engine.
 * @node: entry in ncsync_prog.dma.copies while it waits to land.
 * @q: the queue that issued it; holds a reference on its program.
 * @src: source offset in device memory.
 * @dst: destination offset.
 * @land: when it lands (issue time + latency).
 * @reset_gen: the core's reset generation at issue; a reset voids it.
 * @len: bytes.
 * @seq: its number among the copies its queue issued (from 0), which the
 *	tracepoints ncsync_dma_issue and ncsync_dma_land name it by.
 * @upd: the update applied when it lands (+1 or event set), if active.
 * @upd_core: the core @upd applies to: the issuer's, or with
 *	NCSYNC_DMA_F_PEER a core of the issuer's logical core.
 * @upd_reset_gen: @upd_core's reset generation at issue: a reset of that
 *	core before the landing voids the update.
 *
 * Copies live in their queue's ring (ncsync_equeue.dma_slots), allocated
 * at submission: issuing one allocates nothing.
 */
struct ncsync_dma_copy {
	struct list_head node;
	struct ncsync_equeue *q;
	u64 src;
	u64 dst;
	ktime_t land;
	u64 reset_gen;
	u32 len;
	u32 seq;
	struct ncsync_update_op upd;
	struct ncsync_core *upd_core;
	u64 upd_reset_gen;
};

/**
 * struct ncsync_equeue - one engine's queue of a program.
 * @prog: the program.
 * @engine: the engine id (NCSYNC_ENGINE_*).
 * @count: the number of records.
 * @insns: the decoded records; freed when the program ends.
 * @regs: the engine's register file; only the engine thread touches it.
 * @dma_outstanding: copies this queue issued that have not landed (or
 *	been dropped); at most ncsync_dma_depth.
 * @dma_slots: the ring of ncsync_dma_depth copies, or NULL for a queue
 *	without DMA records.
 * @dma_issued: copies issued so far; only the engine thread touches it.
 * @finished: the engine is done with this queue; under prog_lock.
 * @st: the engine's status.  The engine thread writes @st.pc and
 *	@st.executed with WRITE_ONCE(); every other field changes under
 *	prog_lock.
 */
struct ncsync_equeue {
	struct ncsync_prog *prog;
	u8 engine;
	u32 count;
	struct ncsync_insn *insns;
	u32 regs[NCSYNC_NUM_REGS];
	atomic_t dma_outstanding;
	struct ncsync_dma_copy *dma_slots;
	u32 dma_issued;
	bool finished;
	struct ncsync_engine_status st;
};

/**
 * struct ncsync_snapshot - the state of a program when it ended, or when
 *	its watchdog fired.
 * @engines: each engine's status, with the current value of what it waits
 *	on.
 * @nsems: entries of @sems.
 * @sems: every non-zero semaphore.
 */
struct ncsync_snapshot {
	struct ncsync_engine_status engines[NCSYNC_NUM_ENGINES];
	u32 nsems;
	struct ncsync_sem_value sems[NCSYNC_NUM_SEMS];
};

/**
 * struct ncsync_prog_run - how a program runs and ends.
 * @state: NCSYNC_PROG_*; under prog_lock.
 * @seen: its end was reported to userspace; under prog_lock.
 * @snapped: ncsync_prog.snap holds the watchdog's snapshot; under
 *	prog_lock.
 * @nrunning: queues not finished; under prog_lock.
 * @last_progress: jiffies of the last wait passed, change made, copy
 *	landed or queue finished; WRITE_ONCE()/READ_ONCE(), no lock.  A
 *	member of a program across cores keeps its group's instead
 *	(ncsync_prog_progress()).
 *
 * The stop reason, which belongs here too, is ncsync_prog.stop: the
 * engines read it there.
 */
struct ncsync_prog_run {
	u32 state;
	bool seen;
	bool snapped;
	unsigned int nrunning;
	unsigned long last_progress;
};

/**
 * struct ncsync_prog_lists - where a program is listed, each entry with
 *	the lock that protects it.
 * @seq: its number in the core's submission order (ncsync_core.prog_seq),
 *	set under prog_lock; where NCSYNC_CMD_GET_PROGRAMS resumes.
 * @core_node: entry in ncsync_core.progs until it ends; under prog_lock.
 * @file_node: entry in ncsync_file.progs while its descriptor holds it
 *	(the descriptor's reference); under prog_lock.
 * @ntf_node: entry in ncsync_core.ntf_progs; under ntf_lock.
 * @reap_node: entry in ncsync_core.reap (a lockless list), with a
 *	reference, while its decoded records wait to be freed.
 */
struct ncsync_prog_lists {
	u64 seq;
	struct list_head core_node;
	struct list_head file_node;
	struct list_head ntf_node;
	struct llist_node reap_node;
};

/**
 * struct ncsync_charge - the memory a program is charged
 *	(ncsync_charge.c, the only file that changes it).
 * @mem: bytes charged to its descriptor (ncsync_file.mem) from its
 *	queueing until the descriptor forgets it.
 * @insn_mem: the part of @mem the decoded records take, given back to the
 *	descriptor and the user when the program ends.
 * @user: the user charged for it (the opener of its descriptor); a
 *	reference, NULL before anything is charged.
 * @user_mem: the bytes still charged to @user; the rest is given back
 *	when the program is freed.
 *
 * @mem and @insn_mem grow only before the program is queued; @user_mem
 * shrinks under prog_lock when the program ends.
 */
struct ncsync_charge {
	size_t mem;
	size_t insn_mem;
	struct ncsync_user *user;
	size_t user_mem;
};

/**
 * struct ncsync_prog_lnc - a program's part in its logical core: the
 *	program across cores it is a member of, and the other cores its DMA
 *	completions land on.
 * @group: the program across cores it is a member of, or NULL; a
 *	reference.
 * @idx: its index in @group->members.
 * @ready: it counts in @group->nready; under prog_lock.
 * @node: entry in ncsync_core.gmembers from its queueing until it is
 *	freed; under prog_lock.
 * @lands: bit p set when a completion of one of its DMA records lands on
 *	the core at position p of its logical core (NCSYNC_DMA_F_PEER); set
 *	by decoding, read only after.
 */
struct ncsync_prog_lnc {
	struct ncsync_group *group;
	u8 idx;
	bool ready;
	struct list_head node;
	u64 lands;
};

/**
 * struct ncsync_prog_dma - a program's DMA copies in flight.
 * @copies: its copies waiting to land, in issue order; under dma_lock.
 * @node: entry in ncsync_core.dma_progs while @copies is not empty; under
 *	dma_lock.
 */
struct ncsync_prog_dma {
	struct list_head copies;
	struct list_head node;
};

/**
 * struct ncsync_prog - a submitted program.
 * @ref: references: the owner's list, each running engine, each queued DMA,
 *	the reaper, the group of a program across cores.
 * @core: the core it runs on.
 * @nfile: the descriptor that submitted it; valid while on its list.
 * @id: its id within @nfile, given as it is queued, under prog_lock.
 * @flags: NCSYNC_SUBMIT_F_*.
 * @watchdog_ms: time without progress before it times out.
 * @engine_mask: bit i set when engine i has a queue.
 * @pid: the thread group of the process that submitted it.
 * @stop: a NCSYNC_FAULT_* reason once the program must stop, 0 before;
 *	set under prog_lock, read with READ_ONCE() by engines.
 * @run: how it runs and ends.
 * @lists: where it is listed.
 * @charge: the memory it is charged.
 * @lnc: its part in its logical core.
 * @dma: its DMA copies in flight.
 * @snap: the snapshot, allocated at submission.
 * @nq: entries of @q.
 * @q: the engines' queues, in submission order.
 *
 * Everything but @ref, @id, @stop, @run, @lists, @lnc.ready, @lnc.node,
 * @dma and @charge.user_mem is set before the program is queued and only
 * read afterwards; the queues' fields say which lock protects each.
 */
struct ncsync_prog {
	struct kref ref;
	struct ncsync_core *core;
	struct ncsync_file *nfile;
	u32 id;
	u32 flags;
	u32 watchdog_ms;
	u32 engine_mask;
	u32 pid;
	int stop;
	struct ncsync_prog_run run;
	struct ncsync_prog_lists lists;
	struct ncsync_charge charge;
	struct ncsync_prog_lnc lnc;
	struct ncsync_prog_dma dma;
	struct ncsync_snapshot *snap;
	unsigned int nq;
	struct ncsync_equeue q[];
};

/**
 * struct ncsync_wait_entry - an entry on one of ncsync_core.bank_wq.
 * @wq: the wait queue entry.
 * @core: the core whose stats.wakeups counts its wake-ups; its lock is
 *	held by every waker of the bank queues.
 * @cond: the wait it sleeps for, or NULL: a change of its register wakes
 *	it only when @cond holds afterwards (ncsync_wait_entry_cond()).
 *	Resets and closes wake it whatever its condition.
 * @threshold: a semaphore wait's threshold, resolved when it began.
 * @key: on ncsync_core.done_wq, the program it waits for: the end of
 *	another program, a wake-up keyed with that one, passes it by; NULL
 *	for none.  Wake-ups without a key wake it whatever it is.
 */
struct ncsync_wait_entry {
	struct wait_queue_entry wq;
	struct ncsync_core *core;
	const struct ncsync_wait_op *cond;
	s32 threshold;
	const void *key;
};

#define NCSYNC_WAKE_Q_MAX	8

/**
 * struct ncsync_wake_q - wake-ups collected under the core lock, to be
 *	issued once it is dropped (ncsync_core_lock(), ncsync_core_unlock()).
 * @n: entries of @task.
 * @task: the tasks to wake, each with a reference.
 *
 * The kernel's wake_q (wake_q_add(), wake_up_q()) is not exported to
 * modules in 6.1; this is its equivalent for the bank queues.
 */
struct ncsync_wake_q {
	unsigned int n;
	struct task_struct *task[NCSYNC_WAKE_Q_MAX];
};

/**
 * struct ncsync_event_ntf - an event write waiting to be notified.
 * @index: the event.
 * @state: its state after the write.
 * @seq: the core's change sequence after the write.
 */
struct ncsync_event_ntf {
	u32 index;
	u32 state;
	u64 seq;
};

#define NCSYNC_NTF_FIFO		256	/* event notifications queued per core */

/**
 * struct ncsync_engine - one engine's kernel thread.
 * @core: its core.
 * @id: NCSYNC_ENGINE_*.
 * @thread: the thread, which runs queues of programs in order.
 * @wq: where the thread waits for work.
 * @busy: it executes records: set by the thread while it runs a queue and
 *	is not asleep or spinning in a wait; read without a lock by the
 *	engines deciding whether to spin.
 * @spin_from: while it spins in a wait, one more than the low bits of the
 *	core's change sequence when the spin began; 0 otherwise.  Written by
 *	the thread, read without a lock by the engines deciding whether to
 *	spin: a core changed since then may make the spinner pass.
 */
struct ncsync_engine {
	struct ncsync_core *core;
	u8 id;
	struct task_struct *thread;
	wait_queue_head_t wq;
	bool busy;
	unsigned long spin_from;
};

/**
 * struct ncsync_core - one modeled NeuronCore.
 * @index: N of /dev/ncsyncN.
 * @lnc_first: the first core of its logical core (module parameter lnc):
 *	the cores of one logical core are consecutive, so the core at
 *	position p of it is @lnc_first + p.  Set before the core is added.
 * @cdev: the character device.
 * @dev: the device node's struct device.
 * @event_page: the page behind CSR 0x0000-0x0FFF; events[i] is a u32 0/1
 *	at offset 4 * i, the rest stays zero.
 * @sem_page: the page behind CSR 0x1000-0x1FFF; the value of semaphore i is
 *	stored at 4 * i and mirrored in the set, inc and dec windows, so that
 *	the mapping reads as pread does.
 * @events: kernel address of @event_page.
 * @sems: kernel address of @sem_page.
 * @lock: protects every write to @events and @sems, @seq, @reset_gen,
 *	@stats, @poll_armed and the waiter lists and acknowledged sequences
 *	of the core's files.  Readers of single registers use READ_ONCE()
 *	without it.  Every wake-up of @bank_wq is decided under it, and
 *	issued under it or, collected in @wake_q, right after it is dropped.
 * @bank_wq: where the waits of engines and of NCSYNC_IOC_WAIT sleep: one
 *	queue per semaphore (0..255), then one per event (256..511), so that
 *	a change wakes only the waiters of the register it touched.
 * @wake_q: the wake-ups the holder of @lock collects, or NULL when they
 *	happen in place; under @lock.
 * @poll_armed: the descriptors (ncsync_file.armed_node) whose pollers have
 *	not been told of a change since their last NCSYNC_IOC_ACK; the next
 *	change wakes them and empties the list.
 * @seq: change sequence, advanced by every change and reset; written under
 *	@lock, read without it by poll() (ncsync_poll()).
 * @reset_gen: advanced by every reset; a wait that sees it move ends with
 *	ECANCELED.
 * @stats: counters reported by NCSYNC_IOC_STATS.
 * @banks_gone: the banks were freed (module teardown); under @lock.  The
 *	teardown order makes a write after it impossible; a DMA completion
 *	update, which may come from another core, checks it under @lock.
 * @prog_lock: protects @progs, @prog_seq, the programs' states and
 *	lists, the descriptors' program lists and accounting.
 * @progs: programs not yet ended, in submission order: by increasing
 *	ncsync_prog.lists.seq.
 * @prog_seq: the seq of the last program submitted; never goes back, not
 *	even across a reset.
 * @gmembers: the members of programs across cores queued on this core and
 *	not freed (ncsync_prog.lnc.node), ended or not: a reset or a close
 *	stops the programs they belong to.
 * @done_wq: where userspace and resets wait for programs to end.
 * @engines: the datapath engines, in ncsync_engine_ids order.
 * @dma_lock: protects @dma_progs and the programs' copy lists.
 * @dma_progs: the programs with copies waiting to land
 *	(ncsync_prog.dma.node), in the round-robin order of the DMA engine.
 * @dma_wq: where the DMA thread waits for copies.
 * @dma_thread: the DMA engine (engine 4).
 * @devmem: the device memory, @devmem_size bytes, mappable at
 *	NCSYNC_DEVMEM_OFFSET.
 * @devmem_size: its size.
 * @watchdog: checks running programs for progress while any runs.
 * @notify: event notifications are enabled (NCSYNC_CMD_SET_NOTIFY).
 * @ntf_fifo: event writes to notify; filled under @lock, emptied by
 *	@ntf_work alone.
 * @ntf_lock: protects @ntf_progs.
 * @ntf_progs: ended programs to notify (ncsync_prog.lists.ntf_node).
 * @ntf_work: sends the notifications.
 * @ntf_event: queues the notification of an event write, called under
 *	@lock while @notify is set; set by ncsync_nl_core_init(), so that
 *	the banks never call up into netlink.
 * @ntf_prog_ended: queues the notification of a program's end; likewise.
 * @reap: programs whose decoded records are to be freed
 *	(ncsync_prog.lists.reap_node); each holds a reference.
 * @reap_work: frees them.
 */
struct ncsync_core {
	unsigned int index;
	struct ncsync_core *lnc_first;
	struct cdev cdev;
	struct device *dev;
	struct page *event_page;
	struct page *sem_page;
	u32 *events;
	s32 *sems;
	spinlock_t lock;	/* protects the banks, see above */
	wait_queue_head_t *bank_wq;
	struct ncsync_wake_q *wake_q;
	struct list_head poll_armed;
	atomic64_t seq;
	u64 reset_gen;
	struct ncsync_stats stats;
	bool banks_gone;
	spinlock_t prog_lock;	/* see above */
	struct list_head progs;
	u64 prog_seq;
	struct list_head gmembers;
	wait_queue_head_t done_wq;
	struct ncsync_engine engines[NCSYNC_NUM_ENGINES];
	spinlock_t dma_lock;	/* see above */
	struct list_head dma_progs;
	wait_queue_head_t dma_wq;
	struct task_struct *dma_thread;
	void *devmem;
	size_t devmem_size;
	struct delayed_work watchdog;
	bool notify;
	DECLARE_KFIFO(ntf_fifo, struct ncsync_event_ntf, NCSYNC_NTF_FIFO);
	spinlock_t ntf_lock;	/* see above */
	struct list_head ntf_progs;
	struct work_struct ntf_work;
	void (*ntf_event)(struct ncsync_core *core, unsigned int index,
			  bool state);
	void (*ntf_prog_ended)(struct ncsync_prog *prog);
	struct llist_head reap;
	struct work_struct reap_work;
};

/**
 * struct ncsync_file - an open descriptor of a core.
 * @core: the core.
 * @file: the open file this is the private data of.
 * @writable: opened for writing; a read-only descriptor changes nothing.
 * @seen_seq: the change sequence last acknowledged (NCSYNC_IOC_ACK); poll()
 *	is readable while the core's differs.  Written under @core->lock,
 *	read without it by poll().
 * @poll_wq: where poll() on this descriptor sleeps.
 * @armed_node: entry in ncsync_core.poll_armed while @seen_seq equals the
 *	core's sequence; under @core->lock.
 * @user: the user charged for its programs; a reference.
 * @waiters: the waits in progress on this descriptor (struct ncsync_waiter),
 *	protected by @core->lock.
 * @progs: the programs it submitted and has not released; under
 *	@core->prog_lock.
 * @nprogs: entries of @progs.
 * @mem: kernel memory its programs take, capped by fd_mem_mb.
 * @next_id: the id of its next program.
 */
struct ncsync_file {
	struct ncsync_core *core;
	struct file *file;
	bool writable;
	u64 seen_seq;
	wait_queue_head_t poll_wq;
	struct list_head armed_node;
	struct ncsync_user *user;
	struct list_head waiters;
	struct list_head progs;
	unsigned int nprogs;
	size_t mem;
	u32 next_id;
};

/**
 * struct ncsync_waiter - one blocked NCSYNC_IOC_WAIT.
 * @node: entry in ncsync_file.waiters.
 * @owner: the files_struct of the waiting task; a close() of the descriptor
 *	by the same process ends the wait.
 * @wq: the wait queue it sleeps on.
 * @closed: set by ncsync_flush(), under the core lock.
 */
struct ncsync_waiter {
	struct list_head node;
	fl_owner_t owner;
	wait_queue_head_t *wq;
	bool closed;
};

extern unsigned int ncsync_num_cores;
extern unsigned int ncsync_rt_reserved_sems;
extern unsigned int ncsync_rt_reserved_events;
extern unsigned int ncsync_devmem_kb;
extern unsigned int ncsync_watchdog_ms;
extern unsigned int ncsync_fd_mem_mb;
extern unsigned int ncsync_user_mem_mb;
extern unsigned int ncsync_total_mem_mb;
extern unsigned int ncsync_dma_depth;
extern unsigned int ncsync_lnc;
extern const struct file_operations ncsync_fops;
extern const u8 ncsync_engine_ids[NCSYNC_NUM_ENGINES];

/* ncsync_bank.c: the bottom of the driver, it calls no other file */
int ncsync_banks_init(struct ncsync_core *core, unsigned int index);
void ncsync_banks_fini(struct ncsync_core *core);
void ncsync_engines_kick(struct ncsync_core *core, u32 engine_mask);
void ncsync_csr_read(struct ncsync_core *core, u32 addr, u32 *buf,
		     unsigned int nregs);
void ncsync_csr_write_locked(struct ncsync_core *core, u32 addr,
			     const u32 *buf, unsigned int nregs);
void ncsync_op_apply_locked(struct ncsync_core *core, struct ncsync_op *op);
wait_queue_head_t *ncsync_bank_wq(struct ncsync_core *core, u8 bank,
				  unsigned int index);
void ncsync_poll_arm_locked(struct ncsync_file *nfile);
void ncsync_core_lock(struct ncsync_core *core, struct ncsync_wake_q *q)
	__acquires(&core->lock);
void ncsync_core_unlock(struct ncsync_core *core, struct ncsync_wake_q *q)
	__releases(&core->lock);
bool ncsync_wait_holds(struct ncsync_core *core,
		       const struct ncsync_wait_op *w, s32 threshold);
void ncsync_wait_entry_init(struct ncsync_wait_entry *e,
			    struct ncsync_core *core);
void ncsync_wait_entry_cond(struct ncsync_wait_entry *e,
			    const struct ncsync_wait_op *cond, s32 threshold);
s32 ncsync_sem_get(struct ncsync_core *core, unsigned int i);
bool ncsync_event_get(struct ncsync_core *core, unsigned int i);
bool ncsync_sem_update_locked(struct ncsync_core *core, unsigned int i,
			      enum ncsync_sem_upd upd, u32 operand);
bool ncsync_event_write_locked(struct ncsync_core *core, unsigned int i,
			       bool set);
void ncsync_banks_clear(struct ncsync_core *core);
u32 ncsync_nonzero_sems_locked(struct ncsync_core *core,
			       struct ncsync_sem_value *out);

/* ncsync_wait.c */
int ncsync_deadline_get(const struct ncsync_timespec *ts, u32 flags,
			ktime_t *deadline);
int ncsync_sleep(struct ncsync_file *nfile, wait_queue_head_t *wq,
		 const struct ncsync_wait_op *bank_op, const void *key,
		 const ktime_t *deadline, int (*cond)(void *arg), void *arg);
int ncsync_wait(struct ncsync_file *nfile, struct ncsync_wait *w,
		const ktime_t *deadline);
void ncsync_flush_waiters(struct ncsync_file *nfile, fl_owner_t owner);

/*
 * The programs, from the bottom up (Documentation/ncsync/building.rst,
 * "The driver's layers").
 */

/* ncsync_snapshot.c: snapshots, an engine's status, the timeout report */
int ncsync_snapshots_init(void);
void ncsync_snapshots_fini(void);
size_t ncsync_snapshot_held(void);
struct ncsync_snapshot *ncsync_snapshot_alloc(void);
void ncsync_snapshot_free(struct ncsync_snapshot *snap);
void ncsync_status_read_locked(struct ncsync_equeue *q,
			       struct ncsync_engine_status *st);
void ncsync_snapshot_fill_locked(struct ncsync_prog *prog,
				 struct ncsync_snapshot *snap);
void ncsync_snapshot_locked(struct ncsync_prog *prog);
void ncsync_snapshot_log(struct ncsync_prog *prog);

/* ncsync_charge.c: every memory charge of a program and its return */
size_t ncsync_insns_size(u32 count);
size_t ncsync_charge_prog_size(const struct ncsync_queue *uqs, u32 nq,
			       size_t *insn_mem);
int ncsync_charge_begin(struct ncsync_charge *c, struct ncsync_file *nfile,
			size_t mem, size_t insn_mem);
int ncsync_charge_more(struct ncsync_prog *prog, size_t mem);
int ncsync_charge_file_check_locked(struct ncsync_prog *prog);
void ncsync_charge_file_add_locked(struct ncsync_prog *prog);
void ncsync_charge_insns_end_locked(struct ncsync_prog *prog);
void ncsync_charge_file_forget_locked(struct ncsync_prog *prog);
void ncsync_charge_end(struct ncsync_charge *c);

/* ncsync_group_state.c: the state of programs across cores */
int ncsync_groups_init(void);
void ncsync_groups_drain(void);
void ncsync_groups_fini(void);
void ncsync_group_kick(struct ncsync_group *g);
void ncsync_group_put(struct ncsync_group *g);
bool ncsync_group_may_start_locked(struct ncsync_prog *prog);
void ncsync_group_stop(struct ncsync_group *g, unsigned int origin,
		       int reason);
void ncsync_group_member_end_locked(struct ncsync_prog *prog);
struct ncsync_prog *ncsync_group_member_get(struct ncsync_group *g,
					    u32 pos);
u32 ncsync_group_state(struct ncsync_group *g);
bool ncsync_group_ended(struct ncsync_group *g);

/* ncsync_prog.c: a program's lifetime, a descriptor's list of programs */
struct ncsync_prog *ncsync_prog_alloc(u32 nq, const u32 *counts);
void ncsync_prog_put(struct ncsync_prog *prog);
void ncsync_prog_put_forgotten(struct ncsync_prog *prog);
void ncsync_group_forget(struct ncsync_group *g);
void ncsync_prog_progress(struct ncsync_prog *prog);
unsigned long ncsync_prog_last_progress(struct ncsync_prog *prog);
void ncsync_insns_reap_locked(struct ncsync_prog *prog);
void ncsync_reap_fn(struct work_struct *work);
bool ncsync_prog_over(struct ncsync_prog *prog);
void ncsync_prog_end_locked(struct ncsync_prog *prog);
void ncsync_file_forget_locked(struct ncsync_file *nfile,
			       struct ncsync_prog *prog);
struct ncsync_prog *ncsync_file_evict_locked(struct ncsync_file *nfile);
struct ncsync_prog *ncsync_prog_get(struct ncsync_file *nfile, u32 id);

/**
 * ncsync_prog_ended() - whether a program ended.
 * @prog: the program; prog_lock held, or a state read once.
 *
 * Return: true once its state is final.
 */
static inline bool ncsync_prog_ended(const struct ncsync_prog *prog)
{
	return prog->run.state >= NCSYNC_PROG_DONE;
}

/* ncsync_submit.c: checking, decoding and queueing a program on a core */
int ncsync_submit_check(struct ncsync_submit *sub);
int ncsync_queues_check(const struct ncsync_queue *uqs, u32 nq,
			u32 *engine_mask, u64 *records);
struct ncsync_prog *ncsync_prog_make(struct ncsync_file *nfile,
				     const struct ncsync_queue *uqs, u32 nq,
				     struct ncsync_submit *sub,
				     u32 engine_mask, u64 records);
struct ncsync_prog *ncsync_prog_queue(struct ncsync_prog *prog);
void ncsync_prog_unqueue(struct ncsync_prog *prog);
int ncsync_submit(struct ncsync_file *nfile, struct ncsync_submit *sub);

/* ncsync_sched.c: the order programs run in, their queues' ends, stops */
struct ncsync_equeue *ncsync_prog_next_queue(struct ncsync_core *core,
					     u8 engine);
bool ncsync_prog_work_ready(struct ncsync_core *core, u8 engine);
void ncsync_progs_wake(struct ncsync_core *core, u32 engine_mask);
bool ncsync_prog_stop_locked(struct ncsync_prog *prog, int reason);
void ncsync_prog_queue_done(struct ncsync_equeue *q);

/* ncsync_status.c: a program's status, waiting for it, cancelling it */
int ncsync_prog_status(struct ncsync_file *nfile,
		       struct ncsync_prog_status *ps);
int ncsync_prog_wait(struct ncsync_file *nfile, struct ncsync_prog_wait *pw);
int ncsync_prog_cancel(struct ncsync_file *nfile, u32 id);
bool ncsync_file_progs_unseen(struct ncsync_file *nfile);

/* ncsync_stop.c: resets, closes and the watchdog stop programs */
void ncsync_group_stop_member(struct ncsync_prog *m, int reason);
void ncsync_progs_stop_core(struct ncsync_core *core, int reason);
void ncsync_progs_release_file(struct ncsync_file *nfile);
void ncsync_watchdog_fn(struct work_struct *work);

/**
 * struct ncsync_fds - the descriptors a submission names: the submitter's
 *	and those of other cores it passes (struct ncsync_submit.fds).
 * @own: the submitter's position in its logical core.
 * @named: bit p set when @nfiles[p] is set, @own included.
 * @nfiles: the descriptor of each named position.
 * @files: the files taken for the others, to put once the submission is
 *	done (ncsync_fds_put()).
 * @ntaken: entries of @files.
 */
struct ncsync_fds {
	u32 own;
	u64 named;
	struct ncsync_file *nfiles[NCSYNC_MAX_LNC];
	struct file *files[NCSYNC_MAX_LNC];
	u32 ntaken;
};

/* ncsync_peer.c: the descriptors of other cores a submission names */
int ncsync_fds_take(struct ncsync_fds *fds, struct ncsync_file *nfile,
		    const struct ncsync_submit *sub);
void ncsync_fds_put(struct ncsync_fds *fds);
int ncsync_fds_lands_check(const struct ncsync_fds *fds,
			   const struct ncsync_prog *prog);
int ncsync_fds_used_check(const struct ncsync_fds *fds, u64 used);

/* ncsync_group.c: submitting programs across cores, above the others */
int ncsync_submit_cores(struct ncsync_file *nfile, struct ncsync_submit *sub);

/* ncsync_engine.c */
int ncsync_engines_start(struct ncsync_core *core);
void ncsync_engines_stop(struct ncsync_core *core);

/* ncsync_core.c */
int ncsync_core_init(struct ncsync_core *core, unsigned int index);
void ncsync_core_quiesce(struct ncsync_core *core);
void ncsync_core_fini(struct ncsync_core *core);
void ncsync_core_reset(struct ncsync_core *core);

/* ncsync_debugfs.c */
void ncsync_debugfs_init(struct ncsync_core *cores, unsigned int ncores);
void ncsync_debugfs_fini(void);

/* ncsync_netlink.c */
int ncsync_nl_register(struct ncsync_core *cores, unsigned int ncores);
void ncsync_nl_unregister(void);
void ncsync_nl_core_init(struct ncsync_core *core);
void ncsync_nl_core_fini(struct ncsync_core *core);

/* ncsync_dma.c */
int ncsync_dma_init(struct ncsync_core *core);
void ncsync_dma_stop(struct ncsync_core *core);
void ncsync_dma_fini(struct ncsync_core *core);
bool ncsync_dma_full(struct ncsync_equeue *q);
void ncsync_dma_issue(struct ncsync_equeue *q, const struct ncsync_insn *insn,
		      u32 pc);

/* ncsync_user.c */
struct ncsync_user *ncsync_user_get(kuid_t uid);
struct ncsync_user *ncsync_user_ref(struct ncsync_user *user);
void ncsync_user_put(struct ncsync_user *user);
int ncsync_user_charge(struct ncsync_user *user, size_t bytes);
void ncsync_user_uncharge(struct ncsync_user *user, size_t bytes);
size_t ncsync_kv_held(size_t size);
size_t ncsync_kmalloc_held(size_t size);
void *ncsync_kv_alloc(size_t size, gfp_t gfp);

/* ncsync_log.c */
bool ncsync_log_allowed(struct ncsync_core *core);

/* ncsync_mmap.c */
int ncsync_mmap(struct file *file, struct vm_area_struct *vma);

/* ncsync_ioctl.c */
long ncsync_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _NCSYNC_DRV_H */
