// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: the filters of /dev/kbloom: create, destroy, flush, add, del,
 * test, list, stat.  (save and restore are in image.c.)
 *
 * Each handler parses and checks all of its arguments first and opens the
 * device only then, so a usage error changes nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"
#include "uapi/kbloom_plan.h"

static const char *const type_words[] = { "counting", "blocked", "standard",
					   NULL };
static const __u32 type_ids[] = { KBLOOM_TYPE_COUNTING, KBLOOM_TYPE_BLOCKED,
				  KBLOOM_TYPE_STANDARD };

/* A hint for the errno of a command on filter @name. */
static const char *err_hint(int err, const char *name, char *buf, size_t len)
{
	switch (-err) {
	case ENOENT:
		if (!name)
			return NULL;
		snprintf(buf, len, "no filter named %s", name);
		return buf;
	case EPERM:
		return "needs CAP_NET_ADMIN";
	case E2BIG:
		return "larger than the module's max_filter_bytes or 2^32 bits";
	case ENOSPC:
		return "the module's max_filters or max_total_bytes is reached";
	case EOPNOTSUPP:
		return NULL;
	}
	return NULL;
}

static int op_err(struct ctl *c, int err, const char *name, const char *extra)
{
	char hint[96], both[192];
	const char *h = err_hint(err, name, hint, sizeof(hint));

	if (extra && !*extra)
		extra = NULL;
	if (extra && h) {
		snprintf(both, sizeof(both), "%s; %s", h, extra);
		h = both;
	} else if (extra) {
		h = extra;
	}
	if (name)
		return ctl_syserr(c, err, h, "%s %s", c->cmd_path, name);
	return ctl_syserr(c, err, h, "%s", c->cmd_path);
}

/* --- create ------------------------------------------------------------- */

static const char *const hash_words[] = { "siphash", "fast", "siphash13",
					   NULL };
static const __u32 hash_ids[] = { KBLOOM_HASH_SIPHASH13, KBLOOM_HASH_FAST,
				  KBLOOM_HASH_SIPHASH13 };

static int kw_counter_bits(const struct ctl *c, const struct kw *k,
			   const char *v, void *field)
{
	if (strcmp(v, "4") && strcmp(v, "8"))
		return ctl_usage(c, "counter-bits '%s': not a counter width (allowed: 4 or 8)",
				 v);
	*(__u32 *)field = (__u32)atoi(v);
	return 0;
}

#define CR(_n, _a, _t, _m, ...)					\
	KW(_n, _a, _t, struct kbloom_create, _m, __VA_ARGS__)

static const struct kw create_kw[] = {
	CR("capacity", "N", KWT_U64, capacity, .min = 1,
	   .max = KBLOOM_M_MAX, .extra = "keys expected"),
	CR("fpr", "P", KWT_PROB, fpr_pico),
	CR("bits", "M", KWT_U64, m, .min = KBLOOM_M_MIN, .max = KBLOOM_M_MAX,
	   .extra = "a multiple of 512 for blocked, of 64 otherwise"),
	CR("hashes", "K", KWT_U32, k, .min = KBLOOM_K_MIN,
	   .max = KBLOOM_K_MAX),
	CR("counter-bits", "4|8", KWT_FN, counter_bits,
	   .parse = kw_counter_bits),
	CR("hash", "siphash|fast", KWT_ENUM, hash_id, .words = hash_words,
	   .vals = hash_ids),
	CR("seed", "S", KWT_U64, seed, .min = 0, .max = ~0ULL,
	   .extra = "decimal or 0x hex"),
	{ 0 }
};

static const struct kw_table create_table = {
	.kw = create_kw,
	.sep = "|",
	.missing_hint = "value (see " KBCTL_NAME " create --help)",
	.any_value = true,
};

