// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): ncsync notify [on|off]: a core's event notifications, through
 * the generic netlink family (NCSYNC_CMD_GET_CORE, NCSYNC_CMD_SET_NOTIFY).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "cmds.h"
#include "opts.h"
#include "print.h"

/* notify: the setting of core -c. */
static int notify_show(struct nl_ctx *nl)
{
	struct nl_core *core = malloc(sizeof(*core));
	int ret;

	ret = core ? nl_get_core_on(nl, opt_core, core) :
		     fail_err(ENOMEM, "notify");
	if (!ret) {
		if (opt_json) {
			j_obj(NULL);
			j_uint("core", opt_core);
			j_bool("notify", core->notify);
			j_uint("notify_drops", core->drops);
			j_end();
			j_done();
		} else {
			printf("%s\n", core->notify ? "on" : "off");
		}
		nl_core_release(core);
	}
	free(core);
	return ret;
}

/* notify on|off (@word). */
static int notify_set(struct nl_ctx *nl, const char *word)
{
	bool on = !strcmp(word, "on");
	struct nl_msg *msg;
	const char *why;
	int ret;

	msg = nl_new(nl, NCSYNC_CMD_SET_NOTIFY, NLM_F_ACK);
	if (!msg || nla_put_u32(msg, NCSYNC_A_CORE, opt_core) < 0 ||
	    nla_put_u8(msg, NCSYNC_A_NOTIFY, on) < 0) {
		nlmsg_free(msg);
		return fail_err(ENOMEM, "notify %s", word);
	}
	ret = nl_request(nl, msg, NULL, NULL, &why);
	if (ret == -EIO && why)
		return fail_msg("notify %s on core %u: %s", word, opt_core,
				why);
	if (ret)
		return fail_err(ret, "notify %s on core %u", word, opt_core);
	if (opt_json) {
		j_obj(NULL);
		j_uint("core", opt_core);
		j_bool("notify", on);
		j_end();
		j_done();
	}
	return EXIT_OK;
}

int cmd_notify(const struct cmd *c, int argc, char **argv)
{
	struct nl_ctx nl;
	struct args a;
	int ret;

	ret = parse_one(c, argc, argv, NULL, NULL, &a);
	if (ret)
		return OPTS_EXIT(ret);
	if (a.npos && strcmp(a.pos[0], "on") && strcmp(a.pos[0], "off"))
		return usage_err(c, "expected 'on' or 'off', not '%s'",
				 a.pos[0]);
	ret = nl_ctx_open(&nl);
	if (ret)
		return ret;
	ret = a.npos ? notify_set(&nl, a.pos[0]) : notify_show(&nl);
	nl_ctx_close(&nl);
	return ret;
}
