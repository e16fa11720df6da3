// SPDX-License-Identifier: GPL-2.0
/*
 * The generic helpers driven by the frame, for tests/kernel/test_helpers_kernel.c: after an
 * Ethernet header comes a struct helper_cmd naming one operation and its arguments; the
 * program runs it (the current task's ids, the string helpers, the printf family, the
 * checksum level, a per-CPU lookup on another CPU) and writes the return values and what the
 * helpers wrote back into the frame, which the test compares with the kernel's. The same body
 * runs as a tc and as an XDP program.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define CMD_OFF 14

enum op {
	OP_TASK = 1,		/* pid_tgid, uid_gid, comm, cgroup ids, ns pid/tgid */
	OP_STRTOL,
	OP_STRTOUL,
	OP_STRNCMP,
	OP_SNPRINTF,
	OP_TRACE,		/* trace_vprintk and trace_printk of buf: their return values */
	OP_CSUM_LEVEL,		/* a sequence of bpf_csum_level calls (tc) */
	OP_PERCPU,		/* bpf_map_lookup_percpu_elem */
	OP_NO_SOCKET,		/* the socket helpers (tc), CLOCK_TAI: not held to the kernel's
				 * test run, which gives its packets a socket */
	OP_XFRM,		/* bpf_skb_get_xfrm_state (tc) */
	OP_CGROUP,		/* bpf_current_task_under_cgroup, bpf_skb_under_cgroup (tc) on
				 * slot arg1 of an empty cgroup array */
};

struct helper_cmd {
	__u32 op;
	__u32 size_code;	/* picks one of the constant sizes of the operation */
	__u64 flags;		/* strtox flags; the ancestor level; csum_level ops, 4 bits each */
	__u64 arg1, arg2;	/* ns dev and ino; per-CPU key and cpu */
	__u8 buf[64];		/* the text strtol, strncmp and %s read */
	__u64 args[12];		/* the printf arguments */
	__u32 str_idx;		/* which constant string: strncmp's second, the printf format */
	__u32 ptr_mask;		/* printf arguments replaced by buf's address (bit per argument) */
	/* out */
	__s64 rc[8];
	__u64 val[8];
	__u8 out[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct helper_cmd);
} scratch SEC(".maps");

/* Filled from user space, one value per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} pcpu_hash SEC(".maps");

/* Left empty on both sides: netbpf's cgroup arrays take no cgroup. */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} cgroups SEC(".maps");

/*
 * The constant strings (.rodata, read-only and frozen), 64 bytes each: strncmp's second
 * argument and bpf_snprintf's formats, which the verifier checks at load time, so they are
 * all valid (the trace helpers take theirs from buf, where any text may be).
 */
#define NR_STRS 10
const char strs[NR_STRS][64] = {
	"hello",
	"",
	"hello world",
	"%d %u %x %X %ld %lld %lu %llx|%5d|%-5d|%05d|%+d",
	"[%s] [%5s] [%-3s] %c%c %%",
	"%pI4 %pi4 %pI6 %pi6",
	"%pks|%pus",
	"no arguments",
	"%s%s%s%s%s%s%s%s%s%s%s%s",
	"%s",
};

static __always_inline const char *const_str(__u32 idx)
{
	switch (idx) {
	case 0: return strs[0];
	case 1: return strs[1];
	case 2: return strs[2];
	case 3: return strs[3];
	case 4: return strs[4];
	case 5: return strs[5];
	case 6: return strs[6];
	case 7: return strs[7];
	case 8: return strs[8];
	default: return strs[9];
	}
}

static __always_inline void op_task(struct helper_cmd *c)
{
	struct bpf_pidns_info ns;

	c->val[0] = bpf_get_current_pid_tgid();
	c->val[1] = bpf_get_current_uid_gid();
	c->val[2] = bpf_get_current_cgroup_id();
	c->val[3] = bpf_get_current_ancestor_cgroup_id((int)c->flags);
	switch (c->size_code) {
	case 0:
		c->rc[0] = bpf_get_current_comm(c->out, 16);
		break;
	case 1:
		c->rc[0] = bpf_get_current_comm(c->out, 4);
		break;
	default:
		c->rc[0] = bpf_get_current_comm(c->out, 64);
		break;
	}
	__builtin_memset(&ns, 0xaa, sizeof(ns));
	c->rc[1] = bpf_get_ns_current_pid_tgid(c->arg1, c->arg2, &ns, sizeof(ns));
	c->val[4] = (__u64)ns.tgid << 32 | ns.pid;
}

