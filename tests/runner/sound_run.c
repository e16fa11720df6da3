// SPDX-License-Identifier: GPL-2.0
/*
 * The soundness fuzzer's runs; see sound_run.h. A program is loaded twice (interpreter only,
 * then with the JIT) so that each engine runs its own instructions from the same verdict, and
 * callbacks and tail calls stay on the engine under test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/prog.h>
#include <netbpf/ringbuf.h>

#include "bpf/epoch.h"
#include "bpf/map.h"
#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "net/dev.h"
#include "pkt/pkt.h"
#include "sound_run.h"

/* The maps of every generated program, by index (BPF_PSEUDO_MAP_IDX). */
static const struct sg_map sr_map_defs[] = {
	{ BPF_MAP_TYPE_ARRAY, 4, 44, 1 },	/* one value: its padding and beyond are poisoned */
	{ BPF_MAP_TYPE_ARRAY, 4, 20, 4 },
	{ BPF_MAP_TYPE_HASH, 8, 12, 8 },	/* BPF_F_NO_PREALLOC: an allocation per element */
	{ BPF_MAP_TYPE_HASH, 4, 16, 8 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 16, 2 },
	{ BPF_MAP_TYPE_RINGBUF, 0, 0, 4096 },
	{ BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 3 },
	{ BPF_MAP_TYPE_LRU_HASH, 4, 8, 4 },
};

#define SR_NMAPS ARRAY_SIZE(sr_map_defs)
#define SR_NO_PREALLOC_MAP 2
#define SR_RINGBUF_MAP 5
#define SR_PROG_ARRAY_MAP 6

static struct nb_map *maps[SR_NMAPS];
/*
 * A program array takes programs of one type and one engine (bpf_prog_map_compatible): one
 * for each, swapped into the program's map table at load.
 */
#define SR_TYPES 3
static struct nb_map *prog_arrays[SR_TYPES][2];
static struct nb_map *ringbuf;
static struct nb_ringbuf_consumer *rb_consumer;
static struct nb_dev *dev;

struct outcome;
static struct outcome *rb_out;	/* where consumed records go; NULL: dropped */
static int rb_collect(void *ctx, void *data, size_t size);

const struct sg_map *sr_maps(u32 *cnt)
{
	*cnt = SR_NMAPS;
	return sr_map_defs;
}

/* ---- the environment: input bytes, then a fixed pattern ---- */

struct env {
	const u8 *p;
	size_t len, pos;
};

static u8 env_byte(struct env *e)
{
	return e->pos < e->len ? e->p[e->pos++] : (u8)(0x5a + e->pos++);
}

static void env_bytes(struct env *e, void *dst, size_t n)
{
	u8 *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = env_byte(e);
}

/* ---- maps ---- */

static void maps_destroy(void)
{
	for (u32 i = 0; i < SR_NMAPS; i++) {
		nb_map_put(maps[i]);
		maps[i] = NULL;
	}
	/* the elements the program's updates retired, and with them the maps */
	nb_epoch_reclaim();
}

/*
 * Every program gets maps of its own, new: what an earlier program left in a map (its pool's
 * free elements, the order they come back in) must not decide this one's results, nor keep a
 * finding from reproducing alone. Hash maps hash with seed 0, so that their order is the same
 * in every process. The ring buffer stays: each run consumes every record, so the next finds
 * it empty, and a new one costs a memfd and three mappings.
 */
static int maps_create(void)
{
	int err;

	for (u32 i = 0; i < SR_NMAPS; i++) {
		const struct sg_map *d = &sr_map_defs[i];
		bool hash = d->type == BPF_MAP_TYPE_HASH || d->type == BPF_MAP_TYPE_LRU_HASH;
		struct nb_map_create_opts o = {
			.sz = sizeof(o), .name = "sound",
			.map_flags = (hash ? BPF_F_ZERO_SEED : 0) |
				     (i == SR_NO_PREALLOC_MAP ? BPF_F_NO_PREALLOC : 0),
		};

		if (i == SR_RINGBUF_MAP) {
			maps[i] = nb_map_get(ringbuf);
			continue;
		}
		err = nb_map_create(d->type, d->key_size, d->value_size, d->max_entries, &o,
				    &maps[i]);
		if (err) {
			maps_destroy();
			return err;
		}
	}
	return 0;
}

