// SPDX-License-Identifier: GPL-2.0
/*
 * The prog words on the programs of this datapath, in bpftool's words and output:
 *
 *   prog { show | list } [PROG]       PROG := { id ID | name NAME | tag TAG }
 *   prog dump xlated PROG [opcodes] [linum]
 *
 * Each program: id, type, name, tag, GPL compatibility, run time and count (while statistics
 * are on: `netbpf daemon --bpf-stats`, as sysctl kernel.bpf_stats_enabled), when and by whom it
 * was loaded, the size of its instructions and machine code, the memory the kernel would charge
 * for it, the maps it uses and its BTF; dump xlated lists its instructions as the engines run
 * them (prog_xlated.c). Programs that `prog load`, `prog run`
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
#include "ctl/prog_xlated.h"

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

static const char *type_name(const struct nb_prog_info *info)
{
	return libbpf_bpf_prog_type_str(info->type) ?: "unknown";
}

/*
 * The first line of prog show, which prog dump prints before each of several programs; with
 * j, the members of the program's object that stand for it there.
 */
static void print_prog_header(struct nb_ctl *ctl, struct nb_json *j,
			      const struct nb_prog_info *info)
{
	char tag[2 * BPF_TAG_SIZE + 1];

	tag_hex(info->tag, tag);
	if (j) {
		nb_json_uint(j, "id", info->id);
		nb_json_string(j, "type", type_name(info));
		nb_json_string(j, "name", info->name);
		nb_json_string(j, "tag", tag);
		nb_json_bool(j, "gpl_compatible", info->gpl_compatible);
		if (info->run_cnt) {
			nb_json_uint(j, "run_time_ns", info->run_time_ns);
			nb_json_uint(j, "run_cnt", info->run_cnt);
		}
		return;
	}
	fprintf(ctl->out, "%u: %s  name %s  tag %s%s", info->id, type_name(info), info->name, tag,
		info->gpl_compatible ? "  gpl" : "");
	if (info->run_cnt)
		fprintf(ctl->out, " run_time_ns %llu run_cnt %llu",
			(unsigned long long)info->run_time_ns, (unsigned long long)info->run_cnt);
	fprintf(ctl->out, "\n");
}

