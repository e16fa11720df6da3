// SPDX-License-Identifier: GPL-2.0
/*
 * The program tag, bpf_prog_calc_tag's twin: the first 8 bytes of the SHA-256 of the
 * instructions as loaded, with the immediates of map loads zeroed so that the tag does not
 * depend on map fds (Linux 6.18; earlier kernels used SHA-1 with their own padding). netbpf's
 * loader may reference maps by index where libbpf gives fds: those loads are hashed as the fd
 * loads the kernel sees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include <netbpf/prog.h>

#include "bpf/sha256.h"

#ifndef BPF_PSEUDO_MAP_IDX
#define BPF_PSEUDO_MAP_IDX 5
#endif
#ifndef BPF_PSEUDO_MAP_IDX_VALUE
#define BPF_PSEUDO_MAP_IDX_VALUE 6
#endif

int nb_prog_tag(const struct nb_prog *prog, __u8 tag[BPF_TAG_SIZE])
{
	unsigned int cnt;
	const struct bpf_insn *insns = nb_prog_insns(prog, &cnt);
	struct bpf_insn *copy = malloc((cnt ? cnt : 1) * sizeof(*copy));
	u8 digest[NB_SHA256_SIZE];

	if (!copy)
		return -ENOMEM;
	memcpy(copy, insns, cnt * sizeof(*copy));
	for (unsigned int i = 0; i + 1 < cnt; i++) {
		struct bpf_insn *in = &copy[i];

		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_IDX)
			in->src_reg = BPF_PSEUDO_MAP_FD;
		else if (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
			in->src_reg = BPF_PSEUDO_MAP_VALUE;
		if (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE) {
			in->imm = 0;
			copy[i + 1].imm = 0;
		}
		i++;	/* the second half is never a first half */
	}
	nb_sha256(copy, cnt * sizeof(*copy), digest);
	memcpy(tag, digest, BPF_TAG_SIZE);
	free(copy);
	return 0;
}
