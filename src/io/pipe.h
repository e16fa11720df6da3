/* SPDX-License-Identifier: GPL-2.0 */
/* Pipe ports, the veth twin: two ends, what one transmits the other receives. */
#ifndef NB_IO_PIPE_H
#define NB_IO_PIPE_H

#include <netbpf/log.h>

struct nb_port;
struct nb_dev;

/* Connect two pipe ends (both opened as kind "pipe"); -EINVAL when one is not a free end. */
int nb_pipe_connect(struct nb_port *a, struct nb_port *b);
/*
 * Give devices a and b (with no port yet) a connected pair of pipe ends and make them each
 * other's peer (bpf_redirect_peer), as `ip link add a type veth peer name b` does.
 */
int nb_pipe_pair_devs(struct nb_dev *a, struct nb_dev *b, struct nb_log *log);

#endif /* NB_IO_PIPE_H */
