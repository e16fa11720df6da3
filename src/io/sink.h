/* SPDX-License-Identifier: GPL-2.0 */
/* What a sink port saw: for tests and the stats of `netbpf run`. */
#ifndef NB_IO_SINK_H
#define NB_IO_SINK_H

#include <netbpf/port.h>

#include "common/types.h"

struct nb_port;
struct nb_pkt;

/* struct nb_sink_counts, nb_sink_counts: include/netbpf/port.h */
/* The frames kept ("keep N"), oldest first, linked through ->next; the caller frees them. */
struct nb_pkt *nb_sink_take(struct nb_port *port);

#endif /* NB_IO_SINK_H */
