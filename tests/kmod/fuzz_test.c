// SPDX-License-Identifier: GPL-2.0
/*
 * A random ioctl fuzzer for /dev/kbloom: at least 100000 calls
 * (KBLOOM_FUZZ_CALLS overrides) with random command numbers, sizes,
 * contents and pointers.  Most calls start from a valid command (a small
 * pool of names, so that filters exist, collide and disappear) and mutate
 * it; pointers are NULL, small, kernel, non-canonical, unmapped, read-only
 * or inside (and running off) a scratch arena, never into the fuzzer's own
 * state.  Afterwards: the device still works, the byte count is back to
 * zero once everything is destroyed, and the kernel log of the run has no
 * BUG, WARNING or Oops (the guest runner checks the same with slub_debug).
 *
 * SWAP and RENAME rebind names of the pool; ADD asks which keys were new.
 *
 * CREATE draws every type of enum kbloom_type (and values outside it) with
 * random geometry fields of the survey variants.  Of the CREATE calls left
 * well-formed (no mutation, exact size, valid pointer): a type outside the
 * enum is always EINVAL, and a type is either implemented (never
 * EOPNOTSUPP) or not (always EOPNOTSUPP, whatever its geometry).
 * Half the scalable and dynamic CREATEs are well-formed, so that their
 * generations grow under the key commands and their container images go
 * through SAVE and (mutated) RESTORE.
 */
#include <sys/klog.h>
#include <sys/mman.h>
#include "guest_harness.h"
#include "kmod_util.h"

#define ARENA_LEN	(8UL << 20)
#define OFF_KEYS	(64UL << 10)
#define OFF_RESULTS	(192UL << 10)
#define OFF_LIST	(256UL << 10)
#define OFF_IMAGE	(1UL << 20)
#define IMAGE_MAX	(ARENA_LEN - OFF_IMAGE)

struct fuzz {
	int fd;
	__u64 seed;
	__u8 *arena;		/* ARENA_LEN bytes, then a PROT_NONE page */
	__u8 *guard;
	__u8 *ro;		/* a read-only page */
	__u64 image_len;	/* a valid image at OFF_IMAGE, or 0 */
	__u64 calls;
	__u64 ok;
	__u64 errs[256];
	/* well-formed CREATEs per type (0: below, LAST + 1: above the enum) */
	__u64 unsupported[KBLOOM_TYPE_LAST + 2];
	__u64 answered[KBLOOM_TYPE_LAST + 2];
	__u64 bad_type_not_einval;
};

static const char *const fz_names[] = {
	"f0", "f1", "f2", "f3", "fuzz.a", "fuzz-b", "F_c", "9",
};

static const unsigned long fz_cmds[] = {
	KBLOOM_IOCTL_VERSION, KBLOOM_IOCTL_CREATE, KBLOOM_IOCTL_DESTROY,
	KBLOOM_IOCTL_ADD, KBLOOM_IOCTL_DEL, KBLOOM_IOCTL_TEST,
	KBLOOM_IOCTL_STAT, KBLOOM_IOCTL_LIST, KBLOOM_IOCTL_FLUSH,
	KBLOOM_IOCTL_SAVE, KBLOOM_IOCTL_RESTORE, KBLOOM_IOCTL_COUNT,
	KBLOOM_IOCTL_SWAP, KBLOOM_IOCTL_RENAME,
};

static const size_t fz_sizes[] = {
	sizeof(struct kbloom_version), sizeof(struct kbloom_create),
	sizeof(struct kbloom_name_op), sizeof(struct kbloom_keys),
	sizeof(struct kbloom_keys), sizeof(struct kbloom_keys),
	sizeof(struct kbloom_stat), sizeof(struct kbloom_list),
	sizeof(struct kbloom_name_op), sizeof(struct kbloom_image_op),
	sizeof(struct kbloom_image_op), sizeof(struct kbloom_keys),
	sizeof(struct kbloom_name_pair), sizeof(struct kbloom_name_pair),
};

static __u64 fz_rand(struct fuzz *z)
{
	return ku_rand(&z->seed);
}

static __u64 fz_below(struct fuzz *z, __u64 n)
{
	return ku_rand_below(&z->seed, n);
}

static int fz_chance(struct fuzz *z, unsigned int percent)
{
	return fz_below(z, 100) < percent;
}

