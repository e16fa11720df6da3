/* SPDX-License-Identifier: GPL-2.0 */
/* Where bpf_trace_printk writes: the twin of the kernel's trace_pipe. */
#ifndef NETBPF_TRACE_H
#define NETBPF_TRACE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Send bpf_trace_printk output to stream (NULL: stderr, the default). Each call is one write. */
void nb_trace_set_stream(FILE *stream);
FILE *nb_trace_stream(void);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_TRACE_H */
