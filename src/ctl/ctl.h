/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command language of the tc, ip, link, map and prog words, shared by the command line,
 * script files (netbpf run, netbpf -batch) and a daemon's control socket: each line is split
 * into words and handed to the word's parser (link.c, tc.c, ip.c, map.c, prog.c, stats.c),
 * which acts on the datapath in this process and prints what show commands print (text, or
 * JSON with -j) on ctl->out.
 *
 * Errors follow iproute2: a line "Error: argument "foo" is wrong: unknown classifier" in
 * ctl->log naming the word at fault and what was expected. ctl->usage marks usage errors (a
 * word missing, "help"), which the command line answers with exit status 2.
 */
#ifndef NB_CTL_CTL_H
#define NB_CTL_CTL_H

#include <stdbool.h>
#include <stdio.h>

#include <netbpf/log.h>

struct nb_datapath;
struct nb_ctl_rates;
struct nb_ctl_later;

struct nb_ctl {
	FILE *out;		/* show output */
	bool json;		/* -j */
	bool pretty;		/* -p */
	int stats;		/* -s */
	bool force;		/* -force: ip link set ... xdp replaces a program */
	int family;		/* ip -4 / -6: AF_INET, AF_INET6; AF_UNSPEC (0): any */
	const char *base_dir;	/* relative object paths: this directory first (the script's) */
	const char *obj_dir;	/* then this one (the built examples); NULL: none */
	struct nb_log log;	/* the error of the last line */
	bool usage;		/* the error is a usage error */
	struct nb_datapath *dp;	/* the running datapath (stats shows its workers); NULL: none */
	struct nb_ctl_rates *rates; /* a daemon's rate samples (stats, monitor); NULL: none */
	struct nb_ctl_later *later; /* a script's show lines held until the traffic ran; NULL:
				     * run them in their place */
};

/*
 * One command line: WORD ARGS... with WORD link, tc, ip, bridge, sysctl, map, prog, stats or
 * monitor.
 * 0 or a negative errno.
 */
int nb_ctl_exec(struct nb_ctl *ctl, int argc, char **argv);

int nb_ctl_link(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_tc(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_ip(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_map(struct nb_ctl *ctl, int argc, char **argv);	/* map.c */
int nb_ctl_prog(struct nb_ctl *ctl, int argc, char **argv);	/* prog.c */
int nb_ctl_bridge(struct nb_ctl *ctl, int argc, char **argv);	/* bridge.c */
/* stats and monitor: stats.c */

/*
 * "help" after a word of the language (tc help, tc filter help, ip -6 route help, link help):
 * when the line asks for it, print that word's usage on ctl->out (`null` under -j) and say
 * true (help.c).
 */
bool nb_ctl_help(struct nb_ctl *ctl, int argc, char **argv);

/* The exit status of a line that returned err: 0, 1, or 2 for usage errors (iproute2's). */
int nb_ctl_status(const struct nb_ctl *ctl, int err);
int nb_ctl_sysctl(struct nb_ctl *ctl, int argc, char **argv);

/* "Error: argument "WORD" is wrong: WHAT", -EINVAL. */
int nb_ctl_wrong(struct nb_ctl *ctl, const char *word, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "Error: ..." with usage set (a word is missing, or "help"), -EINVAL. */
int nb_ctl_usage(struct nb_ctl *ctl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "Error: ...", returns err. */
int nb_ctl_fail(struct nb_ctl *ctl, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The next word after argv[*i] for keyword kw, or NULL with a usage error set. */
const char *nb_ctl_next(struct nb_ctl *ctl, int argc, char **argv, int *i);
/* Unsigned numbers in C syntax (decimal, 0x hex, 0 octal); false when word is not one. */
bool nb_ctl_parse_u32(const char *word, unsigned int *val, int base);

/*
 * "max-entries NAME=N" after argv[*i] (tc's bpf obj, ip's xdp obj): the size of a map the
 * object leaves to its tool, added to sizes.
 */
struct nb_map_sizes;
int nb_ctl_parse_map_size(struct nb_ctl *ctl, int argc, char **argv, int *i,
			  struct nb_map_sizes *sizes);

/*
 * An object path as a script means it: absolute, or relative to base_dir, then obj_dir, then
 * the working directory; the first that exists (or the path itself). buf holds the result.
 */
const char *nb_ctl_obj_path(const struct nb_ctl *ctl, const char *path, char *buf, size_t size);

/*
 * Scripts: lines of words ("#" starts a comment, "\" at the end joins the next line, '...' and
 * "..." quote, $VAR and ${VAR} take the value of vars (NAME=VALUE strings, the last wins) or
 * else the environment). A leading "netbpf" is skipped. Stops at the first failing line, whose
 * error names "FILE:LINE". name labels the text in errors.
 */
int nb_ctl_script_run(struct nb_ctl *ctl, const char *name, const char *text,
		      const char *const *vars, int var_cnt);

/*
 * The show lines netbpf run holds until its datapath has run (show_later.c): with ctl->later
 * set, nb_ctl_script_run checks each line that only prints (nb_ctl_line_shows: show, list,
 * dump, lookup, get, stats, a sysctl read) in its place with its output thrown away, and keeps it;
 * nb_ctl_later_run runs the kept lines in their order, each error naming its script line.
 */
struct nb_ctl_later *nb_ctl_later_new(void);
void nb_ctl_later_free(struct nb_ctl_later *later);
bool nb_ctl_line_shows(int argc, char **argv);
int nb_ctl_later_hold(struct nb_ctl *ctl, int argc, char **argv, const char *name, int lineno,
		      const char *line);
int nb_ctl_later_run(struct nb_ctl *ctl, struct nb_ctl_later *later);

/* Split one line into words with the script rules; *argv is one allocation (free it). */
int nb_ctl_split(const char *line, const char *const *vars, int var_cnt, int *argc, char ***argv,
		 struct nb_log *log);

#endif /* NB_CTL_CTL_H */
