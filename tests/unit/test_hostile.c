// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile traffic: every frame of tests/data/hostile.pcap (tests/data/make_hostile.py: 0, 1,
 * 13, 14 bytes, around the MTU and the largest packet, 9000 bytes, truncated and malformed
 * IPv4/IPv6/VLAN/QinQ/TCP/UDP/ICMP headers, IP options and fragments, IPv6 extension
 * headers, random bytes) through every tc and XDP program of the examples and of
 * ../shared/corpus that runs without set-up (the kernel accepts it, it needs no devmap or
 * cpumap entry), two ways:
 *
 *   - the test run (what `netbpf prog run` does): each call ends in a result or the test
 *     run's documented refusal (-EINVAL for a frame the program type cannot take);
 *   - the datapath: a device with the program at its XDP hook or its tc ingress and egress
 *     hooks receives every frame a packet can hold, beyond a page in fragments (and, for tc,
 *     transmits it too); every packet is accounted for (received = sent + delivered +
 *     consumed + dropped) and every buffer goes back to the pool.
 *
 * Under make check SANITIZE=1 a stray access in a helper or the datapath is an ASan report.
 * tests/cli/hostile.sh sends the same file through `netbpf prog run` and `netbpf run`.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <netbpf/dev.h>
#include <netbpf/object.h>
#include <netbpf/pcap.h>
#include <netbpf/tc.h>
#include <netbpf/test_run.h>

#include "bpf/epoch.h"
#include "net/core.h"
#include "net/worker.h"
#include "net/xdp.h"
#include "tc_test.h"

#define MAX_FRAMES 128
#define MAX_XDP_FRAME 73152	/* a linear part and 17 fragment pages */

struct frames {
	u32 n;
	u8 *data[MAX_FRAMES];
	u32 len[MAX_FRAMES];
};

static void load_frames(struct frames *f)
{
	struct nb_pcap_reader *r;
	struct nb_log log = { 0 };
	const unsigned char *data;
	unsigned int len;

	if (nb_pcap_reader_open("tests/data/hostile.pcap", &r, &log))
		NB_FAIL("%s", nb_log_text(&log));
	while (f->n < MAX_FRAMES && nb_pcap_reader_next(r, &data, &len, &log) == 1) {
		f->data[f->n] = malloc(len ? len : 1);
		NB_ASSERT(f->data[f->n]);
		memcpy(f->data[f->n], data, len);
		f->len[f->n++] = len;
	}
	nb_pcap_reader_close(r);
	nb_log_free(&log);
	NB_ASSERT(f->n > 50);
}

static void free_frames(struct frames *f)
{
	for (u32 i = 0; i < f->n; i++)
		free(f->data[i]);
}

struct tally {
	u32 programs, runs, refused_frames, not_loaded;
};

/* The test run on every frame: a result, or -EINVAL for a frame the type cannot take. */
static void through_test_run(struct nb_prog *prog, const struct frames *f, struct tally *t,
			     const char *name)
{
	static u8 out[MAX_XDP_FRAME + 64];

	for (u32 i = 0; i < f->n; i++) {
		struct nb_test_run_opts o = {
			.sz = sizeof(o), .data_in = f->data[i], .data_size_in = f->len[i],
			.data_out = out, .data_size_out = sizeof(out),
		};
		int err = nb_prog_test_run(prog, &o);

		if (err == -EINVAL) {
			t->refused_frames++;
			continue;
		}
		if (err)
			NB_FAIL("%s: frame %u (%u bytes): test run %d", name, i, f->len[i], err);
		t->runs++;
	}
}

/* A packet received on dev, as its port would hand it over. */
static struct nb_pkt *received(struct nb_dev *dev, const u8 *frame, u32 len)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data(frame, len);

	NB_ASSERT(pkt);
	pkt->dev = dev;
	pkt->skb_iif = dev->ifindex;
	nb_eth_type_trans(pkt, dev);
	nb_dev_count_rx(dev, len);
	return pkt;
}

