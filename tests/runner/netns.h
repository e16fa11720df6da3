/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel interfaces for the port tests and benchmarks, made inside a network namespace of the
 * calling process's own (each test is a process): nothing is left on the machine, and tests
 * run in parallel. A veth pair is made with one RTM_NEWLINK message (rtnetlink), interfaces are
 * brought up with SIOCSIFFLAGS. Errors are negative errno.
 */
#ifndef NB_TEST_NETNS_H
#define NB_TEST_NETNS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

/*
 * Enter a new network namespace: 0, or a negative errno (not root, no namespaces). Interfaces
 * made there have IPv6 off, so that no autoconfiguration frames (ND, MLD) mix with a test's.
 */
static inline int nb_netns_enter(void)
{
	int fd;

	if (geteuid() != 0)
		return -EPERM;
	if (unshare(CLONE_NEWNET))
		return -errno;
	fd = open("/proc/sys/net/ipv6/conf/default/disable_ipv6", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {	/* missing without IPv6: nothing to quiet then */
		ssize_t written = write(fd, "1", 1);

		(void)written;
		close(fd);
	}
	return 0;
}

static inline struct rtattr *nb_nl_put(struct nlmsghdr *nh, unsigned short type,
				       const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

/* Close a nested attribute opened by nb_nl_put(..., NULL, 0). */
static inline void nb_nl_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)nh + nh->nlmsg_len - (char *)nest);
}

/* ip link add A type veth peer name B */
static inline int nb_veth_add(const char *a, const char *b)
{
	char msg[1024] __attribute__((aligned(NLMSG_ALIGNTO))) = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)msg;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *linkinfo, *data, *peer;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char reply[1024];
	int fd, err = 0;
	ssize_t len;

	nh->nlmsg_len = NLMSG_LENGTH(sizeof(ifi));
	nh->nlmsg_type = RTM_NEWLINK;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	memcpy(NLMSG_DATA(nh), &ifi, sizeof(ifi));
	nb_nl_put(nh, IFLA_IFNAME, a, strlen(a) + 1);
	linkinfo = nb_nl_put(nh, IFLA_LINKINFO, NULL, 0);
	nb_nl_put(nh, IFLA_INFO_KIND, "veth", 4);
	data = nb_nl_put(nh, IFLA_INFO_DATA, NULL, 0);
	/* the peer: an ifinfomsg, then its own attributes */
	peer = nb_nl_put(nh, VETH_INFO_PEER, &ifi, sizeof(ifi));
	nb_nl_put(nh, IFLA_IFNAME, b, strlen(b) + 1);
	nb_nl_end(nh, peer);
	nb_nl_end(nh, data);
	nb_nl_end(nh, linkinfo);

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (sendto(fd, msg, nh->nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
	} else {
		len = recv(fd, reply, sizeof(reply), 0);
		if (len < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)))
			err = len < 0 ? -errno : -EIO;
		else if (((struct nlmsghdr *)reply)->nlmsg_type == NLMSG_ERROR)
			err = ((struct nlmsgerr *)NLMSG_DATA(reply))->error;
	}
	close(fd);
	return err;
}

/* ip link set NAME up (and, when mtu is not 0, mtu MTU) */
static inline int nb_link_up(const char *name, int mtu)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (mtu) {
		ifr.ifr_mtu = mtu;
		if (ioctl(fd, SIOCSIFMTU, &ifr))
			err = -errno;
	}
	if (!err && ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = -errno;
	close(fd);
	return err;
}

/* A veth pair A <-> B, both up: 0 or a negative errno. */
static inline int nb_veth_pair_up(const char *a, const char *b)
{
	int err = nb_veth_add(a, b);

	if (!err)
		err = nb_link_up(a, 0);
	if (!err)
		err = nb_link_up(b, 0);
	return err;
}

#endif /* NB_TEST_NETNS_H */
