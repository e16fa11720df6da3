// SPDX-License-Identifier: GPL-2.0
/*
 * cpumap's rules against the running kernel: the same create attributes, and the same update,
 * lookup and delete sequences on a kernel cpumap and on netbpf's, must give the same errors and
 * values. Programs in entries are a cpumap program, a plain XDP program, none (fd 0 or -1);
 * netbpf takes program ids where the kernel takes fds. netbpf has as many workers as the kernel
 * has possible CPUs, so that "no such CPU" is the same key on both sides.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>

#include "bpf_asm.h"
#include "common/types.h"
#include "test.h"
#include "kernel_probe.h"

static const struct {
	__u32 key_size, value_size, max_entries, flags;
} creates[] = {
	{ 4, 4, 4, 0 }, { 4, 8, 4, 0 }, { 8, 4, 4, 0 }, { 2, 4, 4, 0 }, { 4, 6, 4, 0 },
	{ 4, 12, 4, 0 }, { 4, 0, 4, 0 }, { 4, 4, 0, 0 }, { 4, 4, 4, BPF_F_RDONLY },
	{ 4, 4, 4, BPF_F_WRONLY_PROG }, { 4, 8, 4, BPF_F_NO_PREALLOC }, { 4, 4, 4, BPF_F_MMAPABLE },
	{ 4, 4, 4, BPF_F_NUMA_NODE },
};

NB_TEST(cpumap_kernel_create_rules)
{
	need_kernel_map(BPF_MAP_TYPE_CPUMAP);
	for (size_t i = 0; i < ARRAY_SIZE(creates); i++) {
		LIBBPF_OPTS(bpf_map_create_opts, kopts, .map_flags = creates[i].flags);
		struct nb_map_create_opts nopts = { .sz = sizeof(nopts),
						    .map_flags = creates[i].flags };
		struct nb_map *map;
		int kfd = bpf_map_create(BPF_MAP_TYPE_CPUMAP, NULL, creates[i].key_size,
					 creates[i].value_size, creates[i].max_entries, &kopts);
		int nerr = nb_map_create(BPF_MAP_TYPE_CPUMAP, creates[i].key_size,
					 creates[i].value_size, creates[i].max_entries, &nopts, &map);

		if (kfd >= 0)
			close(kfd);
		if (!nerr)
			nb_map_put(map);
		if ((kfd < 0 ? kfd : 0) != nerr)
			NB_FAIL("create key %u value %u max %u flags %#x: kernel %d, netbpf %d",
				creates[i].key_size, creates[i].value_size, creates[i].max_entries,
				creates[i].flags, kfd < 0 ? kfd : 0, nerr);
	}
}

/* P_BAD: no program (the kernel gets the map's own fd, netbpf an id no program has) */
enum prog_kind { P_NONE, P_NEG, P_CPUMAP, P_PLAIN, P_BAD };
enum op_kind { END, UPDATE, DELETE, LOOKUP };

struct op {
	enum op_kind op;
	int key;		/* -1: the first key that is no possible CPU; 64: max_entries */
	__u32 qsize;
	enum prog_kind prog;
	__u64 flags;
};

#define OPS_MAX 8
#define U(k, q, p, f) { UPDATE, k, q, p, f }
#define UQ(k, q) U(k, q, P_NONE, 0)
#define L(k) { LOOKUP, k, 0, P_NONE, 0 }
#define D(k) { DELETE, k, 0, P_NONE, 0 }
static const struct {
	const char *name;
	__u32 value_size;
	struct op ops[OPS_MAX];
} seqs[] = {
	{ "set_and_read", 8, { UQ(0, 8), L(0), L(1), UQ(1, 1), L(1) } },
	{ "key_too_big", 8, { UQ(64, 8), UQ(64, 16385), D(64), L(64) } },
	{ "no_such_cpu", 8, { UQ(-1, 8), UQ(-1, 0), UQ(-1, 16385), L(-1) } },
	{ "flags", 8, { U(0, 8, P_NONE, BPF_NOEXIST), U(0, 8, P_NONE, 3),
			U(0, 8, P_NONE, BPF_F_LOCK), U(0, 8, P_NONE, BPF_EXIST), L(0) } },
	{ "qsize", 8, { UQ(0, 16384), L(0), UQ(0, 16385), L(0), UQ(0, 0), L(0), D(0), D(1) } },
	{ "programs", 8, { U(0, 8, P_CPUMAP, 0), L(0), U(1, 8, P_PLAIN, 0), L(1),
			   U(1, 8, P_NEG, 0), L(1), U(0, 0, P_CPUMAP, 0), L(0) } },
	{ "bad_program", 8, { U(0, 8, P_BAD, 0), L(0), UQ(0, 8), U(0, 8, P_BAD, 0), L(0) } },
	{ "qsize_only", 4, { UQ(0, 3), L(0), UQ(1, 16385), D(0), L(0) } },
};

