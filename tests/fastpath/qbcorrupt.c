/* qbcorrupt FIELD IN OUT: copy the linkopt-optimized ELF64 object IN to OUT
 * with one field of its direct-binding or quickbind table made invalid.
 * The loader must ignore what it cannot trust and still run the program.
 * Exit status 2 when IN lacks what FIELD needs, so a fixture that stopped
 * carrying the tables fails the build instead of testing nothing. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qbtable.h"

static unsigned char *buf;
static size_t len;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "qbcorrupt: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static void *at(size_t off, size_t n)
{
	if (off > len || n > len - off)
		die("offset out of the file", NULL);
	return buf + off;
}

/* File offset of vaddr, through the PT_LOAD that maps it from the file. */
static size_t off_of(const Elf64_Ehdr *eh, uint64_t vaddr)
{
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = at(eh->e_phoff + (size_t)i * eh->e_phentsize, sizeof *ph);
		if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr && vaddr < ph->p_vaddr + ph->p_filesz)
			return ph->p_offset + (vaddr - ph->p_vaddr);
	}
	die("address not mapped from the file", NULL);
	return 0;
}

static Elf64_Dyn *dyn_find(Elf64_Dyn *d, size_t n, int64_t tag)
{
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++)
		if (d[i].d_tag == tag)
			return &d[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: qbcorrupt FIELD IN OUT", NULL);
	const char *field = argv[1];
	FILE *f = fopen(argv[2], "rb");
	if (!f)
		die("cannot open", argv[2]);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(len);
	if (!buf || fread(buf, 1, len, f) != len)
		die("cannot read", argv[2]);
	fclose(f);

	Elf64_Ehdr *eh = at(0, sizeof *eh);
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		die("not an ELF64 file", argv[2]);
	Elf64_Dyn *dyn = NULL;
	size_t ndyn = 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = at(eh->e_phoff + (size_t)i * eh->e_phentsize, sizeof *ph);
		if (ph->p_type == PT_DYNAMIC) {
			ndyn = ph->p_filesz / sizeof *dyn;
			dyn = at(ph->p_offset, ndyn * sizeof *dyn);
		}
	}
	if (!dyn)
		die("no PT_DYNAMIC", argv[2]);

	Elf64_Dyn *si = dyn_find(dyn, ndyn, DT_SYMINFO);
	Elf64_Dyn *sisz = dyn_find(dyn, ndyn, DT_SYMINSZ);
	Elf64_Dyn *sient = dyn_find(dyn, ndyn, DT_SYMINENT);
	Elf64_Dyn *qt = dyn_find(dyn, ndyn, DT_QB_TABLE);
	Elf64_Dyn *qtsz = dyn_find(dyn, ndyn, DT_QB_TABLESZ);
	if (!si || !sisz || !sient || !qt || !qtsz)
		die("no linkopt tables", argv[2]);
	Elf64_Syminfo *ent = at(off_of(eh, si->d_un.d_ptr), sisz->d_un.d_val);
	size_t nent = sisz->d_un.d_val / sizeof *ent;
	struct qb_table_hdr *h = at(off_of(eh, qt->d_un.d_ptr), sizeof *h);

	size_t changed = 0;
	if (!strcmp(field, "boundto_range") || !strcmp(field, "boundto_notneeded")) {
		/* Every direct entry names a .dynamic index past the end, or the
		 * index of DT_STRTAB, which is no DT_NEEDED entry. */
		uint16_t bad = (uint16_t)(ndyn + 100);
		if (!strcmp(field, "boundto_notneeded")) {
			Elf64_Dyn *strtab = dyn_find(dyn, ndyn, DT_STRTAB);
			if (!strtab)
				die("no DT_STRTAB", argv[2]);
			bad = (uint16_t)(strtab - dyn);
		}
		for (size_t i = 1; i < nent; i++)
			if (ent[i].si_flags & SYMINFO_FLG_DIRECT) {
				ent[i].si_boundto = bad;
				changed++;
			}
	} else if (!strcmp(field, "syminfo_addr")) {
		si->d_un.d_ptr += (uint64_t)1 << 40;
		changed = 1;
	} else if (!strcmp(field, "syminsz_small")) {
		sisz->d_un.d_val = 4;
		changed = 1;
	} else if (!strcmp(field, "syminent_wrong")) {
		sient->d_un.d_val = 8;
		changed = 1;
	} else if (!strcmp(field, "magic")) {
		h->magic[3] = '9';
		changed = 1;
	} else if (!strcmp(field, "version")) {
		h->version = QB_TABLE_VERSION + 1;
		changed = 1;
	} else if (!strcmp(field, "hdr_size_small")) {
		h->hdr_size = 8;
		changed = 1;
	} else if (!strcmp(field, "hdr_size_big")) {
		h->hdr_size = 0xfff0;
		changed = 1;
	} else if (!strcmp(field, "nsyms")) {
		h->nsyms += 1;
		changed = 1;
	} else if (!strcmp(field, "gnu_off")) {
		if (!(h->flags & QB_TF_GNUHASH))
			die("table has no GNU hashes", argv[2]);
		h->gnu_off = 0xfffffff0u;
		changed = 1;
	} else if (!strcmp(field, "gnu_off_unaligned")) {
		if (!(h->flags & QB_TF_GNUHASH))
			die("table has no GNU hashes", argv[2]);
		h->gnu_off += 2;
		changed = 1;
	} else if (!strcmp(field, "sysv_off")) {
		/* claims SysV values at the end of the table */
		h->flags |= QB_TF_SYSVHASH;
		h->sysv_off = (uint32_t)qtsz->d_un.d_val;
		changed = 1;
	} else if (!strcmp(field, "hint_off")) {
		if (!(h->flags & QB_TF_HINTS))
			die("table has no hints", argv[2]);
		h->hint_off = (uint32_t)qtsz->d_un.d_val - 4;
		changed = 1;
	} else if (!strcmp(field, "hints_wrong") || !strcmp(field, "needed_id")) {
		/* Hints that name other symbols than the ones bound, or
		 * identities that no library has: neither may be trusted. */
		if (!(h->flags & QB_TF_HINTS))
			die("table has no hints", argv[2]);
		uint8_t *tab = (uint8_t *)h;
		if (!strcmp(field, "hints_wrong")) {
			uint32_t *hint = at(off_of(eh, qt->d_un.d_ptr) + h->hint_off, 4ull * h->nsyms);
			for (uint32_t i = 1; i < h->nsyms; i++)
				if (hint[i]) {
					hint[i] = hint[i] > 1 ? hint[i] - 1 : hint[i] + 1;
					changed++;
				}
		} else {
			struct qb_needed_id *n = at(off_of(eh, qt->d_un.d_ptr) + h->needed_off,
				sizeof *n * h->nneeded);
			for (uint32_t k = 0; k < h->nneeded; k++, changed++)
				n[k].id[0] ^= 0x5a5a5a5au;
		}
		(void)tab;
	} else if (!strcmp(field, "tablesz_big")) {
		qtsz->d_un.d_val = (uint64_t)1 << 32;
		changed = 1;
	} else if (!strcmp(field, "table_addr")) {
		qt->d_un.d_ptr += (uint64_t)1 << 40;
		changed = 1;
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
