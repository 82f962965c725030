// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the XDP paths as pinned instances (libkbloom_xdp.h):
 *
 *   xdp attach mcast|gate|pass|ipbf|mcbf NAME dev IFACE... [mode M] [...]
 *   xdp detach NAME [dev IFACE...] [netns NS]
 *   xdp status [NAME] [netns NS]
 *
 * The instance is the library's: its kind is read from its marker, its
 * links and their modes come from kbloom_inst_status(), and a whole
 * instance of any kind is removed by kbloom_inst_destroy().  What the XDP
 * commands share is in xdp_util.c.  "pass" instances (XDP_PASS programs
 * for the host ends of veth links into a switch) may have links in
 * several namespaces: each attach and detach uses the one of its netns.
 *
 * As in the module commands, every argument is checked first (exit 2,
 * nothing done), then every interface is resolved (exit 3, nothing
 * done), and only then does anything change; a command that fails
 * half-way undoes what it did.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom_xdp_net.h"

/* ---- xdp detach ------------------------------------------------------------ */

/* xdp detach NAME [dev IFACE...] [netns NS] */
struct detach {
	const char *name;
	const char *netns;
	int ns_fd;
	struct kw_list devl;
	int ndev;
	char **dev;
	int *ifindex;
};

/* Is @ifindex attached to @in, or (@x, mcast) a port? */
static bool detach_has(struct kbloom_inst *in, struct kbloom_xdp *x,
		       const char *k, int ifindex)
{
	struct kbloom_mcast_stats st;

	return xdp_attached(in, ifindex) ||
	       (k == XK_MCAST && !kbloom_mcast_stats(x, ifindex, &st));
}

static int detach_one(struct kbloom_inst *in, struct kbloom_xdp *x,
		      const char *k, int ifindex)
{
	if (k == XK_MCAST)
		return kbloom_mcast_port_del(x, ifindex);
	return kbloom_inst_detach(in, ifindex);
}

static int detach_devs(struct ctl *c, struct detach *a, const char *k,
		       const char *op)
{
	struct kbloom_inst_opts o;
	struct kbloom_inst *in;
	struct kbloom_xdp *x;
	bool *skip;
	int i, ret;

	/* ipbf, mcbf: the ports are removed (ipbf.c) */
	if (k == XK_IPBF || k == XK_MCBF)
		return net_detach_ports(c, k, a->name, a->netns, a->ndev,
					a->dev, a->ifindex, op);
	skip = calloc(a->ndev, sizeof(bool));
	if (!skip)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	xdp_inst_opts(&o, a->netns);
	ret = kbloom_inst_open(a->name, &o, &in);
	if (ret) {
		free(skip);
		return xdp_fail(c, ret, "%s: open", op);
	}
	x = kbloom_xdp_of(in);
	/* every device attached (or an mcast port) before anything changes */
	for (i = 0; i < a->ndev; i++) {
		if (detach_has(in, x, k, a->ifindex[i]))
			continue;
		if (!c->set[CO_EXIST]) {
			ret = ctl_syserr(c, ENOENT, "not attached; -exist ignores it",
					 "%s: dev %s", op, a->dev[i]);
			goto out;
		}
		skip[i] = true;
	}
	for (i = 0; i < a->ndev; i++) {
		ret = skip[i] ? 0 : detach_one(in, x, k, a->ifindex[i]);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, a->dev[i]);
			goto out;
		}
	}
	/* a pass instance without links is removed */
	if (k == XK_PASS && !kbloom_inst_status(in, NULL, 0)) {
		kbloom_inst_destroy(in);
		in = NULL;
	}
	xdp_notes(c);
out:
	kbloom_inst_close(in);
	free(skip);
	return ret;
}

/* The whole instance, of any kind; one that cannot be opened is unpinned. */
static int detach_all(const char *name)
{
	struct kbloom_inst_opts o;
	struct kbloom_inst *in;

	xdp_inst_opts(&o, NULL);
	if (kbloom_inst_open(name, &o, &in))
		return kbloom_xdp_unpin(xdp_root(), name);
	return kbloom_inst_destroy(in);
}

