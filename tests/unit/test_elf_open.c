// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's reading of the test objects: programs (name, section, guessed type, linked
 * instructions), map definitions of both styles, global data, values initialisers, pinning
 * paths and the setting of .rodata before load. No map or program is created here.
 */
#include <bpf/libbpf.h>

#include "bpf/insn.h"
#include "elf_util.h"

static struct nb_object_prog *prog_or_fail(struct nb_object *obj, const char *sec,
					   const char *name)
{
	struct nb_object_prog *p = nb_object_find_prog(obj, sec, name);

	if (!p)
		NB_FAIL("no program %s in section %s", name, sec ? sec : "(any)");
	return p;
}

static struct nb_object_map *map_or_fail(struct nb_object *obj, const char *name)
{
	struct nb_object_map *m = nb_object_find_map(obj, name);

	if (!m)
		NB_FAIL("no map %s", name);
	return m;
}

static void assert_map(struct nb_object *obj, const char *name, enum bpf_map_type type,
		       __u32 key, __u32 value, __u32 max, __u32 flags)
{
	struct nb_object_map *m = map_or_fail(obj, name);

	if (nb_object_map_type(m) != type || nb_object_map_key_size(m) != key ||
	    nb_object_map_value_size(m) != value || nb_object_map_max_entries(m) != max ||
	    nb_object_map_flags(m) != flags)
		NB_FAIL("map %s: type %d key %u value %u max %u flags %#x, expected %d %u %u %u %#x",
			name, nb_object_map_type(m), nb_object_map_key_size(m),
			nb_object_map_value_size(m), nb_object_map_max_entries(m),
			nb_object_map_flags(m), type, key, value, max, flags);
}

