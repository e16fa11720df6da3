// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_map_lookup_elem written in line by the fixup (map_gen_lookup): array bounds at both ends,
 * values whose size is no multiple of 8, per-CPU arrays and hashes from several workers, inner
 * maps reached through array_of_maps and hash_of_maps, the hash types' direct calls for each
 * key size, a call site with two maps keeping the helper, and the xlated dump naming what runs.
 * Every program is verified and runs on the interpreter and on the JIT, with the same results.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <netbpf/map.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>

#include "bpf/disasm.h"
#include "bpf/prog.h"
#include "bpf_asm.h"
#include "map_test.h"
#include "test.h"

#define MISS 0xdead /* r0 when a lookup found nothing */

enum engine { INTERP, JIT, NR_ENGINES };

/* Load a verified program, on the interpreter or JIT-compiled (when there is a JIT). */
static struct nb_prog *load(const struct bpf_insn *insns, u32 cnt, enum engine e)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log,
		.flags = e == INTERP ? NB_PROG_LOAD_INTERP : 0,
	};
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, &prog))
		NB_FAIL("the verifier refuses the program: %s", nb_log_text(&log));
	nb_log_free(&log);
	NB_ASSERT(e == INTERP ? !prog->jited : true);
	return prog;
}

/* The xlated program as the dump prints it, one instruction a line. */
static void xlated_text(const struct nb_prog *prog, char *out, size_t size)
{
	size_t len = 0;

	out[0] = 0;
	for (u32 i = 0; i < prog->len;) {
		char line[160];
		int n = nb_disasm_prog_insn(prog, true, &prog->insns[i], prog->len - i, line,
					    sizeof(line));

		len += snprintf(out + len, len < size ? size - len : 0, "%s\n", line);
		i += n;
	}
	NB_ASSERT(len < size);
}

static void assert_xlated_has(const struct nb_prog *prog, const char *what)
{
	char text[8192];

	xlated_text(prog, text, sizeof(text));
	if (!strstr(text, what))
		NB_FAIL("xlated lacks \"%s\":\n%s", what, text);
}

static void assert_xlated_lacks(const struct nb_prog *prog, const char *what)
{
	char text[8192];

	xlated_text(prog, text, sizeof(text));
	if (strstr(text, what))
		NB_FAIL("xlated has \"%s\":\n%s", what, text);
}

/*
 * r0 = lookup(map, key at r10 - 16, key_size bytes from key) ? *(u32 *)(value + off) : MISS.
 * Keys are stored as up to two 8-byte words and one 4-byte word.
 */
static u32 build_lookup(struct bpf_insn *p, u32 map_id, const u8 *key, u32 key_size, s16 off)
{
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, map_id) };
	u32 n = 0;

	for (u32 k = 0; k < key_size; k += 4) {
		u32 word;

		memcpy(&word, key + k, 4);
		p[n++] = NB_ST_MEM(BPF_W, BPF_REG_10, -16 + (s16)k, (s32)word);
	}
	p[n++] = ld[0];
	p[n++] = ld[1];
	p[n++] = NB_MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[n++] = NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -16);
	p[n++] = NB_CALL_HELPER(BPF_FUNC_map_lookup_elem);
	p[n++] = NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2);
	p[n++] = NB_MOV64_IMM(BPF_REG_0, MISS);
	p[n++] = NB_EXIT();
	p[n++] = NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, off);
	p[n++] = NB_EXIT();
	return n;
}

/* Run the lookup of key on both engines: both must return expect. */
static void expect_lookup(struct nb_map *map, const void *key, u32 key_size, s16 off, u64 expect,
			  const char *dump_has)
{
	struct bpf_insn p[32];
	u32 n = build_lookup(p, nb_map_id(map), key, key_size, off);

	for (int e = 0; e < NR_ENGINES; e++) {
		struct nb_prog *prog = load(p, n, e);

		if (dump_has)
			assert_xlated_has(prog, dump_has);
		assert_xlated_lacks(prog, "bpf_map_lookup_elem");
		if (nb_prog_run(prog, NULL) != expect)
			NB_FAIL("%s: key %08x: r0 0x%llx, expected 0x%llx",
				e == JIT ? "jit" : "interp", *(const u32 *)key,
				(unsigned long long)nb_prog_run(prog, NULL),
				(unsigned long long)expect);
		nb_prog_put(prog);
	}
}

