// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the mcbf commands and their help.
 */

#include "mcbf.h"

/* ---- the table ------------------------------------------------------------------- */

static const char optimize_help[] =
"The k of each class that minimises the expected leakage of a port's filter\n"
"of M bits (a multiple of 512): sum over classes of GROUPS (1 - P) W\n"
"rho^k, rho the expected fill, with one class GROUPS:P[:W] per class 0, 1,\n"
"...: GROUPS groups of the class the port may be asked about, P the\n"
"probability that one is joined behind the port, W its traffic weight (1).\n"
"Likely groups get fewer probes, unlikely ones more.  kmin and kmax bound k\n"
"(1..32; 1 and 16 unless given).  The last line is the classes LIST for\n"
"mcbf port and xdp attach mcbf; each class's group addresses are shown\n"
"(IPv4: the high nibble of the second octet, 239.C*16.x.y; IPv6: of byte\n"
"12, ff3e::C000:0/100 with C in hex).\n";

static const char port_help[] =
"Builds port PORT's filter (a port is made if PORT is not one yet) from its\n"
"groups with the new settings, and publishes the filter and its class table\n"
"in one update.  bits M (4096, a multiple of 512); classes LIST, the k of\n"
"classes 0, 1, ... (K0,K1,... with 0 for an unused class, the classes after\n"
"the list unused) or all:K (every class; the default is all:4); or class\n"
"GROUPS:P[:W]... to have the optimiser choose them at M bits (see mcbf\n"
"optimize); seed S (0) and hash fast|siphash (fast) of the filter.  What is\n"
"not given stays as it is.  A joined group of a class the new table leaves\n"
"unused is refused.\n";

static const struct ctl_cmd mcbf_sub[] = {
	{
		.name = "optimize",
		.synopsis = "bits M class GROUPS:P[:W]... [kmin K] [kmax K]",
		.summary = "the k of each class from presence probabilities (a class plan)",
		.help = optimize_help,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = mcbf_cmd_optimize,
	},
	{
		.name = "create",
		.synopsis = "NAME [ports N] [members N] [audit on|off] [netns NS]",
		.summary = "make an mcbf switch without ports (then mcbf port, xdp attach mcbf)",
		.help =
"Instance NAME is pinned in /sys/fs/bpf/kbloom/NAME, for at most N ports\n"
"(64) and N memberships (65536, all ports together).  audit on (default):\n"
"the egress programs count copies of groups a port has not joined (LEAKED\n"
"in mcbf stats).  netns NS: the namespace of its interfaces, remembered.\n"
"xdp attach mcbf makes the instance too.  -exist: an mcbf instance NAME is\n"
"not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = mcbf_cmd_create,
	},
	{
		.name = "port",
		.synopsis = "NAME PORT [bits M] [classes LIST | class GROUPS:P[:W]...] [seed S] [hash fast|siphash] [netns NS]",
		.summary = "a port's filter: size, class table, seed (rebuilt from its groups)",
		.help = port_help,
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.run = mcbf_cmd_port,
	},
	{
		.name = "join",
		.synopsis = "NAME PORT GROUP... [netns NS]",
		.summary = "port PORT joins groups: their packets are forwarded on it",
		.help =
"GROUP is an IPv4 (224.0.0.0/4) or IPv6 (ff00::/8) group; its class is the\n"
"high nibble of the second IPv4 octet or of IPv6 byte 12, and must be one\n"
"the port uses.  The port's filter is rebuilt with the groups and swapped\n"
"in whole: all the groups or none.  -exist: a group joined already is not\n"
"an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = mcbf_cmd_join,
	},
	{
		.name = "leave",
		.synopsis = "NAME PORT GROUP... [netns NS]",
		.summary = "port PORT leaves groups (its filter is rebuilt without them)",
		.help =
"-exist: a group not joined is not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = mcbf_cmd_leave,
	},
	{
		.name = "ports",
		.synopsis = "NAME [netns NS]",
		.summary = "the ports: m, hash, groups, occupancy, class table",
		.help =
"-j adds, for each used class, its k and fpr_now: the false-positive rate\n"
"the filter predicts for a group of that class that has not joined.\n",
		.min_args = 1,
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = mcbf_cmd_ports,
	},
	{
		.name = "groups",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "the groups each port (or PORT) has joined, with their class",
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = mcbf_cmd_groups,
	},
	{
		.name = "stats",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "per-port counters: forwarded, filtered, unused class, leaked",
		.help =
"RX: frames received on the port; RX_MCAST: multicast data frames it\n"
"broadcast to the other ports; TX_SEEN: copies offered to the port,\n"
"FORWARDED (the filter may hold the group at its class's k) + FILTERED\n"
"(dropped; UNUSED of them: a group of a class the port does not use) +\n"
"ERRORS; LEAKED: forwarded copies of groups the port has not joined (false\n"
"positives, counted with audit on).  LEAK_RATE = LEAKED / (LEAKED +\n"
"FILTERED).\n",
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = mcbf_cmd_stats,
	},
	{ 0 }
};

const struct ctl_cmd mcbf_cmds[] = {
	{
		.name = "mcbf",
		.synopsis = "optimize|create|port|join|leave|ports|groups|stats ...",
		.summary = "Multi-Class Bloom filter switch: class plans, ports, groups",
		.sub = mcbf_sub,
	},
	{ 0 }
};
