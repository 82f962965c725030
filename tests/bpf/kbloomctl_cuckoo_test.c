// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl and the gate's cuckoo variant, run as the program it is
 * (build/kbloomctl) on a veth link in a namespace:
 *
 *  - xdp attach gate NAME ... filter cuckoo; gate add, test, del, stats,
 *    rebuild, save and load; the gate program's verdicts on frames
 *    (BPF_PROG_TEST_RUN of prog_gate) follow add and del: del removes the
 *    address from the filter, not only from the exact set;
 *  - bpftool map dump of filter_0 prints the words of the filter's image
 *    (gate save), and gate_cuckoo its typed parameters;
 *  - map load and map save of a library cuckoo image, into a cuckoo
 *    gate's filter and a cuckoo mcast port's: saved back byte for byte,
 *    the same answers from map test and the library; images of the
 *    other type refused, nothing changed;
 *  - usage errors (exit 2, one line, nothing made) and refused images
 *    and geometries (exit 3, one line, nothing changed).
 */
#include <linux/bpf.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "tests/bpf/kbloomctl_xdp_util.h"
#include "libkbloom.h"
#include "libkbloom_cuckoo.h"

#define UNAME	"kbtusage0"	/* never created */
#define A(...)	KBCTL_ARGS(__VA_ARGS__)

static const struct usage_case usage_cases[] = {
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "filter", "cuckoo",
	    "bits", "1024", "hashes", "3"),
	  "bits/hashes: not with filter cuckoo" },
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "filter", "cuckoo",
	    "variant", "kfunc"),
	  "filter cuckoo: not with variant kfunc" },
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "filter", "cuckoo",
	    "module-filter", "bad"),
	  "module-filter: not with filter cuckoo" },
	{ A("xdp", "attach", "gate", UNAME, "dev", "p0", "filter", "bloom"),
	  "blocked|cuckoo" },
	{ A("xdp", "attach", "mcast", UNAME, "dev", "p0", "filter", "cuckoo",
	    "bits", "1024", "hashes", "3"),
	  "bits/hashes: not with filter cuckoo" },
	{ A("xdp", "attach", "pass", UNAME, "dev", "p0", "filter", "cuckoo"),
	  "only for mcast and gate instances" },
	{ A("map", "load", "/sys/fs/bpf/kbloom/" UNAME "/cuckoo_0"),
	  "not a pinned filter" },
	{ A("gate", "load", UNAME), "gate load" },
	{ A("gate", "save", UNAME, "a", "b"), "gate save" },
};

TEST(usage_errors_change_nothing)
{
	kbctl_check_usage(_metadata, usage_cases, ARRAY_SIZE(usage_cases),
			  UNAME);
}

FIXTURE(link) {
	struct kbt_ns sw, host;
	char gate[64], other[64];
	char dir[64];
};

static void lk_cleanup(FIXTURE_DATA(link) *self)
{
	char cmd[128];

	if (self->gate[0])
		kbt_unpin(self->gate);
	if (self->other[0])
		kbt_unpin(self->other);
	kbt_ns_free(&self->host);
	kbt_ns_free(&self->sw);
	if (self->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
		if (system(cmd))
			fprintf(stderr, "# %s failed\n", cmd);
	}
}

static int lk_setup(FIXTURE_DATA(link) *self)
{
	kbt_janitor();
	kbt_name(self->gate, sizeof(self->gate), "ckgate");
	kbt_name(self->other, sizeof(self->other), "ckother");
	snprintf(self->dir, sizeof(self->dir), "/tmp/kbt%d-XXXXXX",
		 (int)getpid());
	if (!mkdtemp(self->dir)) {
		self->dir[0] = 0;
		return -1;
	}
	return kbt_switch_new(&self->sw, &self->host, 1);
}

