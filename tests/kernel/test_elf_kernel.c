// SPDX-License-Identifier: GPL-2.0
/*
 * The test objects against the running kernel: the same object runs the same sequence of
 * context-free programs in netbpf (interpreter, test type) and in the kernel (socket filters,
 * BPF_PROG_TEST_RUN), and every return value and the contents of the named maps must agree.
 *
 * Objects with .maps go to the kernel through libbpf, as users load them. libbpf 1.x no longer
 * reads the legacy `maps` section, so iproute2-style objects go through netbpf's own linked
 * instructions (BPF_PSEUDO_MAP_IDX, which the kernel resolves through fd_array) and kernel maps
 * created with the definitions netbpf read, program arrays filled as netbpf filled its own: this
 * checks the loader's relocations and definitions against the kernel.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_asm.h"
#include "../unit/elf_util.h"

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
	int prog_fd[64];
	int map_fd[64];
};

static void skip_without_bpf(void)
{
	const struct bpf_insn prog[] = { NB_MOV64_IMM(0, 0), NB_EXIT() };
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "probe", "GPL", prog, 2, NULL);

	if (fd >= 0) {
		close(fd);
		return;
	}
	if (errno == EPERM || errno == EACCES)
		nb_test_skip("loading BPF programs is not permitted (need root or CAP_BPF, uid %u)",
			     (unsigned int)geteuid());
	nb_test_skip("the kernel cannot load BPF programs: %s", strerror(errno));
}

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
		const char *name = bpf_map__name(m);
		const char *dot = strchr(name, '.');

		/* libbpf names global data "OBJNAME.data"; netbpf by the section. */
		k->map_fd[map_index(nobj, dot && nb_object_find_map(nobj, dot) ? dot : name)] =
			bpf_map__fd(m);
	}
}

static bool is_map_in_map(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_ARRAY_OF_MAPS || t == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* The kernel fd of the map netbpf knows by this id. */
static int kernel_map_fd_by_id(struct nb_object *nobj, const struct kside *k, __u32 id)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, nobj) {
		if (nb_map_id(nb_object_map_map(m)) == id)
			return k->map_fd[i];
		i++;
	}
	NB_FAIL("no map with netbpf id %u in the object", id);
}

/* An outer map's template: the object's map that netbpf put into it. */
static int kernel_inner_template(struct nb_object *nobj, const struct kside *k,
				 struct nb_map *outer)
{
	for (__u32 key = 0; key < nb_map_max_entries(outer); key++) {
		__u32 id;

		if (!nb_map_lookup_elem(outer, &key, &id))
			return kernel_map_fd_by_id(nobj, k, id);
	}
	NB_FAIL("outer map %s holds no inner map to take as template", nb_map_name(outer));
}

/* Kernel maps with netbpf's definitions, global data written, then the linked programs. */
static void kernel_load_bridge(struct nb_object *nobj, struct kside *k)
{
	static char log[1 << 16];
	struct nb_object_prog *p;
	struct nb_object_map *m;
	int i = 0;

	/* Maps of maps last: their template is an inner map, found by netbpf's map id. */
	for (int pass = 0; pass < 2; pass++) {
		i = 0;
		nb_object_for_each_map(m, nobj) {
			struct nb_map *nm = nb_object_map_map(m);
			LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = nb_object_map_flags(m));

			if (is_map_in_map(nb_object_map_type(m)) != (pass == 1)) {
				i++;
				continue;
			}
			if (pass == 1)
				mopts.inner_map_fd = kernel_inner_template(nobj, k, nm);
			k->map_fd[i] = bpf_map_create(nb_object_map_type(m), NULL,
						      nb_object_map_key_size(m),
						      nb_object_map_value_size(m),
						      nb_object_map_max_entries(m), &mopts);
			if (k->map_fd[i] < 0)
				NB_FAIL("kernel map %s: %s", nb_object_map_name(m),
					strerror(errno));
			i++;
		}
	}
	i = 0;
	nb_object_for_each_prog(p, nobj) {
		unsigned int cnt;
		const struct bpf_insn *insns = nb_object_prog_insns(p, &cnt);
		LIBBPF_OPTS(bpf_prog_load_opts, popts, .fd_array = k->map_fd, .log_buf = log,
			    .log_size = sizeof(log), .log_level = 1);

		k->prog_fd[i] = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, nb_object_prog_name(p),
					      nb_object_license(nobj), insns, cnt, &popts);
		if (k->prog_fd[i] < 0)
			NB_FAIL("kernel load of %s: %s\n%s", nb_object_prog_name(p),
				strerror(errno), log);
		i++;
	}
	/* Maps of maps as netbpf filled them: its map ids become kernel fds. */
	i = 0;
	nb_object_for_each_map(m, nobj) {
		struct nb_map *nm = nb_object_map_map(m);

		for (__u32 key = 0; is_map_in_map(nb_object_map_type(m)) &&
				    key < nb_object_map_max_entries(m); key++) {
			__u32 id;
			int fd;

			if (nb_map_lookup_elem(nm, &key, &id))
				continue;
			fd = kernel_map_fd_by_id(nobj, k, id);
			NB_ASSERT(!bpf_map_update_elem(k->map_fd[i], &key, &fd, 0));
		}
		i++;
	}
	/* Program arrays as netbpf filled them: its program ids become kernel fds. */
	i = 0;
	nb_object_for_each_map(m, nobj) {
		struct nb_map *nm = nb_object_map_map(m);

		if (nb_object_map_type(m) == BPF_MAP_TYPE_PROG_ARRAY) {
			for (__u32 key = 0; key < nb_object_map_max_entries(m); key++) {
				struct nb_object_prog *q;
				__u32 id;
				int j = 0;

				if (nb_map_lookup_elem(nm, &key, &id))
					continue;
				nb_object_for_each_prog(q, nobj) {
					if (nb_prog_id(nb_object_prog_prog(q)) == id)
						NB_ASSERT(!bpf_map_update_elem(k->map_fd[i], &key,
									       &k->prog_fd[j], 0));
					j++;
				}
			}
		}
		i++;
	}
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

	skip_without_bpf();
	memset(&k, -1, sizeof(k));
	k.lobj = NULL;
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
