// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers that ask about a packet's socket, answered as the kernel answers for a packet
 * without one (skb->sk NULL: a forwarded packet, or anything netbpf moves, since netbpf has no
 * sockets): bpf_get_socket_cookie 0, bpf_get_socket_uid the overflow uid, bpf_skb_cgroup_id,
 * bpf_skb_ancestor_cgroup_id and bpf_skb_cgroup_classid 0, bpf_get_netns_cookie the network
 * namespace's cookie. The kernel's BPF_PROG_TEST_RUN gives its packets a dummy socket of the
 * caller, so there these answer for that socket instead: the one place they differ.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bpf/helper_proto.h"
#include "net/filter.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

/* /proc/sys/kernel/overflowuid's default, what from_kuid_munged gives for no owner. */
#define DEFAULT_OVERFLOWUID 65534

static u64 bpf_get_socket_cookie(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

static const struct nb_func_proto bpf_get_socket_cookie_proto = {
	.func = bpf_get_socket_cookie,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

static u32 overflowuid(void)
{
	static u32 uid;
	unsigned int v;
	FILE *f;

	if (__atomic_load_n(&uid, __ATOMIC_RELAXED))
		return uid;
	v = DEFAULT_OVERFLOWUID;
	f = fopen("/proc/sys/kernel/overflowuid", "re");
	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = DEFAULT_OVERFLOWUID;
		fclose(f);
	}
	__atomic_store_n(&uid, v, __ATOMIC_RELAXED);
	return v;
}

static u64 bpf_get_socket_uid(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return overflowuid();
}

static const struct nb_func_proto bpf_get_socket_uid_proto = {
	.func = bpf_get_socket_uid,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/* bpf_skb_cgroup_id and bpf_skb_cgroup_classid: of the packet's socket, none here. */
static u64 bpf_skb_no_socket_zero(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

static const struct nb_func_proto bpf_skb_cgroup_id_proto = {
	.func = bpf_skb_no_socket_zero,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

static const struct nb_func_proto bpf_skb_ancestor_cgroup_id_proto = {
	.func = bpf_skb_no_socket_zero,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_ANYTHING },
};

static const struct nb_func_proto bpf_skb_cgroup_classid_proto = {
	.func = bpf_skb_no_socket_zero,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX },
};

/*
 * The cookie of the network namespace netbpf runs in, as a socket of it reports it
 * (SO_NETNS_COOKIE); the kernel names the initial namespace's for a packet without a socket,
 * the same one when netbpf runs there. 0 when the kernel cannot tell (before Linux 5.14).
 */
static u64 netns_cookie(void)
{
	static u64 cookie;
	static bool known;
	socklen_t len = sizeof(cookie);
	u64 v = 0;
	int fd;

	if (__atomic_load_n(&known, __ATOMIC_ACQUIRE))
		return cookie;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &v, &len))
			v = 0;
		close(fd);
	}
	cookie = v;
	__atomic_store_n(&known, true, __ATOMIC_RELEASE);
	return v;
}

static u64 bpf_get_netns_cookie(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	return netns_cookie();
}

static const struct nb_func_proto bpf_get_netns_cookie_proto = {
	.func = bpf_get_netns_cookie,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX_OR_NULL },
};

const struct nb_func_proto *nb_skb_sock_func_proto(enum bpf_func_id id, bool tc)
{
	switch (id) {
	case BPF_FUNC_get_socket_cookie:
		return &bpf_get_socket_cookie_proto;
	case BPF_FUNC_get_socket_uid:
		return &bpf_get_socket_uid_proto;
	case BPF_FUNC_get_netns_cookie:
		return &bpf_get_netns_cookie_proto;
	case BPF_FUNC_skb_cgroup_id:
		return tc ? &bpf_skb_cgroup_id_proto : NULL;
	case BPF_FUNC_skb_ancestor_cgroup_id:
		return tc ? &bpf_skb_ancestor_cgroup_id_proto : NULL;
	case BPF_FUNC_skb_cgroup_classid:
		return tc ? &bpf_skb_cgroup_classid_proto : NULL;
	default:
		return NULL;
	}
}