static __u64 fz_interesting(struct fuzz *z)
{
	static const __u64 vals[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128,
		255, 256, 511, 512, 513, 4096, 65536, 1 << 20, 1 << 24,
		0x7fffffff, 0x80000000ULL, 0xffffffffULL, 1ULL << 32,
		(1ULL << 32) + 64, 1ULL << 63, ~0ULL, ~0ULL - 1,
		KBLOOM_BATCH_BYTES_MAX, KBLOOM_BATCH_KEYS_MAX,
		KBLOOM_P_TARGET_MIN, KBLOOM_P_TARGET_MAX, 10000000000ULL,
	};

	if (fz_chance(z, 20))
		return fz_rand(z);
	return vals[fz_below(z, ARRAY_LEN(vals))];
}

/* A pointer of a random kind; @valid is the well-formed choice. */
static __u64 fz_ptr(struct fuzz *z, void *valid)
{
	long pg = 4096;

	switch (fz_below(z, 12)) {
	case 0:
		return 0;
	case 1:
		return fz_below(z, 65536);
	case 2:
		return 0xffff888000000000ULL + fz_below(z, 1ULL << 30);
	case 3:
		return 0x8000000000000000ULL | fz_rand(z);
	case 4:
		return (uintptr_t)z->guard + fz_below(z, pg);
	case 5:
		return (uintptr_t)z->ro + fz_below(z, pg);
	case 6:
		return (uintptr_t)z->guard - 1 - fz_below(z, 256);
	case 7:
		return (uintptr_t)z->arena + OFF_KEYS + fz_below(z, OFF_IMAGE -
								  OFF_KEYS);
	default:
		return (uintptr_t)valid;
	}
}

static void fz_name(struct fuzz *z, char *dst)
{
	ku_name(dst, fz_names[fz_below(z, ARRAY_LEN(fz_names))]);
}

/*
 * Half the time a classic type (so that filters exist for the key and
 * image commands), else any type of the enum, sometimes one outside it.
 */
static __u32 fz_type(struct fuzz *z)
{
	if (fz_chance(z, 50))
		return KBLOOM_TYPE_STANDARD + fz_below(z, KBLOOM_TYPE_MAX);
	if (fz_chance(z, 10))
		return fz_chance(z, 50) ? 0 : KBLOOM_TYPE_LAST + 1 +
					       fz_below(z, 300);
	return KBLOOM_TYPE_STANDARD + fz_below(z, KBLOOM_TYPE_LAST);
}

/*
 * The survey variants' fields: near their ranges, sometimes anything; each
 * is left 0 three times in four, so that some geometries are valid.
 */
static void fz_geometry(struct fuzz *z, struct kbloom_create *c)
{
	static const __u32 widths[] = { 0, 2, 4, 6, 8, 16, 32 };

	c->counter_bits = widths[fz_below(z, ARRAY_LEN(widths))];
	if (fz_chance(z, 25))
		c->fp_bits = fz_below(z, 34);
	if (fz_chance(z, 25))
		c->slots = fz_below(z, 18);
	if (fz_chance(z, 25))
		c->tables = fz_below(z, 18);
	if (fz_chance(z, 50))
		c->vi_l = fz_below(z, 70);
	if (fz_chance(z, 25))
		c->update = fz_below(z, 4);
	if (fz_chance(z, 25))
		c->buckets = fz_chance(z, 50) ? 1ULL << fz_below(z, 34) :
						fz_interesting(z);
	if (fz_chance(z, 10))
		c->window = fz_interesting(z);
}

/* Count-Min: rows, columns, 16/32-bit counters, either update rule. */
static void fz_create_cm(struct fuzz *z, struct kbloom_create *c)
{
	c->tables = 1 + fz_below(z, KB_CM_ROWS_MAX);
	c->counter_bits = fz_chance(z, 50) ? 16 : 32;
	c->update = 1 + fz_below(z, 2);
	if (fz_chance(z, 50))
		c->fpr_pico = KBLOOM_P_TARGET_MIN + fz_below(z, 1ULL << 38);
	else
		c->buckets = KB_CM_WIDTH_MIN + fz_below(z, 1 << 16);
}

/*
 * Scalable and dynamic: (capacity, fpr), growth and ratio (scalable) or
 * counter width (dynamic) near their ranges, sometimes just past them.
 */
static void fz_create_sbf(struct fuzz *z, struct kbloom_create *c)
{
	c->capacity = 1 + fz_below(z, 5000);
	c->fpr_pico = KBLOOM_P_TARGET_MIN + fz_below(z, 1ULL << 38);
	if (c->type == KBLOOM_TYPE_DYNAMIC) {
		c->counter_bits = 4 * fz_below(z, 3);
		return;
	}
	c->tables = fz_below(z, 18);
	if (fz_chance(z, 50))
		c->buckets = fz_below(z, 1000001);
}

