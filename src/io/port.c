// SPDX-License-Identifier: GPL-2.0
/* The registry of port backends and the generic open and close. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/port.h"

/* Registered when the library is loaded (or by an embedder before it opens ports). */
static const struct nb_port_ops **port_kinds;
static unsigned int port_kind_cnt;

int nb_port_register(const struct nb_port_ops *ops)
{
	const struct nb_port_ops **kinds;

	if (nb_port_ops_find(ops->kind))
		return -EEXIST;
	kinds = realloc(port_kinds, (port_kind_cnt + 1) * sizeof(*kinds));
	if (!kinds)
		return -ENOMEM;
	kinds[port_kind_cnt++] = ops;
	port_kinds = kinds;
	return 0;
}

const struct nb_port_ops *nb_port_ops_find(const char *kind)
{
	for (unsigned int i = 0; i < port_kind_cnt; i++)
		if (!strcmp(port_kinds[i]->kind, kind))
			return port_kinds[i];
	return NULL;
}

struct nb_port *nb_port_alloc(const struct nb_port_ops *ops)
{
	struct nb_port *port = calloc(1, sizeof(*port));

	if (!port)
		return NULL;
	port->ops = ops;
	port->features = ops->features;
	if (ops->priv_size) {
		port->priv = calloc(1, ops->priv_size);
		if (!port->priv) {
			free(port);
			return NULL;
		}
	}
	/* Not zero: glibc's unlocked spinlock is 1 on x86-64. */
	pthread_spin_init(&port->tx_lock, PTHREAD_PROCESS_PRIVATE);
	return port;
}

static void port_free(struct nb_port *port)
{
	pthread_spin_destroy(&port->tx_lock);
	free(port->priv);
	free(port);
}

int nb_port_open(const char *kind, int argc, char **argv, struct nb_port **portp,
		 struct nb_log *log)
{
	const struct nb_port_ops *ops = nb_port_ops_find(kind);
	struct nb_port *port;
	int err;

	*portp = NULL;
	if (!ops) {
		nb_log_printf(log, "port kind \"%s\" is unknown\n", kind);
		return -EOPNOTSUPP;
	}
	port = nb_port_alloc(ops);
	if (!port)
		return -ENOMEM;
	err = ops->open(port, argc, argv, log);
	if (err) {
		port_free(port);
		return err;
	}
	*portp = port;
	return 0;
}

int nb_port_open_str(const char *kind, const char *words, struct nb_port **portp,
		     struct nb_log *log)
{
	char *copy = strdup(words ? words : ""), *save = NULL, *w;
	char **argv = NULL;
	int argc = 0, err;

	if (!copy)
		return -ENOMEM;
	for (w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		char **grown = realloc(argv, (argc + 1) * sizeof(*argv));

		if (!grown) {
			free(argv);
			free(copy);
			return -ENOMEM;
		}
		argv = grown;
		argv[argc++] = w;
	}
	err = nb_port_open(kind, argc, argv, portp, log);
	free(argv);
	free(copy);
	return err;
}

void *nb_port_priv(const struct nb_port *port)
{
	return port->priv;
}

struct nb_dev *nb_port_dev(const struct nb_port *port)
{
	return port->dev;
}

void nb_port_close(struct nb_port *port)
{
	if (!port)
		return;
	if (port->ops->close)
		port->ops->close(port);
	port_free(port);
}

bool nb_port_parse_u64(const char *word, u64 *val)
{
	char *end;

	if (!word || !*word || *word == '-')
		return false;
	errno = 0;
	*val = strtoull(word, &end, 0);
	return !errno && !*end;
}

bool nb_port_parse_mac(const char *word, u8 mac[6])
{
	unsigned int b[6];
	char tail;

	if (!word || sscanf(word, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
			    &b[5], &tail) != 6)
		return false;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return false;
		mac[i] = (u8)b[i];
	}
	return true;
}
