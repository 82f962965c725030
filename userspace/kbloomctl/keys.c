// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: keys.  A key is 1..KBLOOM_KEY_MAX bytes, written in one of
 * the --key encodings:
 *   str   the bytes of the argument or line as they are (default)
 *   hex   hex digits, two per byte, optional 0x prefix, ':' and '-'
 *         between digits ignored (aa:bb:cc is 3 bytes)
 *   ipv4  a dotted quad, 4 bytes in network order
 *   ipv6  an IPv6 address, 16 bytes in network order
 *   u64   an unsigned 64-bit integer (decimal or 0x hex), 8 bytes
 *         little-endian
 * Keys come from the arguments, or one per line from a file (-f FILE) or
 * standard input (-f -, or a lone "-" argument).  Lines end with LF or
 * CRLF; empty lines are skipped; with encodings other than str, spaces
 * and tabs around a key are ignored.  Every key is parsed before any is
 * applied: bad keys are reported with their line numbers (or argument
 * positions) and the batch is refused whole (exit 2).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"

#define BAD_KEYS_SHOWN	10

const char *const key_enc_names[] = { "str", "hex", "ipv4", "ipv6", "u64",
				       "addr", NULL };

int keys_enc_opt(struct ctl *c)
{
	char words[64];
	int e = arg_pick(c->val[CO_KEY], key_enc_names);

	if (e < 0) {
		arg_words(words, sizeof(words), key_enc_names);
		return ctl_usage(c, "--key '%s': unknown encoding (allowed: %s)",
				 c->val[CO_KEY], words);
	}
	c->key_enc = e;
	return 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

static int parse_hex(const char *s, size_t slen, __u8 *out, __u32 *outlen,
		     char *why, size_t wl)
{
	size_t i = 0, nd = 0;
	int v, hi = 0;

	if (slen >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	for (; i < slen; i++) {
		if (s[i] == ':' || s[i] == '-')
			continue;
		v = hexval((unsigned char)s[i]);
		if (v < 0) {
			snprintf(why, wl, "not a hex digit at offset %zu (allowed: 1..%u bytes as hex digits, optional 0x)",
				 i, KBLOOM_KEY_MAX);
			return -EINVAL;
		}
		if (nd / 2 >= KBLOOM_KEY_MAX) {
			snprintf(why, wl, "more than %u bytes (allowed: 1..%u bytes as hex digits)",
				 KBLOOM_KEY_MAX, KBLOOM_KEY_MAX);
			return -EINVAL;
		}
		if (nd & 1)
			out[nd / 2] = (__u8)(hi << 4 | v);
		else
			hi = v;
		nd++;
	}
	if (!nd || (nd & 1)) {
		snprintf(why, wl, "%s (allowed: 1..%u bytes as an even number of hex digits)",
			 nd ? "odd number of hex digits" : "no hex digits",
			 KBLOOM_KEY_MAX);
		return -EINVAL;
	}
	*outlen = nd / 2;
	return 0;
}

/*
 * Parse one key of @slen bytes at @s (not NUL-terminated for str).
 * Return: 0, or -EINVAL with the reason in @why.
 */
int key_parse(enum key_enc enc, const char *s, size_t slen, __u8 *out,
	      __u32 *outlen, char *why, size_t wl)
{
	char tmp[64];
	__u64 v;
	int i;

	if (enc == KENC_STR) {
		if (!slen || slen > KBLOOM_KEY_MAX) {
			snprintf(why, wl, "%zu bytes (allowed: 1..%u bytes)",
				 slen, KBLOOM_KEY_MAX);
			return -EINVAL;
		}
		memcpy(out, s, slen);
		*outlen = slen;
		return 0;
	}
	if (memchr(s, 0, slen)) {
		snprintf(why, wl, "contains a NUL byte");
		return -EINVAL;
	}
	if (enc == KENC_HEX)
		return parse_hex(s, slen, out, outlen, why, wl);
	if (slen >= sizeof(tmp))
		goto bad;
	memcpy(tmp, s, slen);
	tmp[slen] = 0;
	switch (enc) {
	case KENC_IPV4:
		if (inet_pton(AF_INET, tmp, out) != 1)
			goto bad;
		*outlen = 4;
		return 0;
	case KENC_IPV6:
		if (inet_pton(AF_INET6, tmp, out) != 1)
			goto bad;
		*outlen = 16;
		return 0;
	case KENC_U64:
		if (arg_u64(tmp, 0, ~0ULL, &v))
			goto bad;
		for (i = 0; i < 8; i++)
			out[i] = (__u8)(v >> (8 * i));
		*outlen = 8;
		return 0;
	case KENC_ADDR:
		*outlen = inet_pton(AF_INET, tmp, out) == 1 ? 4 :
			  inet_pton(AF_INET6, tmp, out) == 1 ? 16 : 0;
		if (*outlen)
			return 0;
		break;
	default:
		break;
	}
bad:
	switch (enc) {
	case KENC_ADDR:
		snprintf(why, wl, "not an IP address (allowed: IPv4 such as 192.0.2.1 or IPv6 such as 2001:db8::1)");
		break;
	case KENC_IPV4:
		snprintf(why, wl, "not an IPv4 address (allowed: a dotted quad such as 192.0.2.1)");
		break;
	case KENC_IPV6:
		snprintf(why, wl, "not an IPv6 address (allowed: such as 2001:db8::1 or ::ffff:192.0.2.1)");
		break;
	default:
		snprintf(why, wl, "not an unsigned integer (allowed: 0..18446744073709551615, decimal or 0x hex)");
		break;
	}
	return -EINVAL;
}

/* Escape bytes for display: printable ASCII as is, the rest as \xHH. */
static void escape(const __u8 *p, size_t len, char *out, size_t ol,
		   size_t max)
{
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < ol; i++) {
		if (i == max) {
			snprintf(out + o, ol - o, "...");
			return;
		}
		if (p[i] == '\\')
			o += snprintf(out + o, ol - o, "\\\\");
		else if (p[i] >= 0x20 && p[i] < 0x7f)
			out[o++] = p[i];
		else
			o += snprintf(out + o, ol - o, "\\x%02x", p[i]);
	}
	out[o] = 0;
}

/* A key as text in its encoding (str: escaped); @ol >= 260 is enough. */
void key_render(enum key_enc enc, const __u8 *key, __u32 len, char *out,
		size_t ol)
{
	unsigned long long v = 0;
	__u32 i;

	switch (enc) {
	case KENC_HEX:
		out[0] = 0;
		for (i = 0; i < len && 2 * i + 3 <= ol; i++)
			snprintf(out + 2 * i, ol - 2 * i, "%02x", key[i]);
		return;
	case KENC_IPV4:
	case KENC_IPV6:
		if (inet_ntop(enc == KENC_IPV4 ? AF_INET : AF_INET6, key, out,
			      ol))
			return;
		break;
	case KENC_ADDR:
		if ((len == 4 || len == 16) &&
		    inet_ntop(len == 4 ? AF_INET : AF_INET6, key, out, ol))
			return;
		break;
	case KENC_U64:
		if (len != 8)
			break;
		for (i = 0; i < 8; i++)
			v |= (unsigned long long)key[i] << (8 * i);
		snprintf(out, ol, "%llu", v);
		return;
	default:
		break;
	}
	escape(key, len, out, ol, KBLOOM_KEY_MAX);
}

static int ks_append(struct keyset *ks, const __u8 *key, __u32 len)
{
	size_t need = ks->len + len + (ks->key_len ? 0 : 1);
	__u8 *nb;

	if (need > ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 4096;

		while (cap < need)
			cap *= 2;
		nb = realloc(ks->buf, cap);
		if (!nb)
			return -ENOMEM;
		ks->buf = nb;
		ks->cap = cap;
	}
	if (!ks->key_len)
		ks->buf[ks->len++] = (__u8)len;
	memcpy(ks->buf + ks->len, key, len);
	ks->len += len;
	ks->count++;
	return 0;
}

void keys_free(struct keyset *ks)
{
	free(ks->buf);
	memset(ks, 0, sizeof(*ks));
}

bool keys_next(const struct keyset *ks, struct key_iter *it,
	       const __u8 **key, __u32 *len)
{
	if (it->off >= ks->len)
		return false;
	if (ks->key_len) {
		*len = ks->key_len;
	} else {
		*len = ks->buf[it->off];
		it->off++;
	}
	*key = ks->buf + it->off;
	it->off += *len;
	return true;
}

static __u32 enc_fixed_len(enum key_enc enc)
{
	switch (enc) {
	case KENC_IPV4:
		return 4;
	case KENC_IPV6:
		return 16;
	case KENC_U64:
		return 8;
	default:
		return 0;
	}
}

/* Parse one key into @ks; report it when bad.  Return: 0, 1 bad, -ENOMEM. */
static int take(struct ctl *c, struct keyset *ks, const char *s, size_t slen,
		const char *where, __u64 at, __u64 *bad)
{
	__u8 key[KBLOOM_KEY_MAX];
	char why[160], shown[96];
	__u32 len;

	if (!key_parse(ks->enc, s, slen, key, &len, why, sizeof(why)))
		return ks_append(ks, key, len);
	if (++*bad <= BAD_KEYS_SHOWN) {
		escape((const __u8 *)s, slen, shown, sizeof(shown), 40);
		if (where)
			ctl_usage(c, "%s:%llu: key '%s': %s", where,
				  (unsigned long long)at, shown, why);
		else
			ctl_usage(c, "KEY %llu '%s': %s",
				  (unsigned long long)at, shown, why);
	}
	return 1;
}

static bool is_blank(int ch)
{
	return ch == ' ' || ch == '\t';
}

static int keys_from_file(struct ctl *c, struct keyset *ks, const char *path)
{
	bool use_stdin = !strcmp(path, "-");
	__u64 lineno = 0, bad = 0;
	char *line = NULL, *s;
	size_t cap = 0, n;
	ssize_t got;
	FILE *f;
	int ret = 0;

	ks->source = use_stdin ? "<stdin>" : path;
	f = use_stdin ? stdin : fopen(path, "r");
	if (!f)
		return ctl_syserr(c, errno, NULL, "%s: open %s", c->cmd_path,
				  path);
	while ((got = getline(&line, &cap, f)) >= 0) {
		lineno++;
		s = line;
		n = got;
		if (n && s[n - 1] == '\n')
			n--;
		if (n && s[n - 1] == '\r')
			n--;
		if (ks->enc != KENC_STR) {
			while (n && is_blank(s[0])) {
				s++;
				n--;
			}
			while (n && is_blank(s[n - 1]))
				n--;
		}
		if (!n)
			continue;
		ret = take(c, ks, s, n, ks->source, lineno, &bad);
		if (ret < 0)
			break;
	}
	if (ret >= 0 && ferror(f))
		ret = -errno;
	free(line);
	if (!use_stdin)
		fclose(f);
	if (ret < 0)
		return ctl_syserr(c, ret, NULL, "%s: read %s", c->cmd_path,
				  ks->source);
	if (bad > 1)
		ctl_usage(c, "%s: %llu bad keys in %llu lines%s, nothing applied",
			  ks->source, (unsigned long long)bad,
			  (unsigned long long)lineno,
			  bad > BAD_KEYS_SHOWN ? " (the first ones shown)" : "");
	return bad ? KBCTL_USAGE : 0;
}

/*
 * Collect the keys of a command: its KEY arguments, or the lines of -f
 * FILE, or of standard input ("-f -" or a lone "-").  Return: 0 or an exit
 * code (the messages are printed).
 */
int keys_collect(struct ctl *c, int argc, char **argv, struct keyset *ks)
{
	__u64 bad = 0;
	int i, ret;

	memset(ks, 0, sizeof(*ks));
	ks->enc = c->key_enc;
	ks->key_len = enc_fixed_len(ks->enc);
	if (c->set[CO_FILE] && argc)
		return ctl_usage(c, "KEY '%s': not allowed with -f %s (give KEY arguments or -f FILE, not both)",
				 argv[0], c->val[CO_FILE]);
	if (c->set[CO_FILE])
		return keys_from_file(c, ks, c->val[CO_FILE]);
	if (argc == 1 && !strcmp(argv[0], "-"))
		return keys_from_file(c, ks, "-");
	if (!argc)
		return ctl_usage(c, "missing KEY (give KEY arguments, -f FILE, or - for standard input)");
	for (i = 0; i < argc; i++) {
		ret = take(c, ks, argv[i], strlen(argv[i]), NULL, i + 1, &bad);
		if (ret < 0)
			return ctl_syserr(c, ret, NULL, "%s", c->cmd_path);
	}
	if (bad > 1)
		ctl_usage(c, "%llu bad keys of %d%s, nothing applied",
			  (unsigned long long)bad, argc,
			  bad > BAD_KEYS_SHOWN ? " (the first ones shown)" : "");
	return bad ? KBCTL_USAGE : 0;
}
