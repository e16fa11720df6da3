// SPDX-License-Identifier: GPL-2.0
/* The public device API (<netbpf/dev.h>) as a library user sees it: only its calls are used. */
#include <errno.h>
#include <netbpf/dev.h>

#include "test.h"

NB_TEST(dev_api_link_words)
{
	struct nb_dev *gen, *a, *b, *x;
	struct nb_dev_stats_total st;
	struct nb_dev_port_stats ps;
	struct nb_log log = { 0 };
	char text[128];
	const __u8 mac[6] = { 0x02, 1, 2, 3, 4, 5 };

	NB_ASSERT_EQ(nb_dev_create("gen0", 0, &gen, &log), 0);
	NB_ASSERT_EQ(nb_dev_attach_port(gen, "gen", "count 1000 pkt_size 64", &log), 0);
	nb_dev_port_describe(gen, text, sizeof(text));
	NB_ASSERT_STR_CONTAINS(text, "gen count 1000");
	NB_ASSERT_EQ(nb_dev_port_stats(gen, NB_DEV_PORT_ALL_QUEUES, &ps), 0);
	NB_ASSERT_EQ(ps.rx_packets, 0);
	NB_ASSERT_EQ(nb_dev_port_stats(gen, 1, &ps), -ENOENT);
	NB_ASSERT_EQ(nb_dev_attach_port(gen, "warp", "", &log), -EOPNOTSUPP);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "warp");
	NB_ASSERT_EQ(nb_dev_attach_port(gen, "gen", "pkt_size 7", &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "pkt_size");
	nb_dev_port_describe(gen, text, sizeof(text));	/* the old port stays */
	NB_ASSERT_STR_CONTAINS(text, "gen count 1000");

	NB_ASSERT_EQ(nb_dev_create("a", 0, &a, &log), 0);
	NB_ASSERT_EQ(nb_dev_create("b", 0, &b, &log), 0);
	NB_ASSERT_EQ(nb_dev_pipe_pair(a, b, &log), 0);
	nb_dev_port_describe(b, text, sizeof(text));
	NB_ASSERT_STR_CONTAINS(text, "pipe peer a");
	NB_ASSERT_EQ(nb_dev_pipe_pair(a, gen, &log), -EBUSY);
	NB_ASSERT_EQ(nb_dev_attach_port(a, "sink", "", &log), 0);	/* a leaves the pair */
	nb_dev_port_describe(b, text, sizeof(text));
	NB_ASSERT_STR_CONTAINS(text, "pipe unconnected");

	NB_ASSERT_EQ(nb_dev_ifindex(gen), 1);
	NB_ASSERT_STR_CONTAINS(nb_dev_name(b), "b");
	NB_ASSERT(!nb_dev_is_up(gen));
	NB_ASSERT_EQ(nb_dev_set_up(gen, true), 0);
	NB_ASSERT(nb_dev_is_up(gen));
	NB_ASSERT_EQ(nb_dev_set_mtu(gen, 1400, &log), 0);
	NB_ASSERT_EQ(nb_dev_mtu(gen), 1400);
	nb_dev_set_addr(gen, mac);
	NB_ASSERT_MEM_EQ(nb_dev_addr(gen), mac, 6);
	x = nb_dev_get_by_name("gen0");
	NB_ASSERT_EQ(x, gen);
	nb_dev_put(x);
	nb_dev_stats_read(gen, &st);
	NB_ASSERT_EQ(st.rx_packets, 0);
	NB_ASSERT_STR_CONTAINS(nb_drop_reason_name(NB_DROP_XDP), "xdp");
	nb_log_free(&log);
	nb_dev_destroy_all();
}
