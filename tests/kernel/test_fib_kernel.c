// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_fib_lookup and bpf_check_mtu against the running kernel: the same addresses, routes,
 * rules, neighbours, forwarding switches and MTUs given to a private network namespace (ip,
 * sysctl) and to netbpf (its ip and sysctl words), then tests/bpf/fib_lookup.o's programs run
 * in BPF_PROG_TEST_RUN and in nb_prog_test_run, tc and XDP, interpreter and JIT, on a table of
 * lookups: every return code and flag, IPv4 and IPv6, the MTU edges, VLAN fields left in
 * the struct by the caller. The return value and the whole bpf_fib_lookup struct that comes
 * out must be the kernel's. The table runs four times:
 * before any rule (IPv4's main and local tables merged), after rules were added, after a
 * device went down (its routes gone), and with no IPv6 address left for BPF_FIB_LOOKUP_SRC.
 * Every return code comes up but BPF_FIB_LKUP_RET_UNSUPP_LWT: netbpf has no lightweight
 * tunnel routes, and the kernel returns it only for them.
 */
#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "common/types.h"
#include "fib_world.h"
#include "pkt/pkt.h"
#include "test.h"

/* The frame's command blocks, as tests/bpf/fib_lookup.c lays them out after 14 bytes. */
struct fib_cmd {
	struct bpf_fib_lookup params;
	u32 flags;
	u32 plen_short;
	s32 rc;
	u32 pad;
};

struct mtu_cmd {
	u32 ifindex;
	u32 mtu_len;
	s32 len_diff;
	u32 flags;
	s32 rc;
	u32 pad;
};

#define CMD_OFF 14
#define FRAME_MAX 3600
/* BPF_FIB_LOOKUP_MARK (6.10) and the next bit, which 6.18 refuses */
#define F_MARK (1U << 5)
#define F_BAD (1U << 6)

struct fib_case {
	int family;
	const char *dst, *src;	/* NULL src: 0 (IPv4) or :: */
	const char *iif;	/* "v1", "v2", "v3", or a number */
	u32 flags;
	u32 tbid, mark;
	u16 tot_len;
	u32 plen_short;
	u32 frame_len;		/* tc: the packet's length (0: just the command) */
	u32 gso_size;		/* tc: a super-frame of segments this long (0: not one) */
	u16 vlan_tci;		/* in h_vlan_TCI (h_vlan_proto 802.1Q) unless TBID is given */
};

static struct fib_case cases[1024];
static unsigned int nr_cases;

static void add_case(struct fib_case c)
{
	NB_ASSERT(nr_cases < ARRAY_SIZE(cases));
	cases[nr_cases++] = c;
}

/* Each destination under each way of asking. */
static void add_variants(int family, const char *dst)
{
	static const struct {
		u32 flags, tbid, mark;
		u16 tot_len;
		const char *iif;
	} v[] = {
		{ 0, 0, 0, 0, "v1" },
		{ BPF_FIB_LOOKUP_OUTPUT, 0, 0, 0, "v3" },
		{ BPF_FIB_LOOKUP_OUTPUT, 0, 0, 0, "v1" },
		{ BPF_FIB_LOOKUP_DIRECT, 0, 0, 0, "v1" },
		{ BPF_FIB_LOOKUP_SKIP_NEIGH, 0, 0, 0, "v1" },
		{ BPF_FIB_LOOKUP_SRC, 0, 0, 0, "v1" },
		{ BPF_FIB_LOOKUP_SRC | BPF_FIB_LOOKUP_SKIP_NEIGH, 0, 0, 0, "v3" },
		{ 0, 0, 0, 1250, "v1" },
		{ F_MARK, 0, 7, 0, "v1" },
		{ 0, 0, 0, 0, "v3" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		add_case((struct fib_case){ .family = family, .dst = dst, .iif = v[i].iif,
					    .flags = v[i].flags, .tbid = v[i].tbid,
					    .mark = v[i].mark, .tot_len = v[i].tot_len });
}

static void build_cases(void)
{
	static const char *const dst4[] = {
		"10.10.1.1", "10.11.1.1", "10.12.1.1", "10.13.1.1", "10.14.1.1", "10.15.1.1",
		"10.16.0.9", "10.16.1.9", "10.16.0.1", "10.17.1.1", "10.18.1.1", "10.20.1.1",
		"10.21.1.1", "10.22.1.1", "10.30.1.1", "10.31.1.1", "10.40.1.1", "10.1.0.1",
		"10.1.0.255", "10.2.0.2", "10.2.0.3", "10.3.0.2", "10.50.0.1", "10.10.5.1",
	};
	static const char *const dst6[] = {
		"2001:db8:10::1", "2001:db8:11::1", "2001:db8:12::1", "2001:db8:13::1",
		"2001:db8:14::1", "2001:db8:15::9", "2001:db8:15::8", "2001:db8:17::1",
		"2001:db8:18::1", "2001:db8:20::1", "2001:db8:21::1", "2001:db8:22::1",
		"2001:db8:30::1", "2001:db8:40::1", "2001:db8:1::1", "2001:db8:2::2",
		"2001:db8:3::2", "2001:db8:50::1", "2001:db8:10:5::1", "fe80::1", "ff02::1",
		"fd00:3::9", "2001:db8:60::1", "2001:db8:1::", "2001:db8:3::",
	};
	static const u32 tbids[] = { 0, 100, 200, 255, 253, 999 };

	for (size_t i = 0; i < ARRAY_SIZE(dst4); i++)
		add_variants(AF_INET, dst4[i]);
	for (size_t i = 0; i < ARRAY_SIZE(dst6); i++)
		add_variants(AF_INET6, dst6[i]);
	for (int f = 0; f < 2; f++) {
		int fam = f ? AF_INET6 : AF_INET;
		const char *d = f ? "2001:db8:10:5::1" : "10.10.5.1";
		const char *d2 = f ? "2001:db8:30::1" : "10.30.1.1";

		/* tables named directly */
		for (size_t t = 0; t < ARRAY_SIZE(tbids); t++) {
			u32 fl = BPF_FIB_LOOKUP_DIRECT | BPF_FIB_LOOKUP_TBID;

			add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v1",
						    .flags = fl, .tbid = tbids[t] });
			add_case((struct fib_case){ .family = fam, .dst = d2, .iif = "v1",
						    .flags = fl, .tbid = tbids[t] });
			add_case((struct fib_case){ .family = fam, .dst = f ? "2001:db8:1::1"
									    : "10.1.0.1",
						    .iif = "v1", .flags = fl, .tbid = tbids[t] });
		}
		/* the TBID flag alone is ignored; MARK with DIRECT too */
		add_case((struct fib_case){ .family = fam, .dst = d2, .iif = "v1",
					    .flags = BPF_FIB_LOOKUP_TBID, .tbid = 100 });
		add_case((struct fib_case){ .family = fam, .dst = d2, .iif = "v1",
					    .flags = F_MARK | BPF_FIB_LOOKUP_DIRECT, .mark = 7 });
		add_case((struct fib_case){ .family = fam, .dst = d2, .iif = "v1", .mark = 7 });
		add_case((struct fib_case){ .family = fam, .dst = f ? "2001:db8:31::1"
								    : "10.31.1.1",
					    .iif = "v1", .flags = F_MARK, .mark = 0x18 });
		/* forwarding off, no such device, the loopback, bad flags, short params */
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v2" });
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "99" });
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "1" });
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v1", .flags = F_BAD });
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v1", .plen_short = 1 });
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v1",
					    .plen_short = 63 });
		/* MTU edges: of the route (locked), the device, the frame on tc */
		for (u16 len = 1199; len <= 1201; len++)
			add_case((struct fib_case){ .family = fam, .dst = f ? "2001:db8:14::1"
									    : "10.14.1.1",
						    .iif = "v1", .tot_len = (u16)(len + 100 * f) });
		for (u16 len = 1279; len <= 1281; len++)
			add_case((struct fib_case){ .family = fam, .dst = f ? "2001:db8:15::9"
									    : "10.16.0.9",
						    .iif = "v1", .tot_len = len });
		for (u32 len = 1517; len <= 1519; len++)
			add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v1",
						    .frame_len = len });
		/* a super-frame beyond the MTU is forwardable: it can be cut on the way out */
		add_case((struct fib_case){ .family = fam, .dst = d, .iif = "v1",
					    .frame_len = 3000, .gso_size = 1400 });
		add_case((struct fib_case){ .family = fam, .dst = f ? "2001:db8:15::9"
								    : "10.16.0.9",
					    .iif = "v1", .frame_len = 1298 });
		add_case((struct fib_case){ .family = fam, .dst = f ? "2001:db8:15::9"
								    : "10.16.0.9",
					    .iif = "v1", .frame_len = 1299 });
		/* the source address the rules see */
		add_case((struct fib_case){ .family = fam, .dst = d2, .iif = "v1",
					    .src = f ? "fe80::2" : "10.99.1.1" });
	}
	/*
	 * VLAN: what the caller leaves in h_vlan_proto and h_vlan_TCI (the output fields, which
	 * share their place with tbid) is cleared on success and kept on every other answer.
	 */
	for (int f = 0; f < 2; f++) {
		static const char *const vdst[2][6] = {
			{ "10.10.1.1", "10.12.1.1", "10.13.1.1", "10.20.1.1", "10.14.1.1",
			  "10.50.0.1" },
			{ "2001:db8:10::1", "2001:db8:12::1", "2001:db8:13::1", "2001:db8:20::1",
			  "2001:db8:14::1", "2001:db8:50::1" },
		};
		static const u32 vflags[] = { 0, BPF_FIB_LOOKUP_SKIP_NEIGH, BPF_FIB_LOOKUP_OUTPUT,
					      BPF_FIB_LOOKUP_DIRECT };
		static const u16 tcis[] = { 10, 0xffff };

		for (size_t d = 0; d < ARRAY_SIZE(vdst[f]); d++)
			for (size_t fl = 0; fl < ARRAY_SIZE(vflags); fl++)
				for (size_t t = 0; t < ARRAY_SIZE(tcis); t++)
					add_case((struct fib_case){
						.family = f ? AF_INET6 : AF_INET,
						.dst = vdst[f][d], .iif = "v1",
						.flags = vflags[fl], .vlan_tci = tcis[t],
						.tot_len = d == 4 ? 1400 : 0 });
	}
	add_case((struct fib_case){ .family = 0, .dst = "10.10.1.1", .iif = "v1" });
	add_case((struct fib_case){ .family = 99, .dst = "10.10.1.1", .iif = "v1" });
}

