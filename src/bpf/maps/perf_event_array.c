// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_PERF_EVENT_ARRAY and bpf_perf_event_output (kernel/bpf/arraymap.c and
 * kernel/trace/bpf_trace.c): the map's attributes and checks are the kernel's, the perf events
 * are one consumer callback per map (include/netbpf/perf_event.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/perf_event.h>

#include "bpf/maps/array.h"
#include "bpf/helpers.h"
#include "bpf/epoch.h"

/* The largest sample a perf ring takes (a u16 record size less the headers). */
#define PERF_MAX_SAMPLE (65535 - 24)

struct perf_consumer {
	nb_perf_event_fn fn;
	void *ctx;
};

struct nb_perf_event_array {
	struct nb_map map;
	struct perf_consumer *consumer;	/* read by producers without a lock */
	pthread_mutex_t lock;
};

static inline struct nb_perf_event_array *to_pea(const struct nb_map *map)
{
	return container_of(map, struct nb_perf_event_array, map);
}

/* fd_array_map_alloc_check, then the array checks. */
int nb_fd_array_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err = nb_map_check_value_size(attr, sizeof(u32), log);

	if (err)
		return err;
	if (attr->map_flags & (BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG)) {
		nb_log_printf(log, "map %s: %s maps take no BPF_F_RDONLY_PROG/WRONLY_PROG\n",
			      attr->name, attr->ops->name);
		return -EINVAL;
	}
	return nb_array_map_alloc_check(attr, log);
}

static int pea_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_perf_event_array *pea = calloc(1, sizeof(*pea));

	if (!pea)
		return -ENOMEM;
	nb_map_init_from_attr(&pea->map, attr);
	pthread_mutex_init(&pea->lock, NULL);
	*mapp = &pea->map;
	return 0;
}

static void pea_map_free(struct nb_map *map)
{
	struct nb_perf_event_array *pea = to_pea(map);

	free(pea->consumer);
	pthread_mutex_destroy(&pea->lock);
	free(pea);
}

static const struct nb_map_ops perf_event_array_map_ops;

int nb_perf_event_array_set_consumer(struct nb_map *map, nb_perf_event_fn fn, void *ctx)
{
	struct nb_perf_event_array *pea;
	struct perf_consumer *c = NULL, *old;

	if (map->ops != &perf_event_array_map_ops)
		return -EINVAL;
	pea = to_pea(map);
	if (fn) {
		c = malloc(sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->fn = fn;
		c->ctx = ctx;
	}
	pthread_mutex_lock(&pea->lock);
	old = __atomic_exchange_n(&pea->consumer, c, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&pea->lock);
	if (old) {
		/* A worker may be calling the old consumer: wait before freeing it. */
		nb_epoch_synchronize();
		free(old);
	}
	return 0;
}

long nb_perf_event_output(struct nb_map *map, u64 flags, const void *data, u64 size,
			  const void *ctx, u64 ctx_size,
			  unsigned long (*copy_ctx)(void *dst, const void *ctx, unsigned long off,
						    unsigned long len))
{
	static __thread u8 sample[PERF_MAX_SAMPLE];
	struct nb_perf_event_array *pea = to_pea(map);
	u64 index = flags & BPF_F_INDEX_MASK;
	struct perf_consumer *c;

	if (index == BPF_F_CURRENT_CPU)
		index = nb_this_cpu();
	if (unlikely(index >= map->max_entries))
		return -E2BIG;
	c = __atomic_load_n(&pea->consumer, __ATOMIC_ACQUIRE);
	if (!c)
		return -ENOENT;
	if (size + ctx_size > PERF_MAX_SAMPLE)
		return -E2BIG;
	if (!ctx_size) {
		c->fn(c->ctx, (u32)index, data, (u32)size);
		return 0;
	}
	/* The sample is the data followed by the context's payload. */
	memcpy(sample, data, size);
	copy_ctx(sample + size, ctx, 0, ctx_size);
	c->fn(c->ctx, (u32)index, sample, (u32)(size + ctx_size));
	return 0;
}

/* The generic variant: no context payload, so no BPF_F_CTXLEN_MASK bits. */
static u64 bpf_perf_event_output(u64 ctx, u64 map, u64 flags, u64 data, u64 size)
{
	if (unlikely(flags & ~BPF_F_INDEX_MASK))
		return (u64)-EINVAL;
	return nb_perf_event_output((struct nb_map *)(uintptr_t)map, flags,
				    (const void *)(uintptr_t)data, size, NULL, 0, NULL);
}

static const enum bpf_map_type perf_event_map_types[] = { BPF_MAP_TYPE_PERF_EVENT_ARRAY };

const struct nb_func_proto nb_perf_event_output_proto = {
	.func = bpf_perf_event_output,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_CTX, NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING, NB_ARG_PTR_TO_MEM,
		      NB_ARG_CONST_SIZE_OR_ZERO },
	.map_types = perf_event_map_types,
	.map_type_cnt = 1,
};

static int pea_get_next_key(struct nb_map *map, const void *key, void *next_key)
{
	return nb_array_map_get_next_key(map, key, next_key);
}

static const struct nb_map_ops perf_event_array_map_ops = {
	.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	.name = "perf_event_array",
	.map_alloc_check = nb_fd_array_map_alloc_check,
	.map_alloc = pea_map_alloc,
	.map_free = pea_map_free,
	.map_get_next_key = pea_get_next_key,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(perf_event_array_map_ops)
