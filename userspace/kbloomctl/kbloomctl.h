/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloomctl: shared declarations of the command's files.
 *
 *   main.c     options, the command table, dispatch, help
 *   args.c     numbers, probabilities, names, keywords
 *   keys.c     key encodings; keys from arguments, a file or stdin
 *   output.c   messages, exit codes, progress line, formatting
 *   json.c     the -j writer
 *   module.c   create destroy flush add del test list stat (/dev/kbloom)
 *   image.c    save restore (/dev/kbloom images)
 *   plan.c     plan (no module needed)
 *   xdp.c      xdp attach detach status (pinned XDP instances of
 *              libkbloom_xdp.h), and the helpers of the XDP commands
 *   mcast.c    mcast join leave ports groups stats
 *   gate.c     gate add del test list mode stats rebuild
 *   map.c      map load save dump stat test (a pinned filter)
 *   ipbf.c     ipbf topo create setup config port ports stats header send
 *              (in-packet Bloom filters), and what ipbf and mcbf share
 *   mcbf.c     mcbf optimize create port join leave ports groups stats
 *              (Multi-Class Bloom filters)
 *
 * Adding a command (the XDP commands, for example): write its handler in
 * its own file, describe it in a NULL-terminated struct ctl_cmd array there
 * (a group such as "xdp attach|detach|status" is one entry whose @sub is
 * another array), declare the array below and list it in cmd_tables[] in
 * main.c.  New options: one enum ctl_opt value and one row of opt_table[]
 * in main.c; the value is then in ctl->set[] and ctl->val[].
 */
#ifndef _KBLOOMCTL_H
#define _KBLOOMCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "libkbloom_dev.h"

#define KBCTL_NAME	"kbloomctl"
#define KBCTL_VERSION	"1.0"

/* exit codes */
enum {
	KBCTL_OK = 0,		/* done; test: every key possibly present */
	KBCTL_ABSENT = 1,	/* test: a key definitely absent */
	KBCTL_USAGE = 2,	/* bad argument: nothing was done */
	KBCTL_SYS = 3,		/* system error, named with its errno text */
};

/* options; each command lists the ones it accepts (-q, --help always) */
enum ctl_opt {
	CO_EXIST,		/* -exist */
	CO_QUIET,		/* -q, -quiet */
	CO_JSON,		/* -j, --json */
	CO_KEY,			/* --key ENC */
	CO_FILE,		/* -f FILE */
	CO_OUTPUT,		/* -o FILE */
	CO_INPUT,		/* -i FILE */
	CO_REPLACE,		/* --replace */
	CO_HELP,		/* -h, --help */
	CO_VERSION,		/* -V, --version */
	/* hook: options of later commands (XDP: --dev, --mode, ...) here */
	CO__COUNT
};

#define CTL_OPT(o)	(1U << (o))
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define CTL_ARGS_ANY	(-1)

struct ctl;

/**
 * struct ctl_cmd - one command, declaratively
 * @name: the word that selects it
 * @synopsis: the arguments after the name, for usage lines
 * @summary: one line for the command list
 * @help: the rest of CMD --help (may be NULL)
 * @min_args, @max_args: positional arguments (CTL_ARGS_ANY: no maximum)
 * @opts: CTL_OPT() bits of the options it accepts
 * @run: the handler; @argv holds the positional arguments only; returns
 *       the exit code
 * @sub: a group: NULL-terminated table of subcommands (then @run is NULL)
 */
struct ctl_cmd {
	const char *name;
	const char *synopsis;
	const char *summary;
	const char *help;
	int min_args;
	int max_args;
	unsigned int opts;
	bool dashed_keywords;	/* KEYWORD VALUE args also as --KEYWORD */
	int (*run)(struct ctl *c, int argc, char **argv);
	const struct ctl_cmd *sub;
};

/* key encodings of --key */
enum key_enc {
	KENC_STR,
	KENC_HEX,
	KENC_IPV4,
	KENC_IPV6,
	KENC_U64,
};

/**
 * struct ctl - one invocation
 * @cmd: the command being run
 * @cmd_path: its name for messages ("create", later "xdp attach")
 * @set, @val: the options given and their values
 * @key_enc: from --key (KENC_STR by default)
 * @dev_fd: /dev/kbloom, opened on first use, -1 before
 * @dev_path: KBLOOMCTL_DEVICE from the environment, or KBLOOM_DEVICE
 */
