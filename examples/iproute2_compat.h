/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iproute2's map definition for the `maps` section, as its include/bpf_elf.h documents it, for
 * objects written the way tc users write them (examples and test objects). libbpf's
 * bpf_helpers.h has no such struct.
 */
#ifndef IPROUTE2_COMPAT_H
#define IPROUTE2_COMPAT_H

#include <linux/types.h>

/* Object pinning settings: PIN_OBJECT_NS shares within one object file, PIN_GLOBAL_NS by name. */
#define PIN_NONE	0
#define PIN_OBJECT_NS	1
#define PIN_GLOBAL_NS	2

struct bpf_elf_map {
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_elem;
	__u32 flags;
	__u32 id;
	__u32 pinning;
	__u32 inner_id;
	__u32 inner_idx;
};

#ifndef __section
#define __section(NAME) __attribute__((section(NAME), used))
#endif

/* iproute2's tail-call section name: the program goes into program array ID at KEY. */
#define __nb_stringify_1(X) #X
#define __nb_stringify(X) __nb_stringify_1(X)
#define __section_tail(ID, KEY) __section(__nb_stringify(ID) "/" __nb_stringify(KEY))

#endif /* IPROUTE2_COMPAT_H */
