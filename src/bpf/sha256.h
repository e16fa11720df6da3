/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (FIPS 180-4), one call over one buffer: what the program tag needs. */
#ifndef NB_BPF_SHA256_H
#define NB_BPF_SHA256_H

#include <stddef.h>

#include "common/types.h"

#define NB_SHA256_SIZE 32

void nb_sha256(const void *data, size_t len, u8 digest[NB_SHA256_SIZE]);

#endif /* NB_BPF_SHA256_H */
