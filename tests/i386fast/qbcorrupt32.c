/* qbcorrupt32 FIELD IN OUT: the ELF32 counterpart of
 * tests/fastpath/qbcorrupt.c (same FIELD names): copy the linkopt-optimized
 * ELFCLASS32 object IN to OUT with one field of its DT_SYMINFO or quickbind
 * table made invalid. Addresses are 32 bits wide here, so "outside the
 * object" means a gigabyte away rather than a terabyte. Exit status 2 when
 * IN lacks what FIELD needs: a fixture that lost its tables fails the build
 * instead of testing nothing. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qbtable.h"

static unsigned char *buf;
static size_t len;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "qbcorrupt32: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static void *at(size_t off, size_t n)
{
	if (off > len || n > len - off)
		die("offset out of the file", NULL);
	return buf + off;
}

static size_t off_of(const Elf32_Ehdr *eh, Elf32_Addr vaddr)
{
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf32_Phdr *ph = at(eh->e_phoff + (size_t)i * eh->e_phentsize, sizeof *ph);
		if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_filesz)
			return ph->p_offset + (vaddr - ph->p_vaddr);
	}
	die("address not mapped from the file", NULL);
	return 0;
}

static Elf32_Dyn *dyn_find(Elf32_Dyn *d, size_t n, Elf32_Sword tag)
{
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++)
		if (d[i].d_tag == tag)
			return &d[i];
	return NULL;
}

static void need_flag(const struct qb_table_hdr *h, uint32_t flag, const char *what)
{
	if (!(h->flags & flag))
		die("table lacks", what);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: qbcorrupt32 FIELD IN OUT", NULL);
	const char *field = argv[1];
	FILE *f = fopen(argv[2], "rb");
	if (!f)
		die("cannot open", argv[2]);
	fseek(f, 0, SEEK_END);
	long flen = ftell(f);
	if (flen <= 0)
		die("empty or unreadable", argv[2]);
	len = (size_t)flen;
	rewind(f);
	buf = malloc(len);
	if (!buf || fread(buf, 1, len, f) != len)
		die("cannot read", argv[2]);
	fclose(f);

	Elf32_Ehdr *eh = at(0, sizeof *eh);
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS32)
		die("not an ELF32 file", argv[2]);
	Elf32_Dyn *dyn = NULL;
	size_t ndyn = 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf32_Phdr *ph = at(eh->e_phoff + (size_t)i * eh->e_phentsize, sizeof *ph);
		if (ph->p_type == PT_DYNAMIC) {
			ndyn = ph->p_filesz / sizeof *dyn;
			dyn = at(ph->p_offset, ndyn * sizeof *dyn);
		}
	}
	if (!dyn)
		die("no PT_DYNAMIC", argv[2]);

	Elf32_Dyn *si = dyn_find(dyn, ndyn, DT_SYMINFO);
	Elf32_Dyn *sisz = dyn_find(dyn, ndyn, DT_SYMINSZ);
	Elf32_Dyn *sient = dyn_find(dyn, ndyn, DT_SYMINENT);
	Elf32_Dyn *qt = dyn_find(dyn, ndyn, DT_QB_TABLE);
	Elf32_Dyn *qtsz = dyn_find(dyn, ndyn, DT_QB_TABLESZ);
	if (!si || !sisz || !sient || !qt || !qtsz)
		die("no linkopt tables", argv[2]);
	Elf32_Syminfo *ent = at(off_of(eh, si->d_un.d_ptr), sisz->d_un.d_val);
	size_t nent = sisz->d_un.d_val / sizeof *ent;
	size_t qoff = off_of(eh, qt->d_un.d_ptr);
	struct qb_table_hdr *h = at(qoff, sizeof *h);

	size_t changed = 1;
	if (!strcmp(field, "boundto_range") || !strcmp(field, "boundto_notneeded")) {
		uint16_t bad = (uint16_t)(ndyn + 100);
		if (!strcmp(field, "boundto_notneeded")) {
			Elf32_Dyn *strtab = dyn_find(dyn, ndyn, DT_STRTAB);
			if (!strtab)
				die("no DT_STRTAB", argv[2]);
			bad = (uint16_t)(strtab - dyn);
		}
		changed = 0;
		for (size_t i = 1; i < nent; i++)
			if (ent[i].si_flags & SYMINFO_FLG_DIRECT) {
				ent[i].si_boundto = bad;
				changed++;
			}
	} else if (!strcmp(field, "syminfo_addr")) {
		si->d_un.d_ptr += 0x40000000u;
	} else if (!strcmp(field, "syminsz_small")) {
		sisz->d_un.d_val = 2;
	} else if (!strcmp(field, "syminent_wrong")) {
		sient->d_un.d_val = 8;
	} else if (!strcmp(field, "magic")) {
		h->magic[3] = '9';
	} else if (!strcmp(field, "version")) {
		h->version = QB_TABLE_VERSION + 1;
	} else if (!strcmp(field, "hdr_size_small")) {
		h->hdr_size = 8;
	} else if (!strcmp(field, "hdr_size_big")) {
		h->hdr_size = 0xfff0;
	} else if (!strcmp(field, "nsyms")) {
		h->nsyms += 1;
	} else if (!strcmp(field, "gnu_off")) {
		need_flag(h, QB_TF_GNUHASH, "GNU hashes");
		h->gnu_off = 0xfffffff0u;
	} else if (!strcmp(field, "gnu_off_unaligned")) {
		need_flag(h, QB_TF_GNUHASH, "GNU hashes");
		h->gnu_off += 2;
	} else if (!strcmp(field, "sysv_off")) {
		need_flag(h, QB_TF_SYSVHASH, "SysV hashes");
		h->sysv_off = qtsz->d_un.d_val;
	} else if (!strcmp(field, "hint_off")) {
		need_flag(h, QB_TF_HINTS, "hints");
		h->hint_off = qtsz->d_un.d_val - 4;
	} else if (!strcmp(field, "hints_wrong")) {
		need_flag(h, QB_TF_HINTS, "hints");
		uint32_t *hint = at(qoff + h->hint_off, 4ull * h->nsyms);
		changed = 0;
		for (uint32_t i = 1; i < h->nsyms; i++)
			if (hint[i]) {
				hint[i] = hint[i] > 1 ? hint[i] - 1 : hint[i] + 1;
				changed++;
			}
	} else if (!strcmp(field, "needed_id")) {
		need_flag(h, QB_TF_HINTS, "hints");
		struct qb_needed_id *n = at(qoff + h->needed_off, sizeof *n * h->nneeded);
		changed = h->nneeded;
		for (uint32_t k = 0; k < h->nneeded; k++)
			n[k].id[0] ^= 0x5a5a5a5au;
	} else if (!strcmp(field, "tablesz_big")) {
		qtsz->d_un.d_val = 0xfffffff0u;
	} else if (!strcmp(field, "table_addr")) {
		qt->d_un.d_ptr += 0x40000000u;
	} else {
		die("unknown field", field);
	}
	if (!changed)
		die("nothing to corrupt for", field);

	f = fopen(argv[3], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write", argv[3]);
	free(buf);
	return 0;
}
