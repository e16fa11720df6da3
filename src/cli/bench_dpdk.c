// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf bench's DPDK rows: the peer (bench/dpdk/peer.c, built by make bench against Debian's
 * libdpdk-dev) run as a child process, one run per round, between netbpf's rounds so that both
 * meet the machine alike. The peer is a program of its own because the EAL owns its process
 * (one rte_eal_init per process, its own threads and memory): netbpf does not link DPDK.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/bench_dpdk.h"

const char bench_dpdk_note[] =
	"the DPDK rows: bench/dpdk/peer.c on DPDK 22.11 (Debian's libdpdk-dev), testpmd's io "
	"forwarding written out (Debian ships no testpmd): rx bursts of 32 from a net_null port "
	"with copy=1 (each frame a copy of a 64-byte template, as netbpf's generator in mode "
	"copy), the program JIT-compiled by librte_bpf run on each frame, tx bursts to a second "
	"net_null port; one lcore, EAL without hugepages (--no-huge); Mpps per CPU second of the "
	"forwarding thread, best of the rounds. librte_bpf has no XDP context, helpers or maps: "
	"its programs (bench/dpdk/peer_prog.c) take the frame and return nonzero to forward it, "
	"the forwarding the XDP programs ask of netbpf done by the loop";

static char peer[PATH_MAX], prog[PATH_MAX + 32];

bool bench_dpdk_find(char *why, size_t size)
{
	const char *env = getenv("NB_DPDK_PEER");
	char *slash;
	ssize_t n;

	if (env) {
		snprintf(peer, sizeof(peer), "%s", env);
	} else {
		n = readlink("/proc/self/exe", peer, sizeof(peer) - sizeof("/dpdk-peer"));
		if (n <= 0) {
			snprintf(why, size, "cannot find this netbpf: %s", strerror(errno));
			return false;
		}
		peer[n] = 0;
		strcpy(strrchr(peer, '/'), "/dpdk-peer");
	}
	slash = strrchr(peer, '/');
	snprintf(prog, sizeof(prog), "%.*s/bench/dpdk/peer_prog.o",
		 slash ? (int)(slash - peer) : 1, slash ? peer : ".");
	if (access(peer, X_OK)) {
		snprintf(why, size, "no DPDK peer at %s (make bench builds it, with libdpdk-dev)",
			 peer);
		return false;
	}
	if (access(prog, R_OK)) {
		snprintf(why, size, "no peer programs at %s (make bench builds them)", prog);
		return false;
	}
	return true;
}

/* The peer's output: its result line, or its last line as the reason it gave none. */
static int parse_output(char *out, struct bench_dpdk_run *r, char *why, size_t size)
{
	char *line, *save, *last = NULL;

	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "result cpu_mpps %lf wall_mpps %lf", &r->cpu_mpps,
			   &r->wall_mpps) == 2)
			return 0;
		last = line;
	}
	snprintf(why, size, "the DPDK peer failed: %s", last ? last : "no output");
	return -1;
}

int bench_dpdk_run(const char *section, double warmup, double window, struct bench_dpdk_run *r,
		   char *why, size_t size)
{
	char warm[32], win[32], out[8192];
	size_t len = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	snprintf(warm, sizeof(warm), "%g", warmup);
	snprintf(win, sizeof(win), "%g", window);
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(why, size, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, size, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execl(peer, peer, "--warmup", warm, "--window", win, prog, section, (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", peer, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	/* the EAL's chatter first: the result line comes last, so keep the tail */
	while ((n = read(fds[0], out + len, sizeof(out) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
		if (len == sizeof(out) - 1) {
			memmove(out, out + len / 2, len - len / 2);
			len -= len / 2;
		}
	}
	out[len] = 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (parse_output(out, r, why, size))
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, size, "the DPDK peer exited with status %d", status);
		return -1;
	}
	return 0;
}
