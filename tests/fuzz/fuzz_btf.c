// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: BTF and .BTF.ext as the object loader reads them (the .maps definitions
 * of src/bpf/btf_maps.c walk the types). A real object ($NB_BUILD/tests/bpf/elf_btf_pin.o,
 * with BTF-defined maps and pinning) is the template; the input replaces its sections:
 *
 *   bytes 0..3   length of the new .BTF (little endian)
 *   then         the new .BTF, then the new .BTF.ext
 *
 * so that mutations reach the type walk instead of dying in the ELF parser (fuzz_elf's work).
 * Every input ends in a loaded object or an error that names the section; never a crash or a
 * sanitizer report. tests/cli/fuzz_btf.sh seeds it with the sections of the test objects.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/object.h>
#include <netbpf/prog.h>

/* The most memory the maps of one input may ask for: 16 MiB. */
#define FUZZ_MAP_BYTES_MAX (16u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char *tmpl;
static size_t tmpl_size;

static void load_template(void)
{
	const char *build = getenv("NB_BUILD") ? getenv("NB_BUILD") : "build";
	char path[512];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/bpf/elf_btf_pin.o", build);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz_btf: no template %s (make first)\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	tmpl = malloc((size_t)n);
	if (!tmpl || fread(tmpl, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	tmpl_size = (size_t)n;
	fclose(f);
}

/* The template with .BTF and .BTF.ext pointing at new bytes appended to it. */
static unsigned char *build_object(const uint8_t *btf, size_t btf_len, const uint8_t *ext,
				   size_t ext_len, size_t *out_size)
{
	size_t size = tmpl_size + btf_len + ext_len + 16;
	unsigned char *obj = malloc(size);
	const Elf64_Ehdr *eh;
	const char *names;
	size_t at = tmpl_size;

	if (!obj)
		return NULL;
	memcpy(obj, tmpl, tmpl_size);
	eh = (const Elf64_Ehdr *)obj;
	names = (const char *)obj + ((Elf64_Shdr *)(obj + eh->e_shoff))[eh->e_shstrndx].sh_offset;
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr *sh = (Elf64_Shdr *)(obj + eh->e_shoff) + i;
		const char *name = names + sh->sh_name;
		const uint8_t *src = NULL;
		size_t len = 0;

		if (!strcmp(name, ".BTF")) {
			src = btf;
			len = btf_len;
		} else if (!strcmp(name, ".BTF.ext")) {
			src = ext;
			len = ext_len;
		} else {
			continue;
		}
		at = (at + 7) & ~(size_t)7;
		memcpy(obj + at, src, len);
		sh->sh_offset = at;
		sh->sh_size = len;
		at += len;
	}
	*out_size = at;
	return obj;
}

/*
 * Maps the fuzzed BTF may size to gigabytes are created as the kernel would create them, but
 * filling that memory is all the run would do: keep such objects out of load.
 */
static bool maps_fit(const struct nb_object *obj)
{
	struct nb_object_map *map;

	nb_object_for_each_map(map, obj) {
		uint64_t bytes = (uint64_t)nb_object_map_max_entries(map) *
				 (nb_object_map_key_size(map) + nb_object_map_value_size(map));

		if (bytes > FUZZ_MAP_BYTES_MAX)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_log log = { 0 };
	struct nb_object_open_opts open_opts = { .sz = sizeof(open_opts), .name = "fuzz_btf.o",
						 .log = &log };
	struct nb_object_load_opts load_opts = { .sz = sizeof(load_opts), .log = &log };
	struct nb_object *obj;
	unsigned char *elf;
	size_t btf_len, elf_size;
	uint32_t len32;

	if (!tmpl)
		load_template();
	if (size < 4)
		return 0;
	memcpy(&len32, data, 4);
	btf_len = len32 % (size - 3);
	elf = build_object(data + 4, btf_len, data + 4 + btf_len, size - 4 - btf_len, &elf_size);
	if (!elf)
		return 0;
	if (nb_object_open_mem(elf, elf_size, &open_opts, &obj) == 0) {
		if (maps_fit(obj) && nb_object_load(obj, &load_opts) && (!nb_log_text(&log) || !nb_log_text(&log)[0]))
			__builtin_trap();	/* a refusal says why */
		nb_object_close(obj);
	} else if (!nb_log_text(&log) || !nb_log_text(&log)[0]) {
		__builtin_trap();
	}
	nb_unpin_all();
	nb_log_free(&log);
	free(elf);
	return 0;
}
