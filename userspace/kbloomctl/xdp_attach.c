// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: xdp attach KIND NAME dev IFACE... [mode M] [netns NS] [...]:
 * make instance NAME of KIND (libkbloom_xdp.h; ipbf and mcbf in ipbf.c and
 * mcbf.c) once, then attach it to the interfaces.  Every argument is
 * checked first (exit 2), every interface resolved (exit 3), and a
 * command that fails half-way undoes what it did.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbloomctl.h"
#include "libkbloom_dev.h"
#include "libkbloom_xdp.h"

/* ---- xdp attach ------------------------------------------------------------ */

static const char *const kind_words[] = { "mcast", "gate", "pass", "ipbf",
					   "mcbf", "sketch", "conntrack", "dedupe",
					   "window", NULL };
static const char *const policy_words[] = { "monitor", "deny", "allow",
					     NULL };
static const __u32 policy_ids[] = { KBLOOM_GATE_MONITOR, KBLOOM_GATE_DENY,
				    KBLOOM_GATE_ALLOW };
static const char *const match_words[] = { "src", "dst", NULL };
static const __u32 match_flags[] = { 0, KBLOOM_GATE_F_DST };
static const char *const variant_words[] = { "auto", "map", "kfunc", NULL };
static const __u32 variant_ids[] = { KBLOOM_XDP_VARIANT_AUTO,
				     KBLOOM_XDP_VARIANT_MAP,
				     KBLOOM_XDP_VARIANT_KFUNC };
static const char *const filter_words[] = { "blocked", "cuckoo", "deletable",
					     NULL };
enum { FILTER_BLOCKED, FILTER_CUCKOO, FILTER_DELETABLE };
static const __u32 filter_ids[] = { FILTER_BLOCKED, FILTER_CUCKOO,
				    FILTER_DELETABLE };

struct attach {
	const char *name;
	const char *kind;
	__u32 mode;		/* enum kbloom_xdp_mode */
	const char *netns;
	int ns_fd;
	struct kw_list devl;
	int ndev;
	char **dev;
	int *ifindex;
	struct kbloom_xdp_opts o;
	struct kbloom_xdp_geom geom;
	bool geom_given;
	__u32 ports, keys, policy, match;
	bool create_opts;	/* ports, members, keys, policy, match */
	__u32 variant;		/* enum kbloom_xdp_variant of "variant" */
	bool variant_given;
	__u32 filter;		/* gate, mcast: FILTER_* of "filter" */
	struct kw_list mfl;
	char **mf;		/* module-filter NAME... */
	int nmf;
	bool mf_pattern;	/* mcast: one NAME with %s, for every new port */
};

/*
 * The keywords of xdp attach mcast|gate|pass: one table per kind, the
 * rows in one order; a keyword of another kind refuses itself.
 */
#define ONLY_MCAST(_k)	"only for mcast instances (this is " _k ")"
#define ONLY_GATE(_k)	"only for gate instances (this is " _k ")"
#define NOT_PASS	"not for pass (allowed: dev mode netns)"
#define ONLY_MG		"only for mcast and gate instances"
#define AT(_n, _a, _t, _m, ...)	KW(_n, _a, _t, struct attach, _m, __VA_ARGS__)

#define AT_COMMON							\
	AT("dev", "IFACE...", KWT_LIST, devl, .required = true),	\
	KW_MODE(struct attach, mode),					\
	AT("netns", "NS", KWT_NETNS, netns)
#define AT_GEOM								\
	KW_GEOM(struct attach, geom.capacity, geom.fpr_pico, geom.m,	\
		geom.k, geom.hash_id, geom.seed)
#define AT_PORTS							\
	AT("ports", "N", KWT_U32, ports, .min = 1, .max = 4096,		\
	   .extra = "ports of the switch"),				\
	AT("members", "N", KWT_U32, keys, .min = 1, .max = 1U << 24,	\
	   .extra = "memberships, all ports together")
#define AT_GATE								\
	AT("keys", "N", KWT_U32, keys, .min = 1, .max = 1U << 24,	\
	   .extra = "addresses in the set"),				\
	AT("policy", "monitor|deny|allow", KWT_ENUM, policy,		\
	   .words = policy_words, .vals = policy_ids),			\
	AT("match", "src|dst", KWT_ENUM, match, .words = match_words,	\
	   .vals = match_flags)
