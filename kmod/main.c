// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko: named Bloom filters behind /dev/kbloom.
 *
 * The ioctl ABI is uapi/kbloom.h.  Each command is a handler in a table
 * indexed by its number; the dispatcher copies the command's structure in
 * with copy_struct_from_user() (iommufd's rules) and out again when the
 * handler asks for it.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/slab.h>

#include "uapi/kbloom.h"

union kbloom_ucmd_buf {
	struct kbloom_version version;
};

struct kbloom_ucmd {
	void __user *ubuf;
	u32 user_size;
	void *cmd;
};

struct kbloom_ioctl_op {
	unsigned int size;	/* current struct size */
	unsigned int min_size;	/* first version's struct size */
	int (*execute)(struct kbloom_ucmd *ucmd);
};

static int kbloom_respond(struct kbloom_ucmd *ucmd, size_t len)
{
	if (copy_to_user(ucmd->ubuf, ucmd->cmd, min_t(size_t, ucmd->user_size, len)))
		return -EFAULT;
	return 0;
}

static int kbloom_version(struct kbloom_ucmd *ucmd)
{
	struct kbloom_version *cmd = ucmd->cmd;

	if (cmd->flags)
		return -EOPNOTSUPP;
	cmd->major = KBLOOM_ABI_MAJOR;
	cmd->minor = KBLOOM_ABI_MINOR;
	cmd->image_version = KBLOOM_IMAGE_VERSION;
	cmd->key_max = KBLOOM_KEY_MAX;
	return kbloom_respond(ucmd, sizeof(*cmd));
}

static const struct kbloom_ioctl_op kbloom_ops[] = {
	[KBLOOM_CMD_VERSION - KBLOOM_CMD_BASE] = {
		.size = sizeof(struct kbloom_version),
		.min_size = offsetofend(struct kbloom_version, key_max),
		.execute = kbloom_version,
	},
};

static long kbloom_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	const struct kbloom_ioctl_op *op;
	union kbloom_ucmd_buf buf;
	struct kbloom_ucmd ucmd = {};
	unsigned int nr;
	int ret;

	if (_IOC_TYPE(cmd) != KBLOOM_IOCTL_TYPE || _IOC_DIR(cmd) != _IOC_NONE ||
	    _IOC_SIZE(cmd))
		return -ENOTTY;
	nr = _IOC_NR(cmd);
	if (nr < KBLOOM_CMD_BASE || nr - KBLOOM_CMD_BASE >= ARRAY_SIZE(kbloom_ops))
		return -ENOTTY;
	op = &kbloom_ops[nr - KBLOOM_CMD_BASE];
	if (!op->execute)
		return -ENOTTY;

	ucmd.ubuf = (void __user *)arg;
	if (get_user(ucmd.user_size, (u32 __user *)ucmd.ubuf))
		return -EFAULT;
	if (ucmd.user_size < op->min_size)
		return -EINVAL;
	ret = copy_struct_from_user(&buf, op->size, ucmd.ubuf, ucmd.user_size);
	if (ret)
		return ret;
	ucmd.cmd = &buf;
	return op->execute(&ucmd);
}

static const struct file_operations kbloom_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kbloom_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice kbloom_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "kbloom",
	.fops = &kbloom_fops,
	.mode = 0600,
};

module_misc_device(kbloom_misc);

MODULE_DESCRIPTION("Named counting and blocked Bloom filters behind /dev/kbloom");
MODULE_LICENSE("GPL");
