/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbloomctl: shared declarations of the command's files.
 *
 *   main.c     options, the command table, dispatch, help
 *   args.c     numbers, probabilities, names
 *   kw.c       keyword tables: the one KEYWORD VALUE parser (kw.h)
 *   keys.c     key encodings; keys from arguments, a file or stdin
 *   output.c   messages, exit codes, progress line, formatting
 *   outfile.c  -o FILE: the one output path (kbloom_out of libkbloom.h)
 *   json.c     the -j writer
 *   module.c   create destroy flush add del test list stat (/dev/kbloom)
 *   add_report.c  add -j (which keys were new), the capacity warning
 *   image.c    save restore (/dev/kbloom images)
 *   plan.c     plan (no module needed)
 *   complete.c completion bash (the script, from the tables main.c hands it)
 *   xdp.c      xdp detach status (pinned XDP instances of libkbloom_xdp.h)
 *   xdp_attach.c  xdp attach
 *   xdp_log.c, xdp_args.c, xdp_ns.c, xdp_inst.c
 *              what the XDP commands share: the library's messages,
 *              names and geometry, namespaces and interfaces, instances
 *   mcast.c    mcast join leave ports groups stats config
 *   mcast_sync.c  mcast sync (the memberships of a Linux bridge)
 *   gate.c     gate add del test list mode stats rebuild
 *   gate_cuckoo.c  gate load save, the stats lines of a cuckoo gate
 *   map.c      map load save dump stat test (a pinned filter)
 *   netinst.c, netinst_xdp.c
 *              what ipbf and mcbf share, and their xdp detach
 *   ipbf/      ipbf topo create setup config port ports stats header send
 *              (in-packet Bloom filters), xdp attach ipbf
 *   mcbf/      mcbf optimize create port join leave ports groups stats
 *              (Multi-Class Bloom filters), xdp attach mcbf
 *   sketch_xdp.c  sketch count stats, xdp attach sketch (Count-Min at XDP)
 *   conntrack.c   conntrack stats test, xdp attach conntrack (d-left)
 *   dedupe.c      dedupe stats save, xdp attach dedupe (stable filter)
 *   window_xdp.c  window stats save, xdp attach window (XDP window)
 *   xdp_count.c   what those two share: open by kind, attach devices
 *   persistent.c  persistent append test stat (archives of epochs, files)
 *   persistent_plan.c  persistent plan (the epoch filters' size)
 *   similar.c     similar A B (the intersection of two filters' sets)
 *
 * Calls go one way: main.c calls the command files, xdp.c and
 * xdp_attach.c call the kinds' files (gate.c, ipbf/, mcbf/,
 * netinst_xdp.c) for attach, detach and status, and every command file
 * calls the shared ones below it (netinst*.c, xdp_*.c, then kw.c,
 * args.c, keys.c, output.c, json.c), which call no command file.
 *
 * Adding a command (the XDP commands, for example): write its handler in
 * its own file, describe it in a NULL-terminated struct ctl_cmd array there
 * (a group such as "xdp attach|detach|status" is one entry whose @sub is
 * another array), declare the array below and list it in cmd_tables[] in
 * main.c.  Its KEYWORD VALUE arguments: a struct kw table (kw.h) that
 * kw_parse() turns into the command's struct.  New options: one enum
 * ctl_opt value and one row of opt_table[] in main.c; the value is then
 * in ctl->set[] and ctl->val[].
 */
#ifndef _KBLOOMCTL_H
#define _KBLOOMCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "libkbloom_dev.h"
#include "kw.h"

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
	CO_PRETTY,		/* -p, --pretty: indented -j (where -j is) */
	CO_NAMES,		/* -n, -name: list: names only */
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
 * @kw: its keywords, when --help shows them (a dashed table: main.c
 *      hands its --KEYWORD arguments to the command)
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
	const struct kw_table *kw;
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
	KENC_ADDR,	/* ipv4 or ipv6, by its form */
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
extern const struct ctl_cmd image_cmds[];
extern const struct ctl_cmd plan_cmds[];
extern const struct ctl_cmd xdp_cmds[];
extern const struct ctl_cmd mcast_cmds[];
extern const struct ctl_cmd gate_cmds[];
extern const struct ctl_cmd map_cmds[];
extern const struct ctl_cmd cuckoo_cmds[];
extern const struct ctl_cmd sketch_cmds[];
extern const struct ctl_cmd conntrack_cmds[];
extern const struct ctl_cmd persistent_cmds[];
extern const struct ctl_cmd sbbf_cmds[];	/* sbbf.c */
/* persistent_plan.c: persistent plan (persistent.c's table) */
extern const struct kw_table pplan_table;
int persistent_cmd_plan(struct ctl *c, int argc, char **argv);
extern const struct ctl_cmd dedupe_cmds[];
extern const struct ctl_cmd window_cmds[];
extern const struct ctl_cmd rename_cmds[];
extern const struct ctl_cmd iblt_cmds[];
extern const struct ctl_cmd loss_cmds[];
extern const struct ctl_cmd similar_cmds[];	/* similar.c */

/* mcast_sync.c: the handler of mcast sync (mcast.c's table) */
int mcast_cmd_sync(struct ctl *c, int argc, char **argv);

/* outfile.c: -o FILE ("-", "stdout" or NULL: standard output) */
struct kbloom_out;
bool ctl_out_is_std(const char *path);
const char *ctl_out_name(const char *path);
int ctl_out_open(struct ctl *c, const char *op, const char *path,
		 bool secret, struct kbloom_out **o);
int ctl_out_send(struct ctl *c, struct kbloom_out *o, const char *op,
		 const char *path, const void *buf, size_t len);
int ctl_out_close(struct ctl *c, const char *op, const char *path,
		  struct kbloom_out *o, bool failed);
int ctl_out_image(struct ctl *c, const char *op, const char *path,
		  const void *img, size_t len);

/* an option's spellings ("-o|--output") and value name, for complete.c */
struct ctl_optname {
	const char *names;
	const char *arg;
};

void complete_bash(FILE *f, const struct ctl_cmd *const *tabs,
		   const struct ctl_optname *opts, size_t nopts);

/* cuckoo.c */
struct kbloom_stat;
int cuckoo_create(struct ctl *c, int argc, char **argv);
void cuckoo_stat_text(const struct kbloom_stat *st);

/* partitioned.c */
int partitioned_create(struct ctl *c, int argc, char **argv);
void partitioned_stat_text(const struct kbloom_stat *st);

/* deletable.c */
int deletable_create(struct ctl *c, int argc, char **argv);
int deletable_plan(__u64 n, __u64 p, struct kb_plan *out);
void deletable_stat_text(const struct kbloom_stat *st);

/* scalable.c */
struct kb_plan;
int scalable_create(struct ctl *c, int argc, char **argv);
void scalable_stat_text(struct ctl *c, const char *name,
			const struct kbloom_stat *st);
int scalable_plan(__u32 type, __u64 n, __u64 p, struct kb_plan *out);

/* stable.c */
int stable_create(struct ctl *c, int argc, char **argv);
void stable_stat_text(const struct kbloom_stat *st);
int plan_stable_row(__u64 n, __u64 p, struct kb_plan *plan);

/* window.c */
int window_create(struct ctl *c, int argc, char **argv);
void window_stat_text(const struct kbloom_stat *st);

/* sketches.c */
int dleft_create(struct ctl *c, int argc, char **argv);
int countmin_create(struct ctl *c, int argc, char **argv);
void sketches_stat_text(const struct kbloom_stat *st);
extern const char *const dl_counter_words[], *const cm_counter_words[];
extern const char *const cm_update_words[];
extern const __u32 dl_counter_ids[], cm_counter_ids[], cm_update_ids[];
extern const char *const dl_layout_words[];
extern const __u32 dl_layout_ids[];
const char *dl_layout_name(__u32 update);

/* add_report.c: add -j (per-key "new") and the capacity warning */
struct keyset;
int add_report(struct ctl *c, const struct keyset *ks, const __u8 *fresh,
	       const char *name, __u64 done);

/* create_send.c */
int create_send(struct ctl *c, struct kbloom_create *cr, bool seed);
const char *create_exist_hint(const struct ctl *c);

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
void fmt_fpr_now(char *buf, size_t len, __u64 pico, __u64 inserted);
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
/* What an image loader's errno says of the file, or NULL (not an image's). */
const char *image_why(int err);
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
	bool pretty;		/* newlines and two spaces per level */
};