struct ctl {
	const struct ctl_cmd *cmd;
	char cmd_path[64];
	bool set[CO__COUNT];
	const char *val[CO__COUNT];
	enum key_enc key_enc;
	int dev_fd;
	const char *dev_path;
};

/* the command tables (main.c lists them in cmd_tables[]) */
extern const struct ctl_cmd module_cmds[];
extern const struct ctl_cmd countmin_cmds[];	/* countmin.c */
extern const struct ctl_cmd image_cmds[];
extern const struct ctl_cmd plan_cmds[];
extern const struct ctl_cmd xdp_cmds[];
extern const struct ctl_cmd mcast_cmds[];
extern const struct ctl_cmd gate_cmds[];
extern const struct ctl_cmd map_cmds[];

/* output.c */
#define __printf(a, b)	__attribute__((format(printf, a, b)))
__printf(2, 3) int ctl_usage(const struct ctl *c, const char *fmt, ...);
__printf(4, 5) int ctl_syserr(const struct ctl *c, int err, const char *detail,
			      const char *opfmt, ...);
__printf(2, 3) void ctl_warn(const struct ctl *c, const char *fmt, ...);
int ctl_dev(struct ctl *c);
bool ctl_quiet(const struct ctl *c);
int ctl_flush_stdout(const struct ctl *c);
struct json;
bool ctl_list_begin(const struct ctl *c, struct json *j);
int ctl_list_end(const struct ctl *c, struct json *j);
const char *type_name(__u32 type);
const char *hash_name(__u32 hash_id);
void fmt_prob(char *buf, size_t len, __u64 pico);
double pico_to_double(__u64 pico);
void fmt_size(char *buf, size_t len, __u64 bytes);

struct progress {
	const char *label;
	__u64 total;
	bool on;
	bool shown;
	bool bytes;
	double last;
};

void progress_start(const struct ctl *c, struct progress *p, const char *label,
		    __u64 total, bool bytes);
void progress_update(struct progress *p, __u64 done);
void progress_end(struct progress *p);
void progress_fail(struct progress *p);
void progress_cb(void *arg, __u64 done, __u64 total);

/* args.c */
int arg_u64(const char *s, __u64 min, __u64 max, __u64 *out);
int arg_prob(const char *s, __u64 *pico);
bool arg_name_ok(const char *s);
int arg_pick(const char *s, const char *const *words);
int arg_name(const struct ctl *c, const char *what, const char *s);
int arg_bad_u64(const struct ctl *c, const char *what, const char *s,
		int err, __u64 min, __u64 max, const char *extra);
int arg_bad_prob(const struct ctl *c, const char *what, const char *s,
		 int err);
void arg_words(char *buf, size_t len, const char *const *words);

/* keys.c */
struct keyset {
	__u8 *buf;
	size_t len;
	size_t cap;
	__u64 count;
	__u32 key_len;		/* fixed size, or 0: length-prefixed */
	enum key_enc enc;
	const char *source;	/* for messages: "<stdin>", a file, NULL */
};

struct key_iter {
	size_t off;
};

extern const char *const key_enc_names[];
int keys_enc_opt(struct ctl *c);
int keys_collect(struct ctl *c, int argc, char **argv, struct keyset *ks);
void keys_free(struct keyset *ks);
bool keys_next(const struct keyset *ks, struct key_iter *it,
	       const __u8 **key, __u32 *len);
void key_render(enum key_enc enc, const __u8 *key, __u32 len, char *out,
		size_t outlen);
int key_parse(enum key_enc enc, const char *s, size_t slen, __u8 *out,
	      __u32 *outlen, char *why, size_t whylen);

/* json.c */
struct json {
	FILE *f;
	int depth;
	bool need_comma;
	bool after_key;
};

