// SPDX-License-Identifier: GPL-2.0
/*
 * The owner of a map that holds programs against the running kernel: the same sequences of
 * loads of programs that use a map ("tail_call(ctx, array, 0)" for a program array,
 * "redirect_map(map, 0, 0)" for a devmap, devmap hash or cpumap) and stores of programs into it
 * run on the kernel (bpf_prog_load, bpf_map_update_elem) and on netbpf, and each step must
 * succeed or fail alike. The kernel sets or checks the owner at load (bpf_check_tail_call) as
 * well as at store (bpf_prog_map_compatible, from the devmap's __dev_map_alloc_node and the
 * cpumap's __cpu_map_load_bpf_program too), comparing the program type, xdp_has_frags and, for
 * program arrays only, the expected attach type. Loads check only the map types of
 * map_type_contains_progs, which devmap hashes are not: only their stores claim them. After
 * every step the owner's type shown (the kernel's fdinfo owner_prog_type, netbpf's
 * nb_map_owner, which map show prints) must be the same too.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf_asm.h"
#include "net/dev.h"
#include "kernel_probe.h"
#include "test.h"

/* One step: a program of this kind loads using the array, or is stored in it. */
struct owner_step {
	bool store;
	enum bpf_prog_type type;
	bool frags;
	enum bpf_attach_type attach;
};

struct owner_case {
	const char *name;
	enum bpf_map_type map_type;
	struct owner_step steps[3];
	unsigned int step_cnt;
	int last_err;		/* what the last step returns on both sides */
};

#define USE(t, f, a) { false, BPF_PROG_TYPE_##t, f, a }
#define STORE(t, f, a) { true, BPF_PROG_TYPE_##t, f, a }
#define PA(name) "prog_array/" name, BPF_MAP_TYPE_PROG_ARRAY

/*
 * The sequences for a devmap, devmap hash or cpumap (entry programs loaded with attach type
 * at; le: what a load refused for its frags setting returns, 0 where loads are not checked, as
 * for a devmap hash; se: what a refused store returns; lse: what a store refused after a load
 * returns): frags must match, attach types need not.
 */
#define XDP_MAP_CASES(map, t, at, le, se, lse)						\
	{ map "/load_xdp_then_frags", t, { USE(XDP, 0, 0), USE(XDP, 1, 0) }, 2, le },		\
	{ map "/load_xdp_then_attach_xdp", t, { USE(XDP, 0, 0), USE(XDP, 0, BPF_XDP) }, 2, 0 },	\
	{ map "/load_xdp_then_store", t, { USE(XDP, 0, 0), STORE(XDP, 0, at) }, 2, 0 },	\
	{ map "/load_xdp_then_store_frags", t, { USE(XDP, 0, 0), STORE(XDP, 1, at) }, 2, lse },	\
	{ map "/load_frags_then_store", t, { USE(XDP, 1, BPF_XDP), STORE(XDP, 0, at) }, 2,	\
	  lse },										\
	{ map "/store_frags_then_load_xdp", t, { STORE(XDP, 1, at), USE(XDP, 0, BPF_XDP) }, 2,	\
	  le },											\
	{ map "/store_frags_then_load_frags", t, { STORE(XDP, 1, at), USE(XDP, 1, BPF_XDP),	\
						    STORE(XDP, 1, at) }, 3, 0 },		\
	{ map "/store_frags_then_store_xdp", t, { STORE(XDP, 1, at), STORE(XDP, 0, at) }, 2, se }

