// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: a gate's set as an image file, gate save-set NAME FILE, and
 * its reading for gate load-set (gate_set.c), which adds the image's
 * addresses as one batch, all or nothing, as gate add -f does.  The
 * image works with every variant of the gate (its set is the exact map):
 *
 *   header, 32 bytes, little-endian:
 *     magic     u32  GSI_MAGIC ("KBGS")
 *     version   u16  1
 *     hdr_len   u16  32
 *     count     u64  addresses
 *     flags     u32  0
 *     crc       u32  CRC-32C of the header (crc zero) and the addresses
 *     reserved  u64  0
 *   count addresses of 20 bytes: len u32 (4 or 16), 16 bytes of address
 *   in network order, zero after len (struct kbloom_addr_key).
 *
 * The set is read with BPF_MAP_LOOKUP_BATCH: a save while addresses are
 * added or deleted holds some of them.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "kbloomctl.h"
#include "libkbloom_xdp.h"
#include "uapi/kbloom_image.h"

#define GSI_MAGIC	0x5347424BU	/* "KBGS" */
#define GSI_VERSION	1U
#define GSI_HDR_LEN	32U
#define GSI_KEY_LEN	20U
/* The largest image gate load-set reads: 2^31 addresses. */
#define GSI_MAX		((size_t)GSI_HDR_LEN + ((size_t)GSI_KEY_LEN << 31))

struct gsi_hdr {
	__u32 magic;
	__u16 version;
	__u16 hdr_len;
	__u64 count;
	__u32 flags;
	__u32 crc;
	__u64 reserved;
};

_Static_assert(sizeof(struct gsi_hdr) == GSI_HDR_LEN, "gate set header");
_Static_assert(sizeof(struct kbloom_addr_key) == GSI_KEY_LEN, "gate key");

static __u32 gsi_crc(const void *img, size_t len)
{
	struct gsi_hdr h;
	__u32 crc;

	memcpy(&h, img, sizeof(h));
	h.crc = 0;
	crc = kb_crc32c_update(0xFFFFFFFFU, &h, sizeof(h));
	crc = kb_crc32c_update(crc, (const __u8 *)img + sizeof(h),
			       len - sizeof(h));
	return ~crc;
}

/* The keys of the exact map (@fd) into a malloc()ed array. */
static int gsi_dump(int fd, struct kbloom_addr_key **keys, __u32 *n)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), cnt, token, *vals;
	void *in = NULL;
	int ret;

	*n = 0;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*keys = calloc(info.max_entries + 1, sizeof(**keys));
	vals = calloc(info.max_entries + 1, sizeof(*vals));
	ret = *keys && vals ? 0 : -ENOMEM;
	while (!ret && *n < info.max_entries) {
		cnt = info.max_entries - *n;
		ret = bpf_map_lookup_batch(fd, in, &token, &(*keys)[*n],
					   &vals[*n], &cnt, NULL) ? -errno : 0;
		*n += cnt;
		in = &token;
	}
	free(vals);
	return ret == -ENOENT ? 0 : ret;
}

/* The image of @n keys (converted in place), malloc()ed into *@img. */
static int gsi_encode(struct kbloom_addr_key *keys, __u32 n, void **img,
		      size_t *len)
{
	struct gsi_hdr h = {
		.magic = htole32(GSI_MAGIC), .version = htole16(GSI_VERSION),
		.hdr_len = htole16(GSI_HDR_LEN), .count = htole64(n),
	};
	__u32 i;

	for (i = 0; i < n; i++)
		keys[i].len = htole32(keys[i].len);
	*len = sizeof(h) + (size_t)n * sizeof(*keys);
	*img = malloc(*len);
	if (!*img)
		return -ENOMEM;
	memcpy(*img, &h, sizeof(h));
	memcpy((__u8 *)*img + sizeof(h), keys, (size_t)n * sizeof(*keys));
	h.crc = htole32(gsi_crc(*img, *len));
	memcpy(*img, &h, sizeof(h));
	return 0;
}

/* The image of gate @x's set, malloc()ed into *@img. */
static int gsi_make(struct kbloom_xdp *x, void **img, size_t *len)
{
	struct kbloom_addr_key *keys = NULL;
	int fd = xdp_pin_fd(x, "gate_exact"), ret;
	__u32 n;

	if (fd < 0)
		return fd;
	ret = gsi_dump(fd, &keys, &n);
	ret = ret ?: gsi_encode(keys, n, img, len);
	close(fd);
	free(keys);
	return ret;
}

int gate_cmd_save_set(struct ctl *c, int argc, char **argv)
{
	return gate_save_with(c, argv, gsi_make);
}

/* The header's first field not as written, or NULL. */
static const char *gsi_bad_field(const struct gsi_hdr *h, size_t len)
{
	if (le32toh(h->magic) != GSI_MAGIC)
		return "magic: not a gate set image (gate save-set)";
	if (le16toh(h->version) != GSI_VERSION)
		return "version: not 1";
	if (le16toh(h->hdr_len) != GSI_HDR_LEN)
		return "hdr_len: not 32";
	if (h->flags || h->reserved)
		return "flags or reserved: not zero";
	if (le64toh(h->count) != (len - GSI_HDR_LEN) / GSI_KEY_LEN ||
	    (len - GSI_HDR_LEN) % GSI_KEY_LEN)
		return "count: not the file's length";
	return NULL;
}

/*
 * The addresses of the image @path into a malloc()ed array (*@keys, *@n);
 * a bad image is refused naming the field (gate NAME's command).
 */
int gate_setimg_read(struct ctl *c, const char *name, const char *path,
		     struct kbloom_addr_key **keys, __u32 *n)
{
	const char *why = "shorter than its header";
	struct gsi_hdr h;
	size_t len = 0, i;
	void *img = NULL;
	int ret;

	errno = 0;
	ret = gate_read_file(path, GSI_MAX, &img, &len);
	if (ret)
		return ctl_syserr(c, -ret, gate_read_why(ret), "%s %s: read %s",
				  c->cmd_path, name, path);
	if (len >= sizeof(h)) {
		memcpy(&h, img, sizeof(h));
		why = gsi_bad_field(&h, len);
		if (!why && le32toh(h.crc) != gsi_crc(img, len))
			why = "crc: does not match its contents";
	}
	if (why) {
		free(img);
		return ctl_syserr(c, EBADMSG, why, "%s %s: %s", c->cmd_path,
				  name, path);
	}
	*n = (__u32)le64toh(h.count);
	memmove(img, (__u8 *)img + sizeof(h), len - sizeof(h));
	*keys = img;
	for (i = 0; i < *n; i++)
		(*keys)[i].len = le32toh((*keys)[i].len);
	return 0;
}
