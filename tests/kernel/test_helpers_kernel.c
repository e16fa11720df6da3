// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers against the running kernel: the same instructions run as a sched_cls program in the
 * kernel (BPF_PROG_TEST_RUN) and as the test program type on netbpf's interpreter, against maps
 * created alike on both sides. r0 (the 32 bits the kernel reports) and, for map helpers, the
 * maps' contents afterwards must agree ("helpers-kernel/<name>").
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>
#include <netbpf/percpu.h>

#include "bpf_asm.h"
#include "common/types.h"
#include "test.h"
#include "kernel_probe.h"

#define VERIFIER_LOG_SIZE (1U << 20)
#define MAX_MAPS 4

struct twin {
	struct nb_map *nb;
	int fd;
};

static void twin_create(struct twin *t, enum bpf_map_type type, __u32 key_size, __u32 value_size,
			__u32 max_entries, __u32 flags, const struct twin *inner)
{
	LIBBPF_OPTS(bpf_map_create_opts, kopts, .map_flags = flags);
	struct nb_map_create_opts nopts = { .sz = sizeof(nopts), .name = "twin",
					    .map_flags = flags };
	int err;

	if (inner) {
		kopts.inner_map_fd = inner->fd;
		nopts.inner_map = inner->nb;
	}
	t->fd = bpf_map_create(type, "twin", key_size, value_size, max_entries, &kopts);
	if (t->fd < 0)
		NB_FAIL("kernel map type %d: %s", type, strerror(-t->fd));
	err = nb_map_create(type, key_size, value_size, max_entries, &nopts, &t->nb);
	if (err)
		NB_FAIL("netbpf map type %d: %d", type, err);
}

static void twin_close(struct twin *t)
{
	close(t->fd);
	nb_map_put(t->nb);
}

/*
 * The kernel wants BTF func_info for programs with callbacks: one static function per
 * subprogram (starts at 0 and at every BPF_PSEUDO_FUNC / pseudo call target).
 */
struct func_btf {
	struct btf *btf;
	struct bpf_func_info info[8];
	unsigned int cnt;
};

static void add_subprog(struct func_btf *fb, unsigned int start)
{
	for (unsigned int i = 0; i < fb->cnt; i++)
		if (fb->info[i].insn_off == start)
			return;
	NB_ASSERT(fb->cnt < ARRAY_SIZE(fb->info));
	fb->info[fb->cnt++].insn_off = start;
}

static int cmp_info(const void *a, const void *b)
{
	return (int)((const struct bpf_func_info *)a)->insn_off -
	       (int)((const struct bpf_func_info *)b)->insn_off;
}

