// SPDX-License-Identifier: GPL-2.0
/*
 * -j: stdout is exactly one JSON document, whatever the command and however it ends. A
 * command prints its own document; one that fails before it printed any leaves on stdout what
 * bpftool leaves, {"error": "..."}, holding what it said on stderr, and one that succeeds
 * without a word (tc qdisc add) prints bpftool's `null`. The exit status stays the command's.
 *
 * Rather than teach every error path of every command two ways of saying the same thing, the
 * process's stdout and stderr are wrapped (glibc's fopencookie; stdout and stderr are plain
 * variables in glibc, documented as assignable): stdout's wrapper counts the bytes that pass,
 * stderr's keeps a copy of the text. Both write through to the same descriptors at once, so
 * a terminal and a pipe see what they saw before, in the same order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ctl/json.h"

/* Enough of any error; a verifier log beyond it is cut (stderr still has it whole). */
#define KEPT_MAX (256 * 1024)

static struct {
	FILE *out, *err;	/* the process's own streams */
	size_t out_bytes;
	char *kept;
	size_t kept_len;
	bool active;
} jo;

static ssize_t write_all(int fd, const char *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return done ? (ssize_t)done : -1;
		done += n;
	}
	return done;
}

static ssize_t out_write(void *cookie, const char *buf, size_t size)
{
	ssize_t n = write_all(STDOUT_FILENO, buf, size);

	(void)cookie;
	if (n > 0)
		jo.out_bytes += n;
	return n;
}

static ssize_t err_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if (jo.kept_len < KEPT_MAX) {
		size_t n = size < KEPT_MAX - jo.kept_len ? size : KEPT_MAX - jo.kept_len;
		char *bigger = realloc(jo.kept, jo.kept_len + n + 1);

		if (bigger) {
			memcpy(bigger + jo.kept_len, buf, n);
			jo.kept = bigger;
			jo.kept_len += n;
			jo.kept[jo.kept_len] = '\0';
		}
	}
	return write_all(STDERR_FILENO, buf, size);
}

void nb_cli_json_begin(void)
{
	cookie_io_functions_t out_fns = { .write = out_write };
	cookie_io_functions_t err_fns = { .write = err_write };
	FILE *out, *err;

	fflush(stdout);
	fflush(stderr);
	out = fopencookie(NULL, "w", out_fns);
	err = fopencookie(NULL, "w", err_fns);
	if (!out || !err) {
		/* without the wrappers, errors stay on stderr only: nothing is lost */
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		return;
	}
	setvbuf(err, NULL, _IONBF, 0);
	jo.out = stdout;
	jo.err = stderr;
	stdout = out;
	stderr = err;
	jo.active = true;
}

/* The kept stderr text as one message: "netbpf: " and "Error: " at line starts dropped. */
static char *error_text(void)
{
	const char *p = jo.kept ? jo.kept : "";
	char *text = malloc(strlen(p) + 1), *t = text;

	if (!text)
		return NULL;
	while (*p) {
		size_t n;

		if (!strncmp(p, "netbpf: ", 8))
			p += 8;
		if (!strncmp(p, "Error: ", 7))
			p += 7;
		n = strcspn(p, "\n");
		if (t != text && n)
			*t++ = '\n';
		memcpy(t, p, n);
		t += n;
		p += n + (p[n] == '\n');
	}
	*t = '\0';
	return text;
}

int nb_cli_json_end(int status)
{
	FILE *out, *err;

	if (!jo.active)
		return status;
	fflush(stdout);
	if (!jo.out_bytes && !status) {
		fputs("null\n", stdout);
	} else if (!jo.out_bytes) {
		struct nb_json *j = nb_json_new(stdout, nb_cli.pretty);
		char *text = error_text();

		if (j) {
			nb_json_start_object(j, NULL);
			nb_json_string(j, "error", text && text[0] ? text : "failed");
			nb_json_end_object(j);
			nb_json_free(j);
		}
		free(text);
	}
	out = stdout;
	err = stderr;
	stdout = jo.out;
	stderr = jo.err;
	fclose(out);
	fclose(err);
	free(jo.kept);
	jo.kept = NULL;
	jo.active = false;
	return status;
}
