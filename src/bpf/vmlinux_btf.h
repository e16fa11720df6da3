/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's own BTF (vmlinux), the layouts of the kernel structs the verifier lets
 * programs read: struct bpf_map and its map types' structs through a map pointer, the socket
 * structs the bpf_skc_to_* helpers return. Parsed once, on first use, and kept.
 */
#ifndef NB_BPF_VMLINUX_BTF_H
#define NB_BPF_VMLINUX_BTF_H

#include "bpf/btf_object.h"

/* Where it is read from: NETBPF_VMLINUX_BTF when set (empty: nowhere), else this. */
#define NB_VMLINUX_BTF_PATH "/sys/kernel/btf/vmlinux"

/*
 * The parsed vmlinux BTF, or NULL when there is none to read; then *why (when not NULL) says
 * which file and what went wrong. Thread-safe; the first call reads the file.
 */
const struct nb_btf *nb_vmlinux_btf(const char **why);

/* The id of the struct named name in btf, or 0. */
u32 nb_btf_find_struct(const struct nb_btf *btf, const char *name);

/*
 * sizeof(struct name) in the running kernel (its memory figures are built of them), or
 * fallback when there is no kernel BTF or no such struct in it.
 */
u64 nb_vmlinux_struct_size(const char *name, u64 fallback);

#endif /* NB_BPF_VMLINUX_BTF_H */
