// SPDX-License-Identifier: GPL-2.0
/*
 * The test objects against the running kernel: the same object runs the same sequence of
 * context-free programs in netbpf (interpreter, test type) and in the kernel (socket filters,
 * BPF_PROG_TEST_RUN), and every return value and the contents of the named maps must agree.
 *
 * Objects with .maps go to the kernel through libbpf, as users load them. libbpf 1.x no longer
 * reads the legacy `maps` section, so iproute2-style objects go to the kernel from netbpf's reading
 * of them (src/kcompare/kernel_object.c, shared with netbpf diff): kernel maps created with the
 * definitions netbpf read, its linked instructions with map fds, program arrays and maps of maps
 * filled as netbpf filled its own. This checks the loader's relocations and definitions against
 * the kernel.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_asm.h"
#include "common/types.h"
#include "kcompare/kernel_object.h"
#include "../unit/elf_util.h"
#include "kernel_probe.h"

#define MAX_STEPS 8
#define MAX_MAPS  8

struct kscenario {
	const char *object;
	bool legacy;			/* through netbpf's linked instructions, not libbpf */
	const char *runs[MAX_STEPS];	/* programs, run in this order on both sides */
	const char *maps[MAX_MAPS];	/* compared key by key at the end */
};

static const struct kscenario scenarios[] = {
	{ "elf_hash.o", false, { "count", "count", "count" }, { "m" } },
	{ "elf_globals.o", false, { "prog_a", "prog_b", "prog_loop", "prog_str", "prog_a" },
	  { ".data", ".bss", ".rodata" } },
	{ "elf_static_data.o", false, { "count_hits", "count_hits" }, { ".data", ".bss" } },
	{ "elf_all_maps.o", false,
	  { "use_tail", "use_basic", "use_inner", "use_queue_stack", "use_lpm", "use_percpu",
	    "use_basic" },
	  { "hash", "array", "lru", "inner_a", "inner_b" } },
	{ "elf_iproute2.o", true, { "cls_main", "xmit", "cls_main", "tail_one" },
	  { "counters", "seen" } },
	{ "elf_legacy_libbpf.o", true, { "legacy_xdp" }, { "arr", "lru" } },
	{ "elf_iproute2_mim.o", true, { "through_outer", "through_outer" }, { "inner" } },
};

/* The kernel side of one object: fds by netbpf's program and map order. */
struct kside {
	struct bpf_object *lobj;	/* libbpf path */
	struct nb_kernel_object *kobj;	/* the other: the fds below are its own */
	int prog_fd[64];
	int map_fd[64];
};

static int prog_index(struct nb_object *obj, const char *name)
{
	struct nb_object_prog *p;
	int i = 0;

	nb_object_for_each_prog(p, obj) {
		if (!strcmp(nb_object_prog_name(p), name))
			return i;
		i++;
	}
	NB_FAIL("no program %s", name);
}

static int map_index(struct nb_object *obj, const char *name)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, obj) {
		if (!strcmp(nb_object_map_name(m), name))
			return i;
		i++;
	}
	NB_FAIL("no map %s", name);
}

/* The map the kernel knows by this name, and its index: global data by libbpf's name for it. */
static struct nb_object_map *map_kernel(struct nb_object *obj, const char *name, int *idx)
{
	struct nb_object_map *m;

	*idx = 0;
	nb_object_for_each_map(m, obj) {
		if (!strcmp(nb_map_name(nb_object_map_map(m)), name))
			return m;
		(*idx)++;
	}
	NB_FAIL("no map the kernel names %s", name);
}

static void kernel_load_libbpf(struct nb_object *nobj, const char *path, struct kside *k)
{
	struct bpf_program *p;
	struct bpf_map *m;

	k->lobj = bpf_object__open_file(path, NULL);
	if (!k->lobj)
		NB_FAIL("libbpf cannot open %s: %s", path, strerror(errno));
	bpf_object__for_each_program(p, k->lobj) {
		bpf_program__set_type(p, BPF_PROG_TYPE_SOCKET_FILTER);
		bpf_program__set_expected_attach_type(p, 0);
	}
	if (bpf_object__load(k->lobj))
		NB_FAIL("libbpf cannot load %s into the kernel: %s", path, strerror(errno));
	bpf_object__for_each_program(p, k->lobj)
		k->prog_fd[prog_index(nobj, bpf_program__name(p))] = bpf_program__fd(p);
	bpf_object__for_each_map(m, k->lobj) {
		/* The kernel's name of each map is libbpf's (elf_glob.data), and so are its flags. */
		int i;
		struct nb_object_map *nm = map_kernel(nobj, bpf_map__name(m), &i);

		NB_ASSERT_EQ(nb_object_map_flags(nm), bpf_map__map_flags(m));
		k->map_fd[i] = bpf_map__fd(m);
	}
}

