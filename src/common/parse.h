/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers in command words, read the way iproute2's get_u32 reads them. */
#ifndef NB_COMMON_PARSE_H
#define NB_COMMON_PARSE_H

#include <stdbool.h>

/* A whole word as an unsigned 32-bit number in base (0: C's prefixes); no sign, no tail. */
bool nb_parse_u32(const char *word, unsigned int *val, int base);

#endif /* NB_COMMON_PARSE_H */