/* Size and counter width: consistent, and sizable by the planner. */
static int create_check(struct ctl *c, struct kbloom_create *cr, __u64 given)
{
	bool cap = kw_has(&create_table, given, "capacity");
	bool fpr = kw_has(&create_table, given, "fpr");
	bool bits = kw_has(&create_table, given, "bits");
	bool hashes = kw_has(&create_table, given, "hashes");
	bool planned = cap || fpr, explicit = bits || hashes;
	__u64 step = cr->type == KBLOOM_TYPE_BLOCKED ? 512 : 64;
	struct kb_plan plan;
	char p[32];
	int ret;

	if (planned && explicit)
		return ctl_usage(c, "%s: not with %s (allowed: capacity N fpr P, or bits M hashes K)",
				 bits ? "bits" : "hashes", cap ? "capacity" : "fpr");
	if (!planned && !explicit)
		return ctl_usage(c, "missing size (allowed: capacity N fpr P, or bits M hashes K)");
	if (planned && !(cap && fpr))
		return ctl_usage(c, "%s: needs %s too (allowed: capacity N fpr P)",
				 cap ? "capacity" : "fpr",
				 cap ? "fpr P" : "capacity N");
	if (explicit && !(bits && hashes))
		return ctl_usage(c, "%s: needs %s too (allowed: bits M hashes K)",
				 bits ? "bits" : "hashes",
				 bits ? "hashes K" : "bits M");
	if (kw_has(&create_table, given, "counter-bits") &&
	    cr->type != KBLOOM_TYPE_COUNTING)
		return ctl_usage(c, "counter-bits: only for counting filters (this one is %s)",
				 type_name(cr->type));
	if (explicit && cr->m % step)
		return ctl_usage(c, "bits '%llu': not a multiple of %llu (allowed: a multiple of %llu for %s filters, %llu..%llu)",
				 (unsigned long long)cr->m,
				 (unsigned long long)step,
				 (unsigned long long)step,
				 type_name(cr->type),
				 (unsigned long long)KBLOOM_M_MIN,
				 (unsigned long long)KBLOOM_M_MAX);
	if (!planned)
		return 0;
	ret = kb_plan(cr->type, cr->capacity, cr->fpr_pico, cr->counter_bits,
		      &plan);
	if (ret) {
		fmt_prob(p, sizeof(p), cr->fpr_pico);
		return ctl_usage(c, "capacity %llu fpr %s: %s (allowed: a filter of at most %llu %s; lower the capacity or raise fpr)",
				 (unsigned long long)cr->capacity, p,
				 ret == -E2BIG ? "too big" : "cannot be planned",
				 (unsigned long long)KBLOOM_M_MAX,
				 cr->type == KBLOOM_TYPE_COUNTING ? "counters" :
								    "bits");
	}
	return 0;
}

static int cmd_create(struct ctl *c, int argc, char **argv)
{
	struct kbloom_create cr = { 0 };
	char words[96];
	__u64 given;
	int t, ret;

	ret = arg_name(c, "NAME", argv[0]);
	if (ret)
		return ret;
	if (!strcmp(argv[1], "cuckoo"))
		return cuckoo_create(c, argc, argv);
	if (!strcmp(argv[1], "dleft"))
		return dleft_create(c, argc, argv);
	if (!strcmp(argv[1], "countmin"))
		return countmin_create(c, argc, argv);
	if (!strcmp(argv[1], "partitioned"))
		return partitioned_create(c, argc, argv);
	if (!strcmp(argv[1], "deletable"))
		return deletable_create(c, argc, argv);
	if (!strcmp(argv[1], "scalable") || !strcmp(argv[1], "dynamic"))
		return scalable_create(c, argc, argv);
	if (!strcmp(argv[1], "stable"))
		return stable_create(c, argc, argv);
	if (!strcmp(argv[1], "window"))
		return window_create(c, argc, argv);
	memcpy(cr.name, argv[0], strlen(argv[0]));
	t = arg_pick(argv[1], type_words);
	if (t < 0) {
		arg_words(words, sizeof(words), type_words);
		return ctl_usage(c, "TYPE '%s': unknown (allowed: %s)",
				 argv[1], words);
	}
	cr.type = type_ids[t];
	ret = kw_parse(c, &create_table, argc - 2, argv + 2, &cr, &given);
	ret = ret ?: create_check(c, &cr, given);
	if (ret)
		return ret;
	if (kw_has(&create_table, given, "seed"))
		cr.flags |= KBLOOM_CREATE_SEED;
	if (c->set[CO_EXIST])
		cr.flags |= KBLOOM_CREATE_EXIST;
	ret = ctl_dev(c);
	if (ret)
		return ret;
	ret = kbloom_dev_create(c->dev_fd, &cr);
	if (ret)
		return op_err(c, ret, argv[0], ret == -EEXIST ?
			      create_exist_hint(c) : NULL);
	return KBCTL_OK;
}

