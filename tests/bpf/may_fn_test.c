// SPDX-License-Identifier: GPL-2.0
/*
 * The gate and mcast paths refuse a filter that may give false negatives
 * (issue 15's last contract item): a real stable image (libkbloom_stable,
 * KBLOOM_IMAGE_F_MAY_FN) offered to
 *   - kbloom_xdp_filter_load_image() of a gate and of an mcast instance,
 *   - kbloom_gate_cuckoo_load_image() of a cuckoo gate,
 *   - kbloomctl map load PATH and kbloomctl gate load NAME FILE
 * is refused with -KBLOOM_XDP_E_MAY_FN (EMEDIUMTYPE), or exit 3 and one
 * line naming the type, and nothing changes; a blocked image of the same
 * size loads (the refusal is the flag's, not the loader's).
 */
#include <linux/bpf.h>
#include <errno.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom.h"
#include "libkbloom_stable.h"

#define NKEYS	2000

FIXTURE(mayfn) {
	char gate[64], mcast[64], cuckoo[64], file[64];
	struct kbloom_xdp *g, *mc, *cg;
	void *img;
	size_t len;
};

static int mf_image(FIXTURE_DATA(mayfn) *self)
{
	struct kbloom_stable *f;
	__u32 i;
	int ret;

	ret = kbloom_stable_create(1 << 14, 3, 1, 10, NULL, &f);
	if (ret)
		return ret;
	for (i = 0; i < NKEYS; i++)
		kbloom_stable_add(f, &i, sizeof(i));
	ret = kbloom_stable_save_alloc(f, &self->img, &self->len);
	kbloom_stable_destroy(f);
	if (ret)
		return ret;
	snprintf(self->file, sizeof(self->file), "/tmp/kbt%d-stable.kbl",
		 (int)getpid());
	return kbctl_write_file(self->file, self->img, self->len);
}

static int mf_setup(FIXTURE_DATA(mayfn) *self)
{
	struct kbloom_xdp_opts o = { .mode = KBLOOM_GATE_DENY };
	int ret;

	kbt_janitor();
	kbt_name(self->gate, sizeof(self->gate), "mfg");
	kbt_name(self->mcast, sizeof(self->mcast), "mfm");
	kbt_name(self->cuckoo, sizeof(self->cuckoo), "mfc");
	ret = kbloom_xdp_create(self->gate, KBLOOM_XDP_GATE, &o, &self->g);
	ret = ret ?: kbloom_xdp_create(self->mcast, KBLOOM_XDP_MCAST, NULL,
				       &self->mc);
	o.variant = KBLOOM_XDP_VARIANT_CUCKOO;
	ret = ret ?: kbloom_xdp_create(self->cuckoo, KBLOOM_XDP_GATE, &o,
				       &self->cg);
	return ret ?: mf_image(self);
}

static void mf_cleanup(FIXTURE_DATA(mayfn) *self)
{
	kbloom_xdp_close(self->g);
	kbloom_xdp_close(self->mc);
	kbloom_xdp_close(self->cg);
	if (self->gate[0])
		kbt_unpin(self->gate);
	if (self->mcast[0])
		kbt_unpin(self->mcast);
	if (self->cuckoo[0])
		kbt_unpin(self->cuckoo);
	if (self->file[0])
		unlink(self->file);
	free(self->img);
}

FIXTURE_SETUP(mayfn)
{
	int ret;

	if (geteuid())
		SKIP(return, "needs root (BPF)");
	ret = mf_setup(self);
	if (ret)
		mf_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mayfn)
{
	if (!geteuid())
		mf_cleanup(self);
}

TEST_F(mayfn, library_refuses)
{
	struct kbloom_xdp_filter_info a, b;
	struct kbloom_filter *bf;
	size_t blen;
	void *bimg;

	ASSERT_EQ(0, kbloom_xdp_filter_info(self->g, 0, &a));
	EXPECT_EQ(-KBLOOM_XDP_E_MAY_FN,
		  kbloom_xdp_filter_load_image(self->g, 0, self->img,
					       self->len));
	EXPECT_EQ(-EMEDIUMTYPE,
		  kbloom_xdp_filter_load_image(self->mc, 1, self->img,
					       self->len));
	EXPECT_EQ(-KBLOOM_XDP_E_MAY_FN,
		  kbloom_gate_cuckoo_load_image(self->cg, self->img,
						self->len));
	ASSERT_EQ(0, kbloom_xdp_filter_info(self->g, 0, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	/* a blocked image of the same geometry loads */
	ASSERT_EQ(0, kbloom_create_mk(KBLOOM_TYPE_BLOCKED, 1 << 14, 3, NULL,
				      &bf));
	ASSERT_EQ(0, kbloom_save_alloc(bf, &bimg, &blen));
	EXPECT_EQ(0, kbloom_xdp_filter_load_image(self->g, 0, bimg, blen));
	kbloom_destroy(bf);
	free(bimg);
}

TEST_F(mayfn, kbloomctl_refuses)
{
	struct kbctl_res r;
	char path[160];

	snprintf(path, sizeof(path), "%s/%s/filter_0", KBT_PIN_ROOT,
		 self->gate);
	kbctl_run(&r, "map", "load", path, "-i", self->file);
	EXPECT_SYS(&r, "a stable filter may give false negatives");
	EXPECT_EQ(0, (int)r.out_len);
	kbctl_free(&r);
	kbctl_run(&r, "gate", "load", self->cuckoo, self->file);
	EXPECT_SYS(&r, "a stable filter may give false negatives");
	kbctl_free(&r);
	/* the gate still holds its empty filter */
	OK(&r, "map", "stat", path, "-j");
	EXPECT_EQ(0, jnum(r.out, NULL, "ones"));
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