/* value i of an array of 12-byte values: { 10 i, 10 i + 1, 10 i + 2 } */
static void fill_array(struct nb_map *map, u32 entries)
{
	for (u32 i = 0; i < entries; i++) {
		u32 v[3] = { 10 * i, 10 * i + 1, 10 * i + 2 };

		NB_ASSERT_EQ(nb_map_update_elem(map, &i, v, BPF_ANY), 0);
	}
}

/*
 * Array indexes: the first, the last, one past, the largest u32 and 2^31 (a 64-bit compare with
 * a sign-extended bound would let these through); 12-byte values sit every 16 bytes.
 */
NB_TEST(map_inline_array_bounds)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 12, 5, 0);
	u32 keys[] = { 0, 4, 5, 0xffffffff, 0x80000000 };
	u64 expect[] = { 2, 42, MISS, MISS, MISS };

	fill_array(map, 5);
	for (u32 i = 0; i < ARRAY_SIZE(keys); i++)
		expect_lookup(map, &keys[i], 4, 8, expect[i], "r0 <<= 4");
	nb_map_put(map);
}

/* A value size that is no power of two either: 24 bytes, multiplied, last element exact. */
NB_TEST(map_inline_array_value_size)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 20, 3, 0);
	u32 v[5] = { 1, 2, 3, 4, 0x55aa }, key = 2, past = 3;

	NB_ASSERT_EQ(nb_map_update_elem(map, &key, v, BPF_ANY), 0);
	expect_lookup(map, &key, 4, 16, 0x55aa, "r0 *= 24");
	expect_lookup(map, &past, 4, 16, MISS, "r0 *= 24");
	nb_map_put(map);
}

struct percpu_run {
	struct nb_map *map;
	unsigned int cpu;
	int runs;
	u64 last[NR_ENGINES];
};

/* lookup(key 1); *value += 1; r0 = *value */
static u32 build_count(struct bpf_insn *p, u32 map_id, u32 key)
{
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, map_id) };
	u32 n = 0;

	p[n++] = NB_ST_MEM(BPF_W, BPF_REG_10, -4, key);
	p[n++] = ld[0];
	p[n++] = ld[1];
	p[n++] = NB_MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[n++] = NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4);
	p[n++] = NB_CALL_HELPER(BPF_FUNC_map_lookup_elem);
	p[n++] = NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2);
	p[n++] = NB_MOV64_IMM(BPF_REG_0, MISS);
	p[n++] = NB_EXIT();
	p[n++] = NB_MOV64_IMM(BPF_REG_1, 1);
	p[n++] = NB_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_0, BPF_REG_1, 0);
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0);
	p[n++] = NB_EXIT();
	return n;
}

/* A worker thread: its index, then runs of the counting program on both engines. */
static void *percpu_worker(void *arg)
{
	struct percpu_run *r = arg;
	struct bpf_insn p[16];
	u32 n = build_count(p, nb_map_id(r->map), 1);

	if (nb_set_this_cpu(r->cpu))
		return NULL;
	for (int e = 0; e < NR_ENGINES; e++) {
		struct nb_prog *prog = load(p, n, e);

		for (int i = 0; i < r->runs; i++)
			r->last[e] = nb_prog_run(prog, NULL);
		nb_prog_put(prog);
	}
	return NULL;
}