void json_init(struct json *j, FILE *f);
void json_obj(struct json *j);
void json_obj_end(struct json *j);
void json_arr(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *k);
void json_str(struct json *j, const char *s);
void json_u64(struct json *j, __u64 v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
void json_end(struct json *j);
/* key + value in one call */
void json_kstr(struct json *j, const char *k, const char *s);
void json_ku64(struct json *j, const char *k, __u64 v);
void json_kdouble(struct json *j, const char *k, double v);
void json_kbool(struct json *j, const char *k, bool v);

/*
 * xdp.c: what the XDP commands (xdp.c, mcast.c, gate.c, map.c) share.
 * An instance is a directory of pins, <root>/<NAME> (root: the
 * environment's KBLOOMCTL_PIN_ROOT or /sys/fs/bpf/kbloom).
 */
struct kbloom_xdp;
struct kbloom_xdp_geom;

/* kinds of instance directories */
enum xdp_kind {
	XK_NONE = 0,		/* no such directory */
	XK_MCAST,
	XK_GATE,
	XK_PASS,		/* XDP_PASS links of kbloomctl (veth peers) */
	XK_IPBF,
	XK_MCBF,
	XK_OTHER,		/* a directory without a known layout */
};

/**
 * struct xkw - one keyword of a command ("dev IFACE...", "mode M")
 * @name: the keyword; NULL ends a table
 * @arg: its value's name, for messages
 * @many: one or more values, up to the next keyword of the table
 * @n: out: values given (0: not given)
 * @v: out: the first value (in argv)
 */
struct xkw {
	const char *name;
	const char *arg;
	bool many;
	int n;
	char **v;
};

/* geometry keywords of a blocked filter, for struct xkw tables */
#define XKW_GEOM							\
	{ .name = "capacity", .arg = "N" }, { .name = "fpr", .arg = "P" }, \
	{ .name = "bits", .arg = "M" }, { .name = "hashes", .arg = "K" }, \
	{ .name = "hash", .arg = "fast|siphash" }, { .name = "seed", .arg = "S" }

const char *xdp_root(void);
int xdp_arg_name(const struct ctl *c, const char *s);
int xkw_parse(const struct ctl *c, int argc, char **argv, struct xkw *kw);
struct xkw *xkw_get(struct xkw *kw, const char *name);
const char *xkw_val(struct xkw *kw, const char *name);
int xkw_netns(const struct ctl *c, struct xkw *kw, const char **netns);
int xdp_geom(const struct ctl *c, struct xkw *kw, struct kbloom_xdp_geom *g,
	     bool *given);
int xdp_arg_addr(const struct ctl *c, const char *what, const char *s,
		 bool mcast, __u8 addr[16], __u32 *len);
void xdp_addr_str(const __u8 *addr, __u32 len, char *buf, size_t n);
int xdp_arg_netns(const struct ctl *c, const char *s);
int xdp_netns_open(const struct ctl *c, const char *ns, int *fd);
int xdp_ns_enter(int ns_fd, int *saved);
void xdp_ns_leave(int saved);
int xdp_port(const struct ctl *c, const char *op, int ns_fd, const char *ns,
	     const char *s, int *ifindex);
void xdp_ifname(int ns_fd, int ifindex, char *buf, size_t len);
void xdp_port_label(int ns_fd, int ifindex, char *buf, size_t len);
bool xdp_attached(const char *dir, int ifindex);
enum xdp_kind xdp_kind_of(const char *name);
const char *xdp_kind_name(enum xdp_kind k);
int xdp_inst_ns(const struct ctl *c, const char *name, const char *given,
		bool strict, const char **ns);
int xdp_open(struct ctl *c, const char *name, const char *netns,
	     enum xdp_kind want, struct kbloom_xdp **xp);
__printf(3, 4) int xdp_fail(const struct ctl *c, int err, const char *opfmt,
			    ...);
void xdp_log(void *ctx, const char *msg);
void xdp_log_reset(void);
void xdp_notes(const struct ctl *c);
int xdp_pin_fd(struct kbloom_xdp *x, const char *leaf);
void fmt_rate(char *buf, size_t len, double p);

/*
 * ipbf.c, mcbf.c: the in-packet (ipbf) and Multi-Class (mcbf) paths of
 * libkbloom_xdp_net.h; ipbf.c holds what both share and what xdp.c calls
 * for their instances (xdp attach, detach, status).
 */
extern const struct ctl_cmd ipbf_cmds[];
extern const struct ctl_cmd mcbf_cmds[];

struct kbloom_net;

/* an open ipbf or mcbf instance */
struct netinst {
	struct kbloom_net *n;
	const char *name;
	const char *netns;	/* given or recorded, NULL: ours */
	int ns_fd;
	char op[160];		/* "CMD NAME", for messages */
};

/* what xdp status shows of an ipbf or mcbf instance */
struct net_summary {
	bool valid;
	__u32 ports;
	__u32 fill_limit, d, k;	/* ipbf */
	__u64 seed;
	__u64 members;		/* mcbf */
	__u32 flags;
};

int net_inst_open(struct ctl *c, struct netinst *m, const char *name,
		  const char *netns, enum xdp_kind want);
void net_inst_close(struct netinst *m);
bool net_is_port(struct kbloom_net *n, int ifindex);
int net_port_ids(struct kbloom_net *n, __u32 **ids, __u32 *cnt);
bool net_attached(struct kbloom_net *n, int ifindex);
int net_inst_port(struct ctl *c, struct netinst *m, const char *s,
		  int *ifindex);
void net_port_name(const struct netinst *m, __u32 ifindex, char *buf,
		   size_t len);
int net_which(struct ctl *c, struct netinst *m, const char *port,
	      __u32 **ids, __u32 *n);
int net_take_netns(const struct ctl *c, int *argc, char **argv,
		   const char **netns);
int net_list_args(const struct ctl *c, int *argc, char **argv, int most,
		  const char **netns);
int net_list_open(struct ctl *c, int argc, char **argv, int most,
		  enum xdp_kind want, struct netinst *m, __u32 **ids,
		  __u32 *n);
struct kbloom_addr_key;
void net_groups_one(const struct ctl *c, struct json *j, const char *ifn,
		    __u32 id, const struct kbloom_addr_key *g, int cnt,
		    __u32 (*cls)(const struct kbloom_addr_key *g));
int net_mark_netns(struct kbloom_net *n, int ns_fd);
int net_arg_mode(const struct ctl *c, const char *s, int *mode);
int net_arg_devs(const struct ctl *c, int ndev, char **dev);
int net_devs_resolve(const struct ctl *c, const char *op, int ns_fd,
		     const char *netns, int ndev, char **dev, int *ifindex);
int net_attach_all(struct ctl *c, struct kbloom_net *n, int ndev,
		   char **dev, const int *ifindex, int mode, const char *op);
/* the keywords of every kind of xdp attach, for net_foreign_kw() */
#define XKW_FOREIGN							\
	{ .name = "capacity", .arg = "N" }, { .name = "fpr", .arg = "P" }, \
	{ .name = "hashes", .arg = "K" }, { .name = "keys", .arg = "N" }, \
	{ .name = "policy", .arg = "POLICY" },				\
	{ .name = "match", .arg = "src|dst" },				\
	{ .name = "variant", .arg = "VARIANT" },				\
	{ .name = "module-filter", .arg = "NAME...", .many = true }

int net_foreign_kw(const struct ctl *c, struct xkw *kw,
		   const char *const *foreign, const char *kind,
		   const char *allowed);
int ipbf_xdp_attach(struct ctl *c, int argc, char **argv);
int mcbf_xdp_attach(struct ctl *c, int argc, char **argv);
int net_detach_ports(struct ctl *c, enum xdp_kind k, const char *name,
		     const char *netns, int ndev, char **dev,
		     const int *ifindex, const char *op);
int net_destroy(const char *name);
void net_summary_read(const char *name, const char *netns,
		      struct net_summary *s);
void net_summary_text(const struct net_summary *s, enum xdp_kind k);
void net_summary_json(struct json *j, const struct net_summary *s,
		      enum xdp_kind k);

/* mcast.c, gate.c: read by xdp status */
int mcast_port_ids(struct kbloom_xdp *x, __u32 **ids, __u32 *n);
struct kbloom_xdp_filter_info;
int xdp_module_info(const struct ctl *c, struct kbloom_xdp *x, __u32 id,
		    struct kbloom_xdp_filter_info *fi,
		    char name[KBLOOM_NAME_LEN]);
int gate_cfg_read(struct kbloom_xdp *x, __u32 *mode, __u32 *flags);
int gate_count(struct kbloom_xdp *x, __u64 *n);
const char *gate_mode_name(__u32 mode);

#endif /* _KBLOOMCTL_H */
