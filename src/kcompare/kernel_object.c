// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of an object libbpf cannot open (kernel_object.h). iproute2 reads the `maps`
 * section itself, creates the maps, writes their fds into the instructions (BPF_PSEUDO_MAP_FD)
 * and fills program arrays from the "ID/KEY" sections; this does the same from what netbpf's
 * loader read, so a comparison with netbpf also checks that reading: a wrong definition, a
 * relocation to the wrong map or a tail call in the wrong slot shows up as a difference.
 * Nothing is pinned in bpffs: the maps live as long as the fds.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <netbpf/map.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "bpf/insn.h"
#include "common/types.h"
#include "kcompare/kernel_object.h"

static bool is_map_in_map(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_ARRAY_OF_MAPS || t == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* As root, EACCES is the verifier's refusal; only EPERM says who may load. */
bool nb_kernel_not_permitted(int err)
{
	return geteuid() && (err == -EPERM || err == -EACCES);
}

void nb_kernel_log_not_permitted(struct nb_log *log)
{
	nb_log_printf(log, "kernel: loading BPF programs is not permitted (need root or CAP_BPF, "
		      "uid %u)\n", (unsigned int)geteuid());
}

static int kernel_err(int err, struct nb_log *log, const char *what, const char *name)
{
	if (nb_kernel_not_permitted(err))
		nb_kernel_log_not_permitted(log);
	else
		nb_log_printf(log, "kernel: %s %s: %s\n", what, name, strerror(-err));
	return err;
}

/* The kernel takes up to 15 characters of [A-Za-z0-9_.] as an object name. */
static void kernel_name(char out[BPF_OBJ_NAME_LEN], const char *name)
{
	size_t i;

	for (i = 0; i < BPF_OBJ_NAME_LEN - 1 && name[i]; i++)
		out[i] = isalnum((unsigned char)name[i]) || name[i] == '.' ? name[i] : '_';
	out[i] = '\0';
}

static int map_index_by_id(const struct nb_object *obj, __u32 id)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, obj) {
		if (nb_object_map_map(m) && nb_map_id(nb_object_map_map(m)) == id)
			return i;
		i++;
	}
	return -1;
}

static int prog_index_by_id(const struct nb_object *obj, __u32 id)
{
	struct nb_object_prog *p;
	int i = 0;

	nb_object_for_each_prog(p, obj) {
		if (nb_object_prog_prog(p) && nb_prog_id(nb_object_prog_prog(p)) == id)
			return i;
		i++;
	}
	return -1;
}

/*
 * An outer map's template: the map its definition names (iproute2's inner_id, the samples'
 * inner_map_idx), else one of the object's maps netbpf put into it.
 */
static int inner_template(const struct nb_object *obj, const struct nb_kernel_object *k,
			  const struct nb_object_map *outer, struct nb_log *log)
{
	const struct nb_object_map *tpl = nb_object_map_inner(outer);
	struct nb_map *map = nb_object_map_map(outer);
	__u32 key = 0, next, id;
	void *prev = NULL;

	if (tpl && nb_object_map_map(tpl)) {
		int idx = map_index_by_id(obj, nb_map_id(nb_object_map_map(tpl)));

		if (idx >= 0 && k->map_fd[idx] >= 0)
			return k->map_fd[idx];
	}
	while (!nb_map_get_next_key(map, prev, &next)) {
		int idx;

		key = next;
		prev = &key;
		if (nb_map_lookup_elem(map, &key, &id))
			continue;
		idx = map_index_by_id(obj, id);
		if (idx >= 0 && k->map_fd[idx] >= 0)
			return k->map_fd[idx];
	}
	nb_log_printf(log, "kernel: map of maps %s holds none of the object's maps to take as "
		      "the inner map's template\n", nb_object_map_name(outer));
	return -EINVAL;
}

/* Maps of maps last: their template is an inner map created in the first pass. */
static int create_maps(const struct nb_object *obj, struct nb_kernel_object *k,
		       struct nb_log *log)
{
	for (int pass = 0; pass < 2; pass++) {
		struct nb_object_map *m;
		int i = 0;

		nb_object_for_each_map(m, obj) {
			enum bpf_map_type type = nb_object_map_type(m);
			LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = nb_object_map_flags(m));
			char name[BPF_OBJ_NAME_LEN];
			int fd;

			if (is_map_in_map(type) != (pass == 1)) {
				i++;
				continue;
			}
			if (pass == 1) {
				fd = inner_template(obj, k, m, log);
				if (fd < 0)
					return fd;
				mopts.inner_map_fd = fd;
			}
			kernel_name(name, nb_object_map_name(m));
			fd = bpf_map_create(type, name, nb_object_map_key_size(m),
					    nb_object_map_value_size(m),
					    nb_object_map_max_entries(m), &mopts);
			if (fd < 0)
				return kernel_err(-errno, log, "cannot create map", nb_object_map_name(m));
			k->map_fd[i++] = fd;
		}
	}
	return 0;
}

