// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier cases of the generic helpers, each a case of tests/kernel/verifier_cases.c with the
 * kernel's verdict: bpf_snprintf's format is checked at load time, bpf_strtol writes its
 * result only where the program may write, bpf_strncmp's second string is a constant.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

const char fmt_two[] = "%d and %d";
const char word[] = "tcp";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[32]);
} text SEC(".maps");

/* Two arguments for two conversions. */
SEC("tc")
int ok_tc_snprintf(struct __sk_buff *skb)
{
	__u64 args[2] = { skb->len, skb->mark };
	__u32 zero = 0;
	char *out = bpf_map_lookup_elem(&text, &zero);

	if (!out)
		return TC_ACT_OK;
	return bpf_snprintf(out, 32, fmt_two, args, sizeof(args)) > 0 ? TC_ACT_OK : TC_ACT_SHOT;
}

/* One argument for two conversions: the format is refused at load time. */
SEC("tc")
int bad_tc_snprintf_format(struct __sk_buff *skb)
{
	__u64 args[1] = { skb->len };
	__u32 zero = 0;
	char *out = bpf_map_lookup_elem(&text, &zero);

	if (!out)
		return TC_ACT_OK;
	return bpf_snprintf(out, 32, fmt_two, args, sizeof(args)) > 0 ? TC_ACT_OK : TC_ACT_SHOT;
}

/* The number in the map's text, compared with a constant word first. */
SEC("xdp")
int ok_xdp_strtol_strncmp(struct xdp_md *ctx)
{
	__u32 zero = 0;
	char *t = bpf_map_lookup_elem(&text, &zero);
	long n;

	if (!t || !bpf_strncmp(t, 3, word))
		return XDP_PASS;
	if (bpf_strtol(t, 32, 0, &n) < 0)
		return XDP_ABORTED;
	return n > 0 ? XDP_PASS : XDP_DROP;
}

/* The result would go into .rodata, which programs may not write. */
SEC("tc")
int bad_tc_strtol_rodata(struct __sk_buff *skb)
{
	char buf[4] = { '4', '2', 0, 0 };

	return bpf_strtol(buf, sizeof(buf), 0, (long *)word);
}

char _license[] SEC("license") = "GPL";
