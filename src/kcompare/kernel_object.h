/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An object netbpf has loaded, loaded once more into the running kernel from netbpf's reading of
 * it, the way iproute2's own loader does: for the objects libbpf 1.x cannot open (iproute2's
 * `maps` section of struct bpf_elf_map, the old 20-byte struct bpf_map_def). Used by netbpf diff
 * (src/kcompare/diff.c) and the loader's kernel test (tests/kernel/test_elf_kernel.c).
 */
#ifndef NB_KCOMPARE_KERNEL_OBJECT_H
#define NB_KCOMPARE_KERNEL_OBJECT_H

#include <stdbool.h>

#include <linux/bpf.h>
#include <netbpf/log.h>

struct nb_object;
struct nb_object_prog;
struct nb_object_map;

/* The kernel's fds, in netbpf's program and map order; -1 where nothing was loaded. */
struct nb_kernel_object {
	unsigned int prog_cnt, map_cnt;
	int *prog_fd;
	int *map_fd;		/* the BPF_PSEUDO_MAP_IDX order of nb_object_prog_insns */
};

struct nb_kernel_object_opts {
	/* Every program as this type, expected attach type 0 (0: netbpf's type and attach type). */
	enum bpf_prog_type prog_type;
	/* Only the programs netbpf loaded as this type (0: every program netbpf loaded). */
	enum bpf_prog_type only_type;
};

/*
 * Kernel maps with netbpf's definitions (never pinned), global data copied from netbpf's maps,
 * every program netbpf loaded with its map references turned into kernel fds, then program
 * arrays and maps of maps filled as netbpf filled its own. obj must be loaded. 0 or a negative
 * errno with the reason in log: the program the kernel refuses with the verifier's last lines
 * (EACCES as root), or that this process may not load programs (nb_kernel_not_permitted).
 */
int nb_kernel_object_load(struct nb_object *obj, const struct nb_kernel_object_opts *opts,
			  struct nb_kernel_object **kp, struct nb_log *log);
void nb_kernel_object_close(struct nb_kernel_object *k);

/* The kernel fd of one of obj's programs or maps, or -1. */
int nb_kernel_object_prog_fd(const struct nb_kernel_object *k, const struct nb_object *obj,
			     const struct nb_object_prog *prog);
int nb_kernel_object_map_fd(const struct nb_kernel_object *k, const struct nb_object *obj,
			    const struct nb_object_map *map);

/* The verifier's log a refused load is retried with, and its last lines, where the reason is. */
#define NB_KERNEL_VERIFIER_LOG_SIZE (1U << 20)
void nb_kernel_log_tail(struct nb_log *log, const char *text);
/* Whether a load's error means this process may not load programs (not the verifier's no). */
bool nb_kernel_not_permitted(int err);
/* That, in log, with what the process would need. */
void nb_kernel_log_not_permitted(struct nb_log *log);

#endif /* NB_KCOMPARE_KERNEL_OBJECT_H */
