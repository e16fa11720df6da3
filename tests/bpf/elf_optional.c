// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf's optional sections: SEC("?tc") is section "tc" for every purpose, but its programs
 * load only when chosen, as the selftests use it for programs meant to be refused.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int always(struct __sk_buff *skb)
{
	return 1;
}

SEC("?tc")
int when_chosen(struct __sk_buff *skb)
{
	return 2;
}

char LICENSE[] SEC("license") = "GPL";
