// SPDX-License-Identifier: GPL-2.0
/*
 * The socket helpers when they run (src/net/filter_sk.c): netbpf has no sockets to find, so a
 * lookup finds none and a socket map nothing; skb->sk is NULL on the datapath and the test
 * run's own socket in a test run (as the kernel's test run gives its packet one), with
 * storage created on it; on the interpreter and on the JIT.
 * How the verifier holds programs that use socket pointers to the kernel's rules is
 * tests/kernel/verifier_cases.c's (socket cases) and the corpus's.
 */
#include <errno.h>
#include <netbpf/map.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "bpf/vmlinux_btf.h"
#include "bpf_asm.h"
#include "pkt/pkt.h"
#include "test.h"

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R4 BPF_REG_4
#define R5 BPF_REG_5
#define R6 BPF_REG_6
#define R7 BPF_REG_7
#define R9 BPF_REG_9
#define R10 BPF_REG_10
#define LD_MAP(d, idx) NB_LD_IMM64_RAW(d, BPF_PSEUDO_MAP_IDX, idx)

/* r7 |= bit when r0 is not NULL */
#define FOUND_BIT(bit) NB_JMP_IMM(BPF_JEQ, R0, 0, 1), NB_ALU64_IMM(BPF_OR, R7, bit)

/*
 * A TCP, a UDP and a request socket looked up for the tuple the program's stack holds (any: no
 * socket matches), skb->sk, a socket map's slot 0 and the NULL socket's storage: r0 gets a bit
 * for each that was not NULL. Whatever is found is released, as the verifier insists.
 */
static const struct bpf_insn tc_lookups[] = {
	NB_MOV64_REG(R9, R1),
	NB_MOV64_IMM(R7, 0),
	NB_ST_MEM(BPF_DW, R10, -16, 0x0100007f),
	NB_ST_MEM(BPF_W, R10, -8, 0x16001600),
#define LOOKUP(fn, bit)                                                                     \
	NB_MOV64_REG(R1, R9), NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -16),        \
	NB_MOV64_IMM(R3, 12), NB_MOV64_IMM(R4, -1), NB_MOV64_IMM(R5, 0),                   \
	NB_CALL_HELPER(fn), FOUND_BIT(bit), NB_JMP_IMM(BPF_JEQ, R0, 0, 2),                   \
	NB_MOV64_REG(R1, R0), NB_CALL_HELPER(BPF_FUNC_sk_release)
	LOOKUP(BPF_FUNC_sk_lookup_tcp, 1),
	LOOKUP(BPF_FUNC_sk_lookup_udp, 2),
	LOOKUP(BPF_FUNC_skc_lookup_tcp, 4),
	/*
	 * skb->sk (bit 8); its storage, created (bit 128) then deleted (bit 256), and its
	 * family (bit 512 for AF_INET)
	 */
	NB_LDX_MEM(BPF_DW, R6, R9, offsetof(struct __sk_buff, sk)),
	NB_JMP_IMM(BPF_JEQ, R6, 0, 18),
	NB_ALU64_IMM(BPF_OR, R7, 8),
	LD_MAP(R1, 1), NB_MOV64_REG(R2, R6), NB_MOV64_IMM(R3, 0),
	NB_MOV64_IMM(R4, BPF_SK_STORAGE_GET_F_CREATE),
	NB_CALL_HELPER(BPF_FUNC_sk_storage_get), FOUND_BIT(128),
	LD_MAP(R1, 1), NB_MOV64_REG(R2, R6), NB_CALL_HELPER(BPF_FUNC_sk_storage_delete),
	NB_JMP_IMM(BPF_JNE, R0, 0, 1), NB_ALU64_IMM(BPF_OR, R7, 256),
	NB_LDX_MEM(BPF_W, R0, R6, offsetof(struct bpf_sock, family)),
	NB_JMP_IMM(BPF_JNE, R0, 2, 1), NB_ALU64_IMM(BPF_OR, R7, 512),
	/* the NULL socket's storage, not created */
	LD_MAP(R1, 1), NB_MOV64_IMM(R2, 0), NB_MOV64_IMM(R3, 0), NB_MOV64_IMM(R4, 0),
	NB_CALL_HELPER(BPF_FUNC_sk_storage_get), FOUND_BIT(16),
	/* the socket map's slot 0 */
	NB_ST_MEM(BPF_W, R10, -4, 0), NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4),
	LD_MAP(R1, 0), NB_CALL_HELPER(BPF_FUNC_map_lookup_elem), FOUND_BIT(32),
	NB_JMP_IMM(BPF_JEQ, R0, 0, 2), NB_MOV64_REG(R1, R0), NB_CALL_HELPER(BPF_FUNC_sk_release),
	/* and a delete from it: the kernel's -EINVAL for an empty slot */
	NB_MOV64_REG(R2, R10), NB_ALU64_IMM(BPF_ADD, R2, -4), LD_MAP(R1, 0),
	NB_CALL_HELPER(BPF_FUNC_map_delete_elem),
	NB_JMP_IMM(BPF_JEQ, R0, -EINVAL, 1), NB_ALU64_IMM(BPF_OR, R7, 64),
	NB_MOV64_REG(R0, R7),
	NB_EXIT(),
