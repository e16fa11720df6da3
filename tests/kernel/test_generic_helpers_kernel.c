// SPDX-License-Identifier: GPL-2.0
/*
 * The generic helpers against the running kernel, in BPF_PROG_TEST_RUN: tests/bpf/
 * helpers_misc.o reads a command from the frame (tc and XDP alike) and writes back what the
 * helpers returned and wrote. Both run in this thread, so the current task's helpers
 * (bpf_get_current_pid_tgid, _uid_gid, _comm, _cgroup_id, _ancestor_cgroup_id,
 * bpf_get_ns_current_pid_tgid) must answer alike; bpf_strtol, bpf_strtoul and bpf_strncmp on
 * texts at every edge (bases, signs, prefixes, overflow, white space, the 63-character
 * window); bpf_snprintf, bpf_trace_vprintk and bpf_trace_printk on every conversion, on bad
 * formats, argument counts and output sizes; bpf_csum_level's sequences and bpf_csum_update;
 * bpf_skb_get_xfrm_state on a packet without IPsec state; bpf_current_task_under_cgroup and
 * bpf_skb_under_cgroup on an empty cgroup array (netbpf's take no cgroup);
 * bpf_map_lookup_percpu_elem on each CPU's value. Every output frame must be the kernel's, on
 * the interpreter and the JIT.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/percpu.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>
#include <netbpf/trace.h>

#include "common/types.h"
#include "pkt/pkt.h"
#include "test.h"

#define CMD_OFF 14

enum op {
	OP_TASK = 1,
	OP_STRTOL,
	OP_STRTOUL,
	OP_STRNCMP,
	OP_SNPRINTF,
	OP_TRACE,
	OP_CSUM_LEVEL,
	OP_PERCPU,
	OP_NO_SOCKET,
	OP_XFRM,
	OP_CGROUP,
};

struct helper_cmd {
	u32 op;
	u32 size_code;
	u64 flags;
	u64 arg1, arg2;
	u8 buf[64];
	u64 args[12];
	u32 str_idx;
	u32 ptr_mask;
	s64 rc[8];
	u64 val[8];
	u8 out[64];
};

static struct helper_cmd cases[2048];
static unsigned int nr;

static struct helper_cmd *add(u32 op)
{
	struct helper_cmd *c;

	NB_ASSERT(nr < ARRAY_SIZE(cases));
	c = &cases[nr++];
	memset(c, 0, sizeof(*c));
	c->op = op;
	return c;
}

static void add_task_cases(void)
{
	static const int levels[] = { 0, 1, 2, 5, -1 };
	struct stat st;

	NB_ASSERT_EQ(stat("/proc/self/ns/pid", &st), 0);
	for (u32 size = 0; size < 3; size++) {
		for (size_t l = 0; l < ARRAY_SIZE(levels); l++) {
			struct helper_cmd *c = add(OP_TASK);

			c->size_code = size;
			c->flags = (u64)(s64)levels[l];
			c->arg1 = st.st_dev;
			c->arg2 = st.st_ino;
		}
	}
	add(OP_TASK)->arg1 = st.st_dev;			/* another namespace */
	cases[nr - 1].arg2 = st.st_ino + 1;
	add(OP_TASK)->arg1 = st.st_dev | 1ULL << 32;	/* no dev_t */
	cases[nr - 1].arg2 = st.st_ino;
}

static void add_strtox_cases(void)
{
	static const char *const texts[] = {
		"42", " -17", "0x1f", "0X1F", "0x", "0xg", "077", "08", "abc", "", "-", "  ", "\t\n 5",
		"\v\f\r9", "\xa0" "5", "+5", "- 5", "--5", "123abc", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "0xffffffffffffffff",
		"0x10000000000000000", "01777777777777777777777", "-0", "0", "00000000000000000000000"
		"000000000000000000000000000000000000000001",
		"                                                               7", "7fffffff",
		"deadbeef", "-0x8000000000000000", "1\0" "23",
	};
	static const u64 flags[] = { 0, 8, 10, 16, 3, 0x20, 1ULL << 40 };

	for (int op = OP_STRTOL; op <= OP_STRTOUL; op++)
		for (size_t t = 0; t < ARRAY_SIZE(texts); t++)
			for (size_t f = 0; f < ARRAY_SIZE(flags); f++)
				for (u32 size = 0; size < 4; size++) {
					struct helper_cmd *c;

					/* the sizes but the whole buffer, for base 0 only */
					if (size != 3 && flags[f])
						continue;
					c = add((u32)op);
					c->size_code = size;
					c->flags = flags[f];
					strncpy((char *)c->buf, texts[t], sizeof(c->buf));
				}
}