/*
 * What stays from program to program: the program arrays (emptied after each run), the ring
 * buffer, a device.
 */
static int setup(void)
{
	const struct sg_map *rb = &sr_map_defs[SR_RINGBUF_MAP];
	struct nb_map_create_opts rb_opts = { .sz = sizeof(rb_opts), .name = "sound" };
	struct nb_log log = { 0 };
	int err;

	if (dev)
		return 0;
	err = nb_map_create(rb->type, rb->key_size, rb->value_size, rb->max_entries, &rb_opts,
			    &ringbuf);
	err = err ?: nb_ringbuf_consumer_new(ringbuf, rb_collect, NULL, &rb_consumer);
	if (err)
		goto err;
	for (u32 t = 0; t < SR_TYPES; t++) {
		for (u32 jit = 0; jit < 2; jit++) {
			const struct sg_map *d = &sr_map_defs[SR_PROG_ARRAY_MAP];
			struct nb_map_create_opts o = { .sz = sizeof(o), .name = "sound_tail" };

			err = nb_map_create(d->type, d->key_size, d->value_size, d->max_entries,
					    &o, &prog_arrays[t][jit]);
			if (err)
				goto err;
		}
	}
	err = nb_dev_create("sound0", 0, &dev, &log);
	nb_log_free(&log);
	err = err ?: nb_dev_set_up(dev, true);
	if (!err)
		return 0;
err:
	sr_cleanup();
	return err;
}

void sr_cleanup(void)
{
	nb_ringbuf_consumer_free(rb_consumer);
	rb_consumer = NULL;
	nb_map_put(ringbuf);
	ringbuf = NULL;
	for (u32 t = 0; t < SR_TYPES; t++) {
		for (u32 jit = 0; jit < 2; jit++) {
			nb_map_put(prog_arrays[t][jit]);
			prog_arrays[t][jit] = NULL;
		}
	}
	if (dev)
		nb_dev_destroy(dev);
	dev = NULL;
	nb_epoch_barrier();
}

static void clear_map(struct nb_map *map)
{
	u8 key[16];

	while (nb_map_get_next_key(map, NULL, key) == 0)
		if (nb_map_delete_elem(map, key))
			break;
}

/* Every map to the contents the environment describes. */
static void fill_maps(struct env *e)
{
	u8 key[16], value[256];

	for (u32 i = 0; i < SR_NMAPS; i++) {
		const struct sg_map *d = &sr_map_defs[i];
		struct nb_map *map = maps[i];
		u32 vsize = nb_map_user_value_size(map), n;

		switch (d->type) {
		case BPF_MAP_TYPE_ARRAY:
		case BPF_MAP_TYPE_PERCPU_ARRAY:
			for (u32 k = 0; k < d->max_entries; k++) {
				env_bytes(e, value, vsize);
				nb_map_update_elem(map, &k, value, BPF_ANY);
			}
			break;
		case BPF_MAP_TYPE_HASH:
		case BPF_MAP_TYPE_LRU_HASH:
			clear_map(map);
			n = env_byte(e) % (d->max_entries + 1);
			for (u32 k = 0; k < n; k++) {
				memset(key, 0, sizeof(key));
				key[0] = env_byte(e) % 10;	/* small keys: lookups hit */
				env_bytes(e, value, vsize);
				nb_map_update_elem(map, key, value, BPF_ANY);
			}
			break;
		default:
			break;
		}
	}
	nb_ringbuf_consume(rb_consumer);
}

/*
 * The bytes between value_size and the next 8-byte boundary of array values: a program that
 * reads them read past its value. Hash elements get the same over their value's padding.
 */
