// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: gate add|del NAME ADDR... | -f FILE | -, gate load-set NAME
 * IMAGE
 *
 * The addresses come from the arguments, or one per line from a file or
 * standard input (keys.c, encoding "addr": IPv4 or IPv6 by its form; bad
 * lines are reported with their numbers and nothing is applied).  They
 * go to the gate as one batch, all or nothing (kbloom_gate_add_batch()):
 * 8M addresses from a file load in a few seconds.  gate load-set adds
 * the addresses of a gate save-set image (gate_setimg.c) the same way.  gate_exact_size():
 * how many addresses the set of a new gate of capacity N holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

#define GATE_EXACT_MIN	65536U

/*
 * The exact set of xdp attach gate ... capacity N without keys N: N
 * rounded up to a power of two (the hash map's buckets are that many
 * anyway), at least the default 65,536; 0 (the default) without N.
 */
__u32 gate_exact_size(__u64 capacity)
{
	__u64 n = GATE_EXACT_MIN;

	if (!capacity)
		return 0;
	while (n < capacity && n < (1ULL << 31))
		n <<= 1;
	return (__u32)n;
}

struct gate_set {
	struct kbloom_addr_key *k;
	__u32 n;
	char **text;		/* the ADDR arguments, or NULL (a file) */
	const char *source;	/* the file, "<stdin>" */
};

static int gs_alloc(struct ctl *c, struct gate_set *s, __u64 n)
{
	if (n > 0xffffffffULL)
		return ctl_usage(c, "%s: %llu addresses (allowed: at most 4294967295 in one batch)",
				 s->source, (unsigned long long)n);
	s->n = (__u32)n;
	s->k = calloc(n ? n : 1, sizeof(*s->k));
	if (!s->k)
		return ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
	return 0;
}

static int gs_from_args(struct ctl *c, int argc, char **argv,
			struct gate_set *s)
{
	__u32 len;
	int i, ret;

	if (!argc)
		return ctl_usage(c, "missing ADDR (give ADDR arguments, -f FILE, or - for standard input)");
	ret = gs_alloc(c, s, argc);
	for (i = 0; !ret && i < argc; i++) {
		ret = xdp_arg_addr(c, "ADDR", argv[i], false, s->k[i].addr,
				   &len);
		s->k[i].len = len;
	}
	s->text = argv;
	return ret;
}

static int gs_from_file(struct ctl *c, int argc, char **argv,
			struct gate_set *s)
{
	struct key_iter it = { 0 };
	enum key_enc enc = c->key_enc;
	struct keyset ks;
	const __u8 *key;
	__u32 len, i = 0;
	int ret;

	c->key_enc = KENC_ADDR;
	ret = keys_collect(c, argc, argv, &ks);
	c->key_enc = enc;
	s->source = ks.source;
	ret = ret ?: gs_alloc(c, s, ks.count);
	while (!ret && keys_next(&ks, &it, &key, &len)) {
		s->k[i].len = len;
		memcpy(s->k[i].addr, key, len);
		i++;
	}
	keys_free(&ks);
	return ret;
}

/* The addresses of a gate save-set image (gate_setimg.c). */
static int gs_from_image(struct ctl *c, const char *name, const char *path,
			 struct gate_set *s)
{
	s->source = path;
	return gate_setimg_read(c, name, path, &s->k, &s->n);
}

static const char *gs_why(int err, bool add)
{
	switch (err) {
	case -EEXIST:
		return "in the set already; -exist ignores it";
	case -ENOENT:
		return add ? NULL : "not in the set; -exist ignores it";
	case -ENOSPC:
		return "gate_exact is full (keys N or capacity N of xdp attach gate)";
	}
	return NULL;
}

/*
 * Is address @at of the batch also another of its addresses?  The map
 * refuses the second copy as it refuses one in the set (EEXIST, or ENOENT
 * for a del): the message must not say "in the set already".
 */
static bool gs_twice(const struct gate_set *s, __u32 at)
{
	const struct kbloom_addr_key *a = &s->k[at];
	__u32 j;

	for (j = 0; j < s->n; j++)
		if (j != at && s->k[j].len == a->len &&
		    !memcmp(s->k[j].addr, a->addr, a->len))
			return true;
	return false;
}

/* The failure of the batch, naming the address at fault. */
static int gs_fail(struct ctl *c, const char *name, const struct gate_set *s,
		   __u32 at, int err, bool add)
{
	const char *why = gs_why(err, add);
	char a[64];

	if (at >= s->n)
		return xdp_fail(c, err, "%s %s", c->cmd_path, name);
	if (add && err == -ENOENT)	/* a kfunc gate's module filter */
		return xdp_fail(c, err, "%s %s: %s", c->cmd_path, name,
				s->text ? s->text[at] : s->source);
	if ((err == -EEXIST || err == -ENOENT) && gs_twice(s, at))
		why = "given twice in the batch; -exist ignores it";
	if (s->text)
		return ctl_syserr(c, err, why, "%s %s: %s",
				  c->cmd_path, name, s->text[at]);
	xdp_addr_str(s->k[at].addr, s->k[at].len, a, sizeof(a));
	return ctl_syserr(c, err, why,
			  "%s %s: %s, address %u (%s); nothing applied",
			  c->cmd_path, name, s->source, at + 1, a);
}

/* gate add|del, or gate load-set (@image: add an image's addresses). */
static int gate_set_cmd(struct ctl *c, int argc, char **argv, bool add,
			bool image)
{
	struct gate_set s = { 0 };
	struct kbloom_xdp *x = NULL;
	__u32 at, flags;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	if (image)
		ret = gs_from_image(c, argv[0], argv[1], &s);
	else if (c->set[CO_FILE] || (argc == 2 && !strcmp(argv[1], "-")))
		ret = gs_from_file(c, argc - 1, argv + 1, &s);
	else
		ret = gs_from_args(c, argc - 1, argv + 1, &s);
	ret = ret ?: xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		goto out;
	flags = c->set[CO_EXIST] ? KBLOOM_GATE_BATCH_EXIST : 0;
	ret = add ? kbloom_gate_add_batch(x, s.k, s.n, flags, &at) :
		    kbloom_gate_del_batch(x, s.k, s.n, flags, &at);
	if (ret) {
		ret = gs_fail(c, argv[0], &s, at, ret, add);
		goto out;
	}
	xdp_notes(c);
	ret = KBCTL_OK;
out:
	kbloom_xdp_close(x);
	free(s.k);
	return ret;
}

int gate_cmd_add(struct ctl *c, int argc, char **argv)
{
	return gate_set_cmd(c, argc, argv, true, false);
}

int gate_cmd_del(struct ctl *c, int argc, char **argv)
{
	return gate_set_cmd(c, argc, argv, false, false);
}

int gate_cmd_load_set(struct ctl *c, int argc, char **argv)
{
	return gate_set_cmd(c, argc, argv, true, true);
}
