// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own packet programs through netbpf diff: every `core` program of the corpus of
 * the kernel's samples and selftests (../shared/corpus, as test_corpus_kernel.c finds it) that
 * the kernel accepts runs on the packet set of pktset.c through the running kernel and through
 * netbpf (the JIT, then loaded without the verifier's proof), as
 *
 *	netbpf diff OBJ sec SECTION program NAME --type TYPE --pcap-in FILE [--max-entries M=N]
 *
 * does: return codes, return values, output bytes, ctx_out and every map after the run must be
 * identical. The program's type and the maps its tool sizes come from MANIFEST.tsv. Programs
 * netbpf refuses are test_corpus_kernel.c's (tests/corpus/known_differences.tsv). Programs
 * whose results are not theirs alone are left out: those that call a clock or random-number
 * helper (found in their instructions), and those listed below with the reason (a pointer's
 * bits in the result, stack never written). The test runs on CPU 0, the only CPU of netbpf's
 * test runs, so that programs keying per-CPU data by bpf_get_smp_processor_id() agree.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "bpf/helper_proto.h"
#include "common/types.h"
#include "corpus.h"
#include "kcompare/diff.h"
#include "pktset.h"
#include "test.h"
#include "tsv.h"

#define POINTER_BITS "a pointer's bits reach the result: each side's own addresses"
#define STACK_GARBAGE "returns stack bytes never written: what an earlier run left there"

/*
 * Objects (program NULL: every program), or programs, left out, and why. Programs that call
 * a clock or random-number helper are left out without a line here (calls_own_answer).
 */
struct left_out {
	const char *path;
	const char *program;
	const char *why;
};

static const struct left_out left_out[] = {
	{ "linux-selftests/test_tunnel_kern.o", NULL, "its programs need the kernel's FOU "
	  "kfuncs at load: libbpf refuses the object on this kernel" },
	{ "linux-selftests/verifier_basic_stack.o", "uninitialized_stack2", STACK_GARBAGE },
	{ "linux-selftests/verifier_raw_stack.o", "stack_no_skb_load_bytes", STACK_GARBAGE },
	{ "linux-selftests/verifier_direct_packet_access.o", "direct_packet_access_test4_write",
	  POINTER_BITS },
	{ "linux-selftests/verifier_direct_packet_access.o",
	  "packet_access_test17_pruning_alignment", POINTER_BITS },
	{ "linux-selftests/verifier_direct_packet_access.o", "test18_imm_pkt_ptr_1", POINTER_BITS },
	{ "linux-selftests/verifier_direct_packet_access.o", "test19_imm_pkt_ptr_2", POINTER_BITS },
	{ "linux-selftests/verifier_direct_packet_access.o", "test22_x_pkt_ptr_3", POINTER_BITS },
	{ "linux-selftests/verifier_helper_access_var_len.o", "ptr_to_mem_or_null_7",
	  POINTER_BITS },
	{ "linux-selftests/verifier_leak_ptr.o", "leak_pointer_into_ctx_3", POINTER_BITS },
	{ "linux-selftests/verifier_search_pruning.o", "state_equality_check_way_1",
	  POINTER_BITS },
	{ "linux-selftests/verifier_search_pruning.o", "state_equality_check_way_2",
	  POINTER_BITS },
	{ "linux-selftests/verifier_spill_fill.o", "check_valid_spill_fill", POINTER_BITS },
	{ "linux-selftests/verifier_spill_fill.o", "check_corrupted_spill_fill_lsb", POINTER_BITS },
	{ "linux-selftests/verifier_spill_fill.o", "check_corrupted_spill_fill_msb", POINTER_BITS },
	{ "linux-selftests/verifier_stack_ptr.o", "array_map_using_bpf_b", POINTER_BITS },
	{ "linux-selftests/verifier_unpriv.o", "unpriv_return_pointer", POINTER_BITS },
};

/* Left out of the runs loaded without the verifier only. */
static const struct left_out left_out_unverified[] = {
	{ "linux-selftests/verifier_value_or_null.o", "lookup_and_null_branch_prediction",
	  "writes r10 in code no path reaches: without the verifier's walk netbpf cannot tell it "
	  "is dead, and refuses any write to the frame pointer (src/bpf/check.c)" },
};

struct corpus_diff {
	bool unsafe;		/* the netbpf side loaded without the verifier's proof */
};

static const char *find_left_out(const struct left_out *list, size_t cnt, const char *path,
				 const char *program)
{
	for (size_t i = 0; i < cnt; i++)
		if (!strcmp(path, list[i].path) &&
		    (!list[i].program || !strcmp(program, list[i].program)))
			return list[i].why;
	return NULL;
}

static const char *why_left_out(const char *path, const char *program, bool unsafe)
{
	const char *why = find_left_out(left_out, ARRAY_SIZE(left_out), path, program);

	if (!why && unsafe)
		why = find_left_out(left_out_unverified, ARRAY_SIZE(left_out_unverified), path,
				    program);
	return why;
}

static void print_left_out(const struct left_out *list, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++)
		printf("left out: %s %s: %s\n", list[i].path,
		       list[i].program ? list[i].program : "(every program)", list[i].why);
}

