// SPDX-License-Identifier: GPL-2.0
/* Helpers of the verifier tests: case maps, loading, the table runner. */
#include <stdio.h>

#include "verifier_test.h"

void vt_maps_create(struct nb_map **maps)
{
	static const struct {
		enum bpf_map_type type;
		__u32 key, value, max, flags;
	} def[VT_MAP_CNT] = {
		[VT_MAP_HASH_8_16] = { BPF_MAP_TYPE_HASH, 8, 16, 16, 0 },
		[VT_MAP_ARRAY_4_48] = { BPF_MAP_TYPE_ARRAY, 4, 48, 4, 0 },
		[VT_MAP_RINGBUF] = { BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0 },
		[VT_MAP_ARRAY_RDONLY] = { BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_RDONLY_PROG },
		[VT_MAP_ARRAY_WRONLY] = { BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_WRONLY_PROG },
		[VT_MAP_PERF] = { BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 4, 0 },
	};

	for (int i = 0; i < VT_MAP_CNT; i++) {
		struct nb_log log = { 0 };
		struct nb_map_create_opts opts = {
			.sz = sizeof(opts), .name = "vt", .map_flags = def[i].flags, .log = &log,
		};
		int err = nb_map_create(def[i].type, def[i].key, def[i].value, def[i].max, &opts,
					&maps[i]);

		if (err)
			NB_FAIL("map %d: %d %s", i, err, nb_log_text(&log));
		nb_log_free(&log);
	}
}

void vt_maps_put(struct nb_map **maps)
{
	for (int i = 0; i < VT_MAP_CNT; i++)
		nb_map_put(maps[i]);
}

int vt_load(enum bpf_prog_type type, const struct bpf_insn *insns, unsigned int cnt,
	    struct nb_map **maps, struct nb_log *log, struct nb_prog **progp)
{
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = log, .maps = maps,
		.map_cnt = maps ? VT_MAP_CNT : 0, .flags = NB_PROG_LOAD_INTERP,
	};

	return nb_prog_load(type ? type : BPF_PROG_TYPE_SYSCALL, insns, cnt, &opts, progp);
}

unsigned int vt_insn_cnt(const struct bpf_insn *insns, unsigned int max)
{
	unsigned int n = max;

	while (n > 0 && insns[n - 1].code == 0 &&
	       !(n >= 2 && insn_is_ldimm64(&insns[n - 2])))
		n--;
	return n;
}

void vt_run_case(const void *arg)
{
	const struct vt_case *c = arg;
	struct nb_map *maps[VT_MAP_CNT];
	struct nb_log log = { 0 };
	struct nb_prog *prog = NULL;
	int err;

	vt_maps_create(maps);
	err = vt_load(c->type, c->insns, vt_insn_cnt(c->insns, VT_MAX_INSNS), maps, &log, &prog);
	if (!c->err && err)
		NB_FAIL("rejected (%d): %s", err, nb_log_text(&log));
	if (c->err && !err)
		NB_FAIL("accepted, expected \"%s\"", c->err);
	if (c->err)
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), c->err);
	nb_prog_put(prog);
	nb_log_free(&log);
	vt_maps_put(maps);
}

void vt_register_cases(const char *prefix, const struct vt_case *cases, unsigned int cnt)
{
	for (unsigned int i = 0; i < cnt; i++) {
		char name[128];

		snprintf(name, sizeof(name), "%s_%s", prefix, cases[i].name);
		nb_test_register(name, vt_run_case, &cases[i]);
	}
}
