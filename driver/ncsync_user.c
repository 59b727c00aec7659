// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the per-user and module-wide memory charges.
 *
 * Every descriptor charges the kernel memory its programs hold (decoded
 * records, snapshots, program state, DMA copy slots) to the user who opened
 * it, the way io_uring charges user->locked_vm: all descriptors of one user
 * together may hold at most user_mem_mb MiB, and all users together at
 * most total_mem_mb MiB (by default a quarter of the RAM), so that no
 * number of users can exhaust the machine.  What is charged is what the
 * allocator holds, not what was asked for: the slab's size class, the
 * pages of a vmalloc() and its page array (ncsync_kv_held()).  The
 * allocations themselves are also charged to the memory cgroup
 * (GFP_KERNEL_ACCOUNT).
 */
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include <linux/vmalloc.h>

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

/* What every user together holds: capped by ncsync_total_limit(). */
static atomic_long_t ncsync_total_mem = ATOMIC_LONG_INIT(0);

/* The module-wide cap in bytes: total_mem_mb, or 0 for a quarter of RAM. */
static long ncsync_total_limit(void)
{
	unsigned int mb = READ_ONCE(ncsync_total_mem_mb);

	if (mb)
		return (long)mb << 20;
	return (long)(totalram_pages() / 4) << PAGE_SHIFT;
}

/* Add @bytes to @mem unless that takes it past @limit: 0 or -ENOMEM. */
static int ncsync_mem_add(atomic_long_t *mem, size_t bytes, long limit)
{
	long cur = atomic_long_read(mem);

	do {
		if (bytes > limit || cur > limit - (long)bytes)
			return -ENOMEM;
	} while (!atomic_long_try_cmpxchg(mem, &cur, cur + bytes));
	return 0;
}

/**
 * ncsync_user_charge() - charge memory to a user and to the module.
 * @user: the user.
 * @bytes: what to charge: what the allocator holds for it.
 *
 * Return: 0, or -ENOMEM (nothing charged) when the charge would take the
 * user past user_mem_mb or all users together past total_mem_mb.
 */
int ncsync_user_charge(struct ncsync_user *user, size_t bytes)
{
	int ret;

	ret = ncsync_mem_add(&user->mem, bytes,
			     (long)READ_ONCE(ncsync_user_mem_mb) << 20);
	if (ret)
		return ret;
	ret = ncsync_mem_add(&ncsync_total_mem, bytes, ncsync_total_limit());
	if (ret)
		atomic_long_sub(bytes, &user->mem);
	return ret;
}

/**
 * ncsync_user_uncharge() - give back memory charged by ncsync_user_charge().
 * @user: the user.
 * @bytes: what to give back.
 */
void ncsync_user_uncharge(struct ncsync_user *user, size_t bytes)
{
	atomic_long_sub(bytes, &user->mem);
	atomic_long_sub(bytes, &ncsync_total_mem);
}

/*
 * vmalloc()'s bookkeeping besides the pages and their array: its struct
 * vm_struct (a kmalloc-96 or -128 object) and struct vmap_area (a 64-byte
 * slab object), rounded up.
 */
#define NCSYNC_VMALLOC_META	256

/* What vmalloc() of @size holds: pages, page array, bookkeeping. */
static size_t ncsync_vmalloc_held(size_t size)
{
	size_t pages = PAGE_ALIGN(size) >> PAGE_SHIFT;
	size_t array = pages * sizeof(struct page *);

	/* vmalloc() takes the array from kmalloc() up to a page, else itself. */
	return (pages << PAGE_SHIFT) + NCSYNC_VMALLOC_META +
	       (array <= PAGE_SIZE ? kmalloc_size_roundup(array) :
				     ncsync_vmalloc_held(array));
}

/**
 * ncsync_kmalloc_held() - what kmalloc() of @size holds: its size class.
 * @size: the bytes asked for.
 *
 * Return: the bytes held.
 */
size_t ncsync_kmalloc_held(size_t size)
{
	return kmalloc_size_roundup(size);
}

/**
 * ncsync_kv_held() - what ncsync_kv_alloc() of @size holds.
 * @size: the bytes asked for.
 *
 * Return: the bytes held, within one size class or one page and the page
 * array of the bytes asked for.
 */
size_t ncsync_kv_held(size_t size)
{
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_size_roundup(size);
	return ncsync_vmalloc_held(size);
}

/**
 * ncsync_kv_alloc() - allocate what a user charged ncsync_kv_held() for.
 * @size: the bytes.
 * @gfp: GFP_KERNEL_ACCOUNT, with __GFP_ZERO or not.
 *
 * Up to the largest slab size class from the slab, above it from
 * vmalloc(): never from kmalloc()'s page allocations, whose power-of-two
 * orders hold up to twice what is asked (kvmalloc() would take 2 MiB for
 * a queue of 8,193 records).  Freed with kvfree().
 *
 * Return: the memory, or NULL.
 */
void *ncsync_kv_alloc(size_t size, gfp_t gfp)
{
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc(size, gfp);
	return __vmalloc(size, gfp);
}