static void poison_map_padding(bool poison)
{
	for (u32 i = 0; i < SR_NMAPS; i++) {
		const struct sg_map *d = &sr_map_defs[i];
		u32 pad = ((d->value_size + 7) & ~7U) - d->value_size;
		u8 key[16] = { 0 };
		bool first = true;

		if (!pad || !maps[i]->ops->map_lookup_elem)
			continue;
		if (d->type == BPF_MAP_TYPE_ARRAY) {
			for (u32 k = 0; k < d->max_entries; k++) {
				u8 *v = maps[i]->ops->map_lookup_elem(maps[i], &k);

				if (poison)
					ASAN_POISON_MEMORY_REGION(v + d->value_size, pad);
				else
					ASAN_UNPOISON_MEMORY_REGION(v + d->value_size, pad);
			}
			continue;
		}
		if (d->type != BPF_MAP_TYPE_HASH && d->type != BPF_MAP_TYPE_LRU_HASH)
			continue;
		while (nb_map_get_next_key(maps[i], first ? NULL : key, key) == 0) {
			u8 *v = maps[i]->ops->map_lookup_elem(maps[i], key);

			first = false;
			if (!v)
				break;
			if (poison)
				ASAN_POISON_MEMORY_REGION(v + d->value_size, pad);
			else
				ASAN_UNPOISON_MEMORY_REGION(v + d->value_size, pad);
		}
	}
}

/* ---- the packet ---- */

struct sr_pkt {
	enum bpf_prog_type type;
	struct nb_pkt *pkt;
	struct nb_xdp_buff xdp;
	struct nb_xdp_rxq_info rxq;
};

static struct sr_pkt *poisoned;		/* the run's packet while the interpreter runs */

static void pkt_bounds(const struct sr_pkt *p, u8 **lo, u8 **hi)
{
	if (p->type == BPF_PROG_TYPE_XDP) {
		*lo = p->xdp.data_meta;
		*hi = p->xdp.data_end;
	} else {
		*lo = p->pkt->bpf_data_meta;
		*hi = p->pkt->bpf_data_end;
	}
}

/*
 * The linear buffer outside the data is poisoned, up to the fragment list at its end, which the
 * library reads (nb_pkt_shinfo); a helper may move the packet to another buffer, whose bounds
 * are taken afresh each time.
 */
static void pkt_poison(const struct sr_pkt *p)
{
	u8 *head = p->pkt->head, *lo, *hi;

	pkt_bounds(p, &lo, &hi);
	ASAN_POISON_MEMORY_REGION(head, lo - head);
	ASAN_POISON_MEMORY_REGION(hi, head + p->pkt->end - hi);
}

static void pkt_unpoison(const struct sr_pkt *p)
{
	ASAN_UNPOISON_MEMORY_REGION(p->pkt->head, p->pkt->end);
}

/* A packet as the environment describes it: length, headroom, metadata, bytes. */
static int pkt_make(struct sr_pkt *p, enum bpf_prog_type type, struct env *e)
{
	u32 len = env_byte(e), headroom = NB_PKT_HEADROOM, meta = 0;
	u8 b = env_byte(e);

	memset(p, 0, sizeof(*p));
	p->type = type;
	if (len >= 240)
		len = 14 + (len - 240) * 200;	/* now and then up to 3014 bytes */
	if (type == BPF_PROG_TYPE_XDP)
		meta = 4 * (b % 9);
	else
		headroom = b % 4 == 0 ? b : NB_PKT_HEADROOM; /* little headroom now and then */
	if (len > NB_PKT_BUF_SIZE - headroom - NB_PKT_TAILROOM)
		len = NB_PKT_BUF_SIZE - headroom - NB_PKT_TAILROOM;
	p->pkt = nb_pkt_alloc();
	if (!p->pkt)
		return -ENOMEM;
	/* headroom and tailroom the program may reach through helpers: the same for each engine */
	for (u32 i = 0; i < p->pkt->end; i++)
		p->pkt->head[i] = (u8)(i * 7 + 1);
	p->pkt->data = p->pkt->head + headroom;
	env_bytes(e, nb_pkt_put(p->pkt, len), len);
	p->pkt->dev = dev;
	if (type == BPF_PROG_TYPE_XDP) {
		p->rxq = (struct nb_xdp_rxq_info){ .dev = dev, .ifindex = dev->ifindex };
		p->pkt->meta_len = (u8)meta;
		env_bytes(e, p->pkt->data - meta, meta);
		nb_pkt_to_xdp(p->pkt, &p->xdp, &p->rxq);
		return 0;
	}
	nb_eth_type_trans(p->pkt, dev);
	if (type == BPF_PROG_TYPE_SOCKET_FILTER && len >= ETH_HLEN)
		nb_pkt_pull(p->pkt, ETH_HLEN);
	nb_pkt_compute_data_pointers(p->pkt);
	p->pkt->qdisc_cb.pkt_len = p->pkt->len;
	return 0;
}

