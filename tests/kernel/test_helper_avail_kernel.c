// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers Linux offers each program type (src/bpf/helper_avail.c, src/net/kernel_helpers.c)
 * against the running kernel: for tc classifiers and actions, XDP and socket filters, every
 * helper id is called by a program loaded as root, and the kernel's verdict on the call
 * ("program of this type cannot use helper", "invalid func" for an id it does not know, or
 * anything past the call's check) must be netbpf's nb_kernel_offers_helper.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "bpf/helper_avail.h"
#include "bpf/prog_type.h"
#include "kcase.h"

static const enum bpf_prog_type types[] = {
	BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_ACT, BPF_PROG_TYPE_XDP,
	BPF_PROG_TYPE_SOCKET_FILTER,
};

/* Whether the kernel lets a program of type call helper id at all. */
static bool kernel_offers(enum bpf_prog_type type, s32 id)
{
	static char log[1 << 16];
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(1, 0), NB_MOV64_IMM(2, 0), NB_MOV64_IMM(3, 0), NB_MOV64_IMM(4, 0),
		NB_MOV64_IMM(5, 0), NB_CALL_HELPER(id), NB_MOV64_IMM(0, 0), NB_EXIT(),
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	int fd;

	log[0] = '\0';
	fd = bpf_prog_load(type, "avail", "GPL", insns, ARRAY_SIZE(insns), &opts);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return !strstr(log, "cannot use helper") && !strstr(log, "invalid func") &&
	       !strstr(log, "unknown func");
}

NB_TEST(helper_avail_kernel)
{
	unsigned int offered = 0, checked = 0;

	need_kernel_prog(BPF_PROG_TYPE_SCHED_CLS);
	for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
		const struct nb_prog_type_ops *ops = nb_prog_type_ops(types[t]);

		NB_ASSERT(ops);
		for (s32 id = 1; id < NB_KERNEL_FUNC_MAX_ID + 16; id++) {
			bool k = kernel_offers(types[t], id), n = nb_kernel_offers_helper(ops, id);

			if (k != n)
				NB_FAIL("%s, helper %s#%d: the kernel %s it, netbpf's list %s",
					ops->name, nb_helper_name(id) ?: "(newer than the headers)",
					id,
					k ? "offers" : "refuses", n ? "has it" : "has it not");
			offered += k;
			checked++;
		}
	}
	nb_test_report("helpers Linux offers: %u of %u (type, id) pairs, netbpf's lists agree",
		       offered, checked);
}