static const struct kw detach_kw[] = {
	KW("dev", "IFACE...", KWT_LIST, struct detach, devl),
	KW("netns", "NS", KWT_NETNS, struct detach, netns),
	{ 0 }
};

static const struct kw_table detach_table = { .kw = detach_kw };

static int cmd_detach(struct ctl *c, int argc, char **argv)
{
	struct detach a = { .ns_fd = -1 };
	const char *k;
	char op[160];
	int ret;

	a.name = argv[0];
	ret = xdp_arg_name(c, a.name);
	ret = ret ?: kw_parse(c, &detach_table, argc - 1, argv + 1, &a, NULL);
	if (ret)
		return ret;
	a.dev = a.devl.v;
	a.ndev = a.devl.n;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, a.name);
	xdp_log_reset();
	k = xdp_kind_of(a.name);
	if (k == XK_NONE) {
		if (c->set[CO_EXIST])
			return KBCTL_OK;
		return ctl_syserr(c, ENOENT, "no such instance", "%s", op);
	}
	if (!a.ndev) {
		ret = detach_all(a.name);
		if (ret)
			return xdp_fail(c, ret, "%s", op);
		xdp_notes(c);
		return KBCTL_OK;
	}
	if (k != XK_PASS)
		ret = xdp_inst_ns(c, a.name, a.netns, true, &a.netns);
	ret = ret ?: xdp_devs_resolve(c, op, a.netns, a.ndev, a.dev, &a.ns_fd,
				       &a.ifindex);
	ret = ret ?: detach_devs(c, &a, k, op);
	if (a.ns_fd >= 0)
		close(a.ns_fd);
	free(a.ifindex);
	return ret;
}

/* ---- xdp status ------------------------------------------------------------ */

struct inst_info {
	char name[KBLOOM_XDP_NAME_MAX];
	const char *kind;
	struct kbloom_xdp_link *links;
	char (*mfilter)[KBLOOM_NAME_LEN];	/* per link: mcast kfunc */
	int nlinks;
	int open_err;				/* -errno: not opened */
	struct kbloom_inst_info info;		/* what the kind holds */
};

/* The links of @in, malloc()ed, with the module filters of mcast ports. */
static void links_read(struct kbloom_inst *in, struct inst_info *ii)
{
	struct kbloom_xdp *x = kbloom_xdp_of(in);
	int n = kbloom_inst_status(in, NULL, 0), i;

	if (n <= 0)
		return;
	ii->links = calloc(n, sizeof(*ii->links));
	ii->mfilter = calloc(n, sizeof(*ii->mfilter));
	if (!ii->links || !ii->mfilter)
		return;
	n = kbloom_inst_status(in, ii->links, n);
	ii->nlinks = n > 0 ? n : 0;
	for (i = 0; x && ii->kind == XK_MCAST && i < ii->nlinks; i++)
		if (kbloom_xdp_module_filter(x, ii->links[i].ifindex,
					     ii->mfilter[i]))
			ii->mfilter[i][0] = 0;
}

/* Why an instance could not be opened, for status. */
static const char *open_err_text(int err)
{
	if (err == -EUCLEAN)
		return "pinned by another kbloom version (other map layouts)";
	return strerror(-err);
}

static void log_none(void *ctx, const char *msg)
{
}

static void inst_read(const char *name, const char *netns,
		      struct inst_info *ii)
{
	struct kbloom_inst_opts o;
	struct kbloom_inst *in;

	memset(ii, 0, sizeof(*ii));
	snprintf(ii->name, sizeof(ii->name), "%s", name);
	ii->kind = xdp_kind_of(name);
	/* without netns NS: the namespace the instance recorded, if named */
	if (!netns && ii->kind != XK_PASS)
		xdp_inst_ns(NULL, name, NULL, false, &netns);
	xdp_inst_opts(&o, netns);
	o.log = log_none;	/* a status shows what it can */
	/* -ENOENT: detached while listed (@in is not set then) */
	ii->open_err = kbloom_inst_open(name, &o, &in);
	if (ii->open_err)
		return;
	links_read(in, ii);
	kbloom_inst_info(in, &ii->info);
	kbloom_inst_close(in);
}