#define AT_FILTER							\
	AT("filter", "blocked|cuckoo|deletable", KWT_ENUM, filter,	\
	   .words = filter_words, .vals = filter_ids)
#define AT_REGION							\
	AT("region-bits", "S", KWT_U32, geom.region_bits, .min = 1,	\
	   .max = KB_DEL_REGION_MAX,					\
	   .extra = "filter deletable: bits per region, a power of two")
#define REFUSE_REGION(_why)	KW_REFUSE("region-bits", "S", _why, 1)
#define AT_MODULE							\
	AT("variant", "auto|map|kfunc", KWT_ENUM, variant,		\
	   .words = variant_words, .vals = variant_ids),		\
	AT("module-filter", "NAME...", KWT_LIST, mfl)
#define REFUSE_PORTS(_why)						\
	KW_REFUSE("ports", "N", _why, 1), KW_REFUSE("members", "N", _why, 1)
#define REFUSE_GATE(_why)						\
	KW_REFUSE("keys", "N", _why, 1),				\
	KW_REFUSE("policy", "monitor|deny|allow", _why, 1),		\
	KW_REFUSE("match", "src|dst", _why, 1)

static const struct kw mcast_kw[] = {
	AT_COMMON, AT_GEOM, AT_PORTS, REFUSE_GATE(ONLY_GATE("mcast")),
	AT_FILTER, AT_MODULE, AT_REGION, { 0 }
};

static const struct kw gate_kw[] = {
	AT_COMMON, AT_GEOM, REFUSE_PORTS(ONLY_MCAST("gate")), AT_GATE,
	AT_FILTER, AT_MODULE, REFUSE_REGION(ONLY_MCAST("gate")), { 0 }
};

static const struct kw pass_kw[] = {
	AT_COMMON,
	KW_REFUSE("capacity", "N", NOT_PASS, 1),
	KW_REFUSE("fpr", "P", NOT_PASS, 1),
	KW_REFUSE("bits", "M", NOT_PASS, 1),
	KW_REFUSE("hashes", "K", NOT_PASS, 1),
	KW_REFUSE("hash", "fast|siphash", NOT_PASS, 1),
	KW_REFUSE("seed", "S", NOT_PASS, 1),
	REFUSE_PORTS(ONLY_MCAST("pass")), REFUSE_GATE(ONLY_GATE("pass")),
	KW_REFUSE("filter", "blocked|cuckoo|deletable", ONLY_MG, 1),
	REFUSE_REGION(ONLY_MCAST("pass")),
	KW_REFUSE("variant", "auto|map|kfunc", ONLY_MG, 1),
	KW_REFUSE("module-filter", "NAME...", ONLY_MG, 0),
	{ 0 }
};

static const struct kw_table mcast_table = { .kw = mcast_kw };
static const struct kw_table gate_table = { .kw = gate_kw };
static const struct kw_table pass_table = { .kw = pass_kw };

/* ---- xdp attach: module filters (the kfunc variant) ------------------------- */

/* A module filter name; with @pattern, one %s (the port's interface). */
static int arg_module_filter(const struct ctl *c, const char *s, bool pattern)
{
	const char *p = strstr(s, "%s");
	char t[KBLOOM_NAME_LEN + 8];
	int n;

	if (p && (!pattern || strstr(p + 2, "%s")))
		goto bad;
	if (p)
		n = snprintf(t, sizeof(t), "%.*sa%s", (int)(p - s), s, p + 2);
	else
		n = snprintf(t, sizeof(t), "%s", s);
	if (n > 0 && n < (int)KBLOOM_NAME_LEN && kb_name_valid(t))
		return 0;
bad:
	return ctl_usage(c, "module-filter '%s': not a module filter name (allowed: 1..31 of A-Z a-z 0-9 _ . -%s)",
			 s, pattern ? ", and for mcast one %s standing for the port's interface" : "");
}

/*
 * A module filter that can forget keys (MAY_FN: a window, a stable
 * filter) cannot decide a gate or an mcast port, where a false negative
 * is wrong: refused before anything is made.  A name of no filter (yet)
 * is left to the notes after attach.
 */