static const struct owner_case cases[] = {
	{ PA("load_cls_then_xdp"), { USE(SCHED_CLS, 0, 0), USE(XDP, 0, 0) }, 2, -EINVAL },
	{ PA("load_cls_then_act"), { USE(SCHED_CLS, 0, 0), USE(SCHED_ACT, 0, 0) }, 2, -EINVAL },
	{ PA("load_cls_then_cls"), { USE(SCHED_CLS, 0, 0), USE(SCHED_CLS, 0, 0) }, 2, 0 },
	{ PA("load_xdp_then_frags"), { USE(XDP, 0, 0), USE(XDP, 1, 0) }, 2, -EINVAL },
	{ PA("load_xdp_then_attach_xdp"), { USE(XDP, 0, 0), USE(XDP, 0, BPF_XDP) }, 2, -EINVAL },
	{ PA("load_cls_then_store_xdp"), { USE(SCHED_CLS, 0, 0), STORE(XDP, 0, 0) }, 2, -EINVAL },
	{ PA("load_cls_then_store_cls"), { USE(SCHED_CLS, 0, 0), STORE(SCHED_CLS, 0, 0) }, 2, 0 },
	{ PA("store_xdp_then_load_cls"), { STORE(XDP, 0, 0), USE(SCHED_CLS, 0, 0) }, 2, -EINVAL },
	{ PA("store_frags_then_load_xdp"), { STORE(XDP, 1, BPF_XDP), USE(XDP, 0, BPF_XDP) },
	  2, -EINVAL },
	{ PA("store_xdp_then_load_xdp"), { STORE(XDP, 0, BPF_XDP), USE(XDP, 0, BPF_XDP),
					   STORE(XDP, 0, BPF_XDP) }, 3, 0 },
	XDP_MAP_CASES("devmap", BPF_MAP_TYPE_DEVMAP, BPF_XDP_DEVMAP, -EINVAL, -EINVAL, -EINVAL),
	/* map_type_contains_progs leaves devmap hashes out: only stores claim them */
	XDP_MAP_CASES("devmap_hash", BPF_MAP_TYPE_DEVMAP_HASH, BPF_XDP_DEVMAP, 0, -EINVAL, 0),
	XDP_MAP_CASES("cpumap", BPF_MAP_TYPE_CPUMAP, BPF_XDP_CPUMAP, -EINVAL, -ENOMEM, -ENOMEM),
};

/*
 * Load the step's program for a map of map_type on the kernel (map_ref: the map's fd) or on
 * netbpf (its id).
 */
static int load(const struct owner_step *s, enum bpf_map_type map_type, bool kernel,
		__u32 map_ref, int *fd, struct nb_prog **prog, struct nb_log *log)
{
	const struct bpf_insn user[] = {
		NB_LD_MAP_ID(BPF_REG_2, map_ref), NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_tail_call), NB_MOV64_IMM(BPF_REG_0, 0), NB_EXIT(),
	};
	const struct bpf_insn redirect[] = {
		NB_LD_MAP_ID(BPF_REG_1, map_ref), NB_MOV64_IMM(BPF_REG_2, 0),
		NB_MOV64_IMM(BPF_REG_3, 0), NB_CALL_HELPER(BPF_FUNC_redirect_map), NB_EXIT(),
	};
	const struct bpf_insn target[] = { NB_MOV64_IMM(BPF_REG_0, 0), NB_EXIT() };
	bool array = map_type == BPF_MAP_TYPE_PROG_ARRAY;
	const struct bpf_insn *insns = s->store ? target : array ? user : redirect;
	unsigned int cnt = s->store ? ARRAY_SIZE(target) :
			   array ? ARRAY_SIZE(user) : ARRAY_SIZE(redirect);
	__u32 flags = s->frags ? BPF_F_XDP_HAS_FRAGS : 0;

	if (kernel) {
		LIBBPF_OPTS(bpf_prog_load_opts, kopts, .prog_flags = flags,
			    .expected_attach_type = s->attach);

		*fd = bpf_prog_load(s->type, "owner", "GPL", insns, cnt, &kopts);
		return *fd < 0 ? -errno : 0;
	}
	struct nb_prog_load_opts nopts = {
		.sz = sizeof(nopts), .name = "owner", .license = "GPL", .log = log,
		.flags = s->frags ? NB_PROG_LOAD_XDP_HAS_FRAGS : 0,
		.expected_attach_type = s->attach,
	};

	return nb_prog_load(s->type, insns, cnt, &nopts, prog);
}

/*
 * Store the program (the kernel's fd, netbpf's id) in the map: a program array's slot key, a
 * devmap's entry 0 to device ifindex, a cpumap's entry 0 with a queue of 8.
 */
static int store(bool kernel, int kmap, struct nb_map *nmap, enum bpf_map_type map_type,
		 __u32 key, __u32 ifindex, __u32 prog_ref)
{
	struct bpf_devmap_val dval = { .ifindex = ifindex, .bpf_prog.fd = (int)prog_ref };
	struct bpf_cpumap_val cval = { .qsize = 8, .bpf_prog.fd = (int)prog_ref };
	const void *value = &prog_ref;

	if (map_type == BPF_MAP_TYPE_CPUMAP)
		value = &cval;
	else if (map_type != BPF_MAP_TYPE_PROG_ARRAY)
		value = &dval;
	if (map_type != BPF_MAP_TYPE_PROG_ARRAY)
		key = 0;
	if (kernel)
		return bpf_map_update_elem(kmap, &key, value, BPF_ANY) ? -errno : 0;
	return nb_map_update_elem(nmap, &key, value, BPF_ANY);
}