/* Are all of @fields known? */
static bool has(const struct inst_info *ii, __u32 fields)
{
	return (ii->info.fields & fields) == fields;
}

#define PORTS_MEMBERS	(KBLOOM_INST_INFO_PORTS | KBLOOM_INST_INFO_MEMBERS)

static const char *mode_name(__u32 mode)
{
	return mode == KBLOOM_XDP_MODE_NATIVE ? "native" :
	       mode == KBLOOM_XDP_MODE_GENERIC ? "generic" : "?";
}

static const char *variant_name(enum kbloom_xdp_variant v)
{
	return v == KBLOOM_XDP_VARIANT_KFUNC ? "kfunc" :
	       v == KBLOOM_XDP_VARIANT_CUCKOO ? "cuckoo" :
	       v == KBLOOM_XDP_VARIANT_DELETABLE ? "deletable" : "map";
}

static void summary_json(struct json *j, const struct inst_info *ii)
{
	const struct kbloom_inst_info *f = &ii->info;

	if (ii->kind == XK_MCAST && has(ii, PORTS_MEMBERS)) {
		json_ku64(j, "ports", f->ports);
		json_ku64(j, "memberships", f->members);
	}
	if (ii->kind == XK_GATE && has(ii, KBLOOM_INST_INFO_MODE)) {
		json_kstr(j, "policy", gate_mode_name(f->mode));
		json_kstr(j, "match", f->flags & KBLOOM_GATE_F_DST ? "dst" :
								    "src");
		json_ku64(j, "keys", f->members);
	}
	if (ii->kind == XK_IPBF && has(ii, KBLOOM_INST_INFO_IPBF)) {
		json_ku64(j, "ports", f->ports);
		json_ku64(j, "fill_limit", f->fill_limit);
		json_ku64(j, "d", f->d);
		json_ku64(j, "k", f->k);
		json_ku64(j, "seed", f->seed);
	}
	if (ii->kind == XK_MCBF && has(ii, PORTS_MEMBERS)) {
		json_ku64(j, "ports", f->ports);
		json_ku64(j, "memberships", f->members);
		json_kbool(j, "audit", f->flags & KBLOOM_MCBF_F_AUDIT);
	}
	if (ii->kind == XK_SKETCH)
		sketch_summary(ii->name, j);
	if (ii->kind == XK_CONNTRACK)
		conntrack_summary(ii->name, j);
	if (ii->kind == XK_DEDUPE)
		dedupe_summary(ii->name, j);
	if (ii->kind == XK_WINDOW)
		window_summary(ii->name, j);
	if (has(ii, KBLOOM_INST_INFO_VARIANT)) {
		json_kstr(j, "variant", variant_name(f->variant));
		json_key(j, "module_filter");
		if (f->module_filter[0])
			json_str(j, f->module_filter);
		else
			json_null(j);
	}
}

