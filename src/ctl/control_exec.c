// SPDX-License-Identifier: GPL-2.0
/*
 * A daemon's requests (control.h): each line runs through nb_ctl_exec exactly as it would in a
 * script, with the caller's -j/-p/-s/-force and in the caller's working directory (relative
 * object, pcap and map file paths mean what they mean in the caller's shell); what it prints
 * and its errors become the reply.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/control.h"
#include "ctl/ctl.h"

void nb_ctl_run_request(const struct nb_ctl *base, const struct nb_ctl_request *req,
			struct nb_ctl_reply *rep)
{
	struct nb_ctl ctl = *base;
	char *out = NULL;
	size_t out_len = 0;
	int here, err;

	memset(rep, 0, sizeof(*rep));
	memset(&ctl.log, 0, sizeof(ctl.log));
	ctl.usage = false;
	ctl.json = req->opts & NB_CTL_OPT_JSON;
	ctl.pretty = req->opts & NB_CTL_OPT_PRETTY;
	ctl.force = req->opts & NB_CTL_OPT_FORCE;
	ctl.stats = (int)req->stats;
	ctl.base_dir = NULL;
	here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || chdir(req->cwd)) {
		char msg[512];

		snprintf(msg, sizeof(msg), "Error: the daemon cannot enter your directory %.400s: "
			 "%s\n", req->cwd, strerror(errno));
		if (here >= 0)
			close(here);
		nb_ctl_reply_error(rep, 1, msg);
		return;
	}
	ctl.out = open_memstream(&out, &out_len);
	if (!ctl.out) {
		err = -ENOMEM;
	} else {
		err = nb_ctl_exec(&ctl, req->argc, req->argv);
		fclose(ctl.out);
	}
	if (fchdir(here)) {
		/* the daemon's own directory matters to nothing it does later: go on */
	}
	close(here);
	rep->status = nb_ctl_status(&ctl, err);
	rep->out = out;
	rep->out_len = out ? out_len : 0;
	if (err) {
		const char *t = nb_log_text(&ctl.log);

		rep->err = strdup(t[0] ? t : "Error: failed\n");
		rep->err_len = rep->err ? strlen(rep->err) : 0;
	}
	nb_log_free(&ctl.log);
}