/*
 * A window: either clock, generations from 1 ms (time) or 1 key, explicit
 * slices or planned; the time windows' work items run while the fuzzer
 * creates, destroys and restores around them.
 */
static void fz_create_win(struct fuzz *z, struct kbloom_create *c)
{
	c->update = KB_WIN_CLOCK_KEYS + fz_below(z, 2);
	c->k = 1 + fz_below(z, 12);
	c->tables = 1 + fz_below(z, 8);
	c->window = c->update == KB_WIN_CLOCK_NS ?
		    c->tables * KB_WIN_GEN_NS_MIN * (1 + fz_below(z, 50)) :
		    1 + fz_below(z, 1 << 16);
	if (fz_chance(z, 50)) {
		c->buckets = 64 * (1 + fz_below(z, 256));
		return;
	}
	c->fpr_pico = 1000000000ULL + fz_below(z, 1ULL << 36);
	if (c->update == KB_WIN_CLOCK_NS)
		c->capacity = 1 + fz_below(z, 20000);
}

/* Cuckoo geometry alone (m, k derived), sometimes out of range. */
static void fz_cuckoo(struct fuzz *z, struct kbloom_create *c)
{
	static const __u32 slots[] = { 1, 2, 4, 8, 3, 0 };

	c->m = 0;
	c->k = 0;
	c->counter_bits = 0;
	c->tables = 0;
	c->vi_l = 0;
	c->update = 0;
	c->capacity = 0;
	c->fpr_pico = 0;
	c->fp_bits = 3 + fz_below(z, 31);
	c->slots = slots[fz_below(z, ARRAY_LEN(slots))];
	c->buckets = fz_below(z, 4096);
}

/* Stable: cells, cell bits, P (or a rate to plan it), sometimes off. */
static void fz_create_stable(struct fuzz *z, struct kbloom_create *c)
{
	static const __u32 widths[] = { 0, 1, 2, 4, 8, 3 };

	c->m = 64 * (1 + fz_below(z, 4096));
	c->k = 1 + fz_below(z, 8);
	c->counter_bits = widths[fz_below(z, ARRAY_LEN(widths))];
	if (fz_chance(z, 25))
		c->fpr_pico = KBLOOM_P_TARGET_MIN + fz_below(z, 1ULL << 38);
	else
		c->buckets = fz_below(z, 80);
}

static void fz_create(struct fuzz *z, struct kbloom_create *c)
{
	c->type = fz_type(z);
	fz_name(z, c->name);
	if (fz_chance(z, 30))
		c->flags = fz_below(z, 4);
	c->hash_id = fz_below(z, 3);
	c->seed = fz_rand(z);
	/* half the Count-Min creates well-formed, so that sketches exist */
	if (c->type == KBLOOM_TYPE_COUNT_MIN && fz_chance(z, 50)) {
		fz_create_cm(z, c);
		return;
	}
	/* half the scalable and dynamic creates well-formed: they grow */
	if ((c->type == KBLOOM_TYPE_SCALABLE ||
	     c->type == KBLOOM_TYPE_DYNAMIC) && fz_chance(z, 50)) {
		fz_create_sbf(z, c);
		return;
	}
	/* half the stable creates well-formed: keys decay in them */
	if (c->type == KBLOOM_TYPE_STABLE && fz_chance(z, 50)) {
		fz_create_stable(z, c);
		return;
	}
	if (c->type == KBLOOM_TYPE_AGE_PARTITIONED && fz_chance(z, 50)) {
		fz_create_win(z, c);
		return;
	}
	if (c->type == KBLOOM_TYPE_COUNTING)
		c->counter_bits = fz_chance(z, 50) ? 4 : 8;
	else if (!kb_type_classic(c->type))
		fz_geometry(z, c);
	if (fz_chance(z, 50)) {
		c->capacity = 1 + fz_below(z, 20000);
		c->fpr_pico = KBLOOM_P_TARGET_MIN + fz_below(z, 1ULL << 38);
	} else {
		c->m = 512 * (1 + fz_below(z, 2048));
		c->k = 1 + fz_below(z, KBLOOM_K_MAX);
	}
	/* a tenth cuckoo filters of their own geometry: keys move in them */
	if (fz_chance(z, 10)) {
		c->type = KBLOOM_TYPE_CUCKOO;
		fz_cuckoo(z, c);
	}
}

