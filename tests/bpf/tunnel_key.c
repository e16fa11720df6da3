// SPDX-License-Identifier: GPL-2.0
/*
 * The tunnel metadata helpers driven by the frame: after an Ethernet header (ethertype 0x88b5)
 * comes what to set (bpf_skb_set_tunnel_key with a size and flags, bpf_skb_set_tunnel_opt) and
 * what to read back (bpf_skb_get_tunnel_key with a size and flags, bpf_skb_get_tunnel_opt);
 * the program writes the four return values and what it read into the frame. On a packet a
 * tunnel device decapsulated (tunnel_key_rx), only the reads are made and the results go to
 * the map "seen" as well. tests/kernel/test_tunnel_kernel.c compares it with the kernel.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>

#define CMD_OFF 14
#define OPT_MAX 64

struct tun_cmd {
	struct bpf_tunnel_key set;
	__u32 set_size;		/* a code: see key_size() (0xff: no call) */
	__u32 set_opt_len;	/* 0xff: no call */
	__u64 set_flags;
	__u8 set_opt[OPT_MAX];
	__u32 get_size;
	__u32 get_opt_size;	/* 0xff: no call */
	__u64 get_flags;
	/* out */
	__s32 rc_set, rc_set_opt, rc_get, rc_get_opt;
	struct bpf_tunnel_key got;
	__u8 got_opt[OPT_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tun_cmd);
} seen SEC(".maps");

#define KEY_CALL(fn, skb, key, code, flags, rc)                                             \
	do {                                                                                \
		switch (code) {                                                             \
		case 0: rc = fn(skb, key, sizeof(*(key)), flags); break;                    \
		case 1: rc = fn(skb, key, 28, flags); break;                                \
		case 2: rc = fn(skb, key, 24, flags); break;                                \
		case 3: rc = fn(skb, key, 22, flags); break;                                \
		case 4: rc = fn(skb, key, 8, flags); break;                                 \
		case 5: rc = fn(skb, key, 40, flags); break;                                \
		default: rc = 0x7777; break;                                                \
		}                                                                           \
	} while (0)

#define OPT_CALL(fn, skb, buf, code, rc)                                                    \
	do {                                                                                \
		switch (code) {                                                             \
		case 0: rc = fn(skb, buf, 4); break;                                        \
		case 1: rc = fn(skb, buf, 8); break;                                        \
		case 2: rc = fn(skb, buf, 12); break;                                       \
		case 3: rc = fn(skb, buf, 16); break;                                       \
		case 4: rc = fn(skb, buf, 6); break;                                        \
		case 5: rc = fn(skb, buf, OPT_MAX); break;                                  \
		default: rc = 0x7777; break;                                                \
		}                                                                           \
	} while (0)

static __always_inline void run(struct __sk_buff *skb, struct tun_cmd *cmd, bool set)
{
	long rc;

	if (set) {
		KEY_CALL(bpf_skb_set_tunnel_key, skb, &cmd->set, cmd->set_size, cmd->set_flags,
			 rc);
		cmd->rc_set = rc;
		OPT_CALL(bpf_skb_set_tunnel_opt, skb, cmd->set_opt, cmd->set_opt_len, rc);
		cmd->rc_set_opt = rc;
	}
	KEY_CALL(bpf_skb_get_tunnel_key, skb, &cmd->got, cmd->get_size, cmd->get_flags, rc);
	cmd->rc_get = rc;
	OPT_CALL(bpf_skb_get_tunnel_opt, skb, cmd->got_opt, cmd->get_opt_size, rc);
	cmd->rc_get_opt = rc;
}

SEC("tc")
int tunnel_key_tc(struct __sk_buff *skb)
{
	struct tun_cmd cmd;

	if (bpf_skb_load_bytes(skb, CMD_OFF, &cmd, sizeof(cmd)))
		return TC_ACT_SHOT;
	run(skb, &cmd, true);
	bpf_skb_store_bytes(skb, CMD_OFF, &cmd, sizeof(cmd), 0);
	return TC_ACT_OK;
}

/*
 * On a tunnel device's ingress: what the decapsulation left, every field, into "seen"; the
 * next filter (a capture, say) still sees the packet (TC_ACT_UNSPEC).
 */
SEC("tc")
int tunnel_key_rx(struct __sk_buff *skb)
{
	__u32 zero = 0;
	struct tun_cmd *cmd = bpf_map_lookup_elem(&seen, &zero);

	if (!cmd)
		return TC_ACT_SHOT;
	run(skb, cmd, false);
	return TC_ACT_UNSPEC;
}

char _license[] SEC("license") = "GPL";
