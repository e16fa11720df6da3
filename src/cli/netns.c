// SPDX-License-Identifier: GPL-2.0
/*
 * -n NAME: run in the network namespace NAME, as `ip -n NAME` does (iproute2's netns_switch):
 * join the namespace that `ip netns add NAME` keeps at /run/netns/NAME, then give this process
 * a mount namespace of its own with /sys remounted, so that what it reads there (an
 * interface's queues, its driver) is the namespace's. Called before any thread starts: setns
 * moves only the calling thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include "cli/cli.h"

#define NETNS_RUN_DIR "/run/netns"

int nb_cli_enter_netns(const char *name)
{
	unsigned long flags = 0;
	struct statvfs fs;
	char path[512];
	int fd;

	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		nb_cli_error("network namespace name \"%s\" is wrong", name);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		nb_cli_error("Cannot open network namespace \"%s\": %s", name, strerror(errno));
		return -errno;
	}
	if (setns(fd, CLONE_NEWNET)) {
		nb_cli_error("setting the network namespace \"%s\" failed: %s", name,
			     strerror(errno));
		close(fd);
		return -errno;
	}
	close(fd);
	if (unshare(CLONE_NEWNS)) {
		nb_cli_error("unshare failed: %s", strerror(errno));
		return -errno;
	}
	/* what is mounted here from now on stays here */
	if (mount("", "/", "none", MS_SLAVE | MS_REC, NULL)) {
		nb_cli_error("\"mount --make-rslave /\" failed: %s", strerror(errno));
		return -errno;
	}
	if (!statvfs("/sys", &fs) && (fs.f_flag & ST_RDONLY))
		flags = MS_RDONLY;
	if (umount2("/sys", MNT_DETACH) && errno != EINVAL) {
		/* nothing was mounted there: mount the namespace's sysfs all the same */
	}
	if (mount(name, "/sys", "sysfs", flags, NULL)) {
		nb_cli_error("mount of /sys failed: %s", strerror(errno));
		return -errno;
	}
	return 0;
}
