/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Consuming BPF_MAP_TYPE_PERF_EVENT_ARRAY output. In the kernel each slot holds a perf event
 * whose ring a reader drains; here a map has one consumer callback, called synchronously by the
 * program's worker for each bpf_perf_event_output with the slot index (the CPU, for the usual
 * BPF_F_CURRENT_CPU) and the sample. Without a consumer, output fails with -ENOENT as it does
 * on an empty slot.
 */
#ifndef NETBPF_PERF_EVENT_H
#define NETBPF_PERF_EVENT_H

#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_map;

typedef void (*nb_perf_event_fn)(void *ctx, __u32 index, const void *data, __u32 size);

/* Register (fn) or remove (NULL) the map's consumer. */
int nb_perf_event_array_set_consumer(struct nb_map *map, nb_perf_event_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_PERF_EVENT_H */
