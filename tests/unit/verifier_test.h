/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the verifier tests: a table case is an instruction sequence, a program type and the
 * expected verdict (NULL: accepted; else a substring of the rejection log). Maps are named by
 * index into a fixed set created per case (VT_LD_MAP), through BPF_PSEUDO_MAP_IDX.
 */
#ifndef NB_TEST_VERIFIER_TEST_H
#define NB_TEST_VERIFIER_TEST_H

#include <netbpf/map.h>
#include <netbpf/prog.h>

#include "test.h"
#include "bpf_asm.h"

enum {
	VT_MAP_HASH_8_16,	/* hash, key 8, value 16 */
	VT_MAP_ARRAY_4_48,	/* array, key 4, value 48, 4 entries */
	VT_MAP_RINGBUF,		/* ringbuf, 4096 bytes */
	VT_MAP_ARRAY_RDONLY,	/* array 4/8, BPF_F_RDONLY_PROG */
	VT_MAP_ARRAY_WRONLY,	/* array 4/8, BPF_F_WRONLY_PROG */
	VT_MAP_PERF,		/* perf_event_array */
	VT_MAP_CNT
};

#define VT_LD_MAP(d, idx) NB_LD_IMM64_RAW(d, BPF_PSEUDO_MAP_IDX, idx)
#define VT_MAX_INSNS 96

struct vt_case {
	const char *name;
	enum bpf_prog_type type;	/* 0: BPF_PROG_TYPE_SYSCALL (test type) */
	const char *err;		/* NULL: must be accepted */
	struct bpf_insn insns[VT_MAX_INSNS];
};

/* Create the case maps; returns how many were created (all or fail). */
void vt_maps_create(struct nb_map **maps);
void vt_maps_put(struct nb_map **maps);
/* Load (verify) insns as type: 0 or the error, the log in *log (caller frees). */
int vt_load(enum bpf_prog_type type, const struct bpf_insn *insns, unsigned int cnt,
	    struct nb_map **maps, struct nb_log *log, struct nb_prog **progp);
unsigned int vt_insn_cnt(const struct bpf_insn *insns, unsigned int max);
/* Run one table case: accept or reject with its reason. */
void vt_run_case(const void *arg);
void vt_register_cases(const char *prefix, const struct vt_case *cases, unsigned int cnt);

#endif /* NB_TEST_VERIFIER_TEST_H */