/* Keys at OFF_KEYS: fixed or well-formed variable ones, sometimes not. */
static void fz_keys(struct fuzz *z, struct kbloom_keys *b, int test)
{
	__u8 *keys = z->arena + OFF_KEYS;
	__u32 i, len;
	__u64 off = 0;

	fz_name(z, b->name);
	b->count = 1 + fz_below(z, 512);
	for (i = 0; i < 16; i++)
		keys[fz_below(z, 64 * 512)] = fz_rand(z);
	if (fz_chance(z, 60)) {
		b->key_len = 1 + fz_below(z, KBLOOM_KEY_MAX);
		b->keys_len = (__u64)b->count * b->key_len;
	} else {
		for (i = 0; i < b->count; i++) {
			len = 1 + fz_below(z, KBLOOM_KEY_MAX);
			keys[off] = len;
			off += 1 + len;
		}
		b->keys_len = off;
	}
	b->keys = fz_ptr(z, keys);
	if (test)
		b->results = fz_ptr(z, z->arena + OFF_RESULTS);
}

static void fz_image(struct fuzz *z, struct kbloom_image_op *o, int save)
{
	__u8 *img = z->arena + OFF_IMAGE;
	__u32 i;

	fz_name(z, o->name);
	o->buf = fz_ptr(z, img);
	if (save) {
		o->buf_len = fz_chance(z, 20) ? 0 : IMAGE_MAX;
		return;
	}
	if (fz_chance(z, 20))
		memset(o->name, 0, sizeof(o->name));
	o->flags = fz_chance(z, 50) ? KBLOOM_RESTORE_REPLACE : 0;
	o->buf_len = z->image_len;
	if (fz_chance(z, 30))
		for (i = 0; i < 1 + fz_below(z, 3); i++)
			img[fz_below(z, z->image_len ? z->image_len :
				     KBLOOM_IMAGE_HDR_LEN)] ^= 1 << fz_below(z, 8);
}

/* A valid-looking command @i at @buf. */
static void fz_template(struct fuzz *z, unsigned int i, __u8 *buf)
{
	switch (fz_cmds[i]) {
	case KBLOOM_IOCTL_CREATE:
		fz_create(z, (void *)buf);
		break;
	case KBLOOM_IOCTL_DESTROY:
	case KBLOOM_IOCTL_FLUSH:
		if (fz_chance(z, 3))
			((struct kbloom_name_op *)buf)->flags = KBLOOM_ALL;
		else
			fz_name(z, ((struct kbloom_name_op *)buf)->name);
		break;
	case KBLOOM_IOCTL_ADD:
	case KBLOOM_IOCTL_DEL:
	case KBLOOM_IOCTL_TEST:
	case KBLOOM_IOCTL_COUNT:
		/* results: TEST, COUNT, and ADD (which keys were new) */
		fz_keys(z, (void *)buf, fz_cmds[i] != KBLOOM_IOCTL_DEL);
		break;
	case KBLOOM_IOCTL_STAT:
		if (fz_chance(z, 10))
			((struct kbloom_stat *)buf)->flags = KBLOOM_STAT_DEVICE;
		else
			fz_name(z, ((struct kbloom_stat *)buf)->name);
		break;
	case KBLOOM_IOCTL_LIST:
		((struct kbloom_list *)buf)->count = fz_below(z, 10);
		((struct kbloom_list *)buf)->entries =
			fz_ptr(z, z->arena + OFF_LIST);
		break;
	case KBLOOM_IOCTL_SAVE:
	case KBLOOM_IOCTL_RESTORE:
		fz_image(z, (void *)buf, fz_cmds[i] == KBLOOM_IOCTL_SAVE);
		break;
	case KBLOOM_IOCTL_SWAP:
	case KBLOOM_IOCTL_RENAME:
		fz_name(z, ((struct kbloom_name_pair *)buf)->name);
		fz_name(z, ((struct kbloom_name_pair *)buf)->other);
		break;
	}
}

/* Mutate a few bytes or aligned words of the structure. */
static void fz_mutate(struct fuzz *z, __u8 *buf, size_t size)
{
	unsigned int n = fz_below(z, 4), i;
	__u64 v;
	size_t off;

	for (i = 0; i < n; i++) {
		off = fz_below(z, size);
		switch (fz_below(z, 3)) {
		case 0:
			buf[off] ^= 1 << fz_below(z, 8);
			break;
		case 1:
			off &= ~3UL;
			v = fz_interesting(z);
			memcpy(buf + off, &v, off + 4 <= size ? 4 : 0);
			break;
		default:
			off &= ~7UL;
			v = fz_below(z, 2) ? fz_interesting(z) :
			    fz_ptr(z, z->arena + OFF_KEYS);
			memcpy(buf + off, &v, off + 8 <= size ? 8 : 0);
			break;
		}
	}
}

