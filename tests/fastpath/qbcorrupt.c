/* qbcorrupt FIELD IN OUT: copy the linkopt-optimized ELF object IN
 * (ELFCLASS64 or ELFCLASS32) to OUT with one field of its DT_SYMINFO or
 * quickbind table made invalid. The loader must ignore what it cannot
 * trust and still run the program. Exit status 2 when IN lacks what FIELD
 * needs, so a fixture that stopped carrying the tables fails the build
 * instead of testing nothing. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfbuf.h"
#include "qbtable.h"

static unsigned char *buf;
static size_t len;
static int is64;

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

/* The file as the shared ELF reader (common/elfbuf.h) sees it. Syminfo
 * entries and the quickbind table have the same layout in both classes. */
static struct qb_elfbuf file;
static Elf64_Phdr *phdrs;

/* File offset of vaddr, through the PT_LOAD that maps it from the file. */
static size_t off_of(uint64_t vaddr)
{
	uint64_t off;
	if (qb_elfbuf_v2o(&file, vaddr, 1, &off))
		die("address not mapped from the file", NULL);
	return off;
}

static size_t dyn_off, ndyn;

static size_t dyn_entsize(void)
{
	return is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
}

static Elf64_Dyn dyn_get(size_t i)
{
	Elf64_Dyn d;
	qb_elfbuf_dyn(buf, is64, dyn_off, i, &d);
	return d;
}

static int64_t dyn_tag(size_t i)
{
	return dyn_get(i).d_tag;
}

static uint64_t dyn_val(size_t i)
{
	return dyn_get(i).d_un.d_val;
}

static void dyn_set(size_t i, uint64_t v)
{
	unsigned char *d = buf + dyn_off + i * dyn_entsize();
	if (is64)
		memcpy(d + 8, &v, 8);
	else
		memcpy(d + 4, &(uint32_t){(uint32_t)v}, 4);
}

/* Index of the entry with tag, or die naming what is missing. */
static size_t dyn_find(int64_t tag, const char *what)
{
	for (size_t i = 0; i < ndyn && dyn_tag(i) != DT_NULL; i++)
		if (dyn_tag(i) == tag)
			return i;
	die("no entry in .dynamic", what);
	return 0;
}

static void need_flag(const struct qb_table_hdr *h, uint32_t flag, const char *what)
{
	if (!(h->flags & flag))
		die("table lacks", what);
}