static void print_prog(struct nb_ctl *ctl, struct nb_json *j, const struct nb_prog_info *info)
{
	unsigned int ids = info->nr_map_ids < NB_PROG_INFO_MAP_IDS ? info->nr_map_ids :
				NB_PROG_INFO_MAP_IDS;
	char date[32];

	load_date(info->load_time, j, date, sizeof(date));
	if (j) {
		nb_json_start_object(j, NULL);
		print_prog_header(ctl, j, info);
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
	print_prog_header(ctl, NULL, info);
	fprintf(ctl->out, "\tloaded_at %s  uid %u\n", date, info->created_by_uid);
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

/* Whether info is what "id ID", "name NAME" or "tag TAG" names; how NULL: every program. */
static bool selected(const struct nb_prog_info *info, const char *how, const char *what)
{
	char tag[2 * BPF_TAG_SIZE + 1];
	unsigned int id;

	if (!how)
		return true;
	if (!strcmp(how, "id"))
		return nb_ctl_parse_u32(what, &id, 0) && id == info->id;
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

/*
 * The next program after *id that how and what select (selected()), held, with its info; NULL
 * when there is none. Programs unloaded meanwhile are passed over.
 */
static struct nb_prog *next_selected(__u32 *id, const char *how, const char *what,
				     struct nb_prog_info *info)
{
	while (!nb_prog_get_next_id(*id, id)) {
		struct nb_prog *prog = nb_prog_get_by_id(*id);

		if (!prog)
			continue;
		nb_prog_get_info(prog, info);
		if (selected(info, how, what))
			return prog;
		nb_prog_put(prog);
	}
	return NULL;
}

static int prog_show(struct nb_ctl *ctl, const char *how, const char *what)
{
	struct nb_json *j = NULL;
	struct nb_prog_info info;
	struct nb_prog *prog;
	unsigned int found = 0;
	__u32 id = 0;

	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		nb_json_start_array(j, NULL);
	}
	while ((prog = next_selected(&id, how, what, &info))) {
		nb_prog_put(prog);
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

/*
 * prog dump xlated PROG [opcodes] [linum]: the programs PROG names, one as bpftool lists it,
 * several each after its prog show line (JSON: an array of objects with "insns").
 */
static int prog_dump(struct nb_ctl *ctl, int argc, char **argv)
{
	const char *how, *what;
	unsigned int flags = 0, found = 0, id;
	struct nb_json *j = NULL;
	struct nb_prog_info info;
	struct nb_prog *prog;
	bool several;
	__u32 next = 0;
	int i = 2;

	if (argc < 2 || !nb_matches(argv[1], "xlated")) {
		if (argc >= 2 && nb_matches(argv[1], "jited"))
			return nb_ctl_wrong(ctl, argv[1], "the datapath's machine code is not "
					    "dumped: netbpf prog dump jited OBJ shows an object's");
		return argc < 2 ? nb_ctl_usage(ctl, "prog dump xlated PROG [opcodes] [linum]") :
				  nb_ctl_wrong(ctl, argv[1], "expected xlated");
	}
	if (argc < 4)
		return nb_ctl_usage(ctl, "prog dump xlated: which program? give id ID, name NAME "
				    "or tag TAG");
	how = argv[2];
	if (strcmp(how, "id") && strcmp(how, "name") && strcmp(how, "tag"))
		return nb_ctl_wrong(ctl, how, "expected id, name or tag");
	what = nb_ctl_next(ctl, argc, argv, &i);
	if (!strcmp(how, "id") && !nb_ctl_parse_u32(what, &id, 0))
		return nb_ctl_wrong(ctl, what, "a program id is a number");
	for (i++; i < argc; i++) {
		if (!strcmp(argv[i], "opcodes"))
			flags |= NB_XLATED_OPCODES;
		else if (!strcmp(argv[i], "linum"))
			flags |= NB_XLATED_LINUM;
		else if (!strcmp(argv[i], "visual") || !strcmp(argv[i], "file"))
			return nb_ctl_wrong(ctl, argv[i], "not supported: netbpf prints the "
					    "listing only (opcodes, linum)");
		else
			return nb_ctl_wrong(ctl, argv[i], "expected opcodes or linum");
	}
	/* bpftool's layout depends on how many there are: count them first */
	while ((prog = next_selected(&next, how, what, &info))) {
		nb_prog_put(prog);
		found++;
	}
	if (!found)
		return nb_ctl_fail(ctl, -ENOENT, "no program with %s %s", how, what);
	several = found > 1;
	if (ctl->json) {
		j = nb_json_new(ctl->out, ctl->pretty);
		if (several)
			nb_json_start_array(j, NULL);
	}
	next = 0;
	for (unsigned int done = 0;
	     done < found && (prog = next_selected(&next, how, what, &info)); done++) {
		if (several) {
			if (j)
				nb_json_start_object(j, NULL);
			print_prog_header(ctl, j, &info);
		}
		nb_ctl_prog_dump_xlated(ctl->out, j, several ? "insns" : NULL, prog, flags);
		if (several && j)
			nb_json_end_object(j);
		else if (several && done + 1 < found)
			fputc('\n', ctl->out);
		nb_prog_put(prog);
	}
	if (j && several)
		nb_json_end_array(j);
	nb_json_free(j);
	return 0;
}

int nb_ctl_prog(struct nb_ctl *ctl, int argc, char **argv)
{
	const char *how = NULL, *what = NULL;

	if (argc < 1)
		return nb_ctl_usage(ctl, "prog { show | list } [{ id ID | name NAME | tag TAG }]; "
				    "prog dump xlated PROG [opcodes] [linum]");
	if (nb_matches(argv[0], "dump"))
		return prog_dump(ctl, argc, argv);
	if (!nb_matches(argv[0], "show") && !nb_matches(argv[0], "list"))
		return nb_ctl_wrong(ctl, argv[0], "expected show, list or dump (the running "
				    "datapath's programs; load, verify and run take object files)");
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
