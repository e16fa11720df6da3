// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf bench's kernel column: the same set-ups on the running kernel, with the same example
 * objects, each in a forked child in a network namespace of its own pinned to one CPU
 * (bench/kernel_baseline.c), rated by the child's CPU time as netbpf's workers are.
 *
 * - tc rows: veth c0/c1 (ifindexes 30/20) and b0/b1 (21/31), made with ip; the set-up's tc (or
 *   ip and bridge) lines on c1, so that tcbpf1.o's "skb->ifindex + 1" is b0; frames from an
 *   AF_PACKET transmit ring into c0 (qdisc bypassed: the veth's receive side runs in the
 *   sender's context, so its cost is in the child's CPU time), counted by an XDP program on
 *   b1. rx + drop has no program: c1 hands the frames (not for its address) to the stack,
 *   which drops them.
 * - XDP rows: the object loaded with libbpf and run by BPF_PROG_TEST_RUN with live frames on
 *   a1 (ifindex 20), redirects to b0 counted on b1, XDP_TX counted on a0.
 *
 * The kernel's source of frames (the injector, the live-frame loop) is part of its figures, as
 * netbpf's generator is part of netbpf's. A row the kernel cannot run says why.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/if_link.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cli/bench_kernel.h"
#include "../../bench/kernel_baseline.h"

#define KB_BATCH 64

const char bench_kernel_note[] =
	"the kernel column: the same set-ups and objects on the running kernel, one CPU, in a "
	"network namespace of its own; tc rows fed by an AF_PACKET ring into a veth, XDP rows by "
	"BPF_PROG_TEST_RUN live frames; Mpps per CPU second of the measuring process, best of "
	"the rounds";

enum kb_kind { KB_TC, KB_XDP };
enum kb_count { KB_COUNT_NONE, KB_COUNT_B1, KB_COUNT_A0 };

struct kb_setup {
	const char *setup;
	enum kb_kind kind;
	const char *lines[8];	/* tc rows: shell lines, %1$s the examples directory */
	const char *obj;	/* XDP rows: the object */
	enum kb_count count;
	const char *missing;
};

#define CLSACT "tc qdisc add dev c1 clsact"
/* netbpf's bridge has no netfilter: nor has the kernel's here (br_netfilter's hooks are off) */
#define BR_NO_NETFILTER "for f in /proc/sys/net/bridge/bridge-nf-call-*; do " \
	"[ -e $f ] && echo 0 > $f; done; true"
#define U32 "tc qdisc add dev c1 ingress", \
	"tc filter add dev c1 root pref 10 u32 match u32 0 0 flowid 1:2 action bpf " \
	"object-file %1$s/tcbpf1.o section "

static const struct kb_setup kb_setups[] = {
	{ "u32 + act_bpf + bpf_clone_redirect", KB_TC, { U32 "clone_redirect_xmit drop" }, NULL,
	  KB_COUNT_B1, NULL },
	{ "u32 + act_bpf + bpf_redirect", KB_TC, { U32 "redirect_xmit drop" }, NULL, KB_COUNT_B1,
	  NULL },
	{ "cls_bpf da + bpf_redirect", KB_TC,
	  { CLSACT, "tc filter add dev c1 ingress pref 10 bpf da obj %1$s/tcbpf1.o sec "
	    "redirect_xmit" }, NULL, KB_COUNT_B1, NULL },
	{ "Linux bridge", KB_TC,
	  { "ip link add br0 type bridge", BR_NO_NETFILTER, "ip link set dev c1 master br0",
	    "ip link set dev b0 master br0", "ip link set dev br0 up",
	    "bridge fdb add 02:00:00:00:00:02 dev b0 master static" }, NULL, KB_COUNT_B1, NULL },
	{ "rx + drop (no program: to the host side)", KB_TC, { NULL }, NULL, KB_COUNT_NONE,
	  NULL },
	{ "bpf_redirect, no bulking", KB_XDP, { NULL }, NULL, KB_COUNT_NONE,
	  "the kernel has no switch for its bulk queues (the seed's figure is the kernel before "
	  "them)" },
	{ "bpf_redirect, bulking", KB_XDP, { NULL }, "xdp_redirect_ifindex.o", KB_COUNT_B1, NULL },
	{ "bpf_redirect_map, bulking", KB_XDP, { NULL }, "xdp_redirect_map.o", KB_COUNT_B1, NULL },
	{ "XDP_DROP (xdp_drop_proto: count per protocol)", KB_XDP, { NULL }, "xdp_drop_proto.o",
	  KB_COUNT_NONE, NULL },
	{ "XDP_TX (xdp_swap_mac_tx)", KB_XDP, { NULL }, "xdp_swap_mac_tx.o", KB_COUNT_A0, NULL },
};

