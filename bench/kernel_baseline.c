// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel baseline's plumbing (kernel_baseline.h): the measuring child in its own network
 * namespace, veth pairs through rtnetlink (tests/runner/netns.h), programs and the far end's
 * counter through libbpf, the transmit ring that injects frames, the programs both sides run,
 * and the side-by-side table.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_asm.h"
#include "kernel_baseline.h"
#include "netns.h"

/* The transmit ring: 16 blocks of 64 KiB, 256-byte slots: NB_KB_INJECT_FRAMES of them. */
#define NB_KB_RING_BLOCK_SIZE (64 * 1024)
#define NB_KB_RING_BLOCKS 16
#define NB_KB_RING_FRAME_SIZE 256

/* A measuring child that has not finished after this long is killed (a hung send). */
#define NB_KB_CHILD_TIMEOUT 120

int nb_kb_skip(struct nb_kb_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->skip[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(res->skip, sizeof(res->skip), fmt, ap);
	va_end(ap);
	if (!res->skip[0])
		snprintf(res->skip, sizeof(res->skip), "unknown reason");
	return -1;
}

static void pin_to_this_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* best effort: a failure only adds noise */
}

/* Every result without a reason of its own takes the first reason found. */
static int spread_skip(struct nb_kb_result *res, unsigned int n)
{
	const char *why = NULL;

	for (unsigned int i = 0; i < n && !why; i++)
		if (res[i].skip[0])
			why = res[i].skip;
	if (!why)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (!res[i].skip[0])
			nb_kb_skip(&res[i], "%s", why);
	return -1;
}

int nb_kb_run(int (*fn)(void *arg, struct nb_kb_result *res), void *arg,
	      struct nb_kb_result *res, unsigned int n)
{
	size_t size = n * sizeof(*res);
	struct nb_kb_result *shared;
	int status = 0, err;
	pid_t pid;

	memset(res, 0, size);
	if (geteuid() != 0) {
		nb_kb_skip(res, "not root (BPF, XDP and network namespaces need it)");
		return spread_skip(res, n);
	}
	shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		nb_kb_skip(res, "mmap: %s", strerror(errno));
		return spread_skip(res, n);
	}
	memset(shared, 0, size);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		munmap(shared, size);
		nb_kb_skip(res, "fork: %s", strerror(errno));
		return spread_skip(res, n);
	}
	if (pid == 0) {
		alarm(NB_KB_CHILD_TIMEOUT);
		pin_to_this_cpu();
		err = nb_netns_enter();
		if (err)
			nb_kb_skip(shared, "cannot enter a network namespace of its own: %s",
				   strerror(-err));
		else if (fn(arg, shared) && !spread_skip(shared, n))
			nb_kb_skip(shared, "the measurement failed");
		fflush(NULL);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	memcpy(res, shared, size);
	munmap(shared, size);
	if (WIFSIGNALED(status))
		for (unsigned int i = 0; i < n; i++)
			nb_kb_skip(&res[i], "the measuring child died of signal %d (%s)",
				   WTERMSIG(status), strsignal(WTERMSIG(status)));
	return spread_skip(res, n);
}

int nb_kb_veth_pair(struct nb_kb_result *res, const char *a, const char *b, unsigned int *ifa,
		    unsigned int *ifb)
{
	unsigned int ia, ib;
	int err = nb_veth_pair_up(a, b);

	if (err)
		return nb_kb_skip(res, "veth pair %s/%s: %s", a, b, strerror(-err));
	ia = if_nametoindex(a);
	ib = if_nametoindex(b);
	if (!ia || !ib)
		return nb_kb_skip(res, "veth %s/%s has no ifindex after ip created it", a, b);
	if (ifa)
		*ifa = ia;
	if (ifb)
		*ifb = ib;
	return 0;
}

int nb_kb_prog_load(struct nb_kb_result *res, enum bpf_prog_type type,
		    const struct bpf_insn *insns, unsigned int cnt)
{
	static char log[4096];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	char *last;
	int fd;

	log[0] = 0;
	fd = bpf_prog_load(type, NULL, "GPL", insns, cnt, &opts);
	if (fd >= 0)
		return fd;
	/* The verifier's complaint is the last non-empty line of its log. */
	while ((last = strrchr(log, '\n')) && !last[1])
		*last = 0;
	last = strrchr(log, '\n');
	return nb_kb_skip(res, "the kernel refused the program (type %d): %s%s%s", type,
			  strerror(errno), log[0] ? ": " : "", last ? last + 1 : log);
}