/* ---- helpers during the interpreter's run: lift the packet's poison around them ---- */

#define SR_THUNKS 32

static nb_helper_fn real_helper[SR_THUNKS];
static bool helper_touches_pkt[SR_THUNKS];

static u64 thunk_call(u32 i, u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct sr_pkt *p = poisoned;
	u64 ret;

	if (!helper_touches_pkt[i] || !p)
		return real_helper[i](r1, r2, r3, r4, r5);
	pkt_unpoison(p);
	ret = real_helper[i](r1, r2, r3, r4, r5);
	pkt_poison(p);
	return ret;
}

#define THUNK(i)                                                                    \
	static u64 thunk_##i(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)                \
	{                                                                           \
		return thunk_call(i, r1, r2, r3, r4, r5);                           \
	}
THUNK(0) THUNK(1) THUNK(2) THUNK(3) THUNK(4) THUNK(5) THUNK(6) THUNK(7)
THUNK(8) THUNK(9) THUNK(10) THUNK(11) THUNK(12) THUNK(13) THUNK(14) THUNK(15)
THUNK(16) THUNK(17) THUNK(18) THUNK(19) THUNK(20) THUNK(21) THUNK(22) THUNK(23)
THUNK(24) THUNK(25) THUNK(26) THUNK(27) THUNK(28) THUNK(29) THUNK(30) THUNK(31)

static const nb_helper_fn thunks[SR_THUNKS] = {
	thunk_0, thunk_1, thunk_2, thunk_3, thunk_4, thunk_5, thunk_6, thunk_7,
	thunk_8, thunk_9, thunk_10, thunk_11, thunk_12, thunk_13, thunk_14, thunk_15,
	thunk_16, thunk_17, thunk_18, thunk_19, thunk_20, thunk_21, thunk_22, thunk_23,
	thunk_24, thunk_25, thunk_26, thunk_27, thunk_28, thunk_29, thunk_30, thunk_31,
};

/* Whether fn is one of the program type's helpers that read or move packet data. */
static bool is_pkt_helper(const struct nb_prog *prog, nb_helper_fn fn)
{
	for (u32 id = 1; id < __BPF_FUNC_MAX_ID; id++) {
		const struct nb_func_proto *proto = prog->ops->get_func_proto(id, prog);

		if (proto && proto->func == fn)
			return proto->pkt_access || proto->changes_pkt_data ||
			       proto->arg_type[0] == NB_ARG_PTR_TO_CTX;
	}
	return false;
}

/* Route the interpreter's helper calls through the thunks; false if there are too many. */
static bool wrap_helpers(struct nb_prog *prog)
{
	if (prog->helper_cnt > SR_THUNKS)
		return false;
	for (u32 i = 0; i < prog->helper_cnt; i++) {
		real_helper[i] = prog->helpers[i];
		helper_touches_pkt[i] = is_pkt_helper(prog, prog->helpers[i]);
		prog->helpers[i] = thunks[i];
	}
	return true;
}

/* ---- outcomes ---- */

struct outcome {
	u64 r0;
	u32 pkt_off, pkt_len, meta_len;
	u8 pkt[256 + NB_PKT_MAX_FRAME];	/* metadata, then every byte, fragments too */
	u32 fields[8];
	u8 maps[4096];
	u32 maps_len;
	u8 rb[4096];
	u32 rb_len;
};

static int rb_collect(void *ctx, void *data, size_t size)
{
	struct outcome *o = rb_out;

	/* sizes only: a reservation's bytes the program did not write are whatever was there */
	if (!o || o->rb_len + 4 > sizeof(o->rb))
		return 0;
	memcpy(o->rb + o->rb_len, &size, 4);
	o->rb_len += 4;
	return 0;
}

