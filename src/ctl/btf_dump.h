/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map keys and values in the form their BTF types give them, as bpftool prints a map that has
 * BTF: integers as numbers, structs and unions as objects of their members, arrays as arrays
 * (char arrays holding a string as the string), enums by the name of their value, global data
 * sections as an object of their variables.
 */
#ifndef NB_CTL_BTF_DUMP_H
#define NB_CTL_BTF_DUMP_H

#include <stdbool.h>
#include <linux/types.h>

#include "ctl/json.h"

struct btf;

/*
 * The value at data of BTF type type_id as j's member name (NULL: an array element). 0, or
 * -EINVAL for a type no map value can have (after writing what bpftool writes for it). plain:
 * as bpftool's text output prints it, where hex numbers (bitfields, 128-bit integers, characters
 * that do not print) go bare and pointers as printf's %p: not JSON, as bpftool's is not.
 */
int nb_ctl_btf_dump(struct nb_json *j, const char *name, const struct btf *btf, __u32 type_id,
		    const void *data, bool plain);

#endif /* NB_CTL_BTF_DUMP_H */
