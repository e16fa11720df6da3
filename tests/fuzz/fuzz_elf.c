// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the object loader: any bytes as an object file. Open must either fail with
 * a message or yield programs and maps that can be walked; small objects are loaded too (maps
 * created and filled, programs through the structural checks), then everything is released.
 * ASan and UBSan watch every step; seeds are the test objects (make fuzz, make check).
 */
#include <stddef.h>
#include <stdint.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Creating maps of gigabytes proves nothing here and exhausts the fuzzer's memory. */
static int small_enough(struct nb_object *obj)
{
	struct nb_object_map *m;
	uint64_t bytes = 0;

	nb_object_for_each_map(m, obj) {
		bytes += (uint64_t)nb_object_map_max_entries(m) *
			 (nb_object_map_key_size(m) + nb_object_map_value_size(m) + 64);
		if (nb_object_map_type(m) == BPF_MAP_TYPE_RINGBUF)
			bytes += nb_object_map_max_entries(m);
	}
	return bytes < (1 << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .name = "fuzz.o",
						 .log = &log };
	struct nb_object_load_opts load_opts = {
		.sz = sizeof(load_opts),
		.prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
		.prog_flags = NB_PROG_LOAD_CHECKED,
		.log = &log,
	};
	struct nb_object_prog *p;
	struct nb_object_map *m;
	struct nb_object *obj;
	unsigned int cnt, sum = 0;

	if (nb_object_open_mem(data, size, &open_opts, &obj)) {
		nb_log_free(&log);
		return 0;
	}
	nb_object_for_each_prog(p, obj) {
		const struct bpf_insn *insns = nb_object_prog_insns(p, &cnt);

		for (unsigned int i = 0; i < cnt; i++)
			sum += insns[i].code;
		sum += nb_object_prog_type(p);
		(void)nb_object_find_prog(obj, nb_object_prog_section(p), nb_object_prog_name(p));
	}
	nb_object_for_each_map(m, obj)
		(void)nb_object_find_map(obj, nb_object_map_name(m));
	if (small_enough(obj))
		(void)nb_object_load(obj, &load_opts);
	nb_object_close(obj);
	nb_unpin_all();
	nb_log_free(&log);
	return (int)(sum & 0);
}