static int arg_module_may_fn(const struct ctl *c, const char *name)
{
	struct kbloom_stat st;
	int fd, ret;

	if (strstr(name, "%s"))
		return 0;
	fd = kbloom_dev_open(getenv("KBLOOMCTL_DEVICE"));
	if (fd < 0)
		return 0;
	ret = kbloom_dev_stat(fd, name, &st);
	kbloom_dev_close(fd);
	if (ret || !(st.image_flags & KBLOOM_IMAGE_F_MAY_FN))
		return 0;
	return ctl_usage(c, "module-filter '%s': a %s filter may forget keys (MAY_FN), which a gate or an mcast port must not (allowed: a filter without false negatives)",
			 name, type_name(st.type));
}

/* filter cuckoo (gate, mcast): its own variant, planned from capacity/fpr. */
static int attach_cuckoo_args(const struct ctl *c, struct attach *a)
{
	if (a->variant_given && a->variant != KBLOOM_XDP_VARIANT_AUTO)
		return ctl_usage(c, "filter cuckoo: not with variant %s (allowed: filter cuckoo alone, a variant of its own)",
				 variant_words[a->variant]);
	if (a->mfl.n)
		return ctl_usage(c, "module-filter: not with filter cuckoo (allowed: variant kfunc with filter blocked)");
	if (a->geom.m || a->geom.k)
		return ctl_usage(c, "bits/hashes: not with filter cuckoo (allowed: capacity N fpr P)");
	a->o.variant = KBLOOM_XDP_VARIANT_CUCKOO;
	return 0;
}

/* filter deletable (mcast): its own variant, no module filter. */
static int attach_del_args(const struct ctl *c, struct attach *a)
{
	if (a->kind != XK_MCAST)
		return ctl_usage(c, "filter deletable: only for mcast instances (allowed for a gate: filter blocked|cuckoo)");
	if (a->variant_given && a->variant != KBLOOM_XDP_VARIANT_AUTO)
		return ctl_usage(c, "filter deletable: not with variant %s (allowed: filter deletable alone, a variant of its own)",
				 variant_words[a->variant]);
	if (a->mfl.n)
		return ctl_usage(c, "module-filter: not with filter deletable (allowed: variant kfunc with filter blocked)");
	a->o.variant = KBLOOM_XDP_VARIANT_DELETABLE;
	return 0;
}

/* variant auto|map|kfunc and module-filter NAME... of xdp attach. */
static int attach_module_args(const struct ctl *c, struct attach *a)
{
	int i, ret;

	if (a->filter == FILTER_CUCKOO)
		return attach_cuckoo_args(c, a);
	if (a->filter == FILTER_DELETABLE)
		return attach_del_args(c, a);
	a->o.variant = a->variant;
	a->mf = a->mfl.v;
	a->nmf = a->mfl.n;
	if (!a->nmf)
		return 0;
	if (a->variant == KBLOOM_XDP_VARIANT_MAP)
		return ctl_usage(c, "module-filter: not with variant map (allowed: variant kfunc or auto)");
	if (a->kind == XK_GATE && a->nmf != 1)
		return ctl_usage(c, "module-filter: %d names for a gate (allowed: one NAME)",
				 a->nmf);
	if (a->kind == XK_MCAST && a->nmf != 1 && a->nmf != a->ndev)
		return ctl_usage(c, "module-filter: %d names for %d devs (allowed: one NAME per dev, in order, or one NAME with %%s for each port's interface)",
				 a->nmf, a->ndev);
	for (i = 0; i < a->nmf; i++) {
		ret = arg_module_filter(c, a->mf[i], a->kind == XK_MCAST);
		ret = ret ?: arg_module_may_fn(c, a->mf[i]);
		if (ret)
			return ret;
	}
	a->mf_pattern = a->kind == XK_MCAST && a->nmf == 1 &&
			strstr(a->mf[0], "%s");
	if (a->kind == XK_GATE || a->mf_pattern)
		a->o.module_filter = a->mf[0];
	return 0;
}

/*
 * A new instance with per-port names and variant auto: the library sees
 * no module_filter, so the choice it would make is made here.
 */
static void attach_variant_auto(struct attach *a)
{
	if (!a->nmf || a->o.module_filter ||
	    a->o.variant != KBLOOM_XDP_VARIANT_AUTO)
		return;
	if (!access(KBLOOM_XDP_MODULE_BTF, F_OK)) {
		a->o.variant = KBLOOM_XDP_VARIANT_KFUNC;
		return;
	}
	a->o.variant = KBLOOM_XDP_VARIANT_MAP;
	xdp_log(NULL, "kbloom.ko with BTF is not here (" KBLOOM_XDP_MODULE_BTF
		" is missing): map-backed filters, module-filter not used");
}

