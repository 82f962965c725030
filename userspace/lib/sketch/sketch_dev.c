// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_sketch: KBLOOM_IOCTL_COUNT of a kbloom.ko filter (Count-Min,
 * or counting), split into ioctls within the module's batch limits.
 */
#include "libkbloom_dev.h"
#include "sketch_int.h"

/* Keys and bytes of the next ioctl from @off: within both limits. */
static void kbs_chunk(const __u8 *kp, size_t off, __u32 key_len, __u64 left,
		      __u32 *nkeys, size_t *nbytes)
{
	size_t n = 0, b = 0, one;

	while (n < left && n < KBLOOM_BATCH_KEYS_MAX) {
		one = key_len ? key_len : 1 + (size_t)kp[off + b];
		if (b + one > KBLOOM_BATCH_BYTES_MAX)
			break;
		b += one;
		n++;
	}
	*nkeys = (__u32)n;
	*nbytes = b;
}

long kbloom_sketch_dev_count(int fd, const char *name, const void *keys,
			     size_t keys_len, __u32 key_len, __u64 count,
			     __u64 *est, __u64 *hits)
{
	const __u8 *kp = keys;
	struct kbloom_keys k;
	__u64 pos = 0, nz = 0;
	size_t off = 0, nbytes;
	__u32 nkeys;
	int ret;

	if (!est || kbloom_dev_keys_check(keys, keys_len, key_len, count))
		return -EINVAL;
	while (pos < count) {
		kbs_chunk(kp, off, key_len, count - pos, &nkeys, &nbytes);
		memset(&k, 0, sizeof(k));
		k.key_len = key_len;
		k.count = nkeys;
		k.keys = (__u64)(unsigned long)(kp + off);
		k.keys_len = nbytes;
		k.results = (__u64)(unsigned long)(est + pos);
		ret = kbloom_dev_keys(fd, KBLOOM_IOCTL_COUNT, name, &k);
		if (ret)
			return ret;
		nz += k.hits;
		pos += nkeys;
		off += nbytes;
	}
	if (hits)
		*hits = nz;
	return (long)pos;
}
