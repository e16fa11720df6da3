// SPDX-License-Identifier: GPL-2.0
/*
 * The client side of the control protocol (control.h) and where daemons' sockets are: a
 * command connects to the daemon's socket, sends its command line and prints the reply.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ctl/control.h"

int nb_ctl_daemon_dir(char *buf, size_t size)
{
	const char *env = getenv("NETBPF_RUNDIR"), *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env && env[0])
		n = snprintf(buf, size, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, size, "/run/netbpf");
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/netbpf", xdg);
	else
		n = snprintf(buf, size, "/tmp/netbpf-%u", (unsigned int)geteuid());
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool name_valid(const char *name)
{
	size_t len = strlen(name);

	if (!len || len > 64 || name[0] == '.')
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
			return false;
	return true;
}

int nb_ctl_daemon_path(const char *name, char *buf, size_t size, struct nb_log *log)
{
	size_t max = sizeof(((struct sockaddr_un *)0)->sun_path);
	char dir[256];
	int n;

	if (size > max)
		size = max;
	if (strchr(name, '/')) {
		n = snprintf(buf, size, "%s", name);
	} else if (!name_valid(name)) {
		nb_log_printf(log, "Error: daemon name \"%s\" is wrong: 1 to 64 letters, digits, "
			      "'_', '-' or '.', not starting with '.'\n", name);
		return -EINVAL;
	} else {
		if (nb_ctl_daemon_dir(dir, sizeof(dir)))
			n = -1;
		else
			n = snprintf(buf, size, "%s/%s.sock", dir, name);
	}
	if (n < 0 || (size_t)n >= size) {
		nb_log_printf(log, "Error: the socket path of daemon \"%s\" is too long\n", name);
		return -ENAMETOOLONG;
	}
	return 0;
}

int nb_ctl_client_connect(const char *path, int *fdp, struct nb_log *log)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	*fdp = -1;
	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		err = -errno;
		close(fd);
		if (err == -ENOENT || err == -ECONNREFUSED)
			nb_log_printf(log, "Error: no daemon listens on %s%s\n", path,
				      err == -ECONNREFUSED ? " (its daemon has died)" : "");
		else
			nb_log_printf(log, "Error: cannot connect to %s: %s\n", path,
				      strerror(-err));
		return err;
	}
	*fdp = fd;
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		buf = (const u8 *)buf + n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ECONNRESET;
		buf = (u8 *)buf + n;
		len -= (size_t)n;
	}
	return 0;
}

int nb_ctl_client_call(int fd, const struct nb_ctl_request *req, struct nb_ctl_reply *rep,
		       struct nb_log *log)
{
	struct nb_ctl_msg_hdr hdr;
	void *msg, *payload;
	size_t len;
	int err, werr;

	memset(rep, 0, sizeof(*rep));
	err = nb_ctl_request_encode(req, &msg, &len);
	if (err) {
		nb_log_printf(log, "Error: the command is too long for the control socket\n");
		return err;
	}
	werr = write_all(fd, msg, len);
	free(msg);
	/* a refused peer gets its reason before the daemon closes: read it even so */
	err = read_all(fd, &hdr, sizeof(hdr));
	if (err) {
		err = werr ?: err;
		nb_log_printf(log, "Error: the daemon closed the connection: %s\n", strerror(-err));
		return err;
	}
	err = nb_ctl_msg_hdr_check(&hdr, NB_CTL_MSG_REPLY, log);
	if (err)
		return err;
	payload = malloc(hdr.len ? hdr.len : 1);
	if (!payload)
		return -ENOMEM;
	err = read_all(fd, payload, hdr.len);
	if (err)
		nb_log_printf(log, "Error: the daemon's reply ended early: %s\n", strerror(-err));
	else
		err = nb_ctl_reply_decode(payload, hdr.len, rep, log);
	free(payload);
	return err;
}
