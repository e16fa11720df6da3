// SPDX-License-Identifier: GPL-2.0
/*
 * struct bpf_map read through a map pointer, as a privileged kernel program reads it: the
 * verifier checks the read against the running kernel's BTF, and the program reads the map's
 * real attributes on the interpreter and on the JIT (max_entries, map_type, name, struct
 * bpf_array's elem_size and index_mask), a pointer member reads NULL and a read through it 0,
 * an inner map reached through a map of maps reads its own attributes, also one put in before
 * the program was loaded. A program loaded without the verifier (--unsafe-no-verify) reads the
 * same, not netbpf's own struct behind the map pointer. The field offsets come from the
 * kernel's BTF here too, so nothing depends on one kernel's layout.
 */
#include <string.h>

#include <bpf/btf.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "bpf/btf_object.h"
#include "bpf/prog.h"
#include "bpf/vmlinux_btf.h"
#include "bpf_asm.h"
#include "map_test.h"
#include "test.h"

/* Verified on both engines, and loaded without the verifier on both. */
enum engine { INTERP, JIT, UNSAFE_INTERP, UNSAFE_JIT, NR_ENGINES };

static const char *const engine_names[NR_ENGINES] = {
	"interpreter", "JIT", "unverified interpreter", "unverified JIT",
};

static const unsigned int engine_flags[NR_ENGINES] = {
	NB_PROG_LOAD_INTERP, 0, NB_PROG_LOAD_UNSAFE_NO_VERIFY | NB_PROG_LOAD_INTERP,
	NB_PROG_LOAD_UNSAFE_NO_VERIFY,
};

static const struct nb_btf *kernel_btf(void)
{
	const char *why = NULL;
	const struct nb_btf *btf = nb_vmlinux_btf(&why);

	if (!btf)
		nb_test_skip("%s", why);
	return btf;
}

/* The offset of member name (a chain "map.max_entries") in struct sname of the kernel. */
static s16 kernel_offset(const char *sname, const char *path)
{
	const struct nb_btf *btf = kernel_btf();
	const struct btf_type *t = nb_btf_type(btf, nb_btf_find_struct(btf, sname));
	char buf[64], *save = NULL;
	u32 off = 0;

	NB_ASSERT(t);
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *name = strtok_r(buf, ".", &save); name; name = strtok_r(NULL, ".", &save)) {
		const struct btf_member *m = btf_members(t);
		u16 i;

		for (i = 0; i < btf_vlen(t); i++, m++)
			if (!strcmp(nb_btf_str(btf, m->name_off), name))
				break;
		if (i == btf_vlen(t))
			NB_FAIL("struct %s has no member %s", sname, name);
		off += btf_member_bit_offset(t, i) / 8;
		t = nb_btf_skip_modifiers(btf, m->type, true, NULL);
	}
	return (s16)off;
}

static struct nb_prog *load(const struct bpf_insn *insns, u32 cnt, enum engine e)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log,
		.flags = engine_flags[e],
	};
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, &prog))
		NB_FAIL("%s: the program is refused: %s", engine_names[e], nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

/* r0 = *(size *)(map + off), verified, on both engines. */
static void expect_read(struct nb_map *map, int size, s16 off, u64 expect)
{
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)) };
	struct bpf_insn p[] = { ld[0], ld[1], NB_LDX_MEM(size, BPF_REG_0, BPF_REG_1, off),
				NB_EXIT() };

	for (int e = 0; e < NR_ENGINES; e++) {
		struct nb_prog *prog = load(p, ARRAY_SIZE(p), e);
		u64 r0 = nb_prog_run(prog, NULL);

		if (r0 != expect)
			NB_FAIL("%s: read of size %#x at %d gave %llu, not %llu",
				engine_names[e], size, off,
				(unsigned long long)r0, (unsigned long long)expect);
		nb_prog_put(prog);
	}
}

NB_TEST(map_kstruct_array_attributes)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 12, 11, 0);
	char name[8] = { 0 };

	expect_read(map, BPF_W, kernel_offset("bpf_array", "map.max_entries"), 11);
	expect_read(map, BPF_W, kernel_offset("bpf_array", "map.map_type"), BPF_MAP_TYPE_ARRAY);
	expect_read(map, BPF_W, kernel_offset("bpf_array", "map.value_size"), 12);
	expect_read(map, BPF_W, kernel_offset("bpf_array", "map.key_size"), 4);
	expect_read(map, BPF_W, kernel_offset("bpf_array", "map.id"), nb_map_id(map));
	expect_read(map, BPF_W, kernel_offset("bpf_array", "elem_size"), 16);
	expect_read(map, BPF_W, kernel_offset("bpf_array", "index_mask"), 15);
	/* mt_map names its maps "m" */
	name[0] = 'm';
	expect_read(map, BPF_DW, kernel_offset("bpf_array", "map.name"), *(u64 *)name);
	nb_map_put(map);
}

