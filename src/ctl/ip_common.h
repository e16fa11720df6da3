/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ip addr, route, rule and neigh words share: iproute2's names for tables, protocols,
 * scopes, route types and neighbour states (lib/rt_names.c's twins), prefix parsing with its
 * "default" and "all", and the entry points of each object's words.
 */
#ifndef NB_CTL_IP_COMMON_H
#define NB_CTL_IP_COMMON_H

#include <stdbool.h>
#include <netbpf/inet.h>

#include "ctl/ctl.h"

struct nb_json;

struct nb_dev;

int nb_ctl_ip_addr(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_ip_route(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_ip_rule(struct nb_ctl *ctl, int argc, char **argv);
int nb_ctl_ip_neigh(struct nb_ctl *ctl, int argc, char **argv);

/* Table names: local, main, default or a number; false when word is neither. */
bool nb_ip_table_parse(const char *word, unsigned int *id);
const char *nb_ip_table_name(unsigned int id, char *buf);
bool nb_ip_proto_parse(const char *word, unsigned int *proto);
const char *nb_ip_proto_name(unsigned int proto, char *buf);
bool nb_ip_scope_parse(const char *word, unsigned int *scope);
const char *nb_ip_scope_name(unsigned int scope, char *buf);
/* RTN_* names ("unicast", "local", "blackhole", ...): -1 when word is none. */
int nb_ip_rtntype_parse(const char *word);
const char *nb_ip_rtntype_name(unsigned int type, char *buf);
/* NUD_* names (lower case to parse, upper case to print); -1 when word is none. */
int nb_ip_nud_parse(const char *word);
const char *nb_ip_nud_name(unsigned int state);

/*
 * A prefix as ip takes it: "A/LEN", "A", "default" or "all" (0/0, which leaves *family as it
 * is). *family is the command's family (AF_UNSPEC: any, then set); false with the error in ctl
 * when the word is no prefix of that family.
 */
bool nb_ip_parse_prefix(struct nb_ctl *ctl, const char *word, int *family,
			union nb_inet_addr *addr, unsigned char *len);
/* An address (no length) of *family, set as above. */
bool nb_ip_parse_addr(struct nb_ctl *ctl, const char *word, int *family,
		      union nb_inet_addr *addr);
/* A device by name, with iproute2's error; a reference the caller puts. */
struct nb_dev *nb_ip_dev(struct nb_ctl *ctl, const char *name);
/*
 * ip link show's first lines of a device (link_show.c), or with addr_show those ip addr show
 * starts with (the XDP program's id in the first line, no link mode).
 */
void nb_ctl_link_print(struct nb_ctl *ctl, struct nb_dev *dev, bool addr_show);
/* The same as members of the device's JSON object, which the caller opened. */
void nb_ctl_link_json(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev, bool addr_show);
/* link show [[dev] NAME] (link_show.c) */
int nb_ctl_link_show(struct nb_ctl *ctl, int argc, char **argv);

/*
 * What link show and ip addr show share: [dev] NAME or every device, each shown by show (j is
 * NULL for text), as one JSON array under -j. cmd names the command in errors.
 */
int nb_ctl_show_devs(struct nb_ctl *ctl, int argc, char **argv, const char *cmd,
		     void (*show)(struct nb_ctl *ctl, struct nb_json *j, struct nb_dev *dev));

#endif /* NB_CTL_IP_COMMON_H */