/* Through netbpf's linked instructions, as iproute2 loads them (src/kcompare/kernel_object.c). */
static void kernel_load_bridge(struct nb_object *nobj, struct kside *k)
{
	const struct nb_kernel_object_opts opts = { .prog_type = BPF_PROG_TYPE_SOCKET_FILTER };
	struct nb_log log = { 0 };
	int err = nb_kernel_object_load(nobj, &opts, &k->kobj, &log);

	if (err)
		NB_FAIL("%s into the kernel: %d: %s", nb_object_name(nobj), err, nb_log_text(&log));
	nb_log_free(&log);
	NB_ASSERT(k->kobj->prog_cnt <= ARRAY_SIZE(k->prog_fd) &&
		  k->kobj->map_cnt <= ARRAY_SIZE(k->map_fd));
	memcpy(k->prog_fd, k->kobj->prog_fd, k->kobj->prog_cnt * sizeof(int));
	memcpy(k->map_fd, k->kobj->map_fd, k->kobj->map_cnt * sizeof(int));
}

static __u32 kernel_run(int fd, const char *name)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);

	if (bpf_prog_test_run_opts(fd, &topts))
		NB_FAIL("BPF_PROG_TEST_RUN of %s: %s", name, strerror(errno));
	return topts.retval;
}

/* Every key of the kernel map holds the same value in netbpf's, and the counts agree. */
static void compare_map(const char *name, int kfd, struct nb_map *nm)
{
	__u32 ks = nb_map_key_size(nm), vs = nb_map_value_size(nm);
	unsigned char key[256], next[256], kv[4096], nv[4096];
	unsigned int kcount = 0, ncount = 0;
	void *prev = NULL;

	NB_ASSERT(ks <= sizeof(key) && vs <= sizeof(kv));
	while (!bpf_map_get_next_key(kfd, prev, next)) {
		memcpy(key, next, ks);
		prev = key;
		NB_ASSERT(!bpf_map_lookup_elem(kfd, key, kv));
		if (nb_map_lookup_elem(nm, key, nv))
			NB_FAIL("map %s: a key the kernel holds is missing in netbpf", name);
		if (memcmp(kv, nv, vs))
			NB_FAIL("map %s: values differ at key %02x %02x %02x %02x: kernel %02x %02x "
				"%02x %02x, netbpf %02x %02x %02x %02x", name, key[0], key[1],
				key[2], key[3], kv[0], kv[1], kv[2], kv[3], nv[0], nv[1], nv[2],
				nv[3]);
		kcount++;
	}
	for (int err = nb_map_get_next_key(nm, NULL, next); !err;
	     err = nb_map_get_next_key(nm, key, next)) {
		memcpy(key, next, ks);
		ncount++;
	}
	if (kcount != ncount)
		NB_FAIL("map %s: the kernel holds %u keys, netbpf %u", name, kcount, ncount);
}

static void run_scenario(const void *arg)
{
	const struct kscenario *s = arg;
	struct nb_object *nobj;
	struct kside k;

	need_kernel_prog(BPF_PROG_TYPE_SOCKET_FILTER);
	memset(&k, -1, sizeof(k));
	k.lobj = NULL;
	k.kobj = NULL;
	nobj = elf_test_open(s->object);
	elf_test_load(nobj);
	if (s->legacy)
		kernel_load_bridge(nobj, &k);
	else
		kernel_load_libbpf(nobj, elf_test_path(s->object), &k);
	for (int i = 0; i < MAX_STEPS && s->runs[i]; i++) {
		int idx = prog_index(nobj, s->runs[i]);
		__u32 nr = (__u32)elf_test_run(nobj, s->runs[i]);
		__u32 kr = kernel_run(k.prog_fd[idx], s->runs[i]);

		if (nr != kr)
			NB_FAIL("%s step %d: %s returned %u in netbpf, %u in the kernel", s->object,
				i, s->runs[i], nr, kr);
	}
	for (int i = 0; i < MAX_MAPS && s->maps[i]; i++)
		compare_map(s->maps[i], k.map_fd[map_index(nobj, s->maps[i])],
			    elf_test_map(nobj, s->maps[i]));
	if (k.lobj)
		bpf_object__close(k.lobj);
	nb_kernel_object_close(k.kobj);
	nb_object_close(nobj);
}

static void __attribute__((constructor)) register_scenarios(void)
{
	static char names[sizeof(scenarios) / sizeof(scenarios[0])][64];

	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		snprintf(names[i], sizeof(names[i]), "elf_kernel_%.*s",
			 (int)(strchr(scenarios[i].object, '.') - scenarios[i].object) - 4,
			 scenarios[i].object + 4);
		nb_test_register(names[i], run_scenario, &scenarios[i]);
	}
}
