/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control protocol between `netbpf` commands and a running `netbpf daemon`: a request is a
 * command line (its words, the global options, the caller's working directory), the reply what
 * the same line prints in a script (its output, its errors) and the exit status. Messages travel
 * over a Unix stream socket (control_server.c, control_client.c), each a header and a payload:
 *
 *   header   u32 magic "nbc1", u16 type, u16 zero, u32 payload length (at most NB_CTL_MSG_MAX)
 *   EXEC     u32 options (NB_CTL_OPT_*), u32 -s count, u32 argc, then argc + 1 strings each
 *            ending in NUL: the working directory (absolute), then the words
 *   REPLY    s32 exit status, u32 output length, u32 error length, then the two texts
 *
 * Integers are in the host's byte order (both ends are on one machine). A message that breaks
 * any rule is answered with an error reply and the connection is closed; nothing in a message
 * is trusted before it has been checked (tests/fuzz/fuzz_control.c).
 */
#ifndef NB_CTL_CONTROL_H
#define NB_CTL_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <netbpf/log.h>

#include "common/types.h"

#define NB_CTL_MAGIC 0x3163626eU	/* "nbc1" */
#define NB_CTL_MSG_MAX (1U << 20)	/* payload bytes */
#define NB_CTL_ARGC_MAX 4096

enum nb_ctl_msg_type {
	NB_CTL_MSG_EXEC = 1,
	NB_CTL_MSG_REPLY = 2,
};

struct nb_ctl_msg_hdr {
	u32 magic;
	u16 type;
	u16 zero;
	u32 len;
};

enum nb_ctl_opt {
	NB_CTL_OPT_JSON = 1U << 0,	/* -j */
	NB_CTL_OPT_PRETTY = 1U << 1,	/* -p */
	NB_CTL_OPT_FORCE = 1U << 2,	/* -force */
	NB_CTL_OPT_ALL = (1U << 3) - 1,
};

/* A command line for the daemon. Decoded requests own one buffer that every string points into. */
struct nb_ctl_request {
	u32 opts;		/* enum nb_ctl_opt */
	u32 stats;		/* -s given this many times */
	const char *cwd;	/* relative paths in the words are relative to it */
	int argc;
	char **argv;		/* argc words, then NULL */
	void *buf;		/* decoded requests: the allocation behind cwd and argv */
};

/* What the command printed on stdout and stderr, and its exit status. */
struct nb_ctl_reply {
	int status;
	char *out;
	size_t out_len;
	char *err;
	size_t err_len;
};

/* A whole message (header and payload) in one allocation: 0, -E2BIG or -ENOMEM. */
int nb_ctl_request_encode(const struct nb_ctl_request *req, void **msg, size_t *len);
int nb_ctl_reply_encode(const struct nb_ctl_reply *rep, void **msg, size_t *len);
/*
 * Check a header: the magic, a known type (want, or any when 0), the zero field and the length
 * limit. -EPROTO (-EMSGSIZE for the length) with the reason in log.
 */
int nb_ctl_msg_hdr_check(const struct nb_ctl_msg_hdr *hdr, u16 want, struct nb_log *log);
/* Decode a payload of len bytes (after its header was checked): 0 or -EPROTO with the reason. */
int nb_ctl_request_decode(const void *payload, size_t len, struct nb_ctl_request *req,
			  struct nb_log *log);
int nb_ctl_reply_decode(const void *payload, size_t len, struct nb_ctl_reply *rep,
			struct nb_log *log);
void nb_ctl_request_free(struct nb_ctl_request *req);
void nb_ctl_reply_free(struct nb_ctl_reply *rep);
/* A reply of status with err as its error text (copied); -ENOMEM. */
int nb_ctl_reply_error(struct nb_ctl_reply *rep, int status, const char *err);

/*
 * One connection's side of the protocol, apart from its socket so that it can be fed any bytes
 * (the fuzzer does): input accumulates; each complete request runs through exec and its reply
 * is queued on output. A malformed message queues an error reply and closes the connection
 * (no more input is read), as does a request too large.
 */
typedef void (*nb_ctl_exec_fn)(void *ctx, const struct nb_ctl_request *req,
			       struct nb_ctl_reply *rep);

struct nb_ctl_conn {
	u8 *in;			/* bytes received and not yet handled */
	size_t in_len, in_cap;
	u8 *out;		/* reply bytes not yet sent */
	size_t out_len, out_off, out_cap;
	bool closing;		/* send what is queued, then close */
	unsigned int requests;	/* requests run on this connection */
};

void nb_ctl_conn_init(struct nb_ctl_conn *conn);
void nb_ctl_conn_release(struct nb_ctl_conn *conn);
/* Take len bytes of input and run the requests they complete. -ENOMEM when out of memory. */
int nb_ctl_conn_input(struct nb_ctl_conn *conn, const void *data, size_t len, nb_ctl_exec_fn exec,
		      void *ctx);
/* Queue an error reply and close (timeouts, refused peers). */
void nb_ctl_conn_fail(struct nb_ctl_conn *conn, int status, const char *err);
/* Whether a request has begun and is not complete (for the server's timeout). */
bool nb_ctl_conn_partial(const struct nb_ctl_conn *conn);

/*
 * Where daemons' sockets live: $NETBPF_RUNDIR when set, /run/netbpf for root,
 * $XDG_RUNTIME_DIR/netbpf for others (or /tmp/netbpf-UID). A daemon NAME listens on
 * DIR/NAME.sock and holds DIR/NAME.lock while it runs. A name with a '/' is a socket path.
 * -EINVAL when the name is not [A-Za-z0-9_.-]{1,64} (not starting with '.'), -ENAMETOOLONG.
 */
int nb_ctl_daemon_dir(char *buf, size_t size);
int nb_ctl_daemon_path(const char *name, char *buf, size_t size, struct nb_log *log);

/* The server: a listening socket and its connections, served from one thread. */
struct nb_ctl_server;

/*
 * Listen on path (mode 0600, its directory made 0700 when missing). A daemon of that name that
 * runs already (its lock is held) is -EADDRINUSE; a socket left by a dead one is replaced.
 * exec runs each request, in the thread that calls nb_ctl_server_serve.
 */
int nb_ctl_server_open(const char *path, nb_ctl_exec_fn exec, void *ctx,
		       struct nb_ctl_server **srvp, struct nb_log *log);
/*
 * Wait up to timeout_ms for connections and requests and handle them: accept (refusing peers
 * of another user than ours or root, SO_PEERCRED), read, run, reply. A request that stays
 * incomplete for NB_CTL_TIMEOUT_MS is answered with an error and its connection closed; no
 * peer can make a reply wait on another. Returns 0, or -EINTR when a signal came.
 */
#define NB_CTL_TIMEOUT_MS 5000
#define NB_CTL_MAX_CONNS 64
int nb_ctl_server_serve(struct nb_ctl_server *srv, int timeout_ms);
/* Close every connection, remove the socket (and its lock), free. */
void nb_ctl_server_close(struct nb_ctl_server *srv);

/*
 * Run a request as the same line runs in a script, on this process's datapath (control_exec.c):
 * base gives the context (example objects, the datapath, its rates), the request its options
 * and working directory; the reply holds what the line printed and its exit status.
 */
struct nb_ctl;
void nb_ctl_run_request(const struct nb_ctl *base, const struct nb_ctl_request *req,
			struct nb_ctl_reply *rep);

/*
 * The client: connect to the daemon at path. -ENOENT or -ECONNREFUSED when none listens there
 * (a dead daemon's socket), -EACCES when it is not ours to reach; log says which.
 */
int nb_ctl_client_connect(const char *path, int *fdp, struct nb_log *log);
/* Send one request and read its reply (blocking). */
int nb_ctl_client_call(int fd, const struct nb_ctl_request *req, struct nb_ctl_reply *rep,
		       struct nb_log *log);

#endif /* NB_CTL_CONTROL_H */