/* --- destroy, flush -------------------------------------------------------- */

static int name_op(struct ctl *c, int argc, char **argv,
		   int (*fn)(int, const char *))
{
	const char *name = argc ? argv[0] : NULL;
	int ret;

	if (name) {
		ret = arg_name(c, "NAME", name);
		if (ret)
			return ret;
	}
	ret = ctl_dev(c);
	if (ret)
		return ret;
	ret = fn(c->dev_fd, name);
	if (ret == -ENOENT && c->set[CO_EXIST])
		ret = 0;
	return ret ? op_err(c, ret, name, NULL) : KBCTL_OK;
}

static int cmd_destroy(struct ctl *c, int argc, char **argv)
{
	return name_op(c, argc, argv, kbloom_dev_destroy);
}

static int cmd_flush(struct ctl *c, int argc, char **argv)
{
	return name_op(c, argc, argv, kbloom_dev_flush);
}

/* --- add, del, test ------------------------------------------------------- */

static void test_print(struct ctl *c, const struct keyset *ks,
		       const __u8 *res, const char *name, __u64 hits)
{
	struct key_iter it = { 0 };
	const __u8 *key;
	struct json j;
	char text[272];
	__u64 i = 0;
	__u32 len;
	bool in;

	if (c->set[CO_JSON]) {
		json_init(&j, stdout);
		json_obj(&j);
		json_kstr(&j, "filter", name);
		json_ku64(&j, "tested", ks->count);
		json_ku64(&j, "present", hits);
		json_ku64(&j, "absent", ks->count - hits);
		json_key(&j, "keys");
		json_arr(&j);
	}
	while (keys_next(ks, &it, &key, &len)) {
		in = res[i / 8] & (1U << (i % 8));
		i++;
		key_render(ks->enc, key, len, text, sizeof(text));
		if (!c->set[CO_JSON]) {
			printf("%s: %s\n", text, in ? "possibly present" :
						     "definitely absent");
			continue;
		}
		json_obj(&j);
		json_kstr(&j, "key", text);
		json_kbool(&j, "present", in);
		json_obj_end(&j);
	}
	if (c->set[CO_JSON]) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
}

static int keys_cmd(struct ctl *c, int argc, char **argv, unsigned long req)
{
	struct kbloom_dev_batch b = { 0 };
	struct progress pg;
	struct keyset ks;
	const char *name = argv[0];
	char detail[128];
	__u8 *res = NULL;
	long ret;
	int rc;

	rc = arg_name(c, "NAME", name);
	if (rc)
		return rc;
	rc = keys_collect(c, argc - 1, argv + 1, &ks);
	if (rc)
		goto out;
	/* TEST: present keys; ADD -j: new keys */
	if (req == KBLOOM_IOCTL_TEST ||
	    (req == KBLOOM_IOCTL_ADD && c->set[CO_JSON])) {
		res = calloc(1, ks.count / 8 + 1);
		if (!res) {
			rc = op_err(c, -ENOMEM, name, NULL);
			goto out;
		}
	}
	rc = ctl_dev(c);
	if (rc)
		goto out;
	snprintf(detail, sizeof(detail), "%s %s", c->cmd_path, name);
	progress_start(c, &pg, detail, ks.count, false);
	b.progress = progress_cb;
	b.progress_arg = &pg;
	if (req == KBLOOM_IOCTL_ADD && res)
		ret = kbloom_dev_add_batch_new(c->dev_fd, name, ks.buf, ks.len,
					       ks.key_len, ks.count, res, &b);
	else if (req == KBLOOM_IOCTL_ADD)
		ret = kbloom_dev_add_batch(c->dev_fd, name, ks.buf, ks.len,
					   ks.key_len, ks.count, &b);
	else if (req == KBLOOM_IOCTL_DEL)
		ret = kbloom_dev_del_batch(c->dev_fd, name, ks.buf, ks.len,
					   ks.key_len, ks.count, &b);
	else
		ret = kbloom_dev_test_batch(c->dev_fd, name, ks.buf, ks.len,
					    ks.key_len, ks.count, res, &b);
	if (ret < 0) {
		progress_fail(&pg);
		detail[0] = 0;
		if (b.done && req != KBLOOM_IOCTL_TEST)
			snprintf(detail, sizeof(detail),
				 "%llu of %llu keys applied",
				 (unsigned long long)b.done,
				 (unsigned long long)ks.count);
		else if (req != KBLOOM_IOCTL_TEST)
			snprintf(detail, sizeof(detail), "nothing applied");
		if (ret == -EOPNOTSUPP && req == KBLOOM_IOCTL_DEL)
			snprintf(detail, sizeof(detail),
				 "only counting filters delete; nothing applied");
		if (ret == -ENOTUNIQ && req == KBLOOM_IOCTL_DEL)
			snprintf(detail, sizeof(detail),
				 "a key in several generations (dynamic) or in collided regions (deletable) is refused; %llu of %llu deleted before it",
				 (unsigned long long)b.done,
				 (unsigned long long)ks.count);
		if (ret == -ENOSPC && req == KBLOOM_IOCTL_ADD)	/* cuckoo */
			rc = ctl_syserr(c, (int)ret, detail,
					"add %s: the filter is full", name);
		else
			rc = op_err(c, (int)ret, name, detail);
		goto out;
	}
	progress_end(&pg);
	rc = KBCTL_OK;
	if (req == KBLOOM_IOCTL_TEST) {
		if (!ctl_quiet(c)) {
			test_print(c, &ks, res, name, b.hits);
			rc = ctl_flush_stdout(c);
		}
		if (!rc && b.hits < ks.count)
			rc = KBCTL_ABSENT;
	} else if (req == KBLOOM_IOCTL_ADD) {
		rc = add_report(c, &ks, res, name, b.done);
	} else if (req == KBLOOM_IOCTL_DEL && b.hits && !c->set[CO_EXIST]) {
		ctl_warn(c, "del %s: %llu of %llu keys definitely absent, not deleted (-exist ignores them)",
			 name, (unsigned long long)b.hits,
			 (unsigned long long)ks.count);
		rc = KBCTL_ABSENT;
	}
out:
	free(res);
	keys_free(&ks);
	return rc;
}

