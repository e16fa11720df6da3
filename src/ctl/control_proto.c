// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol's messages (control.h): encoding, checking, decoding, and one
 * connection's byte stream cut into requests. Every length and count is checked against the
 * bytes actually there before it is used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/control.h"

struct exec_hdr {
	u32 opts;
	u32 stats;
	u32 argc;
};

struct reply_hdr {
	s32 status;
	u32 out_len;
	u32 err_len;
};

static void *msg_alloc(u16 type, size_t payload, size_t *len)
{
	struct nb_ctl_msg_hdr *hdr;

	if (payload > NB_CTL_MSG_MAX)
		return NULL;
	hdr = malloc(sizeof(*hdr) + payload);
	if (!hdr)
		return NULL;
	hdr->magic = NB_CTL_MAGIC;
	hdr->type = type;
	hdr->zero = 0;
	hdr->len = (u32)payload;
	*len = sizeof(*hdr) + payload;
	return hdr;
}

int nb_ctl_request_encode(const struct nb_ctl_request *req, void **msg, size_t *len)
{
	struct exec_hdr eh = { .opts = req->opts, .stats = req->stats, .argc = (u32)req->argc };
	size_t payload = sizeof(eh) + strlen(req->cwd) + 1;
	u8 *m, *p;

	if (req->argc < 0 || req->argc > NB_CTL_ARGC_MAX)
		return -E2BIG;
	for (int i = 0; i < req->argc; i++) {
		payload += strlen(req->argv[i]) + 1;
		if (payload > NB_CTL_MSG_MAX)
			return -E2BIG;
	}
	if (payload > NB_CTL_MSG_MAX)
		return -E2BIG;
	m = msg_alloc(NB_CTL_MSG_EXEC, payload, len);
	if (!m)
		return -ENOMEM;
	p = m + sizeof(struct nb_ctl_msg_hdr);
	memcpy(p, &eh, sizeof(eh));
	p += sizeof(eh);
	p = (u8 *)stpcpy((char *)p, req->cwd) + 1;
	for (int i = 0; i < req->argc; i++)
		p = (u8 *)stpcpy((char *)p, req->argv[i]) + 1;
	*msg = m;
	return 0;
}

int nb_ctl_reply_encode(const struct nb_ctl_reply *rep, void **msg, size_t *len)
{
	struct reply_hdr rh = { .status = rep->status };
	size_t out_len = rep->out ? rep->out_len : 0, err_len = rep->err ? rep->err_len : 0;
	size_t payload;
	u8 *m, *p;

	/* a reply larger than a message keeps its start and says that it was cut */
	static const char cut[] = "\n[netbpf: output cut at the message size limit]\n";
	bool truncated = false;

	if (err_len > NB_CTL_MSG_MAX / 2)
		err_len = NB_CTL_MSG_MAX / 2;
	if (sizeof(rh) + out_len + err_len > NB_CTL_MSG_MAX) {
		out_len = NB_CTL_MSG_MAX - sizeof(rh) - err_len - sizeof(cut);
		truncated = true;
	}
	rh.out_len = (u32)(out_len + (truncated ? sizeof(cut) - 1 : 0));
	rh.err_len = (u32)err_len;
	payload = sizeof(rh) + rh.out_len + err_len;
	m = msg_alloc(NB_CTL_MSG_REPLY, payload, len);
	if (!m)
		return -ENOMEM;
	p = m + sizeof(struct nb_ctl_msg_hdr);
	memcpy(p, &rh, sizeof(rh));
	p += sizeof(rh);
	if (out_len)
		memcpy(p, rep->out, out_len);
	p += out_len;
	if (truncated) {
		memcpy(p, cut, sizeof(cut) - 1);
		p += sizeof(cut) - 1;
	}
	if (err_len)
		memcpy(p, rep->err, err_len);
	*msg = m;
	return 0;
}

int nb_ctl_msg_hdr_check(const struct nb_ctl_msg_hdr *hdr, u16 want, struct nb_log *log)
{
	if (hdr->magic != NB_CTL_MAGIC) {
		nb_log_printf(log, "Error: not a netbpf control message (magic 0x%08x)\n",
			      hdr->magic);
		return -EPROTO;
	}
	if ((hdr->type != NB_CTL_MSG_EXEC && hdr->type != NB_CTL_MSG_REPLY) ||
	    (want && hdr->type != want)) {
		nb_log_printf(log, "Error: control message of type %u, expected %u\n", hdr->type,
			      want);
		return -EPROTO;
	}
	if (hdr->zero) {
		nb_log_printf(log, "Error: control message header field is 0x%x, expected 0\n",
			      hdr->zero);
		return -EPROTO;
	}
	if (hdr->len > NB_CTL_MSG_MAX) {
		nb_log_printf(log, "Error: control message of %u bytes, the limit is %u\n",
			      hdr->len, NB_CTL_MSG_MAX);
		return -EMSGSIZE;
	}
	return 0;
}

