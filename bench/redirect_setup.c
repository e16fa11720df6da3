// SPDX-License-Identifier: GPL-2.0
/* Devices and the far-end counter of the redirect benches (redirect_setup.h). */
#include <stdio.h>
#include <stdlib.h>

#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/xdp.h>

#include "kernel_baseline.h"
#include "redirect_setup.h"

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "redirect bench set-up: %s failed\n", what);
	exit(1);
}

struct nb_dev *nb_bench_dev(const char *name, const char *kind)
{
	struct nb_dev *dev;

	if (nb_dev_create(name, 0, &dev, NULL))
		die("device");
	if (kind && nb_dev_attach_port(dev, kind, "", NULL))
		die("port");
	nb_dev_set_up(dev, true);
	return dev;
}

void nb_bench_pipe_pair(struct nb_dev *a, struct nb_dev *b)
{
	if (nb_dev_pipe_pair(a, b, NULL))
		die("pipe pair");
}

struct nb_map *nb_bench_counter_attach(struct nb_dev *dev)
{
	struct nb_map_create_opts mopts = { .sz = sizeof(mopts) };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };
	struct bpf_insn insns[NB_KB_MAX_INSNS];
	struct nb_prog *prog;
	struct nb_map *map;
	unsigned int cnt;

	if (nb_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, &mopts, &map))
		die("counter map");
	cnt = nb_kb_prog_count(insns, nb_map_id(map), XDP_DROP);
	if (nb_prog_load(BPF_PROG_TYPE_XDP, insns, cnt, &opts, &prog))
		die("counter load");
	if (nb_dev_xdp_attach(dev, prog, 0, NULL))
		die("counter attach");
	nb_prog_put(prog);
	return map;
}

u64 nb_bench_counter_read(struct nb_map *map)
{
	u64 vals[nb_nr_cpus()], sum = 0;
	u32 key = 0;

	if (nb_map_lookup_elem(map, &key, vals))
		die("counter read");
	for (unsigned int i = 0; i < nb_nr_cpus(); i++)
		sum += vals[i];
	return sum;
}
