// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync - command line tool for the ncsync sync fabric module.
 *
 * Subcommands live in the cmds[] table below; each gets argc/argv starting
 * at its own name and returns the process exit status:
 *   0 success, 1 failure, 2 usage error.
 *
 *   ncsync load [--path FILE.ko] [PARAM=VALUE ...]
 *   ncsync unload
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkmod.h>

#define MODNAME		"ncsync"

#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

static const char *prog = "ncsync";

struct cmd {
	const char *name;
	const char *args;
	const char *help;
	int (*fn)(int argc, char **argv);
};

static int cmd_help(int argc, char **argv);
static int cmd_load(int argc, char **argv);
static int cmd_unload(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "load", "[--path FILE.ko] [PARAM=VALUE ...]",
	  "insert the module from FILE.ko, or by name (\"" MODNAME "\")\n"
	  "\tfrom /lib/modules/$(uname -r) with its dependencies; the\n"
	  "\tPARAM=VALUE words are its parameters",
	  cmd_load },
	{ "unload", "", "remove the module", cmd_unload },
	{ "help", "", "show this help", cmd_help },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NCMDS		ARRAY_SIZE(cmds)

static void print_help(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s COMMAND [ARGS...]\n\ncommands:\n", prog);
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %s%s%s\n\t%s\n", cmds[i].name,
			*cmds[i].args ? " " : "", cmds[i].args, cmds[i].help);
	fprintf(f, "\nexit status: 0 success, 1 failure, 2 usage error\n");
}

static void print_cmd_help(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: %s %s%s%s\n\t%s\n", prog, c->name,
		*c->args ? " " : "", c->args, c->help);
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static int cmd_help(int argc, char **argv)
{
	print_help(stdout);
	return EXIT_OK;
}

static struct kmod_ctx *kmod_open(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx)
		fprintf(stderr, "%s: cannot create libkmod context\n", prog);
	return ctx;
}

/* Explain an errno from init_module/finit_module/delete_module. */
static const char *mod_strerror(int err)
{
	switch (err) {
	case ENOEXEC:
		return "invalid module format (built for another kernel?)";
	case ENOENT:
		return "unknown symbol in module, or unknown parameter (see dmesg)";
	case EINVAL:
		return "invalid parameters (see dmesg)";
	case EEXIST:
		return "module already loaded";
	case EPERM:
		return "operation not permitted";
	case EKEYREJECTED:
		return "module signature rejected";
	default:
		return strerror(err);
	}
}

/* Join words with single spaces into a freshly allocated string. */
static char *join_words(int n, char **words)
{
	size_t len = 1;
	char *s, *p;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	*p = '\0';
	for (i = 0; i < n; i++) {
		size_t l = strlen(words[i]);

		if (i)
			*p++ = ' ';
		memcpy(p, words[i], l);
		p += l;
		*p = '\0';
	}
	return s;
}

/* Is @mod present in the running kernel (loaded or built in)? */
static bool mod_in_kernel(const struct kmod_module *mod)
{
	return kmod_module_get_initstate(mod) >= 0;
}

/*
 * A module inserted from a path gets no help from modules.dep: load the
 * modules named in its "depends=" modinfo field first, by name.
 */
static int load_path_deps(struct kmod_ctx *ctx, struct kmod_module *mod)
{
	struct kmod_list *info = NULL, *l;
	int ret = 0;
	int err;

	err = kmod_module_get_info(mod, &info);
	if (err < 0) {
		fprintf(stderr, "%s: cannot read module info of %s: %s\n",
			prog, kmod_module_get_path(mod), mod_strerror(-err));
		return -1;
	}
	kmod_list_foreach(l, info) {
		const char *key = kmod_module_info_get_key(l);
		const char *val = kmod_module_info_get_value(l);
		char *deps, *save = NULL, *name;

		if (strcmp(key, "depends") || !val || !*val)
			continue;
		deps = strdup(val);
		if (!deps) {
			ret = -1;
			break;
		}
		for (name = strtok_r(deps, ",", &save); name;
		     name = strtok_r(NULL, ",", &save)) {
			struct kmod_module *dep;

			err = kmod_module_new_from_name(ctx, name, &dep);
			if (err < 0) {
				fprintf(stderr, "%s: dependency %s: %s\n",
					prog, name, strerror(-err));
				ret = -1;
				break;
			}
			err = kmod_module_probe_insert_module(dep, 0, NULL,
							      NULL, NULL, NULL);
			if (err != 0) {
				fprintf(stderr,
					"%s: cannot load dependency %s: %s\n",
					prog, name, err < 0 ?
					mod_strerror(-err) : "blacklisted");
				ret = -1;
			}
			kmod_module_unref(dep);
			if (ret)
				break;
		}
		free(deps);
		if (ret)
			break;
	}
	kmod_module_info_free_list(info);
	return ret;
}