static u32 ifindex_of(const char *iif)
{
	unsigned int n;

	if (nb_ctl_parse_u32(iif, &n, 10))
		return n;
	n = if_nametoindex(iif);
	NB_ASSERT(n);
	return n;
}

/* The frame of a case: Ethernet (0x88b5), the command, zeros up to frame_len. */
static u32 fib_frame(const struct fib_case *c, u8 *frame)
{
	struct fib_cmd cmd = { 0 };
	u32 len = CMD_OFF + sizeof(cmd);
	int fam = c->family == AF_INET6 ? AF_INET6 : AF_INET;

	memset(frame, 0, FRAME_MAX);
	memcpy(frame, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
	cmd.params.family = (u8)c->family;
	cmd.params.l4_protocol = 6;
	cmd.params.sport = htons(1000);
	cmd.params.dport = htons(80);
	cmd.params.tot_len = c->tot_len;
	cmd.params.ifindex = ifindex_of(c->iif);
	NB_ASSERT_EQ(inet_pton(fam, c->dst, fam == AF_INET ? (void *)&cmd.params.ipv4_dst
							    : cmd.params.ipv6_dst), 1);
	if (c->src)
		NB_ASSERT_EQ(inet_pton(fam, c->src, fam == AF_INET ? (void *)&cmd.params.ipv4_src
								   : cmd.params.ipv6_src), 1);
	if (c->flags & BPF_FIB_LOOKUP_TBID) {
		cmd.params.tbid = c->tbid;
	} else if (c->vlan_tci) {
		cmd.params.h_vlan_proto = htons(ETH_P_8021Q);
		cmd.params.h_vlan_TCI = htons(c->vlan_tci);
	}
	if (c->mark)
		memcpy(cmd.params.smac, &c->mark, sizeof(c->mark));
	cmd.flags = c->flags;
	cmd.plen_short = c->plen_short;
	cmd.rc = 0x55555555;
	memcpy(frame + CMD_OFF, &cmd, sizeof(cmd));
	return c->frame_len > len ? c->frame_len : len;
}

static void describe(const struct fib_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "family %d dst %s src %s iif %s flags %#x tbid %u mark %#x "
		 "tot_len %u plen_short %u frame %u vlan %u", c->family, c->dst,
		 c->src ? c->src : "-", c->iif, c->flags, c->tbid, c->mark, c->tot_len,
		 c->plen_short, c->frame_len, c->vlan_tci);
	if (c->gso_size)
		snprintf(buf + strlen(buf), size - strlen(buf), " gso_size %u", c->gso_size);
}