int nb_kb_xdp_counter(struct nb_kb_result *res, unsigned int ifindex)
{
	struct bpf_insn insns[NB_KB_MAX_INSNS];
	int map_fd, prog_fd, err;

	map_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "nb_kb_count", 4, 8, 1, NULL);
	if (map_fd < 0)
		return nb_kb_skip(res, "per-CPU array for the counter: %s", strerror(errno));
	prog_fd = nb_kb_prog_load(res, BPF_PROG_TYPE_XDP, insns,
				  nb_kb_prog_count(insns, map_fd, XDP_DROP));
	if (prog_fd < 0) {
		close(map_fd);
		return -1;
	}
	err = bpf_xdp_attach(ifindex, prog_fd, XDP_FLAGS_DRV_MODE, NULL);
	close(prog_fd);		/* the attachment holds the program */
	if (err) {
		close(map_fd);
		return nb_kb_skip(res, "attaching the counting XDP program to ifindex %u: %s",
				  ifindex, strerror(-err));
	}
	return map_fd;
}

u64 nb_kb_counter_read(int map_fd)
{
	int ncpu = libbpf_num_possible_cpus();
	u32 key = 0;
	u64 sum = 0;
	u64 *vals;

	if (ncpu <= 0 || !(vals = calloc(ncpu, sizeof(*vals))))
		return 0;
	if (!bpf_map_lookup_elem(map_fd, &key, vals))
		for (int i = 0; i < ncpu; i++)
			sum += vals[i];
	free(vals);
	return sum;
}

/* Where a transmit slot's frame starts when the socket has no PACKET_TX_HAS_OFF. */
static u8 *slot_data(struct tpacket2_hdr *hdr)
{
	return (u8 *)hdr + TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
}

static struct tpacket2_hdr *slot(struct nb_kb_injector *inj, unsigned int i)
{
	return (struct tpacket2_hdr *)((u8 *)inj->ring + (size_t)i * inj->frame_size);
}

int nb_kb_injector_open(struct nb_kb_result *res, struct nb_kb_injector *inj,
			enum nb_kb_inject_mode mode, unsigned int ifindex, const void *frame,
			unsigned int len)
{
	struct tpacket_req req = {
		.tp_block_size = NB_KB_RING_BLOCK_SIZE,
		.tp_block_nr = NB_KB_RING_BLOCKS,
		.tp_frame_size = NB_KB_RING_FRAME_SIZE,
		.tp_frame_nr = NB_KB_RING_BLOCKS * (NB_KB_RING_BLOCK_SIZE / NB_KB_RING_FRAME_SIZE),
	};
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP), .sll_ifindex = ifindex,
	};
	int version = TPACKET_V2, one = 1;

	memset(inj, 0, sizeof(*inj));
	inj->mode = mode;
	inj->fd = -1;
	inj->ring = MAP_FAILED;
	if (len > sizeof(inj->frame))
		return nb_kb_skip(res, "a %u-byte frame is longer than the injector's %zu", len,
				  sizeof(inj->frame));
	memcpy(inj->frame, frame, len);
	inj->len = len;
	/* Protocol 0: the socket transmits only, nothing it sends comes back to it. */
	inj->fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (inj->fd < 0)
		return nb_kb_skip(res, "AF_PACKET socket: %s", strerror(errno));
	if (setsockopt(inj->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one))) {
		nb_kb_skip(res, "PACKET_QDISC_BYPASS: %s", strerror(errno));
		goto fail;
	}
	if (mode == NB_KB_INJECT_TX_RING) {
		if (setsockopt(inj->fd, SOL_PACKET, PACKET_VERSION, &version, sizeof(version)) ||
		    setsockopt(inj->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req))) {
			nb_kb_skip(res, "AF_PACKET TPACKET_V2 transmit ring: %s", strerror(errno));
			goto fail;
		}
		inj->ring_len = (size_t)req.tp_block_size * req.tp_block_nr;
		inj->ring = mmap(NULL, inj->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 inj->fd, 0);
		if (inj->ring == MAP_FAILED) {
			nb_kb_skip(res, "mapping the transmit ring: %s", strerror(errno));
			goto fail;
		}
		inj->frame_size = req.tp_frame_size;
		for (unsigned int i = 0; i < NB_KB_INJECT_FRAMES; i++) {
			memcpy(slot_data(slot(inj, i)), frame, len);
			slot(inj, i)->tp_len = len;
		}
	}
	if (bind(inj->fd, (struct sockaddr *)&sll, sizeof(sll))) {
		nb_kb_skip(res, "binding the AF_PACKET socket to ifindex %u: %s", ifindex,
			   strerror(errno));
		goto fail;
	}
	return 0;
fail:
	nb_kb_injector_close(inj);
	return -1;
}

static int inject_ring(struct nb_kb_result *res, struct nb_kb_injector *inj)
{
	ssize_t sent;

	for (unsigned int i = 0; i < NB_KB_INJECT_FRAMES; i++)
		slot(inj, i)->tp_status = TP_STATUS_SEND_REQUEST;
	/*
	 * Blocking: returns once every frame's skb is freed (the ring's pending count is 0). A
	 * device that drops a frame for a full queue (a tap whose reader lags: NET_XMIT_DROP)
	 * stops the walk there with ENOBUFS, the frame's slot given back: the frames behind it
	 * go with the next send. The drop is the device's to count, as a flood's would be.
	 */
	do {
		sent = send(inj->fd, NULL, 0, 0);
	} while (sent < 0 && errno == ENOBUFS);
	if (sent < 0)
		return nb_kb_skip(res, "send on the transmit ring: %s", strerror(errno));
	for (unsigned int i = 0; i < NB_KB_INJECT_FRAMES; i++)
		if (slot(inj, i)->tp_status != TP_STATUS_AVAILABLE)
			return nb_kb_skip(res, "transmit slot %u came back with status %#x", i,
					  slot(inj, i)->tp_status);
	return NB_KB_INJECT_FRAMES;
}

