// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the --map NAME=FILE format (src/ctl/map_file.c) of `netbpf prog run` and
 * `netbpf diff`. The input is the file; its elements go into a hash and an array map as
 * prog_run's preload puts them (sizes checked first). Every input ends in the elements or an
 * error naming the line, never a crash or a sanitizer report.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <netbpf/map.h>

#include "ctl/map_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nb_map *maps[2];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_map_file mf = { 0 };
	struct nb_log log = { 0 };
	char arg[64];
	int fd;

	if (!maps[0]) {
		struct nb_map_create_opts o = { .sz = sizeof(o), .name = "m" };

		if (nb_map_create(BPF_MAP_TYPE_HASH, 4, 8, 64, &o, &maps[0]) ||
		    nb_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 8, &o, &maps[1]))
			__builtin_trap();
	}
	fd = memfd_create("fuzz.map", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(arg, sizeof(arg), "m=/proc/self/fd/%d", fd);
	if (nb_map_file_read(arg, &mf, &log) == 0) {
		for (size_t e = 0; e < mf.cnt; e++) {
			const struct nb_map_file_elem *el = &mf.elems[e];

			for (int i = 0; i < 2; i++)
				if (el->key_len == nb_map_key_size(maps[i]) &&
				    el->value_len == nb_map_value_size(maps[i]))
					nb_map_update_elem(maps[i], el->key, el->value, BPF_ANY);
		}
		nb_map_file_free(&mf);
	} else if (!nb_log_text(&log) || !nb_log_text(&log)[0]) {
		__builtin_trap();	/* an error says what is wrong */
	}
	nb_log_free(&log);
	close(fd);
	return 0;
}
