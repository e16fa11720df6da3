/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether this process may use the running kernel's BPF at all: a kernel comparison test calls
 * one of these first, so that without root or CAP_BPF (or in a kernel without the program or
 * map type) it is skipped with the reason instead of failing on the kernel's side.
 */
#ifndef NB_TEST_KERNEL_PROBE_H
#define NB_TEST_KERNEL_PROBE_H

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_asm.h"
#include "test.h"

static inline void kernel_probe_skip(const char *what, const char *type, int err)
{
	if (err == EPERM || err == EACCES)
		nb_test_skip("%s is not permitted (need root or CAP_BPF, uid %u)", what,
			     (unsigned int)geteuid());
	nb_test_skip("the kernel refuses %s of type %s: %s", what, type ? type : "?",
		     strerror(err));
}

/* Skip the calling test unless the kernel loads a trivial program of this type. */
static inline void need_kernel_prog(enum bpf_prog_type type)
{
	const struct bpf_insn prog[] = { NB_MOV64_IMM(0, 0), NB_EXIT() };
	int fd = bpf_prog_load(type, "probe", "GPL", prog, 2, NULL);

	if (fd >= 0) {
		close(fd);
		return;
	}
	kernel_probe_skip("loading BPF programs", libbpf_bpf_prog_type_str(type), errno);
}

/* Skip the calling test unless the kernel creates a map of this type (4-byte keys and values). */
static inline void need_kernel_map(enum bpf_map_type type)
{
	int fd = bpf_map_create(type, "probe", 4, 4, 1, NULL);

	if (fd >= 0) {
		close(fd);
		return;
	}
	kernel_probe_skip("creating BPF maps", libbpf_bpf_map_type_str(type), -fd);
}

#endif