static void add_strncmp_cases(void)
{
	static const char *const texts[] = { "hello", "hello world", "hellO", "", "help",
					     "hello\xff", "\xff" };

	for (size_t t = 0; t < ARRAY_SIZE(texts); t++)
		for (u32 s = 0; s < 3; s++)
			for (u32 size = 0; size < 4; size++) {
				struct helper_cmd *c = add(OP_STRNCMP);

				c->str_idx = s;
				c->size_code = size;
				strncpy((char *)c->buf, texts[t], sizeof(c->buf));
			}
}

static void printf_args(struct helper_cmd *c)
{
	static const u64 args[12] = { (u64)-5, 0xfffffffffULL, 0xabcdef, 0xabcdef,
				      (u64)-1234567890123LL, 77, 0xffffffffffffffffULL,
				      0x123456789abcULL, 42, (u64)-42, 7, 0x80000000 };

	memcpy(c->args, args, sizeof(args));
}

static void add_printf_cases(void)
{
	static const u8 ip_text[] = "\x0a\x00\x00\x01\x20\x01\x0d\xb8\x00\x00\x00\x00\x00\x00"
				    "\x00\x00\x00\x00\x00\x01";
	static const char *const bad[] = {
		"%q", "%ls", "%d %d %d %d", "%d\x01", "%s", "%5.2d", "%pI4", "%pK", "%px", "%c%c",
		"%lld %llx %llu", "%s%d", "50%%", "%-08d|%+5x", "%pi6", "%pks", "%pB", "%n", "%",
		"%lu%", "%p\n", "é", "\x81%d", "\x7f",
	};

	/* bpf_snprintf with the constant formats, every output size */
	for (u32 f = 3; f <= 9; f++)
		for (u32 size = 0; size < 4; size++) {
			struct helper_cmd *c = add(OP_SNPRINTF);

			c->str_idx = f;
			c->size_code = size;
			printf_args(c);
			if (f == 4) {			/* three strings, two characters */
				c->ptr_mask = 0x7;
				c->args[3] = 'x';
				c->args[4] = 0x141;
				strcpy((char *)c->buf, "text");
			} else if (f == 5) {		/* addresses */
				c->ptr_mask = 0x3;
				memcpy(c->buf, ip_text, sizeof(ip_text));
				c->args[2] = c->args[3] = 0;
			} else if (f == 6) {		/* a kernel string, a bad user one */
				c->ptr_mask = 0x1;
				strcpy((char *)c->buf, "abcdefgh");
			} else if (f == 8 || f == 9) {	/* strings */
				c->ptr_mask = 0xfff;
				strcpy((char *)c->buf, f == 9 ? "a longer string than the output"
							      : "abcdefgh");
			}
		}
	/* the trace helpers with any text as the format, every argument count */
	for (size_t b = 0; b < ARRAY_SIZE(bad); b++)
		for (u32 size = 0; size < 4; size++) {
			struct helper_cmd *c = add(OP_TRACE);

			c->size_code = size;
			printf_args(c);
			strncpy((char *)c->buf, bad[b], sizeof(c->buf));
			/*
			 * %s and the addresses read the format itself: the first argument
			 * only (the others would print addresses, which differ); %p, %pK,
			 * %px and %pB print the first argument as it is
			 */
			if (!strncmp(bad[b], "%s", 2) || !strncmp(bad[b], "%pI", 3) ||
			    !strncmp(bad[b], "%pi", 3) || !strncmp(bad[b], "%pks", 4))
				c->ptr_mask = 0x1;
		}
}