/* Each worker counts in its own value: worker k runs 2 (k + 1) times, once per engine. */
static void percpu_counts(enum bpf_map_type type, const char *dump_has)
{
	struct percpu_run runs[4];
	pthread_t th[4];
	struct nb_map *map;
	u64 values[4] = { 0 }, zero[4] = { 0 };
	u32 key = 1;
	struct bpf_insn p[16];
	struct nb_prog *prog;

	if (nb_set_nr_cpus(4))
		nb_test_skip("the worker count is fixed already (%u)", nb_nr_cpus());
	map = mt_map(type, 4, 8, 4, 0);
	NB_ASSERT_EQ(nb_map_update_elem(map, &key, zero, BPF_ANY), 0);
	prog = load(p, build_count(p, nb_map_id(map), 1), INTERP);
	assert_xlated_has(prog, dump_has);
	assert_xlated_has(prog, "r1 = this_cpu");
	assert_xlated_lacks(prog, "bpf_map_lookup_elem");
	nb_prog_put(prog);
	for (unsigned int k = 0; k < 4; k++) {
		runs[k] = (struct percpu_run){ .map = map, .cpu = k, .runs = k + 1 };
		NB_ASSERT_EQ(pthread_create(&th[k], NULL, percpu_worker, &runs[k]), 0);
	}
	for (unsigned int k = 0; k < 4; k++) {
		NB_ASSERT_EQ(pthread_join(th[k], NULL), 0);
		NB_ASSERT_EQ(runs[k].last[INTERP], k + 1);
		NB_ASSERT_EQ(runs[k].last[JIT], 2 * (k + 1));
	}
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, values), 0);
	for (unsigned int k = 0; k < 4; k++)
		NB_ASSERT_EQ(values[k], 2 * (k + 1));
	nb_map_put(map);
}

NB_TEST(map_inline_percpu_array)
{
	percpu_counts(BPF_MAP_TYPE_PERCPU_ARRAY, "r0 <<= 3");
}

NB_TEST(map_inline_percpu_hash)
{
	percpu_counts(BPF_MAP_TYPE_PERCPU_HASH, "call __htab_map_lookup_elem_4");
}

NB_TEST(map_inline_lru_percpu_hash)
{
	percpu_counts(BPF_MAP_TYPE_LRU_PERCPU_HASH, ") = 1");
}

/*
 * outer[k] -> inner map -> inner[1] -> *(u64 *) value; MISS for a missing outer slot, MISS + 1
 * for a missing inner element.
 */
static u32 build_inner(struct bpf_insn *p, u32 outer_id, const void *key, u32 key_size)
{
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, outer_id) };
	u32 n = 0;

	for (u32 k = 0; k < key_size; k += 4)
		p[n++] = NB_ST_MEM(BPF_W, BPF_REG_10, -16 + (s16)k, ((const s32 *)key)[k / 4]);
	p[n++] = ld[0];
	p[n++] = ld[1];
	p[n++] = NB_MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[n++] = NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -16);
	p[n++] = NB_CALL_HELPER(BPF_FUNC_map_lookup_elem);
	p[n++] = NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2);
	p[n++] = NB_MOV64_IMM(BPF_REG_0, MISS);
	p[n++] = NB_EXIT();
	p[n++] = NB_MOV64_REG(BPF_REG_1, BPF_REG_0);
	p[n++] = NB_ST_MEM(BPF_W, BPF_REG_10, -4, 1);
	p[n++] = NB_MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[n++] = NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4);
	p[n++] = NB_CALL_HELPER(BPF_FUNC_map_lookup_elem);
	p[n++] = NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2);
	p[n++] = NB_MOV64_IMM(BPF_REG_0, MISS + 1);
	p[n++] = NB_EXIT();
	p[n++] = NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0);
	p[n++] = NB_EXIT();
	return n;
}

static void expect_inner(struct nb_map *outer, const void *key, u32 key_size, u64 expect,
			 const char *dump_has)
{
	struct bpf_insn p[40];
	u32 n = build_inner(p, nb_map_id(outer), key, key_size);

	for (int e = 0; e < NR_ENGINES; e++) {
		struct nb_prog *prog = load(p, n, e);

		assert_xlated_has(prog, dump_has);
		assert_xlated_lacks(prog, "bpf_map_lookup_elem");
		if (nb_prog_run(prog, NULL) != expect)
			NB_FAIL("%s: r0 0x%llx, expected 0x%llx", e == JIT ? "jit" : "interp",
				(unsigned long long)nb_prog_run(prog, NULL),
				(unsigned long long)expect);
		nb_prog_put(prog);
	}
}

/*
 * Inner arrays of one template, each with its own values: the in-line inner lookup reads the
 * base through the map in r1, so each inner map answers for itself.
 */
static struct nb_map *inner_array(u64 v1)
{
	struct nb_map *m = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 2, 0);
	u32 key = 1;

	NB_ASSERT_EQ(nb_map_update_elem(m, &key, &v1, BPF_ANY), 0);
	return m;
}

