// SPDX-License-Identifier: GPL-2.0
/* The report of a kind its registry refused at load time (common/register.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/register.h"

void nb_register_failed(const char *registry, const char *name, int err)
{
	fprintf(stderr, "netbpf: %s \"%s\" not registered: %s\n", registry, name,
		strerror(-err));
}

int nb_register_name_insert(const char ***names, unsigned int *cnt, unsigned int at,
			    const char *name)
{
	const char **n = realloc(*names, (*cnt + 2) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	memmove(&n[at + 1], &n[at], (*cnt - at) * sizeof(*n));
	n[at] = name;
	n[++*cnt] = NULL;
	*names = n;
	return 0;
}
