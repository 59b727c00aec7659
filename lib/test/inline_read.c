// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Host test: ncsync_sem_read() and ncsync_event_read() are inline loads
 * from the mapping struct ncsync_dev_map describes, and libncsync.so
 * exports the same two functions, compiled from the same bodies, that
 * read the same values; the library's own functions see the same layout.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncsync.h"
#include "tap.h"

typedef int32_t (*sem_read_fn)(const struct ncsync_dev *, uint8_t);
typedef bool (*event_read_fn)(const struct ncsync_dev *, uint8_t);

static uint32_t csr[NCSYNC_CSR_SIZE / 4];

/* libncsync.so.1 beside this test's directory (build/lib). */
static void *open_library(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	strcpy(slash, "/../libncsync.so.1");
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static void exported(const struct ncsync_dev *dev)
{
	void *so = open_library();
	sem_read_fn sem = NULL;
	event_read_fn ev = NULL;

	if (so) {
		sem = (sem_read_fn)dlsym(so, "ncsync_sem_read");
		ev = (event_read_fn)dlsym(so, "ncsync_event_read");
	}
	TAP_CHECK(sem && ev, "libncsync.so.1 exports both readers");
	TAP_CHECK(sem && sem(dev, 7) == -3 && sem(dev, 255) == INT32_MAX,
		  "the exported ncsync_sem_read() reads the mapping");
	TAP_CHECK(ev && ev(dev, 9) && !ev(dev, 8),
		  "the exported ncsync_event_read() reads the mapping");
	if (so)
		dlclose(so);
}

int main(void)
{
	struct ncsync_dev_map m = { .fd = 12345, .csr = csr };
	const struct ncsync_dev *dev = (const struct ncsync_dev *)&m;

	csr[NCSYNC_CSR_SEM_READ / 4 + 7] = (uint32_t)-3;
	csr[NCSYNC_CSR_SEM_READ / 4 + 255] = INT32_MAX;
	csr[NCSYNC_CSR_EVENTS / 4 + 9] = 1;
	TAP_CHECK(ncsync_sem_read(dev, 7) == -3 &&
		  ncsync_sem_read(dev, 255) == INT32_MAX &&
		  ncsync_sem_read(dev, 0) == 0, "inline ncsync_sem_read()");
	TAP_CHECK(ncsync_event_read(dev, 9) && !ncsync_event_read(dev, 8),
		  "inline ncsync_event_read()");
	csr[NCSYNC_CSR_SEM_READ / 4 + 7] = 11;
	TAP_CHECK(ncsync_sem_read(dev, 7) == 11,
		  "a change in the mapping is seen at once (volatile)");
	csr[NCSYNC_CSR_SEM_READ / 4 + 7] = (uint32_t)-3;
	TAP_CHECK(ncsync_fd(dev) == 12345,
		  "the library's functions share the layout");
	exported(dev);
	return tap_done();
}