static void dump_cmd(const char *who, const struct fib_cmd *cmd)
{
	const u8 *b = (const u8 *)cmd;

	fprintf(stderr, "  %-7s rc %d:", who, cmd->rc);
	for (size_t i = 0; i < sizeof(cmd->params); i++)
		fprintf(stderr, "%s%02x", i % 4 ? "" : " ", b[i]);
	fputc('\n', stderr);
}

struct progs {
	struct bpf_object *kobj;
	struct nb_object *nobj[2];	/* interpreter, JIT */
};

static void progs_load(struct progs *p)
{
	char path[4096];

	nb_test_build_path(path, sizeof(path), "tests/bpf/fib_lookup.o");
	p->kobj = bpf_object__open_file(path, NULL);
	NB_ASSERT(p->kobj);
	if (bpf_object__load(p->kobj))
		NB_FAIL("the kernel refuses %s: %s", path, strerror(errno));
	for (int jit = 0; jit < 2; jit++) {
		struct nb_log log = { 0 };
		struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .log = &log,
						     .prog_flags = jit ? 0 : NB_PROG_LOAD_INTERP };

		NB_ASSERT_EQ(nb_object_open_file(path, NULL, &p->nobj[jit]), 0);
		if (nb_object_load(p->nobj[jit], &lopts))
			NB_FAIL("netbpf refuses %s: %s", path, nb_log_text(&log));
		nb_log_free(&log);
	}
}

