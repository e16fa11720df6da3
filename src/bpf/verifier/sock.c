// SPDX-License-Identifier: GPL-2.0
/*
 * Socket pointers in the verifier: which fields of struct bpf_sock, its sock_common part and
 * struct bpf_tcp_sock a program may read (the kernel's bpf_sock_is_valid_access,
 * bpf_sock_common_is_valid_access and bpf_tcp_sock_is_valid_access, behind check_sock_access),
 * which socket views each helper argument takes (the kernel's sock_types and
 * btf_id_sock_common_types), and which helpers acquire a socket reference or return another
 * view of the socket they were given (is_acquire_function, is_ptr_cast_function).
 *
 * netbpf has no sockets: bpf_sk_lookup_*() find none, skb->sk is NULL, sockmaps stay empty, so
 * no socket pointer is ever non-NULL when a program runs and the loads through them are never
 * executed. The verifier still checks them as the kernel does, so that a program the kernel
 * loads loads here, and one it refuses (a leaked reference, a use after release, a write to a
 * socket) is refused here with the kernel's reason.
 */
#include <stddef.h>

#include "bpf/helpers.h"
#include "bpf/verifier/verifier.h"

bool type_is_sk_pointer(u32 type)
{
	return type == PTR_TO_SOCKET || type == PTR_TO_SOCK_COMMON || type == PTR_TO_TCP_SOCK;
}

/* bpf_ctx_narrow_access_ok: a power-of-two read no wider than the field. */
static bool narrow_access_ok(int size, int field_size)
{
	return size <= field_size && (size & (size - 1)) == 0;
}

#define SK_OFF(f)	offsetof(struct bpf_sock, f)
#define SK_SIZE(f)	sizeof(((struct bpf_sock *)0)->f)
#define SK_END(f)	(SK_OFF(f) + SK_SIZE(f))
#define SK_RANGE(f)	SK_OFF(f) ... SK_END(f) - 1

static bool bpf_sock_is_valid_access(int off, int size)
{
	if (off < 0 || off >= (int)sizeof(struct bpf_sock) || off % size)
		return false;
	switch (off) {
	case SK_OFF(state):
	case SK_OFF(family):
	case SK_OFF(type):
	case SK_OFF(protocol):
	case SK_OFF(src_port):
	case SK_OFF(rx_queue_mapping):
	case SK_RANGE(src_ip4):
	case SK_OFF(src_ip6[0]) ... SK_END(src_ip6[3]) - 1:
	case SK_RANGE(dst_ip4):
	case SK_OFF(dst_ip6[0]) ... SK_END(dst_ip6[3]) - 1:
		return narrow_access_ok(size, sizeof(__u32));
	case SK_RANGE(dst_port):
		/* A 4-byte read takes the port and the padding after it. */
		return narrow_access_ok(size, size == sizeof(__u32) ? sizeof(__u32) :
					SK_SIZE(dst_port));
	case SK_END(dst_port) ... SK_OFF(dst_ip4) - 1:
		return false;
	default:
		return size == sizeof(__u32);
	}
}

/* A request or timewait socket has only the common part: no type, protocol, mark, priority. */
static bool bpf_sock_common_is_valid_access(int off, int size)
{
	if (off >= (int)SK_OFF(type) && off < (int)SK_END(priority))
		return false;
	return bpf_sock_is_valid_access(off, size);
}

static bool bpf_tcp_sock_is_valid_access(int off, int size)
{
	int end = offsetof(struct bpf_tcp_sock, icsk_retransmits) +
		  sizeof(((struct bpf_tcp_sock *)0)->icsk_retransmits);

	if (off < 0 || off >= end || off % size)
		return false;
	switch (off) {
	case offsetof(struct bpf_tcp_sock, bytes_received):
	case offsetof(struct bpf_tcp_sock, bytes_acked):
		return size == sizeof(__u64);
	default:
		return size == sizeof(__u32);
	}
}

int check_sock_access(struct nb_verifier_env *env, u32 regno, int off, int size,
		      enum nb_access_type t)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	bool valid;

	if (t == NB_WRITE) {
		verbose(env, "R%u cannot write into %s\n", regno, reg_type_str(reg->type));
		return -EACCES;
	}
	switch (reg->type) {
	case PTR_TO_SOCK_COMMON:
		valid = bpf_sock_common_is_valid_access(off, size);
		break;
	case PTR_TO_SOCKET:
		valid = bpf_sock_is_valid_access(off, size);
		break;
	case PTR_TO_TCP_SOCK:
		valid = bpf_tcp_sock_is_valid_access(off, size);
		break;
	default:
		valid = false;
		break;
	}
	if (valid)
		return 0;
	verbose(env, "R%u invalid %s access off=%d size=%d\n", regno, reg_type_str(reg->type),
		off, size);
	return -EACCES;
}

/*
 * The socket views an argument takes: any socket for NB_ARG_PTR_TO_SOCK_COMMON (sock_types),
 * the same for the BTF-typed helpers, whose list the kernel also fills with its BTF pointers
 * (btf_id_sock_common_types, named in the message as the kernel names them). A NULL pointer
 * or one that may be NULL is none of them.
 */
int check_sock_arg(struct nb_verifier_env *env, u32 regno, enum nb_arg_type type)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];

	if (type_is_sk_pointer(reg->type))
		return check_ptr_off_reg(env, reg, regno);
	/* A kernel socket struct (bpf_skc_to_*), but not one walked from an untrusted pointer. */
	if (type == NB_ARG_PTR_TO_BTF_ID_SOCK_COMMON &&
	    (reg->type == PTR_TO_BTF_ID || reg->type == (PTR_TO_BTF_ID | PTR_TRUSTED)))
		return check_btf_sock_arg(env, regno);
	if (type == NB_ARG_PTR_TO_SOCK_COMMON)
		verbose(env, "R%u type=%s expected=sock_common, sock, tcp_sock, xdp_sock\n", regno,
			reg_type_str(reg->type));
	else
		verbose(env, "R%u type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, "
			"trusted_ptr_\n", regno, reg_type_str(reg->type));
	return -EACCES;
}

bool is_acquire_function(int func_id, const struct nb_map *map)
{
	u32 map_type = map ? map->map_type : BPF_MAP_TYPE_UNSPEC;

	if (func_id == BPF_FUNC_sk_lookup_tcp || func_id == BPF_FUNC_sk_lookup_udp ||
	    func_id == BPF_FUNC_skc_lookup_tcp || func_id == BPF_FUNC_ringbuf_reserve)
		return true;
	/* A socket found in a socket map is held until bpf_sk_release. */
	return func_id == BPF_FUNC_map_lookup_elem &&
	       (map_type == BPF_MAP_TYPE_SOCKMAP || map_type == BPF_MAP_TYPE_SOCKHASH);
}

/* Another view of the socket passed in: it holds the reference of that socket, if any. */
bool is_ptr_cast_function(int func_id)
{
	return func_id == BPF_FUNC_tcp_sock || func_id == BPF_FUNC_sk_fullsock ||
	       nb_is_skc_to_func(func_id);
}