static void summary_text(const struct inst_info *ii)
{
	const struct kbloom_inst_info *f = &ii->info;

	if (ii->kind == XK_MCAST && has(ii, PORTS_MEMBERS))
		printf("  ports %u, memberships %llu\n", f->ports,
		       (unsigned long long)f->members);
	if (ii->kind == XK_GATE && has(ii, KBLOOM_INST_INFO_MODE))
		printf("  policy %s, match %s, %llu addresses in the set\n",
		       gate_mode_name(f->mode),
		       f->flags & KBLOOM_GATE_F_DST ? "dst" : "src",
		       (unsigned long long)f->members);
	if (ii->kind == XK_IPBF && has(ii, KBLOOM_INST_INFO_IPBF))
		printf("  ports %u, fill limit %u, d %u, k %u, seed %llu\n",
		       f->ports, f->fill_limit, f->d, f->k,
		       (unsigned long long)f->seed);
	if (ii->kind == XK_MCBF && has(ii, PORTS_MEMBERS))
		printf("  ports %u, memberships %llu, audit %s\n", f->ports,
		       (unsigned long long)f->members,
		       f->flags & KBLOOM_MCBF_F_AUDIT ? "on" : "off");
	if (ii->kind == XK_SKETCH)
		sketch_summary(ii->name, NULL);
	if (ii->kind == XK_CONNTRACK)
		conntrack_summary(ii->name, NULL);
	if (ii->kind == XK_DEDUPE)
		dedupe_summary(ii->name, NULL);
	if (ii->kind == XK_WINDOW)
		window_summary(ii->name, NULL);
	if (!has(ii, KBLOOM_INST_INFO_VARIANT))
		return;
	if (f->variant == KBLOOM_XDP_VARIANT_CUCKOO)
		printf("  variant cuckoo (a cuckoo filter in BPF maps)\n");
	else if (f->variant == KBLOOM_XDP_VARIANT_DELETABLE)
		printf("  variant deletable (deletable Bloom filters in BPF maps)\n");
	else if (f->variant != KBLOOM_XDP_VARIANT_KFUNC)
		printf("  variant map (filters in BPF maps)\n");
	else
		printf("  variant kfunc (kbloom.ko filters), %s %s\n",
		       ii->kind == XK_GATE ? "module filter" :
		       "module filter of new ports",
		       f->module_filter[0] ? f->module_filter : "none");
}