int nb_ctl_request_decode(const void *payload, size_t len, struct nb_ctl_request *req,
			  struct nb_log *log)
{
	struct exec_hdr eh;
	size_t strings = 0;
	char *buf, *p, *end;

	memset(req, 0, sizeof(*req));
	if (len < sizeof(eh)) {
		nb_log_printf(log, "Error: request of %zu bytes is shorter than its header\n", len);
		return -EPROTO;
	}
	memcpy(&eh, payload, sizeof(eh));
	if (eh.opts & ~NB_CTL_OPT_ALL) {
		nb_log_printf(log, "Error: request options 0x%x are unknown\n", eh.opts);
		return -EPROTO;
	}
	if (eh.stats > 8 || eh.argc > NB_CTL_ARGC_MAX) {
		nb_log_printf(log, "Error: request with -s %u times and %u words is wrong\n",
			      eh.stats, eh.argc);
		return -EPROTO;
	}
	len -= sizeof(eh);
	/* the strings: exactly argc + 1, each ending in NUL, nothing after the last */
	for (size_t i = 0; i < len; i++)
		strings += ((const u8 *)payload)[sizeof(eh) + i] == 0;
	if (strings != eh.argc + 1 || (len && ((const u8 *)payload)[sizeof(eh) + len - 1])) {
		nb_log_printf(log, "Error: request holds %zu strings%s, expected %u (the directory "
			      "and %u words)\n", strings, len && ((const u8 *)payload)
			      [sizeof(eh) + len - 1] ? " and unterminated bytes" : "",
			      eh.argc + 1, eh.argc);
		return -EPROTO;
	}
	/* one allocation: the word pointers, then the strings */
	buf = malloc((eh.argc + 1) * sizeof(char *) + len);
	if (!buf)
		return -ENOMEM;
	req->argv = (char **)buf;
	p = buf + (eh.argc + 1) * sizeof(char *);
	memcpy(p, (const u8 *)payload + sizeof(eh), len);
	end = p + len;
	req->cwd = p;
	p += strlen(p) + 1;
	for (u32 i = 0; i < eh.argc; i++) {
		req->argv[i] = p;
		p += strlen(p) + 1;
	}
	req->argv[eh.argc] = NULL;
	req->argc = (int)eh.argc;
	req->opts = eh.opts;
	req->stats = eh.stats;
	req->buf = buf;
	if (p != end || req->cwd[0] != '/') {
		nb_log_printf(log, "Error: the request's directory \"%.64s\" is not absolute\n",
			      req->cwd);
		nb_ctl_request_free(req);
		return -EPROTO;
	}
	return 0;
}

int nb_ctl_reply_decode(const void *payload, size_t len, struct nb_ctl_reply *rep,
			struct nb_log *log)
{
	const u8 *p = payload;
	struct reply_hdr rh;

	memset(rep, 0, sizeof(*rep));
	if (len < sizeof(rh)) {
		nb_log_printf(log, "Error: reply of %zu bytes is shorter than its header\n", len);
		return -EPROTO;
	}
	memcpy(&rh, p, sizeof(rh));
	if ((u64)rh.out_len + rh.err_len != len - sizeof(rh)) {
		nb_log_printf(log, "Error: reply texts of %u and %u bytes in %zu\n", rh.out_len,
			      rh.err_len, len - sizeof(rh));
		return -EPROTO;
	}
	rep->out = malloc(rh.out_len + 1);
	rep->err = malloc(rh.err_len + 1);
	if (!rep->out || !rep->err) {
		nb_ctl_reply_free(rep);
		return -ENOMEM;
	}
	memcpy(rep->out, p + sizeof(rh), rh.out_len);
	memcpy(rep->err, p + sizeof(rh) + rh.out_len, rh.err_len);
	rep->out[rh.out_len] = 0;
	rep->err[rh.err_len] = 0;
	rep->out_len = rh.out_len;
	rep->err_len = rh.err_len;
	rep->status = rh.status;
	return 0;
}

void nb_ctl_request_free(struct nb_ctl_request *req)
{
	free(req->buf);
	memset(req, 0, sizeof(*req));
}

void nb_ctl_reply_free(struct nb_ctl_reply *rep)
{
	free(rep->out);
	free(rep->err);
	memset(rep, 0, sizeof(*rep));
}

