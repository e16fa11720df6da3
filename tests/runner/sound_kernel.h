/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's verifier on the soundness fuzzer's programs (tests/runner/sound_gen.h):
 * the same instructions loaded with libbpf, with kernel maps of the harness's table
 * (sound_run.h) behind BPF_PSEUDO_MAP_IDX (fd_array) and BTF func_info for programs with
 * subprograms, which the kernel asks for. A program the kernel refuses and netbpf accepts is
 * a finding of the fuzzer too.
 */
#ifndef NB_TEST_SOUND_KERNEL_H
#define NB_TEST_SOUND_KERNEL_H

#include <stddef.h>
#include <linux/bpf.h>

#include "sound_gen.h"

/* 0 when the kernel takes BPF programs from this process; else why not in why. */
int sk_setup(char *why, size_t size);

/*
 * Load p (cnt instructions in insns) into the kernel's verifier. 0 when accepted, else the
 * negative errno with the kernel's reason (its log's last message line) in reason.
 */
int sk_load(enum bpf_prog_type type, const struct bpf_insn *insns, const struct sg_prog *p,
	    char *reason, size_t size);

/* The whole log of the last load. */
const char *sk_log(void);

void sk_cleanup(void);

#endif /* NB_TEST_SOUND_KERNEL_H */
