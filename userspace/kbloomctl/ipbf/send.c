// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: ipbf send, a header written by ipbf header sent on an
 * interface in an Ethernet frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "ipbf.h"

/* ---- ipbf send -------------------------------------------------------------- */

/* The header of -i FILE ('-': standard input), checked as a node would. */
static int send_read(struct ctl *c, const char *path, __u8 *buf, int *len)
{
	bool in = !strcmp(path, "-") || !strcmp(path, "stdin");
	struct kb_ipbf_info *info;
	FILE *f = in ? stdin : fopen(path, "re");
	size_t n;
	int ret = 0;

	if (!f)
		return ctl_syserr(c, errno, NULL, "%s: open %s", c->cmd_path,
				  path);
	n = fread(buf, 1, IPBF_HDR_MAX, f);
	if (ferror(f))
		ret = ctl_syserr(c, errno ? errno : EIO, NULL, "%s: read %s",
				 c->cmd_path, path);
	else if (!feof(f) && fgetc(f) != EOF)
		ret = ctl_usage(c, "-i %s: longer than %u bytes (allowed: one header from ipbf header -o)",
				path, IPBF_HDR_MAX);
	if (!in)
		fclose(f);
	if (ret)
		return ret;
	info = malloc(sizeof(*info));
	if (!info)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	if (kb_ipbf_parse(buf, n, info) || info->len != n)
		ret = ctl_usage(c, "-i %s: not an ipbf header of %zu bytes (allowed: the output of ipbf header -o)",
				path, n);
	free(info);
	*len = (int)n;
	return ret;
}

/* A raw socket on @ifindex and its MAC address, in namespace @ns_fd. */
static int send_socket(int ns_fd, int ifindex, __u8 mac[6])
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = { 0 };
	int saved, fd, ret;

	ret = xdp_ns_enter(ns_fd, &saved);
	if (ret)
		return ret;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);	/* no receiving */
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	sll.sll_ifindex = ifindex;
	if (!if_indextoname(ifindex, ifr.ifr_name) ||
	    ioctl(fd, SIOCGIFHWADDR, &ifr) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		ret = -errno;
		close(fd);
		goto out;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	ret = fd;
out:
	xdp_ns_leave(saved);
	return ret;
}

struct send_args {
	__u64 count;
	const char *payload;
	const char *netns;
};

static const struct kw send_kw[] = {
	KW("count", "N", KWT_U64, struct send_args, count, .min = 1,
	   .max = IPBF_SEND_MAX),
	KW("payload", "TEXT", KWT_STR, struct send_args, payload),
	KW("netns", "NS", KWT_NETNS, struct send_args, netns),
	{ 0 }
};

static const struct kw_table send_table = { .kw = send_kw };

int ipbf_cmd_send(struct ctl *c, int argc, char **argv)
{
	struct send_args a = { .count = 1, .payload = "kbloom ipbf" };
	int ns_fd = -1, fd = -1, ifindex, hlen = 0, ret;
	const char *netns, *payload;
	__u8 *frame = NULL, mac[6];
	size_t plen, flen;
	__u64 count, i;
	char op[96];

	ret = xdp_arg_ifname(c, "IFACE", argv[0]);
	ret = ret ?: kw_parse(c, &send_table, argc - 1, argv + 1, &a, NULL);
	if (ret)
		return ret;
	if (!c->set[CO_INPUT])
		return ctl_usage(c, "missing -i FILE (the header, from ipbf header -o FILE; '-': standard input)");
	count = a.count;
	payload = a.payload;
	netns = a.netns;
	plen = strlen(payload);
	if (plen > 1400)
		return ctl_usage(c, "payload: %zu bytes (allowed: 0..1400)",
				 plen);
	frame = calloc(1, ETH_HLEN + IPBF_HDR_MAX + plen + ETH_ZLEN);
	if (!frame)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	ret = send_read(c, c->val[CO_INPUT], frame + ETH_HLEN, &hlen);
	if (ret)
		goto out;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = xdp_netns_open(c, netns, &ns_fd);
	ret = ret ?: xdp_port(c, op, ns_fd, netns, argv[0], &ifindex);
	if (ret)
		goto out;
	fd = send_socket(ns_fd, ifindex, mac);
	if (fd < 0) {
		ret = ctl_syserr(c, fd, NULL, "%s: socket", op);
		goto out;
	}
	memset(frame, 0xff, ETH_ALEN);
	memcpy(frame + ETH_ALEN, mac, ETH_ALEN);
	frame[12] = KB_IPBF_ETH_P >> 8;
	frame[13] = KB_IPBF_ETH_P & 0xff;
	memcpy(frame + ETH_HLEN + hlen, payload, plen);
	flen = ETH_HLEN + hlen + plen;
	if (flen < ETH_ZLEN)
		flen = ETH_ZLEN;
	for (i = 0; i < count; i++) {
		if (send(fd, frame, flen, 0) == (ssize_t)flen)
			continue;
		ret = ctl_syserr(c, errno, errno == EMSGSIZE ?
				 "the frame is longer than the interface's MTU" :
				 NULL, "%s: send frame %llu", op,
				 (unsigned long long)i + 1);
		goto out;
	}
	if (!ctl_quiet(c))
		printf("sent %llu frame%s of %zu bytes (header %d) on %s\n",
		       (unsigned long long)count, count == 1 ? "" : "s", flen,
		       hlen, argv[0]);
	ret = ctl_flush_stdout(c);
out:
	if (fd >= 0)
		close(fd);
	if (ns_fd >= 0)
		close(ns_fd);
	free(frame);
	return ret;
}
