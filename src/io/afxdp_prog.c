// SPDX-License-Identifier: GPL-2.0
/*
 * The afxdp port's XDP program (afxdp_prog.h): built here from six instructions, with its
 * XSKMAP, attached to the interface while the port is open.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "io/afxdp_prog.h"

/* Newer than the build machine's uapi headers (Linux 6.6 has it; older ones may not). */
#ifndef BPF_F_XDP_HAS_FRAGS
#define BPF_F_XDP_HAS_FRAGS (1U << 5)
#endif

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS); */
static unsigned int redirect_insns(struct bpf_insn *insn, int map_fd)
{
	unsigned int n = 0;

	insn[n++] = INSN(BPF_LDX | BPF_W | BPF_MEM, BPF_REG_2, BPF_REG_1,
			 offsetof(struct xdp_md, rx_queue_index), 0);
	insn[n++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd);
	insn[n++] = INSN(0, 0, 0, 0, 0);
	/* the low bits of the flags: the verdict when the queue has no socket */
	insn[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, XDP_PASS);
	insn[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect_map);
	insn[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static int prog_load(struct nb_afxdp_prog *p, bool frags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_XDP,
		    .prog_flags = frags ? BPF_F_XDP_HAS_FRAGS : 0);
	struct bpf_insn insns[8];
	unsigned int cnt = redirect_insns(insns, p->map_fd);
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "nb_xsk_redirect", "GPL", insns, cnt, &opts);

	return fd < 0 ? -errno : fd;
}

int nb_afxdp_prog_attach(struct nb_afxdp_prog *p, int ifindex, const char *ifname,
			 u32 xdp_flags, u32 nr_queues, bool frags, struct nb_log *log)
{
	u32 id = 0;
	int err;

	*p = (struct nb_afxdp_prog){ .prog_fd = -1, .map_fd = -1, .ifindex = ifindex };
	p->map_fd = bpf_map_create(BPF_MAP_TYPE_XSKMAP, "nb_xsks", sizeof(u32), sizeof(u32),
				   nr_queues, NULL);
	if (p->map_fd < 0) {
		err = -errno;
		nb_log_printf(log, "afxdp: %s: cannot make the XSKMAP: %s\n", ifname,
			      strerror(-err));
		goto fail;
	}
	/* a kernel without multi-buffer XDP (before 5.18) refuses the flag: pages then */
	p->frags = frags;
	p->prog_fd = prog_load(p, frags);
	if (p->prog_fd == -EINVAL && frags) {
		p->frags = false;
		p->prog_fd = prog_load(p, false);
	}
	if (p->prog_fd < 0) {
		err = p->prog_fd;
		nb_log_printf(log, "afxdp: %s: the kernel refuses the XSK redirect program: %s\n",
			      ifname, strerror(-err));
		goto fail;
	}
	p->xdp_flags = xdp_flags | XDP_FLAGS_UPDATE_IF_NOEXIST;
	err = bpf_xdp_attach(ifindex, p->prog_fd, p->xdp_flags, NULL);
	if (err == -EEXIST || err == -EBUSY) {
		bpf_xdp_query_id(ifindex, 0, &id);
		nb_log_printf(log, "afxdp: %s already has an XDP program (id %u): an afxdp port "
			      "needs the interface to itself\n", ifname, id);
		err = -EBUSY;
		goto fail;
	}
	if (err) {
		nb_log_printf(log, "afxdp: %s: cannot attach the XSK redirect program in %s mode: "
			      "%s\n", ifname, xdp_flags & XDP_FLAGS_SKB_MODE ? "skb" :
			      xdp_flags & XDP_FLAGS_DRV_MODE ? "drv" : "the default", strerror(-err));
		goto fail;
	}
	return 0;
fail:
	if (p->prog_fd >= 0)
		close(p->prog_fd);
	if (p->map_fd >= 0)
		close(p->map_fd);
	p->prog_fd = p->map_fd = -1;
	return err;
}

int nb_afxdp_prog_add_socket(struct nb_afxdp_prog *p, struct xsk_socket *xsk)
{
	return xsk_socket__update_xskmap(xsk, p->map_fd);
}

void nb_afxdp_prog_detach(struct nb_afxdp_prog *p)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = p->prog_fd);

	if (p->prog_fd < 0)
		return;
	/* XDP_FLAGS_REPLACE with no new program: detaches ours, never another's */
	bpf_xdp_detach(p->ifindex, (p->xdp_flags & XDP_FLAGS_MODES) | XDP_FLAGS_REPLACE, &opts);
	close(p->prog_fd);
	close(p->map_fd);
	p->prog_fd = p->map_fd = -1;
}