/* Returns the BTF fd, or -1 when the program has no subprograms. */
static int func_btf_build(struct func_btf *fb, const struct bpf_insn *insns, unsigned int cnt)
{
	int int_id, proto;

	memset(fb, 0, sizeof(*fb));
	add_subprog(fb, 0);
	for (unsigned int i = 0; i < cnt; i++) {
		bool func = insn_is_ldimm64(&insns[i]) && insns[i].src_reg == BPF_PSEUDO_FUNC;

		if (func || insn_is_pseudo_call(&insns[i]))
			add_subprog(fb, i + insns[i].imm + 1);
		if (insn_is_ldimm64(&insns[i]))
			i++;
	}
	if (fb->cnt == 1)
		return -1;
	qsort(fb->info, fb->cnt, sizeof(fb->info[0]), cmp_info);
	fb->btf = btf__new_empty();
	NB_ASSERT(fb->btf);
	int_id = btf__add_int(fb->btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(fb->btf, int_id);
	for (unsigned int i = 0; i < fb->cnt; i++) {
		char name[16];

		snprintf(name, sizeof(name), "f%u", i);
		fb->info[i].type_id = btf__add_func(fb->btf, name, BTF_FUNC_STATIC, proto);
	}
	if (btf__load_into_kernel(fb->btf))
		NB_FAIL("loading BTF for the subprograms: %s", strerror(errno));
	return btf__fd(fb->btf);
}

/*
 * Run insns on both sides; ldimm64 with BPF_PSEUDO_MAP_IDX names maps[imm]. Returns r0's low
 * 32 bits after checking that both sides agree.
 */
static __u32 run_both(const char *what, const struct bpf_insn *insns, unsigned int cnt,
		      struct twin *const *maps)
{
	struct bpf_insn *kinsns = calloc(cnt, sizeof(*kinsns));
	struct nb_map *nbmaps[MAX_MAPS] = { 0 };
	char *log = malloc(VERIFIER_LOG_SIZE);
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_prog_load_opts, kopts, .log_buf = log, .log_size = VERIFIER_LOG_SIZE);
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	struct nb_log nlog = { 0 };
	struct nb_prog_load_opts nopts = {
		.sz = sizeof(nopts), .license = "GPL", .log = &nlog, .maps = nbmaps,
		.map_cnt = MAX_MAPS,
		.flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP,
	};
	struct nb_prog *prog;
	struct func_btf fb;
	int fd, btf_fd;
	__u32 nr0;

	NB_ASSERT(kinsns && log);
	for (unsigned int i = 0; i < MAX_MAPS && maps && maps[i]; i++)
		nbmaps[i] = maps[i]->nb;
	memcpy(kinsns, insns, cnt * sizeof(*kinsns));
	for (unsigned int i = 0; i < cnt; i++) {
		if (insn_is_ldimm64(&kinsns[i]) && kinsns[i].src_reg == BPF_PSEUDO_MAP_IDX) {
			kinsns[i].src_reg = BPF_PSEUDO_MAP_FD;
			kinsns[i].imm = maps[kinsns[i].imm]->fd;
		}
	}
	log[0] = 0;
	btf_fd = func_btf_build(&fb, kinsns, cnt);
	if (btf_fd >= 0) {
		kopts.prog_btf_fd = btf_fd;
		kopts.func_info = fb.info;
		kopts.func_info_cnt = fb.cnt;
		kopts.func_info_rec_size = sizeof(fb.info[0]);
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "helpers", "GPL", kinsns, cnt, &kopts);
	btf__free(fb.btf);
	if (fd < 0) {
		fprintf(stderr, "kernel verifier log (%s):\n%s\n", what, log);
		NB_FAIL("the kernel rejects %s: %s", what, strerror(errno));
	}
	if (bpf_prog_test_run_opts(fd, &topts))
		NB_FAIL("BPF_PROG_TEST_RUN of %s: %s", what, strerror(errno));
	close(fd);
	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &nopts, &prog))
		NB_FAIL("netbpf load of %s: %s", what, nb_log_text(&nlog));
	nr0 = (__u32)nb_prog_run(prog, NULL);
	nb_prog_put(prog);
	nb_log_free(&nlog);
	free(kinsns);
	free(log);
	if (nr0 != topts.retval)
		NB_FAIL("%s: kernel r0 0x%x, netbpf 0x%x", what, topts.retval, nr0);
	return nr0;
}

#define RUN_BOTH(what, maps, ...)                                                           \
	({                                                                                  \
		const struct bpf_insn insns_[] = { __VA_ARGS__ };                          \
		run_both(what, insns_, ARRAY_SIZE(insns_), maps);                          \
	})

#define LD_MAP(reg, idx) NB_LD_IMM64_RAW(reg, BPF_PSEUDO_MAP_IDX, idx)

static __u32 rnd(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (__u32)((z ^ (z >> 31)) >> 16);
}

/* bpf_csum_diff over random words: the 32-bit partial sums agree bit for bit. */
static void test_csum_diff(const void *arg)
{
	static const __u32 sizes[][2] = { { 4, 4 }, { 8, 8 }, { 0, 12 }, { 16, 0 }, { 20, 4 },
					  { 0, 0 }, { 3, 4 }, { 12, 28 } };
	__u64 state = 3;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	for (int round = 0; round < 24; round++) {
		const __u32 *sz = sizes[round % ARRAY_SIZE(sizes)];
		__s32 w[10], seed = (__s32)rnd(&state);

		for (int i = 0; i < 10; i++)
			w[i] = (__s32)(rnd(&state) ^ (rnd(&state) << 16));
		/* from at r10-40 (5 words), to at r10-80 (7 words, overlapping spare room) */
		RUN_BOTH("csum_diff", NULL,
			 NB_ST_MEM(BPF_W, BPF_REG_10, -40, w[0]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -36, w[1]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -32, w[2]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -28, w[3]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -24, w[4]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -80, w[5]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -76, w[6]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -72, w[7]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -68, w[8]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -64, w[9]),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -60, 0x12345),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -56, 0x6789a),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -52, -77),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -48, 0),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -44, 3),
			 NB_MOV64_REG(BPF_REG_1, BPF_REG_10),
			 NB_ALU64_IMM(BPF_ADD, BPF_REG_1, -40),
			 NB_MOV64_IMM(BPF_REG_2, sz[0]),
			 NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
			 NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -80),
			 NB_MOV64_IMM(BPF_REG_4, sz[1]),
			 NB_MOV64_IMM(BPF_REG_5, seed),
			 NB_CALL_HELPER(BPF_FUNC_csum_diff),
			 NB_EXIT());
	}
}