NB_TEST(map_kstruct_hash_max_entries)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_HASH, 8, 8, 1000, 0);

	expect_read(map, BPF_W, kernel_offset("bpf_htab", "map.max_entries"), 1000);
	expect_read(map, BPF_W, kernel_offset("bpf_htab", "map.map_flags"), 0);
	nb_map_put(map);
}

/* map->ops is a pointer to struct bpf_map_ops: NULL in netbpf, and a read through it 0. */
NB_TEST(map_kstruct_pointer_member_reads_zero)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)) };
	struct bpf_insn p[] = {
		ld[0], ld[1],
		NB_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, kernel_offset("bpf_array", "map.ops")),
		NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_2, 0),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_0, 5),
		NB_EXIT(),
	};

	for (int e = 0; e < NR_ENGINES; e++) {
		struct nb_prog *prog = load(p, ARRAY_SIZE(p), e);

		NB_ASSERT_EQ(nb_prog_run(prog, NULL), 5);
		nb_prog_put(prog);
	}
	nb_map_put(map);
}

/*
 * A read through a map the program names reads a struct that never changes: the fixup loads
 * the value as a constant, leaving no load through the map pointer to run.
 */
NB_TEST(map_kstruct_named_map_read_is_constant)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_HASH, 8, 8, 1000, 0);
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)) };
	struct bpf_insn p[] = {
		ld[0], ld[1],
		NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, kernel_offset("bpf_htab", "map.max_entries")),
		NB_EXIT(),
	};
	struct nb_prog *prog = load(p, ARRAY_SIZE(p), INTERP);

	for (u32 i = 0; i < prog->len; i++)
		if (BPF_CLASS(prog->insns[i].code) == BPF_LDX)
			NB_FAIL("insn %u still loads through the map pointer", i);
	NB_ASSERT_EQ(nb_prog_run(prog, NULL), 1000);
	nb_prog_put(prog);
	nb_map_put(map);
}

/*
 * An inner map reached through array_of_maps, put in after a program reading through its
 * template was loaded, reads its own attributes (its id, not its template's), though the
 * program names the template too.
 */
NB_TEST(map_kstruct_inner_map)
{
	struct nb_map *tmpl = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 3, 0);
	struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "outer",
					   .inner_map = tmpl };
	struct nb_map *outer, *inner = mt_map(BPF_MAP_TYPE_ARRAY, 4, 8, 3, 0);
	const struct {
		s16 off;
		u32 inner, tmpl;
	} reads[] = {
		{ kernel_offset("bpf_array", "map.max_entries"), 3, 3 },
		{ kernel_offset("bpf_array", "map.id"), nb_map_id(inner), nb_map_id(tmpl) },
	};
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, 0) };
	struct bpf_insn ld_tmpl[] = { NB_LD_MAP_ID(BPF_REG_3, nb_map_id(tmpl)) };
	u32 key = 0, id = nb_map_id(inner);

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 1, &opts, &outer), 0);
	ld[0].imm = nb_map_id(outer);
	for (u32 r = 0; r < ARRAY_SIZE(reads); r++) {
		struct bpf_insn p[] = {
			NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
			ld[0], ld[1],
			NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
			NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
			NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
			NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 3),
			/* the template, read directly on the other path */
			ld_tmpl[0], ld_tmpl[1],
			NB_MOV64_REG(BPF_REG_0, BPF_REG_3),
			NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, reads[r].off),
			NB_EXIT(),
		};

		for (int e = 0; e < NR_ENGINES; e++) {
			struct nb_prog *prog = load(p, ARRAY_SIZE(p), e);

			NB_ASSERT_EQ(nb_map_update_elem(outer, &key, &id, 0), 0);
			NB_ASSERT_EQ(nb_prog_run(prog, NULL), reads[r].inner);
			NB_ASSERT_EQ(nb_map_delete_elem(outer, &key), 0);
			NB_ASSERT_EQ(nb_prog_run(prog, NULL), reads[r].tmpl);
			nb_prog_put(prog);
		}
	}
	nb_map_put(inner);
	nb_map_put(outer);
	nb_map_put(tmpl);
}

/*
 * An inner map already in a map of maps when the first program reading through its template
 * is loaded (maps shared with a program loaded later, or filled through the API first) reads
 * its own attributes too (its id), not 0: in a hash of maps, and in an array of maps at key 1
 * past an empty slot.
 */