static int cmd_load(int argc, char **argv)
{
	const struct cmd *c = find_cmd("load");
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	const char *path = NULL;
	char *opts;
	int ret = EXIT_FAIL;
	int err;
	int i;

	/* Options, then the parameter words (after "--" or the first word). */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (is_help(argv[i])) {
			print_cmd_help(stdout, c);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--path")) {
			if (++i >= argc) {
				fprintf(stderr, "%s load: --path needs a FILE\n",
					prog);
				return EXIT_USAGE;
			}
			path = argv[i];
		} else if (!strncmp(argv[i], "--path=", 7)) {
			path = argv[i] + 7;
		} else {
			fprintf(stderr, "%s load: unknown option '%s'\n",
				prog, argv[i]);
			print_cmd_help(stderr, c);
			return EXIT_USAGE;
		}
	}
	if (path && !*path) {
		fprintf(stderr, "%s load: empty --path\n", prog);
		return EXIT_USAGE;
	}

	opts = join_words(argc - i, argv + i);
	if (!opts) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAIL;
	}
	ctx = kmod_open();
	if (!ctx)
		goto out;

	if (path) {
		err = kmod_module_new_from_path(ctx, path, &mod);
		if (err < 0) {
			fprintf(stderr, "%s: cannot open module %s: %s\n",
				prog, path, strerror(-err));
			goto out;
		}
		if (mod_in_kernel(mod)) {
			fprintf(stderr,
				"%s: module %s is already loaded (run '%s unload' first)\n",
				prog, kmod_module_get_name(mod), prog);
			goto out;
		}
		if (load_path_deps(ctx, mod))
			goto out;
		err = kmod_module_insert_module(mod, 0, opts);
	} else {
		err = kmod_module_new_from_name(ctx, MODNAME, &mod);
		if (err < 0) {
			fprintf(stderr, "%s: cannot look up module %s: %s\n",
				prog, MODNAME, strerror(-err));
			goto out;
		}
		if (!kmod_module_get_path(mod) && !mod_in_kernel(mod)) {
			fprintf(stderr,
				"%s: module %s not found in the module directory of this kernel; use --path FILE.ko\n",
				prog, MODNAME);
			goto out;
		}
		err = kmod_module_probe_insert_module(mod,
						      KMOD_PROBE_FAIL_ON_LOADED,
						      opts, NULL, NULL, NULL);
		if (err > 0) {
			fprintf(stderr, "%s: module %s is blacklisted\n",
				prog, MODNAME);
			goto out;
		}
	}
	if (err < 0) {
		fprintf(stderr, "%s: cannot load %s%s%s%s: %s\n", prog,
			path ? path : MODNAME, *opts ? " (parameters '" : "",
			opts, *opts ? "')" : "", mod_strerror(-err));
		if (-err == EEXIST)
			fprintf(stderr, "%s: run '%s unload' first\n",
				prog, prog);
		goto out;
	}
	ret = EXIT_OK;
out:
	if (mod)
		kmod_module_unref(mod);
	if (ctx)
		kmod_unref(ctx);
	free(opts);
	return ret;
}

static int cmd_unload(int argc, char **argv)
{
	const struct cmd *c = find_cmd("unload");
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int ret = EXIT_FAIL;
	int state;
	int err;

	if (argc > 1) {
		if (is_help(argv[1])) {
			print_cmd_help(stdout, c);
			return EXIT_OK;
		}
		fprintf(stderr, "%s unload: unexpected argument '%s'\n",
			prog, argv[1]);
		print_cmd_help(stderr, c);
		return EXIT_USAGE;
	}

	ctx = kmod_open();
	if (!ctx)
		return EXIT_FAIL;
	err = kmod_module_new_from_name(ctx, MODNAME, &mod);
	if (err < 0) {
		fprintf(stderr, "%s: cannot look up module %s: %s\n",
			prog, MODNAME, strerror(-err));
		goto out;
	}
	state = kmod_module_get_initstate(mod);
	if (state < 0) {
		fprintf(stderr, "%s: module %s is not loaded\n", prog, MODNAME);
		goto out;
	}
	if (state == KMOD_MODULE_BUILTIN) {
		fprintf(stderr, "%s: module %s is built into the kernel\n",
			prog, MODNAME);
		goto out;
	}
	err = kmod_module_remove_module(mod, 0);
	if (err < 0) {
		if (-err == EBUSY || -err == EAGAIN)
			fprintf(stderr,
				"%s: cannot unload %s: module is in use (refcount %d)\n",
				prog, MODNAME, kmod_module_get_refcnt(mod));
		else
			fprintf(stderr, "%s: cannot unload %s: %s\n", prog,
				MODNAME, mod_strerror(-err));
		goto out;
	}
	ret = EXIT_OK;
out:
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (is_help(argv[1])) {
		print_help(stdout);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
		print_help(stderr);
		return EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}