/* Whether tests/corpus/known_differences.tsv says netbpf refuses path's program. */
static bool refused(const struct nb_tsv *known, const char *path, const char *program)
{
	int c_path = nb_tsv_col(known, "path"), c_prog = nb_tsv_col(known, "program");

	for (size_t i = 0; i < known->nrows; i++)
		if (!strcmp(known->rows[i][c_path], path) &&
		    !strcmp(known->rows[i][c_prog], program))
			return true;
	return false;
}

/* Helpers whose answer is each side's own: the clocks and the random numbers. */
static const int own_answer_helpers[] = {
	BPF_FUNC_ktime_get_ns, BPF_FUNC_get_prandom_u32, BPF_FUNC_jiffies64,
	BPF_FUNC_ktime_get_boot_ns, BPF_FUNC_ktime_get_coarse_ns, BPF_FUNC_ktime_get_tai_ns,
};

/* The helper of own_answer_helpers[] the program (or a function it calls) calls, or NULL. */
static const char *calls_own_answer(const char *path, const char *sec, const char *name)
{
	struct nb_object_prog *p;
	const struct bpf_insn *insns;
	const char *found = NULL;
	struct nb_object *obj;
	unsigned int cnt;

	if (nb_object_open_file(path, NULL, &obj))
		return NULL;	/* diff says why */
	p = nb_object_find_prog(obj, sec, name);
	insns = p ? nb_object_prog_insns(p, &cnt) : NULL;
	for (unsigned int i = 0; insns && i < cnt && !found; i++) {
		if (insns[i].code != (BPF_JMP | BPF_CALL) || insns[i].src_reg)
			continue;
		for (size_t h = 0; h < ARRAY_SIZE(own_answer_helpers); h++)
			if (insns[i].imm == own_answer_helpers[h])
				found = nb_helper_name(insns[i].imm);
	}
	nb_object_close(obj);
	return found;
}

static void pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		NB_FAIL("cannot run on CPU 0: %s", strerror(errno));
}

