// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_MAP_TYPE_RINGBUF, the twin of kernel/bpf/ringbuf.c: a multi-producer, single-consumer ring
 * of variable-length records. Each record starts with the kernel's 8-byte header (length with
 * the BUSY and DISCARD bits, then the page offset back to the ring), records are 8-byte
 * aligned, and positions only grow. As in the kernel, the data pages are mapped twice in a row,
 * so a record that wraps is still contiguous for the program and the consumer; the page before
 * the data points back to the ring so that submit finds it from the sample alone.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <netbpf/ringbuf.h>

#include "bpf/map.h"
#include "bpf/helpers.h"
#include "bpf/dynptr.h"

#define RB_PAGE_SIZE 4096UL
#define RB_HDR_SIZE 8U		/* BPF_RINGBUF_HDR_SZ */
#define RB_MAX_RECORD_SZ (UINT32_MAX / 4)

struct ringbuf_meta {
	struct nb_ringbuf *rb;
};

struct nb_ringbuf {
	struct nb_map map;
	u64 mask;
	u8 *area;		/* meta page, then the data mapped twice */
	u8 *data;
	u64 consumer_pos;
	u64 producer_pos;
	pthread_spinlock_t lock; /* producers */
	int wakeup_fd;		/* eventfd: consumers poll it */
	bool has_consumer;
};

static inline struct nb_ringbuf *to_rb(const struct nb_map *map)
{
	return container_of(map, struct nb_ringbuf, map);
}

static int ringbuf_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	int err = nb_map_check_flags(attr, BPF_F_NUMA_NODE, log);

	if (err)
		return err;
	if (attr->key_size || attr->value_size) {
		nb_log_printf(log, "map %s: ringbuf maps take key_size 0 and value_size 0, not "
			      "%u and %u\n", attr->name, attr->key_size, attr->value_size);
		return -EINVAL;
	}
	if (!attr->max_entries || (attr->max_entries & (attr->max_entries - 1)) ||
	    (attr->max_entries % RB_PAGE_SIZE)) {
		nb_log_printf(log, "map %s: ringbuf size %u must be a power of 2 and a multiple "
			      "of the page size (%lu)\n", attr->name, attr->max_entries,
			      RB_PAGE_SIZE);
		return -EINVAL;
	}
	return 0;
}

