// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko: named Bloom filters behind /dev/kbloom.
 *
 * The ioctl ABI is uapi/kbloom.h.  Each command is a handler in a table
 * indexed by its number; the dispatcher checks the privilege of mutations,
 * copies the command's structure in with copy_struct_from_user()
 * (iommufd's rules) and the handler copies it out with kb_respond().  The
 * structure of a command that answers is checked writable before the
 * handler runs, so that a failed copy-out never follows a change.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/miscdevice.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>
#include <linux/slab.h>

#include "kbloom_int.h"

unsigned int kb_max_filters = 1024;
module_param_named(max_filters, kb_max_filters, uint, 0444);
MODULE_PARM_DESC(max_filters, "Maximum number of filters (default 1024)");

unsigned long long kb_max_total_bytes = 1ULL << 30;
module_param_named(max_total_bytes, kb_max_total_bytes, ullong, 0444);
MODULE_PARM_DESC(max_total_bytes,
		 "Maximum bytes of all filter arrays together (default 1 GiB)");

unsigned long long kb_max_filter_bytes = 256ULL << 20;
module_param_named(max_filter_bytes, kb_max_filter_bytes, ullong, 0444);
MODULE_PARM_DESC(max_filter_bytes,
		 "Maximum bytes of one filter array (default 256 MiB)");

union kb_ucmd_buf {
	struct kbloom_version version;
	struct kbloom_create create;
	struct kbloom_name_op name_op;
	struct kbloom_keys keys;
	struct kbloom_stat stat;
	struct kbloom_list list;
	struct kbloom_image_op image_op;
	struct kbloom_name_pair name_pair;
};

struct kb_ioctl_op {
	unsigned int size;	/* current struct size */
	unsigned int min_size;	/* first version's struct size */
	bool admin;		/* a mutation: needs CAP_NET_ADMIN */
	bool answers;		/* copies its structure back out */
	int (*execute)(struct kb_ucmd *ucmd);
};

int kb_respond(struct kb_ucmd *ucmd, size_t len)
{
	if (copy_to_user(ucmd->ubuf, ucmd->cmd,
			 min_t(size_t, ucmd->user_size, len)))
		return -EFAULT;
	return 0;
}

/* An all-NUL name field (DESTROY/FLUSH/STAT of everything). */
bool kb_name_empty(const char *name)
{
	return !memchr_inv(name, 0, KBLOOM_NAME_LEN);
}

/* A valid name, NUL-padded to the end of its field. */
bool kb_name_ok(const char *name)
{
	return name[0] && kb_image_name_valid(name);
}

static int kb_cmd_version(struct kb_ucmd *ucmd)
{
	struct kbloom_version *cmd = ucmd->cmd;

	if (cmd->flags)
		return -EOPNOTSUPP;
	cmd->major = KBLOOM_ABI_MAJOR;
	cmd->minor = KBLOOM_ABI_MINOR;
	cmd->image_version = KBLOOM_IMAGE_VERSION;
	cmd->key_max = KBLOOM_KEY_MAX;
	return kb_respond(ucmd, sizeof(*cmd));
}

#define KB_OP(_nr, _type, _last, _admin, _answers, _fn)		\
	[KBLOOM_CMD_##_nr - KBLOOM_CMD_BASE] = {			\
		.size = sizeof(_type),					\
		.min_size = offsetofend(_type, _last),			\
		.admin = _admin,					\
		.answers = _answers,					\
		.execute = _fn,						\
	}

#define KB_ADMIN	true
#define KB_OPEN		false
#define KB_ANSWERS	true
#define KB_SILENT	false

static const struct kb_ioctl_op kb_ops[] = {
	KB_OP(VERSION, struct kbloom_version, key_max, KB_OPEN, KB_ANSWERS,
	      kb_cmd_version),
	KB_OP(CREATE, struct kbloom_create, reserved, KB_ADMIN, KB_ANSWERS,
	      kb_cmd_create),
	KB_OP(DESTROY, struct kbloom_name_op, name, KB_ADMIN, KB_SILENT,
	      kb_cmd_destroy),
	KB_OP(ADD, struct kbloom_keys, hits, KB_ADMIN, KB_ANSWERS, kb_cmd_add),
	KB_OP(DEL, struct kbloom_keys, hits, KB_ADMIN, KB_ANSWERS, kb_cmd_del),
	KB_OP(TEST, struct kbloom_keys, hits, KB_OPEN, KB_ANSWERS,
	      kb_cmd_test),
	KB_OP(STAT, struct kbloom_stat, filters, KB_OPEN, KB_ANSWERS,
	      kb_cmd_stat),
	KB_OP(LIST, struct kbloom_list, entries, KB_OPEN, KB_ANSWERS,
	      kb_cmd_list),
	KB_OP(FLUSH, struct kbloom_name_op, name, KB_ADMIN, KB_SILENT,
	      kb_cmd_flush),
	KB_OP(SAVE, struct kbloom_image_op, image_len, KB_OPEN, KB_ANSWERS,
	      kb_cmd_save),
	KB_OP(RESTORE, struct kbloom_image_op, image_len, KB_ADMIN, KB_SILENT,
	      kb_cmd_restore),
	KB_OP(COUNT, struct kbloom_keys, hits, KB_OPEN, KB_ANSWERS,
	      kb_cmd_count),
	KB_OP(SWAP, struct kbloom_name_pair, other, KB_ADMIN, KB_SILENT,
	      kb_cmd_swap),
	KB_OP(RENAME, struct kbloom_name_pair, other, KB_ADMIN, KB_SILENT,
	      kb_cmd_rename),
};

static const struct kb_ioctl_op *kb_ioctl_lookup(unsigned int cmd)
{
	unsigned int nr;

	if (_IOC_TYPE(cmd) != KBLOOM_IOCTL_TYPE || _IOC_DIR(cmd) != _IOC_NONE ||
	    _IOC_SIZE(cmd))
		return NULL;
	nr = _IOC_NR(cmd);
	if (nr < KBLOOM_CMD_BASE || nr - KBLOOM_CMD_BASE >= ARRAY_SIZE(kb_ops))
		return NULL;
	nr = array_index_nospec(nr - KBLOOM_CMD_BASE, ARRAY_SIZE(kb_ops));
	return kb_ops[nr].execute ? &kb_ops[nr] : NULL;
}

static long kb_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	const struct kb_ioctl_op *op;
	struct kb_ucmd ucmd = {};
	union kb_ucmd_buf buf;
	int ret;

	op = kb_ioctl_lookup(cmd);
	if (!op)
		return -ENOTTY;
	if (op->admin && !capable(CAP_NET_ADMIN))
		return -EPERM;

	ucmd.ubuf = (void __user *)arg;
	if (get_user(ucmd.user_size, (u32 __user *)ucmd.ubuf))
		return -EFAULT;
	if (ucmd.user_size < op->min_size)
		return -EINVAL;
	ret = copy_struct_from_user(&buf, op->size, ucmd.ubuf, ucmd.user_size);
	if (ret)
		return ret;
	ucmd.cmd = &buf;
	/*
	 * A command that answers writes its structure back: write the
	 * caller's own bytes there first, so that a read-only structure
	 * fails with EFAULT before anything changes.
	 */
	if (op->answers) {
		ret = kb_respond(&ucmd, op->size);
		if (ret)
			return ret;
	}
	return op->execute(&ucmd);
}

