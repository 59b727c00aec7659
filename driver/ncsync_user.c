// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the per-user memory charge.
 *
 * Every descriptor charges the kernel memory its programs hold (decoded
 * records, snapshots, program state, DMA copy slots) to the user who opened
 * it, the way io_uring charges user->locked_vm: all descriptors of one user
 * together may hold at most user_mem_mb MiB.  The allocations themselves
 * are also charged to the memory cgroup (GFP_KERNEL_ACCOUNT).
 */
#include <linux/hashtable.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>

#include "ncsync_drv.h"

/**
 * struct ncsync_user - what one user's descriptors hold.
 * @node: entry in ncsync_users.
 * @uid: the user.
 * @ref: the descriptors and programs charged to it.
 * @mem: bytes charged.
 */
struct ncsync_user {
	struct hlist_node node;
	kuid_t uid;
	refcount_t ref;
	atomic_long_t mem;
};

static DEFINE_HASHTABLE(ncsync_users, 6);
/* Protects ncsync_users and the last put of a user's reference. */
static DEFINE_SPINLOCK(ncsync_users_lock);

static struct ncsync_user *ncsync_user_find_locked(kuid_t uid)
{
	struct ncsync_user *user;

	lockdep_assert_held(&ncsync_users_lock);
	hash_for_each_possible(ncsync_users, user, node, __kuid_val(uid))
		if (uid_eq(user->uid, uid))
			return user;
	return NULL;
}

/**
 * ncsync_user_get() - take a reference on a user's charge.
 * @uid: the user.
 *
 * Return: the user, or NULL when it cannot be allocated.
 */
struct ncsync_user *ncsync_user_get(kuid_t uid)
{
	struct ncsync_user *user, *fresh;

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return NULL;
	spin_lock(&ncsync_users_lock);
	user = ncsync_user_find_locked(uid);
	if (user) {
		refcount_inc(&user->ref);
	} else {
		user = fresh;
		fresh = NULL;
		user->uid = uid;
		refcount_set(&user->ref, 1);
		atomic_long_set(&user->mem, 0);
		hash_add(ncsync_users, &user->node, __kuid_val(uid));
	}
	spin_unlock(&ncsync_users_lock);
	kfree(fresh);
	return user;
}

/**
 * ncsync_user_ref() - take another reference on a user's charge.
 * @user: the user, referenced by the caller.
 *
 * Return: @user.
 */
struct ncsync_user *ncsync_user_ref(struct ncsync_user *user)
{
	refcount_inc(&user->ref);
	return user;
}

/**
 * ncsync_user_put() - drop a reference taken by ncsync_user_get().
 * @user: the user; its charge is zero when the last reference goes.
 *
 * Descriptors open and close, programs end: rare enough to take the lock
 * each time.
 */
void ncsync_user_put(struct ncsync_user *user)
{
	bool last;

	spin_lock(&ncsync_users_lock);
	last = refcount_dec_and_test(&user->ref);
	if (last)
		hash_del(&user->node);
	spin_unlock(&ncsync_users_lock);
	if (last) {
		WARN_ON_ONCE(atomic_long_read(&user->mem));
		kfree(user);
	}
}

/**
 * ncsync_user_charge() - charge memory to a user.
 * @user: the user.
 * @bytes: what to charge.
 *
 * Return: 0, or -ENOMEM (nothing charged) when the charge would take the
 * user past user_mem_mb.
 */
int ncsync_user_charge(struct ncsync_user *user, size_t bytes)
{
	long limit = (long)READ_ONCE(ncsync_user_mem_mb) << 20;
	long cur = atomic_long_read(&user->mem);

	do {
		if (bytes > limit || cur > limit - (long)bytes)
			return -ENOMEM;
	} while (!atomic_long_try_cmpxchg(&user->mem, &cur, cur + bytes));
	return 0;
}

/**
 * ncsync_user_uncharge() - give back memory charged by ncsync_user_charge().
 * @user: the user.
 * @bytes: what to give back.
 */
void ncsync_user_uncharge(struct ncsync_user *user, size_t bytes)
{
	atomic_long_sub(bytes, &user->mem);
}