static void dump_maps(struct outcome *o)
{
	for (u32 i = 0; i < SR_NMAPS; i++) {
		const struct sg_map *d = &sr_map_defs[i];
		u32 vsize = nb_map_user_value_size(maps[i]);
		u8 key[16] = { 0 }, next[16];
		bool first = true;

		if (d->type == BPF_MAP_TYPE_PROG_ARRAY || d->type == BPF_MAP_TYPE_RINGBUF)
			continue;
		while (nb_map_get_next_key(maps[i], first ? NULL : key, next) == 0 &&
		       o->maps_len + d->key_size + vsize <= sizeof(o->maps)) {
			first = false;
			memcpy(key, next, d->key_size);
			memcpy(o->maps + o->maps_len, key, d->key_size);
			o->maps_len += d->key_size;
			if (nb_map_lookup_elem(maps[i], key, o->maps + o->maps_len) == 0)
				o->maps_len += vsize;
		}
	}
}

static void outcome_take(struct outcome *o, const struct sr_pkt *p, u64 r0)
{
	const struct nb_pkt *pkt = p->pkt;

	memset(o, 0, offsetof(struct outcome, pkt));
	memset(o->fields, 0, sizeof(o->fields));
	o->r0 = r0;
	if (p->type == BPF_PROG_TYPE_XDP) {
		o->pkt_off = (u32)(p->xdp.data - p->xdp.data_hard_start);
		o->pkt_len = (u32)(p->xdp.data_end - p->xdp.data);
		o->meta_len = (u32)(p->xdp.data - p->xdp.data_meta);
		memcpy(o->pkt, p->xdp.data_meta, o->meta_len + o->pkt_len);
	} else {
		o->pkt_off = (u32)(pkt->data - pkt->head);
		o->pkt_len = pkt->len;
		o->meta_len = pkt->meta_len;
		/* a program that grew the packet past its buffer left the rest in fragments */
		memcpy(o->pkt, pkt->data - pkt->meta_len, o->meta_len);
		if (nb_pkt_copy_bits(pkt, 0, o->pkt + o->meta_len, o->pkt_len))
			abort();	/* pkt->len bytes from 0 are always there */
		o->fields[0] = pkt->mark;
		o->fields[1] = pkt->priority;
		o->fields[2] = pkt->tc_index;
		o->fields[3] = pkt->vlan_tci | (u32)pkt->vlan_present << 16;
		o->fields[4] = pkt->protocol;
		o->fields[5] = pkt->queue_mapping;
		o->fields[6] = (u32)pkt->tstamp;
		o->fields[7] = pkt->qdisc_cb.tc_classid;
	}
	o->maps_len = o->rb_len = 0;
	dump_maps(o);
}

static u32 type_index(enum bpf_prog_type type)
{
	return type == BPF_PROG_TYPE_XDP ? 0 : type == BPF_PROG_TYPE_SCHED_CLS ? 1 : 2;
}

/*
 * Fill the native stack below the caller with byte: the run that follows (the interpreter's
 * stack array, the JIT's frames) starts from those bytes, so that a program that reads stack
 * it never wrote (privileged programs may) reads the same in every engine, and two runs with
 * different bytes show whether its results depend on it. Not instrumented: AddressSanitizer
 * would put the area in a frame of its own, redzones between, away from what it must cover.
 */
static __attribute__((noinline, no_sanitize_address)) void stack_fill(u8 byte)
{
	/* 0: a different byte at every place, so that garbage read twice cannot cancel out */
	static u64 varied[32768 / 8];
	volatile u64 area[32768 / 8];
	u64 word = byte * 0x0101010101010101ull;

	if (!varied[0])
		for (u32 i = 0; i < sizeof(varied); i++)
			((u8 *)varied)[i] = (u8)(i * 13 + 7);
	/* a word at a time: four fills per program, byte stores were a twentieth of the run */
	for (u32 i = 0; i < ARRAY_SIZE(area); i++)
		area[i] = byte ? word : varied[i];
	__asm__ volatile("" : : "r"(area) : "memory");
}