/*
 * 64 bytes to 02:00:00:00:00:02 from 02:00:00:00:00:01, IPv4/UDP 10.0.0.1 -> 10.0.0.2 with a
 * valid header checksum, as netbpf's generator makes them.
 */
static const __u8 frame[64] = {
	2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00,
	0x45, 0, 0, 50, 0, 0, 0, 0, 64, 17, 0x66, 0xb9, 10, 0, 0, 1, 10, 0, 0, 2,
	0x04, 0x00, 0x00, 0x09, 0, 30,
};

struct kb_arg {
	const struct kb_setup *k;
	const char *examples;
	unsigned int rounds;
	double window;
};

/* Run a shell line in the child's namespace; its first line of output is the reason. */
static int sh(struct nb_kb_result *res, const char *fmt, const char *examples)
{
	char cmd[512], out[200] = "";
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), fmt, examples);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	p = popen(cmd, "r");
	if (!p)
		return nb_kb_skip(res, "%s: %s", cmd, strerror(errno));
	if (!fgets(out, sizeof(out), p))
		out[0] = 0;
	while (fgetc(p) != EOF)
		;
	status = pclose(p);
	if (!status)
		return 0;
	out[strcspn(out, "\n")] = 0;
	/* the words that name what was asked for; the object's path adds nothing */
	cmd[strcspn(cmd, "/")] = 0;
	if (strlen(cmd) > 60)
		strcpy(cmd + 56, " ...");
	return nb_kb_skip(res, "`%s` failed: %s", cmd, out[0] ? out : "no output");
}

