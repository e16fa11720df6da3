// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_skb_{set,get}_tunnel_{key,opt} against the running kernel, in BPF_PROG_TEST_RUN: the
 * program of tests/bpf/tunnel_key.c sets a key (every flag, IPv4 and IPv6, the old short
 * layouts, bad sizes and flags), options (every size), then reads the key back in every size
 * and with every flag, and the options into buffers of every size. The four return values and
 * the bytes read must be the kernel's, case by case, on both engines.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "common/types.h"
#include "pkt/dst_metadata.h"
#include "pkt/pkt.h"
#include "test.h"

#define CMD_OFF 14
#define OPT_MAX 64
#define NO_CALL 0xff

struct tun_cmd {
	struct bpf_tunnel_key set;
	u32 set_size;
	u32 set_opt_len;
	u64 set_flags;
	u8 set_opt[OPT_MAX];
	u32 get_size;
	u32 get_opt_size;
	u64 get_flags;
	s32 rc_set, rc_set_opt, rc_get, rc_get_opt;
	struct bpf_tunnel_key got;
	u8 got_opt[OPT_MAX];
};

#define NO_TUNNEL_KEY (1ULL << 4)

static struct tun_cmd cases[4096];
static unsigned int nr;

static void add(const struct tun_cmd *c)
{
	NB_ASSERT(nr < ARRAY_SIZE(cases));
	cases[nr++] = *c;
}

static void build_cases(void)
{
	static const u64 set_flags[] = {
		0, BPF_F_ZERO_CSUM_TX, BPF_F_DONT_FRAGMENT, BPF_F_SEQ_NUMBER, NO_TUNNEL_KEY,
		BPF_F_ZERO_CSUM_TX | BPF_F_DONT_FRAGMENT | BPF_F_SEQ_NUMBER, 1ULL << 5,
	};
	static const u64 get_flags[] = {
		0, BPF_F_TUNINFO_FLAGS, BPF_F_TUNINFO_IPV6, BPF_F_TUNINFO_IPV6 | BPF_F_TUNINFO_FLAGS,
		1ULL << 6,
	};
	struct tun_cmd c;

	for (int v6 = 0; v6 < 2; v6++) {
		memset(&c, 0, sizeof(c));
		c.set.tunnel_id = 0x12345678;
		c.set.tunnel_tos = 0x12;
		c.set.tunnel_ttl = 33;
		if (v6) {
			inet_pton(AF_INET6, "2001:db8::2", c.set.remote_ipv6);
			inet_pton(AF_INET6, "2001:db8::1", c.set.local_ipv6);
			c.set.tunnel_label = 0xfabcde;	/* 20 bits are kept */
		} else {
			c.set.remote_ipv4 = 0x0a000002;
			c.set.local_ipv4 = 0x0a000001;
		}
		c.set_opt_len = NO_CALL;
		c.get_opt_size = NO_CALL;
		/* every set flag, then every get size and flag */
		for (size_t f = 0; f < ARRAY_SIZE(set_flags); f++)
			for (u32 gs = 0; gs < 6; gs++)
				for (size_t g = 0; g < ARRAY_SIZE(get_flags); g++) {
					c.set_flags = set_flags[f] | (v6 ? BPF_F_TUNINFO_IPV6 : 0);
					c.get_size = gs;
					c.get_flags = get_flags[g];
					add(&c);
				}
		/* the old layouts on the way in */
		for (u32 ss = 1; ss < 6; ss++) {
			c.set_flags = v6 ? BPF_F_TUNINFO_IPV6 : 0;
			c.set_size = ss;
			c.get_size = 0;
			c.get_flags = v6 ? BPF_F_TUNINFO_IPV6 : 0;
			add(&c);
		}
		c.set_size = 0;
		/* options of every size, read into buffers of every size */
		for (u32 os = 0; os < 7; os++)
			for (u32 gs = 0; gs < 7; gs++) {
				c.set_opt_len = os == 6 ? NO_CALL : os;
				c.get_opt_size = gs == 6 ? NO_CALL : gs;
				for (int i = 0; i < OPT_MAX; i++)
					c.set_opt[i] = (u8)(0x40 + i);
				c.get_flags = v6 ? BPF_F_TUNINFO_IPV6 : 0;
				add(&c);
			}
		c.set_opt_len = NO_CALL;
		c.get_opt_size = NO_CALL;
		/* a label without IPv6, the compat field set */
		c.set.tunnel_label = 5;
		c.set_flags = 0;
		add(&c);
		c.set.tunnel_label = 0;
		c.set.tunnel_ext = 1;
		add(&c);
		c.set.tunnel_ext = 0;
	}
	/* nothing set: the reads on a packet without metadata, options without a key */
	memset(&c, 0, sizeof(c));
	c.set_size = NO_CALL;
	c.set_opt_len = 1;
	c.get_opt_size = 3;
	add(&c);
	c.set_opt_len = NO_CALL;
	c.get_flags = BPF_F_TUNINFO_IPV6;
	add(&c);
}

