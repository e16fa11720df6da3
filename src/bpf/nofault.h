/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reads of memory no proof covers (an address a program computed), that fail with -EFAULT
 * instead of faulting: the twins of copy_from_kernel_nofault and strncpy_from_kernel_nofault.
 * netbpf has one address space, so "kernel" and "user" memory are both the process's own.
 */
#ifndef NB_BPF_NOFAULT_H
#define NB_BPF_NOFAULT_H

#include <stddef.h>

/* size bytes from src into dst: 0, or -EFAULT when any of them is not readable. */
long nb_copy_nofault(void *dst, const void *src, size_t size);
/*
 * The NUL-terminated string at src into dst (at most size bytes, always terminated when size
 * is not 0): its length with the NUL, size when truncated, -EFAULT when unreadable.
 */
long nb_strncpy_nofault(char *dst, const void *src, size_t size);

#endif /* NB_BPF_NOFAULT_H */
