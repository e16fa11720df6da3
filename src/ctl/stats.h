/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The datapath's counters as people read them (stats.c): the summary of `netbpf run` and
 * `stats`, and the rates of the live line and `monitor`, sampled by whoever keeps time (run's
 * main loop, the daemon's control loop) once a second.
 */
#ifndef NB_CTL_STATS_H
#define NB_CTL_STATS_H

#include <stdio.h>
#include <net/if.h>

#include "common/types.h"

struct nb_ctl;
struct nb_dev;
struct nb_json;

/* A device's counters for the live line. */
struct nb_ctl_totals {
	u64 rx, tx, drops, host, exceptions;
	u64 redirects;		/* XDP's and tc's */
};

void nb_ctl_dev_totals(struct nb_dev *dev, struct nb_ctl_totals *t);

struct nb_ctl_summary_opts {
	double secs;		/* how long the run ran (or the daemon is up) */
	bool up;		/* a daemon's: "up S s", "up_ms" */
	const char *shows;	/* -j: the script's show output, one document each; NULL: none */
	/* more of the document after the rest (run's default table); j is NULL for text */
	void (*extra)(struct nb_ctl *ctl, struct nb_json *j, void *ctx);
	void *ctx;
};

/* Devices, filters and actions, shared actions, workers (ctl->dp) on ctl->out; -j: JSON. */
void nb_ctl_summary(struct nb_ctl *ctl, const struct nb_ctl_summary_opts *o);

/* Rates between the last two samples, per device. */
struct nb_ctl_rate {
	u32 ifindex;
	char name[IFNAMSIZ];
	struct nb_ctl_totals now;	/* the counters at the last sample */
	double rx_pps, tx_pps, drop_pps;
};

struct nb_ctl_rates {
	double start;		/* seconds (CLOCK_MONOTONIC) at init */
	double last;		/* at the last sample */
	double interval;	/* between the last two samples */
	unsigned long samples;
	unsigned int n;
	struct nb_ctl_rate *dev;
};

void nb_ctl_rates_init(struct nb_ctl_rates *r, double now);
int nb_ctl_rates_sample(struct nb_ctl_rates *r, double now);
void nb_ctl_rates_free(struct nb_ctl_rates *r);
/* The live line ("[  1.0s] gen0 rx 1.23 tx 0.00 drop 0.00 Mpps redir 0 exc 0 | ..." + suffix). */
void nb_ctl_rates_print(FILE *out, struct nb_json *j, const struct nb_ctl_rates *r,
			const char *suffix);

/* The words. */
int nb_ctl_stats(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_monitor(struct nb_ctl *ctl, int argc, char **argv);

#endif /* NB_CTL_STATS_H */
