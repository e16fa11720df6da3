// SPDX-License-Identifier: GPL-2.0
/*
 * The prog words on the programs of this datapath, in bpftool's words and output:
 *
 *   prog { show | list } [PROG]       PROG := { id ID | name NAME | tag TAG }
 *
 * Each program: id, type, name, tag, GPL compatibility, run time and count (while statistics
 * are on: `netbpf daemon --bpf-stats`, as sysctl kernel.bpf_stats_enabled), when and by whom it
 * was loaded, the size of its instructions and machine code, the memory the kernel would charge
 * for it, the maps it uses and its BTF. Programs that `prog load`, `prog run`
 * and the other offline commands load are in netbpf/src/cli: this is the running datapath's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/libbpf.h>
#include <netbpf/prog.h>

#include "ctl/args.h"
#include "ctl/ctl.h"
#include "ctl/json.h"

static void tag_hex(const __u8 *tag, char *buf)
{
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		sprintf(buf + 2 * i, "%02x", tag[i]);
}

/*
 * The load time, boot-time nanoseconds, as bpftool prints it: the local date (seconds since the
 * epoch under -j), from the gap between the real and the boot-time clocks now.
 */
static void load_date(__u64 nsecs, bool json, char *buf, size_t size)
{
	struct timespec real, boot;
	struct tm tm;
	time_t secs;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	secs = (real.tv_sec - boot.tv_sec) +
	       (real.tv_nsec - boot.tv_nsec + (long long)nsecs) / 1000000000;
	if (!localtime_r(&secs, &tm) || !strftime(buf, size, json ? "%s" : "%FT%T%z", &tm))
		snprintf(buf, size, "%llu", (unsigned long long)(nsecs / 1000000000));
}

static void print_prog(struct nb_ctl *ctl, struct nb_json *j, const struct nb_prog_info *info)
{
	const char *type = libbpf_bpf_prog_type_str(info->type);
	unsigned int ids = info->nr_map_ids < NB_PROG_INFO_MAP_IDS ? info->nr_map_ids :
				NB_PROG_INFO_MAP_IDS;
	char tag[2 * BPF_TAG_SIZE + 1], date[32];

	tag_hex(info->tag, tag);
	load_date(info->load_time, j, date, sizeof(date));
	if (!type)
		type = "unknown";
	if (j) {
		nb_json_start_object(j, NULL);
		nb_json_uint(j, "id", info->id);
		nb_json_string(j, "type", type);
		nb_json_string(j, "name", info->name);
		nb_json_string(j, "tag", tag);
		nb_json_bool(j, "gpl_compatible", info->gpl_compatible);
		if (info->run_cnt) {
			nb_json_uint(j, "run_time_ns", info->run_time_ns);
			nb_json_uint(j, "run_cnt", info->run_cnt);
		}
		nb_json_uint(j, "loaded_at", strtoull(date, NULL, 10));
		nb_json_uint(j, "uid", info->created_by_uid);
		nb_json_uint(j, "bytes_xlated", info->xlated_prog_len);
		nb_json_bool(j, "jited", info->jited_prog_len != 0);
		if (info->jited_prog_len)
			nb_json_uint(j, "bytes_jited", info->jited_prog_len);
		nb_json_uint(j, "bytes_memlock", info->memlock);
		nb_json_uint(j, "verified_insns", info->verified_insns);
		if (ids) {
			nb_json_start_array(j, "map_ids");
			for (unsigned int i = 0; i < ids; i++)
				nb_json_uint(j, NULL, info->map_ids[i]);
			nb_json_end_array(j);
		}
		if (info->btf_id)
			nb_json_uint(j, "btf_id", info->btf_id);
		nb_json_end_object(j);
		return;
	}
	fprintf(ctl->out, "%u: %s  name %s  tag %s%s", info->id, type, info->name, tag,
		info->gpl_compatible ? "  gpl" : "");
	if (info->run_cnt)
		fprintf(ctl->out, " run_time_ns %llu run_cnt %llu",
			(unsigned long long)info->run_time_ns, (unsigned long long)info->run_cnt);
	fprintf(ctl->out, "\n\tloaded_at %s  uid %u\n", date, info->created_by_uid);
	fprintf(ctl->out, "\txlated %uB  ", info->xlated_prog_len);
	if (info->jited_prog_len)
		fprintf(ctl->out, "jited %uB", info->jited_prog_len);
	else
		fprintf(ctl->out, "not jited");
	fprintf(ctl->out, "  memlock %lluB", (unsigned long long)info->memlock);
	for (unsigned int i = 0; i < ids; i++)
		fprintf(ctl->out, "%s%u", i ? "," : "  map_ids ", info->map_ids[i]);
	if (info->btf_id)
		fprintf(ctl->out, "\n\tbtf_id %u", info->btf_id);
	fprintf(ctl->out, "\n");
}

