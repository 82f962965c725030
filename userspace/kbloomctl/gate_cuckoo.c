// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: what only a gate with a cuckoo filter has ("xdp attach gate
 * ... filter cuckoo"): the filter lines of gate stats (geometry, load,
 * counts, the rate now, as text or JSON members) and gate load|save NAME
 * FILE, the filter as a version-3 image (libkbloom_cuckoo, kbloom.ko's
 * SAVE/RESTORE).  Called by gate.c; gate_read_file() and gate_save_with()
 * by gate_setimg.c too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"

/* The largest image gate load reads (a filter of 2^32 16-bit slots). */
#define GC_IMAGE_MAX	(((size_t)1 << 33) + 4096)

void gate_cuckoo_text(const struct kbloom_gate_cuckoo_info *ci)
{
	const struct kbloom_cuckoo_params *p = &ci->params;
	char a[32], b[32], sz[32];

	fmt_size(sz, sizeof(sz), ci->bytes);
	printf("variant:           cuckoo\n");
	printf("filter:            cuckoo, %llu buckets of %u slots, %u-bit fingerprints, %s, hash %s, seed 0x%016llx\n",
	       (unsigned long long)p->shape.buckets, p->shape.slots,
	       p->shape.fp_bits, sz, hash_name(p->hash_id),
	       (unsigned long long)p->seed);
	printf("inserted:          %llu\n", (unsigned long long)p->inserted);
	printf("load:              %.2f%% (%llu slots used)\n",
	       ci->load_ppm / 1e4, (unsigned long long)ci->used);
	printf("kicks:             %llu\n", (unsigned long long)p->kicks);
	printf("overflows:         %llu\n", (unsigned long long)p->overflows);
	fmt_prob(a, sizeof(a), ci->fpr_now_pico);
	if (p->capacity) {
		fmt_prob(b, sizeof(b), p->fpr_pico);
		printf("fpr:               %s now, target %s (capacity %llu)\n",
		       a, b, (unsigned long long)p->capacity);
	} else {
		printf("fpr:               %s now, no target\n", a);
	}
}

void gate_cuckoo_json(struct json *j, const struct kbloom_gate_cuckoo_info *ci)
{
	const struct kbloom_cuckoo_params *p = &ci->params;
	char seed[24];

	json_kstr(j, "variant", "cuckoo");
	json_ku64(j, "buckets", p->shape.buckets);
	json_ku64(j, "slots", p->shape.slots);
	json_ku64(j, "fp_bits", p->shape.fp_bits);
	json_ku64(j, "bytes", ci->bytes);
	json_kstr(j, "hash", hash_name(p->hash_id));
	snprintf(seed, sizeof(seed), "0x%016llx",
		 (unsigned long long)p->seed);
	json_kstr(j, "seed", seed);
	json_ku64(j, "inserted", p->inserted);
	json_ku64(j, "used", ci->used);
	json_kdouble(j, "load", ci->load_ppm / 1e6);
	json_ku64(j, "kicks", p->kicks);
	json_ku64(j, "overflows", p->overflows);
	json_kdouble(j, "fpr_now", pico_to_double(ci->fpr_now_pico));
	json_key(j, "fpr_target");
	if (p->capacity)
		json_double(j, pico_to_double(p->fpr_pico));
	else
		json_null(j);
}

/*
 * The whole of @path (a regular file of at most @max bytes): 0, -errno;
 * -EISDIR for a folder, -ESPIPE for another file that is not regular,
 * -EFBIG past @max (gate_read_why() words them).
 */
int gate_read_file(const char *path, size_t max, void **buf, size_t *len)
{
	struct stat st;
	ssize_t r;
	size_t n = 0;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		ret = -ESPIPE;
	else if ((size_t)st.st_size > max)
		ret = -EFBIG;
	if (ret)
		goto out;
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (n < *len) {
		r = read(fd, (char *)*buf + n, *len - n);
		if (r <= 0) {
			ret = r ? -errno : -EIO;
			free(*buf);
			goto out;
		}
		n += (size_t)r;
	}
out:
	close(fd);
	return ret;
}

/* The detail of a gate_read_file() error, or NULL. */
const char *gate_read_why(int err)
{
	return err == -ESPIPE ? "not a regular file" :
	       err == -EFBIG ? "larger than any image it could be" : NULL;
}

int gate_cmd_load(struct ctl *c, int argc, char **argv)
{
	struct kbloom_xdp *x = NULL;
	size_t len = 0;
	void *img = NULL;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	if (ret)
		return ret;
	errno = 0;
	ret = gate_read_file(argv[1], GC_IMAGE_MAX, &img, &len);
	if (ret)
		return ctl_syserr(c, -ret, gate_read_why(ret), "%s %s: read %s",
				  c->cmd_path, argv[0], argv[1]);
	ret = xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (!ret) {
		ret = kbloom_gate_cuckoo_load_image(x, img, len);
		ret = ret ? xdp_fail(c, ret, "%s %s: %s", c->cmd_path, argv[0],
				     argv[1]) : KBCTL_OK;
		kbloom_xdp_close(x);
	}
	free(img);
	return ret;
}

/*
 * gate save and save-set: gate @argv[0]'s image made by @make (malloc()ed)
 * into the file @argv[1].
 */
int gate_save_with(struct ctl *c, char **argv,
		   int (*make)(struct kbloom_xdp *x, void **img, size_t *len))
{
	struct kbloom_xdp *x = NULL;
	char op[KBLOOM_NAME_LEN + 64];
	void *img = NULL;
	size_t len;
	int ret;

	ret = xdp_arg_name(c, argv[0]);
	ret = ret ?: xdp_open(c, argv[0], NULL, XK_GATE, &x);
	if (ret)
		return ret;
	ret = make(x, &img, &len);
	kbloom_xdp_close(x);
	if (ret)
		return xdp_fail(c, ret, "%s %s", c->cmd_path, argv[0]);
	snprintf(op, sizeof(op), "%s %s", c->cmd_path, argv[0]);
	ret = ctl_out_image(c, op, argv[1], img, len);
	free(img);
	return ret ? ret : KBCTL_OK;
}

int gate_cmd_save(struct ctl *c, int argc, char **argv)
{
	return gate_save_with(c, argv, kbloom_gate_cuckoo_save_image);
}