static __u32 fz_size(struct fuzz *z, size_t size, __u8 *buf)
{
	switch (fz_below(z, 10)) {
	case 0:
		return fz_below(z, size);
	case 1:
		buf[size + fz_below(z, 64)] = fz_rand(z) | 1;
		return size + 64;
	case 2:
		return size + 1 + fz_below(z, 4096 - size - 1);
	case 3:
		return fz_chance(z, 50) ? fz_rand(z) : fz_interesting(z);
	default:
		return size;
	}
}

static unsigned long fz_cmd(struct fuzz *z, unsigned int *idx)
{
	unsigned long cmd;

	*idx = fz_below(z, ARRAY_LEN(fz_cmds));
	switch (fz_below(z, 20)) {
	case 0:
		return _IO(KBLOOM_IOCTL_TYPE, fz_below(z, 256));
	case 1:
		return fz_cmds[*idx] | (fz_below(z, 4) << 30) |
		       (fz_below(z, 1 << 14) << 16);
	case 2:
		cmd = fz_rand(z) & 0xffffffff;
		/* stay clear of the generic file ioctls ('X', 0x94, 'f') */
		if (_IOC_TYPE(cmd) == 'X' || _IOC_TYPE(cmd) == 0x94 ||
		    _IOC_TYPE(cmd) == 'f' || _IOC_TYPE(cmd) == 'T')
			cmd = _IO(KBLOOM_IOCTL_TYPE, 0xee);
		return cmd;
	default:
		return fz_cmds[*idx];
	}
}

/* The answer to a well-formed CREATE, by type. */
static void fz_note_create(struct fuzz *z, const struct kbloom_create *c,
			   int ret)
{
	__u32 t = c->type > KBLOOM_TYPE_LAST ? KBLOOM_TYPE_LAST + 1 : c->type;

	if (!kb_type_known(c->type)) {
		z->bad_type_not_einval += ret != -EINVAL;
		return;
	}
	if (ret == -EOPNOTSUPP)
		z->unsupported[t]++;
	else
		z->answered[t]++;
}

static void fz_one(struct fuzz *z)
{
	__u8 *buf = z->arena;
	unsigned int idx;
	unsigned long cmd = fz_cmd(z, &idx);
	size_t size = fz_sizes[idx];
	int ret, intact = cmd == KBLOOM_IOCTL_CREATE &&
			  fz_cmds[idx] == KBLOOM_IOCTL_CREATE;
	__u32 usize;
	void *arg = buf;

	memset(buf, 0, 4096 + 64);
	fz_template(z, idx, buf);
	if (fz_chance(z, 40)) {
		fz_mutate(z, buf, size);
		intact = 0;
	}
	usize = fz_size(z, size, buf);
	memcpy(buf, &usize, 4);
	if (fz_chance(z, 3))
		arg = (void *)(uintptr_t)fz_ptr(z, buf);
	intact = intact && usize == size && arg == buf &&
		 !(((struct kbloom_create *)buf)->flags & ~3U);
	ret = ku_ioctl(z->fd, cmd, arg);
	if (intact)
		fz_note_create(z, (void *)buf, ret);
	z->calls++;
	if (!ret)
		z->ok++;
	else
		z->errs[-ret & 255]++;
}

/* A valid image of a small filter at OFF_IMAGE, for RESTORE. */
static void fz_refresh_image(struct fuzz *z)
{
	struct kbloom_image_op o = { .size = sizeof(o) };
	const char *name = fz_names[fz_below(z, ARRAY_LEN(fz_names))];

	ku_name(o.name, name);
	o.buf = (uintptr_t)(z->arena + OFF_IMAGE);
	o.buf_len = IMAGE_MAX;
	if (!ku_ioctl(z->fd, KBLOOM_IOCTL_SAVE, &o))
		z->image_len = o.image_len;
}