static void progs_close(struct progs *p)
{
	bpf_object__close(p->kobj);
	nb_object_close(p->nobj[0]);
	nb_object_close(p->nobj[1]);
}

/* How often the kernel answered each return code (-errno codes folded into "negative"). */
static unsigned int rc_seen[16];

/*
 * Run prog (section sec) on frame in the kernel and in both netbpf engines; 0: all agree.
 * A tc packet gets gso_size when it is not 0: a super-frame as the test run makes one.
 */
static int run_three(struct progs *p, const char *sec, const char *name, const u8 *frame,
		     u32 len, u32 gso_size, u32 cmd_len, const char *what,
		     void (*dump)(const char *, const void *))
{
	u8 kout[FRAME_MAX], nout[FRAME_MAX];
	struct bpf_program *kp = bpf_object__find_program_by_name(p->kobj, name);
	struct __sk_buff ctx = { .gso_size = gso_size };
	const void *ctx_in = gso_size ? &ctx : NULL;
	u32 ctx_size = gso_size ? sizeof(ctx) : 0;
	int diff = 0;

	NB_ASSERT(kp);
	LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = frame, .data_size_in = len,
		    .data_out = kout, .data_size_out = sizeof(kout), .ctx_in = ctx_in,
		    .ctx_size_in = ctx_size, .repeat = 1);
	NB_ASSERT_EQ(bpf_prog_test_run_opts(bpf_program__fd(kp), &kopts), 0);
	{
		s32 rc;

		memcpy(&rc, kout + CMD_OFF + cmd_len - 8, sizeof(rc));
		rc_seen[rc < 0 ? 15 : rc < 15 ? rc : 14]++;
	}
	for (int jit = 0; jit < 2; jit++) {
		struct nb_object_prog *np = nb_object_find_prog(p->nobj[jit], sec, name);
		struct nb_test_run_opts nopts = { .sz = sizeof(nopts), .data_in = frame,
						  .data_size_in = len, .data_out = nout,
						  .data_size_out = sizeof(nout), .ctx_in = ctx_in,
						  .ctx_size_in = ctx_size };

		NB_ASSERT(np);
		NB_ASSERT_EQ(nb_prog_test_run(nb_object_prog_prog(np), &nopts), 0);
		if (nopts.retval == kopts.retval && nopts.data_size_out == kopts.data_size_out &&
		    !memcmp(nout + CMD_OFF, kout + CMD_OFF, cmd_len))
			continue;
		fprintf(stderr, "%s %s (%s): retval kernel %u netbpf %u\n", name, what,
			jit ? "jit" : "interp", kopts.retval, nopts.retval);
		dump("kernel", kout + CMD_OFF);
		dump("netbpf", nout + CMD_OFF);
		diff = 1;
	}
	return diff;
}

