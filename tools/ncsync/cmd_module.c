// SPDX-License-Identifier: GPL-2.0
/*
 * ncsync(1): load and unload the module through libkmod.
 *
 *   ncsync load [--path FILE.ko] [PARAM=VALUE ...]
 *   ncsync unload
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libkmod.h>

#include "cmds.h"
#include "opts.h"

#define MODNAME		"ncsync"

static const char *prog = "ncsync";

static struct kmod_ctx *kmod_open(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx)
		fail_msg("libkmod: cannot create a context");
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
		fail_msg("load %s: cannot read the module info: %s",
			 kmod_module_get_path(mod), mod_strerror(-err));
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
				fail_err(err, "load dependency %s", name);
				ret = -1;
				break;
			}
			err = kmod_module_probe_insert_module(dep, 0, NULL,
							      NULL, NULL, NULL);
			if (err != 0) {
				fail_msg("load dependency %s: %s", name,
					 err < 0 ? mod_strerror(-err) :
					 "blacklisted");
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

/* The insertion of the module (@what: its path or name) failed with @err. */
static int load_failed(const char *what, const char *params, int err)
{
	fail_msg("load %s%s%s%s: %s", what, *params ? " (parameters '" : "",
		 params, *params ? "')" : "", mod_strerror(-err));
	if (-err == EEXIST)
		fprintf(stderr, "%s: run '%s unload' first\n", prog, prog);
	return EXIT_FAIL;
}

struct load_opts {
	const char *path;	/* NULL: by name */
};

static const struct opt load_opt_table[] = {
	{ "path", 'p', OPT_PATH, OPT_FIELD(struct load_opts, path) },
	{ /* sentinel */ }
};

/* Insert the module from @path with its dependencies; prints the error. */
static int load_from_path(struct kmod_ctx *ctx, const char *path,
			  const char *params, struct kmod_module **mod)
{
	int err;

	err = kmod_module_new_from_path(ctx, path, mod);
	if (err < 0)
		return fail_err(err, "load %s", path);
	if (mod_in_kernel(*mod))
		return fail_msg("load %s: module %s is already loaded (run '%s unload' first)",
				path, kmod_module_get_name(*mod), prog);
	if (load_path_deps(ctx, *mod))
		return EXIT_FAIL;
	err = kmod_module_insert_module(*mod, 0, params);
	return err < 0 ? load_failed(path, params, err) : 0;
}

/* Insert the module by name from the module directory; prints the error. */
static int load_by_name(struct kmod_ctx *ctx, const char *params,
			struct kmod_module **mod)
{
	int err;

	err = kmod_module_new_from_name(ctx, MODNAME, mod);
	if (err < 0)
		return fail_err(err, "load %s", MODNAME);
	if (!kmod_module_get_path(*mod) && !mod_in_kernel(*mod))
		return fail_msg("load %s: module not found in the module directory of this kernel; use --path FILE.ko",
				MODNAME);
	err = kmod_module_probe_insert_module(*mod, KMOD_PROBE_FAIL_ON_LOADED,
					      params, NULL, NULL, NULL);
	if (err > 0)
		return fail_msg("load %s: module is blacklisted", MODNAME);
	return err < 0 ? load_failed(MODNAME, params, err) : 0;
}

int cmd_load(const struct cmd *c, int argc, char **argv)
{
	struct load_opts o = { NULL };
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	char *params;
	struct args a;
	int ret;

	ret = parse_opts(c, argc, argv, load_opt_table, &o, &a);
	if (ret)
		return OPTS_EXIT(ret);
	params = join_words(a.npos, a.pos);
	if (!params)
		return fail_err(ENOMEM, "load");
	ctx = kmod_open();
	if (!ctx) {
		free(params);
		return EXIT_FAIL;
	}
	if (o.path)
		ret = load_from_path(ctx, o.path, params, &mod);
	else
		ret = load_by_name(ctx, params, &mod);
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	free(params);
	return ret;
}

int cmd_unload(const struct cmd *c, int argc, char **argv)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int state, err;
	int ret;

	ret = parse_none(c, argc, argv, NULL, NULL);
	if (ret)
		return OPTS_EXIT(ret);
	ret = EXIT_FAIL;

	ctx = kmod_open();
	if (!ctx)
		return EXIT_FAIL;
	err = kmod_module_new_from_name(ctx, MODNAME, &mod);
	if (err < 0) {
		fail_err(err, "unload %s", MODNAME);
		goto out;
	}
	state = kmod_module_get_initstate(mod);
	if (state < 0) {
		fail_msg("unload %s: module is not loaded", MODNAME);
		goto out;
	}
	if (state == KMOD_MODULE_BUILTIN) {
		fail_msg("unload %s: module is built into the kernel", MODNAME);
		goto out;
	}
	err = kmod_module_remove_module(mod, 0);
	if (err < 0) {
		if (-err == EBUSY || -err == EAGAIN)
			fail_msg("unload %s: module is in use (refcount %d)",
				 MODNAME, kmod_module_get_refcnt(mod));
		else
			fail_msg("unload %s: %s", MODNAME, mod_strerror(-err));
		goto out;
	}
	ret = EXIT_OK;
out:
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}
