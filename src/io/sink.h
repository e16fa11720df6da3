/* SPDX-License-Identifier: GPL-2.0 */
/* What a sink port saw: for tests and the stats of `netbpf run`. */
#ifndef NB_IO_SINK_H
#define NB_IO_SINK_H

#include "common/types.h"

struct nb_port;
struct nb_pkt;

struct nb_sink_counts {
	u64 packets;
	u64 bytes;
};

/* -EINVAL when port is not a sink. */
int nb_sink_counts(const struct nb_port *port, struct nb_sink_counts *counts);
/* The frames kept ("keep N"), oldest first, linked through ->next; the caller frees them. */
struct nb_pkt *nb_sink_take(struct nb_port *port);

#endif /* NB_IO_SINK_H */