/* One run of prog on the environment; the interpreter's run is poisoned. */
static int run_once(struct nb_prog *prog, enum bpf_prog_type type, const u8 *env,
		    size_t env_len, bool interp, u8 fill, struct outcome *o)
{
	struct nb_map *prog_array = prog_arrays[type_index(type)][!interp];
	struct env e = { .p = env, .len = env_len };
	struct sr_pkt p;
	u32 slot = 0, id = nb_prog_id(prog);
	const void *ctx;
	u64 r0;
	int err;

	err = pkt_make(&p, type, &e);
	if (err)
		return err;
	fill_maps(&e);
	/* the program tail-calls itself through slot 0, on the engine under test */
	err = nb_map_update_elem(prog_array, &slot, &id, BPF_ANY);
	if (err) {
		nb_pkt_free(p.pkt);
		return err;
	}
	ctx = type == BPF_PROG_TYPE_XDP ? (const void *)&p.xdp : (const void *)p.pkt;
	if (interp) {
		poison_map_padding(true);
		pkt_poison(&p);
		poisoned = &p;
	}
	/* the read-side section first: its calls would leave their own bytes where the fill was */
	nb_epoch_read_lock();
	stack_fill(fill);
	r0 = nb_prog_run_locked(prog, ctx);
	nb_epoch_read_unlock();
	if (interp) {
		poisoned = NULL;
		pkt_unpoison(&p);
		poison_map_padding(false);
	}
	nb_map_delete_elem(prog_array, &slot);
	outcome_take(o, &p, r0);
	rb_out = o;
	nb_ringbuf_consume(rb_consumer);
	rb_out = NULL;
	nb_pkt_free(p.pkt);
	return 0;
}

static int load(enum bpf_prog_type type, const struct bpf_insn *insns, u32 cnt,
		unsigned int flags, struct nb_log *log, struct nb_prog **progp)
{
	bool interp = flags & NB_PROG_LOAD_INTERP;
	struct nb_map *table[SR_NMAPS];
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = log, .maps = table,
		.map_cnt = SR_NMAPS, .flags = flags,
	};

	memcpy(table, maps, sizeof(table));
	table[SR_PROG_ARRAY_MAP] = prog_arrays[type_index(type)][!interp];
	return nb_prog_load(type, insns, cnt, &opts, progp);
}

bool sr_input_split(const u8 *data, size_t size, struct sr_input *in)
{
	static const enum bpf_prog_type types[] = {
		BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_SCHED_CLS,
		BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_CLS,
		BPF_PROG_TYPE_SOCKET_FILTER,
	};

	if (size < 2)
		return false;
	in->type = types[data[0] % ARRAY_SIZE(types)];
	in->env_len = (size_t)data[1] * 2;
	if (in->env_len > size - 2)
		in->env_len = size - 2;
	in->choices = data + 2;
	in->choices_len = size - 2 - in->env_len;
	in->env = data + size - in->env_len;
	return true;
}