/* bpf_loop: sum of i until the callback stops at 'stop'; r0 = ret << 16 | sum. */
static void test_loop(const void *arg)
{
	static const __u32 cases[][3] = { { 10, 100, 0 }, { 10, 5, 0 }, { 0, 5, 0 },
					  { 10, 5, 1 }, { (8 << 20) + 1, 5, 0 }, { 1000, 999, 0 } };

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		RUN_BOTH("loop", NULL,
			 NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
			 NB_ST_MEM(BPF_DW, BPF_REG_10, -16, cases[i][1]),
			 NB_MOV64_IMM(BPF_REG_1, cases[i][0]),
			 NB_LD_IMM64_RAW(BPF_REG_2, BPF_PSEUDO_FUNC, 9),
			 NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
			 NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -16),
			 NB_MOV64_IMM(BPF_REG_4, cases[i][2]),
			 NB_CALL_HELPER(BPF_FUNC_loop),
			 NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 16),
			 NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),
			 NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
			 NB_EXIT(),
			 /* cb(i, ctx): ctx[8] += i; return i == ctx[0] */
			 NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 8),
			 NB_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_1),
			 NB_STX_MEM(BPF_DW, BPF_REG_2, BPF_REG_3, 8),
			 NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 0),
			 NB_MOV64_IMM(BPF_REG_0, 0),
			 NB_JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_3, 1),
			 NB_MOV64_IMM(BPF_REG_0, 1),
			 NB_EXIT());
}

/* Compare two maps' contents through userspace: same keys in the same order, same values. */
static void same_contents(struct twin *t, __u32 key_size, __u32 value_size)
{
	__u8 kk[64], nk[64], kv[256], nv[256];
	int ke = bpf_map_get_next_key(t->fd, NULL, kk);
	int ne = nb_map_get_next_key(t->nb, NULL, nk);

	while (!ke && !ne) {
		NB_ASSERT_MEM_EQ(kk, nk, key_size);
		NB_ASSERT_EQ(bpf_map_lookup_elem(t->fd, kk, kv), 0);
		NB_ASSERT_EQ(nb_map_lookup_elem(t->nb, nk, nv), 0);
		NB_ASSERT_MEM_EQ(kv, nv, value_size);
		ke = bpf_map_get_next_key(t->fd, kk, kk);
		ne = nb_map_get_next_key(t->nb, nk, nk);
	}
	NB_ASSERT(ke != 0 && ne != 0);
}

/*
 * Random helper calls from programs on hash (zero seed), LRU-free types only: update with
 * flags, delete, lookup. r0 is the helper's return (lookups: the value, or -1).
 */
static void prog_map_ops(struct twin *t, enum bpf_map_type type, int rounds, __u64 seed)
{
	struct twin *maps[] = { t, NULL };
	__u64 state = seed;

	for (int round = 0; round < rounds; round++) {
		__u32 r = rnd(&state), key = r % 12, flags = (r >> 8) % 4;
		__s32 value = (__s32)(rnd(&state) & 0x3fffffff);

		switch (r % 3) {
		case 0:
			RUN_BOTH("update", maps, LD_MAP(BPF_REG_1, 0),
				 NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
				 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
				 NB_ST_MEM(BPF_DW, BPF_REG_10, -16, value),
				 NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -16),
				 NB_MOV64_IMM(BPF_REG_4, flags),
				 NB_CALL_HELPER(BPF_FUNC_map_update_elem),
				 NB_EXIT());
			break;
		case 1:
			if (type == BPF_MAP_TYPE_ARRAY && (r & 8))
				break;	/* the kernel's verifier rejects delete on arrays */
			RUN_BOTH("delete", maps, LD_MAP(BPF_REG_1, 0),
				 NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
				 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
				 NB_CALL_HELPER(BPF_FUNC_map_delete_elem),
				 NB_EXIT());
			break;
		default:
			RUN_BOTH("lookup", maps, LD_MAP(BPF_REG_1, 0),
				 NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
				 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
				 NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
				 NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
				 NB_MOV64_IMM(BPF_REG_0, -1),
				 NB_EXIT(),
				 NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
				 NB_EXIT());
			break;
		}
	}
	same_contents(t, 4, 8);
}

