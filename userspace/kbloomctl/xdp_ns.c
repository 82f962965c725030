// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: network namespaces and interfaces of the XDP commands: netns
 * NS given by name or path, entered and left around interface look-ups.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

/* netns NS: a name under /run/netns or a path. */
int xdp_arg_netns(const struct ctl *c, const char *s)
{
	if (!*s || strlen(s) >= 200 ||
	    (!strchr(s, '/') && (!strcmp(s, ".") || !strcmp(s, ".."))))
		return ctl_usage(c, "netns '%s': invalid (allowed: a name in %s, as 'ip netns' makes, or a path such as /proc/PID/ns/net)",
				 s, NETNS_DIR);
	return 0;
}

void netns_path(const char *ns, char *buf, size_t len)
{
	if (strchr(ns, '/'))
		snprintf(buf, len, "%s", ns);
	else
		snprintf(buf, len, "%s/%s", NETNS_DIR, ns);
}

/* Open netns @ns (NULL: none, *@fd = -1). */
int xdp_netns_open(const struct ctl *c, const char *ns, int *fd)
{
	char p[256];

	*fd = -1;
	if (!ns)
		return 0;
	netns_path(ns, p, sizeof(p));
	*fd = open(p, O_RDONLY | O_CLOEXEC);
	if (*fd < 0 && !c)
		return -errno;
	if (*fd < 0)
		return ctl_syserr(c, errno, errno == ENOENT ?
				  "no such network namespace" : NULL,
				  "%s: netns %s", c->cmd_path, ns);
	return 0;
}

int xdp_ns_enter(int ns_fd, int *saved)
{
	*saved = -1;
	if (ns_fd < 0)
		return 0;
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(ns_fd, CLONE_NEWNET)) {
		int err = -errno;

		close(*saved);
		*saved = -1;
		return err;
	}
	return 0;
}

void xdp_ns_leave(int saved)
{
	if (saved < 0)
		return;
	setns(saved, CLONE_NEWNET);
	close(saved);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* An interface name as a usage check: 1..15 characters, no '/' or space. */
int xdp_arg_ifname(const struct ctl *c, const char *what, const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= IF_NAMESIZE)
		return ctl_usage(c, "%s '%s': %s (allowed: an interface name of 1..%u characters, or an ifindex)",
				 what, s, n ? "too long" : "empty",
				 IF_NAMESIZE - 1);
	for (i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':' || isspace((unsigned char)s[i]))
			return ctl_usage(c, "%s '%s': invalid character (allowed: an interface name without '/', ':' or spaces, or an ifindex)",
					 what, s);
	return 0;
}

/*
 * Interface @s (a name, or an ifindex in digits) in the namespace @ns_fd
 * into *@ifindex; exit 3 naming @op when there is none.
 */
int xdp_port(const struct ctl *c, const char *op, int ns_fd, const char *ns,
	     const char *s, int *ifindex)
{
	char name[IF_NAMESIZE], where[96];
	int saved, ret, idx = 0;
	__u64 v;

	ret = xdp_ns_enter(ns_fd, &saved);
	if (ret)
		return ctl_syserr(c, ret, NULL, "%s: enter netns %s", op, ns);
	if (all_digits(s)) {
		if (!arg_u64(s, 1, 0x7fffffff, &v) &&
		    if_indextoname((unsigned int)v, name))
			idx = (int)v;
	} else {
		idx = (int)if_nametoindex(s);
	}
	xdp_ns_leave(saved);
	if (idx > 0) {
		*ifindex = idx;
		return 0;
	}
	if (ns)
		snprintf(where, sizeof(where), "no interface %s in netns %s",
			 s, ns);
	else
		snprintf(where, sizeof(where),
			 "no interface %s in this network namespace; netns NS?",
			 s);
	return ctl_syserr(c, ENODEV, where, "%s: %s", op, s);
}

/* The devices: none twice, each resolved in the namespace. */
int xdp_devs_resolve(struct ctl *c, const char *op, const char *netns,
		     int ndev, char **dev, int *ns_fd, int **ifindex)
{
	int i, j, ret;

	*ifindex = calloc(ndev, sizeof(int));
	if (!*ifindex)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	for (i = 0; i < ndev; i++) {
		ret = xdp_arg_ifname(c, "dev", dev[i]);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(dev[i], dev[j]))
				return ctl_usage(c, "dev '%s': given twice (allowed once)",
						 dev[i]);
	}
	ret = xdp_netns_open(c, netns, ns_fd);
	for (i = 0; !ret && i < ndev; i++)
		ret = xdp_port(c, op, *ns_fd, netns, dev[i],
			       &(*ifindex)[i]);
	for (i = 0; !ret && i < ndev; i++)
		for (j = 0; j < i; j++)
			if ((*ifindex)[i] == (*ifindex)[j])
				return ctl_usage(c, "dev '%s': the same interface as '%s' (allowed once)",
						 dev[i], dev[j]);
	return ret;
}

/* The name of @ifindex in @ns_fd's namespace, "" if there is none. */
void xdp_ifname(int ns_fd, int ifindex, char *buf, size_t len)
{
	char name[IF_NAMESIZE] = "";
	int saved;

	if (!xdp_ns_enter(ns_fd, &saved)) {
		if (ifindex <= 0 || !if_indextoname(ifindex, name))
			name[0] = 0;
		xdp_ns_leave(saved);
	}
	snprintf(buf, len, "%s", name);
}

/* The name of port @ifindex for a listing: "?" if there is none. */
void xdp_port_label(int ns_fd, int ifindex, char *buf, size_t len)
{
	xdp_ifname(ns_fd, ifindex, buf, len);
	if (!buf[0])
		snprintf(buf, len, "?");
}

/* Is @ifindex attached to instance @i (its link pinned)? */
bool xdp_attached(struct kbloom_inst *i, int ifindex)
{
	return kbloom_inst_attached(i, ifindex);
}

__u64 ns_inode(int ns_fd)
{
	struct stat st;
	int fd = ns_fd;

	if (fd < 0)
		fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		st.st_ino = 0;
	if (ns_fd < 0 && fd >= 0)
		close(fd);
	return st.st_ino;
}
