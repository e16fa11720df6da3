// SPDX-License-Identifier: GPL-2.0
/* bpf_trace_printk: the kernel's format subset, written to the trace stream. */
#include <netbpf/trace.h>

#include "map_test.h"

struct trace_case {
	const char *name;
	const char *fmt;
	__u64 a1, a2, a3;
	const char *expect;	/* NULL: -EINVAL */
};

static const __u8 ip4[4] = { 10, 0, 0, 1 };
static const __u8 ip6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

static const struct trace_case cases[] = {
	{ "ints", "d=%d u=%u x=%x\n", (__u64)-5, (__u64)-1, 255, "d=-5 u=4294967295 x=ff\n" },
	{ "longs", "%ld %lu %llx", (__u64)-5, 1ULL << 40, 0xabcdef0123ULL,
	  "-5 1099511627776 abcdef0123" },
	{ "width", "[%5d][%-4u][%08x]", 42, 7, 0xbeef, "[   42][7   ][0000beef]" },
	{ "percent", "100%% %c", 'A', 0, 0, "100% A" },
	{ "string", "name=%s", (__u64)(uintptr_t)"eth0", 0, 0, "name=eth0" },
	{ "ipv4", "%pI4 %pi4", (__u64)(uintptr_t)ip4, (__u64)(uintptr_t)ip4, 0,
	  "10.0.0.1 010.000.000.001" },
	{ "ipv6", "%pI6", (__u64)(uintptr_t)ip6, 0, 0, "2001:0db8:0000:0000:0000:0000:0000:0001" },
	{ "pointer", "%px", 0x1234, 0, 0, "0000000000001234" },
	{ "pointer_null", "[%p] [%px] [%pB]", 0, 0, 0, "[(null)] [0000000000000000] [(null)]" },
	{ "pointer_symbol", "%pS", 0x1234, 0, 0, "0x1234" },
	/* Addresses nothing proves readable: read without faulting, as the kernel does. */
	{ "string_bad_address", "[%s]", 0x10, 0, 0, "[]" },
	{ "string_null", "[%s]", 0, 0, 0, "[]" },
	{ "string_kernel", "[%pks] [%pus]", (__u64)(uintptr_t)"k", (__u64)(uintptr_t)"u", 0,
	  "[k] [u]" },
	{ "string_width", "[%6s]", (__u64)(uintptr_t)"ab", 0, 0, "[    ab]" },
	{ "ipv4_bad_address", "%pI4", 0x10, 0, 0, "0.0.0.0" },
	{ "string_inside_word", "%sX", (__u64)(uintptr_t)"a", 0, 0, NULL },
	{ "four_args", "%d %d %d %d", 1, 2, 3, NULL },
	{ "bad_conv", "%q", 1, 0, 0, NULL },
	{ "bad_float", "%f", 1, 0, 0, NULL },
	{ "bad_ptr", "%pZ", 1, 0, 0, NULL },
	/* Linux 6.18 takes UTF-8 text, and refuses ASCII control characters */
	{ "utf8", "caf\xc3\xa9", 0, 0, 0, "caf\xc3\xa9" },
	{ "control", "a\x01", 0, 0, 0, NULL },
};

static void test_trace(const void *arg)
{
	const struct trace_case *t = arg;
	char out[256] = { 0 };
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");
	size_t len = strlen(t->fmt) + 1;
	__u64 r0;

	NB_ASSERT(f != NULL);
	nb_trace_set_stream(f);
	r0 = MT_RUN(NULL,
		NB_LD_IMM64(BPF_REG_1, (uintptr_t)t->fmt),
		NB_MOV64_IMM(BPF_REG_2, len),
		NB_LD_IMM64(BPF_REG_3, t->a1),
		NB_LD_IMM64(BPF_REG_4, t->a2),
		NB_LD_IMM64(BPF_REG_5, t->a3),
		NB_CALL_HELPER(BPF_FUNC_trace_printk),
		NB_EXIT());
	nb_trace_set_stream(NULL);
	fclose(f);
	if (!t->expect) {
		NB_ASSERT_EQ(r0, (__u64)-EINVAL);
		NB_ASSERT_EQ(out[0], 0);
		return;
	}
	NB_ASSERT_EQ(r0, strlen(t->expect));
	if (strcmp(out, t->expect))
		NB_FAIL("printed \"%s\", expected \"%s\"", out, t->expect);
}

static void __attribute__((constructor)) register_trace_cases(void)
{
	static char names[ARRAY_SIZE(cases)][64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(names[i], sizeof(names[i]), "helpers_trace_printk_%s", cases[i].name);
		nb_test_register(names[i], test_trace, &cases[i]);
	}
}

/* The format must end inside its size. */
NB_TEST(helpers_trace_printk_unterminated)
{
	static const char fmt[4] = { 'a', 'b', 'c', 'd' };

	NB_ASSERT_EQ(MT_RUN(NULL, NB_LD_IMM64(BPF_REG_1, (uintptr_t)fmt),
			    NB_MOV64_IMM(BPF_REG_2, 4), NB_CALL_HELPER(BPF_FUNC_trace_printk),
			    NB_EXIT()), (__u64)-EINVAL);
}
