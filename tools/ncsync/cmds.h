/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncsync(1): the commands of the table of main.c, each in cmd_NAME.c
 * (sem and event in cmd_bank.c, load and unload in cmd_module.c); help is
 * main.c's own.
 */
#ifndef NCSYNC_CMDS_H
#define NCSYNC_CMDS_H

#include "tool.h"

int cmd_load(const struct cmd *c, int argc, char **argv);
int cmd_unload(const struct cmd *c, int argc, char **argv);
int cmd_info(const struct cmd *c, int argc, char **argv);
int cmd_sem(const struct cmd *c, int argc, char **argv);
int cmd_event(const struct cmd *c, int argc, char **argv);
int cmd_reset(const struct cmd *c, int argc, char **argv);
int cmd_wait(const struct cmd *c, int argc, char **argv);
int cmd_asm(const struct cmd *c, int argc, char **argv);
int cmd_disasm(const struct cmd *c, int argc, char **argv);
int cmd_run(const struct cmd *c, int argc, char **argv);
int cmd_check(const struct cmd *c, int argc, char **argv);
int cmd_replay(const struct cmd *c, int argc, char **argv);
int cmd_dump(const struct cmd *c, int argc, char **argv);
int cmd_monitor(const struct cmd *c, int argc, char **argv);
int cmd_notify(const struct cmd *c, int argc, char **argv);
int cmd_top(const struct cmd *c, int argc, char **argv);

#endif /* NCSYNC_CMDS_H */
