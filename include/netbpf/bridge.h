/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bridge devices, the twin of the kernel's Linux bridge (net/bridge) kept small: one learning
 * switch between its ports, without STP, VLAN filtering or multicast snooping, as ip link and
 * bridge(8) drive it:
 *
 *   ip link add br0 type bridge [ageing_time CS]      nb_bridge_create("br0", 0, &opts, ...)
 *   ip link set dev p1 master br0                     nb_bridge_add_port(br0, p1, log)
 *   ip link set dev p1 nomaster                       nb_bridge_del_port(p1, log)
 *   bridge fdb add MAC dev p1 master [static]         nb_bridge_fdb_add(...)
 *   bridge fdb del MAC dev p1 master                  nb_bridge_fdb_del(...)
 *   bridge fdb show                                   nb_bridge_fdb_dump(...)
 *
 * A frame a port receives passes the port's XDP and tc ingress hooks first, then the bridge
 * (the port's rx_handler): its source address is learned on the port, and it goes to the port
 * its destination was learned on, to every port but the one it came from (broadcast,
 * multicast, unknown unicast), or up to the bridge device's own receive path (its own address,
 * a port's address, broadcast and multicast). What the bridge device transmits goes out by the
 * same table. Learned entries age out ageing_time after the source was last seen (300 s by
 * default), on the datapath's clock, so the deterministic mode ages them on virtual time.
 */
#ifndef NETBPF_BRIDGE_H
#define NETBPF_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_dev;

/* The kernel's default (BR_DEFAULT_AGEING_TIME), in centiseconds as IFLA_BR_AGEING_TIME. */
#define NB_BRIDGE_DEFAULT_AGEING_TIME 30000

struct nb_bridge_opts {
	size_t sz;		/* sizeof(struct nb_bridge_opts) */
	bool set_ageing_time;	/* false: NB_BRIDGE_DEFAULT_AGEING_TIME */
	__u32 ageing_time;	/* centiseconds (ip link's ageing_time); 0: entries expire at once */
};

/* A bridge device named name (ifindex 0: the next free), down, without ports. */
int nb_bridge_create(const char *name, __u32 ifindex, const struct nb_bridge_opts *opts,
		     struct nb_dev **devp, struct nb_log *log);
bool nb_dev_is_bridge(const struct nb_dev *dev);
/* ip link set dev br0 type bridge ageing_time CS. */
int nb_bridge_set_ageing_time(struct nb_dev *br, __u32 centisecs, struct nb_log *log);
__u32 nb_bridge_ageing_time(const struct nb_dev *br);

/*
 * Make dev a port of br (-EBUSY when it is a port already, -EINVAL for a bridge, a device
 * without a link header, or br itself). The port's address becomes a permanent entry.
 */
int nb_bridge_add_port(struct nb_dev *br, struct nb_dev *dev, struct nb_log *log);
/* Release dev from its bridge, with every entry that points at it (-ENOENT: not a port). */
int nb_bridge_del_port(struct nb_dev *dev, struct nb_log *log);
/* The bridge dev is a port of, referenced (put it), or NULL. */
struct nb_dev *nb_bridge_master(struct nb_dev *dev);

/* An entry's state, as iproute2 names it (NUD_PERMANENT, NUD_NOARP, NUD_REACHABLE). */
enum nb_bridge_fdb_state {
	NB_BRIDGE_FDB_DYNAMIC,		/* learned or added "dynamic": ages */
	NB_BRIDGE_FDB_STATIC,		/* "static": does not age, still moves when learned */
	NB_BRIDGE_FDB_PERMANENT,	/* "permanent": a local address, frames go up the bridge */
};

struct nb_bridge_fdb_entry {
	__u8 addr[6];
	__u32 ifindex;		/* the port's, or the bridge's for the bridge's own addresses */
	enum nb_bridge_fdb_state state;
	__u64 updated_ago_ms;	/* since the source was last seen (or the entry added) */
};

/*
 * bridge fdb add ADDR dev DEV master [permanent|static|dynamic]: DEV is a port of br, or br
 * itself for a permanent entry of the bridge. -EEXIST when the address has an entry (unless
 * replace).
 */
int nb_bridge_fdb_add(struct nb_dev *br, struct nb_dev *dev, const __u8 addr[6],
		      enum nb_bridge_fdb_state state, bool replace, struct nb_log *log);
int nb_bridge_fdb_del(struct nb_dev *br, const __u8 addr[6], struct nb_log *log);
/*
 * The entries in bridge fdb show's order (the bridge's own, then each port's by ifindex,
 * newest first within each), expired ones removed first: the first max into out; returns how
 * many there are.
 */
unsigned int nb_bridge_fdb_dump(struct nb_dev *br, struct nb_bridge_fdb_entry *out,
				unsigned int max);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_BRIDGE_H */
