/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Poisoning for memory that a pool keeps but nobody may touch: under AddressSanitizer a use of
 * a free object is reported although the memory was never given back to malloc (packet pool
 * objects, AF_XDP UMEM frames); without it, nothing.
 */
#ifndef NB_COMMON_ASAN_H
#define NB_COMMON_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif /* NB_COMMON_ASAN_H */