static void dump_fib(const char *who, const void *cmd)
{
	dump_cmd(who, cmd);
}

/* The table on both hooks; returns the differences. */
static unsigned int run_fib_cases(struct progs *p, const char *phase, unsigned int *runs)
{
	static u8 frame[FRAME_MAX];
	unsigned int diffs = 0;
	char what[512];

	for (unsigned int i = 0; i < nr_cases; i++) {
		const struct fib_case *c = &cases[i];
		u32 len = fib_frame(c, frame);

		describe(c, what, sizeof(what));
		strncat(what, phase, sizeof(what) - strlen(what) - 1);
		diffs += run_three(p, "tc", "fib_tc", frame, len, c->gso_size,
				   sizeof(struct fib_cmd), what, dump_fib);
		if (!c->frame_len)
			diffs += run_three(p, "xdp", "fib_xdp", frame, len, 0,
					   sizeof(struct fib_cmd), what, dump_fib);
		*runs += c->frame_len ? 1 : 2;
	}
	return diffs;
}

NB_TEST(fib_lookup_kernel)
{
	unsigned int diffs = 0, runs = 0;
	struct progs p;

	fib_world_enter();
	fib_world_lines(world, ARRAY_SIZE(world));
	build_cases();
	progs_load(&p);
	diffs += run_fib_cases(&p, " [no rules]", &runs);
	fib_world_lines(rules, ARRAY_SIZE(rules));
	diffs += run_fib_cases(&p, " [rules]", &runs);
	fib_world_lines(down, ARRAY_SIZE(down));
	diffs += run_fib_cases(&p, " [v3 down]", &runs);
	fib_world_lines(no_addr6, ARRAY_SIZE(no_addr6));
	diffs += run_fib_cases(&p, " [no IPv6 address]", &runs);
	progs_close(&p);
	nb_test_report("bpf_fib_lookup: %u cases, %u lookups (tc and XDP, IPv4 and IPv6, 4 states "
		       "of the tables), each in the kernel and on both engines: %u differences",
		       nr_cases, runs, diffs);
	nb_test_report("return codes: success %u blackhole %u unreachable %u prohibit %u "
		       "not_fwded %u fwd_disabled %u no_neigh %u frag_needed %u no_src_addr %u "
		       "errno %u", rc_seen[0], rc_seen[1], rc_seen[2], rc_seen[3], rc_seen[4],
		       rc_seen[5], rc_seen[7], rc_seen[8], rc_seen[9], rc_seen[15]);
	for (int rc = 0; rc <= 9; rc++)
		if (rc != BPF_FIB_LKUP_RET_UNSUPP_LWT && !rc_seen[rc])
			NB_FAIL("no case gives return code %d", rc);
	NB_ASSERT_EQ(diffs, 0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void dump_mtu(const char *who, const void *p)
{
	const struct mtu_cmd *cmd = p;

	fprintf(stderr, "  %-7s rc %d mtu_len %u\n", who, cmd->rc, cmd->mtu_len);
}

NB_TEST(check_mtu_kernel)
{
	static const char *const ifs[] = { "0", "v1", "v3", "1", "99" };
	static const u32 mtu_lens[] = { 0, 1000, 1266, 1267, 1500, 1501 };
	static const s32 diffs_in[] = { 0, 100, -100, 2000, -5000 };
	static const u32 flags[] = { 0, BPF_MTU_CHK_SEGS, 2 };
	static const u32 lens[] = { 40, 1294, 1295, 1514, 1515 };
	static u8 frame[FRAME_MAX];
	unsigned int diffs = 0, runs = 0;
	struct progs p;
	char what[256];

	fib_world_enter();
	fib_world_lines(world, ARRAY_SIZE(world));
	progs_load(&p);
	for (size_t a = 0; a < ARRAY_SIZE(ifs); a++)
	for (size_t b = 0; b < ARRAY_SIZE(mtu_lens); b++)
	for (size_t d = 0; d < ARRAY_SIZE(diffs_in); d++)
	for (size_t f = 0; f < ARRAY_SIZE(flags); f++)
	for (size_t l = 0; l < ARRAY_SIZE(lens); l++) {
		struct mtu_cmd cmd = { .ifindex = ifindex_of(ifs[a]), .mtu_len = mtu_lens[b],
				       .len_diff = diffs_in[d], .flags = flags[f], .rc = 0x5555 };
		u32 len = lens[l];

		/* every length with the plain calls, the others on one length */
		if (l && (d || f))
			continue;
		memset(frame, 0, sizeof(frame));
		memcpy(frame, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
		memcpy(frame + CMD_OFF, &cmd, sizeof(cmd));
		snprintf(what, sizeof(what), "ifindex %s mtu_len %u len_diff %d flags %u len %u",
			 ifs[a], cmd.mtu_len, cmd.len_diff, cmd.flags, len);
		diffs += run_three(&p, "tc", "mtu_tc", frame, len, 0, sizeof(cmd), what, dump_mtu);
		diffs += run_three(&p, "xdp", "mtu_xdp", frame, len, 0, sizeof(cmd), what,
				   dump_mtu);
		runs += 2;
		/*
		 * The same as a super-frame: beyond the MTU it still fits. Not with
		 * BPF_MTU_CHK_SEGS: the kernel's test run leaves the transport header unset,
		 * so its segment length is not the frame's.
		 */
		if (cmd.flags != BPF_MTU_CHK_SEGS) {
			strncat(what, " gso_size 1400", sizeof(what) - strlen(what) - 1);
			diffs += run_three(&p, "tc", "mtu_tc", frame, len, 1400, sizeof(cmd), what,
					   dump_mtu);
			runs++;
		}
	}
	progs_close(&p);
	nb_test_report("bpf_check_mtu: %u calls (tc and XDP), each in the kernel and on both "
		       "engines: %u differences", runs, diffs);
	NB_ASSERT_EQ(diffs, 0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
