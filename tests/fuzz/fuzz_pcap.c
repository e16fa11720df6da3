// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: pcap and pcapng files as netbpf reads them. The input is the file; it is
 * read twice, as `netbpf prog run --pcap-in` reads it (every frame, whatever its length, into
 * the test run of a tc and an XDP program that read the first byte past the Ethernet header)
 * and as a pcap port of `netbpf run` reads it (frames into pool packets, fragments beyond a
 * page, too long ones counted and skipped, two passes). No crash, no sanitizer report, every packet given back.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <netbpf/pcap.h>
#include <netbpf/prog.h>
#include <netbpf/test_run.h>

#include "io/port.h"
#include "pkt/pkt.h"
#include "bpf_asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nb_prog *progs[2];

/* r0 = data[14] when the frame has it, else 0: a program that looks at what it was given. */
static void setup(void)
{
	const struct bpf_insn xdp[] = {
		NB_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		NB_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		NB_MOV64_IMM(BPF_REG_0, 2),
		NB_MOV64_REG(BPF_REG_4, BPF_REG_2),
		NB_ALU64_IMM(BPF_ADD, BPF_REG_4, 15),
		NB_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 2),
		NB_LDX_MEM(BPF_B, BPF_REG_0, BPF_REG_2, 14),
		NB_ALU64_IMM(BPF_AND, BPF_REG_0, 3),
		NB_EXIT(),
	};
	struct bpf_insn tc[ARRAY_SIZE(xdp)];
	struct nb_prog_load_opts opts = { .sz = sizeof(opts), .license = "GPL" };

	memcpy(tc, xdp, sizeof(xdp));
	tc[0].off = offsetof(struct __sk_buff, data);
	tc[1].off = offsetof(struct __sk_buff, data_end);
	if (nb_prog_load(BPF_PROG_TYPE_XDP, xdp, ARRAY_SIZE(xdp), &opts, &progs[0]) ||
	    nb_prog_load(BPF_PROG_TYPE_SCHED_CLS, tc, ARRAY_SIZE(tc), &opts, &progs[1]))
		__builtin_trap();
}

static void read_as_prog_run(const char *path)
{
	struct nb_pcap_reader *r;
	struct nb_log log = { 0 };
	const unsigned char *frame;
	unsigned int len;
	u8 out[4096];

	if (nb_pcap_reader_open(path, &r, &log) == 0) {
		while (nb_pcap_reader_next(r, &frame, &len, &log) == 1) {
			for (int i = 0; i < 2; i++) {
				struct nb_test_run_opts o = {
					.sz = sizeof(o), .data_in = frame, .data_size_in = len,
					.data_out = out, .data_size_out = sizeof(out),
				};

				nb_prog_test_run(progs[i], &o);
			}
		}
		nb_pcap_reader_close(r);
	}
	nb_log_free(&log);
}

static void read_as_port(const char *path)
{
	struct nb_log log = { 0 };
	struct nb_pkt *pkts[32];
	struct nb_port *port;
	char words[128];
	unsigned int n;

	snprintf(words, sizeof(words), "rx %s loop 2", path);
	if (nb_port_open_str("pcap", words, &port, &log) == 0) {
		/* a file of empty passes ends; frames end after two passes */
		for (int rounds = 0; rounds < 1000; rounds++) {
			n = nb_port_rx_burst(port, pkts, ARRAY_SIZE(pkts));
			for (unsigned int i = 0; i < n; i++) {
				if (pkts[i]->len > NB_PKT_MAX_FRAME)
					__builtin_trap();
				nb_pkt_free(pkts[i]);
			}
			if (!n)
				break;
		}
		nb_port_close(port);
	}
	nb_log_free(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (!progs[0])
		setup();
	fd = memfd_create("fuzz.pcap", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_as_prog_run(path);
	read_as_port(path);
	close(fd);
	return 0;
}
