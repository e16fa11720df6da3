// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the command language (src/ctl): script text as `netbpf run SCRIPT` and
 * `netbpf -batch` read it (words, quotes, comments, line joins), and the tc and ip words of
 * each line acting on the datapath. The first byte picks what the rest is:
 *
 *   0  a script
 *   1  the words after "tc filter add dev d0 ingress u32 " (u32's keys, selectors, hashing)
 *   2  the words after "tc actions add "
 *   3  the words after "ip link set dev d0 "
 *
 * For 1..3 a device d0 with a clsact qdisc exists first. Every input ends in success or an
 * error naming the word or line at fault; never a crash or a sanitizer report. Between inputs
 * every device and shared action goes. Inputs that name files to write or kernel interfaces
 * ("pcap", "$", kernel port types) are skipped: a fuzzer writes no files and touches no
 * network. make fuzz passes tests/fuzz/fuzz_ctl.dict.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/dev.h>

#include "ctl/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static bool forbidden(const char *text)
{
	static const char *const words[] = { "pcap", "$", "afpacket", "afxdp", "tap" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(text, words[i]))
			return true;
	return false;
}

static void run(struct nb_ctl *ctl, const char *text)
{
	nb_log_free(&ctl->log);
	ctl->usage = false;
	if (nb_ctl_script_run(ctl, "fuzz", text, NULL, 0) &&
	    (!nb_log_text(&ctl->log) || !nb_log_text(&ctl->log)[0]))
		__builtin_trap();	/* an error says what is wrong */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const prefixes[] = {
		"", "tc filter add dev d0 ingress u32 ", "tc actions add ",
		"ip link set dev d0 ",
	};
	struct nb_ctl ctl = { 0 };
	const char *prefix;
	char *text;
	size_t plen;

	if (size < 1)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	ctl.out = devnull;
	prefix = prefixes[data[0] % 4];
	plen = strlen(prefix);
	text = malloc(plen + size);
	if (!text)
		return 0;
	memcpy(text, prefix, plen);
	memcpy(text + plen, data + 1, size - 1);
	text[plen + size - 1] = 0;
	/* one line after a prefix: the words of one command */
	if (plen)
		for (char *p = text; *p; p++)
			if (*p == '\n' || *p == '\\')
				*p = ' ';
	if (forbidden(text)) {
		free(text);
		return 0;
	}
	if (plen)
		run(&ctl, "link add d0 type sink\ntc qdisc add dev d0 clsact\n");
	run(&ctl, text);
	run(&ctl, "tc actions flush action gact\ntc actions flush action mirred\n"
		  "tc actions flush action bpf\n");
	nb_dev_destroy_all();
	nb_log_free(&ctl.log);
	free(text);
	return 0;
}