static int veths(struct nb_kb_result *res, const char *x, const char *y)
{
	static const char *const lines[] = {
		"ip link add %1$s1 index 20 type veth peer name %1$s0 index 30",
		"ip link add b0 index 21 type veth peer name b1 index 31",
	};
	char line[128];

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (sh(res, lines[i], x))
			return -1;
	for (int i = 0; i < 4; i++) {
		snprintf(line, sizeof(line), "ip link set dev %s%d up", i < 2 ? x : y, i % 2);
		if (sh(res, line, NULL))
			return -1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Keep the round if it is the fastest yet. */
static void keep_best(struct nb_kb_result *res, __u64 frames, __u64 arrived,
		      const struct nb_bench_clock *c)
{
	if (!res->frames || nb_bench_mpps(frames, c) > nb_bench_mpps(res->frames, &res->clk)) {
		res->frames = frames;
		res->arrived = arrived;
		res->clk = *c;
	}
}

static int kernel_tc(const struct kb_arg *arg, struct nb_kb_result *res)
{
	const struct kb_setup *k = arg->k;
	struct nb_kb_injector inj;
	int count_fd = -1;

	if (veths(res, "c", "b"))
		return -1;
	if (k->count == KB_COUNT_B1 && (count_fd = nb_kb_xdp_counter(res, 31)) < 0)
		return -1;
	for (int i = 0; i < 8 && k->lines[i]; i++)
		if (sh(res, k->lines[i], arg->examples))
			return -1;
	if (nb_kb_injector_open(res, &inj, NB_KB_INJECT_TX_RING, 30, frame, sizeof(frame)))
		return -1;
	for (int i = 0; i < 20; i++)	/* warm up */
		if (nb_kb_inject(res, &inj) < 0)
			goto out;
	for (unsigned int round = 0; round < arg->rounds; round++) {
		__u64 before = count_fd >= 0 ? nb_kb_counter_read(count_fd) : 0, frames = 0;
		double end = now() + arg->window;
		struct nb_bench_clock c;

		nb_bench_start(&c);
		while (now() < end) {
			if (nb_kb_inject(res, &inj) < 0)
				goto out;
			frames += NB_KB_INJECT_FRAMES;
		}
		nb_bench_stop(&c);
		keep_best(res, frames, count_fd >= 0 ? nb_kb_counter_read(count_fd) - before : 0,
			  &c);
	}
	res->counted = count_fd >= 0;
out:
	nb_kb_injector_close(&inj);
	return res->skip[0] ? -1 : 0;
}

/* The object, with the set-up's wiring: the rodata target or the devmap entry. */
static int xdp_load(const struct kb_arg *arg, struct nb_kb_result *res, struct bpf_object **objp)
{
	char path[512];
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	int err;

	snprintf(path, sizeof(path), "%s/%s", arg->examples, arg->k->obj);
	obj = bpf_object__open_file(path, NULL);
	if (!obj)
		return nb_kb_skip(res, "libbpf cannot open %s: %s", path, strerror(errno));
	*objp = obj;
	bpf_object__for_each_map(map, obj) {
		const void *init;
		size_t size;
		__u8 data[64];
		__u32 target = 21;

		/* xdp_redirect_ifindex.o's target_ifindex, its only constant: b0 */
		if (!strstr(bpf_map__name(map), ".rodata"))
			continue;
		init = bpf_map__initial_value(map, &size);
		if (!init || size < sizeof(target) || size > sizeof(data))
			continue;
		memcpy(data, init, size);
		memcpy(data, &target, sizeof(target));
		if (bpf_map__set_initial_value(map, data, size))
			return nb_kb_skip(res, "%s: cannot set target_ifindex", arg->k->obj);
	}
	err = bpf_object__load(obj);
	if (err)
		return nb_kb_skip(res, "the kernel refuses %s: %s", arg->k->obj, strerror(-err));
	map = bpf_object__find_map_by_name(obj, "tx_port");
	if (map) {	/* xdp_redirect_map.o: frames arriving on a1 go to b0 */
		__u32 key = 20, val[2] = { 21, 0 };

		if (bpf_map__value_size(map) > sizeof(val) ||
		    bpf_map_update_elem(bpf_map__fd(map), &key, val, BPF_ANY))
			return nb_kb_skip(res, "tx_port entry: %s", strerror(errno));
	}
	prog = bpf_object__next_program(obj, NULL);
	if (!prog)
		return nb_kb_skip(res, "%s has no program", arg->k->obj);
	return bpf_program__fd(prog);
}

static int kernel_xdp(const struct kb_arg *arg, struct nb_kb_result *res)
{
	const struct kb_setup *k = arg->k;
	struct xdp_md ctx = { .data_end = sizeof(frame), .ingress_ifindex = 20 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = sizeof(frame),
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 100000,
		    .batch_size = KB_BATCH, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);
	struct bpf_object *obj = NULL;
	struct nb_bench_clock c;
	int count_fd = -1, prog_fd;

	if (veths(res, "a", "b"))
		return -1;
	if (k->count != KB_COUNT_NONE &&
	    (count_fd = nb_kb_xdp_counter(res, k->count == KB_COUNT_B1 ? 31 : 30)) < 0)
		return -1;
	prog_fd = xdp_load(arg, res, &obj);
	if (prog_fd < 0)
		goto out;
	/* warm up, and a first rate that sizes the rounds to the window */
	nb_bench_start(&c);
	if (bpf_prog_test_run_opts(prog_fd, &opts)) {
		nb_kb_skip(res, "BPF_PROG_TEST_RUN in live-frames mode: %s", strerror(errno));
		goto out;
	}
	nb_bench_stop(&c);
	opts.repeat = (__u32)(opts.repeat / (c.wall > 1e-6 ? c.wall : 1e-6) * arg->window) + 1;
	for (unsigned int round = 0; round < arg->rounds; round++) {
		__u64 before = count_fd >= 0 ? nb_kb_counter_read(count_fd) : 0;

		nb_bench_start(&c);
		if (bpf_prog_test_run_opts(prog_fd, &opts)) {
			nb_kb_skip(res, "BPF_PROG_TEST_RUN in live-frames mode: %s",
				   strerror(errno));
			goto out;
		}
		nb_bench_stop(&c);
		keep_best(res, opts.repeat, count_fd >= 0 ?
			  nb_kb_counter_read(count_fd) - before : 0, &c);
	}
	res->counted = count_fd >= 0;
out:
	bpf_object__close(obj);
	return res->skip[0] ? -1 : 0;
}

static int kernel_measure(void *argp, struct nb_kb_result *res)
{
	const struct kb_arg *arg = argp;

	libbpf_set_print(NULL);
	return arg->k->kind == KB_TC ? kernel_tc(arg, res) : kernel_xdp(arg, res);
}

void bench_kernel_measure(const char *setup, const char *examples, unsigned int rounds,
			  double window, struct bench_kernel_result *out)
{
	struct kb_arg arg = { .examples = examples, .rounds = rounds, .window = window };
	struct nb_kb_result res;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(kb_setups) / sizeof(kb_setups[0]) && !arg.k; i++)
		if (!strcmp(kb_setups[i].setup, setup))
			arg.k = &kb_setups[i];
	if (!arg.k || arg.k->missing) {
		snprintf(out->why, sizeof(out->why), "%s",
			 arg.k ? arg.k->missing : "no kernel set-up for this row");
		return;
	}
	nb_kb_run(kernel_measure, &arg, &res, 1);
	if (res.skip[0]) {
		snprintf(out->why, sizeof(out->why), "%s", res.skip);
		return;
	}
	out->mpps = nb_kb_mpps(&res);
	if (res.counted) {
		out->arrived_mpps = nb_bench_mpps(res.arrived, &res.clk);
		/* a set-up that lost its frames on the way measured nothing of its path */
		if (res.arrived < res.frames * 9 / 10)
			snprintf(out->why, sizeof(out->why), "only %llu of %llu frames arrived",
				 (unsigned long long)res.arrived, (unsigned long long)res.frames);
	}
}
