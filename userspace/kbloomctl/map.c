// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: one pinned filter of an XDP instance, by its path
 * <root>/NAME/filter_ID (ID: an mcast port's ifindex, 0 for a gate):
 *
 *   map load PATH [-i FILE|-]    an image (uapi/kbloom_image.h) into it
 *   map save PATH [-o FILE|-]    its image
 *   map dump PATH                its parameters and typed blocks
 *   map stat PATH                occupancy, n_est, fpr_now, ...
 *   map test PATH KEY...         test keys against it
 *
 * The image is the one of "kbloomctl save" (the module), of libkbloom's
 * kbloom_save() and of kbloom_xdp_filter_save_image(): a blocked filter
 * saved anywhere loads into a BPF map, swapped in whole (a packet is
 * tested against the old filter or the new one).  The filters of a cuckoo
 * instance (xdp attach gate|mcast ... filter cuckoo) take version-3
 * cuckoo images (kbloomctl save of a module cuckoo filter,
 * libkbloom_cuckoo's kbloom_cuckoo_save()) both ways, and the port
 * filters of a deletable switch (xdp attach mcast ... filter deletable)
 * version-3 deletable images (a module deletable filter's, or
 * libkbloom_deletable's kbloom_del_save()); map test answers for them
 * too, map stat and dump are for blocked filters.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_image.h"

#define IO_CHUNK	(1U << 20)

struct fpath {
	char root[PATH_MAX];
	char name[KBLOOM_XDP_NAME_MAX];
	__u32 id;
	const char *path;
	struct kbloom_xdp *x;
	const char *kind;
	__u32 type;		/* KBLOOM_TYPE_BLOCKED, _CUCKOO or _DELETABLE */
};

/* PATH: .../NAME/filter_ID (checked as an argument: exit 2). */
static int fpath_parse(const struct ctl *c, const char *path, struct fpath *f)
{
	const char *leaf, *dir_end, *name;
	size_t n = strlen(path);
	unsigned long long id;
	char tail;

	memset(f, 0, sizeof(*f));
	f->path = path;
	while (n > 1 && path[n - 1] == '/')
		n--;
	leaf = path + n;
	while (leaf > path && leaf[-1] != '/')
		leaf--;
	if (sscanf(leaf, "filter_%llu%c", &id, &tail) != 1 ||
	    strncmp(leaf, "filter_", 7) || leaf[7] < '0' || leaf[7] > '9' ||
	    id > 0xffffffffULL || (size_t)(leaf - path) + strlen(leaf) != n ||
	    leaf == path)
		return ctl_usage(c, "PATH '%s': not a pinned filter (allowed: /sys/fs/bpf/kbloom/NAME/filter_ID, the filter of a gate or of an mcast port)",
				 path);
	dir_end = leaf - 1;
	name = dir_end;
	while (name > path && name[-1] != '/')
		name--;
	if (dir_end == name || (size_t)(dir_end - name) >= sizeof(f->name))
		return ctl_usage(c, "PATH '%s': no instance directory before %s (allowed: ROOT/NAME/filter_ID)",
				 path, leaf);
	memcpy(f->name, name, dir_end - name);
	if (name == path)
		snprintf(f->root, sizeof(f->root), ".");
	else if (name - 1 == path)
		snprintf(f->root, sizeof(f->root), "/");
	else
		snprintf(f->root, sizeof(f->root), "%.*s",
			 (int)(name - 1 - path), path);
	f->id = (__u32)id;
	return xdp_arg_name(c, f->name);
}

/* The type of @f's filter from its variant, and the filter's existence. */
static int fpath_info(struct fpath *f)
{
	struct kbloom_xdp_del_info di;
	struct kbloom_gate_cuckoo_info ci;
	struct kbloom_xdp_filter_info fi;

	switch (kbloom_xdp_variant(f->x)) {
	case KBLOOM_XDP_VARIANT_CUCKOO:
		f->type = KBLOOM_TYPE_CUCKOO;
		return kbloom_xdp_cuckoo_info(f->x, f->id, &ci);
	case KBLOOM_XDP_VARIANT_DELETABLE:
		f->type = KBLOOM_TYPE_DELETABLE;
		return kbloom_xdp_del_info(f->x, f->id, &di);
	default:
		f->type = KBLOOM_TYPE_BLOCKED;
		return kbloom_xdp_filter_info(f->x, f->id, &fi);
	}
}

/* Open the instance of @f; exit 3 if it or the filter does not exist. */
static int fpath_open(struct ctl *c, struct fpath *f)
{
	struct kbloom_xdp_opts o = { 0 };
	char dir[PATH_MAX];
	int ret;

	xdp_log_reset();
	if (snprintf(dir, sizeof(dir), "%s/%s", f->root,
		     f->name) >= (int)sizeof(dir) - 16)
		return ctl_syserr(c, ENAMETOOLONG, NULL, "%s %s", c->cmd_path,
				  f->path);
	if (access(f->path, F_OK))
		return ctl_syserr(c, errno, "no such pinned filter",
				  "%s %s", c->cmd_path, f->path);
	o.pin_root = f->root;
	f->kind = xdp_kind_at(f->root, f->name);
	if (f->kind != XK_MCAST && f->kind != XK_GATE)
		return ctl_syserr(c, EOPNOTSUPP, "not the filter of an mcast or gate instance",
				  "%s %s", c->cmd_path, f->path);
	o.log = xdp_log;
	ret = kbloom_xdp_open(f->name, &o, &f->x);
	if (ret)
		return xdp_fail(c, ret, "%s %s: open %s", c->cmd_path, f->path,
				dir);
	ret = fpath_info(f);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, f->path);
	return 0;
}

/* The image's type must be the filter's: blocked, cuckoo or deletable. */
static int fpath_type_ok(struct ctl *c, const struct fpath *f,
			 const void *img, const char *op)
{
	const struct kbloom_image_hdr *h = img;
	char why[160];

	if (h->type == f->type)
		return 0;
	snprintf(why, sizeof(why), "a %s filter image: this is a %s filter (allowed: a %s image%s)",
		 type_name(h->type), type_name(f->type), type_name(f->type),
		 f->type == KBLOOM_TYPE_BLOCKED ?
		 ", or an instance made with filter cuckoo or deletable" : "");
	return ctl_syserr(c, EOPNOTSUPP, why, "%s", op);
}

static void fpath_close(struct fpath *f)
{
	kbloom_xdp_close(f->x);
	f->x = NULL;
}

static bool is_std(const char *p, const char *word)
{
	return !p || !strcmp(p, "-") || !strcmp(p, word);
}

/* ---- load, save ---------------------------------------------------------- */

/* The whole input; one verified image of a blocked, cuckoo or deletable filter. */
static int read_image(struct ctl *c, const char *in, const char *op,
		      void **buf, size_t *len)
{
	const struct kbloom_image_hdr *h;
	struct progress pg;
	size_t cap = 1 << 16, n = 0;
	const char *what = is_std(in, "stdin") ? "<stdin>" : in;
	char why[128];
	struct stat st;
	__u64 total;
	char *b, *t;
	ssize_t r;
	int fd, ret;

	fd = is_std(in, "stdin") ? STDIN_FILENO : open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ctl_syserr(c, errno, NULL, "%s: open %s", op, in);
	total = !fstat(fd, &st) && S_ISREG(st.st_mode) ? st.st_size : 0;
	progress_start(c, &pg, "read", total, true);
	b = malloc(cap);
	for (;;) {
		t = b && cap - n < IO_CHUNK / 4 ? realloc(b, cap * 2) : b;
		if (!t) {
			ret = ctl_syserr(c, ENOMEM, NULL, "%s", op);
			goto fail;
		}
		if (t != b)
			cap *= 2;
		b = t;
		r = read(fd, b + n, cap - n < IO_CHUNK ? cap - n : IO_CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = ctl_syserr(c, errno, NULL, "%s: read %s", op, what);
			goto fail;
		}
		if (!r)
			break;
		n += r;
		progress_update(&pg, n);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	progress_end(&pg);
	h = (const void *)b;
	if (n < sizeof(*h)) {
		free(b);
		return ctl_syserr(c, EMSGSIZE, n ? "shorter than an image header" :
				  "empty input", "%s: %s", op, what);
	}
	total = KBLOOM_IMAGE_HDR_LEN + kb_le64(h->payload_len);
	if (n > total && !kb_image_check(h, total)) {
		free(b);
		return ctl_syserr(c, EMSGSIZE, "more than one image (map load takes one: kbloomctl save NAME)",
				  "%s: %s", op, what);
	}
	ret = kb_image_verify(b, n);
	if (ret) {
		free(b);
		return ctl_syserr(c, ret, image_why(ret), "%s: %s", op, what);
	}
	if (h->flags & KBLOOM_IMAGE_F_MAY_FN) {
		snprintf(why, sizeof(why), "a %s filter may give false negatives: a gate or an mcast port refuses it",
			 type_name(h->type));
		free(b);
		return ctl_syserr(c, KBLOOM_XDP_E_MAY_FN, why, "%s: %s", op,
				  what);
	}
	if (h->type != KBLOOM_TYPE_BLOCKED && h->type != KBLOOM_TYPE_CUCKOO &&
	    h->type != KBLOOM_TYPE_DELETABLE) {
		bool counting = h->type == KBLOOM_TYPE_COUNTING;

		free(b);
		return ctl_syserr(c, EOPNOTSUPP, counting ?
				  "a counting filter: only blocked filters load into a BPF map" :
				  "a standard filter: only blocked filters load into a BPF map",
				  "%s: %s", op, what);
	}
	*buf = b;
	*len = n;
	return 0;
fail:
	progress_fail(&pg);
	if (fd != STDIN_FILENO)
		close(fd);
	free(b);
	return ret;
}

static int fpath_load(struct fpath *f, const void *img, size_t len)
{
	if (f->type == KBLOOM_TYPE_CUCKOO)
		return kbloom_xdp_cuckoo_load_image(f->x, f->id, img, len);
	if (f->type == KBLOOM_TYPE_DELETABLE)
		return kbloom_xdp_del_load_image(f->x, f->id, img, len);
	return kbloom_xdp_filter_load_image(f->x, f->id, img, len);
}

static int fpath_save(struct fpath *f, void **img, size_t *len)
{
	if (f->type == KBLOOM_TYPE_CUCKOO)
		return kbloom_xdp_cuckoo_save_image(f->x, f->id, img, len);
	if (f->type == KBLOOM_TYPE_DELETABLE)
		return kbloom_xdp_del_save_image(f->x, f->id, img, len);
	return kbloom_xdp_filter_save_image(f->x, f->id, img, len);
}

static int cmd_load(struct ctl *c, int argc, char **argv)
{
	const char *in = c->val[CO_INPUT];
	struct fpath f;
	char op[PATH_MAX + 16];
	void *img = NULL;
	size_t len = 0;
	int ret;

	ret = fpath_parse(c, argv[0], &f);
	if (ret)
		return ret;
	if (is_std(in, "stdin") && isatty(STDIN_FILENO))
		return ctl_usage(c, "standard input is a terminal: refusing to read a binary image (allowed: -i FILE, or redirect from a file or pipe)");
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, f.path);
	ret = read_image(c, in, op, &img, &len);
	ret = ret ?: fpath_open(c, &f);
	ret = ret ?: fpath_type_ok(c, &f, img, op);
	if (!ret) {
		ret = fpath_load(&f, img, len);
		ret = ret ? xdp_fail(c, ret, "%s", op) : KBCTL_OK;
	}
	fpath_close(&f);
	free(img);
	return ret;
}

static int cmd_save(struct ctl *c, int argc, char **argv)
{
	const char *out = c->val[CO_OUTPUT];
	char op[PATH_MAX + 16];
	struct fpath f;
	void *img = NULL;
	size_t len;
	int ret;

	ret = fpath_parse(c, argv[0], &f);
	if (ret)
		return ret;
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, f.path);
	ret = fpath_open(c, &f);
	if (ret)
		goto out;
	ret = fpath_save(&f, &img, &len);
	if (ret) {
		ret = xdp_fail(c, ret, "%s", op);
		goto out;
	}
	ret = ctl_out_image(c, op, out, img, len);
out:
	free(img);
	fpath_close(&f);
	return ret;
}

/* ---- dump, stat, test -------------------------------------------------------- */

static int map_ids(const char *path, __u32 *id, char *name, size_t len)
{
	struct bpf_map_info info = {};
	__u32 il = sizeof(info);
	int fd = bpf_obj_get(path), ret;

	if (fd < 0)
		return -errno;
	ret = bpf_obj_get_info_by_fd(fd, &info, &il) ? -errno : 0;
	close(fd);
	if (!ret) {
		*id = info.id;
		snprintf(name, len, "%s", info.name);
	}
	return ret;
}

static void params_text(const struct fpath *f,
			const struct kbloom_xdp_filter_info *fi, __u32 map_id,
			const char *map_name)
{
	char a[32], b[32];

	printf("filter:       %s\n", f->path);
	printf("instance:     %s (%s), filter id %u%s\n", f->name,
	       xdp_kind_name(f->kind), f->id,
	       f->kind == XK_MCAST ? " (port ifindex)" : "");
	printf("map:          id %u, name %s, %u blocks of 64 bytes\n", map_id,
	       map_name, fi->params.nblocks);
	printf("type:         blocked, layout %u, slot %u, generation %llu\n",
	       fi->params.version, fi->params.slot,
	       (unsigned long long)fi->params.gen);
	printf("hash:         %s, seed 0x%016llx\n",
	       hash_name(fi->params.hash_id),
	       (unsigned long long)fi->params.seed);
	printf("m:            %llu bits\nk:            %u\n",
	       (unsigned long long)fi->m, fi->params.k);
	fmt_size(a, sizeof(a), fi->m / 8);
	printf("bytes:        %s\n", a);
	if (fi->params.capacity) {
		fmt_prob(a, sizeof(a), fi->params.fpr_pico);
		printf("capacity:     %llu keys at fpr %s\n",
		       (unsigned long long)fi->params.capacity, a);
	} else {
		printf("capacity:     none (built from bits and hashes)\n");
	}
	printf("inserted:     %llu\n", (unsigned long long)fi->params.inserted);
	printf("occupancy:    %.2f%% (%llu bits set)\n",
	       fi->occupancy_ppm / 1e4, (unsigned long long)fi->ones);
	printf("n_est:        %llu\n", (unsigned long long)fi->n_est);
	fmt_fpr_now(a, sizeof(a), fi->fpr_now_pico, fi->params.inserted);
	if (fi->params.capacity) {
		fmt_prob(b, sizeof(b), fi->params.fpr_pico);
		printf("fpr:          %s now, target %s%s\n", a, b,
		       fi->fpr_now_pico > fi->params.fpr_pico ?
		       " (above target: over capacity)" : "");
	} else {
		printf("fpr:          %s now, no target\n", a);
	}
}

static void params_json(struct json *j, const struct fpath *f,
			const struct kbloom_xdp_filter_info *fi,
			__u32 map_id, const char *map_name)
{
	char seed[24];

	json_kstr(j, "path", f->path);
	json_kstr(j, "instance", f->name);
	json_kstr(j, "kind", xdp_kind_name(f->kind));
	json_ku64(j, "id", f->id);
	json_ku64(j, "map_id", map_id);
	json_kstr(j, "map_name", map_name);
	json_kstr(j, "type", "blocked");
	json_ku64(j, "layout", fi->params.version);
	json_kstr(j, "hash", hash_name(fi->params.hash_id));
	snprintf(seed, sizeof(seed), "0x%016llx",
		 (unsigned long long)fi->params.seed);
	json_kstr(j, "seed", seed);
	json_ku64(j, "m", fi->m);
	json_ku64(j, "k", fi->params.k);
	json_ku64(j, "nblocks", fi->params.nblocks);
	json_ku64(j, "bytes", fi->m / 8);
	json_ku64(j, "slot", fi->params.slot);
	json_ku64(j, "generation", fi->params.gen);
	json_ku64(j, "capacity", fi->params.capacity);
	json_key(j, "fpr_target");
	if (fi->params.capacity)
		json_double(j, pico_to_double(fi->params.fpr_pico));
	else
		json_null(j);
	json_ku64(j, "inserted", fi->params.inserted);
	json_ku64(j, "ones", fi->ones);
	json_kdouble(j, "occupancy", fi->occupancy_ppm / 1e6);
	json_ku64(j, "n_est", fi->n_est);
	json_kdouble(j, "fpr_now", pico_to_double(fi->fpr_now_pico));
}

/* Parameters and statistics; with @blocks, the blocks too. */
static int show(struct ctl *c, int argc, char **argv, bool blocks)
{
	struct kbloom_xdp_filter_info fi;
	char map_name[BPF_OBJ_NAME_LEN] = "?", hex[20];
	__u32 map_id = 0;
	__u64 b, w, word;
	struct fpath f;
	void *img = NULL;
	const __u8 *pay;
	size_t len;
	struct json j;
	int ret;

	ret = fpath_parse(c, argv[0], &f);
	ret = ret ?: fpath_open(c, &f);
	if (ret)
		goto out;
	ret = kbloom_xdp_filter_info(f.x, f.id, &fi);
	if (!ret && blocks)
		ret = kbloom_xdp_filter_save_image(f.x, f.id, &img, &len);
	if (ret) {
		ret = xdp_fail(c, ret, "%s %s", c->cmd_path, f.path);
		goto out;
	}
	map_ids(f.path, &map_id, map_name, sizeof(map_name));
	if (ctl_quiet(c))
		goto out;
	if (c->set[CO_JSON]) {
		json_init(&j, stdout);
		json_obj(&j);
		params_json(&j, &f, &fi, map_id, map_name);
	} else {
		params_text(&f, &fi, map_id, map_name);
	}
	pay = (const __u8 *)img + KBLOOM_IMAGE_HDR_LEN;
	if (blocks && c->set[CO_JSON]) {
		json_key(&j, "blocks");
		json_arr(&j);
	}
	for (b = 0; blocks && b < fi.params.nblocks; b++) {
		if (c->set[CO_JSON])
			json_arr(&j);
		else
			printf("block %6llu:", (unsigned long long)b);
		for (w = 0; w < KBLOOM_BLOCK_WORDS; w++) {
			memcpy(&word, pay + (b * KBLOOM_BLOCK_WORDS + w) * 8, 8);
			word = kb_le64(word);
			if (c->set[CO_JSON]) {
				snprintf(hex, sizeof(hex), "0x%016llx",
					 (unsigned long long)word);
				json_str(&j, hex);
			} else {
				printf(" %016llx", (unsigned long long)word);
			}
		}
		if (c->set[CO_JSON])
			json_arr_end(&j);
		else
			printf("\n");
	}
	if (c->set[CO_JSON]) {
		if (blocks)
			json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
	ret = ctl_flush_stdout(c);
out:
	free(img);
	fpath_close(&f);
	return ret;
}

static int cmd_dump(struct ctl *c, int argc, char **argv)
{
	return show(c, argc, argv, true);
}

static int cmd_stat(struct ctl *c, int argc, char **argv)
{
	return show(c, argc, argv, false);
}

static int fpath_test(struct fpath *f, const __u8 *key, __u32 len)
{
	if (f->type == KBLOOM_TYPE_CUCKOO)
		return kbloom_xdp_cuckoo_test(f->x, f->id, key, len);
	if (f->type == KBLOOM_TYPE_DELETABLE)
		return kbloom_xdp_del_test(f->x, f->id, key, len);
	return kbloom_xdp_filter_test(f->x, f->id, key, len);
}

static int cmd_test(struct ctl *c, int argc, char **argv)
{
	struct key_iter it = { 0 };
	const __u8 *key;
	struct keyset ks = { 0 };
	struct fpath f;
	__u64 hits = 0, i = 0;
	__u8 *res = NULL;
	char text[272];
	struct json j;
	__u32 len;
	int ret, r;

	/* an mcast port's or a gate's filter holds addresses */
	if (!c->set[CO_KEY])
		c->key_enc = KENC_ADDR;
	ret = fpath_parse(c, argv[0], &f);
	ret = ret ?: keys_collect(c, argc - 1, argv + 1, &ks);
	if (ret)
		goto out;
	res = calloc(1, ks.count + 1);
	if (!res) {
		ret = ctl_syserr(c, ENOMEM, NULL, "%s", c->cmd_path);
		goto out;
	}
	ret = fpath_open(c, &f);
	if (ret)
		goto out;
	while (keys_next(&ks, &it, &key, &len)) {
		r = fpath_test(&f, key, len);
		if (r < 0) {
			ret = xdp_fail(c, r, "%s %s", c->cmd_path, f.path);
			goto out;
		}
		res[i++] = (__u8)r;
		hits += r;
	}
	if (!ctl_quiet(c)) {
		if (c->set[CO_JSON]) {
			json_init(&j, stdout);
			json_obj(&j);
			json_kstr(&j, "filter", f.path);
			json_ku64(&j, "tested", ks.count);
			json_ku64(&j, "present", hits);
			json_ku64(&j, "absent", ks.count - hits);
			json_key(&j, "keys");
			json_arr(&j);
		}
		memset(&it, 0, sizeof(it));
		for (i = 0; keys_next(&ks, &it, &key, &len); i++) {
			key_render(ks.enc, key, len, text, sizeof(text));
			if (!c->set[CO_JSON]) {
				printf("%s: %s\n", text, res[i] ?
				       "possibly present" : "definitely absent");
				continue;
			}
			json_obj(&j);
			json_kstr(&j, "key", text);
			json_kbool(&j, "present", res[i]);
			json_obj_end(&j);
		}
		if (c->set[CO_JSON]) {
			json_arr_end(&j);
			json_obj_end(&j);
			json_end(&j);
		}
		ret = ctl_flush_stdout(c);
		if (ret)
			goto out;
	}
	ret = hits == ks.count ? KBCTL_OK : KBCTL_ABSENT;
out:
	free(res);
	keys_free(&ks);
	fpath_close(&f);
	return ret;
}

/* ---- the table ---------------------------------------------------------------- */

static const struct ctl_cmd map_sub[] = {
	{
		.name = "load",
		.synopsis = "PATH [-i FILE|-]",
		.summary = "load a saved image into a pinned filter, swapped in whole",
		.help =
"PATH is a pinned filter, /sys/fs/bpf/kbloom/NAME/filter_ID (ID: the port's\n"
"ifindex for mcast, 0 for a gate).  The input (standard input or FILE)\n"
"must hold one verified image of a blocked filter, from kbloomctl save\n"
"(the module), libkbloom or map save; the filters of an instance made\n"
"with filter cuckoo take a cuckoo filter's version-3 image instead, and\n"
"the port filters of a switch made with filter deletable a deletable\n"
"filter's (its set's addresses or the port's groups that the image lacks\n"
"are added to it before the swap).  The filter takes the image's\n"
"geometry, hash, seed and bits; a new blocks map is filled and published\n"
"in one update, so every packet sees the old filter or the new one.  The\n"
"exact maps are not changed: a gate still confirms every hit in its set,\n"
"and an mcast port's filter is rebuilt from its memberships by its next\n"
"leave.\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_INPUT),
		.run = cmd_load,
	},
	{
		.name = "save",
		.synopsis = "PATH [-o FILE|-]",
		.summary = "write a pinned filter's image",
		.help =
"The image restores into the module (kbloomctl restore), into libkbloom\n"
"and into another pinned filter (map load).  Output goes to standard\n"
"output (never a terminal) or to FILE, written atomically.\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_OUTPUT),
		.run = cmd_save,
	},
	{
		.name = "dump",
		.synopsis = "PATH",
		.summary = "a pinned filter's parameters and blocks (8 words of 64 bits each)",
		.help =
"The parameters as the programs see them (struct kbloom_params: type,\n"
"layout, k, hash, seed, blocks, slot, generation, inserted, capacity),\n"
"the statistics of map stat, then each 512-bit block as eight 64-bit\n"
"words in hex, word w holding bits 64w..64w+63 of the block (with -j,\n"
"words as \"0x...\" strings).\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_dump,
	},
	{
		.name = "stat",
		.synopsis = "PATH",
		.summary = "a pinned filter's statistics: occupancy, n_est, fpr_now",
		.help =
"Geometry, hash and seed, the map's id and name (for bpftool), keys\n"
"inserted, occupancy (fraction of one bits), n_est = -(m/k) ln(1 -\n"
"occupancy) and the false-positive rate predicted now against the target.\n",
		.min_args = 1,
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stat,
	},
	{
		.name = "test",
		.synopsis = "PATH KEY... | PATH -f FILE | PATH -",
		.summary = "test keys against a pinned filter: exit 0 if all possibly present",
		.help =
"Keys as for the module's test, but addresses by default: the filter of\n"
"a gate or of an mcast port holds IPv4 or IPv6 addresses (--key addr;\n"
"--key str|hex|ipv4|ipv6|u64 as for the module).  Exit\n"
"status 0 when every key is possibly present, 1 when any is definitely\n"
"absent.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = CTL_OPT(CO_KEY) | CTL_OPT(CO_FILE) | CTL_OPT(CO_JSON),
		.run = cmd_test,
	},
	{ 0 }
};

const struct ctl_cmd map_cmds[] = {
	{
		.name = "map",
		.synopsis = "load|save|dump|stat|test PATH ...",
		.summary = "a pinned BPF filter: load or save an image, dump, stat, test",
		.sub = map_sub,
	},
	{ 0 }
};