static __always_inline void op_strtox(struct helper_cmd *c, int sign)
{
	long res = 0x5a5a;

	switch (c->size_code) {
	case 0:
		c->rc[0] = sign ? bpf_strtol((char *)c->buf, 1, c->flags, &res)
				: bpf_strtoul((char *)c->buf, 1, c->flags, (unsigned long *)&res);
		break;
	case 1:
		c->rc[0] = sign ? bpf_strtol((char *)c->buf, 8, c->flags, &res)
				: bpf_strtoul((char *)c->buf, 8, c->flags, (unsigned long *)&res);
		break;
	case 2:
		c->rc[0] = sign ? bpf_strtol((char *)c->buf, 24, c->flags, &res)
				: bpf_strtoul((char *)c->buf, 24, c->flags, (unsigned long *)&res);
		break;
	default:
		c->rc[0] = sign ? bpf_strtol((char *)c->buf, 64, c->flags, &res)
				: bpf_strtoul((char *)c->buf, 64, c->flags, (unsigned long *)&res);
		break;
	}
	c->val[0] = res;
}

static __always_inline void op_strncmp(struct helper_cmd *c)
{
	const char *s2 = const_str(c->str_idx);

	switch (c->size_code) {
	case 0:
		c->rc[0] = bpf_strncmp((char *)c->buf, 1, s2);
		break;
	case 1:
		c->rc[0] = bpf_strncmp((char *)c->buf, 5, s2);
		break;
	case 2:
		c->rc[0] = bpf_strncmp((char *)c->buf, 6, s2);
		break;
	default:
		c->rc[0] = bpf_strncmp((char *)c->buf, 64, s2);
		break;
	}
}

static __always_inline void set_ptrs(struct helper_cmd *c)
{
	for (int i = 0; i < 12; i++)
		if (c->ptr_mask & (1u << i))
			c->args[i] = (__u64)(long)c->buf;
}

/* Twelve arguments for every format but "no arguments", which gets none. */
static __always_inline void op_snprintf(struct helper_cmd *c)
{
	const char *fmt = const_str(c->str_idx);

	set_ptrs(c);
	if (c->str_idx == 7) {
		c->rc[0] = bpf_snprintf((char *)c->out, 64, strs[7], 0, 0);
		return;
	}
	switch (c->size_code) {
	case 0:
		c->rc[0] = bpf_snprintf(0, 0, fmt, c->args, 96);
		break;
	case 1:
		c->rc[0] = bpf_snprintf((char *)c->out, 1, fmt, c->args, 96);
		break;
	case 2:
		c->rc[0] = bpf_snprintf((char *)c->out, 8, fmt, c->args, 96);
		break;
	default:
		c->rc[0] = bpf_snprintf((char *)c->out, 64, fmt, c->args, 96);
		break;
	}
}

/* The format is buf's text, checked only when the helper runs: any text, valid or not. */
static __always_inline void op_trace(struct helper_cmd *c)
{
	set_ptrs(c);
	switch (c->size_code) {
	case 0:
		c->rc[0] = bpf_trace_vprintk((char *)c->buf, 64, c->args, 0);
		break;
	case 1:
		c->rc[0] = bpf_trace_vprintk((char *)c->buf, 64, c->args, 24);
		break;
	case 2:
		c->rc[0] = bpf_trace_vprintk((char *)c->buf, 64, c->args, 20);
		break;
	default:
		c->rc[0] = bpf_trace_vprintk((char *)c->buf, 64, c->args, 96);
		break;
	}
	c->rc[1] = bpf_trace_printk((char *)c->buf, 64, c->args[0], c->args[1], c->args[2]);
}

