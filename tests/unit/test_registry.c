// SPDX-License-Identifier: GPL-2.0
/*
 * The registries of the library's kinds: a second registration of a type or name is refused
 * with -EEXIST and leaves the first in place, and there is no cap on how many kinds register.
 * Each test runs in its own process, so the kinds added here go no further.
 */
#include <errno.h>
#include <stdio.h>

#include "bpf/helper_proto.h"
#include "bpf/map.h"
#include "bpf/prog_type.h"
#include "io/port.h"
#include "net/tc/pkt_cls.h"
#include "net/tunnel.h"
#include "test.h"

NB_TEST(registry_map_type_duplicate)
{
	static const struct nb_map_ops second_array = { .type = BPF_MAP_TYPE_ARRAY, .name = "x" };
	static const struct nb_map_ops beyond = { .type = 1000, .name = "beyond" };

	NB_ASSERT_EQ(nb_map_type_register(&second_array), -EEXIST);
	NB_ASSERT_EQ(strcmp(nb_map_type_ops(BPF_MAP_TYPE_ARRAY)->name, "array"), 0);
	NB_ASSERT_EQ(nb_map_type_register(&beyond), -EINVAL);
}

NB_TEST(registry_prog_type_duplicate)
{
	static const struct nb_prog_type_ops second_xdp = { .type = BPF_PROG_TYPE_XDP, .name = "x" };

	NB_ASSERT_EQ(nb_prog_type_register(&second_xdp), -EEXIST);
	NB_ASSERT_EQ(strcmp(nb_prog_type_ops(BPF_PROG_TYPE_XDP)->name, "xdp"), 0);
}

NB_TEST(registry_port_kinds_unlimited)
{
	static const struct nb_port_ops second_gen = { .kind = "gen" };
	static struct nb_port_ops kinds[40];
	static char names[40][16];
	const struct nb_port_ops *gen = nb_port_ops_find("gen");

	NB_ASSERT(gen);
	NB_ASSERT_EQ(nb_port_register(&second_gen), -EEXIST);
	NB_ASSERT(nb_port_ops_find("gen") == gen);
	for (unsigned int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "test%u", i);
		kinds[i].kind = names[i];
		NB_ASSERT_EQ(nb_port_register(&kinds[i]), 0);
	}
	for (unsigned int i = 0; i < 40; i++)
		NB_ASSERT(nb_port_ops_find(names[i]) == &kinds[i]);
	NB_ASSERT(nb_port_ops_find("sink"));
}

NB_TEST(registry_classifier_duplicate)
{
	static struct nb_tcf_proto_ops second_u32 = { .kind = "u32" };

	NB_ASSERT_EQ(nb_tcf_proto_register(&second_u32), -EEXIST);
}

NB_TEST(registry_action_kinds_unlimited)
{
	static struct nb_tc_action_ops second_gact = { .kind = "gact" };
	static struct nb_tc_action_ops kinds[20];
	static char names[20][16];
	const char *const *k, *prev = "";
	unsigned int n = 0, ours = 0;

	NB_ASSERT_EQ(nb_tc_action_register(&second_gact), -EEXIST);
	for (unsigned int i = 0; i < 20; i++) {
		snprintf(names[i], sizeof(names[i]), "test%02u", 19 - i);
		kinds[i].kind = names[i];
		NB_ASSERT_EQ(nb_tc_action_register(&kinds[i]), 0);
	}
	/* every kind, once, in name order */
	for (k = nb_tc_action_kinds(); *k; k++, n++) {
		NB_ASSERT(strcmp(prev, *k) < 0);
		ours += !strncmp(*k, "test", 4);
		prev = *k;
	}
	NB_ASSERT_EQ(ours, 20);
	NB_ASSERT_EQ(n, 23);	/* bpf, gact, mirred */
}

NB_TEST(registry_tunnel_duplicate)
{
	static struct nb_tunnel_ops second_vxlan = { .kind = "vxlan" };

	NB_ASSERT_EQ(nb_tunnel_ops_register(&second_vxlan), -EEXIST);
}

static u64 internal_func(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return 0;
}

NB_TEST(registry_internal_func_duplicate)
{
	static struct nb_internal_func same_name = {
		.fn = internal_func, .name = "__htab_map_lookup_elem",
	};
	static struct nb_internal_func fresh = { .fn = internal_func, .name = "test_func" };

	NB_ASSERT_EQ(nb_internal_func_register(&same_name), -EEXIST);
	NB_ASSERT_EQ(nb_internal_func_register(&fresh), 0);
	NB_ASSERT_EQ(nb_internal_func_register(&fresh), -EEXIST);
	NB_ASSERT_EQ(strcmp(nb_internal_func_name(internal_func), "test_func"), 0);
}