static void add_csum_cases(void)
{
	/* levels, 4 bits each from the lowest, 0xf ends: 0 INC, 1 DEC, 2 RESET, 3 QUERY */
	static const u64 seqs[] = {
		0xfffffff3, 0xffffff30, 0xfffff330, 0x3300000, 0xffff3100, 0xffff3110,
		0xfff31110, 0xffff3200, 0xffffff37, 0xffff3004, 0xfff32100,
		0x33333333,
	};

	for (size_t i = 0; i < ARRAY_SIZE(seqs); i++)
		add(OP_CSUM_LEVEL)->flags = seqs[i] | 0xffffffff00000000ULL;
}

static void add_xfrm_cases(void)
{
	for (u32 size = 0; size < 2; size++)
		for (u64 index = 0; index < 2; index++)
			for (u64 flags = 0; flags < 2; flags++) {
				struct helper_cmd *c = add(OP_XFRM);

				c->size_code = size;
				c->arg1 = index;
				c->flags = flags;
			}
}

/* Slots in, past and far past an empty cgroup array of two. */
static void add_cgroup_cases(void)
{
	static const u64 slots[] = { 0, 1, 2, 0xffffffff, 0x100000000ULL };

	for (size_t i = 0; i < ARRAY_SIZE(slots); i++)
		add(OP_CGROUP)->arg1 = slots[i];
}

static void add_percpu_cases(void)
{
	for (u32 key = 0; key < 4; key++)
		for (u32 cpu = 0; cpu < 4; cpu++) {
			struct helper_cmd *c = add(OP_PERCPU);

			c->arg1 = key;
			c->arg2 = cpu;
		}
	add(OP_PERCPU)->arg2 = 0xffffffff;
}

struct sides {
	struct bpf_object *kobj;
	struct nb_object *nobj[2];
};

/* Each CPU's value differs: 1000 * key + cpu, in the array and (keys 0 and 2) the hash. */
static void fill_percpu(struct sides *s, unsigned int ncpus)
{
	u64 vals[64];

	for (u32 key = 0; key < 4; key++) {
		for (unsigned int cpu = 0; cpu < ncpus; cpu++)
			vals[cpu] = 1000ULL * key + cpu + 1;
		NB_ASSERT_EQ(bpf_map_update_elem(bpf_map__fd(bpf_object__find_map_by_name(
						 s->kobj, "pcpu_array")), &key, vals, 0), 0);
		if (!(key & 1))
			NB_ASSERT_EQ(bpf_map_update_elem(bpf_map__fd(
				bpf_object__find_map_by_name(s->kobj, "pcpu_hash")), &key, vals, 0), 0);
		for (int jit = 0; jit < 2; jit++) {
			NB_ASSERT_EQ(nb_map_update_elem(nb_object_map_map(nb_object_find_map(
					s->nobj[jit], "pcpu_array")), &key, vals, 0), 0);
			if (!(key & 1))
				NB_ASSERT_EQ(nb_map_update_elem(nb_object_map_map(
					nb_object_find_map(s->nobj[jit], "pcpu_hash")), &key, vals,
					0), 0);
		}
	}
}

static void open_sides(struct sides *s)
{
	char path[4096];

	nb_test_build_path(path, sizeof(path), "tests/bpf/helpers_misc.o");
	s->kobj = bpf_object__open_file(path, NULL);
	NB_ASSERT(s->kobj);
	if (bpf_object__load(s->kobj)) {
		int err = errno;

		bpf_object__close(s->kobj);
		if (err == EPERM || err == EACCES)
			nb_test_skip("loading BPF programs is not permitted (uid %u)",
				     (unsigned int)geteuid());
		NB_FAIL("the kernel refuses %s: %s", path, strerror(err));
	}
	for (int jit = 0; jit < 2; jit++) {
		struct nb_object_load_opts lopts = { .sz = sizeof(lopts),
						     .prog_flags = jit ? 0 : NB_PROG_LOAD_INTERP };

		NB_ASSERT_EQ(nb_object_open_file(path, NULL, &s->nobj[jit]), 0);
		NB_ASSERT_EQ(nb_object_load(s->nobj[jit], &lopts), 0);
	}
}

static void dump(const char *who, const struct helper_cmd *c)
{
	fprintf(stderr, "  %-7s rc", who);
	for (int i = 0; i < 3; i++)
		fprintf(stderr, " %lld", (long long)c->rc[i]);
	fprintf(stderr, " val");
	for (int i = 0; i < 5; i++)
		fprintf(stderr, " %#llx", (unsigned long long)c->val[i]);
	fprintf(stderr, " out \"%.64s\"\n", (const char *)c->out);
}

