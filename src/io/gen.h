/* SPDX-License-Identifier: GPL-2.0 */
/* What a generator port has made: for `netbpf run`, which ends when every generator is done. */
#ifndef NB_IO_GEN_H
#define NB_IO_GEN_H

#include "common/types.h"

struct nb_port;

/* Frames made so far and the count asked for (0: no end); -EINVAL when port is no generator. */
int nb_gen_progress(const struct nb_port *port, u64 *made, u64 *count);

#endif /* NB_IO_GEN_H */
