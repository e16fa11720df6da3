// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's entry point. Until the abstract interpreter lands, no program can be proven
 * safe: every load that asks for a proof is refused with a clear reason, and only checked or
 * explicitly unverified loads run.
 */
#include <errno.h>

#include "bpf/prog.h"

int nb_verify(struct nb_prog *prog, struct nb_log *log)
{
	nb_log_printf(log, "the verifier is not built yet: load with checked runs or "
		      "--unsafe-no-verify\n");
	return -EOPNOTSUPP;
}
