// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf prog run OBJ [sec S] [program NAME] [--type tc|xdp|socket] [--set NAME=VALUE]...
 *                     [--max-entries MAP=N]... (--data-in FILE | --pcap-in FILE)
 *                     [--pcap-out FILE] [--ctx-in FILE] [--ctx-out FILE] [--repeat N]
 *                     [--map NAME=FILE]... [--maps] [--deterministic SEED]
 *
 * BPF_PROG_TEST_RUN's twin (nb_prog_test_run) on every packet, with the side effects kept: maps
 * preloaded by --map stay updated from packet to packet, and each verdict sends the resulting
 * bytes somewhere. The packets arrive on the test run's device "lo" (ifindex 1); devices if2 ..
 * if16 (ifindex 2 .. 16) exist so that programs and device maps can name them. In the pcapng
 * output each destination is one interface:
 *
 *   ifN     redirected to ifindex N (bpf_redirect, or a device map's entry)
 *   lo      XDP_TX: back out of the device it came in on
 *   stack   passed up (TC_ACT_OK and the other non-drop tc verdicts, XDP_PASS) or, for a
 *           socket filter, the bytes it keeps
 *   cpuN, xskN   XDP redirects into a CPU or AF_XDP socket map
 *
 * Copies a program sends out of a device (bpf_clone_redirect) are written to that device's
 * interface too; copies into a device's receive path go up its stack and are not written.
 * Dropped packets are written nowhere. The summary prints, per packet, its number, the verdict,
 * the length out, the destination and the mean duration of a run; -j prints it as JSON.
 * --maps then prints every map's elements as `map dump` does (in the JSON document with -j).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/pkt_cls.h>
#include <netbpf/clock.h>
#include <netbpf/dev.h>
#include <netbpf/map.h>
#include <netbpf/pcap.h>
#include <netbpf/pkt.h>
#include <netbpf/port.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "cli/cli.h"
#include "ctl/args.h"
#include "kcompare/diff.h"
#include "ctl/ctl.h"
#include "ctl/json.h"
#include "ctl/map.h"
#include "ctl/map_file.h"

#define MAX_MAP_FILES 32
#define FIRST_DEV     2
#define LAST_DEV      16
#define OUT_SIZE      (1U << 17)

struct run_args {
	struct nb_cli_object o;
	const char *data_in, *pcap_in, *pcap_out, *ctx_in, *ctx_out;
	long repeat;
	struct nb_map_file maps[MAX_MAP_FILES];
	unsigned int map_cnt;
	bool print_maps;		/* --maps: every map's elements at the end */
	const char *prog_name;		/* program NAME: one of several */
};

struct run_state {
	struct nb_prog *prog;
	enum bpf_prog_type type;
	struct nb_pcapng *out;
	struct nb_json *j;
	__u8 *ctx, *ctx_buf, *data_out;
	size_t ctx_len;
	__u32 ctx_size;
	unsigned long packets;
	unsigned int clones;	/* of the current packet, sent out of a device */
	int err;		/* a write of a clone failed */
	int refused;		/* the first packet the test run refused (the run goes on) */
};

static const char run_usage[] =
	"Usage: netbpf prog run OBJ [sec SECTION] [program NAME] [--type tc|xdp|socket]\n"
	"                       [--set NAME=VALUE]... [--max-entries MAP=N]...\n"
	"                       (--data-in FILE | --pcap-in FILE) [--pcap-out FILE]\n"
	"                       [--ctx-in FILE] [--ctx-out FILE] [--repeat N]\n"
	"                       [--map NAME=FILE]... [--maps] [--deterministic SEED]\n";

/* The words that take a value. */
static bool takes_value(const char *w)
{
	static const char *const words[] = {
		"sec", "section", "program", "prog", "--type", "type", "--set", "--max-entries",
		"--data-in", "--pcap-in", "--pcap-out", "--ctx-in", "--ctx-out", "--repeat",
		"--map", "--deterministic",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

static void print_log(const struct nb_log *log)
{
	const char *p = nb_log_text(log);

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "netbpf: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static int parse_args(int argc, char **argv, struct run_args *a, struct nb_log *log)
{
	a->o.path = argv[0];
	a->repeat = 1;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i], *v;
		char *end;

		if (!strcmp(w, "--maps")) {
			a->print_maps = true;
			continue;
		}
		if (!takes_value(w)) {
			nb_cli_error("argument \"%s\" is unknown: expected sec, program, --type, "
				     "--set, --max-entries, --data-in, --pcap-in, --pcap-out, "
				     "--ctx-in, --ctx-out, --repeat, --map, --maps or --deterministic",
				     w);
			return NB_EXIT_USAGE;
		}
		if (i + 1 >= argc) {
			nb_cli_error("\"%s\" needs an argument", w);
			return NB_EXIT_USAGE;
		}
		v = argv[++i];
		if (!strcmp(w, "sec") || !strcmp(w, "section")) {
			a->o.section = v;
		} else if (!strcmp(w, "--deterministic")) {
			if (nb_cli_deterministic(v))
				return NB_EXIT_USAGE;
		} else if (!strcmp(w, "program") || !strcmp(w, "prog")) {
			a->prog_name = v;
		} else if (!strcmp(w, "--type") || !strcmp(w, "type")) {
			if (nb_cli_prog_type(v, &a->o.type))
				return NB_EXIT_USAGE;
		} else if (!strcmp(w, "--set")) {
			if (nb_cli_add_set(&a->o, v))
				return NB_EXIT_USAGE;
		} else if (!strcmp(w, "--max-entries")) {
			if (nb_cli_add_max_entries(&a->o.sizes, v))
				return NB_EXIT_USAGE;
		} else if (!strcmp(w, "--data-in")) {
			a->data_in = v;
		} else if (!strcmp(w, "--pcap-in")) {
			a->pcap_in = v;
		} else if (!strcmp(w, "--pcap-out")) {
			a->pcap_out = v;
		} else if (!strcmp(w, "--ctx-in")) {
			a->ctx_in = v;
		} else if (!strcmp(w, "--ctx-out")) {
			a->ctx_out = v;
		} else if (!strcmp(w, "--repeat")) {
			errno = 0;
			a->repeat = strtol(v, &end, 0);
			if (errno || *end || a->repeat < 1 || a->repeat > 100000000) {
				nb_cli_error("--repeat \"%s\": expected a count from 1", v);
				return NB_EXIT_USAGE;
			}
		} else if (!strcmp(w, "--map")) {
			if (a->map_cnt >= MAX_MAP_FILES) {
				nb_cli_error("more than %d --map options", MAX_MAP_FILES);
				return NB_EXIT_USAGE;
			}
			if (nb_map_file_read(v, &a->maps[a->map_cnt], log)) {
				print_log(log);
				return NB_EXIT_ERR;
			}
			a->map_cnt++;
		}
	}
	if (!a->data_in == !a->pcap_in) {
		nb_cli_error("prog run: one of --data-in FILE and --pcap-in FILE is required");
		return NB_EXIT_USAGE;
	}
	return 0;
}

static int preload(struct run_args *a)
{
	for (unsigned int i = 0; i < a->map_cnt; i++) {
		const struct nb_map_file *mf = &a->maps[i];
		struct nb_object_map *m = nb_object_find_map(a->o.obj, mf->name);
		struct nb_map *map = m ? nb_object_map_map(m) : NULL;
		struct nb_log log = { 0 };
		int err;

		if (!map) {
			nb_cli_error("--map %s: %s has no map %s", mf->name, a->o.path, mf->name);
			return -ENOENT;
		}
		err = nb_map_file_load(mf, map, NULL, NULL, &log);
		if (err)
			nb_cli_error("%.*s", (int)strcspn(nb_log_text(&log), "\n"),
				     nb_log_text(&log));
		nb_log_free(&log);
		if (err)
			return err;
	}
	return 0;
}

/* The pcapng timestamps: the time of day, or the virtual clock (--deterministic). */
static __u64 now_ns(void)
{
	return nb_realtime_ns();
}

/* The port of devices if2..if16: what a program sends out of them goes to the output. */
static unsigned int capture_tx(struct nb_port *port, struct nb_pkt **pkts, unsigned int n)
{
	struct run_state *s = *(struct run_state **)nb_port_priv(port);
	__u32 len;

	for (unsigned int i = 0; i < n; i++) {
		int id = s->out ? nb_pcapng_interface(s->out, nb_dev_name(nb_port_dev(port))) : 0;
		/* test runs make no fragments; should a packet have them, it is written whole */
		const void *bytes = s->out && id >= 0 ? nb_pkt_bytes(pkts[i], &len) : NULL;

		if (s->out && (!bytes || nb_pcapng_write(s->out, id, bytes, len, now_ns())))
			s->err = -EIO;
		s->clones++;
		nb_pkt_free(pkts[i]);
	}
	return n;
}

static const struct nb_port_ops capture_ops = {
	.kind = "prog-run-capture",
	.features = NB_NETIF_F_ALL,	/* in memory: frames as they are */
	.priv_size = sizeof(struct run_state *),
	.tx_burst = capture_tx,
};

/* Where the verdict sends the packet: a pcapng interface name, or "" when dropped. */
static void destination(const struct run_state *s, const struct nb_test_run_opts *opts,
			char *dst, size_t size)
{
	bool tc = s->type == BPF_PROG_TYPE_SCHED_CLS || s->type == BPF_PROG_TYPE_SCHED_ACT;
	__u32 ret = opts->retval;

	dst[0] = '\0';
	if (s->type == BPF_PROG_TYPE_SOCKET_FILTER) {
		if (ret)
			snprintf(dst, size, "stack");
	} else if (tc) {
		if (ret == TC_ACT_REDIRECT)
			snprintf(dst, size, "if%u", opts->redirect_index);
		else if (ret != TC_ACT_SHOT && ret != TC_ACT_STOLEN && ret != TC_ACT_QUEUED &&
			 ret != TC_ACT_TRAP)
			snprintf(dst, size, "stack");
	} else if (ret == XDP_PASS) {
		snprintf(dst, size, "stack");
	} else if (ret == XDP_TX) {
		snprintf(dst, size, "lo");
	} else if (ret == XDP_REDIRECT) {
		struct nb_map *map = opts->redirect_map_id ?
				     nb_map_get_by_id(opts->redirect_map_id) : NULL;
		enum bpf_map_type type = map ? nb_map_type(map) : BPF_MAP_TYPE_UNSPEC;
		__u8 val[64];

		if (type == BPF_MAP_TYPE_CPUMAP)
			snprintf(dst, size, "cpu%u", opts->redirect_index);
		else if (type == BPF_MAP_TYPE_XSKMAP)
			snprintf(dst, size, "xsk%u", opts->redirect_index);
		else if (map && nb_map_value_size(map) <= sizeof(val) &&
			 !nb_map_lookup_elem(map, &opts->redirect_index, val))
			snprintf(dst, size, "if%u", *(__u32 *)val);	/* bpf_devmap_val.ifindex */
		else if (!opts->redirect_map_id)
			snprintf(dst, size, "if%u", opts->redirect_index);
		if (map)
			nb_map_put(map);
	}
}

static int run_one(struct run_state *s, const __u8 *data, __u32 len, long repeat)
{
	struct nb_test_run_opts opts = {
		.sz = sizeof(opts), .data_in = data, .data_size_in = len,
		.data_out = s->data_out, .data_size_out = OUT_SIZE,
		.ctx_in = s->ctx, .ctx_size_in = (__u32)s->ctx_len,
		.ctx_out = s->ctx_buf, .ctx_size_out = s->ctx_buf ? s->ctx_size : 0,
		.repeat = (int)repeat,
	};
	struct xdp_md md = { .data_end = len };
	const char *name;
	char dst[32];
	int err;

	/* the kernel takes an XDP ctx_out only with a ctx_in: this one describes the frame */
	if (s->type == BPF_PROG_TYPE_XDP && s->ctx_buf && !s->ctx) {
		opts.ctx_in = &md;
		opts.ctx_size_in = sizeof(md);
	}
	s->packets++;
	s->clones = 0;
	err = nb_prog_test_run(s->prog, &opts);
	if (err) {
		/* a frame the type cannot take: said, and the next one runs (exit status 1) */
		nb_cli_error("packet %lu (%u bytes): the test run fails: %s", s->packets, len,
			     strerror(-err));
		if (!s->refused)
			s->refused = err;
		return 0;
	}
	err = s->err;
	if (err) {
		nb_cli_error("packet %lu (%u bytes): the test run fails: %s", s->packets, len,
			     strerror(-err));
		return err;
	}
	destination(s, &opts, dst, sizeof(dst));
	if (s->type == BPF_PROG_TYPE_SOCKET_FILTER && opts.retval < opts.data_size_out)
		opts.data_size_out = opts.retval;
	name = nb_verdict_name(s->type, opts.retval);
	if (s->out && dst[0]) {
		int id = nb_pcapng_interface(s->out, dst);

		err = id < 0 ? id : nb_pcapng_write(s->out, id, s->data_out, opts.data_size_out,
						     now_ns());
		if (err) {
			nb_cli_error("--pcap-out: writing packet %lu: %s", s->packets,
				     strerror(-err));
			return err;
		}
	}
	if (s->j) {
		nb_json_start_object(s->j, NULL);
		nb_json_uint(s->j, "packet", s->packets);
		nb_json_uint(s->j, "retval", opts.retval);
		if (name[0])
			nb_json_string(s->j, "verdict", name);
		nb_json_uint(s->j, "len_in", len);
		nb_json_uint(s->j, "len_out", opts.data_size_out);
		if (dst[0])
			nb_json_string(s->j, "to", dst);
		nb_json_uint(s->j, "duration_ns", opts.duration);
		nb_json_uint(s->j, "clones", s->clones);
		nb_json_end_object(s->j);
	} else {
		printf("packet %lu: retval %u%s%s  len %u -> %u  %s%s  duration %u ns",
		       s->packets, opts.retval, name[0] ? " " : "", name, len,
		       opts.data_size_out, dst[0] ? "to " : "dropped", dst, opts.duration);
		if (s->clones)
			printf("  clones %u", s->clones);
		putchar('\n');
	}
	return 0;
}

static int make_devices(struct nb_dev **devs, struct run_state *s, struct nb_log *log)
{
	for (__u32 i = FIRST_DEV; i <= LAST_DEV; i++) {
		struct nb_port *port = nb_port_alloc(&capture_ops);
		char name[16];
		int err;

		if (!port)
			return -ENOMEM;
		*(struct run_state **)nb_port_priv(port) = s;
		snprintf(name, sizeof(name), "if%u", i);
		err = nb_dev_create(name, i, &devs[i], log);
		if (!err)
			nb_dev_set_port(devs[i], port);
		else
			nb_port_close(port);
		if (!err)
			err = nb_dev_set_up(devs[i], true);
		if (err) {
			print_log(log);
			return err;
		}
	}
	return 0;
}

static int run_packets(struct run_args *a, struct run_state *s)
{
	struct nb_log log = { 0 };
	int err = 0;

	if (a->data_in) {
		uint8_t *buf;
		size_t len;

		err = nb_read_file(a->data_in, &buf, &len);
		if (err) {
			nb_cli_error("--data-in %s: %s", a->data_in, strerror(-err));
			return err;
		}
		err = run_one(s, buf, (__u32)len, a->repeat);
		free(buf);
	} else {
		struct nb_pcap_reader *r;
		const unsigned char *data;
		unsigned int len;
		int rc;

		err = nb_pcap_reader_open(a->pcap_in, &r, &log);
		while (!err && (rc = nb_pcap_reader_next(r, &data, &len, &log)) == 1)
			err = run_one(s, data, len, a->repeat);
		if (!err && rc < 0)
			err = rc;
		nb_pcap_reader_close(r);
		if (err && nb_log_text(&log)[0])
			print_log(&log);
	}
	nb_log_free(&log);
	return err ? err : s->refused;
}

/* iproute2's "ID/KEY" sections hold tail-call targets, not programs to choose. */
static bool tail_call_section(const char *sec)
{
	unsigned int id, key;
	char end;

	return sscanf(sec, "%u/%u%c", &id, &key, &end) == 2;
}

/* A loaded program that sec SECTION and program NAME may mean. */
static bool candidate(const struct run_args *a, struct nb_object_prog *p, bool named)
{
	const char *sec = nb_object_prog_section(p);

	if (!nb_object_prog_prog(p))
		return false;
	if (a->o.section ? strcmp(sec, a->o.section) : tail_call_section(sec))
		return false;
	return !named || !a->prog_name || !strcmp(nb_object_prog_name(p), a->prog_name);
}

/*
 * The one program to run. Of several, none is picked silently: the error lists them
 * ("sec/name, ..."), as diff's does, and sec SECTION or program NAME chooses.
 */
static struct nb_object_prog *choose_prog(const struct run_args *a)
{
	struct nb_object_prog *p, *chosen = NULL;
	unsigned int n = 0, named = 0;
	const char *sep = "";

	nb_object_for_each_prog(p, a->o.obj) {
		if (!candidate(a, p, false))
			continue;
		n++;
		if (!candidate(a, p, true))
			continue;
		named++;
		if (!chosen)
			chosen = p;
	}
	if (named == 1)
		return chosen;
	if (!n) {
		nb_cli_error("%s: no program to run%s%s", a->o.path,
			     a->o.section ? " in section " : "", a->o.section ? a->o.section : "");
		return NULL;
	}
	fprintf(stderr, "netbpf: %s: ", a->o.path);
	if (!named)
		fprintf(stderr, "no program %s in %s%s; there are: ", a->prog_name,
			a->o.section ? "section " : "the object",
			a->o.section ? a->o.section : "");
	else
		fprintf(stderr, "%s%s holds %u programs, choose one with %s: ",
			a->o.section ? "section " : "the object",
			a->o.section ? a->o.section : "", named,
			a->o.section ? "program NAME" : "sec SECTION or program NAME");
	nb_object_for_each_prog(p, a->o.obj) {
		if (!candidate(a, p, false))
			continue;
		fprintf(stderr, "%s%s/%s", sep, nb_object_prog_section(p), nb_object_prog_name(p));
		sep = ", ";
	}
	fputc('\n', stderr);
	return NULL;
}

static int write_ctx_out(const struct run_args *a, const struct run_state *s)
{
	FILE *f = fopen(a->ctx_out, "wb");
	bool ok;

	if (!f) {
		nb_cli_error("--ctx-out %s: %s", a->ctx_out, strerror(errno));
		return -errno;
	}
	ok = fwrite(s->ctx_buf, 1, s->ctx_size, f) == s->ctx_size;
	ok &= !fclose(f);
	if (!ok) {
		nb_cli_error("--ctx-out %s: write failed", a->ctx_out);
		return -EIO;
	}
	return 0;
}

int prog_run(int argc, char **argv)
{
	struct nb_dev *devs[LAST_DEV + 1] = { 0 };
	struct run_args a = { 0 };
	struct run_state s = { 0 };
	struct nb_log log = { 0 };
	struct nb_object_prog *p;
	int ret, err;

	if (argc < 1 || nb_cli_is_help(argv[0]))
		return nb_cli_usage(run_usage, argc >= 1);
	ret = parse_args(argc, argv, &a, &log);
	if (ret)
		goto out;
	ret = NB_EXIT_ERR;
	if (make_devices(devs, &s, &log) || nb_cli_object_load(&a.o, false))
		goto out;
	p = choose_prog(&a);
	if (!p)
		goto out;
	s.prog = nb_object_prog_prog(p);
	s.type = nb_prog_type(s.prog);
	s.ctx_size = s.type == BPF_PROG_TYPE_XDP ? sizeof(struct xdp_md) :
						   sizeof(struct __sk_buff);
	if (preload(&a))
		goto out;
	if (a.ctx_in) {
		err = nb_read_file(a.ctx_in, &s.ctx, &s.ctx_len);
		if (err) {
			nb_cli_error("--ctx-in %s: %s", a.ctx_in, strerror(-err));
			goto out;
		}
	}
	s.data_out = malloc(OUT_SIZE);
	s.ctx_buf = a.ctx_out || a.ctx_in ? calloc(1, s.ctx_size) : NULL;
	if (!s.data_out || ((a.ctx_out || a.ctx_in) && !s.ctx_buf))
		goto out;
	if (a.pcap_out && nb_pcapng_open(a.pcap_out, &s.out, &log)) {
		print_log(&log);
		goto out;
	}
	if (nb_cli.json) {
		s.j = nb_json_new(stdout, nb_cli.pretty);
		nb_json_start_object(s.j, NULL);
		nb_json_string(s.j, "program", nb_object_prog_name(p));
		nb_json_string(s.j, "section", nb_object_prog_section(p));
		nb_json_start_array(s.j, "packets");
	}
	err = run_packets(&a, &s);
	if (s.j)
		nb_json_end_array(s.j);
	if (a.print_maps) {
		/* what the packets left in the maps, as map dump prints it */
		struct nb_ctl ctl;

		nb_cli_ctl_init(&ctl);
		nb_ctl_maps_print(&ctl, s.j);
	}
	if (s.j) {
		nb_json_end_object(s.j);
		nb_json_free(s.j);
	}
	if (!err && a.ctx_out)
		err = write_ctx_out(&a, &s);
	if (nb_pcapng_close(s.out) && !err) {
		nb_cli_error("--pcap-out %s: write failed", a.pcap_out);
		err = -EIO;
	}
	s.out = NULL;
	ret = err ? NB_EXIT_ERR : NB_EXIT_OK;
out:
	nb_pcapng_close(s.out);
	free(s.data_out);
	free(s.ctx_buf);
	free(s.ctx);
	nb_object_close(a.o.obj);
	for (unsigned int i = 0; i < a.map_cnt; i++)
		nb_map_file_free(&a.maps[i]);
	for (__u32 i = FIRST_DEV; i <= LAST_DEV; i++)
		if (devs[i])
			nb_dev_destroy(devs[i]);
	nb_log_free(&log);
	return ret;
}
