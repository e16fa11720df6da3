// SPDX-License-Identifier: GPL-2.0
/*
 * An object of a tracing tool: an XDP program beside a kprobe, which netbpf does not run. The
 * refusal names what the kprobe is; the XDP program loads alone.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/do_nothing")
int on_nothing(void *regs)
{
	return 0;
}

SEC("xdp")
int pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