static int cmd_add(struct ctl *c, int argc, char **argv)
{
	return keys_cmd(c, argc, argv, KBLOOM_IOCTL_ADD);
}

static int cmd_del(struct ctl *c, int argc, char **argv)
{
	return keys_cmd(c, argc, argv, KBLOOM_IOCTL_DEL);
}

static int cmd_test(struct ctl *c, int argc, char **argv)
{
	return keys_cmd(c, argc, argv, KBLOOM_IOCTL_TEST);
}

/* --- list, stat ---------------------------------------------------------- */

static void occupancy(char *buf, size_t len, __u64 ppm)
{
	snprintf(buf, len, "%.2f%%", ppm / 10000.0);
}

static void list_row(struct ctl *c, struct json *j, int w, const char *name,
		     const struct kbloom_stat *st)
{
	if (c->set[CO_JSON]) {
		json_obj(j);
		json_kstr(j, "name", name);
		json_ku64(j, "id", st->id);
		json_kstr(j, "type", type_name(st->type));
		json_ku64(j, "m", st->m);
		json_ku64(j, "k", st->k);
		json_ku64(j, "bytes", st->bytes);
		json_ku64(j, "inserted", st->inserted);
		json_obj_end(j);
		return;
	}
	printf("%-*s %-8s %5u %10llu %3u %10llu %10llu\n", w, name,
	       type_name(st->type), st->id, (unsigned long long)st->m, st->k,
	       (unsigned long long)st->bytes,
	       (unsigned long long)st->inserted);
}

/*
 * The stats of the @n filters of @e into @st, before anything is printed;
 * a filter destroyed since the list is dropped (unless @named).
 */
static int list_stats(struct ctl *c, struct kbloom_list_entry *e, __u32 *n,
		      struct kbloom_stat *st, bool named)
{
	__u32 i, kept = 0;
	int ret;

	for (i = 0; i < *n; i++) {
		ret = kbloom_dev_stat(c->dev_fd, e[i].name, &st[kept]);
		if (ret == -ENOENT && !named)
			continue;	/* destroyed meanwhile */
		if (ret)
			return op_err(c, ret, e[i].name, NULL);
		e[kept++] = e[i];
	}
	*n = kept;
	return 0;
}

