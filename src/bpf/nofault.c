// SPDX-License-Identifier: GPL-2.0
/*
 * Fault-free reads (nofault.h) through process_vm_readv on the process itself: the kernel
 * copies and reports an unmapped or unreadable address as EFAULT, where a plain load would
 * kill the process. It is a system call per read, which is fine for what uses it (tracing
 * helpers and probe reads); the datapath never needs it, its accesses are proven.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include "bpf/nofault.h"
#include "common/types.h"

#define NOFAULT_PAGE 4096UL

static long read_self(void *dst, const void *src, size_t size)
{
	struct iovec local = { .iov_base = dst, .iov_len = size };
	struct iovec remote = { .iov_base = (void *)src, .iov_len = size };
	ssize_t n;

	if (!size)
		return 0;
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	return n == (ssize_t)size ? 0 : -EFAULT;
}

long nb_copy_nofault(void *dst, const void *src, size_t size)
{
	long err = read_self(dst, src, size);

	if (err)
		memset(dst, 0, size);
	return err;
}

long nb_strncpy_nofault(char *dst, const void *src, size_t size)
{
	size_t done = 0;

	if (!size)
		return 0;
	/* Page by page: a short string at the end of a mapping must not read the next page. */
	while (done < size) {
		uintptr_t at = (uintptr_t)src + done;
		size_t chunk = min_t(size_t, size - done, NOFAULT_PAGE - (at & (NOFAULT_PAGE - 1)));
		const char *nul;

		if (read_self(dst + done, (const void *)at, chunk)) {
			dst[0] = 0;
			return -EFAULT;
		}
		nul = memchr(dst + done, 0, chunk);
		if (nul)
			return nul - dst + 1;
		done += chunk;
	}
	dst[size - 1] = 0;
	return size;
}
