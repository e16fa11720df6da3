// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel corpus (netbpf diff, kcompare/diff.c): every packet program of the example and test
 * objects (tc, action, XDP and socket filter sections) runs on the packet set of pktset.c
 * through the running kernel and through netbpf, on the interpreter and on the JIT; return
 * codes, return values, output bytes, ctx_out and every map after the run must be identical.
 *
 * Objects libbpf 1.x cannot open (iproute2's legacy maps section, the old bpf_map_def) reach the
 * kernel as iproute2 loads them, from netbpf's maps and linked instructions (kernel_object.c);
 * a program the kernel still cannot take is named in the skip. verifier_c.o holds programs the
 * verifiers reject on purpose, compared by test_verifier_kernel.c instead. Known
 * divergences are listed in known_divergences[] with their reason, printed by every corpus
 * test (none now: XDP frames beyond a page run with fragments on both sides). Each object runs a
 * third time loaded without the verifier (--unsafe-no-verify, on the JIT): the fixups the
 * engines need happen without the proof, so the results are the kernel's all the same.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "common/types.h"
#include "kcompare/diff.h"
#include "pktset.h"
#include "test.h"

struct corpus_obj {
	const char *path;	/* under the build directory */
	bool jit;
	bool unsafe;		/* loaded without the verifier's proof */
};

static const char *const objects[] = {
	"examples/tc_classifier.o", "examples/tcbpf1.o", "examples/xdp_broadcast.o",
	"examples/xdp_devmap_smac.o", "examples/xdp_drop_proto.o", "examples/xdp_ipip_encap.o",
	"examples/xdp_meta_mark.o", "examples/xdp_redirect_ifindex.o",
	"examples/xdp_redirect_map.o", "examples/xdp_swap_mac_tx.o", "examples/tc_tail_call.o",
	"examples/xdp_router.o", "examples/tc_router.o", "examples/pass.o",
	"examples/tc_flow_count.o",
	"tests/bpf/elf_all_maps.o", "tests/bpf/elf_globals.o", "tests/bpf/elf_hash.o",
	"tests/bpf/elf_btf_pin.o", "tests/bpf/elf_iproute2.o", "tests/bpf/elf_legacy_libbpf.o",
	"tests/bpf/disasm_forms.o", "tests/bpf/elf_iproute2_mim.o", "tests/bpf/elf_pin_mismatch.o",
	"tests/bpf/elf_pin_share.o", "tests/bpf/verifier_parser.o", "tests/bpf/elf_self_tail.o",
	"tests/bpf/xdp_frags.o", "tests/bpf/elf_iproute2_globals.o", "tests/bpf/elf_optional.o",
	"tests/bpf/elf_samples_maps.o", "tests/bpf/elf_maps_sections.o",
	"tests/bpf/elf_btf_parity.o", "tests/bpf/elf_kprobe.o", "tests/bpf/elf_absent_maps.o",
	"tests/bpf/subprog_calls.o", "tests/bpf/fib_lookup.o",
	"tests/bpf/tunnel_key.o", "tests/bpf/tunnel_encap.o", "examples/tc_vxlan.o",
	"tests/bpf/sk_lookup.o", "tests/bpf/spin_lock.o", "tests/bpf/dynptr.o",
	"tests/bpf/elf_static_data.o",
};

/* Maps the objects leave to their tool to size, sized on both sides as --max-entries does. */
static const struct {
	const char *path;
	struct nb_object_map_size size;
} map_sizes[] = {
	{ "tests/bpf/elf_btf_parity.o", { "sized_by_tool", 4 } },
};

/* Objects of the build left out of the corpus, and why. */
static const char *const not_in_corpus[] = {
	"tests/bpf/verifier_c.o",	/* rejected programs on purpose: test_verifier_kernel.c */
	"tests/bpf/verifier_global.o",	/* the same: test_global_func_kernel.c */
	"tests/bpf/diff_random.o",	/* differs on purpose: tests/cli/diff.sh */
	"tests/bpf/elf_bad_",		/* malformed on purpose: the loader's error tests */
	"tests/bpf/elf_kfunc_sibling.o", /* kfunc and __kconfig programs netbpf refuses */
	"tests/bpf/elf_btf_pin_replace.o", /* libbpf knows no CILIUM_PIN_REPLACE in .maps */
	"tests/bpf/verifier_helpers.o",	/* rejected programs on purpose: test_verifier_kernel */
	"tests/bpf/verifier_spin_lock.o", /* the same */
	"tests/bpf/verifier_timer.o",	/* the same */
	"tests/bpf/verifier_dynptr.o",	/* the same */
	"tests/bpf/verifier_map_ptr.o",	/* a verdict with and without kernel BTF: prog_verify.sh */
	"tests/bpf/timer.o",		/* timers fire on the clock: tests/cli/timers.sh */
	"tests/bpf/timer_cancel.o",	/* races between threads: tests/unit/test_timer.c */
	"tests/bpf/helpers_misc.o",	/* its frames are commands: test_generic_helpers_kernel */
	"tests/bpf/big_hash.o",		/* a 2^20-element pinned map for bench/control.c */
	"tests/bpf/det_stamp.o",	/* time and random bytes: tests/cli/deterministic.sh */
};

/* "object:section" and why they differ; printed by every corpus test. */
static const struct {
	const char *prog;
	const char *reason;
} known_divergences[] = {
	{ NULL, NULL },	/* none */
};

static struct corpus_obj cases[3 * ARRAY_SIZE(objects)];
static char names[3 * ARRAY_SIZE(objects)][96];

static bool packet_type(enum bpf_prog_type t)
{
	return t == BPF_PROG_TYPE_SCHED_CLS || t == BPF_PROG_TYPE_SCHED_ACT ||
	       t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_SOCKET_FILTER;
}

static void print_known(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_divergences); i++)
		if (known_divergences[i].prog)
			printf("known divergence: %s: %s\n", known_divergences[i].prog,
			       known_divergences[i].reason);
}