/* The table (or -j array) of @n filters; -n: their names only */
static void list_print(struct ctl *c, const struct kbloom_list_entry *e,
		       const struct kbloom_stat *st, __u32 n)
{
	bool names = c->set[CO_NAMES];
	struct json j;
	int w = 4;
	__u32 i;

	if (c->set[CO_JSON]) {
		json_init(&j, stdout);
		json_arr(&j);
	} else if (!ctl_quiet(c) && n && !names) {
		for (i = 0; i < n; i++)
			if ((int)strlen(e[i].name) > w)
				w = strlen(e[i].name);
		printf("%-*s %-8s %5s %10s %3s %10s %10s\n", w, "NAME", "TYPE",
		       "ID", "M", "K", "BYTES", "INSERTED");
	}
	for (i = 0; i < n && !ctl_quiet(c); i++) {
		if (names && c->set[CO_JSON])
			json_str(&j, e[i].name);
		else if (names)
			printf("%s\n", e[i].name);
		else
			list_row(c, &j, w, e[i].name, &st[i]);
	}
	if (c->set[CO_JSON]) {
		json_arr_end(&j);
		json_end(&j);
	}
}

static int cmd_list(struct ctl *c, int argc, char **argv)
{
	struct kbloom_list_entry *e = NULL, one = { 0 };
	struct kbloom_stat *st = NULL;
	__u32 n = 1;
	int ret;

	if (argc) {
		ret = arg_name(c, "NAME", argv[0]);
		if (ret)
			return ret;
		memcpy(one.name, argv[0], strlen(argv[0]));
		e = &one;
	}
	ret = ctl_dev(c);
	if (ret)
		return ret;
	if (!argc) {
		ret = kbloom_dev_list_alloc(c->dev_fd, &e, &n);
		if (ret)
			return op_err(c, ret, NULL, NULL);
	}
	st = calloc(n ? n : 1, sizeof(*st));
	if (!st) {
		ret = op_err(c, -ENOMEM, NULL, NULL);
		goto out;
	}
	ret = list_stats(c, e, &n, st, argc);
	if (ret)
		goto out;
	list_print(c, e, st, n);
	ret = ctl_flush_stdout(c);
out:
	free(st);
	if (e != &one)
		free(e);
	return ret;
}

static void stat_json(struct ctl *c, const char *name,
		      const struct kbloom_stat *st)
{
	struct json j;
	char seed[24];

	json_init(&j, stdout);
	json_obj(&j);
	json_kstr(&j, "name", name);
	json_ku64(&j, "id", st->id);
	json_kstr(&j, "type", type_name(st->type));
	json_ku64(&j, "counter_bits", st->counter_bits);
	json_kstr(&j, "hash", hash_name(st->hash_id));
	snprintf(seed, sizeof(seed), "0x%016llx", (unsigned long long)st->seed);
	json_kstr(&j, "seed", seed);
	json_ku64(&j, "m", st->m);
	json_ku64(&j, "k", st->k);
	json_ku64(&j, "bytes", st->bytes);
	json_ku64(&j, "capacity", st->capacity);
	json_key(&j, "fpr_target");
	if (st->capacity)
		json_double(&j, pico_to_double(st->fpr_pico));
	else
		json_null(&j);
	json_ku64(&j, "inserted", st->inserted);
	json_ku64(&j, "ones", st->ones);
	json_kdouble(&j, "occupancy", st->occupancy_ppm / 1e6);
	json_key(&j, "n_est");
	if (st->n_est == KB_N_EST_INF)
		json_null(&j);
	else
		json_u64(&j, st->n_est);
	json_ku64(&j, "saturations", st->saturations);
	json_kdouble(&j, "fpr_now", pico_to_double(st->fpr_now_pico));
	json_obj_end(&j);
	json_end(&j);
}