static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot open", path);
	fseek(f, 0, SEEK_END);
	long flen = ftell(f);
	if (flen <= 0)
		die("empty or unreadable", path);
	len = (size_t)flen;
	rewind(f);
	buf = malloc(len);
	if (!buf || fread(buf, 1, len, f) != len)
		die("cannot read", path);
	fclose(f);
	Elf64_Ehdr eh;
	const char *why = qb_elfbuf_ehdr(buf, len, &eh);
	if (why)
		die(why, path);
	is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	size_t phent = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (eh.e_phentsize != phent || !qb_in_file(len, eh.e_phoff, (uint64_t)eh.e_phnum * phent) ||
	    !(phdrs = calloc(eh.e_phnum + 1, sizeof *phdrs)))
		die("bad program headers", path);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		qb_elfbuf_phdr(buf, is64, eh.e_phoff, i, &phdrs[i]);
		if (phdrs[i].p_type == PT_DYNAMIC) {
			ndyn = phdrs[i].p_filesz / dyn_entsize();
			dyn_off = (const unsigned char *)at(phdrs[i].p_offset, ndyn * dyn_entsize()) - buf;
		}
	}
	if (!ndyn)
		die("no PT_DYNAMIC", path);
	qb_elfbuf_init(&file, buf, len, &eh, phdrs, eh.e_phnum);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: qbcorrupt FIELD IN OUT", NULL);
	const char *field = argv[1];
	load(argv[2]);

	size_t si = dyn_find(DT_SYMINFO, "DT_SYMINFO");
	size_t sisz = dyn_find(DT_SYMINSZ, "DT_SYMINSZ");
	size_t sient = dyn_find(DT_SYMINENT, "DT_SYMINENT");
	size_t qt = dyn_find(DT_QB_TABLE, "DT_QB_TABLE");
	size_t qtsz = dyn_find(DT_QB_TABLESZ, "DT_QB_TABLESZ");
	Elf64_Syminfo *ent = at(off_of(dyn_val(si)), dyn_val(sisz));
	size_t nent = dyn_val(sisz) / sizeof *ent;
	size_t qoff = off_of(dyn_val(qt));
	struct qb_table_hdr *h = at(qoff, sizeof *h);
	/* An address "outside the object": a terabyte away, or a gigabyte in
	 * a 32-bit address space. */
	uint64_t far = is64 ? (uint64_t)1 << 40 : 0x40000000u;

	size_t changed = 1;
	if (!strcmp(field, "boundto_range") || !strcmp(field, "boundto_notneeded")) {
		/* Every direct entry names a .dynamic index past the end, or the
		 * index of DT_STRTAB, which is no DT_NEEDED entry. */
		uint16_t bad = (uint16_t)(ndyn + 100);
		if (!strcmp(field, "boundto_notneeded"))
			bad = (uint16_t)dyn_find(DT_STRTAB, "DT_STRTAB");
		changed = 0;
		for (size_t i = 1; i < nent; i++)
			if (ent[i].si_flags & SYMINFO_FLG_DIRECT) {
				ent[i].si_boundto = bad;
				changed++;
			}
	} else if (!strcmp(field, "syminfo_addr")) {
		dyn_set(si, dyn_val(si) + far);
	} else if (!strcmp(field, "syminsz_small")) {
		/* ELF64: one entry where there are many; ELF32: half an entry */
		dyn_set(sisz, is64 ? 4 : 2);
	} else if (!strcmp(field, "syminent_wrong")) {
		dyn_set(sient, 8);
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
		/* a table that has SysV values, pointed past its end */
		need_flag(h, QB_TF_SYSVHASH, "SysV hashes");
		h->sysv_off = (uint32_t)dyn_val(qtsz);
	} else if (!strcmp(field, "sysv_off_claimed")) {
		/* a table without SysV values claiming some at its end */
		h->flags |= QB_TF_SYSVHASH;
		h->sysv_off = (uint32_t)dyn_val(qtsz);
	} else if (!strcmp(field, "hint_off")) {
		need_flag(h, QB_TF_HINTS, "hints");
		h->hint_off = (uint32_t)dyn_val(qtsz) - 4;
	} else if (!strcmp(field, "hints_wrong")) {
		/* hints that name other symbols than the ones bound */
		need_flag(h, QB_TF_HINTS, "hints");
		uint32_t *hint = at(qoff + h->hint_off, 4ull * h->nsyms);
		changed = 0;
		for (uint32_t i = 1; i < h->nsyms; i++)
			if (hint[i]) {
				hint[i] = hint[i] > 1 ? hint[i] - 1 : hint[i] + 1;
				changed++;
			}
	} else if (!strcmp(field, "hints_range") || !strcmp(field, "hints_low")) {
		/* hints past any target's symbols, or at symbol 1 (below a
		 * GNU hash table's first symbol, or another name) */
		need_flag(h, QB_TF_HINTS, "hints");
		uint32_t *hint = at(qoff + h->hint_off, 4ull * h->nsyms);
		uint32_t bad = !strcmp(field, "hints_range") ? 0xfffffff0u : 1;
		changed = 0;
		for (uint32_t i = 1; i < h->nsyms; i++)
			if (hint[i] && hint[i] != bad) {
				hint[i] = bad;
				changed++;
			}
	} else if (!strcmp(field, "definers_range") || !strcmp(field, "definer_hints_range")) {
		/* scope definers (docs/FORMAT.md 2.4) past needed[], or
		 * their definitions past the definer's symbols */
		need_flag(h, QB_TF_SCOPE, "scope definers");
		uint32_t *def = at(qoff + h->definer_off, 4ull * h->nsyms);
		uint32_t *hint = at(qoff + h->hint_off, 4ull * h->nsyms);
		int range = !strcmp(field, "definers_range");
		changed = 0;
		for (uint32_t i = 1; i < h->nsyms; i++)
			if (def[i]) {
				if (range)
					def[i] = h->nneeded + 1 + i;
				else
					hint[i] = 0xfffffff0u;
				changed++;
			}
	} else if (!strcmp(field, "si_flags")) {
		/* direct entries with one more flag (lazy loading): still
		 * direct, but not the form linkopt writes */
		changed = 0;
		for (size_t i = 1; i < nent; i++)
			if (ent[i].si_flags & SYMINFO_FLG_DIRECT) {
				ent[i].si_flags |= 0x0008;
				changed++;
			}
	} else if (!strcmp(field, "reloc_offset")) {
		/* the place of the first PLT relocation against a symbol
		 * bound directly to libcore.so (the target whose hints hold)
		 * at the ELF header, in the read-only first segment (a
		 * relocation table is not one of linkopt's, but the hinted
		 * loop is the first to read it) */
		const char *strtab = at(off_of(dyn_val(dyn_find(DT_STRTAB, "DT_STRTAB"))), 1);
		size_t core = ndyn;
		for (size_t i = 0; i < ndyn; i++) {
			Elf64_Dyn d = dyn_get(i);
			if (d.d_tag == DT_NEEDED && !strncmp(strtab + d.d_un.d_val, "libcore.so", 10))
				core = i;
		}
		size_t jr = dyn_find(DT_JMPREL, "DT_JMPREL");
		size_t jrsz = dyn_find(DT_PLTRELSZ, "DT_PLTRELSZ");
		size_t esz = is64 ? 24 : 8;
		unsigned char *rel = at(off_of(dyn_val(jr)), dyn_val(jrsz));
		changed = 0;
		for (size_t i = 0; !changed && i + esz <= dyn_val(jrsz); i += esz) {
			uint64_t info = 0;
			memcpy(&info, rel + i + (is64 ? 8 : 4), is64 ? 8 : 4);
			size_t sym = (size_t)(is64 ? info >> 32 : info >> 8);
			if (sym < nent && (ent[sym].si_flags & SYMINFO_FLG_DIRECT) && ent[sym].si_boundto == core) {
				memset(rel + i, 0, is64 ? 8 : 4);
				changed = 1;
			}
		}
	} else if (!strcmp(field, "reloc_in_tables")) {
		/* the place of the first PLT relocation at the quickbind table:
		 * inside linkopt's segment, writable only because .dynamic is
		 * there; the loader gives the segment's pages back once the
		 * object is relocated, so nothing else in it may be written */
		size_t jr = dyn_find(DT_JMPREL, "DT_JMPREL");
		size_t jrsz = dyn_find(DT_PLTRELSZ, "DT_PLTRELSZ");
		uint64_t place = dyn_val(qt) + 8;
		unsigned char *rel = at(off_of(dyn_val(jr)), dyn_val(jrsz));
		int wr = 0;
		for (size_t i = 0; i < file.phnum; i++)
			if (phdrs[i].p_type == PT_LOAD && (phdrs[i].p_flags & PF_W) &&
			    place >= phdrs[i].p_vaddr && place - phdrs[i].p_vaddr < phdrs[i].p_memsz)
				wr = 1;
		if (!wr)
			die("the quickbind table is not in a writable segment", NULL);
		changed = dyn_val(jrsz) >= (is64 ? 24u : 8u);
		if (changed)
			memcpy(rel, &place, is64 ? 8 : 4);
	} else if (!strcmp(field, "needed_id")) {
		/* identities that no library has */
		need_flag(h, QB_TF_HINTS, "hints");
		struct qb_needed_id *n = at(qoff + h->needed_off, sizeof *n * h->nneeded);
		changed = h->nneeded;
		for (uint32_t k = 0; k < h->nneeded; k++)
			n[k].id[0] ^= 0x5a5a5a5au;
	} else if (!strcmp(field, "tablesz_big")) {
		dyn_set(qtsz, is64 ? (uint64_t)1 << 32 : 0xfffffff0u);
	} else if (!strcmp(field, "table_addr")) {
		dyn_set(qt, dyn_val(qt) + far);
	} else {
		die("unknown field", field);
	}
	if (!changed)
		die("nothing to corrupt for", field);

	FILE *f = fopen(argv[3], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write", argv[3]);
	free(buf);
	free(phdrs);
	return 0;
}