FIXTURE_SETUP(link)
{
	int ret = lk_setup(self);

	if (ret)
		lk_cleanup(self);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(link)
{
	lk_cleanup(self);
}

/* Output of @cmd (at most @len - 1 bytes). */
static size_t sh_out(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n;

	if (!p)
		return 0;
	n = fread(out, 1, len - 1, p);
	pclose(p);
	out[n] = 0;
	return n;
}

/*
 * The words of "bpftool -j map dump" of a blocks map, in key order, equal
 * the @nw words at the end of image @img: 1, else 0.
 */
static int dump_is_image(const char *pin, const __u8 *img, size_t len,
			 size_t nw)
{
	static char out[1 << 20];
	char cmd[512], *p;
	__u64 w, v;
	size_t i = 0;

	snprintf(cmd, sizeof(cmd), "bpftool -j map dump pinned %s", pin);
	sh_out(cmd, out, sizeof(out));
	for (p = strstr(out, "\"w\":["); p && i < nw;
	     p = strstr(p, "\"w\":[")) {
		p += 5;
		while (i < nw && *p != ']') {
			v = strtoull(p, &p, 10);
			memcpy(&w, img + len - nw * 8 + i * 8, 8);
			if (v != w)
				return 0;
			i++;
			if (*p == ',')
				p++;
		}
	}
	return i == nw;
}

TEST_F_TIMEOUT(link, cuckoo_gate_commands, 120)
{
	static const __u8 s1[4] = { 10, 0, 0, 1 }, s2[4] = { 10, 0, 0, 2 };
	const char *ns = self->sw.path;
	char img[128], bad[128], pin[256], out[4096];
	struct stat lst;
	struct kbloom_filter *f;
	struct kbctl_res r;
	size_t len, plen;
	__u8 *buf;
	int fd;

	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns", ns,
	   "policy", "deny", "filter", "cuckoo", "capacity", "1000", "fpr",
	   "0.2%");
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->gate, "netns", ns);
	EXPECT_NE(NULL, strstr(r.out, "variant cuckoo")) TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "gate", "add", self->gate, "10.0.0.1", "10.0.0.2", "fd00::1");
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, kbt_gate_verdict(self->gate, s1));
	EXPECT_EQ(XDP_DROP, kbt_gate_verdict(self->gate, s2));

	/* del: out of the set and out of the filter */
	OK(&r, "gate", "del", self->gate, "10.0.0.1");
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->gate, "10.0.0.1"));
	EXPECT_STREQ("10.0.0.1: not in the set (filter: definitely absent)\n",
		     r.out);
	kbctl_free(&r);
	EXPECT_EQ(XDP_PASS, kbt_gate_verdict(self->gate, s1));
	EXPECT_EQ(XDP_DROP, kbt_gate_verdict(self->gate, s2));
	OK(&r, "gate", "stats", self->gate, "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"variant\":\"cuckoo\"")) TH_LOG("%s", r.out);
	EXPECT_EQ(2, jnum(r.out, NULL, "inserted"));
	EXPECT_EQ(2, jnum(r.out, NULL, "used"));
	EXPECT_EQ(12, jnum(r.out, NULL, "fp_bits")) TH_LOG("%s", r.out);
	EXPECT_EQ(1, jnum(r.out, NULL, "filter_negatives"));
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate);
	EXPECT_NE(NULL, strstr(r.out, "12-bit fingerprints")) TH_LOG("%s", r.out);
	kbctl_free(&r);

	/* the image: bpftool shows its words, another gate loads it */
	snprintf(img, sizeof(img), "%s/gate.img", self->dir);
	OK(&r, "gate", "save", self->gate, img);
	kbctl_free(&r);
	/* through a symlink: followed, never replaced (every -o, outfile.c) */
	snprintf(bad, sizeof(bad), "%s/gate.lnk", self->dir);
	ASSERT_EQ(0, symlink("gate.img", bad));
	OK(&r, "gate", "save", self->gate, bad);
	kbctl_free(&r);
	EXPECT_EQ(0, lstat(bad, &lst));
	EXPECT_TRUE(S_ISLNK(lst.st_mode));
	unlink(bad);
	fd = open(img, O_RDONLY);
	ASSERT_LE(0, fd);
	buf = (__u8 *)kbctl_slurp(fd, &len);
	close(fd);
	ASSERT_NE(NULL, buf);
	snprintf(pin, sizeof(pin), "%s/%s/filter_0", KBT_PIN_ROOT, self->gate);
	plen = len - KBLOOM_IMAGE_HDR_LEN - KBLOOM_IMAGE_GEOM_LEN;
	EXPECT_EQ(1, dump_is_image(pin, buf, len, plen / 8));
	snprintf(pin, sizeof(pin), "bpftool map dump pinned %s/%s/gate_cuckoo",
		 KBT_PIN_ROOT, self->gate);
	sh_out(pin, out, sizeof(out));
	EXPECT_NE(NULL, strstr(out, "\"fp_bits\": 12")) TH_LOG("%s", out);
	free(buf);

	OK(&r, "xdp", "attach", "gate", self->other, "dev", "eth0", "netns",
	   self->host.path, "filter", "cuckoo");
	kbctl_free(&r);
	OK(&r, "gate", "load", self->other, img);
	kbctl_free(&r);
	EXPECT_EQ(1, kbctl_run(&r, "gate", "test", self->other, "10.0.0.2"));
	EXPECT_STREQ("10.0.0.2: not in the set (filter: possibly present, a false positive)\n",
		     r.out);
	kbctl_free(&r);

	/* refused, nothing changed: a blocked image, a blocked geometry */
	snprintf(bad, sizeof(bad), "%s/blocked.img", self->dir);
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 100, 10000000000ULL,
				   NULL, &f));
	ASSERT_EQ(0, kbloom_save_file(f, bad));
	kbloom_destroy(f);
	kbctl_run(&r, "gate", "load", self->gate, bad);
	EXPECT_SYS(&r, "not a valid cuckoo filter image (Operation not supported)");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "rebuild", self->gate, "bits", "1024", "hashes",
		  "3");
	EXPECT_SYS(&r, "bits and hashes are for blocked filters");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "rebuild", self->gate, "fpr", "0.001%");
	EXPECT_SYS(&r, "buckets of at most 64 bits");
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, kbt_gate_verdict(self->gate, s2));
	EXPECT_EQ(XDP_PASS, kbt_gate_verdict(self->gate, s1));

	/* rebuild: a new size, the same set */
	OK(&r, "gate", "rebuild", self->gate, "capacity", "50000", "fpr", "1%");
	kbctl_free(&r);
	OK(&r, "gate", "stats", self->gate, "-j");
	EXPECT_EQ(2, jnum(r.out, NULL, "inserted"));
	EXPECT_LT(10000, jnum(r.out, NULL, "buckets"));
	kbctl_free(&r);
	EXPECT_EQ(XDP_DROP, kbt_gate_verdict(self->gate, s2));
	OK(&r, "gate", "test", self->gate, "fd00::1");
	kbctl_free(&r);
	kbctl_run(&r, "gate", "load", self->gate, "/nonexistent.img");
	EXPECT_SYS(&r, "No such file or directory");
	kbctl_free(&r);
	/* a rate the XDP form cannot hold: nothing made */
	kbctl_run(&r, "xdp", "attach", "gate", UNAME, "dev", "p0", "netns", ns,
		  "filter", "cuckoo", "fpr", "0.001%");
	EXPECT_SYS(&r, "buckets of at most 64 bits");
	kbctl_free(&r);
	EXPECT_FALSE(inst_exists(UNAME));
}

