// SPDX-License-Identifier: GPL-2.0
/* Perf event arrays: attributes, bpf_perf_event_output to the map's consumer. */
#include <netbpf/perf_event.h>

#include "map_test.h"

struct got {
	int n;
	__u32 index, size;
	__u64 data;
};

static void on_event(void *ctx, __u32 index, const void *data, __u32 size)
{
	struct got *g = ctx;

	g->n++;
	g->index = index;
	g->size = size;
	memcpy(&g->data, data, size < 8 ? size : 8);
}

static __u64 prog_output(struct nb_map *map, __s32 flags_lo)
{
	return MT_RUN(NULL,
		NB_LD_MAP_ID(BPF_REG_2, nb_map_id(map)),
		NB_LD_IMM64(BPF_REG_3, (__u64)(__u32)flags_lo),
		NB_ST_MEM(BPF_DW, BPF_REG_10, -8, 0x5151),
		MT_STACK_PTR(BPF_REG_4, -8),
		NB_MOV64_IMM(BPF_REG_5, 8),
		NB_CALL_HELPER(BPF_FUNC_perf_event_output),
		NB_EXIT());
}

NB_TEST(map_perf_event_output)
{
	struct nb_map *map;
	struct got g = { 0 };
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(mt_map_err(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 8, 4, 0, &log), -EINVAL);
	NB_ASSERT_EQ(nb_set_nr_cpus(4), 0);
	map = mt_map(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 4, 0);
	NB_ASSERT_EQ(prog_output(map, (__s32)BPF_F_CURRENT_CPU), (__u64)-ENOENT);
	NB_ASSERT_EQ(nb_perf_event_array_set_consumer(map, on_event, &g), 0);
	NB_ASSERT_EQ(nb_set_this_cpu(2), 0);
	NB_ASSERT_EQ(prog_output(map, (__s32)BPF_F_CURRENT_CPU), 0);
	NB_ASSERT_EQ(g.n, 1);
	NB_ASSERT_EQ(g.index, 2);
	NB_ASSERT_EQ(g.size, 8);
	NB_ASSERT_EQ(g.data, 0x5151);
	NB_ASSERT_EQ(prog_output(map, 1), 0);
	NB_ASSERT_EQ(g.index, 1);
	NB_ASSERT_EQ(prog_output(map, 4), (__u64)-E2BIG);
	NB_ASSERT_EQ(nb_perf_event_array_set_consumer(map, NULL, NULL), 0);
	NB_ASSERT_EQ(prog_output(map, 0), (__u64)-ENOENT);
	NB_ASSERT_EQ(g.n, 2);
	nb_map_put(map);
	nb_log_free(&log);
}
