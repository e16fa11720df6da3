// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's control socket (control.h): a Unix stream socket, mode 0600 in a directory of
 * mode 0700, served by one thread with poll(). Every connection is non-blocking and has its own
 * buffers (struct nb_ctl_conn), so a peer that sends half a request, or never reads its reply,
 * holds up nobody: it is cut off after NB_CTL_TIMEOUT_MS. Peers are checked with SO_PEERCRED:
 * the daemon's own user or root.
 *
 * Who runs: the daemon holds an exclusive flock on NAME.lock beside its socket for its life.
 * A socket whose lock nobody holds was left by a daemon that died; the next one replaces it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "ctl/control.h"

struct server_conn {
	int fd;
	u64 since_ns;		/* when its pending request began, or its reply was queued */
	struct nb_ctl_conn c;
};

struct nb_ctl_server {
	int fd;
	int lock_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char lock_path[sizeof(((struct sockaddr_un *)0)->sun_path) + 8];
	nb_ctl_exec_fn exec;
	void *ctx;
	struct server_conn conns[NB_CTL_MAX_CONNS];
	unsigned int nr_conns;
};

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The socket's directory: made 0700 when missing (mkdir -p of the last two levels). */
static int make_dir(const char *path, struct nb_log *log)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = 0;
	if (!mkdir(dir, 0700) || errno == EEXIST)
		return 0;
	if (errno == ENOENT) {
		char *up = strrchr(dir, '/');

		if (up && up != dir) {
			*up = 0;
			if (mkdir(dir, 0700) && errno != EEXIST)
				goto fail;
			*up = '/';
		}
		if (!mkdir(dir, 0700) || errno == EEXIST)
			return 0;
	}
fail:
	nb_log_printf(log, "Error: cannot make the socket directory %s: %s\n", dir,
		      strerror(errno));
	return -errno;
}

int nb_ctl_server_open(const char *path, nb_ctl_exec_fn exec, void *ctx,
		       struct nb_ctl_server **srvp, struct nb_log *log)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct nb_ctl_server *srv;
	mode_t old_mask;
	int err;

	*srvp = NULL;
	if (strlen(path) >= sizeof(addr.sun_path)) {
		nb_log_printf(log, "Error: socket path %s is too long\n", path);
		return -ENAMETOOLONG;
	}
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->fd = -1;
	srv->exec = exec;
	srv->ctx = ctx;
	snprintf(srv->path, sizeof(srv->path), "%s", path);
	snprintf(srv->lock_path, sizeof(srv->lock_path), "%s", path);
	if (strlen(path) > 5 && !strcmp(path + strlen(path) - 5, ".sock"))
		srv->lock_path[strlen(path) - 5] = 0;
	strcat(srv->lock_path, ".lock");
	err = make_dir(path, log);
	if (err)
		goto fail;
	srv->lock_fd = open(srv->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (srv->lock_fd < 0) {
		err = -errno;
		nb_log_printf(log, "Error: cannot open %s: %s\n", srv->lock_path, strerror(errno));
		goto fail;
	}
	if (flock(srv->lock_fd, LOCK_EX | LOCK_NB)) {
		err = errno == EWOULDBLOCK ? -EADDRINUSE : -errno;
		nb_log_printf(log, "Error: a daemon listens on %s already\n", path);
		goto fail_lock;
	}
	/* the lock is ours: a socket there is a dead daemon's */
	if (unlink(path) && errno != ENOENT) {
		err = -errno;
		nb_log_printf(log, "Error: cannot remove the stale socket %s: %s\n", path,
			      strerror(errno));
		goto fail_lock;
	}
	srv->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (srv->fd < 0) {
		err = -errno;
		goto fail_lock;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	/* born 0600: no moment at which another user could connect */
	old_mask = umask(0177);
	err = bind(srv->fd, (struct sockaddr *)&addr, sizeof(addr)) ? -errno : 0;
	umask(old_mask);
	if (!err && listen(srv->fd, 16))
		err = -errno;
	if (err) {
		nb_log_printf(log, "Error: cannot listen on %s: %s\n", path, strerror(-err));
		goto fail_sock;
	}
	*srvp = srv;
	return 0;
fail_sock:
	close(srv->fd);
fail_lock:
	close(srv->lock_fd);
fail:
	free(srv);
	return err;
}

static void conn_close(struct nb_ctl_server *srv, unsigned int i)
{
	close(srv->conns[i].fd);
	nb_ctl_conn_release(&srv->conns[i].c);
	srv->conns[i] = srv->conns[--srv->nr_conns];
}

/* The peer's user must be ours or root. */
static bool peer_allowed(int fd, char *why, size_t size)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		snprintf(why, size, "Error: cannot read the peer's credentials: %s\n",
			 strerror(errno));
		return false;
	}
	if (cred.uid == 0 || cred.uid == geteuid())
		return true;
	snprintf(why, size, "Error: permission denied: this daemon serves uid %u and root, not "
		 "uid %u\n", (unsigned int)geteuid(), (unsigned int)cred.uid);
	return false;
}

