/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netbpf side of the redirect benches (tc_redirect.c, xdp_redirect.c): their devices, and
 * the twin of the kernel baseline's far end (kernel_baseline.h), an XDP program on the peer
 * device that counts and drops what arrives into a per-CPU array, the same instructions the
 * kernel side runs on its b1. Failures end the bench with a message, as benches do.
 */
#ifndef NB_BENCH_REDIRECT_SETUP_H
#define NB_BENCH_REDIRECT_SETUP_H

#include "common/types.h"

struct nb_dev;
struct nb_map;

/* A device that is up, behind a port of kind (NULL: none, or a pipe of nb_bench_pipe_pair). */
struct nb_dev *nb_bench_dev(const char *name, const char *kind);
/* Join a and b, made without a port, as a veth pair. */
void nb_bench_pipe_pair(struct nb_dev *a, struct nb_dev *b);

/* Attach the counter to dev; its map (the caller puts it). */
struct nb_map *nb_bench_counter_attach(struct nb_dev *dev);
/* Frames counted so far, summed over the workers. */
u64 nb_bench_counter_read(struct nb_map *map);

#endif /* NB_BENCH_REDIRECT_SETUP_H */