static __always_inline void op_percpu(struct helper_cmd *c)
{
	__u32 key = (__u32)c->arg1, cpu = (__u32)c->arg2;
	__u64 *v;

	v = bpf_map_lookup_percpu_elem(&pcpu_array, &key, cpu);
	c->rc[0] = v != 0;
	c->val[0] = v ? *v : 0;
	v = bpf_map_lookup_percpu_elem(&pcpu_hash, &key, cpu);
	c->rc[1] = v != 0;
	c->val[1] = v ? *v : 0;
}

static __always_inline int run(struct helper_cmd *c)
{
	switch (c->op) {
	case OP_TASK:
		op_task(c);
		break;
	case OP_STRTOL:
		op_strtox(c, 1);
		break;
	case OP_STRTOUL:
		op_strtox(c, 0);
		break;
	case OP_STRNCMP:
		op_strncmp(c);
		break;
	case OP_SNPRINTF:
		op_snprintf(c);
		break;
	case OP_TRACE:
		op_trace(c);
		break;
	case OP_PERCPU:
		op_percpu(c);
		break;
	case OP_CGROUP:
		c->rc[0] = bpf_current_task_under_cgroup(&cgroups, (__u32)c->arg1);
		break;
	default:
		return 0;
	}
	return 1;
}

SEC("tc")
int helpers_tc(struct __sk_buff *skb)
{
	__u32 zero = 0;
	struct helper_cmd *c = bpf_map_lookup_elem(&scratch, &zero);

	if (!c || bpf_skb_load_bytes(skb, CMD_OFF, c, sizeof(*c)))
		return TC_ACT_SHOT;
	if (c->op == OP_NO_SOCKET) {
		c->val[0] = bpf_get_socket_cookie(skb);
		c->val[1] = bpf_get_socket_uid(skb);
		c->val[2] = bpf_skb_cgroup_id(skb);
		c->val[3] = bpf_skb_ancestor_cgroup_id(skb, 0);
		c->val[4] = bpf_skb_cgroup_classid(skb);
		c->val[5] = bpf_get_netns_cookie(skb);
		c->val[6] = bpf_get_netns_cookie(0);
		c->val[7] = bpf_ktime_get_tai_ns();
	} else if (c->op == OP_XFRM) {
		__builtin_memset(c->out, 0x77, sizeof(c->out));
		if (c->size_code)
			c->rc[0] = bpf_skb_get_xfrm_state(skb, (__u32)c->arg1,
							  (struct bpf_xfrm_state *)c->out,
							  sizeof(struct bpf_xfrm_state), c->flags);
		else
			c->rc[0] = bpf_skb_get_xfrm_state(skb, (__u32)c->arg1,
							  (struct bpf_xfrm_state *)c->out, 8,
							  c->flags);
	} else if (c->op == OP_CGROUP) {
		c->rc[0] = bpf_current_task_under_cgroup(&cgroups, (__u32)c->arg1);
		c->rc[1] = bpf_skb_under_cgroup(skb, &cgroups, (__u32)c->arg1);
	} else if (c->op == OP_CSUM_LEVEL) {
		/* up to eight calls, each level in 4 bits of flags (0xf ends) */
		for (int i = 0; i < 8; i++) {
			__u64 level = (c->flags >> (4 * i)) & 0xf;

			if (level == 0xf)
				break;
			c->rc[i] = bpf_csum_level(skb, level);
		}
		c->val[0] = bpf_csum_update(skb, 0x1234);
	} else if (!run(c)) {
		return TC_ACT_SHOT;
	}
	bpf_skb_store_bytes(skb, CMD_OFF, c, sizeof(*c), 0);
	return TC_ACT_OK;
}

SEC("xdp")
int helpers_xdp(struct xdp_md *ctx)
{
	__u32 zero = 0;
	struct helper_cmd *c = bpf_map_lookup_elem(&scratch, &zero);

	if (!c || bpf_xdp_load_bytes(ctx, CMD_OFF, c, sizeof(*c)))
		return XDP_ABORTED;
	if (!run(c))
		return XDP_DROP;
	bpf_xdp_store_bytes(ctx, CMD_OFF, c, sizeof(*c));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
