// SPDX-License-Identifier: GPL-2.0
/* Numbers in command words (parse.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "common/parse.h"

bool nb_parse_u32(const char *word, unsigned int *val, int base)
{
	unsigned long long v;
	char *end;

	if (!*word || *word == '-')
		return false;
	errno = 0;
	v = strtoull(word, &end, base);
	if (errno || *end || v > UINT_MAX)
		return false;
	*val = (unsigned int)v;
	return true;
}
