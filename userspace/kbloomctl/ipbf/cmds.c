// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the ipbf commands and their help.
 */
#include "ipbf.h"

/* ---- the table ---------------------------------------------------------------- */

static const char topo_help[] =
"TOPO is a topology of libkbloom_net.h: the node and local port numbers of\n"
"the control plane, from which the link IDs come.\n"
"  line:SWITCHES[:HOSTS]          a chain of switches, HOSTS (1) on each\n"
"  tree:DEPTH:FANOUT[:HOSTS]      a complete tree of switches, HOSTS (1) per leaf\n"
"  fat-tree:K                     a k-ary fat-tree (K even)\n"
"  leaf-spine:LEAVES:SPINES[:HOSTS]\n"
"  file:PATH                      a topology file: 'switch NAME', 'host NAME',\n"
"                                 'link NAME NAME' statements ('#' comments)\n"
"Nodes of the builders are named s<N> (switch N) and h<J> (host J); those of\n"
"a file by the file.  A node's local ports are numbered in the order of its\n"
"links.  Without node: every node, its kind, level and ports (PORT:PEER:\n"
"local port PORT leads to PEER, a peer node and its port).  With node NODE:\n"
"the link IDs that ipbf setup loads on NODE, for each port and tag set:\n"
"the link hash and the k bit numbers (0..255) of the LIPSIN link ID.  A\n"
"forwarding port holds the IDs of the link leaving through it; a host's\n"
"port holds those of its access link (LOCAL: it delivers a packet whose\n"
"zFilter contains them).  seed S (0), k K (5, 1..32 bits per link ID) and\n"
"d D (8, 1..16 tag sets) must be the same on every node and for ipbf\n"
"header: they define the IDs.\n";

static const char setup_help[] =
"One command per node of the topology (see ipbf topo): makes instance NAME\n"
"(pinned in /sys/fs/bpf/kbloom/NAME), sets its configuration (seed, k, d\n"
"and fill limit F: the most one bits a zFilter may have, 1..256, default\n"
"128), gives each local port of NODE its link IDs and attaches the ingress\n"
"program.  dev lists one interface per local port of NODE, in order (port\n"
"0 first).  A switch's ports forward; a host's port is LOCAL: it delivers\n"
"packets whose zFilter holds its access link's ID, and its XDP program is\n"
"also the one a veth peer needs for redirected frames to arrive.  mode,\n"
"netns and ports N (64) as for xdp attach.  An existing instance is\n"
"refused; with -exist it is made to match (other ports are refused), and\n"
"what this command changed is undone if a step fails.\n";

static const char port_help[] =
"Gives interface IFACE of instance NAME the link IDs of link NODE:PORT,\n"
"computed with the instance's seed, k and d (see ipbf config): the link\n"
"leaving through IFACE for a forwarding port (role forward, the default),\n"
"or the access link into this host for a LOCAL port (role local).  NODE\n"
"and PORT are the control plane's numbers, or names of topo TOPO.  A port\n"
"that exists gets its new IDs in one update; attach the ingress program\n"
"with xdp attach ipbf NAME dev IFACE, remove the port with xdp detach NAME\n"
"dev IFACE.\n";

static const char header_help[] =
"Computes the header a source host puts in every packet of a delivery tree,\n"
"for switches set up with the same TOPO, seed, k, d and fill (see ipbf\n"
"setup).  The tree: dst HOST..., the shortest-path tree from src to those\n"
"hosts; or links NODE:PORT..., the directed links of a tree of your own,\n"
"starting with the source's link (SRC:0), in any order.\n"
"  form lipsin   (default) a 256-bit zFilter: the OR of the tree links' IDs in\n"
"                the tag set (of tags N, default d) with the fewest candidate\n"
"                links that match (false positives: copies off the tree), each\n"
"                tag set shown with its fill and false positives\n"
"  form msbf     one stage filter per hop, each sized until no off-tree link\n"
"                of its hop matches: no false positive, longer headers\n"
"  hop-limit H   default: the tree's height (lipsin), its stages (msbf)\n"
"  proto P       the inner packet's EtherType (0x88B6)\n"
"The header printed is the one the source sends: after its own forwarding\n"
"step (hop limit - 1, MSBF: its stage removed).  -o FILE writes those bytes\n"
"to FILE ('-': standard output) for ipbf send, and prints nothing.\n";

static const char stats_help[] =
"Per port, from the ingress program: RX frames, OTHER (not ipbf: passed),\n"
"FWD (broadcast to the other ports), LOCAL (delivered here), END (MSBF, no\n"
"stage left), and the drops: TRUNC (truncated), HDR (bad version, flags or\n"
"reserved byte), TAG (tag >= d), HOP (hop limit 0), FILL (above the fill\n"
"limit), STAGE (a malformed MSBF stage), NOTME (a LOCAL port not in the\n"
"zFilter).  From the egress program: TX copies offered to the port, SENT\n"
"(the link ID matched), FILTERED (it did not), ERR.  -j: the same fields by\n"
"their names (rx_packets ... tx_errors).\n";

