/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier corpus: hand-written programs with the verdict the running kernel gives them
 * (loaded as root) and, for rejects, a piece of the kernel's reason. test_verifier_kernel.c
 * checks every case against the kernel and compares netbpf's verifier with it.
 *
 * Maps are named by a small fixed catalogue (enum vc_map); a case lists the maps it uses and
 * refers to the i-th of them with ldimm64 BPF_PSEUDO_MAP_IDX i (the kernel's fd_array, netbpf's
 * opts->maps).
 */
#ifndef NB_TEST_VERIFIER_CASES_H
#define NB_TEST_VERIFIER_CASES_H

#include <stdbool.h>
#include <linux/bpf.h>

enum vc_map {
	VM_NONE = 0,
	VM_HASH_8_16,		/* hash, key 8, value 16 */
	VM_ARRAY_4_48,		/* array, key 4, value 48, 4 entries */
	VM_GLOBAL,		/* array, key 4, value 48, 1 entry (global data) */
	VM_ARRAY_RDONLY,	/* array, key 4, value 8, BPF_F_RDONLY_PROG */
	VM_PERCPU_ARRAY,	/* percpu array, key 4, value 8 */
	VM_LRU_HASH,		/* lru hash, key 8, value 8 */
	VM_RINGBUF,		/* ringbuf, 4096 bytes */
	VM_PROG_ARRAY,		/* prog array, 4 slots */
	VM_ARRAY_OF_MAPS,	/* array of maps, inner template VM_INNER */
	VM_INNER,		/* array, key 4, value 8 */
	VM_DEVMAP,		/* devmap, key 4, value 4 */
	VM_DEVMAP_HASH,		/* devmap hash, key 4, value 4 */
	VM_CPUMAP,		/* cpumap, key 4, value 4 */
	VM_XSKMAP,		/* xskmap, key 4, value 4 */
	VM_QUEUE,		/* queue, value 8 */
	VM_SOCKMAP,		/* sockmap, key 4, value 8 (socket cookies) */
	VM__COUNT,
};

struct vc_map_def {
	const char *name;
	enum bpf_map_type type;
	unsigned int key_size, value_size, max_entries, map_flags;
	/* The inner map template for map-in-map types (VM_NONE otherwise). */
	enum vc_map inner;
};

extern const struct vc_map_def vc_map_defs[VM__COUNT];

#define VC_MAX_MAPS 4

struct vcase {
	const char *name;	/* for clang-compiled cases: the program's function name */
	const char *obj;	/* clang-compiled cases: the object under tests/bpf of the build */
	enum bpf_prog_type type; /* clang-compiled cases: given by the program's section */
	const struct bpf_insn *insns;
	unsigned int insn_cnt;
	enum vc_map maps[VC_MAX_MAPS]; /* BPF_PSEUDO_MAP_IDX i names maps[i]; VM_NONE ends */
	bool accept;		/* the kernel's verdict as root */
	const char *reason;	/* rejects: a substring of the kernel's log */
	/*
	 * A kernel accept netbpf refuses on purpose (a kernel feature netbpf does not have):
	 * why, and a substring of netbpf's log. Any other disagreement fails the case.
	 */
	const char *netbpf_differs;
	enum bpf_attach_type attach; /* expected_attach_type (XDP devmap programs) */
};

extern const struct vcase vcases[];
extern const unsigned int vcase_cnt;

#endif /* NB_TEST_VERIFIER_CASES_H */