/* The program on a device's hooks; every frame in, every packet accounted for. */
static void through_datapath(struct nb_prog *prog, const struct frames *f, const char *name)
{
	struct nb_dev *dev = tc_make_dev("hostile0", 0);
	struct nb_log log = { 0 };
	bool is_xdp = nb_prog_type(prog) == BPF_PROG_TYPE_XDP;

	tc_set_port(dev, "sink", "");
	if (is_xdp) {
		if (nb_dev_xdp_attach(dev, prog, 0, &log))
			NB_FAIL("%s: attach: %s", name, nb_log_text(&log));
	} else {
		NB_OPTS(nb_tc_bpf_opts, bpf);
		struct nb_tc_filter_opts opts = { .sz = sizeof(opts), .kind = "bpf",
						  .kind_opts = &bpf };

		tc_qdisc(dev);
		bpf.prog = prog;
		bpf.direct_action = true;
		opts.hook = NB_TC_INGRESS;
		tc_add(dev, &opts);
		opts.hook = NB_TC_EGRESS;
		tc_add(dev, &opts);
	}
	nb_log_free(&log);
	nb_epoch_read_lock();
	for (u32 i = 0; i < f->n; i++) {
		struct nb_pkt *pkt;

		if (f->len[i] > NB_PKT_MAX_FRAME || f->len[i] == 0)
			continue;	/* a port takes no such frame: tests/cli/hostile.sh */
		pkt = received(dev, f->data[i], f->len[i]);
		nb_worker_receive_burst(dev, &pkt, 1);
		nb_worker_flush();
		if (!is_xdp) {
			/* and out of the device: tc egress, then the port */
			nb_dev_queue_xmit(received(dev, f->data[i], f->len[i]));
			nb_worker_flush();
		}
	}
	nb_epoch_read_unlock();
	nb_xdp_do_flush();
	tc_check_accounting(&dev, 1);
	nb_dev_destroy_all();
	nb_epoch_barrier();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* Every tc and XDP program of an object, loaded (only prog when not NULL) and run. */
static void through_object(const char *path, const char *only, enum bpf_prog_type type,
			   const struct frames *f, struct tally *t)
{
	struct nb_object_open_opts oo = { .sz = sizeof(oo) };
	struct nb_object_load_opts lo = { .sz = sizeof(lo), .prog_type = type };
	struct nb_object_prog *p;
	struct nb_object *obj;

	if (nb_object_open_file(path, &oo, &obj)) {
		t->not_loaded++;
		return;
	}
	nb_object_for_each_prog(p, obj) {
		enum bpf_attach_type at = nb_object_prog_expected_attach_type(p);
		enum bpf_prog_type pt = type ? type : nb_object_prog_type(p);
		bool mine = (!only || !strcmp(nb_object_prog_name(p), only)) &&
			    (pt == BPF_PROG_TYPE_XDP || pt == BPF_PROG_TYPE_SCHED_CLS ||
			     pt == BPF_PROG_TYPE_SCHED_ACT) &&
			    at != BPF_XDP_DEVMAP && at != BPF_XDP_CPUMAP;

		nb_object_prog_set_autoload(p, mine);
	}
	if (nb_object_load(obj, &lo)) {
		t->not_loaded++;	/* netbpf's verdicts are the verifier tests' business */
		nb_object_close(obj);
		nb_unpin_all();
		return;
	}
	nb_object_for_each_prog(p, obj) {
		struct nb_prog *prog = nb_object_prog_prog(p);
		char name[256];

		if (!prog)
			continue;
		snprintf(name, sizeof(name), "%s %s", path, nb_object_prog_name(p));
		t->programs++;
		through_test_run(prog, f, t, name);
		through_datapath(prog, f, name);
	}
	nb_object_close(obj);
	nb_unpin_all();
}

NB_TEST(hostile_traffic_examples)
{
	static const char *const objs[] = {
		"tcbpf1.o", "tc_classifier.o", "tc_tail_call.o", "xdp_drop_proto.o",
		"xdp_ipip_encap.o", "xdp_meta_mark.o", "xdp_redirect_ifindex.o",
		"xdp_redirect_map.o", "xdp_swap_mac_tx.o", "xdp_broadcast.o",
		"xdp_devmap_smac.o",
	};
	struct frames f = { 0 };
	struct tally t = { 0 };
	char path[512], rel[256];

	load_frames(&f);
	for (u32 i = 0; i < ARRAY_SIZE(objs); i++) {
		snprintf(rel, sizeof(rel), "examples/%s", objs[i]);
		through_object(nb_test_build_path(path, sizeof(path), rel), NULL, 0, &f, &t);
	}
	nb_test_report("%u programs, %u frames: %u test runs, %u frames refused by the test run; "
		       "%u objects not loaded", t.programs, f.n, t.runs, t.refused_frames,
		       t.not_loaded);
	NB_ASSERT(t.programs >= 10);
	free_frames(&f);
}

/* ../shared/corpus: the corpus beside the repository (or NB_CORPUS). */
static const char *corpus_dir(void)
{
	static const char *const dirs[] = { "../shared/corpus", "../../shared/corpus" };

	if (getenv("NB_CORPUS"))
		return getenv("NB_CORPUS");
	for (u32 i = 0; i < ARRAY_SIZE(dirs); i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/MANIFEST.tsv", dirs[i]);
		if (access(p, R_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

/*
 * The corpus's programs the kernel accepts as tc or XDP programs without a devmap or cpumap
 * entry; programs that took the kernel's verifier more than 200,000 steps are left to the
 * verifier's tests (netbpf's walk of them is the long part, not their run).
 */
NB_TEST(hostile_traffic_corpus)
{
	const char *dir = corpus_dir();
	struct frames f = { 0 };
	struct tally t = { 0 };
	u32 skipped_big = 0;
	char line[8192], path[1024];
	FILE *m;

	if (!dir)
		nb_test_skip("no ../shared/corpus (set NB_CORPUS)");
	snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
	m = fopen(path, "r");
	NB_ASSERT(m);
	load_frames(&f);
	while (fgets(line, sizeof(line), m)) {
		char *col[16] = { 0 }, *s = line;
		enum bpf_prog_type type;
		u32 c = 0;

		while (c < 16 && (col[c] = strsep(&s, "\t")))
			c++;
		if (c < 13 || strcmp(col[8], "accept"))
			continue;
		if (!strcmp(col[3], "xdp") && !strcmp(col[12], "xdp"))
			type = BPF_PROG_TYPE_XDP;
		else if (!strcmp(col[3], "tc"))
			type = BPF_PROG_TYPE_SCHED_CLS;
		else
			continue;
		if (strtoul(col[9], NULL, 10) > 200000) {
			skipped_big++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, col[0]);
		through_object(path, col[2], type, &f, &t);
	}
	fclose(m);
	nb_test_report("%u programs, %u frames: %u test runs, %u frames refused by the test run; "
		       "%u not loaded by netbpf, %u left out for size", t.programs, f.n, t.runs,
		       t.refused_frames, t.not_loaded, skipped_big);
	NB_ASSERT(t.programs >= 100);
	free_frames(&f);
}