NB_TEST(generic_helpers_kernel)
{
	unsigned int diffs = 0, runs = 0, skipped_percpu = 0;
	struct sides s;
	FILE *devnull;
	int kfd[2];

	open_sides(&s);
	add_task_cases();
	add_strtox_cases();
	add_strncmp_cases();
	add_printf_cases();
	add_csum_cases();
	add_xfrm_cases();
	add_cgroup_cases();
	if ((unsigned int)libbpf_num_possible_cpus() == nb_nr_cpus())
		add_percpu_cases();
	else
		skipped_percpu = 1;
	fill_percpu(&s, nb_nr_cpus());
	kfd[0] = bpf_program__fd(bpf_object__find_program_by_name(s.kobj, "helpers_tc"));
	kfd[1] = bpf_program__fd(bpf_object__find_program_by_name(s.kobj, "helpers_xdp"));
	devnull = fopen("/dev/null", "w");
	NB_ASSERT(devnull);
	nb_trace_set_stream(devnull);	/* the trace helpers' text: the kernel's goes to its pipe */

	for (unsigned int i = 0; i < nr; i++) {
		for (int xdp = 0; xdp < 2; xdp++) {
			u8 frame[CMD_OFF + sizeof(struct helper_cmd)], kout[sizeof(frame)];
			LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = frame,
				    .data_size_in = sizeof(frame), .data_out = kout,
				    .data_size_out = sizeof(kout), .repeat = 1);

			if (xdp && (cases[i].op == OP_CSUM_LEVEL || cases[i].op == OP_XFRM))
				continue;
			memcpy(frame, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
			memcpy(frame + CMD_OFF, &cases[i], sizeof(cases[i]));
			NB_ASSERT_EQ(bpf_prog_test_run_opts(kfd[xdp], &kopts), 0);
			for (int jit = 0; jit < 2; jit++) {
				struct nb_object_prog *np = nb_object_find_prog(
					s.nobj[jit], NULL, xdp ? "helpers_xdp" : "helpers_tc");
				u8 nout[sizeof(frame)];
				struct nb_test_run_opts nopts = { .sz = sizeof(nopts),
								  .data_in = frame,
								  .data_size_in = sizeof(frame),
								  .data_out = nout,
								  .data_size_out = sizeof(nout) };
				const struct helper_cmd *k = (const void *)(kout + CMD_OFF);
				const struct helper_cmd *n = (const void *)(nout + CMD_OFF);

				NB_ASSERT_EQ(nb_prog_test_run(nb_object_prog_prog(np), &nopts), 0);
				runs++;
				/* the arguments the program made addresses differ by nature */
				memcpy(nout + CMD_OFF + offsetof(struct helper_cmd, args),
				       kout + CMD_OFF + offsetof(struct helper_cmd, args),
				       sizeof(cases[i].args));
				if (nopts.retval == kopts.retval &&
				    nopts.data_size_out == kopts.data_size_out &&
				    !memcmp(nout, kout, sizeof(kout)))
					continue;
				fprintf(stderr, "case %u op %u (%s, %s): size %u flags %#llx buf "
					"\"%.64s\" str %u; retval kernel %u netbpf %u\n", i,
					cases[i].op, xdp ? "xdp" : "tc", jit ? "jit" : "interp",
					cases[i].size_code, (unsigned long long)cases[i].flags,
					(const char *)cases[i].buf, cases[i].str_idx, kopts.retval,
					nopts.retval);
				dump("kernel", k);
				dump("netbpf", n);
				diffs++;
			}
		}
	}
	nb_trace_set_stream(NULL);
	fclose(devnull);
	bpf_object__close(s.kobj);
	nb_object_close(s.nobj[0]);
	nb_object_close(s.nobj[1]);
	nb_test_report("generic helpers: %u cases, %u runs against the kernel's: %u differ%s", nr,
		       runs, diffs, skipped_percpu ? " (per-CPU lookups left out: the kernel's "
		       "possible CPUs are not netbpf's)" : "");
	NB_ASSERT_EQ(diffs, 0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
