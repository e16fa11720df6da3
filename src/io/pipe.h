/* SPDX-License-Identifier: GPL-2.0 */
/* Pipe ports, the veth twin: two ends, what one transmits the other receives. */
#ifndef NB_IO_PIPE_H
#define NB_IO_PIPE_H

struct nb_port;

/*
 * Connect two pipe ends (both opened as kind "pipe"); -EINVAL when one is not a free end,
 * -EBUSY when one is connected. Two devices get a connected pair through nb_dev_pipe_pair.
 */
int nb_pipe_connect(struct nb_port *a, struct nb_port *b);

#endif /* NB_IO_PIPE_H */