static __u32 value_size(enum bpf_map_type map_type)
{
	switch (map_type) {
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return sizeof(struct bpf_devmap_val);
	case BPF_MAP_TYPE_CPUMAP:
		return sizeof(struct bpf_cpumap_val);
	default:
		return 4;
	}
}

/*
 * The owner's program type as the kernel's fdinfo shows it (owner_prog_type, for the map types
 * of map_type_contains_progs), 0 when it shows none.
 */
static unsigned int kernel_owner_type(int kmap)
{
	unsigned int type = 0;
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", kmap);
	f = fopen(path, "r");
	NB_ASSERT(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "owner_prog_type: %u", &type) == 1)
			break;
	fclose(f);
	return type;
}

/* netbpf's owner as map show gives it (nb_map_owner), 0 when it shows none. */
static unsigned int netbpf_owner_type(const struct nb_map *nmap)
{
	enum bpf_prog_type type;
	bool jited;

	return nb_map_owner(nmap, &type, &jited) ? 0 : (unsigned int)type;
}

static void run_case(const void *arg)
{
	const struct owner_case *c = arg;
	struct nb_prog *progs[3] = { 0 };
	int kfds[3] = { -1, -1, -1 };
	struct nb_log log = { 0 };
	struct nb_dev *dev = NULL;
	struct nb_map *nmap;
	char want[64];
	int kmap;

	need_kernel_map(c->map_type);
	need_kernel_prog(BPF_PROG_TYPE_XDP);
	kmap = bpf_map_create(c->map_type, "owner", 4, value_size(c->map_type), 4, NULL);
	NB_ASSERT(kmap >= 0);
	NB_ASSERT_EQ(nb_map_create(c->map_type, 4, value_size(c->map_type), 4, NULL, &nmap), 0);
	/* a devmap entry's device: the kernel's loopback (ifindex 1), a netbpf device here */
	if (c->map_type == BPF_MAP_TYPE_DEVMAP || c->map_type == BPF_MAP_TYPE_DEVMAP_HASH)
		NB_ASSERT_EQ(nb_dev_create("owner0", 0, &dev, NULL), 0);
	for (unsigned int i = 0; i < c->step_cnt; i++) {
		const struct owner_step *s = &c->steps[i];
		int kerr, nerr;

		kerr = load(s, c->map_type, true, (__u32)kmap, &kfds[i], NULL, NULL);
		nerr = load(s, c->map_type, false, nb_map_id(nmap), NULL, &progs[i], &log);
		if (s->store && !kerr && !nerr) {
			kerr = store(true, kmap, NULL, c->map_type, i, 1, (__u32)kfds[i]);
			nerr = store(false, -1, nmap, c->map_type, i, dev ? dev->ifindex : 0,
				     nb_prog_id(progs[i]));
		}
		if (kerr != nerr)
			NB_FAIL("%s step %u: kernel %d, netbpf %d: %s", c->name, i, kerr, nerr,
				nb_log_text(&log) ?: "");
		if (kernel_owner_type(kmap) != netbpf_owner_type(nmap))
			NB_FAIL("%s step %u: owner type: kernel %u, netbpf %u", c->name, i,
				kernel_owner_type(kmap), netbpf_owner_type(nmap));
		if (i + 1 < c->step_cnt)
			NB_ASSERT_EQ(kerr, 0);
		else
			NB_ASSERT_EQ(kerr, c->last_err);
	}
	snprintf(want, sizeof(want), "cannot use %s map", libbpf_bpf_map_type_str(c->map_type));
	if (c->last_err && !c->steps[c->step_cnt - 1].store)
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), want);
	for (unsigned int i = 0; i < 3; i++) {
		if (kfds[i] >= 0)
			close(kfds[i]);
		nb_prog_put(progs[i]);
	}
	close(kmap);
	nb_map_release_uref(nmap);
	nb_map_put(nmap);
	if (dev)
		nb_dev_destroy(dev);
	nb_log_free(&log);
}

static void __attribute__((constructor)) register_prog_owner_kernel(void)
{
	static char names[ARRAY_SIZE(cases)][64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(names[i], sizeof(names[i]), "prog-owner-kernel/%s", cases[i].name);
		nb_test_register(names[i], run_case, &cases[i]);
	}
}