static void status_json_one(struct json *j, const struct inst_info *ii)
{
	char dir[PATH_MAX];
	int i;

	snprintf(dir, sizeof(dir), "%s/%s", xdp_root(), ii->name);
	json_obj(j);
	json_kstr(j, "name", ii->name);
	json_kstr(j, "kind", xdp_kind_name(ii->kind));
	json_kstr(j, "dir", dir);
	if (ii->open_err)
		json_kstr(j, "error", open_err_text(ii->open_err));
	summary_json(j, ii);
	json_key(j, "links");
	json_arr(j);
	for (i = 0; i < ii->nlinks; i++) {
		const struct kbloom_xdp_link *l = &ii->links[i];

		json_obj(j);
		json_key(j, "ifname");
		if (l->ifname[0])
			json_str(j, l->ifname);
		else
			json_null(j);
		json_ku64(j, "ifindex", l->ifindex);
		json_kstr(j, "mode", l->mode ? mode_name(l->mode) : "unknown");
		if (ii->kind == XK_PASS)
			json_kstr(j, "netns", l->netns);
		json_ku64(j, "link_id", l->link_id);
		json_ku64(j, "prog_id", l->prog_id);
		if (ii->kind == XK_MCAST &&
		    ii->info.variant == KBLOOM_XDP_VARIANT_KFUNC) {
			json_key(j, "module_filter");
			if (ii->mfilter[i][0])
				json_str(j, ii->mfilter[i]);
			else
				json_null(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void status_text_one(const struct inst_info *ii)
{
	char dir[PATH_MAX];
	int i;

	snprintf(dir, sizeof(dir), "%s/%s", xdp_root(), ii->name);
	printf("%s: %s, %s\n", ii->name, xdp_kind_name(ii->kind), dir);
	summary_text(ii);
	if (ii->open_err) {
		printf("  not readable: %s\n", open_err_text(ii->open_err));
		return;
	}
	if (!ii->nlinks) {
		printf("  not attached\n");
		return;
	}
	printf("  %-16s %7s %-7s %s%7s %7s\n", "IFACE", "IFINDEX", "MODE",
	       ii->kind == XK_PASS ? "NETNS            " : "", "LINK", "PROG");
	for (i = 0; i < ii->nlinks; i++) {
		const struct kbloom_xdp_link *l = &ii->links[i];
		char ns[24] = "";

		if (ii->kind == XK_PASS)
			snprintf(ns, sizeof(ns), "%-16.16s ", l->netns);
		printf("  %-16s %7u %-7s %s%7u %7u",
		       l->ifname[0] ? l->ifname : "?", l->ifindex,
		       mode_name(l->mode), ns, l->link_id, l->prog_id);
		if (ii->kind == XK_MCAST &&
		    ii->info.variant == KBLOOM_XDP_VARIANT_KFUNC)
			printf("  module filter %s",
			       ii->mfilter[i][0] ? ii->mfilter[i] : "none");
		printf("\n");
	}
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The instance names under the pin root, sorted. */
static int inst_names(char ***out, int *n)
{
	char **v = NULL, **t;
	struct dirent *e;
	int cap = 0;
	DIR *d;

	*n = 0;
	*out = NULL;
	d = opendir(xdp_root());
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			t = realloc(v, cap * sizeof(*v));
			if (!t)
				break;
			v = t;
		}
		v[*n] = strdup(e->d_name);
		if (v[*n])
			(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), name_cmp);
	*out = v;
	return 0;
}

struct status_args {
	const char *netns;
};

static const struct kw status_kw[] = {
	KW("netns", "NS", KWT_NETNS, struct status_args, netns),
	{ 0 }
};

static const struct kw_table status_table = { .kw = status_kw };

static int cmd_status(struct ctl *c, int argc, char **argv)
{
	struct status_args a = { 0 };
	const char *name = NULL, *netns;
	struct inst_info ii;
	char **names = NULL;
	int i, n = 0, shown = 0, ns_fd = -1, ret;
	struct json j;

	/* NAME is optional: a first word that is not a keyword */
	if (argc && strcmp(argv[0], "netns")) {
		name = argv[0];
		ret = xdp_arg_name(c, name);
		if (ret)
			return ret;
		argc--;
		argv++;
	}
	ret = kw_parse(c, &status_table, argc, argv, &a, NULL);
	if (ret)
		return ret;
	netns = a.netns;
	ret = xdp_netns_open(c, netns, &ns_fd);
	if (ret)
		return ret;
	xdp_log_reset();
	if (name) {
		if (xdp_kind_of(name) == XK_NONE) {
			ret = ctl_syserr(c, ENOENT, "no such instance", "%s %s",
					 c->cmd_path, name);
			goto out;
		}
		names = calloc(1, sizeof(*names));
		if (names)
			names[0] = strdup(name);
		if (!names || !names[0]) {
			ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
			goto out;
		}
		n = 1;
	} else {
		ret = inst_names(&names, &n);
		if (ret) {
			ret = ctl_syserr(c, ret, NULL, "%s: read %s",
					 c->cmd_path, xdp_root());
			goto out;
		}
	}
	if (c->set[CO_JSON] && !ctl_quiet(c)) {
		json_init(&j, stdout);
		if (!name)
			json_arr(&j);
	}
	for (i = 0; i < n; i++) {
		inst_read(names[i], netns, &ii);
		if (ii.open_err == -ENOENT)	/* detached while listed */
			continue;
		shown++;
		if (ctl_quiet(c))
			;
		else if (c->set[CO_JSON])
			status_json_one(&j, &ii);
		else
			status_text_one(&ii);
		free(ii.links);
		free(ii.mfilter);
	}
	if (c->set[CO_JSON] && !ctl_quiet(c) && (shown || !name)) {
		/* NAME detached while read: the error alone, no empty line */
		if (!name)
			json_arr_end(&j);
		json_end(&j);
	} else if (!shown && !name && !ctl_quiet(c)) {
		printf("no XDP instances in %s\n", xdp_root());
	}
	ret = ctl_flush_stdout(c);
	if (!ret && name && !shown)
		ret = ctl_syserr(c, ENOENT, "no such instance", "%s %s",
				 c->cmd_path, name);
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ns_fd >= 0)
		close(ns_fd);
	return ret;
}

/* ---- xdp resolve ------------------------------------------------------------ */

static int cmd_resolve(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp *x = NULL;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xdp_open(c, argv[0], NULL, NULL, &x);
	if (ret)
		return ret;
	ret = kbloom_xdp_module_resolve(x);
	kbloom_xdp_close(x);
	if (ret < 0)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	if (!ctl_quiet(c))
		printf("%s: %d module filter%s found\n", argv[0], ret,
		       ret == 1 ? "" : "s");
	return ctl_flush_stdout(c);
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd xdp_sub[] = {
	{
		.name = "attach",
		.synopsis = "mcast|gate|pass|ipbf|mcbf|sketch|conntrack|dedupe|window NAME dev IFACE... [mode native|generic|auto] [netns NS] [SIZE] [ports N] [members N] [keys N] [policy monitor|deny|allow] [match src|dst] [filter blocked|cuckoo|deletable] [region-bits S] [variant auto|map|kfunc] [module-filter NAME...]",
		.summary = "load a path as instance NAME (once) and attach it to interfaces",
		.help =
"Instance NAME (1..63 of A-Z a-z 0-9 _ -) is pinned in /sys/fs/bpf/kbloom/NAME\n"
"(or $KBLOOMCTL_PIN_ROOT/NAME): made on first use, reused after.  Each\n"
"interface gets a pinned XDP link (link_IFINDEX) that stays after kbloomctl\n"
"exits.  IFACE is a name or an ifindex in netns NS (a name in /run/netns\n"
"or a path; default: this namespace); the instance remembers it, and later\n"
"commands without netns find it in /run/netns.  mode: auto (default:\n"
"native, else generic with a note), native, generic.\n"
"  mcast  multicast switch: each interface becomes a port with a filter of\n"
"         its joined groups (see mcast join); SIZE sizes the filters of the\n"
"         ports made by this command (default 1024 groups at 0.01%).\n"
"         ports N (64) and members N (65536) when the instance is made.\n"
"         filter cuckoo (when made): each port's filter is a cuckoo filter\n"
"         (capacity N fpr P), so that mcast leave deletes the group from\n"
"         it at once; no router ports.  filter deletable (when made):\n"
"         each port's filter is a deletable Bloom filter (SIZE, M a\n"
"         multiple of 64 and of S; region-bits S, a power of two, 4 by\n"
"         default), so that mcast leave clears a deletable group's bits\n"
"         at once and rebuilds the filter only otherwise; no router\n"
"         ports.\n"
"  gate   a filter of addresses in front of an exact set (see gate add):\n"
"         SIZE, keys N (65536), policy monitor (default), deny or allow,\n"
"         match src (default) or dst, when the instance is made.\n"
"         filter cuckoo: a cuckoo filter (capacity N fpr P) instead of a\n"
"         blocked one, so that gate del deletes from the filter at once.\n"
"  pass   an XDP_PASS program: for the host end of a veth link into a\n"
"         switch (a veth end receives redirected frames only when its\n"
"         peer runs an XDP program).  Links of several namespaces may\n"
"         share one pass instance.\n"
"SIZE: capacity N fpr P, or bits M hashes K (M a multiple of 512), and\n"
"hash fast|siphash, seed S.\n"
"variant, mcast and gate, when the instance is made: map (filters in BPF\n"
"maps), kfunc (the programs test filters of kbloom.ko, which /dev/kbloom\n"
"users add to, delete from and swap: kbloomctl add/del/restore), or auto\n"
"(the default): kfunc when module-filter is given and kbloom.ko is loaded\n"
"with BTF, map otherwise (with a note).  kfunc without the module is an\n"
"error.  module-filter NAME: the gate's module filter; for mcast one NAME\n"
"per dev, in order, or one NAME with %s standing for each port's\n"
"interface (sw0.%s), kept for the ports made later.  On a kfunc instance\n"
"made already it renames.  gate add and mcast join add to the module\n"
"filter too, gate del and mcast leave delete from it (a leave needs a\n"
"counting filter).  Every interface is resolved first; when one\n"
"fails to attach, what this command did is undone.  -exist: an interface\n"
"attached already is not an error.\n"
"  ipbf   attach ports made by ipbf port (ipbf setup makes a whole node and\n"
"         attaches it): dev, mode and netns only.\n"
"  mcbf   Multi-Class Bloom filter switch: each interface becomes a port\n"
"         with an empty filter (bits M: 4096; classes LIST or class\n"
"         GROUPS:P[:W]...: all:4; seed S; hash fast|siphash; see mcbf port,\n"
"         mcbf join); ports N, members N, audit on|off when it is made.\n"
"  sketch  a Count-Min sketch of packets and bytes per source (see sketch\n"
"         count): epsilon P delta P (0.1%, 1%) or width W rows D,\n"
"         counter-bits 16|32, update all|min-inc, shared, threshold N\n"
"         [bytes], action count|mark|drop, mark V, when it is made.\n"
"  conntrack  a d-left tracker of TCP flows (see conntrack test):\n"
"         capacity N fpr P (65536, 0.1%) or fp-bits R slots C tables D\n"
"         buckets B counter-bits W, layout spread|lines, miss\n"
"         pass|drop, when it is made.\n"
"  dedupe  duplicate suppression with a stable Bloom filter (see dedupe\n"
"         stats): the first copy of a frame passes, a repeat is dropped\n"
"         (action drop, default) or counted (action count); cells M,\n"
"         hashes K (3), cell-bits 1|2|4|8 (1), decrement P or fpr P,\n"
"         when it is made.  It forgets: a repeat long after its first\n"
"         copy passes.\n"
"  window  an age-partitioned window of addresses (see window stats):\n"
"         seconds T or milliseconds MS, fpr P (0.1%), capacity N (1024),\n"
"         mode return (default: pass only sources the device sent to\n"
"         within T; a tc egress program records them) or mode dedupe\n"
"         (drop a source's repeats within T), when it is made.\n",
		.min_args = 2,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = xdp_cmd_attach,
	},
	{
		.name = "detach",
		.synopsis = "NAME [dev IFACE...] [netns NS]",
		.summary = "detach interfaces, or remove the whole instance",
		.help =
"With dev: detach those interfaces; an mcast, ipbf or mcbf port is removed\n"
"with its filter (or link IDs), memberships and counters.  Without: detach\n"
"every interface and remove instance NAME and all its pins.  -exist: a\n"
"missing instance or an interface not attached is not an error.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_detach,
	},
	{
		.name = "status",
		.synopsis = "[NAME] [netns NS]",
		.summary = "the instances: kind, pins, attached interfaces and modes",
		.help =
"For each instance (or NAME): its kind and directory, for mcast the ports\n"
"and memberships, for a gate its policy and the size of its set, the\n"
"variant (map or kfunc, with the module filters), for ipbf its ports and\n"
"configuration, for mcbf its ports, memberships and audit, and its links:\n"
"interface, ifindex, mode (native or generic), link and program ids.\n"
"Interface names are looked up in netns NS (pass links: in their own).\n",
		.max_args = 3,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_status,
	},
	{
		.name = "resolve",
		.synopsis = "NAME",
		.summary = "a kfunc gate or mcast: look its module filters' ids up again",
		.help =
"The programs of a kfunc instance test each module filter by its id,\n"
"resolved from its name when the name is set, and again by the programs\n"
"themselves when the id is gone (the filter was destroyed or replaced by\n"
"restore --replace).  After swap or rename the old id still names a\n"
"filter, now under another name: resolve looks every name up again, so\n"
"that the programs test the filters the names have now.  Prints how many\n"
"names have a filter in kbloom.ko.\n",
		.min_args = 1,
		.max_args = 1,
		.run = cmd_resolve,
	},
	{ 0 }
};

const struct ctl_cmd xdp_cmds[] = {
	{
		.name = "xdp",
		.synopsis = "attach|detach|status|resolve ...",
		.summary = "XDP paths on interfaces: attach, detach, status, resolve",
		.sub = xdp_sub,
	},
	{ 0 }
};