/* Counts ldimm64 of a kind in a linked program and checks each names a valid map index. */
static unsigned int count_ldimm64(struct nb_object *obj, struct nb_object_prog *p, __u8 src_reg)
{
	unsigned int cnt, n = 0;
	const struct bpf_insn *insns = nb_object_prog_insns(p, &cnt);

	for (unsigned int i = 0; i < cnt; i++) {
		if (!insn_is_ldimm64(&insns[i]))
			continue;
		if (insns[i].src_reg == src_reg) {
			n++;
			if (src_reg == BPF_PSEUDO_MAP_IDX || src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
				NB_ASSERT((unsigned int)insns[i].imm < nb_object_map_cnt(obj));
		}
		i++;
	}
	return n;
}

/* Every pseudo call and function reference lands inside the linked program. */
static void assert_calls_in_range(struct nb_object_prog *p)
{
	unsigned int cnt;
	const struct bpf_insn *insns = nb_object_prog_insns(p, &cnt);

	for (unsigned int i = 0; i < cnt; i++) {
		bool call = insn_is_pseudo_call(&insns[i]);
		bool func = insn_is_ldimm64(&insns[i]) && insns[i].src_reg == BPF_PSEUDO_FUNC;
		long long target = (long long)i + insns[i].imm + 1;

		if ((call || func) && (target <= 0 || target >= cnt))
			NB_FAIL("%s: insn %u calls %lld, outside 0..%u", nb_object_prog_name(p), i,
				target, cnt);
	}
}

NB_TEST(elf_open_btf_hash)
{
	struct nb_object *obj = elf_test_open("elf_hash.o");
	struct nb_object_prog *p = prog_or_fail(obj, "socket", "count");
	unsigned int n = 0;
	struct nb_object_prog *it;

	nb_object_for_each_prog(it, obj)
		n++;
	NB_ASSERT_EQ(n, 1);
	NB_ASSERT_EQ(nb_object_prog_type(p), BPF_PROG_TYPE_SOCKET_FILTER);
	NB_ASSERT(!strcmp(nb_object_license(obj), "GPL"));
	NB_ASSERT(!strcmp(nb_object_name(obj), "elf_hash.o"));
	NB_ASSERT_EQ(nb_object_map_cnt(obj), 1);
	assert_map(obj, "m", BPF_MAP_TYPE_HASH, 4, 8, 16, 0);
	NB_ASSERT(!nb_object_map_pin_path(map_or_fail(obj, "m")));
	NB_ASSERT_EQ(count_ldimm64(obj, p, BPF_PSEUDO_MAP_IDX), 2);
	NB_ASSERT(!nb_object_prog_prog(p));
	NB_ASSERT(!nb_object_map_map(map_or_fail(obj, "m")));
	nb_object_close(obj);
}

NB_TEST(elf_open_iproute2)
{
	struct nb_object *obj = elf_test_open("elf_iproute2.o");
	struct nb_object_prog *cls = prog_or_fail(obj, "classifier", "cls_main");
	struct nb_object_prog *t0 = prog_or_fail(obj, "1/0", "tail_zero");
	struct nb_object_prog *xmit = prog_or_fail(obj, "redirect_xmit", NULL);
	const char *pin;

	prog_or_fail(obj, "1/1", "tail_one");
	NB_ASSERT_EQ(nb_object_prog_type(cls), BPF_PROG_TYPE_SCHED_CLS);
	NB_ASSERT_EQ(nb_object_prog_type(t0), BPF_PROG_TYPE_UNSPEC);
	NB_ASSERT_EQ(nb_object_prog_type(xmit), BPF_PROG_TYPE_UNSPEC);
	NB_ASSERT(!strcmp(nb_object_prog_name(xmit), "xmit"));
	assert_map(obj, "counters", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	assert_map(obj, "jmp", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0);
	assert_map(obj, "seen", BPF_MAP_TYPE_HASH, 4, 4, 8, 0);
	NB_ASSERT(!strcmp(nb_object_map_pin_path(map_or_fail(obj, "counters")),
			  "tc/globals/counters"));
	NB_ASSERT(!nb_object_map_pin_path(map_or_fail(obj, "jmp")));
	pin = nb_object_map_pin_path(map_or_fail(obj, "seen"));
	NB_ASSERT(pin && !strncmp(pin, "tc/", 3) && strstr(pin, "/seen") &&
		  !strstr(pin, "globals"));
	/* cls_main: counters (via bump) and jmp. */
	NB_ASSERT_EQ(count_ldimm64(obj, cls, BPF_PSEUDO_MAP_IDX), 2);
	NB_ASSERT(!strcmp(nb_object_license(obj), "GPL"));
	nb_object_close(obj);
}

NB_TEST(elf_open_legacy_libbpf)
{
	struct nb_object *obj = elf_test_open("elf_legacy_libbpf.o");
	struct nb_object_prog *p = prog_or_fail(obj, "xdp", "legacy_xdp");

	NB_ASSERT_EQ(nb_object_prog_type(p), BPF_PROG_TYPE_XDP);
	NB_ASSERT_EQ(nb_object_prog_expected_attach_type(p), BPF_XDP);
	assert_map(obj, "arr", BPF_MAP_TYPE_ARRAY, 4, 4, 2, 0);
	assert_map(obj, "lru", BPF_MAP_TYPE_LRU_HASH, 8, 8, 32, 0);
	NB_ASSERT(!strcmp(nb_object_license(obj), "Dual BSD/GPL"));
	nb_object_close(obj);
}

NB_TEST(elf_open_globals)
{
	struct nb_object *obj = elf_test_open("elf_globals.o");
	struct nb_object_prog *a = prog_or_fail(obj, "socket", "prog_a");
	struct nb_object_prog *b = prog_or_fail(obj, "socket", "prog_b");
	struct nb_object_prog *loop = prog_or_fail(obj, "classifier", "prog_loop");
	struct nb_object_prog *it;
	unsigned int cnt_a, cnt_b, n = 0;

	nb_object_for_each_prog(it, obj) {
		assert_calls_in_range(it);
		n++;
	}
	/* add_bss lives in .text: a subprogram, never a program of its own. */
	NB_ASSERT_EQ(n, 4);
	NB_ASSERT(!nb_object_find_prog(obj, NULL, "add_bss"));
	NB_ASSERT(!nb_object_find_prog(obj, NULL, "scale"));
	/* prog_a (7 insns) + scale (9); prog_b (10) + add_bss (9) + scale (9). */
	nb_object_prog_insns(a, &cnt_a);
	nb_object_prog_insns(b, &cnt_b);
	NB_ASSERT_EQ(cnt_a, 7 + 9);
	NB_ASSERT_EQ(cnt_b, 10 + 9 + 9);
	NB_ASSERT_EQ(count_ldimm64(obj, loop, BPF_PSEUDO_FUNC), 1);
	NB_ASSERT_EQ(count_ldimm64(obj, a, BPF_PSEUDO_MAP_IDX_VALUE), 3);
	/* Global variables: BPF_F_MMAPABLE, as libbpf makes them for its skeletons. */
	assert_map(obj, ".rodata", BPF_MAP_TYPE_ARRAY, 4, 4 + 4 + 8 + 7, 1,
		   BPF_F_RDONLY_PROG | BPF_F_MMAPABLE);
	assert_map(obj, ".data", BPF_MAP_TYPE_ARRAY, 4, 24, 1, BPF_F_MMAPABLE);
	assert_map(obj, ".bss", BPF_MAP_TYPE_ARRAY, 4, 8 + 4, 1, BPF_F_MMAPABLE);
	nb_object_close(obj);
}

/* A section of static variables only is not BPF_F_MMAPABLE: no skeleton reaches them. */
NB_TEST(elf_open_static_data)
{
	struct nb_object *obj = elf_test_open("elf_static_data.o");

	assert_map(obj, ".bss", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	assert_map(obj, ".data", BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_MMAPABLE);
	nb_object_close(obj);
}

NB_TEST(elf_open_set_rodata)
{
	struct nb_object *obj = elf_test_open("elf_globals.o");
	__u32 five = 5;
	__u64 big = 1;

	NB_ASSERT_EQ(nb_object_var_size(obj, "factor"), 4);
	NB_ASSERT_EQ(nb_object_var_size(obj, "offset_ro"), 8);
	NB_ASSERT_EQ(nb_object_var_size(obj, "data_counter"), 8);
	NB_ASSERT_EQ(nb_object_var_size(obj, "nope"), -ENOENT);
	NB_ASSERT_EQ(nb_object_set_rodata(obj, "factor", &five, sizeof(five)), 0);
	NB_ASSERT_EQ(nb_object_set_rodata(obj, "factor", &big, sizeof(big)), -EINVAL);
	NB_ASSERT_EQ(nb_object_set_rodata(obj, "nope", &five, sizeof(five)), -ENOENT);
	nb_object_close(obj);
}

NB_TEST(elf_open_all_maps)
{
	struct nb_object *obj = elf_test_open("elf_all_maps.o");
	struct nb_object_prog *it;

	assert_map(obj, "hash", BPF_MAP_TYPE_HASH, 4, 8, 64, 0);
	assert_map(obj, "array", BPF_MAP_TYPE_ARRAY, 4, 4, 8, 0);
	assert_map(obj, "pcpu_array", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 2, 0);
	assert_map(obj, "pcpu_hash", BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 16, 0);
	assert_map(obj, "lru", BPF_MAP_TYPE_LRU_HASH, 8, 4, 32, 0);
	assert_map(obj, "lru_pcpu", BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 4, 32, 0);
	assert_map(obj, "lpm", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, BPF_F_NO_PREALLOC);
	assert_map(obj, "rb", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0);
	assert_map(obj, "queue", BPF_MAP_TYPE_QUEUE, 0, 4, 8, 0);
	assert_map(obj, "stack", BPF_MAP_TYPE_STACK, 0, 4, 8, 0);
	assert_map(obj, "inner_a", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	assert_map(obj, "outer", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 2, 0);
	assert_map(obj, "jmp_table", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0);
	assert_map(obj, "hash_outer", BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4, 8, 0);
	NB_ASSERT_EQ(nb_object_map_cnt(obj), 15);
	nb_object_for_each_prog(it, obj)
		NB_ASSERT_EQ(nb_object_prog_type(it), BPF_PROG_TYPE_SOCKET_FILTER);
	nb_object_close(obj);
}

NB_TEST(elf_open_mem_copies_buffer)
{
	struct nb_object_open_opts opts = { .sz = sizeof(opts), .name = "inline" };
	struct nb_object *obj;
	FILE *f = fopen(elf_test_path("elf_hash.o"), "rb");
	static unsigned char buf[1 << 16];
	size_t n;

	NB_ASSERT(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	NB_ASSERT_EQ(nb_object_open_mem(buf, n, &opts, &obj), 0);
	memset(buf, 0, n);
	NB_ASSERT(!strcmp(nb_object_name(obj), "inline"));
	NB_ASSERT(nb_object_find_prog(obj, "socket", "count"));
	nb_object_close(obj);
}