static void test_corpus_diff(const void *arg)
{
	const struct corpus_diff *c = arg;
	const char *corpus = nb_corpus_dir();
	int c_path, c_sec, c_prog, c_type, c_verdict, c_stats, c_scope;
	unsigned int ran = 0, diverged = 0, no_kernel = 0, refused_cnt = 0, left = 0, failed = 0;
	unsigned long packets = 0, different = 0, maps = 0, map_diffs = 0;
	char file[4096], err[512], pcap[] = "/tmp/nb-diff-corpus-XXXXXX", first_no_kernel[256];
	struct nb_tsv manifest, known;
	struct nb_log log = { 0 };
	int fd, n;

	if (!corpus)
		nb_test_skip("no corpus: set NB_CORPUS, or put it at ../shared/corpus beside the "
			     "repository");
	snprintf(file, sizeof(file), "%s/MANIFEST.tsv", corpus);
	if (nb_tsv_read(file, &manifest, err, sizeof(err)) ||
	    nb_tsv_read("tests/corpus/known_differences.tsv", &known, err, sizeof(err)))
		NB_FAIL("%s", err);
	c_path = nb_tsv_col(&manifest, "path");
	c_sec = nb_tsv_col(&manifest, "section");
	c_prog = nb_tsv_col(&manifest, "program");
	c_type = nb_tsv_col(&manifest, "prog_type");
	c_verdict = nb_tsv_col(&manifest, "kernel_verdict");
	c_stats = nb_tsv_col(&manifest, "stats");
	c_scope = nb_tsv_col(&manifest, "scope");
	NB_ASSERT(c_path >= 0 && c_sec >= 0 && c_prog >= 0 && c_type >= 0 && c_verdict >= 0 &&
		  c_stats >= 0 && c_scope >= 0);
	pin_to_cpu0();
	fd = mkstemp(pcap);
	NB_ASSERT(fd >= 0);
	close(fd);
	n = pktset_write_pcap(pcap, 0);
	NB_ASSERT(n > 30);

	for (size_t i = 0; i < manifest.nrows; i++) {
		char **row = manifest.rows[i], path[4096], where[64], *size_names;
		const char *sec = row[c_sec] + (row[c_sec][0] == '?');
		struct nb_object_map_size sizes[NB_CORPUS_MAX_SIZES];
		struct nb_diff_opts opts = {
			.obj_path = path, .section = sec, .prog_name = row[c_prog],
			.unsafe_no_verify = c->unsafe, .out = stdout, .max_reports = 5,
		};
		struct nb_diff_result r;
		const char *own;
		int ret;

		if (strcmp(row[c_scope], "core") || strcmp(row[c_verdict], "accept"))
			continue;
		if (why_left_out(row[c_path], row[c_prog], c->unsafe)) {
			left++;
			continue;
		}
		if (refused(&known, row[c_path], row[c_prog])) {
			refused_cnt++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", corpus, row[c_path]);
		own = calls_own_answer(path, sec, row[c_prog]);
		if (own) {
			printf("%s %s: left out: calls %s, whose answer is each side's own\n",
			       row[c_path], row[c_prog], own);
			left++;
			continue;
		}
		snprintf(where, sizeof(where), "MANIFEST.tsv:%u", manifest.lines[i]);
		opts.type = nb_corpus_prog_type(row[c_type]);
		if (!opts.type)
			NB_FAIL("%s: prog_type \"%s\" is unknown", where, row[c_type]);
		opts.map_sizes = sizes;
		opts.map_size_cnt = nb_corpus_map_sizes(row[c_stats], where, &size_names, sizes);
		nb_log_reset(&log);
		ret = nb_diff_pcap(&opts, pcap, &r, &log);
		free(size_names);
		if (ret == NB_DIFF_NO_KERNEL) {
			if (!no_kernel++)
				snprintf(first_no_kernel, sizeof(first_no_kernel), "%.*s",
					 (int)strcspn(nb_log_text(&log), "\n"), nb_log_text(&log));
			printf("%s %s: not compared: %s", row[c_path], row[c_prog],
			       nb_log_text(&log));
			continue;
		}
		if (ret) {
			failed++;
			printf("FAILED %s %s: %s: %s", row[c_path], row[c_prog], strerror(-ret),
			       nb_log_text(&log));
			continue;
		}
		NB_ASSERT_EQ(r.packets, (unsigned long)n);
		/* bpf_clone_redirect really transmits: never on this machine's devices */
		NB_ASSERT(r.kernel_in_own_netns);
		if (r.different || r.map_diffs) {
			diverged++;
			printf("DIFF %s %s: %lu of %lu packets different, %lu map differences\n",
			       row[c_path], row[c_prog], r.different, r.packets, r.map_diffs);
		}
		ran++;
		packets += r.packets;
		different += r.different;
		maps += r.maps_compared;
		map_diffs += r.map_diffs;
	}
	unlink(pcap);
	nb_log_free(&log);
	nb_tsv_free(&manifest);
	nb_tsv_free(&known);
	print_left_out(left_out, ARRAY_SIZE(left_out));
	if (c->unsafe)
		print_left_out(left_out_unverified, ARRAY_SIZE(left_out_unverified));
	nb_test_report("%u programs of the corpus, %lu packets, %lu different, %lu maps compared, "
		       "%lu map differences (%u netbpf refuses, %u left out, %u the kernel would "
		       "not take here)", ran, packets, different, maps, map_diffs, refused_cnt,
		       left, no_kernel);
	if (!ran && no_kernel)
		nb_test_skip("the kernel takes no program here: %s", first_no_kernel);
	if (diverged || no_kernel || failed)
		NB_FAIL("%u programs diverge from the kernel, %u could not be compared, netbpf "
			"could not load %u", diverged, no_kernel, failed);
	if (!ran)
		nb_test_skip("the corpus has no program to compare");
}

static void __attribute__((constructor)) register_corpus_diff(void)
{
	static const struct corpus_diff jit = { .unsafe = false }, unsafe = { .unsafe = true };

	nb_test_register("diff-kernel/shared-corpus/jit", test_corpus_diff, &jit);
	nb_test_register("diff-kernel/shared-corpus/unsafe", test_corpus_diff, &unsafe);
}
