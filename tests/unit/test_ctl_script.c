// SPDX-License-Identifier: GPL-2.0
/*
 * The command language's script rules (src/ctl/script.c): words, quotes, comments, line joins,
 * variables from --set, the script and the environment, and errors that name the line; and
 * lines acting on the datapath through nb_ctl_exec (src/ctl/link.c, tc*.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>

#include <netbpf/dev.h>
#include <netbpf/tc.h>

#include "ctl/ctl.h"
#include "test.h"

static char **split(const char *line, const char *const *vars, int cnt, int *argc)
{
	struct nb_log log = { 0 };
	char **argv = NULL;
	int err = nb_ctl_split(line, vars, cnt, argc, &argv, &log);

	if (err)
		NB_FAIL("split \"%s\": %d %s", line, err, nb_log_text(&log));
	nb_log_free(&log);
	return argv;
}

NB_TEST(ctl_split_words_quotes_comments)
{
	const char *vars[] = { "X=one", "X=two", "EMPTY=" };
	int argc;
	char **argv = split("  tc filter\tadd 'a $X' \"c $X d\" e\\ f ${X}x$EMPTY # $NOPE", vars,
			    3, &argc);

	NB_ASSERT_EQ(argc, 7);
	NB_ASSERT(!strcmp(argv[0], "tc") && !strcmp(argv[1], "filter") && !strcmp(argv[2], "add"));
	NB_ASSERT(!strcmp(argv[3], "a $X"));		/* single quotes keep $ */
	NB_ASSERT(!strcmp(argv[4], "c two d"));	/* the last value wins */
	NB_ASSERT(!strcmp(argv[5], "e f"));
	NB_ASSERT(!strcmp(argv[6], "twox"));
	NB_ASSERT(argv[7] == NULL);
	free(argv);

	argv = split("# only a comment", NULL, 0, &argc);
	NB_ASSERT_EQ(argc, 0);
	free(argv);
}

NB_TEST(ctl_split_environment_and_errors)
{
	struct nb_log log = { 0 };
	char **argv = NULL;
	int argc;

	setenv("NB_CTL_TEST_DEV", "eth9", 1);
	argv = split("dev $NB_CTL_TEST_DEV", NULL, 0, &argc);
	NB_ASSERT_EQ(argc, 2);
	NB_ASSERT(!strcmp(argv[1], "eth9"));
	free(argv);

	NB_ASSERT_EQ(nb_ctl_split("dev $NB_CTL_UNSET_VAR", NULL, 0, &argc, &argv, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "variable \"NB_CTL_UNSET_VAR\" is not set");
	nb_log_reset(&log);
	NB_ASSERT_EQ(nb_ctl_split("a 'open", NULL, 0, &argc, &argv, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "unterminated quote");
	nb_log_reset(&log);
	NB_ASSERT_EQ(nb_ctl_split("a ${X", NULL, 0, &argc, &argv, &log), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "variable name");
	nb_log_free(&log);
}

static char *run_script(const char *text, const char *const *vars, int cnt, int *err)
{
	struct nb_ctl ctl = { 0 };
	char *out = NULL;
	size_t len = 0;

	ctl.out = open_memstream(&out, &len);
	NB_ASSERT(ctl.out != NULL);
	*err = nb_ctl_script_run(&ctl, "t.tc", text, vars, cnt);
	fclose(ctl.out);
	if (*err) {
		free(out);
		out = strdup(nb_log_text(&ctl.log));
	}
	nb_log_free(&ctl.log);
	return out;
}

NB_TEST(ctl_script_lines_act_on_the_datapath)
{
	const char *sets[] = { "PREF=7" };
	struct nb_tc_filter_id id = { .hook = NB_TC_EGRESS, .pref = 7,
				      .protocol = htons(ETH_P_IP), .handle = 1 };
	struct nb_tc_filter_info info;
	struct nb_dev *g, *s;
	char *out;
	int err;

	out = run_script("# devices\n"
			 "netbpf link add g0 type gen count 3\n"
			 "link add \\\n  s0 type sink\n"
			 "KIND=matchall\n"
			 "tc qdisc add dev g0 clsact\n"
			 "tc filter add dev g0 egress protocol ip pref $PREF handle 1 $KIND classid 1:5"
			 " action mirred egress mirror dev s0 pipe action drop\n"
			 "tc filter show dev g0 egress\n", sets, 1, &err);
	NB_ASSERT_EQ(err, 0);
	/* iproute2's f_matchall puts not_in_hw on a line of its own */
	NB_ASSERT_STR_CONTAINS(out, "filter protocol ip pref 7 matchall chain 0 handle 0x1 "
			       "flowid 1:5 \n  not_in_hw");
	NB_ASSERT_STR_CONTAINS(out, "action order 2: gact action drop");
	free(out);

	g = nb_dev_get_by_name("g0");
	s = nb_dev_get_by_name("s0");
	NB_ASSERT(g && s);
	NB_ASSERT(nb_dev_is_up(g));
	NB_ASSERT_EQ(nb_tc_filter_get(g, &id, &info, NULL), 0);
	NB_ASSERT(!strcmp(info.kind, "matchall"));
	NB_ASSERT_EQ(info.classid, 0x10005);
	NB_ASSERT_EQ(info.action_cnt, 2);
	NB_ASSERT(!strcmp(info.actions[0].kind, "mirred"));
	NB_ASSERT_EQ(info.actions[0].control, TC_ACT_PIPE);
	NB_ASSERT_EQ(info.actions[1].control, TC_ACT_SHOT);
	nb_tc_filter_info_release(&info);
	nb_dev_put(g);
	nb_dev_put(s);

	/* a failing line stops the script and is named with its number */
	out = run_script("link add x0 type sink\n\nlink set x0 mtu 1\nlink add x1 type sink\n",
			 NULL, 0, &err);
	NB_ASSERT(err < 0);
	NB_ASSERT_STR_CONTAINS(out, "Error: argument \"1\" is wrong");
	NB_ASSERT_STR_CONTAINS(out, "t.tc:3: in \"link set x0 mtu 1\"");
	free(out);
	s = nb_dev_get_by_name("x1");
	NB_ASSERT(s == NULL);
	nb_dev_destroy_all();
}

NB_TEST(ctl_exec_words_and_usage)
{
	struct nb_ctl ctl = { .out = stdout };
	char *bad[] = { "tc", "filter", "add", "dev", "d", "ingress", "flower" };
	char *missing[] = { "link", "add", "n" };
	char *word[] = { "route" };

	NB_ASSERT_EQ(nb_ctl_exec(&ctl, 7, bad), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&ctl.log), "argument \"flower\" is wrong: classifier "
			       "not built");
	NB_ASSERT(!ctl.usage);
	nb_log_reset(&ctl.log);
	NB_ASSERT_EQ(nb_ctl_exec(&ctl, 3, missing), -EINVAL);
	NB_ASSERT(ctl.usage);
	nb_log_reset(&ctl.log);
	NB_ASSERT_EQ(nb_ctl_exec(&ctl, 1, word), -EINVAL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&ctl.log), "argument \"route\" is wrong");
	nb_log_free(&ctl.log);
	nb_dev_destroy_all();
}