#undef LOOKUP
};

static u8 frame[60] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };

static void maps_create(struct nb_map **maps)
{
	struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "sockets" };

	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_SOCKMAP, 4, 8, 2, &opts, &maps[0]), 0);
	opts.name = "sk_storage";
	opts.map_flags = BPF_F_NO_PREALLOC;
	NB_ASSERT_EQ(nb_map_create(BPF_MAP_TYPE_SK_STORAGE, 4, 8, 0, &opts, &maps[1]), 0);
}

static void run_lookups(unsigned int flags)
{
	struct nb_map *maps[2];
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .flags = flags,
					  .maps = maps, .map_cnt = 2, .log = &log };
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame,
				      .data_size_in = sizeof(frame) };
	struct nb_pkt *pkt;
	struct nb_prog *prog;
	int err;

	maps_create(maps);
	err = nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, tc_lookups, ARRAY_SIZE(tc_lookups), &opts,
			   &prog);
	if (err)
		NB_FAIL("load: %d: %s", err, nb_log_text(&log) ?: "");
	/* A test run: its packet, IPv4, has a socket of its own. */
	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), 0);
	NB_ASSERT_EQ(o.retval, 8 | 128 | 256 | 512);
	/* As the datapath runs it, on a packet it forwards. */
	pkt = nb_pkt_alloc_data(frame, sizeof(frame));
	NB_ASSERT(pkt);
	nb_pkt_compute_data_pointers(pkt);
	NB_ASSERT_EQ(nb_prog_run(prog, pkt), 0);
	nb_pkt_free(pkt);
	nb_prog_put(prog);
	nb_map_put(maps[0]);
	nb_map_put(maps[1]);
	nb_log_free(&log);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(sk_helpers_find_no_socket_interp)
{
	run_lookups(NB_PROG_LOAD_INTERP);
}

NB_TEST(sk_helpers_find_no_socket_jit)
{
	run_lookups(0);
}

/*
 * The bpf_skc_to_* casts of the test run's socket (a full socket of no protocol, TCP_CLOSE):
 * it is none of their kinds, so each gives NULL, as the kernel's give for its test socket. r0
 * gets a bit for each that did not; 1024 when there was no socket.
 */
static const struct bpf_insn tc_skc_casts[] = {
	NB_MOV64_IMM(R7, 0),
	NB_LDX_MEM(BPF_DW, R6, R1, offsetof(struct __sk_buff, sk)),
	NB_JMP_IMM(BPF_JNE, R6, 0, 2),
	NB_MOV64_IMM(R0, 1024),
	NB_EXIT(),
#define CAST(fn, bit) NB_MOV64_REG(R1, R6), NB_CALL_HELPER(fn), FOUND_BIT(bit)
	CAST(BPF_FUNC_skc_to_tcp6_sock, 1),
	CAST(BPF_FUNC_skc_to_tcp_sock, 2),
	CAST(BPF_FUNC_skc_to_tcp_timewait_sock, 4),
	CAST(BPF_FUNC_skc_to_tcp_request_sock, 8),
	CAST(BPF_FUNC_skc_to_udp6_sock, 16),
	CAST(BPF_FUNC_skc_to_unix_sock, 32),
	CAST(BPF_FUNC_skc_to_mptcp_sock, 64),
#undef CAST
	NB_MOV64_REG(R0, R7),
	NB_EXIT(),
};

static void run_skc_casts(unsigned int flags)
{
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL", .flags = flags,
					  .log = &log };
	struct nb_test_run_opts o = { .sz = sizeof(o), .data_in = frame,
				      .data_size_in = sizeof(frame) };
	struct nb_prog *prog;
	const char *why = NULL;
	int err;

	/* the casts' results are typed by the kernel's BTF */
	if (!nb_vmlinux_btf(&why))
		nb_test_skip("%s", why);
	err = nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, tc_skc_casts, ARRAY_SIZE(tc_skc_casts), &opts,
			   &prog);
	if (err)
		NB_FAIL("load: %d: %s", err, nb_log_text(&log) ?: "");
	NB_ASSERT_EQ(nb_prog_test_run(prog, &o), 0);
	NB_ASSERT_EQ(o.retval, 0);
	nb_prog_put(prog);
	nb_log_free(&log);
}

NB_TEST(sk_helpers_skc_casts_of_test_socket_interp)
{
	run_skc_casts(NB_PROG_LOAD_INTERP);
}

NB_TEST(sk_helpers_skc_casts_of_test_socket_jit)
{
	run_skc_casts(0);
}

/* A program's socket map update passes a socket; userspace's a socket fd, which netbpf refuses. */
NB_TEST(sk_helpers_sockmap_update_from_userspace)
{
	struct nb_map *maps[2];
	u32 key = 0;
	u64 fd = 0;	/* stdin: no socket here */

	maps_create(maps);
	NB_ASSERT(nb_map_update_elem(maps[0], &key, &fd, BPF_ANY) < 0);
	nb_map_put(maps[0]);
	nb_map_put(maps[1]);
}
