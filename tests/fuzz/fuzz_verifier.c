// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the verifier: any bytes as an instruction stream. The first byte picks
 * the program type (socket filter, tc, XDP); ldimm64 map references by index reach a hash, an
 * array and a ringbuf map. Every input must end in a verdict with a message, never a crash, a
 * sanitizer report or a hang (the 1,000,000-instruction budget bounds every walk).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <netbpf/map.h>
#include <netbpf/prog.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INSNS 256

static struct nb_map *maps[3];

static void create_maps(void)
{
	static const struct { enum bpf_map_type type; __u32 key, value, max; } def[] = {
		{ BPF_MAP_TYPE_HASH, 8, 16, 16 },
		{ BPF_MAP_TYPE_ARRAY, 4, 48, 4 },
		{ BPF_MAP_TYPE_RINGBUF, 0, 0, 4096 },
	};

	for (size_t i = 0; i < sizeof(def) / sizeof(def[0]); i++) {
		struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "fz" };

		if (nb_map_create(def[i].type, def[i].key, def[i].value, def[i].max, &opts,
				  &maps[i]))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum bpf_prog_type types[] = {
		BPF_PROG_TYPE_SOCKET_FILTER, BPF_PROG_TYPE_SCHED_CLS, BPF_PROG_TYPE_XDP,
	};
	struct bpf_insn insns[MAX_INSNS];
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .license = "GPL", .log = &log, .maps = maps, .map_cnt = 3,
		.flags = NB_PROG_LOAD_INTERP,
	};
	struct nb_prog *prog = NULL;
	size_t cnt;

	if (!maps[0])
		create_maps();
	if (size < 1 + sizeof(struct bpf_insn))
		return 0;
	cnt = (size - 1) / sizeof(struct bpf_insn);
	if (cnt > MAX_INSNS)
		cnt = MAX_INSNS;
	memcpy(insns, data + 1, cnt * sizeof(struct bpf_insn));
	if (data[0] & 0x80)
		log.level = NB_LOG_VERBOSE;
	if (nb_prog_load(types[data[0] % 3], insns, cnt, &opts, &prog) == 0)
		nb_prog_put(prog);
	else if (!nb_log_text(&log) || !nb_log_text(&log)[0])
		__builtin_trap();	/* every rejection names its reason */
	nb_log_free(&log);
	return 0;
}