/* Global data (.data, .bss, .rodata): netbpf's initial image, .rodata frozen as libbpf does. */
static int copy_global_data(const struct nb_object *obj, struct nb_kernel_object *k,
			    struct nb_log *log)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, obj) {
		struct nb_map *map = nb_object_map_map(m);
		__u32 key = 0;
		void *val;
		int err = 0;

		if (nb_object_map_name(m)[0] != '.' || nb_object_map_type(m) != BPF_MAP_TYPE_ARRAY) {
			i++;
			continue;
		}
		val = calloc(1, nb_object_map_value_size(m));
		if (!val)
			return -ENOMEM;
		if (!nb_map_lookup_elem(map, &key, val) &&
		    bpf_map_update_elem(k->map_fd[i], &key, val, BPF_ANY))
			err = -errno;
		if (!err && (nb_object_map_flags(m) & BPF_F_RDONLY_PROG) &&
		    bpf_map_freeze(k->map_fd[i]))
			err = -errno;
		free(val);
		if (err)
			return kernel_err(err, log, "cannot write global data", nb_object_map_name(m));
		i++;
	}
	return 0;
}

/* The linked instructions with map indexes turned into fds, as iproute2 writes them. */
static struct bpf_insn *insns_with_fds(const struct nb_object_prog *p,
				       const struct nb_kernel_object *k, unsigned int *cnt,
				       struct nb_log *log)
{
	const struct bpf_insn *src = nb_object_prog_insns(p, cnt);
	struct bpf_insn *insns = malloc((size_t)*cnt * sizeof(*insns));

	if (!insns)
		return NULL;
	memcpy(insns, src, (size_t)*cnt * sizeof(*insns));
	for (unsigned int i = 0; i + 1 < *cnt; i++) {
		struct bpf_insn *in = &insns[i];

		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) {
			if (in->imm < 0 || (unsigned int)in->imm >= k->map_cnt ||
			    k->map_fd[in->imm] < 0) {
				nb_log_printf(log, "kernel: program %s: instruction %u refers to "
					      "map %d, which the object lacks\n",
					      nb_object_prog_name(p), i, in->imm);
				free(insns);
				return NULL;
			}
			in->imm = k->map_fd[in->imm];
			in->src_reg = in->src_reg == BPF_PSEUDO_MAP_IDX ? BPF_PSEUDO_MAP_FD :
									 BPF_PSEUDO_MAP_VALUE;
		}
		i++;
	}
	return insns;
}