static const struct ctl_cmd ipbf_sub[] = {
	{
		.name = "topo",
		.synopsis = "TOPO [node NODE] [seed S] [k K] [d D]",
		.summary = "a topology's nodes and ports, or the link IDs of one node",
		.help = topo_help,
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = ipbf_cmd_topo,
	},
	{
		.name = "create",
		.synopsis = "NAME [seed S] [k K] [d D] [fill F] [ports N] [netns NS]",
		.summary = "make an ipbf node without ports (then ipbf port, xdp attach ipbf)",
		.help =
"Makes instance NAME with its configuration: seed S (0), k K (5) and d D\n"
"(8) for the link IDs of the ports made later with ipbf port, fill limit F\n"
"(128), at most N ports (64).  netns NS: the namespace of its interfaces,\n"
"remembered.  -exist: an ipbf instance NAME with the same settings is not\n"
"an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = ipbf_cmd_create,
	},
	{
		.name = "setup",
		.synopsis = "NAME topo TOPO node NODE dev IFACE... [seed S] [k K] [d D] [fill F] [mode native|generic|auto] [ports N] [netns NS]",
		.summary = "make node NODE of a topology: config, link IDs of its ports, attach",
		.help = setup_help,
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = ipbf_cmd_setup,
	},
	{
		.name = "config",
		.synopsis = "NAME [seed S] [k K] [d D] [fill F] [netns NS]",
		.summary = "show or change a node's fill limit, d, k and seed",
		.help =
"Without settings: the configuration, the ports and how many are attached.\n"
"fill F takes effect with the next packet.  seed, k and d define the link\n"
"IDs of the ports: they change only while the node has no port.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON),
		.run = ipbf_cmd_config,
	},
	{
		.name = "port",
		.synopsis = "NAME IFACE link NODE:PORT [role forward|local] [topo TOPO] [netns NS]",
		.summary = "give an interface the link IDs of a link (makes it a port)",
		.help = port_help,
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.run = ipbf_cmd_port,
	},
	{
		.name = "ports",
		.synopsis = "NAME [netns NS]",
		.summary = "the ports: role, link, link ID of tag set 0, attached",
		.help =
"NODE:PORT: the control plane's node and local port numbers of the port's\n"
"record (ipbf setup: the node's own; a LOCAL port of a host: the host and\n"
"0; ipbf port: its link).  -j gives every tag set's link ID (bit numbers)\n"
"and link hash.\n",
		.min_args = 1,
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = ipbf_cmd_ports,
	},
	{
		.name = "stats",
		.synopsis = "NAME [PORT] [netns NS]",
		.summary = "per-port counters: forwarded, delivered, filtered, drops by reason",
		.help = stats_help,
		.min_args = 1,
		.max_args = 4,
		.opts = CTL_OPT(CO_JSON),
		.run = ipbf_cmd_stats,
	},
	{
		.name = "header",
		.synopsis = "topo TOPO src HOST (dst HOST... | links NODE:PORT...) [form lipsin|msbf] [seed S] [k K] [d D] [fill F] [tags N] [hop-limit H] [proto P]",
		.summary = "the zFilter or MSBF header of a delivery tree, as its source sends it",
		.help = header_help,
		.min_args = 4,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_JSON) | CTL_OPT(CO_OUTPUT),
		.run = ipbf_cmd_header,
	},
	{
		.name = "send",
		.synopsis = "IFACE -i FILE [count N] [payload TEXT] [netns NS]",
		.summary = "send frames with a header from ipbf header -o",
		.help =
"Sends N (1) Ethernet frames on IFACE: broadcast destination, the\n"
"interface's address, EtherType 0x88B5, the header of FILE ('-': standard\n"
"input), then TEXT (\"kbloom ipbf\", up to 1400 bytes), padded to 60 bytes.\n"
"The header is checked as a node would first.  The source host's IFACE\n"
"needs no XDP program; the switches forward by the header alone.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_INPUT),
		.run = ipbf_cmd_send,
	},
	{ 0 }
};

const struct ctl_cmd ipbf_cmds[] = {
	{
		.name = "ipbf",
		.synopsis = "topo|create|setup|config|port|ports|stats|header|send ...",
		.summary = "in-packet Bloom filters (LIPSIN, MSBF): link IDs, nodes, headers",
		.sub = ipbf_sub,
	},
	{ 0 }
};