static void test_prog_hash(const void *arg)
{
	struct twin t;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	twin_create(&t, BPF_MAP_TYPE_HASH, 4, 8, 8, BPF_F_ZERO_SEED, NULL);
	prog_map_ops(&t, BPF_MAP_TYPE_HASH, 300, 11);
	twin_close(&t);
	twin_create(&t, BPF_MAP_TYPE_HASH, 4, 8, 8, BPF_F_ZERO_SEED | BPF_F_NO_PREALLOC, NULL);
	prog_map_ops(&t, BPF_MAP_TYPE_HASH, 300, 12);
	twin_close(&t);
}

static void test_prog_array(const void *arg)
{
	struct twin t;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	twin_create(&t, BPF_MAP_TYPE_ARRAY, 4, 8, 8, 0, NULL);
	prog_map_ops(&t, BPF_MAP_TYPE_ARRAY, 200, 13);
	twin_close(&t);
}

/* push/pop/peek from programs: r0 is the error, or the value popped or peeked. */
static void test_prog_queue_stack(const void *arg)
{
	enum bpf_map_type types[] = { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK };
	__u64 state = 5;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct twin t, *maps[] = { &t, NULL };

		twin_create(&t, types[i], 0, 8, 4, 0, NULL);
		for (int round = 0; round < 200; round++) {
			__u32 r = rnd(&state);
			int fn = (r % 3 == 0) ? BPF_FUNC_map_push_elem :
				 (r % 3 == 1) ? BPF_FUNC_map_pop_elem : BPF_FUNC_map_peek_elem;

			if (fn == BPF_FUNC_map_push_elem)
				RUN_BOTH("push", maps, LD_MAP(BPF_REG_1, 0),
					 NB_ST_MEM(BPF_DW, BPF_REG_10, -8, (__s32)(r >> 4)),
					 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
					 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
					 NB_MOV64_IMM(BPF_REG_3, (r >> 8) % 4),
					 NB_CALL_HELPER(BPF_FUNC_map_push_elem),
					 NB_EXIT());
			else
				RUN_BOTH("pop/peek", maps, LD_MAP(BPF_REG_1, 0),
					 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
					 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
					 NB_CALL_HELPER(fn),
					 NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 1),
					 NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
					 NB_EXIT());
		}
		twin_close(&t);
	}
}

/* LPM lookups from programs after random inserts: the value of the longest match, or -1. */
static void test_prog_lpm(const void *arg)
{
	struct twin t, *maps[] = { &t, NULL };
	struct {
		__u32 prefixlen;
		__u8 ip[4];
	} key;
	__u64 state = 21, value;

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	twin_create(&t, BPF_MAP_TYPE_LPM_TRIE, 8, 8, 64, BPF_F_NO_PREALLOC, NULL);
	for (int i = 0; i < 40; i++) {
		__u32 ip = rnd(&state) & 0xf0f0c0e0;

		key.prefixlen = rnd(&state) % 33;
		memcpy(key.ip, &ip, 4);
		value = i;
		NB_ASSERT_EQ(bpf_map_update_elem(t.fd, &key, &value, 0),
			     nb_map_update_elem(t.nb, &key, &value, 0));
	}
	for (int i = 0; i < 100; i++) {
		__u32 ip = rnd(&state) & 0xf0f0c0e0;

		RUN_BOTH("lpm lookup", maps, LD_MAP(BPF_REG_1, 0),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -8, 32),
			 NB_ST_MEM(BPF_W, BPF_REG_10, -4, (__s32)ip),
			 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
			 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
			 NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
			 NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
			 NB_MOV64_IMM(BPF_REG_0, -1),
			 NB_EXIT(),
			 NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
			 NB_EXIT());
	}
	twin_close(&t);
}

/*
 * for_each_map_elem over an array and a zero-seed hash: the callback sums values and stops at
 * a chosen value; r0 = elements visited << 16 | sum (low bits).
 */