static void test_corpus(const void *arg)
{
	const struct corpus_obj *c = arg;
	char buf[4096], pcap[] = "/tmp/nb-diff-XXXXXX";
	const char *path = nb_test_build_path(buf, sizeof(buf), c->path);
	struct nb_log log = { 0 };
	struct nb_object_open_opts oo = { .sz = sizeof(oo), .log = &log };
	struct nb_object *obj;
	struct nb_object_prog *p;
	unsigned int ran = 0, no_kernel = 0, diverged = 0, via_netbpf = 0;
	unsigned long packets = 0, different = 0, maps = 0, map_diffs = 0;
	char skipped[1024] = "";
	int fd = mkstemp(pcap), n;

	NB_ASSERT(fd >= 0);
	close(fd);
	n = pktset_write_pcap(pcap, 0);
	NB_ASSERT(n > 30);
	print_known();
	NB_ASSERT_EQ(nb_object_open_file(path, &oo, &obj), 0);
	nb_object_for_each_prog(p, obj) {
		const char *sec = nb_object_prog_section(p);
		struct nb_diff_opts opts = {
			.obj_path = path, .section = sec, .prog_name = nb_object_prog_name(p),
			.interp = !c->jit, .unsafe_no_verify = c->unsafe, .out = stdout,
			.max_reports = 5,
		};
		struct nb_diff_result r;
		const char *reason;
		int err;

		for (size_t i = 0; i < ARRAY_SIZE(map_sizes); i++) {
			if (strcmp(map_sizes[i].path, c->path))
				continue;
			opts.map_sizes = &map_sizes[i].size;
			opts.map_size_cnt = 1;
		}
		/* sections only iproute2 knows (tcbpf1's) load as tc does: classifiers */
		if (nb_object_prog_type(p) == BPF_PROG_TYPE_UNSPEC)
			opts.type = BPF_PROG_TYPE_SCHED_CLS;
		else if (!packet_type(nb_object_prog_type(p)))
			continue;
		nb_log_reset(&log);
		err = nb_diff_pcap(&opts, pcap, &r, &log);
		if (err == NB_DIFF_NO_KERNEL) {
			no_kernel++;
			reason = nb_log_text(&log);
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
				 "%s%s (%.*s)", no_kernel > 1 ? ", " : "", sec,
				 (int)strcspn(reason, "\n"), reason);
			printf("%s: %s: not compared: %s", c->path, sec, nb_log_text(&log));
			continue;
		}
		if (err)
			NB_FAIL("%s: %s: %d: %s", c->path, sec, err, nb_log_text(&log));
		NB_ASSERT_EQ(r.packets, (unsigned long)n);
		/* bpf_clone_redirect really transmits: never on this machine's devices */
		NB_ASSERT(r.kernel_in_own_netns);
		printf("%s: %s/%s: %lu packets, %lu identical, %lu different, %lu maps, %lu map "
		       "differences\n", c->path, sec, nb_object_prog_name(p), r.packets,
		       r.identical, r.different, r.maps_compared, r.map_diffs);
		if (r.different || r.map_diffs)
			diverged++;
		ran++;
		via_netbpf += r.kernel_via_netbpf;
		packets += r.packets;
		different += r.different;
		maps += r.maps_compared;
		map_diffs += r.map_diffs;
	}
	nb_object_close(obj);
	nb_log_free(&log);
	unlink(pcap);
	if (ran)
		nb_test_report("%u programs%s, %lu packets, %lu different, %lu maps compared, %lu "
			       "map differences", ran, via_netbpf ? " (kernel side as iproute2 loads "
			       "them)" : "", packets, different, maps, map_diffs);
	if (diverged)
		NB_FAIL("%s: %u of %u programs diverge from the kernel", c->path, diverged, ran);
	if (!ran && no_kernel)
		nb_test_skip("%s: not comparable: %s", c->path, skipped);
	if (!ran)
		nb_test_skip("%s has no packet programs", c->path);
}

