/* SPDX-License-Identifier: GPL-2.0 */
/* The netbpf command: global options and the command words, one file per word. */
#ifndef NB_CLI_H
#define NB_CLI_H

#include <stdbool.h>

#include <netbpf/object.h>

#include "ctl/args.h"

/* Options that come before the command word, as in ip and tc. */
struct nb_cli_opts {
	bool json;	/* -j */
	bool pretty;	/* -p */
	int stats;	/* -s, repeatable */
	bool force;	/* -force */
	bool interp;	/* --interp: never JIT */
	bool unsafe_no_verify; /* --unsafe-no-verify: load programs without a proof */
	const char *netns; /* -n NAME: the network namespace to run in */
	const char *daemon; /* -D NAME: the daemon that datapath commands go to */
	const char *batch; /* -batch FILE: execute a script without running the datapath */
};

extern struct nb_cli_opts nb_cli;

/* Exit statuses: iproute2 returns 1 for errors and usage alike; usage gets 2 here. */
#define NB_EXIT_OK    0
#define NB_EXIT_ERR   1
#define NB_EXIT_USAGE 2

int cmd_vm(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_prog(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_link(int argc, char **argv);
int cmd_bridge(int argc, char **argv);
int cmd_tc(int argc, char **argv);
int cmd_ip(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_daemon(int argc, char **argv);	/* daemon.c */
int cmd_bench(int argc, char **argv);	/* bench.c */
int cmd_monitor(int argc, char **argv);	/* client.c */
int cmd_feature(int argc, char **argv);	/* feature.c */

/*
 * A daemon for this command (client.c): *fdp connected to the named one, or to "default" when
 * it runs; -1 when none is named and none runs. Returns 0 or an exit status (a named daemon
 * that is not there).
 */
int nb_cli_daemon_connect(int *fdp);
/* Run WORD ARGS... on the daemon behind fd; print its output and errors; its exit status. */
int nb_cli_forward(int fd, const char *word, int argc, char **argv);
/* -n NAME: enter the network namespace /run/netns/NAME as ip -n does (netns.c). */
int nb_cli_enter_netns(const char *name);
int cmd_sysctl(int argc, char **argv);

/* The command language (src/ctl) from the command line (words.c). */
struct nb_ctl;
/* A context with the global options and the examples directory for object paths. */
void nb_cli_ctl_init(struct nb_ctl *ctl);
/* One line WORD ARGS... of the command language in this process (words.c): the exit status. */
int nb_cli_words(const char *word, int argc, char **argv);
/* Print the error of err (if any) on stderr and free the log: the exit status. */
int nb_cli_ctl_status(struct nb_ctl *ctl, int err);
/*
 * Where the example objects are: build/examples next to a netbpf binary in build/, or
 * PREFIX/share/netbpf/examples for an installed one (run.c). NULL when neither exists.
 */
const char *nb_cli_examples_dir(void);
/* netbpf -batch FILE (run.c). */
int nb_cli_batch(const char *path);
/* Execute a script file (relative object paths from its directory first): an exit status. */
int nb_cli_exec_script(struct nb_ctl *ctl, const char *path, const char *const *sets,
		       int set_cnt);
/* netbpf prog verify ... (src/cli/prog_verify.c). */
int prog_verify(int argc, char **argv);
/* netbpf prog dump { xlated | jited } ... (src/cli/prog_dump.c). */
int prog_dump(int argc, char **argv);
/*
 * Whether prog ARGS dumps a program of the datapath (prog dump xlated { id | name | tag } ...),
 * which the command language answers (a daemon's), not an object file (src/cli/prog.c).
 */
bool nb_cli_prog_dump_live(int argc, char **argv);
/* netbpf prog run ... (src/cli/prog_run.c). */
int prog_run(int argc, char **argv);

/* An object named on the command line, with the words that shape its load (object_args.c). */
#define NB_CLI_MAX_SETS 64
struct nb_cli_object {
	const char *path;
	enum bpf_prog_type type;	/* "type T"; 0: guess from section names */
	const char *section;		/* "sec NAME": that section and the tail calls only */
	const char *sets[NB_CLI_MAX_SETS]; /* --set NAME=VALUE */
	int set_cnt;
	struct nb_map_sizes sizes;	/* --max-entries NAME=N */
	struct nb_object *obj;		/* after nb_cli_object_load */
};

/* "tc", "xdp", "socket", "action" or a bpftool type name. */
int nb_cli_prog_type(const char *word, enum bpf_prog_type *type);
int nb_cli_add_set(struct nb_cli_object *o, const char *arg);
/* --max-entries NAME=N: the error on stderr. */
int nb_cli_add_max_entries(struct nb_map_sizes *sizes, const char *arg);
/* Open, apply the --set words, load (programs too unless maps_only); errors on stderr. */
int nb_cli_object_load(struct nb_cli_object *o, bool maps_only);

/* A map as bpftool's map show prints it (prog.c). */
struct nb_json;
void nb_cli_print_map_text(const struct nb_object_map *m);
void nb_cli_print_map_json(struct nb_json *j, const struct nb_object_map *m);

/*
 * --deterministic SEED: the virtual clock (a step per received packet) and random streams
 * seeded by SEED, so that a run replays byte for byte; -EINVAL (said on stderr) for a bad seed.
 */
int nb_cli_deterministic(const char *seed);
/*
 * --busy-poll adaptive | US: how long a worker polls its quiet queues before it sleeps, as
 * struct nb_datapath_opts's busy_poll_us takes it (adaptive: 0; US 0: -1, sleep at once);
 * -EINVAL (said on stderr) for anything else.
 */
int nb_cli_busy_poll(const char *arg, int *busy_poll_us);

/* "help", "--help", "-h" or "-help": the user asks for a command's usage (help.c). */
bool nb_cli_is_help(const char *word);
/*
 * A command's usage text: on stdout with status 0 when asked for (`null` on stdout under -j),
 * else on stderr with status 2 (a wrong command line).
 */
int nb_cli_usage(const char *text, bool asked);

/*
 * -j (json_out.c): from begin on, stdout's bytes are counted and stderr's text kept; end makes
 * sure stdout held one document: {"error": what stderr said} when the command failed without
 * printing one, `null` when it succeeded without a word. Returns status.
 */
void nb_cli_json_begin(void);
int nb_cli_json_end(int status);

/* "netbpf: " + message on stderr. */
void nb_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* NB_CLI_H */
