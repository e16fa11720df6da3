// SPDX-License-Identifier: GPL-2.0
/* The kernel's verifier on generated programs; see sound_kernel.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "sound_kernel.h"
#include "sound_run.h"

#define SK_LOG_SIZE (1U << 20)
#define SK_TYPES 3	/* a program array takes one program type: a table per type */
#define SK_MAX_MAPS 16

static int fds[SK_TYPES][SK_MAX_MAPS];
static u32 nmaps;
static char *klog;

static int sk_type_index(enum bpf_prog_type type)
{
	return type == BPF_PROG_TYPE_XDP ? 0 : type == BPF_PROG_TYPE_SCHED_CLS ? 1 : 2;
}

void sk_cleanup(void)
{
	for (u32 t = 0; t < SK_TYPES; t++)
		for (u32 i = 0; i < nmaps; i++)
			if (fds[t][i] > 0)
				close(fds[t][i]);
	nmaps = 0;
	free(klog);
	klog = NULL;
}

int sk_setup(char *why, size_t size)
{
	const struct bpf_insn probe[] = { { .code = BPF_ALU64 | BPF_MOV | BPF_K },
					  { .code = BPF_JMP | BPF_EXIT } };
	const struct sg_map *m;
	u32 cnt;
	int fd;

	if (nmaps)
		return 0;
	if (geteuid() != 0) {
		snprintf(why, size, "not root: the kernel's verifier needs CAP_BPF");
		return -EPERM;
	}
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "sk_probe", "GPL", probe, 2, NULL);
	if (fd < 0) {
		snprintf(why, size, "the kernel refuses BPF programs: %s", strerror(errno));
		return -errno;
	}
	close(fd);
	klog = malloc(SK_LOG_SIZE);
	if (!klog)
		return -ENOMEM;
	m = sr_maps(&cnt);
	for (u32 t = 0; t < SK_TYPES; t++) {
		for (u32 i = 0; i < cnt && i < SK_MAX_MAPS; i++) {
			/* the harness's hash of 8-byte keys allocates per element */
			LIBBPF_OPTS(bpf_map_create_opts, o,
				    .map_flags = m[i].type == BPF_MAP_TYPE_HASH &&
						 m[i].key_size == 8 ? BPF_F_NO_PREALLOC : 0);

			fds[t][i] = bpf_map_create(m[i].type, "sound", m[i].key_size,
						   m[i].value_size, m[i].max_entries, &o);
			if (fds[t][i] < 0) {
				snprintf(why, size, "kernel map %u: %s", i, strerror(errno));
				nmaps = i;
				sk_cleanup();
				return -errno;
			}
			nmaps = i + 1;
		}
	}
	return 0;
}

/* The log's last message: the line before "processed N insns" when there is one. */
static void last_message(const char *log, char *out, size_t size)
{
	const char *end = log + strlen(log), *start;

	for (int pass = 0; pass < 2; pass++) {
		while (end > log && end[-1] == '\n')
			end--;
		start = end;
		while (start > log && start[-1] != '\n')
			start--;
		if (strncmp(start, "processed ", 10) || start == log)
			break;
		end = start;
	}
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

const char *sk_log(void)
{
	return klog ? klog : "";
}

int sk_load(enum bpf_prog_type type, const struct bpf_insn *insns, const struct sg_prog *p,
	    char *reason, size_t size)
{
	struct bpf_func_info fi[SG_MAX_FUNCS];
	struct btf *btf = NULL;
	int fd, err;
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .log_level = 1, .log_buf = klog,
		    .log_size = SK_LOG_SIZE, .fd_array = fds[sk_type_index(type)]);

	if (p->func_cnt > 1) {
		int lng, proto;

		btf = btf__new_empty();
		if (!btf)
			return -ENOMEM;
		lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		proto = btf__add_func_proto(btf, lng);
		for (u32 i = 0; i < p->func_cnt; i++) {
			char name[16];

			snprintf(name, sizeof(name), "f%u", i);
			fi[i].insn_off = p->func_start[i];
			fi[i].type_id = btf__add_func(btf, name,
						      i ? BTF_FUNC_STATIC : BTF_FUNC_GLOBAL, proto);
		}
		err = btf__load_into_kernel(btf);
		if (err) {
			btf__free(btf);
			snprintf(reason, size, "(BTF refused: %d)", err);
			return err;
		}
		lo.prog_btf_fd = btf__fd(btf);
		lo.func_info = fi;
		lo.func_info_cnt = p->func_cnt;
		lo.func_info_rec_size = sizeof(fi[0]);
	}
	klog[0] = 0;
	fd = bpf_prog_load(type, "sound", "GPL", insns, p->cnt, &lo);
	err = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	btf__free(btf);
	if (err)
		last_message(klog, reason, size);
	return err;
}