/*
 * Before any interface is attached: the variant asked for against the
 * instance's, and the module filter names set (a new instance got the
 * gate's name or the ports' pattern from its options).
 */
static int attach_module(struct ctl *c, struct attach *a,
			 struct kbloom_xdp *x, bool created, const char *op)
{
	enum kbloom_xdp_variant v = kbloom_xdp_variant(x);
	int i, ret = 0;

	if (!created && a->variant_given &&
	    a->variant != KBLOOM_XDP_VARIANT_AUTO && a->variant != v)
		return ctl_syserr(c, EEXIST, v == KBLOOM_XDP_VARIANT_KFUNC ?
				  "a kfunc instance already; variant applies when the instance is made" :
				  "a map-backed instance already; variant applies when the instance is made",
				  "%s", op);
	if (!a->nmf)
		return 0;
	if (v != KBLOOM_XDP_VARIANT_KFUNC) {
		if (created)
			return 0;	/* auto chose map, with a note */
		return ctl_syserr(c, EOPNOTSUPP, "a map-backed instance; module filters need one made with variant kfunc",
				  "%s: module-filter", op);
	}
	if (a->kind == XK_GATE || a->mf_pattern) {
		if (!created)
			ret = kbloom_xdp_set_module_filter(x, 0, a->mf[0]);
	} else {
		for (i = 0; !ret && i < a->ndev; i++)
			ret = kbloom_xdp_set_module_filter(x, a->ifindex[i],
							   a->mf[i]);
	}
	if (ret)
		return xdp_fail(c, ret, "%s: module-filter", op);
	return 0;
}

/* Notes for names missing, or naming no filter of kbloom.ko (yet). */
static void attach_module_notes(struct attach *a, struct kbloom_xdp *x)
{
	char name[KBLOOM_NAME_LEN], msg[160];
	struct kbloom_stat st;
	int i, n, fd;
	__u32 id;

	if (kbloom_xdp_variant(x) != KBLOOM_XDP_VARIANT_KFUNC)
		return;
	fd = kbloom_dev_open(getenv("KBLOOMCTL_DEVICE"));
	n = a->kind == XK_GATE ? 1 : a->ndev;
	for (i = 0; i < n; i++) {
		id = a->kind == XK_GATE ? 0 : (__u32)a->ifindex[i];
		if (kbloom_xdp_module_filter(x, id, name)) {
			snprintf(msg, sizeof(msg), "%s%s: no module filter named (module-filter NAME): %s",
				 a->kind == XK_GATE ? "gate " : "dev ",
				 a->kind == XK_GATE ? a->name : a->dev[i],
				 a->kind == XK_GATE ?
				 "errors counted, the exact set decides" :
				 "its copies are dropped");
			xdp_log(NULL, msg);
		} else if (fd >= 0 &&
			   kbloom_dev_stat(fd, name, &st) == -ENOENT) {
			snprintf(msg, sizeof(msg), "module filter %s does not exist yet: kbloomctl create %s counting ...",
				 name, name);
			xdp_log(NULL, msg);
		}
	}
	kbloom_dev_close(fd);
}