static void stat_text(const char *name, const struct kbloom_stat *st)
{
	bool ctr = st->type == KBLOOM_TYPE_COUNTING;
	char a[48], b[48];

	printf("name:         %s\nid:           %u\n", name, st->id);
	if (ctr)
		printf("type:         counting, %u-bit counters\n",
		       st->counter_bits);
	else
		printf("type:         %s\n", type_name(st->type));
	printf("hash:         %s, seed 0x%016llx\n", hash_name(st->hash_id),
	       (unsigned long long)st->seed);
	printf("m:            %llu %s\nk:            %u\n",
	       (unsigned long long)st->m, ctr ? "counters" : "bits", st->k);
	fmt_size(a, sizeof(a), st->bytes);
	printf("bytes:        %s\n", a);
	if (st->capacity) {
		fmt_prob(a, sizeof(a), st->fpr_pico);
		printf("capacity:     %llu keys at fpr %s\n",
		       (unsigned long long)st->capacity, a);
	} else {
		printf("capacity:     none (built from bits and hashes)\n");
	}
	occupancy(a, sizeof(a), st->occupancy_ppm);
	printf("inserted:     %llu\noccupancy:    %s (%llu %s set)\n",
	       (unsigned long long)st->inserted, a,
	       (unsigned long long)st->ones, ctr ? "counters" : "bits");
	if (st->n_est == KB_N_EST_INF)
		printf("n_est:        unbounded (the filter is full)\n");
	else
		printf("n_est:        %llu\n", (unsigned long long)st->n_est);
	printf("saturations:  %llu\n", (unsigned long long)st->saturations);
	fmt_fpr_now(a, sizeof(a), st->fpr_now_pico, st->inserted);
	if (st->capacity) {
		fmt_prob(b, sizeof(b), st->fpr_pico);
		printf("fpr:          %s now, target %s%s\n", a, b,
		       st->fpr_now_pico > st->fpr_pico ?
		       " (above target: over capacity)" : "");
	} else {
		printf("fpr:          %s now, no target\n", a);
	}
}

static int stat_device(struct ctl *c)
{
	struct kbloom_stat st;
	struct json j;
	char a[48];
	int ret = kbloom_dev_stat(c->dev_fd, NULL, &st);

	if (ret)
		return op_err(c, ret, NULL, NULL);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON]) {
		json_init(&j, stdout);
		json_obj(&j);
		json_ku64(&j, "filters", st.filters);
		json_ku64(&j, "bytes", st.bytes);
		json_obj_end(&j);
		json_end(&j);
	} else {
		fmt_size(a, sizeof(a), st.bytes);
		printf("filters:      %u\nbytes:        %s\n", st.filters, a);
	}
	return ctl_flush_stdout(c);
}

static int cmd_stat(struct ctl *c, int argc, char **argv)
{
	struct kbloom_stat st;
	int ret;

	if (argc) {
		ret = arg_name(c, "NAME", argv[0]);
		if (ret)
			return ret;
	}
	ret = ctl_dev(c);
	if (ret)
		return ret;
	if (!argc)
		return stat_device(c);
	ret = kbloom_dev_stat(c->dev_fd, argv[0], &st);
	if (ret)
		return op_err(c, ret, argv[0], NULL);
	if (ctl_quiet(c))
		return KBCTL_OK;
	if (c->set[CO_JSON])
		stat_json(c, argv[0], &st);
	else
		stat_text(argv[0], &st);
	if (!c->set[CO_JSON] && st.type == KBLOOM_TYPE_CUCKOO)
		cuckoo_stat_text(&st);
	if (!c->set[CO_JSON] && st.type == KBLOOM_TYPE_PARTITIONED)
		partitioned_stat_text(&st);
	if (!c->set[CO_JSON] && st.type == KBLOOM_TYPE_DELETABLE)
		deletable_stat_text(&st);
	if (!c->set[CO_JSON] && (st.type == KBLOOM_TYPE_SCALABLE ||
				 st.type == KBLOOM_TYPE_DYNAMIC))
		scalable_stat_text(c, argv[0], &st);
	if (!c->set[CO_JSON] && st.type == KBLOOM_TYPE_STABLE)
		stable_stat_text(&st);
	if (!c->set[CO_JSON] && st.type == KBLOOM_TYPE_AGE_PARTITIONED)
		window_stat_text(&st);
	if (!c->set[CO_JSON])
		sketches_stat_text(&st);
	return ctl_flush_stdout(c);
}

/* --- the table ------------------------------------------------------------ */

#define KEY_OPTS	(CTL_OPT(CO_KEY) | CTL_OPT(CO_FILE))