/* The last line of the verifier's log: its reason. */
static void last_line(const char *log, char *out, size_t size)
{
	const char *end, *start;

	if (!log || !*log) {
		snprintf(out, size, "(no message)");
		return;
	}
	end = log + strlen(log);
	while (end > log && end[-1] == '\n')
		end--;
	start = end;
	while (start > log && start[-1] != '\n')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

static const char *first_difference(const struct outcome *a, const struct outcome *b)
{
	if (a->r0 != b->r0)
		return "r0";
	if (a->pkt_off != b->pkt_off || a->pkt_len != b->pkt_len || a->meta_len != b->meta_len)
		return "packet layout";
	for (u32 i = 0; i < a->meta_len + a->pkt_len; i++) {
		static char msg[64];

		if (a->pkt[i] == b->pkt[i])
			continue;
		snprintf(msg, sizeof(msg), "packet byte %u (0x%02x and 0x%02x)", i, a->pkt[i],
			 b->pkt[i]);
		return msg;
	}
	if (memcmp(a->fields, b->fields, sizeof(a->fields)))
		return "packet fields";
	if (a->maps_len != b->maps_len || memcmp(a->maps, b->maps, a->maps_len))
		return "map contents";
	if (a->rb_len != b->rb_len || memcmp(a->rb, b->rb, a->rb_len))
		return "ringbuf records";
	return NULL;
}

/*
 * Whether the engines' results may be compared: a program that may read stack it never wrote
 * (privileged loaders may; the verifier then calls the bytes an unknown scalar) reads whatever
 * was there, in the JIT the native frames of helpers it called before, which no fill reaches.
 * The verifier refuses such reads for a loader without CAP_PERFMON: a program it accepts
 * that way too reads only stack it wrote. The first load (NB_PROG_LOAD_NOTE_UNINIT_STACK)
 * already says whether its walk would differ without them; only then is it walked again.
 */
static enum sr_compare may_compare(const struct nb_prog *pi, const struct bpf_insn *insns,
				   u32 cnt, char *why, size_t why_size)
{
	struct nb_log log = { 0 };
	struct nb_prog *prog;
	int err;

	if (!pi->uninit_stack_used)
		return SR_COMPARED;
	err = load(pi->type, insns, cnt, NB_PROG_LOAD_INTERP | NB_PROG_LOAD_NO_UNINIT_STACK, &log,
		   &prog);
	if (err)
		last_line(nb_log_text(&log), why, why_size);
	nb_log_free(&log);
	nb_prog_put(prog);
	return err ? SR_UNINIT_STACK : SR_COMPARED;
}

void sr_run(enum bpf_prog_type type, const struct bpf_insn *insns, u32 cnt,
	    const struct sr_opts *opts, const u8 *env, size_t env_len, struct sr_result *res)
{
	static struct outcome oi, oi2, oj;
	/*
	 * The fills of the interpreter's second and third runs: every bit of the first's flipped,
	 * then a different byte at every place. A program that reads only stack it wrote can
	 * still read bytes a helper was given to write and left as they were (bpf_xdp_load_bytes
	 * failing): results that all three runs agree on are the engines' to agree on.
	 */
	static const u8 other_fills[] = { 0x5a, 0 };
	struct nb_log log = { 0 };
	struct nb_prog *pi = NULL, *pj = NULL;
	const char *diff;
	int err;

	memset(res, 0, sizeof(*res));
	err = setup() ?: maps_create();
	if (err) {
		res->verdict = SR_MISMATCH;
		snprintf(res->why, sizeof(res->why), "set-up failed: %d", err);
		return;
	}
	err = load(type, insns, cnt, NB_PROG_LOAD_INTERP | NB_PROG_LOAD_NOTE_UNINIT_STACK, &log,
		   &pi);
	if (err) {
		res->verdict = SR_REJECTED;
		last_line(nb_log_text(&log), res->why, sizeof(res->why));
		goto out;
	}
	nb_log_free(&log);
	res->verdict = SR_RAN;
	res->compare = opts->compare ? may_compare(pi, insns, cnt, res->why, sizeof(res->why))
				     : SR_NOT_ASKED;
	if (opts->tamper)
		opts->tamper(pi, opts->arg);
	if (!wrap_helpers(pi)) {
		snprintf(res->why, sizeof(res->why), "not run: more helpers than thunks");
		goto out;
	}
	err = run_once(pi, type, env, env_len, true, 0xa5, &oi);
	for (u32 i = 0; !err && res->compare == SR_COMPARED && i < ARRAY_SIZE(other_fills); i++) {
		err = run_once(pi, type, env, env_len, true, other_fills[i], &oi2);
		if (!err && first_difference(&oi, &oi2))
			res->compare = SR_FILLS_DIFFER;
	}
	if (err) {
		res->verdict = SR_MISMATCH;
		snprintf(res->why, sizeof(res->why), "the interpreter's run failed: %d", err);
		goto out;
	}
	res->r0 = oi.r0;
	err = load(type, insns, cnt, 0, &log, &pj);
	if (err) {
		res->verdict = SR_MISMATCH;
		snprintf(res->why, sizeof(res->why), "accepted for the interpreter only: %d", err);
		goto out;
	}
	if (!nb_prog_is_jited(pj)) {
		if (res->compare == SR_COMPARED)
			res->compare = SR_NO_JIT;
		goto out;
	}
	err = run_once(pj, type, env, env_len, false, 0xa5, &oj);
	if (err) {
		res->verdict = SR_MISMATCH;
		snprintf(res->why, sizeof(res->why), "the JIT's run failed: %d", err);
		goto out;
	}
	diff = res->compare == SR_COMPARED ? first_difference(&oi, &oj) : NULL;
	if (diff) {
		res->verdict = SR_MISMATCH;
		snprintf(res->why, sizeof(res->why),
			 "interpreter and JIT differ in %s (r0 0x%llx and 0x%llx)", diff,
			 (unsigned long long)oi.r0, (unsigned long long)oj.r0);
	}
out:
	nb_log_free(&log);
	nb_prog_put(pi);
	nb_prog_put(pj);
	maps_destroy();
}