/* The kernel log after @mark has a BUG, WARNING or Oops line. */
static int klog_reports(const char *mark)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *p, *line;
	int bad = 0;

	if (len <= 0)
		return 0;
	buf = calloc(1, len + 1);
	if (!buf)
		return 0;
	len = klogctl(3, buf, len);	/* SYSLOG_ACTION_READ_ALL */
	p = len > 0 ? strstr(buf, mark) : NULL;
	for (line = p ? strtok(p, "\n") : NULL; line;
	     line = strtok(NULL, "\n")) {
		if (strstr(line, "BUG") || strstr(line, "WARNING") ||
		    strstr(line, "Oops") || strstr(line, "Call Trace")) {
			fprintf(stderr, "# kernel: %s\n", line);
			bad++;
		}
	}
	free(buf);
	return bad;
}

FIXTURE(fz) {
	int unused;
};

FIXTURE_SETUP(fz)
{
}

FIXTURE_TEARDOWN(fz)
{
}

TEST_F_TIMEOUT(fz, ioctls, 900)
{
	const char *env = getenv("KBLOOM_FUZZ_CALLS");
	__u64 calls = env ? strtoull(env, NULL, 0) : 100000;
	struct fuzz z = { .seed = 0x5eed5eed12345678ULL };
	struct kbloom_stat st;
	char mark[64];
	__u8 key[8] = "present";
	__u32 hits = 0;
	int kmsg, e;

	if (getenv("KBLOOM_FUZZ_SEED"))
		z.seed = strtoull(getenv("KBLOOM_FUZZ_SEED"), NULL, 0);
	snprintf(mark, sizeof(mark), "kbloom-fuzz start seed %llx",
		 (unsigned long long)z.seed);
	kmsg = open("/dev/kmsg", O_WRONLY);
	if (kmsg >= 0) {
		ASSERT_LT(0, write(kmsg, mark, strlen(mark)));
		close(kmsg);
	}
	z.fd = ku_open();
	ASSERT_LE(0, z.fd);
	ASSERT_EQ(0, ku_destroy_all(z.fd));
	z.arena = mmap(NULL, ARENA_LEN + 2 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, z.arena);
	z.guard = z.arena + ARENA_LEN;
	z.ro = z.guard + 4096;
	ASSERT_EQ(0, mprotect(z.guard, 4096, PROT_NONE));
	ASSERT_EQ(0, mprotect(z.ro, 4096, PROT_READ));

	while (z.calls < calls) {
		fz_one(&z);
		if (!(z.calls % 97))
			fz_refresh_image(&z);
		if (!(z.calls % 2000))
			ASSERT_EQ(0, ku_destroy_all(z.fd));
	}
	TH_LOG("%llu calls, %llu succeeded", (unsigned long long)z.calls,
	       (unsigned long long)z.ok);
	for (e = 1; e < 256; e++)
		if (z.errs[e])
			TH_LOG("  %-16s %llu", strerror(e),
			       (unsigned long long)z.errs[e]);
	EXPECT_LT(calls / 20, z.ok);	/* the fuzzer reached the handlers */
	EXPECT_EQ(0, z.bad_type_not_einval);
	for (e = KBLOOM_TYPE_STANDARD; e <= KBLOOM_TYPE_LAST; e++) {
		TH_LOG("  type %2d: %llu CREATEs, %s", e,
		       (unsigned long long)(z.answered[e] + z.unsupported[e]),
		       z.unsupported[e] ? "EOPNOTSUPP" : "implemented");
		EXPECT_FALSE(z.unsupported[e] && z.answered[e])
			TH_LOG("type %d: EOPNOTSUPP and other answers", e);
		EXPECT_LT(0, z.answered[e] + z.unsupported[e]);
	}

	/* the device still works, and is empty once all is destroyed */
	ASSERT_EQ(0, ku_create_mk(z.fd, "after", KBLOOM_TYPE_BLOCKED, 4096, 4,
				  0, 0));
	ASSERT_EQ(0, ku_keys(z.fd, KBLOOM_IOCTL_ADD, "after", key, 8, 8, 1,
			     NULL, NULL, NULL));
	ASSERT_EQ(0, ku_keys(z.fd, KBLOOM_IOCTL_TEST, "after", key, 8, 8, 1,
			     NULL, NULL, &hits));
	EXPECT_EQ(1, hits);
	ASSERT_EQ(0, ku_destroy_all(z.fd));
	ASSERT_EQ(0, ku_stat_dev(z.fd, &st));
	EXPECT_EQ(0, st.filters);
	EXPECT_EQ(0, st.bytes);
	EXPECT_EQ(0, klog_reports(mark));
	close(z.fd);
	munmap(z.arena, ARENA_LEN + 2 * 4096);
}

TEST_HARNESS_MAIN
