// SPDX-License-Identifier: GPL-2.0
/*
 * netbpf run: scripts of tc/ip/link lines and the built-in default. The datapath that runs them
 * is not built yet; until it is, the command says so rather than pretending.
 */
#include "cli/cli.h"

int cmd_run(int argc, char **argv)
{
	nb_cli_error("run: the datapath is not built yet (tc and XDP datapath issues)");
	return NB_EXIT_ERR;
}