static void test_for_each(const void *arg)
{
	enum bpf_map_type types[] = { BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_HASH };

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct twin t, *maps[] = { &t, NULL };

		twin_create(&t, types[i], 4, 8, 16, i ? BPF_F_ZERO_SEED : 0, NULL);
		for (__u32 k = 0; k < 12; k++) {
			__u64 v = (k * 7) % 13;

			NB_ASSERT_EQ(bpf_map_update_elem(t.fd, &k, &v, 0), 0);
			NB_ASSERT_EQ(nb_map_update_elem(t.nb, &k, &v, 0), 0);
		}
		for (__s32 stop = 0; stop < 14; stop += 3)
			RUN_BOTH("for_each", maps,
				 NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
				 NB_ST_MEM(BPF_DW, BPF_REG_10, -16, stop),
				 LD_MAP(BPF_REG_1, 0),
				 NB_LD_IMM64_RAW(BPF_REG_2, BPF_PSEUDO_FUNC, 9),
				 NB_MOV64_REG(BPF_REG_3, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_3, -16),
				 NB_MOV64_IMM(BPF_REG_4, 0),
				 NB_CALL_HELPER(BPF_FUNC_for_each_map_elem),
				 NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 16),
				 NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),
				 NB_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
				 NB_EXIT(),
				 /* cb(map, key, value, ctx): ctx[8] += *value; return *value == ctx[0] */
				 NB_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_3, 0),
				 NB_LDX_MEM(BPF_DW, BPF_REG_5, BPF_REG_4, 8),
				 NB_ALU64_REG(BPF_ADD, BPF_REG_5, BPF_REG_3),
				 NB_STX_MEM(BPF_DW, BPF_REG_4, BPF_REG_5, 8),
				 NB_LDX_MEM(BPF_DW, BPF_REG_5, BPF_REG_4, 0),
				 NB_MOV64_IMM(BPF_REG_0, 0),
				 NB_JMP_REG(BPF_JNE, BPF_REG_3, BPF_REG_5, 1),
				 NB_MOV64_IMM(BPF_REG_0, 1),
				 NB_EXIT());
		twin_close(&t);
	}
}

/* Map-in-map from programs: outer lookup yields the inner map, whose value r0 returns. */
static void test_map_in_map(const void *arg)
{
	enum bpf_map_type types[] = { BPF_MAP_TYPE_ARRAY_OF_MAPS, BPF_MAP_TYPE_HASH_OF_MAPS };

	need_kernel_map(BPF_MAP_TYPE_ARRAY);
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct twin tmpl, inner, outer, *maps[] = { &outer, NULL };
		__u32 key = 2, zero = 0, kfd, nid;
		__u64 v = 777;

		twin_create(&tmpl, BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, NULL);
		twin_create(&inner, BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, NULL);
		twin_create(&outer, types[i], 4, 4, 4, 0, &tmpl);
		NB_ASSERT_EQ(bpf_map_update_elem(inner.fd, &zero, &v, 0), 0);
		NB_ASSERT_EQ(nb_map_update_elem(inner.nb, &zero, &v, 0), 0);
		kfd = (__u32)inner.fd;
		nid = nb_map_id(inner.nb);
		NB_ASSERT_EQ(bpf_map_update_elem(outer.fd, &key, &kfd, 0), 0);
		NB_ASSERT_EQ(nb_map_update_elem(outer.nb, &key, &nid, 0), 0);
		for (__s32 k = 0; k < 4; k++)
			RUN_BOTH("map_in_map", maps, LD_MAP(BPF_REG_1, 0),
				 NB_ST_MEM(BPF_W, BPF_REG_10, -4, k),
				 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
				 NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
				 NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 7),
				 NB_MOV64_REG(BPF_REG_1, BPF_REG_0),
				 NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
				 NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
				 NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
				 NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
				 NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
				 NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
				 NB_EXIT(),
				 NB_MOV64_IMM(BPF_REG_0, -1),
				 NB_EXIT());
		twin_close(&outer);
		twin_close(&inner);
		twin_close(&tmpl);
	}
}

static void __attribute__((constructor)) register_helpers_kernel(void)
{
	nb_test_register("helpers-kernel/csum_diff", test_csum_diff, NULL);
	nb_test_register("helpers-kernel/loop", test_loop, NULL);
	nb_test_register("helpers-kernel/prog_hash", test_prog_hash, NULL);
	nb_test_register("helpers-kernel/prog_array", test_prog_array, NULL);
	nb_test_register("helpers-kernel/prog_queue_stack", test_prog_queue_stack, NULL);
	nb_test_register("helpers-kernel/prog_lpm", test_prog_lpm, NULL);
	nb_test_register("helpers-kernel/for_each_map_elem", test_for_each, NULL);
	nb_test_register("helpers-kernel/map_in_map", test_map_in_map, NULL);
}