const struct ctl_cmd module_cmds[] = {
	{
		.name = "create",
		.synopsis = "NAME counting|blocked|standard (capacity N fpr P | bits M hashes K) [counter-bits 4|8] [hash siphash|fast] [seed S] | NAME cuckoo (capacity N fpr P | fp-bits F slots B buckets N) [seed S] | NAME dleft (capacity N fpr P | fp-bits R slots C tables D buckets B counter-bits W) [layout spread|lines] [seed S] | NAME countmin (epsilon E | width W) (delta X | rows D) [counter-bits 16|32] [update all|min-inc] [seed S] | NAME partitioned (capacity N fpr P | hashes K slice-bits S) [seed S] | NAME deletable (capacity N fpr P | bits M hashes K) [region-bits S] [seed S] | NAME scalable fpr P [capacity N] [growth S] [ratio R] [seed S] | NAME dynamic fpr P [capacity N] [counter-bits 4|8] [seed S] | NAME stable cells M [hashes K] [cell-bits 1|2|4|8] (decrement P | fpr P) [seed S] | NAME window (keys N | seconds T | milliseconds MS) (fpr P [capacity N] [hashes K] [extra-slices L] | hashes K extra-slices L slice-bits S) [seed S]",
		.summary = "create a filter",
		.help =
"NAME is 1..31 characters of A-Z a-z 0-9 _ . -.  The size comes from the\n"
"expected number of keys and the target false-positive rate (capacity N\n"
"fpr P; P as 0.01, 1% or 1e-4, within 1e-9..0.5; see 'plan'), or is given\n"
"as bits M (counters for counting filters; 64..2^32, a multiple of 512\n"
"for blocked, of 64 otherwise) and hashes K (1..32).\n"
"  counting   saturating counters, supports del (counter-bits 4, default, or 8)\n"
"  blocked    512-bit blocks, one cache line per key\n"
"  standard   flat bit array\n"
"  cuckoo     fingerprints in buckets, supports del and count at ~1/4 of\n"
"             counting's bytes (fp-bits 4..32, slots 1|2|4|8, buckets)\n"
"  dleft      d-left counting: fingerprint cells in d subtables, exact\n"
"             del and count (tables 2..8, slots 1..16 cells, buckets a\n"
"             power of two, fp-bits 4..32, counter-bits 2|4|8; planned:\n"
"             4 tables of 8 cells, 2-bit counters, 75% load; layout\n"
"             spread, the default, or lines: a key's buckets in two\n"
"             cache lines)\n"
"  countmin   Count-Min sketch: count gives a key's estimate, never below\n"
"             the truth (epsilon: error per event as a share of all\n"
"             events; delta: the chance of a larger error; counter-bits\n"
"             32 default; update all (deletable) or min-inc)\n"
"  partitioned k slices of S bits, one probe per slice (hashes K 1..32,\n"
"             slice-bits S a multiple of 64; planned: the standard\n"
"             filter's k, slices rounded up to whole words)\n"
"  deletable  a standard filter in regions of S bits (region-bits, a\n"
"             power of two, 4 default) with a collision bit per region:\n"
"             del clears a key's bits in collision-free regions and\n"
"             refuses a key with none (no counters; m / S extra bits)\n"
"  scalable   grows: generation i holds N s^i keys at P (1 - r) r^i in\n"
"             slices, the whole stays at or below P (capacity N of the\n"
"             first generation, 1024 default; growth S 1..16, 2 default;\n"
"             ratio R in (0, 1), 0.9 default)\n"
"  dynamic    deletable and growing: counting generations of N keys at\n"
"             P each (counter-bits 4 default); a del that matches several\n"
"             generations is refused, under-full ones are merged\n"
"  stable     M cells of 1, 2, 4 or 8 bits (Max = 2^bits - 1), k 3 by\n"
"             default; each add decrements P cells, then sets the key's\n"
"             k cells to Max: old keys fade (false negatives), the rate\n"
"             settles at the stable point; fpr P plans the least P for\n"
"             that rate.  The gate and mcast paths refuse it\n"
"  window     age-partitioned sliding window: a key tests present for at\n"
"             least its window (keys N: the last N keys; seconds T or\n"
"             milliseconds MS: the keys of the last T), then is forgotten;\n"
"             k + L slices, a new one per generation (hashes K 1..32,\n"
"             extra-slices L 1..32 generations in the window; fpr is the\n"
"             rate just before a rotation, planned for N keys or capacity\n"
"             N keys per time window, 100000 by default; the module's\n"
"             work item rotates time windows)\n"
"hash: fast (default) or siphash (keyed; use it for adversarial keys).\n"
"seed: the hash seed (decimal or 0x hex), random by default.\n"
"With -exist an existing filter of the same geometry is not an error.\n",
		.min_args = 2,
		.max_args = 16,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_create,
	},
	{
		.name = "destroy",
		.synopsis = "[NAME]",
		.summary = "destroy a filter, or every filter",
		.help =
"Without NAME every filter is destroyed (no question asked, as in ipset).\n"
"With -exist a missing filter is not an error.\n",
		.max_args = 1,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_destroy,
	},
	{
		.name = "add",
		.synopsis = "NAME KEY... | NAME -f FILE | NAME -",
		.summary = "add keys",
		.help =
"Keys are arguments, or lines of FILE, or of standard input (-f - or a\n"
"lone -), in the --key encoding: str (default: the bytes as given),\n"
"hex, ipv4, ipv6, u64 (8 bytes little-endian).  A key is 1..64 bytes.\n"
"Every key is parsed before any is added: a bad key (reported with its\n"
"line number) refuses the whole batch.  -j: per key, \"new\" when it was\n"
"definitely absent when the module inserted it (the answer of the add\n"
"itself; the second of equal keys is not new), as RedisBloom's BF.MADD.\n"
"Past a planned filter's capacity a warning says that its false-positive\n"
"target no longer holds (-q: not).\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = KEY_OPTS | CTL_OPT(CO_JSON),
		.run = cmd_add,
	},
	{
		.name = "del",
		.synopsis = "NAME KEY... | NAME -f FILE | NAME -",
		.summary = "delete keys from a counting filter",
		.help =
"Keys as for add.  A key that is definitely absent is skipped (deleting\n"
"it would corrupt the counters); then del says how many and exits 1,\n"
"unless -exist is given.\n"
"\n"
"A key that was never added but tests positive (a false positive) is\n"
"deleted all the same: its counters go down, and keys that share them\n"
"can then test absent (false negatives).  Inherent to counting filters;\n"
"measured in a loaded filter: 876 of 20,000 such deletes went through\n"
"and removed 1,548 of 2,000 real keys.  Delete only keys you added; when\n"
"callers cannot promise that, keep an exact set beside the filter and\n"
"delete from the filter only what the set held (as the gate does).\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = KEY_OPTS | CTL_OPT(CO_EXIST),
		.run = cmd_del,
	},
	{
		.name = "test",
		.synopsis = "NAME KEY... | NAME -f FILE | NAME -",
		.summary = "test keys: exit 0 if all possibly present, 1 if any absent",
		.help =
"Keys as for add.  Prints \"KEY: possibly present\" or \"KEY: definitely\n"
"absent\" per key (nothing with -q; JSON with -j).  Exit status 0 when\n"
"every key is possibly present, 1 when any is definitely absent.\n",
		.min_args = 1,
		.max_args = CTL_ARGS_ANY,
		.opts = KEY_OPTS | CTL_OPT(CO_JSON),
		.run = cmd_test,
	},
	{
		.name = "list",
		.synopsis = "[NAME] [-n]",
		.summary = "list the filters: name, type, id, m, k, bytes, inserted",
		.help =
"With -n only the names, one a line (-j: an array of strings), as ipset's\n"
"list -n.\n",
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON) | CTL_OPT(CO_NAMES),
		.run = cmd_list,
	},
	{
		.name = "stat",
		.synopsis = "[NAME]",
		.summary = "a filter's statistics (the device's without NAME)",
		.help =
"Type, hash and seed, m, k, memory, capacity and target, keys inserted,\n"
"occupancy (fraction of one bits or non-zero counters), the estimate\n"
"n_est = -(m/k) ln(1 - occupancy), saturated counter increments, and the\n"
"predicted false-positive rate now against the target.  Without NAME:\n"
"the number of filters and their memory.\n",
		.max_args = 1,
		.opts = CTL_OPT(CO_JSON),
		.run = cmd_stat,
	},
	{
		.name = "flush",
		.synopsis = "[NAME]",
		.summary = "clear a filter, or every filter",
		.help =
"Clears every bit or counter and the inserted and saturation counts.\n"
"With -exist a missing filter is not an error.\n",
		.max_args = 1,
		.opts = CTL_OPT(CO_EXIST),
		.run = cmd_flush,
	},
	{ 0 }
};