static struct nb_map *outer_map(enum bpf_map_type type, u32 key_size, struct nb_map *tmpl)
{
	struct nb_log log = { 0 };
	struct nb_map_create_opts opts = {
		.sz = sizeof(opts), .name = "outer", .inner_map = tmpl, .log = &log,
	};
	struct nb_map *m;

	if (nb_map_create(type, key_size, 4, 4, &opts, &m))
		NB_FAIL("outer map: %s", nb_log_text(&log));
	nb_log_free(&log);
	return m;
}

NB_TEST(map_inline_array_of_maps)
{
	struct nb_map *a = inner_array(111), *b = inner_array(222);
	struct nb_map *outer = outer_map(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, a);
	u32 id, k;

	k = 0, id = nb_map_id(a);
	NB_ASSERT_EQ(nb_map_update_elem(outer, &k, &id, BPF_ANY), 0);
	k = 2, id = nb_map_id(b);
	NB_ASSERT_EQ(nb_map_update_elem(outer, &k, &id, BPF_ANY), 0);
	k = 0;
	expect_inner(outer, &k, 4, 111, "r0 = *(u64 *)(r0 + 0)");
	k = 1; /* an empty slot */
	expect_inner(outer, &k, 4, MISS, "r0 = *(u64 *)(r0 + 0)");
	k = 2;
	expect_inner(outer, &k, 4, 222, "r0 = *(u64 *)(r0 + 0)");
	k = 4; /* past the end */
	expect_inner(outer, &k, 4, MISS, "r0 = *(u64 *)(r0 + 0)");
	nb_map_put(outer);
	nb_map_put(a);
	nb_map_put(b);
}

NB_TEST(map_inline_hash_of_maps)
{
	struct nb_map *a = inner_array(333);
	struct nb_map *outer = outer_map(BPF_MAP_TYPE_HASH_OF_MAPS, 8, a);
	u32 key[2] = { 7, 9 }, other[2] = { 9, 7 }, id = nb_map_id(a);

	NB_ASSERT_EQ(nb_map_update_elem(outer, key, &id, BPF_ANY), 0);
	expect_inner(outer, key, 8, 333, "call __htab_map_lookup_elem_8");
	expect_inner(outer, other, 8, MISS, "call __htab_map_lookup_elem_8");
	nb_map_put(outer);
	nb_map_put(a);
}

/* Hash lookups call the element lookup for their key size; hits and misses on both engines. */
static void hash_sizes(enum bpf_map_type type)
{
	static const struct {
		u32 key_size;
		const char *fn;
	} sizes[] = {
		{ 4, "call __htab_map_lookup_elem_4\n" },
		{ 8, "call __htab_map_lookup_elem_8\n" },
		{ 12, "call __htab_map_lookup_elem\n" },
		{ 16, "call __htab_map_lookup_elem_16\n" },
	};

	for (u32 s = 0; s < ARRAY_SIZE(sizes); s++) {
		struct nb_map *map = mt_map(type, sizes[s].key_size, 12, 16, 0);
		u8 key[16], miss[16];

		for (u32 k = 0; k < 3; k++) {
			u32 v[3] = { k, 100 + k, 0x1000 * (s + 1) + k };

			memset(key, 0x11 * (k + 1), sizeof(key));
			NB_ASSERT_EQ(nb_map_update_elem(map, key, v, BPF_ANY), 0);
		}
		for (u32 k = 0; k < 3; k++) {
			memset(key, 0x11 * (k + 1), sizeof(key));
			expect_lookup(map, key, sizes[s].key_size, 8, 0x1000 * (s + 1) + k,
				      sizes[s].fn);
		}
		/* Differs in the last byte only. */
		memset(miss, 0x11, sizeof(miss));
		miss[sizes[s].key_size - 1] = 0x12;
		expect_lookup(map, miss, sizes[s].key_size, 8, MISS, sizes[s].fn);
		/* And in the first byte only. */
		memset(miss, 0x11, sizeof(miss));
		miss[0] = 0x12;
		expect_lookup(map, miss, sizes[s].key_size, 8, MISS, sizes[s].fn);
		nb_map_put(map);
	}
}