static int ringbuf_map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	size_t size = attr->max_entries;
	struct nb_ringbuf *rb = calloc(1, sizeof(*rb));
	int fd = -1;
	u8 *area;

	if (!rb)
		return -ENOMEM;
	nb_map_init_from_attr(&rb->map, attr);
	rb->mask = size - 1;
	rb->wakeup_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	fd = memfd_create("nb-ringbuf", MFD_CLOEXEC);
	if (rb->wakeup_fd < 0 || fd < 0 || ftruncate(fd, size) < 0)
		goto fail;
	area = mmap(NULL, RB_PAGE_SIZE + 2 * size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		goto fail;
	rb->area = area;
	rb->data = area + RB_PAGE_SIZE;
	if (mmap(rb->data, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED ||
	    mmap(rb->data + size, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED)
		goto fail;
	close(fd);
	((struct ringbuf_meta *)area)->rb = rb;
	pthread_spin_init(&rb->lock, PTHREAD_PROCESS_PRIVATE);
	*mapp = &rb->map;
	return 0;
fail:
	nb_log_printf(log, "map %s: cannot map a ring of %zu bytes: %s\n", attr->name, size,
		      strerror(errno));
	if (rb->area)
		munmap(rb->area, RB_PAGE_SIZE + 2 * size);
	if (fd >= 0)
		close(fd);
	if (rb->wakeup_fd >= 0)
		close(rb->wakeup_fd);
	free(rb);
	return -ENOMEM;
}

static void ringbuf_map_free(struct nb_map *map)
{
	struct nb_ringbuf *rb = to_rb(map);

	munmap(rb->area, RB_PAGE_SIZE + 2 * (rb->mask + 1));
	close(rb->wakeup_fd);
	pthread_spin_destroy(&rb->lock);
	free(rb);
}

static void ringbuf_wakeup(struct nb_ringbuf *rb)
{
	u64 one = 1;

	if (write(rb->wakeup_fd, &one, sizeof(one)) < 0) {
		/* The counter is saturated: the consumer has a wakeup pending anyway. */
	}
}

static void *ringbuf_reserve(struct nb_ringbuf *rb, u64 size)
{
	u64 len, cons_pos, prod_pos, new_prod_pos;
	u32 *hdr;

	if (unlikely(size > RB_MAX_RECORD_SZ))
		return NULL;
	len = (size + RB_HDR_SIZE + 7) & ~7ULL;
	if (len > rb->mask + 1)
		return NULL;
	pthread_spin_lock(&rb->lock);
	cons_pos = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	prod_pos = rb->producer_pos;
	new_prod_pos = prod_pos + len;
	/* Never overwrite what the consumer has not read. */
	if (new_prod_pos - cons_pos > rb->mask) {
		pthread_spin_unlock(&rb->lock);
		return NULL;
	}
	hdr = (u32 *)(rb->data + (prod_pos & rb->mask));
	hdr[0] = (u32)size | BPF_RINGBUF_BUSY_BIT;
	hdr[1] = (u32)(((u8 *)hdr - rb->area) / RB_PAGE_SIZE);
	__atomic_store_n(&rb->producer_pos, new_prod_pos, __ATOMIC_RELEASE);
	pthread_spin_unlock(&rb->lock);
	return hdr + 2;
}

static void ringbuf_commit(void *sample, u64 flags, bool discard)
{
	u32 *hdr = (u32 *)sample - 2;
	u8 *page = (u8 *)((uintptr_t)hdr & ~(RB_PAGE_SIZE - 1));
	struct nb_ringbuf *rb = ((struct ringbuf_meta *)(page - hdr[1] * RB_PAGE_SIZE))->rb;
	u32 new_len = hdr[0] & ~BPF_RINGBUF_BUSY_BIT;
	u64 rec_pos, cons_pos;

	if (discard)
		new_len |= BPF_RINGBUF_DISCARD_BIT;
	__atomic_exchange_n(&hdr[0], new_len, __ATOMIC_ACQ_REL);
	/* Wake the consumer when it has caught up with this record, as the kernel does. */
	rec_pos = (u8 *)hdr - rb->data;
	cons_pos = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE) & rb->mask;
	if ((flags & BPF_RB_FORCE_WAKEUP) ||
	    (cons_pos == rec_pos && !(flags & BPF_RB_NO_WAKEUP)))
		ringbuf_wakeup(rb);
}

#define PTR(x) ((void *)(uintptr_t)(x))

static u64 bpf_ringbuf_reserve(u64 map, u64 size, u64 flags, u64 r4, u64 r5)
{
	if (unlikely(flags))
		return 0;
	return (u64)(uintptr_t)ringbuf_reserve(to_rb(PTR(map)), size);
}

static u64 bpf_ringbuf_submit(u64 sample, u64 flags, u64 r3, u64 r4, u64 r5)
{
	ringbuf_commit(PTR(sample), flags, false);
	return 0;
}

static u64 bpf_ringbuf_discard(u64 sample, u64 flags, u64 r3, u64 r4, u64 r5)
{
	ringbuf_commit(PTR(sample), flags, true);
	return 0;
}

/*
 * A sample behind a dynptr: the dynptr is a null one when the reservation fails, and the
 * program must submit or discard it either way (the verifier holds it to that).
 */
static u64 bpf_ringbuf_reserve_dynptr(u64 map, u64 size, u64 flags, u64 ptr, u64 r5)
{
	struct nb_dynptr_kern *d = PTR(ptr);
	void *sample;

	if (flags) {
		nb_dynptr_set_null(d);
		return (u64)-EINVAL;
	}
	if (size > NB_DYNPTR_MAX_SIZE) {
		nb_dynptr_set_null(d);
		return (u64)-E2BIG;
	}
	/* A ring without the room: -EINVAL, as the kernel answers. */
	sample = ringbuf_reserve(to_rb(PTR(map)), size);
	if (!sample) {
		nb_dynptr_set_null(d);
		return (u64)-EINVAL;
	}
	nb_dynptr_init(d, sample, NB_DYNPTR_TYPE_RINGBUF, 0, (u32)size);
	return 0;
}

static u64 bpf_ringbuf_submit_dynptr(u64 ptr, u64 flags, u64 r3, u64 r4, u64 r5)
{
	struct nb_dynptr_kern *d = PTR(ptr);

	if (!d->data)
		return 0;
	ringbuf_commit(d->data, flags, false);
	nb_dynptr_set_null(d);
	return 0;
}

static u64 bpf_ringbuf_discard_dynptr(u64 ptr, u64 flags, u64 r3, u64 r4, u64 r5)
{
	struct nb_dynptr_kern *d = PTR(ptr);

	if (!d->data)
		return 0;
	ringbuf_commit(d->data, flags, true);
	nb_dynptr_set_null(d);
	return 0;
}

static u64 bpf_ringbuf_output(u64 map, u64 data, u64 size, u64 flags, u64 r5)
{
	void *rec;

	if (unlikely(flags & ~(u64)(BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP)))
		return (u64)-EINVAL;
	rec = ringbuf_reserve(to_rb(PTR(map)), size);
	if (!rec)
		return (u64)-EAGAIN;
	memcpy(rec, PTR(data), size);
	ringbuf_commit(rec, flags, false);
	return 0;
}

static u64 bpf_ringbuf_query(u64 map, u64 flags, u64 r3, u64 r4, u64 r5)
{
	struct nb_ringbuf *rb = to_rb(PTR(map));
	u64 cons = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	u64 prod = __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE);

	switch (flags) {
	case BPF_RB_AVAIL_DATA:
		return prod - cons;
	case BPF_RB_RING_SIZE:
		return rb->mask + 1;
	case BPF_RB_CONS_POS:
		return cons;
	case BPF_RB_PROD_POS:
		return prod;
	default:
		return 0;
	}
}

