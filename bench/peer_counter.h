/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netbpf's twin of the kernel baseline's far end (kernel_baseline.h): an XDP program on the
 * peer device counts and drops what arrives, into a per-CPU array, the same instructions the
 * kernel side runs on its b1.
 */
#ifndef NB_BENCH_PEER_COUNTER_H
#define NB_BENCH_PEER_COUNTER_H

#include "common/types.h"

struct nb_dev;
struct nb_map;

/* Attach the counter to dev; its map (the caller puts it). Exits on failure, as benches do. */
struct nb_map *nb_bench_counter_attach(struct nb_dev *dev);
/* Frames counted so far, summed over the workers. */
u64 nb_bench_counter_read(struct nb_map *map);

#endif /* NB_BENCH_PEER_COUNTER_H */