/* mcast and gate: create the instance if needed, attach every device. */
static int attach_path(struct ctl *c, struct attach *a, const char *op)
{
	enum kbloom_xdp_kind kind = a->kind == XK_MCAST ? KBLOOM_XDP_MCAST :
							  KBLOOM_XDP_GATE;
	const char *have = xdp_kind_of(a->name);
	struct kbloom_mcast_stats st;
	bool *was_port = NULL, *done = NULL, created = false;
	struct kbloom_xdp *x = NULL;
	enum kbloom_xdp_mode got;
	int i, ret;

	if (have != XK_NONE && have != a->kind)
		return ctl_syserr(c, EEXIST, have == XK_OTHER ?
				  "a directory that is not an instance" :
				  "an instance of another kind", "%s", op);
	if (have != XK_NONE && (a->create_opts ||
				(a->geom_given && a->kind == XK_GATE)))
		return ctl_syserr(c, EEXIST, a->kind == XK_GATE ?
				  "size, keys, policy, match and filter apply when the instance is created; see gate rebuild and gate mode" :
				  "ports and members apply when the instance is created; so does filter",
				  "%s", op);
	was_port = calloc(a->ndev, sizeof(bool));
	done = calloc(a->ndev, sizeof(bool));
	if (!was_port || !done) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", op);
		goto out;
	}
	if (have == XK_NONE) {
		a->o.geom = a->geom;
		attach_variant_auto(a);
		ret = kbloom_xdp_create(a->name, kind, &a->o, &x);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: create", op);
			goto out;
		}
		created = true;
	} else {
		ret = kbloom_xdp_open(a->name, &a->o, &x);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: open", op);
			goto out;
		}
	}
	/* what is attached already, before anything changes */
	for (i = 0; i < a->ndev; i++) {
		if (xdp_attached(kbloom_xdp_inst(x), a->ifindex[i]) &&
		    !c->set[CO_EXIST]) {
			ret = ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					 "%s: dev %s", op, a->dev[i]);
			goto out;
		}
		was_port[i] = a->kind == XK_MCAST &&
			      !kbloom_mcast_stats(x, a->ifindex[i], &st);
		if (was_port[i] && a->geom_given &&
		    !xdp_attached(kbloom_xdp_inst(x), a->ifindex[i])) {
			ret = ctl_syserr(c, EEXIST, "a port already: its filter keeps its size",
					 "%s: dev %s", op, a->dev[i]);
			goto out;
		}
	}
	ret = attach_module(c, a, x, created, op);
	if (ret)
		goto undo;
	for (i = 0; i < a->ndev; i++) {
		if (xdp_attached(kbloom_xdp_inst(x), a->ifindex[i]))
			continue;	/* -exist */
		if (a->kind == XK_MCAST && !was_port[i] && a->geom_given) {
			ret = kbloom_mcast_port_add(x, a->ifindex[i], &a->geom);
			if (ret) {
				ret = xdp_fail(c, ret, "%s: dev %s: port", op,
					       a->dev[i]);
				goto undo;
			}
		}
		done[i] = true;
		ret = kbloom_xdp_attach(x, a->ifindex[i], a->mode, &got);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, a->dev[i]);
			goto undo;
		}
	}
	attach_module_notes(a, x);
	xdp_notes(c);
	ret = KBCTL_OK;
	goto out;
undo:
	if (created) {
		kbloom_xdp_destroy(x);
		x = NULL;
		goto out;
	}
	for (i = 0; i < a->ndev; i++) {
		if (!done[i])
			continue;
		if (a->kind == XK_MCAST && !was_port[i])
			kbloom_mcast_port_del(x, a->ifindex[i]);
		else
			kbloom_xdp_detach(x, a->ifindex[i]);
	}
out:
	kbloom_xdp_close(x);
	free(was_port);
	free(done);
	return ret;
}

/* pass: make the instance if needed, attach every device (its netns). */
static int attach_pass(struct ctl *c, struct attach *a, const char *op)
{
	const char *have = xdp_kind_of(a->name);
	struct kbloom_inst_opts o;
	struct kbloom_inst *in;
	enum kbloom_xdp_mode got;
	bool created = have == XK_NONE, *done;
	int i, ret;

	if (have != XK_NONE && have != XK_PASS)
		return ctl_syserr(c, EEXIST, "an instance of another kind",
				  "%s", op);
	done = calloc(a->ndev, sizeof(bool));
	if (!done)
		return ctl_syserr(c, ENOMEM, NULL, "%s", op);
	xdp_inst_opts(&o, a->netns);
	ret = created ? kbloom_inst_create(a->name, XK_PASS, &o, NULL, &in) :
			kbloom_inst_open(a->name, &o, &in);
	if (ret) {
		ret = xdp_fail(c, ret, "%s: %s", op, created ? "create" : "open");
		goto out_free;
	}
	for (i = 0; i < a->ndev; i++)
		if (xdp_attached(in, a->ifindex[i]) && !c->set[CO_EXIST]) {
			ret = ctl_syserr(c, EEXIST, "already attached; -exist ignores it",
					 "%s: dev %s", op, a->dev[i]);
			goto undo;
		}
	for (i = 0; i < a->ndev; i++) {
		if (xdp_attached(in, a->ifindex[i]))
			continue;	/* -exist */
		ret = kbloom_inst_attach(in, a->ifindex[i], a->mode, &got);
		if (ret) {
			ret = xdp_fail(c, ret, "%s: dev %s", op, a->dev[i]);
			goto undo;
		}
		done[i] = true;
	}
	xdp_notes(c);
	ret = KBCTL_OK;
	goto out;
undo:
	for (i = 0; i < a->ndev; i++)
		if (done[i])
			kbloom_inst_detach(in, a->ifindex[i]);
	if (created) {
		kbloom_inst_destroy(in);
		in = NULL;
	}
out:
	kbloom_inst_close(in);
out_free:
	free(done);
	return ret;
}