static void accept_all(struct nb_ctl_server *srv)
{
	for (;;) {
		int fd = accept4(srv->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct server_conn *sc;
		char why[160];

		if (fd < 0)
			return;
		if (srv->nr_conns == NB_CTL_MAX_CONNS) {
			static const char busy[] = "Error: too many connections to this daemon\n";
			struct nb_ctl_conn c;

			/* one try at telling it why, never a wait */
			nb_ctl_conn_init(&c);
			nb_ctl_conn_fail(&c, 1, busy);
			if (write(fd, c.out, c.out_len) < 0) {
				/* it went away: nothing to tell */
			}
			nb_ctl_conn_release(&c);
			close(fd);
			continue;
		}
		sc = &srv->conns[srv->nr_conns++];
		sc->fd = fd;
		sc->since_ns = now_ns();
		nb_ctl_conn_init(&sc->c);
		if (!peer_allowed(fd, why, sizeof(why)))
			nb_ctl_conn_fail(&sc->c, 1, why);
	}
}

/* Read what the peer sent and run the requests it completes; false: close it. */
static bool conn_read(struct nb_ctl_server *srv, struct server_conn *sc)
{
	u8 buf[16384];

	for (int rounds = 0; rounds < 64 && !sc->c.closing; rounds++) {
		bool was_partial = nb_ctl_conn_partial(&sc->c);
		ssize_t n = read(sc->fd, buf, sizeof(buf));

		if (n == 0)
			return false;
		if (n < 0)
			return errno == EAGAIN || errno == EINTR;
		if (nb_ctl_conn_input(&sc->c, buf, (size_t)n, srv->exec, srv->ctx))
			return false;
		if (!was_partial || !nb_ctl_conn_partial(&sc->c))
			sc->since_ns = now_ns();
		/* a reply waits to be sent: read the next request only after it left */
		if (sc->c.out_len > sc->c.out_off)
			break;
	}
	return true;
}

/* Send what is queued; false: close it (done, or the peer went away). */
static bool conn_write(struct server_conn *sc)
{
	while (sc->c.out_len > sc->c.out_off) {
		ssize_t n = send(sc->fd, sc->c.out + sc->c.out_off, sc->c.out_len - sc->c.out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0)
			return errno == EAGAIN || errno == EINTR;
		sc->c.out_off += (size_t)n;
		sc->since_ns = now_ns();
	}
	return !sc->c.closing;
}

int nb_ctl_server_serve(struct nb_ctl_server *srv, int timeout_ms)
{
	struct pollfd pfd[NB_CTL_MAX_CONNS + 1];
	unsigned int n = srv->nr_conns;
	u64 now;
	int ret;

	pfd[0] = (struct pollfd){ .fd = srv->fd, .events = POLLIN };
	for (unsigned int i = 0; i < n; i++) {
		struct server_conn *sc = &srv->conns[i];
		bool sending = sc->c.out_len > sc->c.out_off;

		pfd[i + 1] = (struct pollfd){ .fd = sc->fd,
					      .events = sending ? POLLOUT : POLLIN };
	}
	ret = poll(pfd, n + 1, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? -EINTR : -errno;
	now = now_ns();
	/* backwards, so that closing one (the last moves into its place) skips nobody */
	for (unsigned int i = n; i-- > 0;) {
		struct server_conn *sc = &srv->conns[i];
		bool keep = true;

		if (pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR))
			keep = conn_read(srv, sc);
		if (keep && (sc->c.out_len > sc->c.out_off || sc->c.closing))
			keep = conn_write(sc);
		if (keep && now - sc->since_ns > (u64)NB_CTL_TIMEOUT_MS * 1000000) {
			if (sc->c.out_len > sc->c.out_off || sc->c.closing) {
				keep = false;	/* it does not read its reply */
			} else if (nb_ctl_conn_partial(&sc->c)) {
				nb_ctl_conn_fail(&sc->c, 1, "Error: the request did not arrive "
						 "whole in time\n");
				keep = conn_write(sc);
			}
		}
		if (!keep)
			conn_close(srv, i);
	}
	if (pfd[0].revents & POLLIN)
		accept_all(srv);
	return 0;
}

void nb_ctl_server_close(struct nb_ctl_server *srv)
{
	if (!srv)
		return;
	while (srv->nr_conns)
		conn_close(srv, srv->nr_conns - 1);
	close(srv->fd);
	unlink(srv->path);
	/* the lock file stays: removing it could let two daemons hold "the" lock at once */
	close(srv->lock_fd);
	free(srv);
}