static const struct file_operations kb_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kb_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/*
 * A fixed minor of the "local use" range of misc (devices.txt: 10,
 * 243-254), so that the devname alias below lets kmod's static-nodes
 * create /dev/kbloom before the module is loaded and the first open
 * load it; kb_misc_register() falls back to a dynamic minor when taken.
 */
#define KB_MISC_MINOR	249

static struct miscdevice kb_misc = {
	.minor = KB_MISC_MINOR,
	.name = "kbloom",
	.fops = &kb_fops,
	.mode = 0600,
};

static int kb_misc_register(void)
{
	int ret = misc_register(&kb_misc);

	if (ret != -EBUSY)
		return ret;
	pr_info("misc minor %d taken: a dynamic minor for /dev/kbloom\n",
		KB_MISC_MINOR);
	kb_misc.minor = MISC_DYNAMIC_MINOR;
	return misc_register(&kb_misc);
}

static int __init kb_init(void)
{
	int ret;

	ret = kb_filter_cache_init();
	if (ret)
		return ret;
	ret = kb_kfunc_init();
	if (ret)
		goto err_cache;
	ret = kb_misc_register();
	if (ret)
		goto err_cache;
	return 0;

err_cache:
	kb_filter_cache_exit();
	return ret;
}

static void __exit kb_exit(void)
{
	misc_deregister(&kb_misc);
	kb_reg_unpublish_all();
	kb_filter_cache_exit();
}

module_init(kb_init);
module_exit(kb_exit);

MODULE_DESCRIPTION("Named counting and blocked Bloom filters behind /dev/kbloom");
MODULE_LICENSE("GPL");
MODULE_VERSION(KBLOOM_VERSION);
MODULE_ALIAS_MISCDEV(KB_MISC_MINOR);
MODULE_ALIAS("devname:kbloom");