void json_init(struct json *j, FILE *f);
void json_set_pretty(bool on);
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
 * xdp_log.c, xdp_args.c, xdp_ns.c, xdp_inst.c: what the XDP commands
 * (xdp.c, xdp_attach.c, mcast.c, gate.c, map.c, ipbf/, mcbf/) share; they
 * call none of those.  An instance is a directory of pins, <root>/<NAME>
 * (root: the environment's KBLOOMCTL_PIN_ROOT or /sys/fs/bpf/kbloom).
 */
#define NETNS_DIR	"/run/netns"

struct kbloom_xdp;
struct kbloom_xdp_geom;
struct kbloom_xdp_opts;
struct kbloom_inst;
struct kbloom_inst_opts;

/* xdp_log.c: the library's messages, the detail of an error line */
__printf(3, 4) int xdp_fail(const struct ctl *c, int err, const char *opfmt,
			    ...);
void xdp_log(void *ctx, const char *msg);
void xdp_log_reset(void);
void xdp_notes(const struct ctl *c);

/* xdp_args.c: names, keywords, geometry, addresses */
const char *xdp_root(void);
int xdp_arg_name(const struct ctl *c, const char *s);

/*
 * The geometry keywords of a blocked filter as rows of a struct kw table:
 * the fields of a struct kbloom_xdp_geom in @_st (its members named).
 */
extern const char *const xdp_hash_words[];
extern const __u32 xdp_hash_ids[];
#define KW_GEOM(_st, _cap, _fpr, _m, _k, _hash, _seed)			\
	KW("capacity", "N", KWT_U64, _st, _cap, .min = 1,		\
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),		\
	KW("fpr", "P", KWT_PROB, _st, _fpr),				\
	KW("bits", "M", KWT_U64, _st, _m, .min = 512,			\
	   .max = KBLOOM_M_MAX, .extra = "a multiple of 512"),		\
	KW("hashes", "K", KWT_U32, _st, _k, .min = KBLOOM_K_MIN,	\
	   .max = KBLOOM_K_MAX),					\
	KW("hash", "fast|siphash", KWT_ENUM, _st, _hash,		\
	   .words = xdp_hash_words, .vals = xdp_hash_ids),		\
	KW("seed", "S", KWT_U64, _st, _seed, .min = 0, .max = ~0ULL,	\
	   .extra = "decimal or 0x hex")
int xdp_geom_check(const struct ctl *c, const struct kw_table *t,
		   __u64 given, struct kbloom_xdp_geom *g, bool *any);

/* mode auto|native|generic: an enum kbloom_xdp_mode (__u32) */
extern const char *const xdp_mode_words[];
#define KW_MODE(_st, _m)						\
	KW("mode", "native|generic|auto", KWT_ENUM, _st, _m,		\
	   .words = xdp_mode_words)
int xdp_arg_addr(const struct ctl *c, const char *what, const char *s,
		 bool mcast, __u8 addr[16], __u32 *len);
void xdp_addr_str(const __u8 *addr, __u32 len, char *buf, size_t n);
void fmt_rate(char *buf, size_t len, double p);

/* xdp_ns.c: network namespaces and interfaces */
int xdp_arg_netns(const struct ctl *c, const char *s);
void netns_path(const char *ns, char *buf, size_t len);
int xdp_netns_open(const struct ctl *c, const char *ns, int *fd);
int xdp_ns_enter(int ns_fd, int *saved);
void xdp_ns_leave(int saved);
__u64 ns_inode(int ns_fd);
int xdp_arg_ifname(const struct ctl *c, const char *what, const char *s);
int xdp_port(const struct ctl *c, const char *op, int ns_fd, const char *ns,
	     const char *s, int *ifindex);
int xdp_devs_resolve(struct ctl *c, const char *op, const char *netns,
		     int ndev, char **dev, int *ns_fd, int **ifindex);
void xdp_ifname(int ns_fd, int ifindex, char *buf, size_t len);
void xdp_port_label(int ns_fd, int ifindex, char *buf, size_t len);
bool xdp_attached(struct kbloom_inst *i, int ifindex);

/*
 * xdp_inst.c: instances.  The kinds of instance, by the library's names
 * (read from the marker): xdp_kind_of() returns one of these, so kinds
 * compare as pointers.
 */
#define XK_NONE		NULL	/* no such directory */
extern const char XK_MCAST[], XK_GATE[], XK_PASS[], XK_IPBF[], XK_MCBF[];
extern const char XK_SKETCH[], XK_CONNTRACK[], XK_DEDUPE[];
extern const char XK_WINDOW[];
extern const char XK_OTHER[];	/* a directory that is not an instance */
const char *xdp_kind_of(const char *name);
const char *xdp_kind_at(const char *root, const char *name);
const char *xdp_kind_name(const char *k);
void xdp_inst_opts(struct kbloom_inst_opts *o, const char *netns);
void xdp_opts(struct kbloom_xdp_opts *o, const char *netns);
int xdp_inst_ns(const struct ctl *c, const char *name, const char *given,
		bool strict, const char **ns);
int xdp_open(struct ctl *c, const char *name, const char *netns,
	     const char *want, struct kbloom_xdp **xp);
int xdp_pin_fd(struct kbloom_xdp *x, const char *leaf);

/* xdp_attach.c: xdp attach */
int xdp_cmd_attach(struct ctl *c, int argc, char **argv);

/*
 * netinst.c, netinst_xdp.c, ipbf/, mcbf/: the in-packet (ipbf) and
 * Multi-Class (mcbf) paths of libkbloom_xdp_net.h; netinst*.c hold what
 * both share and what xdp.c calls for their instances (xdp detach),
 * ipbf/attach.c and mcbf/attach.c their xdp attach.
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

struct kbloom_net_opts;
void net_opts(struct kbloom_net_opts *o, const char *netns);
int net_inst_open(struct ctl *c, struct netinst *m, const char *name,
		  const char *netns, const char *want);
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
		  const char *want, struct netinst *m, __u32 **ids,
		  __u32 *n);
struct kbloom_addr_key;
void net_groups_one(const struct ctl *c, struct json *j, const char *ifn,
		    __u32 id, const struct kbloom_addr_key *g, int cnt,
		    __u32 (*cls)(const struct kbloom_addr_key *g));
int net_arg_devs(const struct ctl *c, int ndev, char **dev);
int net_devs_resolve(const struct ctl *c, const char *op, int ns_fd,
		     const char *netns, int ndev, char **dev, int *ifindex);
int net_attach_all(struct ctl *c, struct kbloom_net *n, int ndev,
		   char **dev, const int *ifindex, int mode, const char *op);
/* the keywords of the other kinds of xdp attach, refused with @_why */
#define KW_FOREIGN(_why)						\
	KW_REFUSE("capacity", "N", _why, 1),				\
	KW_REFUSE("fpr", "P", _why, 1),					\
	KW_REFUSE("hashes", "K", _why, 1),				\
	KW_REFUSE("keys", "N", _why, 1),				\
	KW_REFUSE("policy", "POLICY", _why, 1),				\
	KW_REFUSE("match", "src|dst", _why, 1),				\
	KW_REFUSE("variant", "VARIANT", _why, 1),			\
	KW_REFUSE("module-filter", "NAME...", _why, 0)

int ipbf_xdp_attach(struct ctl *c, int argc, char **argv);
int mcbf_xdp_attach(struct ctl *c, int argc, char **argv);
int net_detach_ports(struct ctl *c, const char *k, const char *name,
		     const char *netns, int ndev, char **dev,
		     const int *ifindex, const char *op);

/*
 * xdp_count.c: the counting kinds (sketch_xdp.c, conntrack.c).
 * struct count_attach: the arguments of xdp attach sketch|conntrack that
 * both have (their keyword tables fill it as member @at); @kopts: the
 * kind's options of kbloom_inst_create(), @create_opts: some were given.
 */
struct count_attach {
	const char *name;
	const char *kind;
	__u32 mode;
	const char *netns;
	struct kw_list devl;
	const void *kopts;
	bool create_opts;
};

int count_attach(struct ctl *c, struct count_attach *a);
int count_open(struct ctl *c, const char *name, const char *want,
	       struct kbloom_inst **ip);
struct kbloom_inst *count_peek(const char *name);
/* An image to -o FILE or standard output; from -i FILE or standard input. */
int count_image_out(struct ctl *c, const char *op, const void *img,
		    size_t len);
int count_image_in(struct ctl *c, const char *op, void **img, size_t *len);
int count_save_out(struct ctl *c, const char *op, int ret, void *img,
		   size_t len);
int sketch_xdp_attach(struct ctl *c, int argc, char **argv);
int conntrack_xdp_attach(struct ctl *c, int argc, char **argv);
int dedupe_xdp_attach(struct ctl *c, int argc, char **argv);	/* dedupe.c */
int window_xdp_attach(struct ctl *c, int argc, char **argv);	/* window_xdp.c */
/* xdp status: the line under the instance's (@j NULL: text), or nothing */
void sketch_summary(const char *name, struct json *j);
void conntrack_summary(const char *name, struct json *j);
void dedupe_summary(const char *name, struct json *j);	/* dedupe.c */
void window_summary(const char *name, struct json *j);	/* window_xdp.c */

/* mcast.c, gate.c */
struct kbloom_xdp_filter_info;
int xdp_module_info(const struct ctl *c, struct kbloom_xdp *x, __u32 id,
		    struct kbloom_xdp_filter_info *fi,
		    char name[KBLOOM_NAME_LEN]);
const char *gate_mode_name(__u32 mode);

/* mcast_del.c: the deletable variant of mcast (for xdp_attach.c, mcast.c) */
int mcast_del_geom_check(const struct ctl *c, const struct kw_table *t,
			 __u64 given, struct kbloom_xdp_geom *g, bool *any);
int mcast_del_filter_info(struct kbloom_xdp *x, __u32 id,
			  struct kbloom_xdp_filter_info *fi);
void mcast_del_stats_json(struct json *j, struct kbloom_xdp *x, __u32 id);
void mcast_del_stats_text(struct kbloom_xdp *x, int ns_fd, const __u32 *ids,
			  __u32 n);

/* gate_cuckoo.c (for gate.c) */
struct kbloom_gate_cuckoo_info;
void gate_cuckoo_text(const struct kbloom_gate_cuckoo_info *ci);
void gate_cuckoo_json(struct json *j,
		      const struct kbloom_gate_cuckoo_info *ci);
int gate_cmd_load(struct ctl *c, int argc, char **argv);
int gate_cmd_save(struct ctl *c, int argc, char **argv);
int gate_read_file(const char *path, size_t max, void **buf, size_t *len);
const char *gate_read_why(int err);
int gate_save_with(struct ctl *c, char **argv,
		   int (*make)(struct kbloom_xdp *x, void **img, size_t *len));

/* gate_set.c (for gate.c, xdp_attach.c) */
__u32 gate_exact_size(__u64 capacity);
int gate_cmd_add(struct ctl *c, int argc, char **argv);
int gate_cmd_del(struct ctl *c, int argc, char **argv);
int gate_cmd_load_set(struct ctl *c, int argc, char **argv);

/* gate_setimg.c (for gate.c, gate_set.c) */
struct kbloom_addr_key;
int gate_cmd_save_set(struct ctl *c, int argc, char **argv);
int gate_setimg_read(struct ctl *c, const char *name, const char *path,
		     struct kbloom_addr_key **keys, __u32 *n);

#endif /* _KBLOOMCTL_H */
