// SPDX-License-Identifier: GPL-2.0
/*
 * A program array's owner against the running kernel: the same sequences of loads of programs
 * that use an array ("tail_call(ctx, array, 0)") and stores of programs into it run on the
 * kernel (bpf_prog_load, bpf_map_update_elem) and on netbpf, and each step must succeed or fail
 * alike. The kernel sets or checks the owner at load (bpf_check_tail_call) as well as at store
 * (bpf_prog_map_compatible), comparing the program type, xdp_has_frags and, for program arrays,
 * the expected attach type.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf_asm.h"
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
	struct owner_step steps[3];
	unsigned int step_cnt;
	int last_err;		/* what the last step returns on both sides */
};

#define USE(t, f, a) { false, BPF_PROG_TYPE_##t, f, a }
#define STORE(t, f, a) { true, BPF_PROG_TYPE_##t, f, a }

static const struct owner_case cases[] = {
	{ "load_cls_then_xdp", { USE(SCHED_CLS, 0, 0), USE(XDP, 0, 0) }, 2, -EINVAL },
	{ "load_cls_then_act", { USE(SCHED_CLS, 0, 0), USE(SCHED_ACT, 0, 0) }, 2, -EINVAL },
	{ "load_cls_then_cls", { USE(SCHED_CLS, 0, 0), USE(SCHED_CLS, 0, 0) }, 2, 0 },
	{ "load_xdp_then_frags", { USE(XDP, 0, 0), USE(XDP, 1, 0) }, 2, -EINVAL },
	{ "load_xdp_then_attach_xdp", { USE(XDP, 0, 0), USE(XDP, 0, BPF_XDP) }, 2, -EINVAL },
	{ "load_cls_then_store_xdp", { USE(SCHED_CLS, 0, 0), STORE(XDP, 0, 0) }, 2, -EINVAL },
	{ "load_cls_then_store_cls", { USE(SCHED_CLS, 0, 0), STORE(SCHED_CLS, 0, 0) }, 2, 0 },
	{ "store_xdp_then_load_cls", { STORE(XDP, 0, 0), USE(SCHED_CLS, 0, 0) }, 2, -EINVAL },
	{ "store_frags_then_load_xdp", { STORE(XDP, 1, BPF_XDP), USE(XDP, 0, BPF_XDP) }, 2,
	  -EINVAL },
	{ "store_xdp_then_load_xdp", { STORE(XDP, 0, BPF_XDP), USE(XDP, 0, BPF_XDP),
				       STORE(XDP, 0, BPF_XDP) }, 3, 0 },
};

/* Load the step's program on the kernel (map_ref: the array's fd) or on netbpf (its id). */
static int load(const struct owner_step *s, bool kernel, __u32 map_ref, int *fd,
		struct nb_prog **prog, struct nb_log *log)
{
	const struct bpf_insn user[] = {
		NB_LD_MAP_ID(BPF_REG_2, map_ref), NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_tail_call), NB_MOV64_IMM(BPF_REG_0, 0), NB_EXIT(),
	};
	const struct bpf_insn target[] = { NB_MOV64_IMM(BPF_REG_0, 0), NB_EXIT() };
	const struct bpf_insn *insns = s->store ? target : user;
	unsigned int cnt = s->store ? ARRAY_SIZE(target) : ARRAY_SIZE(user);
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

static void run_case(const void *arg)
{
	const struct owner_case *c = arg;
	struct nb_prog *progs[3] = { 0 };
	int kfds[3] = { -1, -1, -1 };
	struct nb_log log = { 0 };
	struct nb_map *nmap;
	int kmap;

	need_kernel_map(BPF_MAP_TYPE_PROG_ARRAY);
	need_kernel_prog(BPF_PROG_TYPE_XDP);
	kmap = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "owner", 4, 4, 4, NULL);
	NB_ASSERT(kmap >= 0);
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, NULL, &nmap), 0);
	for (unsigned int i = 0; i < c->step_cnt; i++) {
		const struct owner_step *s = &c->steps[i];
		int kerr, nerr;
		__u32 key = i;

		kerr = load(s, true, (__u32)kmap, &kfds[i], NULL, NULL);
		nerr = load(s, false, nb_map_id(nmap), NULL, &progs[i], &log);
		if (s->store && !kerr && !nerr) {
			__u32 id = nb_prog_id(progs[i]);

			kerr = bpf_map_update_elem(kmap, &key, &kfds[i], BPF_ANY) ? -errno : 0;
			nerr = nb_map_update_elem(nmap, &key, &id, BPF_ANY);
		}
		if (kerr != nerr)
			NB_FAIL("%s step %u: kernel %d, netbpf %d: %s", c->name, i, kerr, nerr,
				nb_log_text(&log) ?: "");
		if (i + 1 < c->step_cnt)
			NB_ASSERT_EQ(kerr, 0);
		else
			NB_ASSERT_EQ(kerr, c->last_err);
	}
	if (c->last_err && !c->steps[c->step_cnt - 1].store)
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "cannot use prog_array map");
	for (unsigned int i = 0; i < 3; i++) {
		if (kfds[i] >= 0)
			close(kfds[i]);
		nb_prog_put(progs[i]);
	}
	close(kmap);
	nb_map_release_uref(nmap);
	nb_map_put(nmap);
	nb_log_free(&log);
}

static void __attribute__((constructor)) register_prog_array_owner_kernel(void)
{
	static char names[ARRAY_SIZE(cases)][64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(names[i], sizeof(names[i]), "prog-array-owner-kernel/%s", cases[i].name);
		nb_test_register(names[i], run_case, &cases[i]);
	}
}
