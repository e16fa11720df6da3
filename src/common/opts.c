// SPDX-License-Identifier: GPL-2.0
/* The options structs' rules, libbpf's (include/netbpf/opts.h). */
#include <errno.h>

#include "common/opts.h"

int nb_opts_check(const void *opts, size_t min_sz, size_t known, const char *type,
		  struct nb_log *log)
{
	const unsigned char *bytes = opts;
	size_t sz;

	if (!opts)
		return 0;
	sz = *(const size_t *)opts;
	if (sz < min_sz) {
		nb_log_printf(log, "struct %s: sz %zu is too small, at least %zu\n", type, sz,
			      min_sz);
		return -EINVAL;
	}
	for (size_t i = known; i < sz; i++) {
		if (bytes[i]) {
			nb_log_printf(log, "struct %s: byte %zu is set, beyond the %zu this "
				      "library knows\n", type, i, known);
			return -EINVAL;
		}
	}
	return 0;
}
