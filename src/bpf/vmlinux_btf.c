// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BTF, read from the file the kernel exports it in (CONFIG_DEBUG_INFO_BTF), as
 * libbpf's btf__load_vmlinux_btf reads it. netbpf reads it only when a program needs a kernel
 * struct's layout: the parse takes a few hundred milliseconds and some megabytes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf/vmlinux_btf.h"

static pthread_once_t vmlinux_once = PTHREAD_ONCE_INIT;
static struct nb_btf vmlinux;
static char vmlinux_why[320];

static void vmlinux_load(void)
{
	const char *path = getenv("NETBPF_VMLINUX_BTF");
	struct btf *btf;

	if (!path)
		path = NB_VMLINUX_BTF_PATH;
	if (!*path) {
		snprintf(vmlinux_why, sizeof(vmlinux_why),
			 "NETBPF_VMLINUX_BTF is empty: no kernel BTF");
		return;
	}
	btf = btf__parse(path, NULL);
	if (!btf) {
		snprintf(vmlinux_why, sizeof(vmlinux_why), "no kernel BTF: %s: %s", path,
			 strerror(errno ?: EINVAL));
		return;
	}
	vmlinux.refcnt = 1;
	vmlinux.btf = btf;
}

const struct nb_btf *nb_vmlinux_btf(const char **why)
{
	pthread_once(&vmlinux_once, vmlinux_load);
	if (vmlinux.btf)
		return &vmlinux;
	if (why)
		*why = vmlinux_why;
	return NULL;
}

u32 nb_btf_find_struct(const struct nb_btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf->btf, name, BTF_KIND_STRUCT);

	return id > 0 ? (u32)id : 0;
}

u64 nb_vmlinux_struct_size(const char *name, u64 fallback)
{
	const struct nb_btf *btf = nb_vmlinux_btf(NULL);
	u32 id = btf ? nb_btf_find_struct(btf, name) : 0;

	return id ? nb_btf_type(btf, id)->size : fallback;
}