/* The keywords of xdp attach mcast|gate|pass NAME, checked. */
static int attach_args(struct ctl *c, struct attach *a, int argc,
		       char **argv)
{
	const struct kw_table *t = a->kind == XK_MCAST ? &mcast_table :
				   a->kind == XK_GATE ? &gate_table :
				   &pass_table;
	__u64 given;
	int ret;

	ret = xdp_arg_name(c, a->name);
	ret = ret ?: kw_parse(c, t, argc, argv, a, &given);
	if (ret)
		return ret;
	a->dev = a->devl.v;
	a->ndev = a->devl.n;
	xdp_opts(&a->o, a->netns);
	if (a->filter == FILTER_DELETABLE && a->kind == XK_MCAST)
		ret = mcast_del_geom_check(c, t, given, &a->geom,
					   &a->geom_given);
	else if (kw_has(t, given, "region-bits"))
		ret = ctl_usage(c, "region-bits: only with filter deletable (allowed: xdp attach mcast ... filter deletable region-bits S)");
	else
		ret = xdp_geom_check(c, t, given, &a->geom, &a->geom_given);
	a->variant_given = kw_has(t, given, "variant");
	ret = ret ?: attach_module_args(c, a);
	if (ret)
		return ret;
	a->o.max_filters = a->ports;
	a->o.max_keys = a->keys;
	if (a->kind == XK_GATE && !a->keys)
		a->o.max_keys = gate_exact_size(a->geom.capacity);
	a->o.mode = a->policy;
	a->o.flags = a->match;
	a->create_opts = kw_has(t, given, "ports") ||
			 kw_has(t, given, "members") ||
			 kw_has(t, given, "keys") ||
			 kw_has(t, given, "policy") ||
			 kw_has(t, given, "match") ||
			 kw_has(t, given, "filter");
	return 0;
}

int xdp_cmd_attach(struct ctl *c, int argc, char **argv)
{
	static const char *const kinds[] = { XK_MCAST, XK_GATE, XK_PASS };
	struct attach a = { .ns_fd = -1 };
	char op[160], all[96];
	int k, ret;

	k = arg_pick(argv[0], kind_words);
	if (k < 0) {
		arg_words(all, sizeof(all), kind_words);
		return ctl_usage(c, "KIND '%s': unknown (allowed: %s)",
				 argv[0], all);
	}
	/* ipbf, mcbf: ipbf/attach.c, mcbf/attach.c (libkbloom_xdp_net.h) */
	if (k == 3)
		return ipbf_xdp_attach(c, argc - 1, argv + 1);
	if (k == 4)
		return mcbf_xdp_attach(c, argc - 1, argv + 1);
	/* sketch, conntrack: sketch_xdp.c, conntrack.c */
	if (k == 5)
		return sketch_xdp_attach(c, argc - 1, argv + 1);
	if (k == 6)
		return conntrack_xdp_attach(c, argc - 1, argv + 1);
	if (k == 7)	/* dedupe.c */
		return dedupe_xdp_attach(c, argc - 1, argv + 1);
	if (k == 8)	/* window_xdp.c */
		return window_xdp_attach(c, argc - 1, argv + 1);
	a.kind = kinds[k];
	a.name = argv[1];
	ret = attach_args(c, &a, argc - 2, argv + 2);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s %s", c->cmd_path, argv[0], a.name);
	xdp_log_reset();
	if (a.kind != XK_PASS) {
		struct kbloom_xdp_opts t;

		ret = xdp_inst_ns(c, a.name, a.netns, true, &a.netns);
		if (ret)
			return ret;
		xdp_opts(&t, a.netns);
		a.o.netns = t.netns;
	}
	ret = xdp_devs_resolve(c, op, a.netns, a.ndev, a.dev, &a.ns_fd,
			       &a.ifindex);
	if (!ret)
		ret = a.kind == XK_PASS ? attach_pass(c, &a, op) :
					  attach_path(c, &a, op);
	if (a.ns_fd >= 0)
		close(a.ns_fd);
	free(a.ifindex);
	return ret;
}