struct progs {
	int kfd[5];
	__u32 nid[5];
	struct nb_prog *np[5];
};

static void load_progs(struct progs *p)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, XDP_PASS), NB_EXIT() };
	const enum bpf_attach_type attach[5] = { [P_CPUMAP] = BPF_XDP_CPUMAP };

	memset(p, 0, sizeof(*p));
	p->kfd[P_NEG] = -1;
	p->nid[P_NEG] = (__u32)-1;
	for (int k = P_CPUMAP; k <= P_PLAIN; k++) {
		LIBBPF_OPTS(bpf_prog_load_opts, kopts, .expected_attach_type = attach[k]);
		struct nb_prog_load_opts nopts = { .sz = sizeof(nopts), .license = "GPL",
						   .expected_attach_type = attach[k] };

		p->kfd[k] = bpf_prog_load(BPF_PROG_TYPE_XDP, "cpumap_entry", "GPL", insns, 2,
					  &kopts);
		NB_ASSERT(p->kfd[k] >= 0);
		NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_XDP, insns, 2, &nopts, &p->np[k]), 0);
		p->nid[k] = nb_prog_id(p->np[k]);
	}
}

static void run_seq(const void *arg)
{
	const typeof(seqs[0]) *s = arg;
	int ncpu = libbpf_num_possible_cpus(), kfd;
	__u32 max;
	struct nb_map_create_opts nopts = { .sz = sizeof(nopts) };
	struct nb_map *nmap;
	struct progs p;

	need_kernel_map(BPF_MAP_TYPE_CPUMAP);
	if (ncpu < 2 || ncpu >= 63)
		nb_test_skip("%d possible CPUs: the sequences are written for 2 to 62", ncpu);
	NB_ASSERT_EQ(nb_set_nr_cpus((unsigned int)ncpu), 0);
	max = 64;
	kfd = bpf_map_create(BPF_MAP_TYPE_CPUMAP, NULL, 4, s->value_size, max, NULL);
	NB_ASSERT(kfd >= 0);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_CPUMAP, 4, s->value_size, max, &nopts, &nmap), 0);
	load_progs(&p);
	p.kfd[P_BAD] = kfd;
	p.nid[P_BAD] = 0x7ffffff0;
	for (int i = 0; i < OPS_MAX && s->ops[i].op != END; i++) {
		const struct op *o = &s->ops[i];
		__u32 key = o->key < 0 ? (__u32)ncpu : (__u32)o->key;
		struct bpf_cpumap_val kv = { .qsize = o->qsize, .bpf_prog.fd = p.kfd[o->prog] };
		struct bpf_cpumap_val nv = { .qsize = o->qsize, .bpf_prog.fd = (int)p.nid[o->prog] };
		int kerr, nerr;

		switch (o->op) {
		case UPDATE:
			kerr = bpf_map_update_elem(kfd, &key, &kv, o->flags) ? -errno : 0;
			nerr = nb_map_update_elem(nmap, &key, &nv, o->flags);
			break;
		case DELETE:
			kerr = bpf_map_delete_elem(kfd, &key) ? -errno : 0;
			nerr = nb_map_delete_elem(nmap, &key);
			break;
		default:
			memset(&kv, 0xaa, sizeof(kv));
			memset(&nv, 0xaa, sizeof(nv));
			kerr = bpf_map_lookup_elem(kfd, &key, &kv) ? -errno : 0;
			nerr = nb_map_lookup_elem(nmap, &key, &nv);
			if (!kerr && !nerr && (kv.qsize != nv.qsize ||
					       (s->value_size == 8 && !kv.bpf_prog.id != !nv.bpf_prog.id)))
				NB_FAIL("%s step %d: lookup key %u: kernel qsize %u prog id %u, netbpf "
					"qsize %u prog id %u", s->name, i, key, kv.qsize,
					kv.bpf_prog.id, nv.qsize, nv.bpf_prog.id);
			break;
		}
		if (kerr != nerr)
			NB_FAIL("%s step %d (%s key %u qsize %u): kernel %d, netbpf %d", s->name, i,
				o->op == UPDATE ? "update" : o->op == DELETE ? "delete" : "lookup",
				key, o->qsize, kerr, nerr);
	}
	close(kfd);
	nb_map_put(nmap);
	for (int k = P_CPUMAP; k <= P_PLAIN; k++) {
		close(p.kfd[k]);
		nb_prog_put(p.np[k]);
	}
}

static void __attribute__((constructor)) register_seqs(void)
{
	static char names[ARRAY_SIZE(seqs)][64];

	for (size_t i = 0; i < ARRAY_SIZE(seqs); i++) {
		snprintf(names[i], sizeof(names[i]), "cpumap-kernel/%s", seqs[i].name);
		nb_test_register(names[i], run_seq, &seqs[i]);
	}
}
