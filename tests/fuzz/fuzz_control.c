// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the daemon's control protocol (src/ctl/control_proto.c): any bytes as
 * what a peer sends, cut into chunks as a socket might deliver them. The first byte picks how
 * the rest is used:
 *   0  raw bytes, the stream as it comes
 *   1  words (the rest split at blanks and newlines) in a well-formed request, so that the
 *      requests reach the command words: show, dump, lookup, update and delete on a device and
 *      two maps made at start-up run for real; other words get a canned reply
 *   2  the same request with one byte of it replaced (header, counts, strings)
 *   3  the bytes as a reply, as the client decodes it
 * Whatever comes, the connection's output must be whole, well-formed replies (checked here),
 * and nothing may crash, leak, hang or trip a sanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/dev.h>
#include <netbpf/map.h>

#include "ctl/control.h"
#include "ctl/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 32

static struct nb_ctl base;

static void setup(void)
{
	struct nb_map_create_opts opts = { .sz = sizeof(opts), .name = "fz_hash" };
	struct nb_map *map;
	struct nb_dev *dev;

	if (nb_dev_create("g0", 0, &dev, NULL) || nb_dev_attach_port(dev, "gen", "count 1", NULL))
		__builtin_trap();
	if (nb_map_create(BPF_MAP_TYPE_HASH, 4, 8, 16, &opts, &map))
		__builtin_trap();
	opts.name = "fz_array";
	if (nb_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 4, 4, &opts, &map))
		__builtin_trap();
	base.out = NULL;
}

/* Words whose effects stay inside this process and are bounded: run them for real. */
static bool harmless(const struct nb_ctl_request *req)
{
	const char *w = req->argc > 0 ? req->argv[0] : "";
	const char *v = req->argc > 1 ? req->argv[1] : "";

	if (!strcmp(w, "map") || !strcmp(w, "prog") || !strcmp(w, "stats"))
		return true;
	if (!strcmp(w, "link"))
		return !strcmp(v, "show");
	if (!strcmp(w, "tc"))
		return req->argc > 2 && (!strcmp(req->argv[2], "show") ||
					 !strcmp(req->argv[2], "list"));
	return req->argc == 0;
}

static void fuzz_exec(void *ctx, const struct nb_ctl_request *req, struct nb_ctl_reply *rep)
{
	(void)ctx;
	if (harmless(req)) {
		nb_ctl_run_request(&base, req, rep);
		return;
	}
	nb_ctl_reply_error(rep, 1, "Error: not run by the fuzzer\n");
}

/* The output must be a sequence of whole reply messages. */
static void check_output(const struct nb_ctl_conn *conn)
{
	size_t off = 0;

	while (off < conn->out_len) {
		struct nb_ctl_msg_hdr hdr;
		struct nb_ctl_reply rep;

		if (conn->out_len - off < sizeof(hdr))
			__builtin_trap();
		memcpy(&hdr, conn->out + off, sizeof(hdr));
		if (nb_ctl_msg_hdr_check(&hdr, NB_CTL_MSG_REPLY, NULL) ||
		    conn->out_len - off - sizeof(hdr) < hdr.len)
			__builtin_trap();
		if (nb_ctl_reply_decode(conn->out + off + sizeof(hdr), hdr.len, &rep, NULL))
			__builtin_trap();
		nb_ctl_reply_free(&rep);
		off += sizeof(hdr) + hdr.len;
	}
}

/* The stream in chunks of 1 to 256 bytes, chosen by chunk. */
static void feed(const uint8_t *stream, size_t len, uint8_t chunk)
{
	size_t step = (size_t)chunk + 1;
	struct nb_ctl_conn conn;

	nb_ctl_conn_init(&conn);
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;

		if (nb_ctl_conn_input(&conn, stream + off, n, fuzz_exec, NULL))
			break;
	}
	if (nb_ctl_conn_partial(&conn))
		nb_ctl_conn_fail(&conn, 1, "Error: the request did not arrive whole in time\n");
	check_output(&conn);
	nb_ctl_conn_release(&conn);
}

/* A well-formed request of the text's words; NULL when there is none to make. */
static void *make_request(const uint8_t *text, size_t len, size_t *msg_len)
{
	char *copy = malloc(len + 1), *argv[MAX_WORDS + 1], *save = NULL;
	struct nb_ctl_request req = { .cwd = "/", .argv = argv };
	void *msg = NULL;

	if (!copy)
		return NULL;
	memcpy(copy, text, len);
	copy[len] = 0;
	for (char *w = strtok_r(copy, " \n", &save); w && req.argc < MAX_WORDS;
	     w = strtok_r(NULL, " \n", &save))
		argv[req.argc++] = w;
	argv[req.argc] = NULL;
	req.opts = len ? text[0] & NB_CTL_OPT_ALL : 0;
	if (nb_ctl_request_encode(&req, &msg, msg_len))
		msg = NULL;
	free(copy);
	return msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	uint8_t mode, chunk;
	size_t msg_len;
	uint8_t *msg;

	if (!ready) {
		setup();
		ready = true;
	}
	if (size < 2)
		return 0;
	mode = data[0] % 4;
	chunk = data[1];
	data += 2;
	size -= 2;
	switch (mode) {
	case 0:
		feed(data, size, chunk);
		break;
	case 1:
	case 2:
		/* the last two bytes (in mode 2) say which byte becomes what */
		if (mode == 2 && size < 3)
			break;
		msg = make_request(data, mode == 2 ? size - 2 : size, &msg_len);
		if (!msg)
			break;
		if (mode == 2)
			msg[data[size - 2] % msg_len] = data[size - 1];
		feed(msg, msg_len, chunk);
		free(msg);
		break;
	default: {
		struct nb_ctl_reply rep;

		if (!nb_ctl_reply_decode(data, size, &rep, NULL))
			nb_ctl_reply_free(&rep);
		break;
	}
	}
	return 0;
}