static int inject_mmsg(struct nb_kb_result *res, struct nb_kb_injector *inj)
{
	struct iovec iov = { .iov_base = inj->frame, .iov_len = inj->len };
	struct mmsghdr msgs[NB_KB_MMSG_BATCH];
	unsigned int done = 0;

	for (unsigned int i = 0; i < NB_KB_MMSG_BATCH; i++)
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1 } };
	while (done < NB_KB_INJECT_FRAMES) {
		int n = sendmmsg(inj->fd, msgs, NB_KB_MMSG_BATCH, 0);

		if (n <= 0)
			return nb_kb_skip(res, "sendmmsg on the AF_PACKET socket: %s",
					  n < 0 ? strerror(errno) : "nothing sent");
		done += n;
	}
	return done;
}

int nb_kb_inject(struct nb_kb_result *res, struct nb_kb_injector *inj)
{
	return inj->mode == NB_KB_INJECT_TX_RING ? inject_ring(res, inj) : inject_mmsg(res, inj);
}

void nb_kb_injector_close(struct nb_kb_injector *inj)
{
	if (inj->ring != MAP_FAILED && inj->ring)
		munmap(inj->ring, inj->ring_len);
	if (inj->fd >= 0)
		close(inj->fd);
	inj->ring = MAP_FAILED;
	inj->fd = -1;
}

unsigned int nb_kb_prog_redirect(struct bpf_insn *insns, u32 ifindex)
{
	const struct bpf_insn prog[] = {
		NB_MOV64_IMM(BPF_REG_1, (s32)ifindex),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect),
		NB_EXIT(),
	};

	memcpy(insns, prog, sizeof(prog));
	return ARRAY_SIZE(prog);
}

unsigned int nb_kb_prog_redirect_map(struct bpf_insn *insns, int map_ref)
{
	const struct bpf_insn prog[] = {
		NB_LD_MAP_ID(BPF_REG_1, map_ref),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect_map),
		NB_EXIT(),
	};

	memcpy(insns, prog, sizeof(prog));
	return ARRAY_SIZE(prog);
}

unsigned int nb_kb_prog_count(struct bpf_insn *insns, int map_ref, int verdict)
{
	/* A per-CPU slot: a plain add, as a driver's per-CPU statistics would do. */
	const struct bpf_insn prog[] = {
		NB_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		NB_MOV64_REG(BPF_REG_2, BPF_REG_10),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		NB_LD_MAP_ID(BPF_REG_1, map_ref),
		NB_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		NB_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3),
		NB_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 0),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		NB_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		NB_MOV64_IMM(BPF_REG_0, verdict),
		NB_EXIT(),
	};

	memcpy(insns, prog, sizeof(prog));
	return ARRAY_SIZE(prog);
}

unsigned int nb_kb_prog_verdict(struct bpf_insn *insns, int verdict)
{
	const struct bpf_insn prog[] = { NB_MOV64_IMM(BPF_REG_0, verdict), NB_EXIT() };

	memcpy(insns, prog, sizeof(prog));
	return ARRAY_SIZE(prog);
}

double nb_kb_mpps(const struct nb_kb_result *res)
{
	return res->skip[0] ? 0 : nb_bench_mpps(res->frames, &res->clk);
}

void nb_kb_report(const char *variant, const struct nb_kb_result *res)
{
	if (res->skip[0]) {
		printf("  %-44s kernel baseline: SKIPPED: %s\n", variant, res->skip);
		fflush(stdout);
		return;
	}
	nb_bench_report(variant, res->frames, &res->clk, "pps");
	if (res->counted)
		printf("  %-44s %8.2f Mpps  counted at the far end (%llu of %llu frames)\n", "",
		       nb_bench_mpps(res->arrived, &res->clk), (unsigned long long)res->arrived,
		       (unsigned long long)res->frames);
	fflush(stdout);
}

void nb_kb_table_header(void)
{
	printf("  side by side (Mpps from CPU time)%-27s %8s %8s %8s\n", "", "netbpf", "kernel",
	       "ratio");
}

void nb_kb_table_row(const char *what, double netbpf_mpps, double kernel_mpps)
{
	printf("  %-60s %8.2f", what, netbpf_mpps);
	if (kernel_mpps > 0)
		printf(" %8.2f %7.2fx\n", kernel_mpps, netbpf_mpps / kernel_mpps);
	else
		printf(" %8s %8s\n", "-", "-");
	fflush(stdout);
}