static const enum bpf_map_type ringbuf_map_types[] = { BPF_MAP_TYPE_RINGBUF };

const struct nb_func_proto nb_ringbuf_reserve_proto = {
	.func = bpf_ringbuf_reserve,
	.ret_type = NB_RET_PTR_TO_ALLOC_MEM_OR_NULL,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_CONST_ALLOC_SIZE_OR_ZERO, NB_ARG_ANYTHING },
	.map_types = ringbuf_map_types,
	.map_type_cnt = 1,
};

const struct nb_func_proto nb_ringbuf_submit_proto = {
	.func = bpf_ringbuf_submit,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_ALLOC_MEM, NB_ARG_ANYTHING },
};

const struct nb_func_proto nb_ringbuf_discard_proto = {
	.func = bpf_ringbuf_discard,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_ALLOC_MEM, NB_ARG_ANYTHING },
};

const struct nb_func_proto nb_ringbuf_reserve_dynptr_proto = {
	.func = bpf_ringbuf_reserve_dynptr,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING, NB_ARG_ANYTHING,
		      NB_ARG_PTR_TO_DYNPTR_RINGBUF_UNINIT },
	.map_types = ringbuf_map_types,
	.map_type_cnt = 1,
};

const struct nb_func_proto nb_ringbuf_submit_dynptr_proto = {
	.func = bpf_ringbuf_submit_dynptr,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE, NB_ARG_ANYTHING },
};

const struct nb_func_proto nb_ringbuf_discard_dynptr_proto = {
	.func = bpf_ringbuf_discard_dynptr,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_DYNPTR_RINGBUF_RELEASE, NB_ARG_ANYTHING },
};

const struct nb_func_proto nb_ringbuf_output_proto = {
	.func = bpf_ringbuf_output,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE_OR_ZERO,
		      NB_ARG_ANYTHING },
	.map_types = ringbuf_map_types,
	.map_type_cnt = 1,
};

const struct nb_func_proto nb_ringbuf_query_proto = {
	.func = bpf_ringbuf_query,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_CONST_MAP_PTR, NB_ARG_ANYTHING },
	.map_types = ringbuf_map_types,
	.map_type_cnt = 1,
};

