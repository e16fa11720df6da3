/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel-style fixed-width types and small compiler helpers used across netbpf. */
#ifndef NB_COMMON_TYPES_H
#define NB_COMMON_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define __printf(a, b)	  __attribute__((format(printf, a, b)))
#undef __always_inline
#define __always_inline	  inline __attribute__((always_inline))
#define __maybe_unused	  __attribute__((unused))
#define __cold		  __attribute__((cold))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))

/*
 * The kernel's READ_ONCE and WRITE_ONCE: one whole load or store of a scalar, which the compiler
 * may neither split, merge nor drop. Relaxed atomics say so to the compiler and to
 * ThreadSanitizer (a value another thread writes is no data race) and compile to plain moves.
 */
#define READ_ONCE(x)	 __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#endif /* NB_COMMON_TYPES_H */
