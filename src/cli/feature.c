// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf feature probe: which helpers a program of each type may call here, in bpftool
 * feature probe's words ("eBPF helpers supported for program type sched_cls:", and with -j
 * "helpers": { "sched_cls_available_helpers": [...] }). bpftool asks the kernel; this asks
 * netbpf's verifier tables, and adds what bpftool cannot know: the helpers Linux offers the
 * type that netbpf does not implement ("..._missing_helpers" with -j).
 *
 *   netbpf [-j] feature probe [kernel] [full]
 */
#include <stdio.h>
#include <string.h>

#include <netbpf/helpers.h>

#include "cli/cli.h"
#include "ctl/json.h"

/* The helpers of one type that have status st, in id order (names of every known id). */
static void list_text(enum bpf_prog_type type, enum nb_helper_avail st)
{
	for (__s32 id = 1; id < NB_KERNEL_FUNC_MAX_ID; id++)
		if (nb_prog_type_helper_avail(type, id) == (int)st)
			printf("\t- %s\n", nb_helper_name(id) ?: "(unnamed)");
}

static void list_json(struct nb_json *j, enum bpf_prog_type type, enum nb_helper_avail st,
		      const char *suffix)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_%s", nb_prog_type_name(type), suffix);
	nb_json_start_array(j, key);
	for (__s32 id = 1; id < NB_KERNEL_FUNC_MAX_ID; id++)
		if (nb_prog_type_helper_avail(type, id) == (int)st)
			nb_json_string(j, NULL, nb_helper_name(id) ?: "(unnamed)");
	nb_json_end_array(j);
}

/* netbpf's packet program types, in bpftool's (the enum's) order. */
static const enum bpf_prog_type probed_types[] = {
	BPF_PROG_TYPE_SOCKET_FILTER, BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_SCHED_ACT,
	BPF_PROG_TYPE_XDP,
};

static int feature_probe(void)
{
	struct nb_json *j = NULL;

	if (nb_cli.json) {
		j = nb_json_new(stdout, nb_cli.pretty);
		nb_json_start_object(j, NULL);
		nb_json_start_object(j, "helpers");
	} else {
		printf("Scanning eBPF helper functions...\n");
	}
	for (size_t t = 0; t < sizeof(probed_types) / sizeof(probed_types[0]); t++) {
		enum bpf_prog_type type = probed_types[t];

		if (nb_prog_type_helper_avail(type, BPF_FUNC_map_lookup_elem) < 0)
			continue;
		if (j) {
			list_json(j, type, NB_HELPER_AVAILABLE, "available_helpers");
			list_json(j, type, NB_HELPER_MISSING, "missing_helpers");
			continue;
		}
		printf("eBPF helpers supported for program type %s:\n", nb_prog_type_name(type));
		list_text(type, NB_HELPER_AVAILABLE);
		printf("eBPF helpers Linux offers program type %s that netbpf lacks:\n",
		       nb_prog_type_name(type));
		list_text(type, NB_HELPER_MISSING);
	}
	if (j) {
		nb_json_end_object(j);
		nb_json_end_object(j);
		nb_json_free(j);
	}
	return NB_EXIT_OK;
}

static int feature_usage(FILE *out)
{
	fprintf(out, "Usage: netbpf feature probe [kernel] [full]\n"
		     "       netbpf feature help\n");
	return out == stdout ? NB_EXIT_OK : NB_EXIT_USAGE;
}

int cmd_feature(int argc, char **argv)
{
	if (argc < 1)
		return feature_usage(stderr);
	if (nb_matches(argv[0], "help"))
		return feature_usage(stdout);
	if (!nb_matches(argv[0], "probe")) {
		nb_cli_error("feature: unknown command \"%s\"", argv[0]);
		return feature_usage(stderr);
	}
	/* bpftool's component and detail words: netbpf has one component and no partial lists */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "kernel") && strcmp(argv[i], "full")) {
			nb_cli_error("feature probe: argument \"%s\" is wrong (netbpf probes only "
				     "itself: kernel, full)", argv[i]);
			return NB_EXIT_USAGE;
		}
	}
	return feature_probe();
}
