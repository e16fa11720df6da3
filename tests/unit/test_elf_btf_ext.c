// SPDX-License-Identifier: GPL-2.0
/*
 * The object loader's .BTF.ext: its func_info and line_info reach every program, moved with
 * the functions it is linked from, and make the verifier's subprogram rules those of an object
 * with BTF. A .BTF.ext that cannot be read is left out, as libbpf leaves it out: the object
 * loads, its programs without the records, and the verbose log says why.
 */
#include "common/types.h"
#include "elf_util.h"

struct image {
	unsigned char buf[1 << 20];
	size_t size;
	unsigned char *ext;	/* the .BTF.ext header in buf */
};

/* The .BTF.ext header: magic 0xeB9F, version 1, flags 0, a 32-byte header (.BTF's is 24). */
static const unsigned char ext_magic[] = { 0x9f, 0xeb, 1, 0, 32, 0, 0, 0 };

static void load_image(struct image *im, const char *name)
{
	FILE *f = fopen(elf_test_path(name), "rb");

	NB_ASSERT(f);
	im->size = fread(im->buf, 1, sizeof(im->buf), f);
	fclose(f);
	im->ext = memmem(im->buf, im->size, ext_magic, sizeof(ext_magic));
	NB_ASSERT(im->ext);
}

/* Loads only program name of the image; 0 or the error, with the log of open and load. */
static int load_prog(const struct image *im, const char *name, struct nb_log *log)
{
	struct nb_object_open_opts oo = { .sz = sizeof(oo), .name = "ext.o", .log = log };
	struct nb_object_load_opts lo = { .sz = sizeof(lo), .log = log };
	struct nb_object_prog *p;
	struct nb_object *obj;
	int err;

	err = nb_object_open_mem(im->buf, im->size, &oo, &obj);
	if (err)
		NB_FAIL("open: %s", nb_log_text(log));
	nb_object_for_each_prog(p, obj)
		nb_object_prog_set_autoload(p, !strcmp(nb_object_prog_name(p), name));
	err = nb_object_load(obj, &lo);
	nb_object_close(obj);
	return err;
}

static struct image im;

NB_TEST(elf_btf_ext_records_reach_the_program)
{
	struct nb_log log = { 0 };

	load_image(&im, "verifier_global.o");
	/* A tail call in a static subprogram: allowed with func_info only. */
	NB_ASSERT_EQ(load_prog(&im, "ok_tail_call_in_static", &log), 0);
	nb_log_free(&log);
}

NB_TEST(elf_btf_ext_unreadable_is_left_out)
{
	static const struct {
		unsigned int at;	/* byte of the .BTF.ext image to change */
		unsigned char value;
		const char *why;
	} cases[] = {
		{ 2, 2, "section .BTF.ext ignored: magic 0xeb9f version 2 flags 0x0" },
		{ 6, 1, "section .BTF.ext ignored: header length 65568" },
		{ 13, 0x40, "section .BTF.ext ignored: func_info at" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct nb_log log = { .level = NB_LOG_VERBOSE };
		unsigned char saved;

		load_image(&im, "verifier_global.o");
		saved = im.ext[cases[i].at];
		im.ext[cases[i].at] = cases[i].value;
		NB_ASSERT(load_prog(&im, "ok_tail_call_in_static", &log) < 0);
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log), cases[i].why);
		NB_ASSERT_STR_CONTAINS(nb_log_text(&log),
				       "tail_call is not allowed in subprogs without BTF");
		nb_log_free(&log);
		im.ext[cases[i].at] = saved;
	}
}

NB_TEST(elf_btf_ext_bad_record_size)
{
	struct nb_log log = { .level = NB_LOG_VERBOSE };
	__u32 func_info_off, rec_size = 4;

	load_image(&im, "verifier_global.o");
	memcpy(&func_info_off, im.ext + 8, sizeof(func_info_off));
	memcpy(im.ext + 32 + func_info_off, &rec_size, sizeof(rec_size));
	NB_ASSERT(load_prog(&im, "ok_tail_call_in_static", &log) < 0);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log),
			       "section .BTF.ext ignored: func_info record size 4 (at least 8");
	nb_log_free(&log);
}