NB_TEST(map_kstruct_inner_map_put_in_before_load)
{
	static const struct {
		enum bpf_map_type outer, inner;
		const char *kstruct;
	} kinds[] = {
		{ BPF_MAP_TYPE_HASH_OF_MAPS, BPF_MAP_TYPE_HASH, "bpf_htab" },
		{ BPF_MAP_TYPE_ARRAY_OF_MAPS, BPF_MAP_TYPE_ARRAY, "bpf_array" },
	};

	for (u32 k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct nb_map *tmpl = mt_map(kinds[k].inner, 4, 8, 4, 0);
		struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "outer",
						   .inner_map = tmpl };
		struct nb_map *outer, *inner = mt_map(kinds[k].inner, 4, 8, 4, 0);
		s16 off = kernel_offset(kinds[k].kstruct, "map.id");
		struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, 0) };
		u32 key = 1, id = nb_map_id(inner);

		NB_ASSERT_EQ(nb_map_create(kinds[k].outer, 4, 4, 2, &opts, &outer), 0);
		NB_ASSERT_EQ(nb_map_update_elem(outer, &key, &id, 0), 0);
		ld[0].imm = nb_map_id(outer);
		for (int e = 0; e < NR_ENGINES; e++) {
			struct bpf_insn p[] = {
				NB_ST_MEM(BPF_W, BPF_REG_10, -4, key),
				ld[0], ld[1],
				NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
				NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
				NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
				NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 1),
				NB_EXIT(),
				NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, off),
				NB_EXIT(),
			};
			struct nb_prog *prog = load(p, ARRAY_SIZE(p), e);
			u64 r0 = nb_prog_run(prog, NULL);

			if (r0 != id)
				NB_FAIL("%s, %s: the inner map reads id %llu, not %u",
					engine_names[e], kinds[k].kstruct,
					(unsigned long long)r0, id);
			nb_prog_put(prog);
		}
		nb_map_put(inner);
		nb_map_put(outer);
		nb_map_put(tmpl);
	}
}

/* What the kernel refuses, in its words; the struct's name is the kernel's for the type. */
NB_TEST(map_kstruct_refusals)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_HASH, 8, 8, 4, 0);
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)) };
	s16 ops = kernel_offset("bpf_htab", "map.ops");
	const struct {
		struct bpf_insn insn;
		const char *why;
	} bad[] = {
		{ NB_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, -8),
		  "R1 is bpf_htab invalid negative access: off=-8" },
		{ NB_STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, 0),
		  "only read from bpf_htab is supported" },
		{ NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, ops),
		  "cannot access ptr member ops with moff" },
		{ NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, 30000),
		  "access beyond struct bpf_htab at off 30000 size 4" },
	};

	kernel_btf();
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		struct bpf_insn p[] = { ld[0], ld[1], bad[i].insn, NB_MOV64_IMM(BPF_REG_0, 0),
					NB_EXIT() };
		struct nb_log log = { 0 };
		struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL",
						  .log = &log };
		struct nb_prog *prog = NULL;

		NB_ASSERT(nb_prog_load(BPF_PROG_TYPE_SYSCALL, p, ARRAY_SIZE(p), &opts, &prog));
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), bad[i].why);
		nb_log_free(&log);
	}
	nb_map_put(map);
}

/*
 * Without the verifier, what netbpf cannot rewrite into a read of the map's kernel struct is
 * refused, naming the instruction, rather than left to touch netbpf's own struct.
 */
NB_TEST(map_kstruct_unverified_refusals)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_HASH, 8, 8, 4, 0);
	struct bpf_insn ld[] = { NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)) };
	const struct {
		struct bpf_insn insn[2];
		const char *why;
	} bad[] = {
		{ { NB_STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, 0), NB_MOV64_IMM(BPF_REG_0, 0) },
		  "insn 2: only read from a map's kernel struct is supported" },
		{ { NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, 30000), NB_MOV64_IMM(BPF_REG_0, 0) },
		  "insn 2: read of 4 bytes at 30000 outside map m's kernel struct" },
		{ { NB_ALU64_IMM(BPF_ADD, BPF_REG_1, 8), NB_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, 0) },
		  "insn 3: a map pointer, or what one read, reaches this access on some paths "
		  "only, or moved" },
	};

	kernel_btf();
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		struct bpf_insn p[] = { ld[0], ld[1], bad[i].insn[0], bad[i].insn[1], NB_EXIT() };
		struct nb_log log = { 0 };
		struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL",
						  .log = &log,
						  .flags = NB_PROG_LOAD_UNSAFE_NO_VERIFY };
		struct nb_prog *prog = NULL;

		NB_ASSERT(nb_prog_load(BPF_PROG_TYPE_SYSCALL, p, ARRAY_SIZE(p), &opts, &prog));
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), bad[i].why);
		nb_log_free(&log);
	}
	nb_map_put(map);
}
