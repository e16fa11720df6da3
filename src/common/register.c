// SPDX-License-Identifier: GPL-2.0
/* The report of a kind its registry refused at load time (common/register.h). */
#include <stdio.h>
#include <string.h>

#include "common/register.h"

void nb_register_failed(const char *registry, const char *name, int err)
{
	fprintf(stderr, "netbpf: %s \"%s\" not registered: %s\n", registry, name,
		strerror(-err));
}
