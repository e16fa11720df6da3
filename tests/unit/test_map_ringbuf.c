// SPDX-License-Identifier: GPL-2.0
/* Ring buffers: attributes, reserve/submit/discard/output/query from programs, the consumer. */
#include <netbpf/ringbuf.h>

#include "map_test.h"

NB_TEST(map_ringbuf_attrs)
{
	struct nb_log log = { 0 };
	struct nb_map *map;
	__u32 key = 0, value = 0;

	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_RINGBUF, 4, 0, 4096, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "key_size 0 and value_size 0");
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_RINGBUF, 0, 0, 1000, 0, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "power of 2");
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_RINGBUF, 0, 0, 3 * 4096, 0, &log), -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_RINGBUF, 0, 0, 2048, 0, &log), -EINVAL);
	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, BPF_F_NO_PREALLOC, &log),
		     -EINVAL);
	map = mt_map(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0);
	/* A key for a map without keys is refused first (bpf(2)'s key copy), then the command. */
	NB_ASSERT_EQ(nb_map_lookup_elem(map, &key, &value), -EINVAL);
	NB_ASSERT_EQ(nb_map_lookup_elem(map, NULL, &value), -EOPNOTSUPP);
	NB_ASSERT_EQ(nb_map_update_elem(map, NULL, &value, 0), -EOPNOTSUPP);
	NB_ASSERT_EQ(nb_map_delete_elem(map, NULL), -EOPNOTSUPP);
	NB_ASSERT_EQ(nb_map_get_next_key(map, NULL, &key), -EOPNOTSUPP);
	NB_ASSERT_EQ(nb_map_get_next_key(map, &key, &key), -EINVAL);
	nb_map_put(map);
	nb_log_free(&log);
}

struct seen {
	int n;
	size_t size[16];
	__u64 first[16];
	int stop_at;
};

static int on_sample(void *ctx, void *data, size_t size)
{
	struct seen *s = ctx;

	if (s->n == s->stop_at)
		return -42;
	s->size[s->n] = size;
	memcpy(&s->first[s->n], data, size < 8 ? size : 8);
	s->n++;
	return 0;
}

/*
 * reserve(16) = {0x11, 0x22}, submit; reserve(8), discard; output(8 bytes of 0x33);
 * r0 = avail data.
 */
static __u64 prog_produce(struct nb_map *map)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_2, 16),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_reserve),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 27),
		NB_ST_MEM(BPF_DW, BPF_REG_0, 0, 0x11),
		NB_ST_MEM(BPF_DW, BPF_REG_0, 8, 0x22),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_0),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_submit),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_2, 8),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_reserve),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 16),
		NB_MOV64_REG(BPF_REG_1, BPF_REG_0),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_discard),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0x33),
		MT_STACK_PTR(BPF_REG_2, -8),
		NB_MOV64_IMM(BPF_REG_3, 8),
		NB_MOV64_IMM(BPF_REG_4, 0),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_output),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 6),
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_2, BPF_RB_AVAIL_DATA),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_query),
		NB_EXIT(),
		NB_MOV64_IMM(BPF_REG_0, -1),
		NB_EXIT());
}

NB_TEST(map_ringbuf_produce_consume)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0);
	struct nb_ringbuf_consumer *c;
	struct seen s = { .stop_at = -1 };

	NB_ASSERT_EQ(nb_ringbuf_consumer_new(map, on_sample, &s, &c), 0);
	/* Records: 8 + 16, 8 + 8 (discarded), 8 + 8. */
	NB_ASSERT_EQ(prog_produce(map), 24 + 16 + 16);
	NB_ASSERT_EQ(nb_ringbuf_consume(c), 2);
	NB_ASSERT_EQ(s.n, 2);
	NB_ASSERT_EQ(s.size[0], 16);
	NB_ASSERT_EQ(s.first[0], 0x11);
	NB_ASSERT_EQ(s.size[1], 8);
	NB_ASSERT_EQ(s.first[1], 0x33);
	NB_ASSERT_EQ(nb_ringbuf_consume(c), 0);
	/* The consumer caught up, so the producer woke it: poll returns at once. */
	NB_ASSERT_EQ(prog_produce(map), 56);
	NB_ASSERT_EQ(nb_ringbuf_poll(c, 1000), 2);
	NB_ASSERT_EQ(nb_ringbuf_poll(c, 0), 0);
	NB_ASSERT(nb_ringbuf_consumer_fd(c) >= 0);
	nb_ringbuf_consumer_free(c);
	nb_map_put(map);
}

/* output(1000 bytes) until the ring refuses; r0 = the number that fit. */
NB_TEST(map_ringbuf_full_and_wrap)
{
	struct nb_map *map = mt_map(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0);
	struct nb_ringbuf_consumer *c, *second;
	struct seen s = { .stop_at = -1 };
	const struct bpf_insn insns[] = {
		NB_MOV64_IMM(BPF_REG_6, 0),
		/* loop: */
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -512),
		NB_MOV64_IMM(BPF_REG_3, 500),
		NB_MOV64_IMM(BPF_REG_4, 0),
		NB_CALL_HELPER(BPF_FUNC_ringbuf_output),
		NB_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_6, 1),
		NB_JA(-10),
		NB_MOV32_REG(BPF_REG_7, BPF_REG_0),
		NB_MOV64_REG(BPF_REG_0, BPF_REG_6),
		NB_ALU64_IMM(BPF_LSH, BPF_REG_0, 32),
		NB_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_7),
		NB_EXIT(),
	};
	struct nb_prog *prog = mt_load(insns, ARRAY_SIZE(insns));
	__u64 r0;

	NB_ASSERT_EQ(nb_ringbuf_consumer_new(map, on_sample, &s, &c), 0);
	NB_ASSERT_EQ(nb_ringbuf_consumer_new(map, on_sample, &s, &second), -EBUSY);
	/*
	 * 512-byte records (500 + header, rounded to 8): the producer never fills the last byte,
	 * so 7 fit in 4096 and the 8th gets -EAGAIN, as in the kernel.
	 */
	r0 = nb_prog_run(prog, NULL);
	NB_ASSERT_EQ(r0 >> 32, 7);
	NB_ASSERT_EQ((__u32)r0, (__u32)-EAGAIN);
	/*
	 * The callback refuses the 4th record: as with libbpf, that record is consumed too. Four
	 * slots free up, and the next records wrap around the end of the ring.
	 */
	s.stop_at = 3;
	NB_ASSERT_EQ(nb_ringbuf_consume(c), -42);
	NB_ASSERT_EQ(s.n, 3);
	r0 = nb_prog_run(prog, NULL);
	NB_ASSERT_EQ(r0 >> 32, 4);
	s.stop_at = -1;
	s.n = 0;
	NB_ASSERT_EQ(nb_ringbuf_consume(c), 7 - 4 + 4);
	NB_ASSERT_EQ(s.size[6], 500);
	NB_ASSERT_EQ(nb_ringbuf_consume(c), 0);
	nb_ringbuf_consumer_free(c);
	nb_prog_put(prog);
	nb_map_put(map);
}