int nb_ctl_reply_error(struct nb_ctl_reply *rep, int status, const char *err)
{
	memset(rep, 0, sizeof(*rep));
	rep->status = status;
	rep->err = strdup(err);
	if (!rep->err)
		return -ENOMEM;
	rep->err_len = strlen(err);
	return 0;
}

void nb_ctl_conn_init(struct nb_ctl_conn *conn)
{
	memset(conn, 0, sizeof(*conn));
}

void nb_ctl_conn_release(struct nb_ctl_conn *conn)
{
	free(conn->in);
	free(conn->out);
	memset(conn, 0, sizeof(*conn));
}

static int out_append(struct nb_ctl_conn *conn, const void *data, size_t len)
{
	if (conn->out_off && conn->out_off == conn->out_len)
		conn->out_off = conn->out_len = 0;
	if (conn->out_len + len > conn->out_cap) {
		size_t cap = conn->out_cap ? conn->out_cap : 4096;
		u8 *bigger;

		while (cap < conn->out_len + len)
			cap *= 2;
		bigger = realloc(conn->out, cap);
		if (!bigger)
			return -ENOMEM;
		conn->out = bigger;
		conn->out_cap = cap;
	}
	memcpy(conn->out + conn->out_len, data, len);
	conn->out_len += len;
	return 0;
}

static int queue_reply(struct nb_ctl_conn *conn, const struct nb_ctl_reply *rep)
{
	size_t len;
	void *msg;
	int err = nb_ctl_reply_encode(rep, &msg, &len);

	if (err)
		return err;
	err = out_append(conn, msg, len);
	free(msg);
	return err;
}

void nb_ctl_conn_fail(struct nb_ctl_conn *conn, int status, const char *err)
{
	struct nb_ctl_reply rep = { .status = status, .err = (char *)err, .err_len = strlen(err) };

	if (conn->closing)
		return;
	queue_reply(conn, &rep);
	conn->closing = true;
	conn->in_len = 0;
}

bool nb_ctl_conn_partial(const struct nb_ctl_conn *conn)
{
	return conn->in_len > 0 && !conn->closing;
}

/* The first complete message in conn->in: run it, drop its bytes. false when none is complete. */
static bool handle_one(struct nb_ctl_conn *conn, nb_ctl_exec_fn exec, void *ctx, int *errp)
{
	struct nb_ctl_request req;
	struct nb_ctl_reply rep = { 0 };
	struct nb_ctl_msg_hdr hdr;
	struct nb_log log = { 0 };
	size_t total;
	int err;

	if (conn->in_len < sizeof(hdr))
		return false;
	memcpy(&hdr, conn->in, sizeof(hdr));
	err = nb_ctl_msg_hdr_check(&hdr, NB_CTL_MSG_EXEC, &log);
	if (err) {
		nb_ctl_conn_fail(conn, 1, nb_log_text(&log));
		nb_log_free(&log);
		return false;
	}
	total = sizeof(hdr) + hdr.len;
	if (conn->in_len < total)
		return false;
	err = nb_ctl_request_decode(conn->in + sizeof(hdr), hdr.len, &req, &log);
	if (err == -ENOMEM) {
		*errp = err;
		return false;
	}
	if (err) {
		nb_ctl_conn_fail(conn, 1, nb_log_text(&log));
		nb_log_free(&log);
		return false;
	}
	exec(ctx, &req, &rep);
	conn->requests++;
	nb_ctl_request_free(&req);
	err = queue_reply(conn, &rep);
	nb_ctl_reply_free(&rep);
	if (err) {
		*errp = err;
		return false;
	}
	memmove(conn->in, conn->in + total, conn->in_len - total);
	conn->in_len -= total;
	return true;
}

int nb_ctl_conn_input(struct nb_ctl_conn *conn, const void *data, size_t len, nb_ctl_exec_fn exec,
		      void *ctx)
{
	int err = 0;

	if (conn->closing)
		return 0;
	while (len && !conn->closing) {
		/* never hold more than one whole message: the rest waits in the socket */
		size_t room = sizeof(struct nb_ctl_msg_hdr) + NB_CTL_MSG_MAX - conn->in_len;
		size_t take = len < room ? len : room;

		if (conn->in_len + take > conn->in_cap) {
			size_t cap = conn->in_cap ? conn->in_cap : 4096;
			u8 *bigger;

			while (cap < conn->in_len + take)
				cap *= 2;
			bigger = realloc(conn->in, cap);
			if (!bigger)
				return -ENOMEM;
			conn->in = bigger;
			conn->in_cap = cap;
		}
		memcpy(conn->in + conn->in_len, data, take);
		conn->in_len += take;
		data = (const u8 *)data + take;
		len -= take;
		while (handle_one(conn, exec, ctx, &err))
			;
		if (err)
			return err;
	}
	return 0;
}