/* ---- map load / map save of cuckoo images ------------------------------------ */

#define MAP_KEYS	600U

/* Key @i of the map tests: multicast group 239.1.i/16, IPv4. */
static void map_key(__u32 i, __u8 a[4], char *text, size_t len)
{
	__u8 g[16];

	kbt_group(g, 0, i);
	memcpy(a, g, 4);
	snprintf(text, len, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
}

/* A library cuckoo filter of keys 0..MAX_KEYS-1 saved as @path. */
static int map_lib_image(const char *path, struct kbloom_cuckoo **cp)
{
	char text[32];
	size_t len;
	__u8 a[4];
	void *img;
	__u32 i;
	int fd, ret;

	ret = kbloom_cuckoo_create(1000, 2000000000ULL, NULL, cp);
	for (i = 0; !ret && i < MAP_KEYS; i++) {
		map_key(i, a, text, sizeof(text));
		ret = kbloom_cuckoo_add(*cp, a, 4);
	}
	if (ret)
		return ret;
	len = kbloom_cuckoo_image_size(*cp);
	img = malloc(len);
	ret = img ? kbloom_cuckoo_save(*cp, img, len, NULL) : -ENOMEM;
	fd = ret ? -1 : open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!ret && (fd < 0 || write(fd, img, len) != (ssize_t)len))
		ret = -EIO;
	if (fd >= 0)
		close(fd);
	free(img);
	return ret;
}

/* The bytes of file @path, malloc()ed; *@len. */
static __u8 *map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	__u8 *b;

	*len = 0;
	if (fd < 0)
		return NULL;
	b = (__u8 *)kbctl_slurp(fd, len);
	close(fd);
	return b;
}

/* Files @p and @q hold the same bytes: 1, else 0. */
static int same_bytes(const char *p, const char *q)
{
	size_t alen, blen;
	__u8 *a = map_file(p, &alen), *b = map_file(q, &blen);
	int same = a && b && alen == blen && !memcmp(a, b, alen);

	free(a);
	free(b);
	return same;
}

