// SPDX-License-Identifier: GPL-2.0
/*
 * Options structs by libbpf's rules (include/netbpf/opts.h), through the public calls: an sz
 * too small is refused, a longer struct is taken when its extra bytes are zero and refused when
 * they are not, NULL is the defaults, and a caller compiled with an older, shorter struct gets
 * the defaults of the fields it does not have.
 */
#include <errno.h>
#include <string.h>

#include <netbpf/netbpf.h>

#include "test.h"

/* A caller compiled against a newer library: its struct has one field more. */
struct newer_map_opts {
	struct nb_map_create_opts opts;
	__u64 future;
};

NB_TEST(opts_declare)
{
	NB_OPTS(nb_map_create_opts, o, .name = "declared", .map_flags = BPF_F_NO_PREALLOC);
	struct nb_map *map;

	NB_ASSERT_EQ(o.sz, sizeof(struct nb_map_create_opts));
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_HASH, 4, 4, 8, &o, &map), 0);
	NB_ASSERT_EQ(strcmp(nb_map_name(map), "declared"), 0);
	nb_map_put(map);
}

NB_TEST(opts_size_too_small)
{
	struct nb_log log = { 0 };
	struct nb_map_create_opts map_opts = { .name = "x" };
	struct nb_datapath_opts dp_opts = { .log = &log };
	struct nb_datapath *dp;
	struct nb_map *map;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &map_opts, &map), -EINVAL);
	NB_ASSERT_EQ(nb_datapath_create(&dp_opts, &dp), -EINVAL);
	/* the log is beyond an sz of 0: the reason goes nowhere */
	NB_ASSERT_EQ(nb_log_text(&log)[0], '\0');
	dp_opts.sz = offsetof(struct nb_datapath_opts, log);
	NB_ASSERT_EQ(nb_datapath_create(&dp_opts, &dp), -EINVAL);
	nb_log_free(&log);
}

NB_TEST(opts_unknown_tail)
{
	struct nb_log log = { 0 };
	struct newer_map_opts n = { .opts = { .sz = sizeof(n), .name = "newer", .log = &log } };
	struct nb_map *map;

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &n.opts, &map), 0);
	nb_map_put(map);
	n.future = 1;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, &n.opts, &map), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "struct nb_map_create_opts: byte");
	nb_log_free(&log);
}

NB_TEST(opts_null_is_defaults)
{
	struct nb_map *map;
	struct nb_object *obj;
	char path[256];

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, NULL, &map), 0);
	nb_map_put(map);
	nb_test_build_path(path, sizeof(path), "examples/tc_tail_call.o");
	NB_ASSERT_EQ(nb_object_open_file(path, NULL, &obj), 0);
	nb_object_close(obj);
}

NB_TEST(opts_older_caller)
{
	/* a caller that knew only sz: the object's name is the default, from the file */
	struct nb_object_open_opts old = { .sz = sizeof(size_t), .name = "ignored" };
	struct nb_object_open_opts tail = { .sz = sizeof(old) + 1 };
	struct nb_object *obj;
	char path[256];

	nb_test_build_path(path, sizeof(path), "examples/tc_tail_call.o");
	NB_ASSERT_EQ(nb_object_open_file(path, &old, &obj), 0);
	NB_ASSERT_EQ(strcmp(nb_object_name(obj), "tc_tail_call.o"), 0);
	nb_object_close(obj);
	/* longer than the struct this library knows: the byte beyond it is read, and zero */
	{
		struct { struct nb_object_open_opts o; char extra; } t = { .o = tail, .extra = 0 };

		NB_ASSERT_EQ(nb_object_open_file(path, &t.o, &obj), 0);
		nb_object_close(obj);
		t.extra = 1;
		NB_ASSERT_EQ(nb_object_open_file(path, &t.o, &obj), -EINVAL);
	}
}

NB_TEST(opts_tc_filter_needs_size)
{
	struct nb_tc_filter_opts f = { .hook = NB_TC_INGRESS, .kind = "matchall" };
	struct nb_log log = { 0 };
	struct nb_dev *dev;

	NB_ASSERT_EQ(nb_dev_create("opts0", 0, &dev, &log), 0);
	NB_ASSERT_EQ(nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, &log), 0);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	f.sz = sizeof(f);
	f.log = &log;
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	nb_dev_destroy(dev);
	nb_log_free(&log);
}

/* An action list built against a newer library: each element one field longer. */
struct newer_action_opts {
	struct nb_tc_action_opts a;
	__u64 future;
};

NB_TEST(opts_tc_action_list_stride)
{
	struct newer_action_opts list[2] = {
		{ .a = { .sz = sizeof(list[0]), .kind = "gact", .control = TC_ACT_SHOT,
			 .has_control = true, .index = 901 } },
		{ .a = { .sz = sizeof(list[0]), .kind = "gact", .control = TC_ACT_PIPE,
			 .has_control = true, .index = 902 } },
	};
	struct nb_tc_action_info info;
	struct nb_log log = { 0 };
	__u32 idx[2];

	/* the second element is read at the caller's stride, not at this library's */
	NB_ASSERT_EQ(nb_tc_actions_add(&list[0].a, 2, false, idx, &log), 0);
	NB_ASSERT_EQ(idx[1], 902);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 902, &info, NULL), 0);
	NB_ASSERT_EQ(info.control, TC_ACT_PIPE);
	nb_tc_action_info_release(&info);
	NB_ASSERT_EQ(nb_tc_action_del("gact", 901, NULL), 0);
	NB_ASSERT_EQ(nb_tc_action_del("gact", 902, NULL), 0);

	/* a field this library does not know, set: refused, and nothing is made */
	list[1].future = 1;
	NB_ASSERT_EQ(nb_tc_actions_add(&list[0].a, 2, false, idx, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "struct nb_tc_action_opts: byte");
	NB_ASSERT_EQ(nb_tc_action_get("gact", 901, &info, NULL), -ENOENT);

	/* elements of two sizes, and an element without its size */
	list[1].future = 0;
	list[1].a.sz = sizeof(struct nb_tc_action_opts);
	NB_ASSERT_EQ(nb_tc_actions_add(&list[0].a, 2, false, idx, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "the list's is");
	list[0].a.sz = 0;
	NB_ASSERT_EQ(nb_tc_actions_add(&list[0].a, 1, false, idx, &log), -EINVAL);
	NB_ASSERT_EQ(nb_tc_action_get("gact", 901, &info, NULL), -ENOENT);
	nb_log_free(&log);
}

NB_TEST(opts_tc_filter_action_needs_size)
{
	struct nb_tc_action_opts act = { .kind = "gact", .control = TC_ACT_SHOT,
					 .has_control = true };
	struct nb_log log = { 0 };
	NB_OPTS(nb_tc_filter_opts, f, .hook = NB_TC_INGRESS, .kind = "matchall", .actions = &act,
		.action_cnt = 1, .log = &log);
	struct nb_dev *dev;

	NB_ASSERT_EQ(nb_dev_create("opts1", 0, &dev, &log), 0);
	NB_ASSERT_EQ(nb_tc_qdisc_add(dev, NB_TC_QDISC_CLSACT, &log), 0);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "action 1: struct nb_tc_action_opts: sz 0");
	act.sz = sizeof(act);
	NB_ASSERT_EQ(nb_tc_filter_add(dev, &f, NULL), 0);
	nb_dev_destroy(dev);
	nb_log_free(&log);
}