/* Whether info is what "name NAME" or "tag TAG" names; how NULL: every program. */
static bool selected(const struct nb_prog_info *info, const char *how, const char *what)
{
	char tag[2 * BPF_TAG_SIZE + 1];

	if (!how)
		return true;
	if (!strcmp(how, "name"))	/* names are kept to 15 characters, as the kernel's */
		return !strncmp(what, info->name, BPF_OBJ_NAME_LEN - 1) &&
		       (strlen(what) >= BPF_OBJ_NAME_LEN - 1 || !strcmp(what, info->name));
	tag_hex(info->tag, tag);
	return !strcasecmp(what, tag);
}

static int prog_show_id(struct nb_ctl *ctl, const char *word)
{
	struct nb_prog_info info;
	struct nb_prog *prog;
	struct nb_json *j;
	unsigned int id;

	if (!nb_ctl_parse_u32(word, &id, 0))
		return nb_ctl_wrong(ctl, word, "a program id is a number");
	prog = nb_prog_get_by_id(id);
	if (!prog)
		return nb_ctl_fail(ctl, -ENOENT, "no program with id %u", id);
	nb_prog_get_info(prog, &info);
	nb_prog_put(prog);
	j = ctl->json ? nb_json_new(ctl->out, ctl->pretty) : NULL;
	print_prog(ctl, j, &info);
	nb_json_free(j);
	return 0;
}

static int prog_show(struct nb_ctl *ctl, const char *how, const char *what)
{
	struct nb_json *j = NULL;
	unsigned int found = 0;
	__u32 id = 0;

	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(j, NULL);
	}
	while (!nb_prog_get_next_id(id, &id)) {
		struct nb_prog *prog = nb_prog_get_by_id(id);
		struct nb_prog_info info;

		if (!prog)
			continue;
		nb_prog_get_info(prog, &info);
		nb_prog_put(prog);
		if (!selected(&info, how, what))
			continue;
		print_prog(ctl, j, &info);
		found++;
	}
	if (j) {
		nb_json_end_array(j);
		nb_json_free(j);
	}
	if (how && !found)
		return nb_ctl_fail(ctl, -ENOENT, "no program with %s %s", how, what);
	return 0;
}

int nb_ctl_prog(struct nb_ctl *ctl, int argc, char **argv)
{
	const char *how = NULL, *what = NULL;

	if (argc < 1)
		return nb_ctl_usage(ctl, "prog { show | list } [{ id ID | name NAME | tag TAG }]");
	if (!nb_matches(argv[0], "show") && !nb_matches(argv[0], "list"))
		return nb_ctl_wrong(ctl, argv[0], "expected show or list (the running datapath's "
				    "programs; load, verify, dump and run take object files)");
	if (argc > 1) {
		int i = 1;

		how = argv[1];
		if (strcmp(how, "id") && strcmp(how, "name") && strcmp(how, "tag"))
			return nb_ctl_wrong(ctl, how, "expected id, name or tag");
		what = nb_ctl_next(ctl, argc, argv, &i);
		if (!what)
			return -EINVAL;
		if (argc > 3)
			return nb_ctl_wrong(ctl, argv[3], "one program at a time");
	}
	if (how && !strcmp(how, "id"))
		return prog_show_id(ctl, what);
	return prog_show(ctl, how, what);
}