NB_TEST(map_inline_hash)
{
	hash_sizes(BPF_MAP_TYPE_HASH);
}

/* LRU lookups also mark the element used, in line: the byte the eviction scan reads. */
NB_TEST(map_inline_lru_hash)
{
	struct bpf_insn p[32];
	struct nb_map *map;
	struct nb_prog *prog;

	hash_sizes(BPF_MAP_TYPE_LRU_HASH);
	map = mt_map(BPF_MAP_TYPE_LRU_HASH, 4, 8, 4, 0);
	prog = load(p, build_lookup(p, nb_map_id(map), (const u8 *)"abcd", 4, 0), INTERP);
	assert_xlated_has(prog, "*(u8 *)(r0 + ");
	assert_xlated_has(prog, ") = 1");
	nb_prog_put(prog);
	nb_map_put(map);
}

/*
 * A call site reached with two different maps keeps the generic helper; each path still finds
 * its own map's value. The path is chosen by a value in a third map (unknown to the verifier).
 */
NB_TEST(map_inline_two_maps_keep_call)
{
	struct nb_map *m1 = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	struct nb_map *m2 = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	struct nb_map *sel = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	struct bpf_insn l1[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(m1)) };
	struct bpf_insn l2[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(m2)) };
	struct bpf_insn ls[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(sel)) };
	/* r7 = sel[0]; r1 = r7 ? m2 : m1; r0 = *lookup(r1, 0) */
	const struct bpf_insn insns[] = {
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		ls[0], ls[1],
		NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 12),
		NB_LDX_MEM(BPF_DW, BPF_REG_7, BPF_REG_0, 0),
		l1[0], l1[1],
		NB_JMP_IMM(BPF_JEQ, BPF_REG_7, 0, 2),
		l2[0], l2[1],
		NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_0, MISS),
		NB_EXIT(),
	};
	u64 v1 = 10, v2 = 20, which;
	u32 key = 0;

	NB_ASSERT_EQ(nb_map_update_elem(m1, &key, &v1, BPF_ANY), 0);
	NB_ASSERT_EQ(nb_map_update_elem(m2, &key, &v2, BPF_ANY), 0);
	for (int e = 0; e < NR_ENGINES; e++) {
		struct nb_prog *prog = load(insns, ARRAY_SIZE(insns), e);

		/* The selector's lookup is in line, the shared one keeps the helper. */
		assert_xlated_has(prog, "call bpf_map_lookup_elem#1");
		which = 0;
		NB_ASSERT_EQ(nb_map_update_elem(sel, &key, &which, BPF_ANY), 0);
		NB_ASSERT_EQ(nb_prog_run(prog, NULL), 10);
		which = 1;
		NB_ASSERT_EQ(nb_map_update_elem(sel, &key, &which, BPF_ANY), 0);
		NB_ASSERT_EQ(nb_prog_run(prog, NULL), 20);
		nb_prog_put(prog);
	}
	nb_map_put(m1);
	nb_map_put(m2);
	nb_map_put(sel);
}

/* The fixup's internal encodings never load: the worker-index load and a pre-resolved call. */
NB_TEST(map_inline_internal_opcodes_refused)
{
	const struct bpf_insn this_cpu[] = {
		NB_INSN(NB_OP_THIS_CPU, BPF_REG_0, 0, 0, 0), NB_EXIT(),
	};
	const struct bpf_insn fixed_call[] = {
		NB_INSN(BPF_JMP | BPF_CALL, 0, NB_CALL_FIXED, 0, 0), NB_EXIT(),
	};
	const unsigned int flags[] = { 0, NB_PROG_LOAD_CHECKED, NB_PROG_LOAD_UNSAFE_NO_VERIFY };

	for (u32 f = 0; f < ARRAY_SIZE(flags); f++) {
		struct nb_prog_load_opts opts = { .sz = sizeof(opts), .flags = flags[f] };
		struct nb_prog *prog = NULL;

		NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SYSCALL, this_cpu, 2, &opts, &prog),
			     -EINVAL);
		NB_ASSERT_EQ(nb_prog_load(BPF_PROG_TYPE_SYSCALL, fixed_call, 2, &opts, &prog),
			     -EINVAL);
		NB_ASSERT(prog == NULL);
	}
}
