// SPDX-License-Identifier: GPL-2.0
/*
 * One program out of an object file, as tc's "obj FILE sec SECTION" takes it (iproute2's
 * bpf_load_common): the object is opened, loaded with the named section first and iproute2's
 * "ID/KEY" tail-call sections with it (the load's section option), and the caller keeps a
 * reference to the section's first program. The object itself is closed: its programs keep
 * their maps, and pinned maps stay shared through the pin registry, which is how a tail-call
 * table outlives the object, as with tc in the kernel.
 */
#include <errno.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

int nb_object_load_section(const char *file, const char *section, enum bpf_prog_type type,
			   const struct nb_object_map_size *sizes, unsigned int size_cnt,
			   struct nb_prog **progp, struct nb_log *log)
{
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts), .log = log };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts), .prog_type = type, .log = log,
					     .map_sizes = sizes, .map_size_cnt = size_cnt };
	struct nb_object_prog *want;
	struct nb_object *obj;
	int err;

	*progp = NULL;
	if (!file || !section)
		return -EINVAL;
	err = nb_object_open_file(file, &oopts, &obj);
	if (err)
		return err;
	want = nb_object_find_prog(obj, section, NULL);
	if (!want) {
		nb_log_printf(log, "%s: no program in section \"%s\"\n", file, section);
		err = -ENOENT;
		goto out;
	}
	lopts.section = section;
	err = nb_object_load(obj, &lopts);
	if (!err)
		*progp = nb_prog_get(nb_object_prog_prog(want));
out:
	nb_object_close(obj);
	return err;
}
