// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libncsync: the inline functions of <ncsync.h> compiled once as exported
 * functions, from the header's own bodies, for callers that cannot inline
 * a C header.
 */
#define NCSYNC_INLINE
#include "ncsync.h"
