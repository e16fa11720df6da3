/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Consuming a BPF_MAP_TYPE_RINGBUF map, the twin of libbpf's ring_buffer__*: records that
 * programs submitted (bpf_ringbuf_output, bpf_ringbuf_reserve/submit) reach a callback in the
 * order they were reserved; discarded records are skipped. One consumer per map.
 */
#ifndef NETBPF_RINGBUF_H
#define NETBPF_RINGBUF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_map;
struct nb_ringbuf_consumer;

/*
 * Called once per record; a negative return stops consuming and is returned to the caller (that
 * record counts as consumed, as with libbpf).
 */
typedef int (*nb_ringbuf_sample_fn)(void *ctx, void *data, size_t size);

int nb_ringbuf_consumer_new(struct nb_map *map, nb_ringbuf_sample_fn fn, void *ctx,
			    struct nb_ringbuf_consumer **consumerp);
void nb_ringbuf_consumer_free(struct nb_ringbuf_consumer *consumer);
/* Hand every committed record to the callback; returns how many, or the callback's error. */
int nb_ringbuf_consume(struct nb_ringbuf_consumer *consumer);
/*
 * Wait up to timeout_ms (-1: forever) for a producer's wakeup, then consume. Returns the number
 * of records, 0 on timeout, or a negative errno.
 */
int nb_ringbuf_poll(struct nb_ringbuf_consumer *consumer, int timeout_ms);
/* A file descriptor that becomes readable on wakeups, for the caller's own poll loop. */
int nb_ringbuf_consumer_fd(const struct nb_ringbuf_consumer *consumer);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_RINGBUF_H */
