// SPDX-License-Identifier: GPL-2.0
/*
 * Into a collect-metadata tunnel: the key (and options) the map encap_cfg holds go on every
 * packet (bpf_skb_set_tunnel_key, bpf_skb_set_tunnel_opt), which is then redirected to the
 * tunnel device the map names. tests/kernel/test_tunnel_kernel.c and tests/unit/test_tunnel.c
 * fill the map and compare what leaves the tunnel's underlay device.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct encap_cfg {
	__u32 ifindex;		/* the tunnel device */
	__u32 opt_len;		/* 0, 4, 8, 12, 16 or 32 */
	__u64 key_flags;	/* bpf_skb_set_tunnel_key's flags */
	struct bpf_tunnel_key key;
	__u8 opt[32];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct encap_cfg);
} encap_cfg SEC(".maps");

SEC("tc")
int tunnel_encap(struct __sk_buff *skb)
{
	__u32 zero = 0;
	struct encap_cfg *cfg = bpf_map_lookup_elem(&encap_cfg, &zero);

	if (!cfg || !cfg->ifindex)
		return TC_ACT_OK;
	if (bpf_skb_set_tunnel_key(skb, &cfg->key, sizeof(cfg->key), cfg->key_flags))
		return TC_ACT_SHOT;
	switch (cfg->opt_len) {
	case 4:
		bpf_skb_set_tunnel_opt(skb, cfg->opt, 4);
		break;
	case 8:
		bpf_skb_set_tunnel_opt(skb, cfg->opt, 8);
		break;
	case 12:
		bpf_skb_set_tunnel_opt(skb, cfg->opt, 12);
		break;
	case 16:
		bpf_skb_set_tunnel_opt(skb, cfg->opt, 16);
		break;
	case 32:
		bpf_skb_set_tunnel_opt(skb, cfg->opt, 32);
		break;
	}
	return bpf_redirect(cfg->ifindex, 0);
}

char _license[] SEC("license") = "GPL";
