// SPDX-License-Identifier: GPL-2.0
/*
 * A datapath built on libnetbpf alone: a generator device whose tc ingress runs
 * count_redirect.bpf.o, which counts each frame in a map and redirects it to a sink device.
 *
 *   cc embed.c $(pkg-config --cflags --libs netbpf) -o embed
 *   ./embed count_redirect.bpf.o 1000
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <netbpf/netbpf.h>

struct totals {
	__u64 packets;
	__u64 bytes;
};

static int fail(const char *what, int err, struct nb_log *log)
{
	fprintf(stderr, "embed: %s: error %d: %s\n", what, err, nb_log_text(log));
	return 1;
}

int main(int argc, char **argv)
{
	struct nb_log log = { 0 };
	NB_OPTS(nb_object_open_opts, open, .log = &log);
	NB_OPTS(nb_object_load_opts, load, .log = &log);
	NB_OPTS(nb_datapath_opts, dpo, .workers = 1, .log = &log);
	NB_OPTS(nb_tc_bpf_opts, bpf, .direct_action = true);
	NB_OPTS(nb_tc_filter_opts, filter, .kind = "bpf", .kind_opts = &bpf, .log = &log);
	struct nb_object_prog *prog;
	struct nb_dev *gen, *sink;
	struct nb_dev_stats_total sink_stats;
	struct nb_datapath_progress progress;
	struct nb_datapath *dp;
	struct nb_object *obj;
	struct totals t;
	char words[64];
	__u32 key = 0, out;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: embed OBJECT COUNT\n");
		return 2;
	}
	snprintf(words, sizeof(words), "count %s pkt_size 64", argv[2]);
	if ((err = nb_dev_create("gen0", 0, &gen, &log)) ||
	    (err = nb_dev_attach_port(gen, "gen", words, &log)) ||
	    (err = nb_dev_create("sink0", 0, &sink, &log)) ||
	    (err = nb_dev_attach_port(sink, "sink", "", &log)))
		return fail("devices", err, &log);

	/* Open, set the program's constant, load: libbpf's open/load split. */
	out = nb_dev_ifindex(sink);
	if ((err = nb_object_open_file(argv[1], &open, &obj)) ||
	    (err = nb_object_set_rodata(obj, "out_ifindex", &out, sizeof(out))) ||
	    (err = nb_object_load(obj, &load)))
		return fail(argv[1], err, &log);

	/* tc qdisc add dev gen0 clsact; tc filter add dev gen0 ingress bpf da ... */
	prog = nb_object_find_prog(obj, "tc", NULL);
	if (!prog)
		return fail("no section tc", -2, &log);
	filter.hook = NB_TC_INGRESS;
	bpf.prog = nb_object_prog_prog(prog);
	if ((err = nb_tc_qdisc_add(gen, NB_TC_QDISC_CLSACT, &log)) ||
	    (err = nb_tc_filter_add(gen, &filter, NULL)))
		return fail("tc", err, &log);

	/* Bring the devices up, let one worker run until the generator made its frames, drain. */
	nb_dev_set_up(gen, true);
	nb_dev_set_up(sink, true);
	if ((err = nb_datapath_create(&dpo, &dp)) || (err = nb_datapath_start(dp)))
		return fail("datapath", err, &log);
	for (int ms = 0; ms < 10000; ms++) {
		nb_datapath_progress(dp, &progress);
		if (progress.generators_done)
			break;
		usleep(1000);
	}
	if ((err = nb_datapath_drain(dp, 10000)))
		return fail("drain", err, &log);
	nb_datapath_destroy(dp);

	/* Read the program's map and the sink's counters. */
	err = nb_map_lookup_elem(nb_object_map_map(nb_object_find_map(obj, "totals")), &key, &t);
	if (err)
		return fail("map lookup", err, &log);
	nb_dev_stats_read(sink, &sink_stats);
	printf("counted %llu packets %llu bytes, sink sent %llu packets\n",
	       (unsigned long long)t.packets, (unsigned long long)t.bytes,
	       (unsigned long long)sink_stats.tx_packets);

	nb_object_close(obj);
	nb_dev_destroy_all();
	nb_log_free(&log);
	return t.packets == sink_stats.tx_packets ? 0 : 1;
}