struct progs {
	struct bpf_object *kobj;
	struct nb_object *nobj[2];
};

static int kernel_fd(struct progs *p)
{
	char path[4096];

	nb_test_build_path(path, sizeof(path), "tests/bpf/tunnel_key.o");
	p->kobj = bpf_object__open_file(path, NULL);
	NB_ASSERT(p->kobj);
	if (bpf_object__load(p->kobj)) {
		int err = errno;

		bpf_object__close(p->kobj);
		if (err == EPERM || err == EACCES)
			nb_test_skip("loading BPF programs is not permitted (uid %u)",
				     (unsigned int)geteuid());
		NB_FAIL("the kernel refuses %s: %s", path, strerror(err));
	}
	for (int jit = 0; jit < 2; jit++) {
		struct nb_object_load_opts lopts = { .sz = sizeof(lopts),
						     .prog_flags = jit ? 0 : NB_PROG_LOAD_INTERP };

		NB_ASSERT_EQ(nb_object_open_file(path, NULL, &p->nobj[jit]), 0);
		NB_ASSERT_EQ(nb_object_load(p->nobj[jit], &lopts), 0);
	}
	return bpf_program__fd(bpf_object__find_program_by_name(p->kobj, "tunnel_key_tc"));
}

static void dump(const char *who, const struct tun_cmd *c)
{
	const u8 *g = (const u8 *)&c->got;

	fprintf(stderr, "  %-7s rc set %d opt %d get %d getopt %d key", who, c->rc_set,
		c->rc_set_opt, c->rc_get, c->rc_get_opt);
	for (size_t i = 0; i < sizeof(c->got); i++)
		fprintf(stderr, "%s%02x", i % 4 ? "" : " ", g[i]);
	fprintf(stderr, "\n");
}

NB_TEST(tunnel_key_helpers_kernel)
{
	unsigned int diffs = 0, runs = 0;
	struct progs p;
	int fd;

	build_cases();
	fd = kernel_fd(&p);
	for (unsigned int i = 0; i < nr; i++) {
		u8 frame[CMD_OFF + sizeof(struct tun_cmd)], kout[sizeof(frame)], nout[sizeof(frame)];
		LIBBPF_OPTS(bpf_test_run_opts, kopts, .data_in = frame, .data_size_in = sizeof(frame),
			    .data_out = kout, .data_size_out = sizeof(kout), .repeat = 1);

		memcpy(frame, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
		memcpy(frame + CMD_OFF, &cases[i], sizeof(cases[i]));
		NB_ASSERT_EQ(bpf_prog_test_run_opts(fd, &kopts), 0);
		for (int jit = 0; jit < 2; jit++) {
			struct nb_object_prog *np = nb_object_find_prog(p.nobj[jit], "tc",
									"tunnel_key_tc");
			struct nb_test_run_opts nopts = { .sz = sizeof(nopts), .data_in = frame,
							  .data_size_in = sizeof(frame),
							  .data_out = nout,
							  .data_size_out = sizeof(nout) };

			NB_ASSERT_EQ(nb_prog_test_run(nb_object_prog_prog(np), &nopts), 0);
			runs++;
			if (nopts.retval == kopts.retval && !memcmp(nout, kout, sizeof(kout)))
				continue;
			fprintf(stderr, "case %u (%s): set size %u flags %#llx opt %u, get size %u "
				"flags %#llx opt %u\n", i, jit ? "jit" : "interp", cases[i].set_size,
				(unsigned long long)cases[i].set_flags, cases[i].set_opt_len,
				cases[i].get_size, (unsigned long long)cases[i].get_flags,
				cases[i].get_opt_size);
			dump("kernel", (const void *)(kout + CMD_OFF));
			dump("netbpf", (const void *)(nout + CMD_OFF));
			diffs++;
		}
	}
	bpf_object__close(p.kobj);
	nb_object_close(p.nobj[0]);
	nb_object_close(p.nobj[1]);
	nb_test_report("tunnel key helpers: %u cases, %u runs against the kernel's: %u differ", nr,
		       runs, diffs);
	NB_ASSERT_EQ(diffs, 0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	NB_ASSERT_EQ(nb_tun_md_outstanding(), 0);
}