static bool listed(const char *rel)
{
	for (size_t i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(objects[i], rel))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(not_in_corpus); i++)
		if (!strncmp(not_in_corpus[i], rel, strlen(not_in_corpus[i])))
			return true;
	return false;
}

/* Every object the build makes is in the corpus or left out with its reason. */
NB_TEST(diff_kernel_corpus_is_complete)
{
	static const char *const dirs[] = { "examples", "tests/bpf" };
	unsigned int seen = 0;

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		char buf[4096], rel[512];
		DIR *dir = opendir(nb_test_build_path(buf, sizeof(buf), dirs[d]));
		struct dirent *e;

		NB_ASSERT(dir);
		while ((e = readdir(dir))) {
			size_t n = strlen(e->d_name);

			if (n < 3 || strcmp(e->d_name + n - 2, ".o"))
				continue;
			snprintf(rel, sizeof(rel), "%s/%s", dirs[d], e->d_name);
			seen++;
			if (!listed(rel)) {
				closedir(dir);
				NB_FAIL("%s is neither in the diff corpus nor left out with a reason "
					"(tests/kernel/test_diff_kernel.c)", rel);
			}
		}
		closedir(dir);
	}
	NB_ASSERT(seen >= ARRAY_SIZE(objects));
}

static void __attribute__((constructor)) register_corpus(void)
{
	static const char *const variants[] = { "interp", "jit", "unsafe" };

	for (size_t i = 0; i < ARRAY_SIZE(objects); i++) {
		for (int v = 0; v < 3; v++) {
			size_t k = 3 * i + v;
			const char *base = strrchr(objects[i], '/') + 1;

			cases[k].path = objects[i];
			cases[k].jit = v > 0;
			cases[k].unsafe = v == 2;
			snprintf(names[k], sizeof(names[k]), "diff-kernel/%.*s/%s",
				 (int)(strlen(base) - 2), base, variants[v]);
			nb_test_register(names[k], test_corpus, &cases[k]);
		}
	}
}