/*
 * @pin takes @img (map load), gives it back byte for byte (map save),
 * and map test agrees with library filter @c on keys and non-keys.
 */
static void map_round_trip(struct __test_metadata *_metadata,
			   FIXTURE_DATA(link) *self, const char *pin,
			   const char *img, const struct kbloom_cuckoo *c)
{
	char back[160], text[32];
	struct kbctl_res r;
	__u8 k[4];
	__u32 i, disagree = 0;

	OK(&r, "map", "load", pin, "-i", img);
	kbctl_free(&r);
	snprintf(back, sizeof(back), "%s/back.img", self->dir);
	OK(&r, "map", "save", pin, "-o", back);
	kbctl_free(&r);
	EXPECT_EQ(1, same_bytes(img, back));
	for (i = 0; i < 2 * MAP_KEYS; i += 7) {
		map_key(i, k, text, sizeof(text));
		if (kbctl_run(&r, "map", "test", pin, text) !=
		    (kbloom_cuckoo_test(c, k, 4) == 1 ? 0 : 1))
			disagree++;
		kbctl_free(&r);
	}
	EXPECT_EQ(0, disagree);
}

TEST_F_TIMEOUT(link, map_load_save_cuckoo_images, 120)
{
	char img[128], bad[128], pin[256], mpin[256], ifx[16];
	struct kbloom_cuckoo *c = NULL;
	struct kbloom_filter *f;
	struct kbctl_res r;
	int ifindex;

	snprintf(img, sizeof(img), "%s/lib.img", self->dir);
	ASSERT_EQ(0, map_lib_image(img, &c));
	snprintf(bad, sizeof(bad), "%s/blocked.img", self->dir);
	ASSERT_EQ(0, kbloom_create(KBLOOM_TYPE_BLOCKED, 100, 10000000000ULL,
				   NULL, &f));
	ASSERT_EQ(0, kbloom_save_file(f, bad));
	kbloom_destroy(f);

	/* a cuckoo gate's filter */
	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "p0", "netns",
	   self->sw.path, "filter", "cuckoo", "capacity", "100", "fpr", "1%");
	kbctl_free(&r);
	snprintf(pin, sizeof(pin), "%s/%s/filter_0", KBT_PIN_ROOT, self->gate);
	map_round_trip(_metadata, self, pin, img, c);

	/*
	 * a cuckoo mcast port's filter: its group, joined before, is in the
	 * image, so the load adds nothing and the image comes back whole
	 */
	ifindex = kbt_ifindex(&self->host, "eth0");
	ASSERT_LT(0, ifindex);
	snprintf(ifx, sizeof(ifx), "%d", ifindex);
	OK(&r, "xdp", "attach", "mcast", self->other, "dev", "eth0", "netns",
	   self->host.path, "filter", "cuckoo");
	kbctl_free(&r);
	OK(&r, "mcast", "join", self->other, "eth0", "239.1.0.5", "netns",
	   self->host.path);
	kbctl_free(&r);
	snprintf(mpin, sizeof(mpin), "%s/%s/filter_%d", KBT_PIN_ROOT,
		 self->other, ifindex);
	map_round_trip(_metadata, self, mpin, img, c);
	OK(&r, "mcast", "ports", self->other, "netns", self->host.path, "-j");
	EXPECT_JSON(&r);
	EXPECT_EQ(MAP_KEYS, jnum(r.out, NULL, "inserted")) TH_LOG("%s", r.out);
	kbctl_free(&r);

	/* the other type refused, nothing changed */
	kbctl_run(&r, "map", "load", mpin, "-i", bad);
	EXPECT_SYS(&r, "a blocked filter image: this is a cuckoo filter");
	kbctl_free(&r);
	OK(&r, "map", "save", mpin, "-o", bad);
	kbctl_free(&r);
	EXPECT_EQ(1, same_bytes(img, bad));
	OK(&r, "xdp", "detach", self->other, "netns", self->host.path);
	kbctl_free(&r);
	OK(&r, "xdp", "attach", "mcast", self->other, "dev", "eth0", "netns",
	   self->host.path);
	kbctl_free(&r);
	kbctl_run(&r, "map", "load", mpin, "-i", img);
	EXPECT_SYS(&r, "a cuckoo filter image: this is a blocked filter");
	kbctl_free(&r);
	kbloom_cuckoo_destroy(c);
}

TEST_HARNESS_MAIN