static const struct nb_map_ops ringbuf_map_ops = {
	.type = BPF_MAP_TYPE_RINGBUF,
	.name = "ringbuf",
	.map_alloc_check = ringbuf_map_alloc_check,
	.map_alloc = ringbuf_map_alloc,
	.map_free = ringbuf_map_free,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(ringbuf_map_ops)

/*
 * BPF_MAP_TYPE_USER_RINGBUF, the other direction (userspace produces, bpf_user_ringbuf_drain
 * consumes): created with the ring buffer's rules, as the kernel creates it; netbpf has no
 * producer side for it, so it stays empty, and every element command is EOPNOTSUPP, as the
 * kernel's ENOTSUPP.
 */
static int user_ringbuf_map_alloc(const struct nb_map *attr, struct nb_map **mapp,
				  struct nb_log *log)
{
	struct nb_map *map = calloc(1, sizeof(*map));

	if (!map)
		return -ENOMEM;
	nb_map_init_from_attr(map, attr);
	*mapp = map;
	return 0;
}

static void user_ringbuf_map_free(struct nb_map *map)
{
	free(map);
}

static const struct nb_map_ops user_ringbuf_map_ops = {
	.type = BPF_MAP_TYPE_USER_RINGBUF,
	.name = "user_ringbuf",
	.map_alloc_check = ringbuf_map_alloc_check,
	.map_alloc = user_ringbuf_map_alloc,
	.map_free = user_ringbuf_map_free,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(user_ringbuf_map_ops)

/* The consumer side. */
struct nb_ringbuf_consumer {
	struct nb_ringbuf *rb;
	nb_ringbuf_sample_fn fn;
	void *ctx;
};

int nb_ringbuf_consumer_new(struct nb_map *map, nb_ringbuf_sample_fn fn, void *ctx,
			    struct nb_ringbuf_consumer **consumerp)
{
	struct nb_ringbuf_consumer *c;
	struct nb_ringbuf *rb;

	*consumerp = NULL;
	if (map->ops != &ringbuf_map_ops || !fn)
		return -EINVAL;
	rb = to_rb(map);
	if (__atomic_exchange_n(&rb->has_consumer, true, __ATOMIC_ACQ_REL))
		return -EBUSY;
	c = calloc(1, sizeof(*c));
	if (!c) {
		__atomic_store_n(&rb->has_consumer, false, __ATOMIC_RELEASE);
		return -ENOMEM;
	}
	c->rb = to_rb(nb_map_get(map));
	c->fn = fn;
	c->ctx = ctx;
	*consumerp = c;
	return 0;
}

void nb_ringbuf_consumer_free(struct nb_ringbuf_consumer *c)
{
	if (!c)
		return;
	__atomic_store_n(&c->rb->has_consumer, false, __ATOMIC_RELEASE);
	nb_map_put(&c->rb->map);
	free(c);
}

int nb_ringbuf_consume(struct nb_ringbuf_consumer *c)
{
	struct nb_ringbuf *rb = c->rb;
	u64 cons = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	int cnt = 0, err;

	for (;;) {
		u64 prod = __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE);
		bool progress = false;

		while (cons < prod) {
			u32 *hdr = (u32 *)(rb->data + (cons & rb->mask));
			u32 len = __atomic_load_n(&hdr[0], __ATOMIC_ACQUIRE);

			/* Records complete in reservation order: a busy one holds the rest. */
			if (len & BPF_RINGBUF_BUSY_BIT)
				return cnt;
			progress = true;
			cons += ((len & ~BPF_RINGBUF_DISCARD_BIT) + RB_HDR_SIZE + 7) & ~7ULL;
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				err = c->fn(c->ctx, hdr + 2, len & ~BPF_RINGBUF_DISCARD_BIT);
				if (err < 0) {
					__atomic_store_n(&rb->consumer_pos, cons, __ATOMIC_RELEASE);
					return err;
				}
				cnt++;
			}
			__atomic_store_n(&rb->consumer_pos, cons, __ATOMIC_RELEASE);
		}
		if (!progress)
			return cnt;
	}
}

int nb_ringbuf_poll(struct nb_ringbuf_consumer *c, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->rb->wakeup_fd, .events = POLLIN };
	u64 cnt;
	int n;

	n = nb_ringbuf_consume(c);
	if (n)
		return n;
	if (poll(&pfd, 1, timeout_ms) < 0)
		return -errno;
	if (read(c->rb->wakeup_fd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN)
		return -errno;
	return nb_ringbuf_consume(c);
}

int nb_ringbuf_consumer_fd(const struct nb_ringbuf_consumer *c)
{
	return c->rb->wakeup_fd;
}
