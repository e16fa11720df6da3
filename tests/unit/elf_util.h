/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the object loader's tests: open a test object, load it for the interpreter. */
#ifndef NB_TEST_ELF_UTIL_H
#define NB_TEST_ELF_UTIL_H

#include <errno.h>
#include <string.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "test.h"

static inline const char *elf_test_path(const char *name)
{
	static char buf[4096];
	char rel[256];

	snprintf(rel, sizeof(rel), "tests/bpf/%s", name);
	return nb_test_build_path(buf, sizeof(buf), rel);
}

static inline struct nb_object *elf_test_open(const char *name)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts opts = { .sz = sizeof(opts), .log = &log };
	struct nb_object *obj;
	int err = nb_object_open_file(elf_test_path(name), &opts, &obj);

	if (err)
		NB_FAIL("open %s: %d: %s", name, err, nb_log_text(&log));
	nb_log_free(&log);
	return obj;
}

/*
 * Load every program as the context-free test type (BPF_PROG_TYPE_SYSCALL, tests/unit/
 * test_prog_type.c) on the interpreter without a proof: these programs use maps and helpers only.
 * A map type or helper that is not built yet skips the test with its name.
 */
static inline void elf_test_load(struct nb_object *obj)
{
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts),
		.prog_type = BPF_PROG_TYPE_SYSCALL,
		.prog_flags = NB_PROG_LOAD_INTERP | NB_PROG_LOAD_UNSAFE_NO_VERIFY,
		.log = &log,
	};
	int err = nb_object_load(obj, &opts);
	const char *text = nb_log_text(&log);

	if (err && text && (strstr(text, "unsupported map type") ||
			    strstr(text, "unsupported func") || strstr(text, "unknown func") ||
			    strstr(text, "is not implemented by netbpf")))
		nb_test_skip("not built yet: %s", text);
	if (err)
		NB_FAIL("load %s: %d: %s", nb_object_name(obj), err, text ? text : "");
	nb_log_free(&log);
}

/*
 * Open tests/bpf/NAME and load it as its sections say, verified, on the JIT or (jit false) the
 * interpreter; a refused load fails the test with the verifier's log.
 */
static inline struct nb_object *elf_test_open_loaded(const char *name, bool jit)
{
	struct nb_object *obj = elf_test_open(name);
	struct nb_log log = { 0 };
	struct nb_object_load_opts opts = {
		.sz = sizeof(opts), .prog_flags = jit ? 0 : NB_PROG_LOAD_INTERP, .log = &log,
	};
	int err = nb_object_load(obj, &opts);

	if (err)
		NB_FAIL("load %s: %d: %s", name, err, nb_log_text(&log) ?: "");
	nb_log_free(&log);
	return obj;
}

/* The loaded program named prog_name of obj (no reference taken). */
static inline struct nb_prog *elf_test_prog(struct nb_object *obj, const char *prog_name)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, NULL, prog_name);

	if (!p || !nb_object_prog_prog(p))
		NB_FAIL("no loaded program %s", prog_name);
	return nb_object_prog_prog(p);
}

static inline __u64 elf_test_run(struct nb_object *obj, const char *prog_name)
{
	return nb_prog_run(elf_test_prog(obj, prog_name), NULL);
}

static inline struct nb_map *elf_test_map(struct nb_object *obj, const char *name)
{
	struct nb_object_map *m = nb_object_find_map(obj, name);

	if (!m || !nb_object_map_map(m))
		NB_FAIL("no loaded map %s", name);
	return nb_object_map_map(m);
}

#endif /* NB_TEST_ELF_UTIL_H */