void nb_kernel_log_tail(struct nb_log *log, const char *text)
{
	const char *end = text + strlen(text), *p = end;
	int lines = 0;

	while (p > text && (end[-1] == '\n'))
		end--;
	p = end;
	while (p > text && lines < 4) {
		p--;
		if (*p == '\n')
			lines++;
	}
	if (*p == '\n')
		p++;
	while (p < end) {
		size_t n = strcspn(p, "\n");

		nb_log_printf(log, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static int load_prog(const struct nb_object *obj, struct nb_object_prog *p,
		     const struct nb_kernel_object_opts *opts, struct nb_kernel_object *k,
		     int *fdp, struct nb_log *log)
{
	enum bpf_prog_type type = opts->prog_type ? opts->prog_type :
						    nb_prog_type(nb_object_prog_prog(p));
	LIBBPF_OPTS(bpf_prog_load_opts, popts,
		    .expected_attach_type = opts->prog_type ? 0 :
				nb_object_prog_expected_attach_type(p));
	const char *license = nb_object_license(obj);
	char name[BPF_OBJ_NAME_LEN], *vlog;
	unsigned int cnt;
	struct bpf_insn *insns = insns_with_fds(p, k, &cnt, log);
	int err;

	if (!insns)
		return -EINVAL;
	kernel_name(name, nb_object_prog_name(p));
	license = license ? license : "";
	*fdp = bpf_prog_load(type, name, license, insns, cnt, &popts);
	err = *fdp < 0 ? -errno : 0;
	if (err && !nb_kernel_not_permitted(err)) {
		const char *ts = libbpf_bpf_prog_type_str(type);

		nb_log_printf(log, "kernel: cannot load program %s (section %s) as %s: %s\n",
			      nb_object_prog_name(p), nb_object_prog_section(p), ts ? ts : "?",
			      strerror(-err));
		/* once more with the verifier's log, for its reason */
		vlog = calloc(1, NB_KERNEL_VERIFIER_LOG_SIZE);
		if (vlog) {
			popts.log_buf = vlog;
			popts.log_size = NB_KERNEL_VERIFIER_LOG_SIZE;
			popts.log_level = 1;
			*fdp = bpf_prog_load(type, name, license, insns, cnt, &popts);
			if (*fdp >= 0)
				close(*fdp);
			*fdp = -1;
			nb_kernel_log_tail(log, vlog);
			free(vlog);
		}
	} else if (err) {
		kernel_err(err, log, "cannot load program", nb_object_prog_name(p));
	}
	free(insns);
	return err;
}

/* Program arrays and maps of maps as netbpf filled them: its ids become kernel fds. */
static int fill_fd_maps(const struct nb_object *obj, struct nb_kernel_object *k,
			struct nb_log *log)
{
	struct nb_object_map *m;
	int i = 0;

	nb_object_for_each_map(m, obj) {
		enum bpf_map_type type = nb_object_map_type(m);
		struct nb_map *map = nb_object_map_map(m);
		__u32 key = 0, next, id;
		void *prev = NULL;

		if (type != BPF_MAP_TYPE_PROG_ARRAY && !is_map_in_map(type)) {
			i++;
			continue;
		}
		while (!nb_map_get_next_key(map, prev, &next)) {
			int idx, fd;

			key = next;
			prev = &key;
			if (nb_map_lookup_elem(map, &key, &id))
				continue;
			if (type == BPF_MAP_TYPE_PROG_ARRAY) {
				idx = prog_index_by_id(obj, id);
				fd = idx >= 0 ? k->prog_fd[idx] : -1;
			} else {
				idx = map_index_by_id(obj, id);
				fd = idx >= 0 ? k->map_fd[idx] : -1;
			}
			if (fd < 0)	/* a program of another type, left out */
				continue;
			if (bpf_map_update_elem(k->map_fd[i], &key, &fd, BPF_ANY))
				return kernel_err(-errno, log, "cannot fill map",
						  nb_object_map_name(m));
		}
		i++;
	}
	return 0;
}

int nb_kernel_object_load(struct nb_object *obj, const struct nb_kernel_object_opts *opts,
			  struct nb_kernel_object **kp, struct nb_log *log)
{
	static const struct nb_kernel_object_opts defaults;
	struct nb_kernel_object *k = calloc(1, sizeof(*k));
	struct nb_object_prog *p;
	int err = 0, i = 0;

	*kp = NULL;
	opts = opts ? opts : &defaults;
	if (!k)
		return -ENOMEM;
	nb_object_for_each_prog(p, obj)
		k->prog_cnt++;
	k->map_cnt = nb_object_map_cnt(obj);
	k->prog_fd = malloc((k->prog_cnt + 1) * sizeof(int));
	k->map_fd = malloc((k->map_cnt + 1) * sizeof(int));
	if (!k->prog_fd || !k->map_fd) {
		nb_kernel_object_close(k);
		return -ENOMEM;
	}
	memset(k->prog_fd, -1, (k->prog_cnt + 1) * sizeof(int));
	memset(k->map_fd, -1, (k->map_cnt + 1) * sizeof(int));
	err = create_maps(obj, k, log);
	if (!err)
		err = copy_global_data(obj, k, log);
	nb_object_for_each_prog(p, obj) {
		struct nb_prog *np = nb_object_prog_prog(p);

		if (!err && np && (!opts->only_type || nb_prog_type(np) == opts->only_type))
			err = load_prog(obj, p, opts, k, &k->prog_fd[i], log);
		i++;
	}
	if (!err)
		err = fill_fd_maps(obj, k, log);
	if (err) {
		nb_kernel_object_close(k);
		return err;
	}
	*kp = k;
	return 0;
}

void nb_kernel_object_close(struct nb_kernel_object *k)
{
	if (!k)
		return;
	for (unsigned int i = 0; k->prog_fd && i < k->prog_cnt; i++)
		if (k->prog_fd[i] >= 0)
			close(k->prog_fd[i]);
	for (unsigned int i = 0; k->map_fd && i < k->map_cnt; i++)
		if (k->map_fd[i] >= 0)
			close(k->map_fd[i]);
	free(k->prog_fd);
	free(k->map_fd);
	free(k);
}

int nb_kernel_object_prog_fd(const struct nb_kernel_object *k, const struct nb_object *obj,
			     const struct nb_object_prog *prog)
{
	struct nb_object_prog *p;
	unsigned int i = 0;

	nb_object_for_each_prog(p, obj) {
		if (p == prog)
			return i < k->prog_cnt ? k->prog_fd[i] : -1;
		i++;
	}
	return -1;
}

int nb_kernel_object_map_fd(const struct nb_kernel_object *k, const struct nb_object *obj,
			    const struct nb_object_map *map)
{
	struct nb_object_map *m;
	unsigned int i = 0;

	nb_object_for_each_map(m, obj) {
		if (m == map)
			return i < k->map_cnt ? k->map_fd[i] : -1;
		i++;
	}
	return -1;
}
