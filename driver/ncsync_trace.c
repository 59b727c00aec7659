// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync: the tracepoints' definitions (see ncsync_trace.h).
 */
#define CREATE_TRACE_POINTS
#include "ncsync_trace.h"
