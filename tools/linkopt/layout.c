/* Where the new tables go in the file (layout.h): rewritten in place when
 * a table keeps its size, otherwise placed in one new PT_LOAD segment,
 * with the program headers, .dynamic and section headers pointing at
 * them. Owns every decision about where bytes land in the new image. */
#include "layout.h"

#include <stdlib.h>
#include <string.h>

#include "qbtable.h"

#define PAGE 4096u
#ifndef SHT_RELR
#define SHT_RELR 19
#endif
#ifndef DT_RELR
#define DT_RELR 36
#endif
#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#endif
#ifndef DT_SYMTAB_SHNDX
#define DT_SYMTAB_SHNDX 34
#endif
#ifndef PT_GNU_PROPERTY
#define PT_GNU_PROPERTY 0x6474e553
#endif

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* The lowest offset from which everything in the file is only the section
 * header table and .shstrtab, both of which are rewritten anyway. */
static uint64_t tail_cut(const struct elf *e)
{
	if (!e->sh)
		return e->size;
	uint64_t tail_end = e->eh.e_shoff + (uint64_t)e->shnum * elf_shentsize(e);
	if (e->shstr_off + e->shstr_size > tail_end)
		tail_end = e->shstr_off + e->shstr_size;
	if (tail_end != e->size) /* unknown trailing data: keep it */
		return e->size;
	uint64_t cands[2] = { e->eh.e_shoff, e->eh.e_shoff };
	if (e->eh.e_shstrndx && e->eh.e_shstrndx < e->shnum && e->shstr_off < e->eh.e_shoff)
		cands[0] = e->shstr_off;
	for (int c = 0; c < 2; c++) {
		uint64_t cut = cands[c];
		int ok = e->eh.e_phoff + (uint64_t)e->phnum * elf_phentsize(e) <= cut;
		for (unsigned i = 0; ok && i < e->phnum; i++)
			if (e->ph[i].p_filesz && e->ph[i].p_offset + e->ph[i].p_filesz > cut)
				ok = 0;
		for (unsigned i = 1; ok && i < e->shnum; i++) {
			const Elf64_Shdr *s = &e->sh[i];
			if (i == e->eh.e_shstrndx || s->sh_type == SHT_NOBITS || !s->sh_size)
				continue;
			if (s->sh_offset + s->sh_size > cut)
				ok = 0;
		}
		if (ok)
			return cut;
	}
	return e->size;
}

static int find_sec_by_addr(const struct elf *e, uint64_t addr, uint32_t type)
{
	for (unsigned i = 1; i < e->shnum; i++)
		if (e->sh[i].sh_addr == addr && e->sh[i].sh_type == type && (e->sh[i].sh_flags & SHF_ALLOC))
			return (int)i;
	return -1;
}

struct move { unsigned sec; uint64_t old, oldsize, new; };

/* Where the program header table finds room for the new PT_LOAD entry.
 * The table itself never moves when it can be helped: the kernel, qemu-user
 * and patchelf all assume it sits in the first page, at the address its
 * file offset implies. */
enum ph_room {
	PH_NULL, /* a PT_NULL entry is reused */
	PH_GROW, /* the table grows in place; what followed it moves out */
	PH_MOVE, /* last resort: the table moves into the new segment */
};

struct plan {
	struct elf *e;
	struct blob *b;
	unsigned nb;
	int any_append;
	/* dynamic entries wanted, and how many are new */
	struct fixed_tag want[40];
	unsigned nwant, nnew;
	int dyn_move;
	/* program headers */
	enum ph_room room;
	int null_slot, last_load;
	unsigned new_phnum;
	/* PH_GROW: file range [blk_off, blk_end) after the table (at blk_va)
	 * moves to blk_new in the new segment */
	uint64_t blk_off, blk_end, blk_va, blk_align, blk_new;
	/* the new segment */
	uint64_t cut, seg_off, seg_va, seg_len, ph_off, dyn_off;
	/* after the writable segment: the file's tail [tail_lo, cut) (only
	 * sections nothing maps) moves up by tail_shift, behind it */
	uint64_t tail_lo, tail_shift, tail_align;
	unsigned dyn_slots;
	Elf64_Phdr *ph;
	/* section headers */
	Elf64_Shdr *sh;
	unsigned shnum, shstrndx;
	uint8_t *shstr;
	uint64_t shstr_len, shstr_off, sh_off, end;
	struct move mv[64];
	unsigned nmv;
};

#define VA(p, o) ((p)->seg_va + ((o) - (p)->seg_off))

static int in_block(const struct plan *p, uint64_t va)
{
	return p->blk_end > p->blk_off && va >= p->blk_va && va - p->blk_va < p->blk_end - p->blk_off;
}

static uint64_t block_va(const struct plan *p, uint64_t va)
{
	return in_block(p, va) ? va - p->blk_va + VA(p, p->blk_new) : va;
}

/* Tables whose size did not change are rewritten where they are. */
static void place_in_place(struct plan *p)
{
	struct elf *e = p->e;
	for (unsigned i = 0; i < p->nb; i++) {
		struct blob *b = &p->b[i];
		int f1, f2 = 1;
		uint64_t va = elf_dyn_get(e, b->ptag, &f1);
		uint64_t sz = b->stag ? elf_dyn_get(e, b->stag, &f2) : b->cursize;
		uint64_t off;
		b->hadold = f1;
		b->oldva = va;
		if (f1 && f2 && sz == b->len && elf_v2o(e, va, b->len, &off) == 0) {
			memcpy(e->buf + off, b->data, b->len);
			b->append = 0;
			b->off = off;
			b->va = va;
		} else {
			b->append = 1;
			p->any_append = 1;
		}
	}
}

static void collect_tags(struct plan *p, const struct fixed_tag *ft, unsigned nft)
{
	struct elf *e = p->e;
	for (unsigned i = 0; i < p->nb; i++) {
		if (!p->b[i].append)
			continue;
		p->want[p->nwant++] = (struct fixed_tag){ p->b[i].ptag, 0 };
		if (p->b[i].stag)
			p->want[p->nwant++] = (struct fixed_tag){ p->b[i].stag, p->b[i].len };
	}
	for (unsigned i = 0; i < nft && p->nwant < sizeof p->want / sizeof *p->want; i++)
		if (elf_dyn_get(e, ft[i].tag, NULL) != ft[i].val || elf_dyn_index(e, ft[i].tag) < 0)
			p->want[p->nwant++] = ft[i];
	for (unsigned i = 0; i < p->nwant; i++)
		if (elf_dyn_index(e, p->want[i].tag) < 0)
			p->nnew++;
	p->dyn_move = p->nnew > e->dynslots - e->ndyn - 1;
}

static void set_wanted_tags(struct plan *p)
{
	struct elf *e = p->e;
	for (unsigned i = 0; i < p->nwant; i++) {
		int k = elf_dyn_index(e, p->want[i].tag);
		if (k < 0) {
			k = (int)e->ndyn++;
			e->dyn[k].d_tag = p->want[i].tag;
		}
		e->dyn[k].d_un.d_val = p->want[i].val;
	}
}

/* Only values change, and new tags fit the spare DT_NULL slots. */
static int write_in_place(struct plan *p, uint8_t **out, size_t *outlen)
{
	struct elf *e = p->e;
	size_t dent = elf_dynentsize(e);
	set_wanted_tags(p);
	for (unsigned k = 0; k < e->ndyn; k++)
		elf_put_dyn(e, &e->dyn[k], e->buf + e->dyn_off + k * dent);
	*out = malloc(e->size ? e->size : 1);
	if (!*out)
		return elf_err(e, "out of memory");
	memcpy(*out, e->buf, e->size);
	*outlen = e->size;
	return 0;
}

/* Sections that only the dynamic section, PT_INTERP or PT_NOTE point to:
 * no code refers to them, so they can live anywhere. */
static int movable_section(const struct elf *e, unsigned i)
{
	const Elf64_Shdr *s = &e->sh[i];
	if (!(s->sh_flags & SHF_ALLOC) || (s->sh_flags & (SHF_WRITE | SHF_EXECINSTR)))
		return 0;
	switch (s->sh_type) {
	case SHT_NOTE: case SHT_HASH: case SHT_GNU_HASH: case SHT_DYNSYM: case SHT_GNU_versym:
	case SHT_GNU_verneed: case SHT_GNU_verdef: case SHT_REL: case SHT_RELA: case SHT_RELR:
	case SHT_SUNW_syminfo:
		return 1;
	case SHT_STRTAB:
		return e->str_off && s->sh_offset == e->str_off;
	case SHT_PROGBITS:
		return !strcmp(elf_secname(e, i), ".interp");
	}
	return 0;
}

static int movable_segment(uint32_t type)
{
	return type == PT_INTERP || type == PT_NOTE || type == PT_GNU_PROPERTY;
}

/* Dynamic entries holding an address. */
static int ptr_tag(int64_t t)
{
	switch (t) {
	case DT_PLTGOT: case DT_HASH: case DT_STRTAB: case DT_SYMTAB: case DT_RELA: case DT_INIT:
	case DT_FINI: case DT_REL: case DT_DEBUG: case DT_JMPREL: case DT_INIT_ARRAY: case DT_FINI_ARRAY:
	case DT_PREINIT_ARRAY: case DT_SYMTAB_SHNDX: case DT_RELR: case DT_VERSYM: case DT_VERDEF:
	case DT_VERNEED: case DT_QB_TABLE:
		return 1;
	}
	return t >= DT_ADDRRNGLO && t <= DT_ADDRRNGHI;
}

static int64_t size_tag(int64_t t)
{
	switch (t) {
	case DT_STRTAB: return DT_STRSZ;
	case DT_RELA: return DT_RELASZ;
	case DT_REL: return DT_RELSZ;
	case DT_JMPREL: return DT_PLTRELSZ;
	case DT_RELR: return DT_RELRSZ;
	case DT_SYMINFO: return DT_SYMINSZ;
	case DT_QB_TABLE: return DT_QB_TABLESZ;
	}
	return 0;
}

static int overlaps(uint64_t off, uint64_t len, uint64_t lo, uint64_t hi)
{
	return len && off < hi && off + len > lo;
}

/* Room for one more program header right after the table: the sections
 * and segments there (.interp, notes, hash and symbol tables) move to the
 * new segment, the way patchelf makes room. Fails when something there
 * cannot move. */
static int front_block(struct plan *p)
{
	struct elf *e = p->e;
	if (!e->sh)
		return -1;
	uint64_t pent = elf_phentsize(e);
	uint64_t lo = e->eh.e_phoff + (uint64_t)e->phnum * pent, need = lo + pent, end = lo;
	int ld = -1;
	for (unsigned i = 0; i < e->phnum; i++)
		if (e->ph[i].p_type == PT_LOAD && e->ph[i].p_offset <= e->eh.e_phoff &&
		    need <= e->ph[i].p_offset + e->ph[i].p_filesz)
			ld = (int)i;
	if (ld < 0)
		return -1;
	uint64_t align = 8;
	for (int changed = 1; changed;) {
		changed = 0;
		uint64_t hi = end > need ? end : need;
		for (unsigned i = 1; i < e->shnum; i++) {
			const Elf64_Shdr *s = &e->sh[i];
			if (s->sh_type == SHT_NOBITS || !overlaps(s->sh_offset, s->sh_size, lo, hi))
				continue;
			if (s->sh_offset < lo || !movable_section(e, i))
				return -1;
			if (s->sh_offset + s->sh_size > end) {
				end = s->sh_offset + s->sh_size;
				changed = 1;
			}
			if (s->sh_addralign > align && s->sh_addralign <= PAGE)
				align = s->sh_addralign;
		}
		for (unsigned i = 0; i < e->phnum; i++) {
			const Elf64_Phdr *q = &e->ph[i];
			if ((int)i == ld || !overlaps(q->p_offset, q->p_filesz, lo, hi))
				continue;
			if (q->p_offset < lo || !movable_segment(q->p_type))
				return -1;
			if (q->p_offset + q->p_filesz > end) {
				end = q->p_offset + q->p_filesz;
				changed = 1;
			}
			if (q->p_align > align && q->p_align <= PAGE)
				align = q->p_align;
		}
	}
	const Elf64_Phdr *l = &e->ph[ld];
	if (end > l->p_offset + l->p_filesz)
		return -1;
	p->blk_off = lo;
	p->blk_end = end;
	p->blk_va = l->p_vaddr + (lo - l->p_offset);
	p->blk_align = align;
	/* a table the dynamic section names must move whole, and nothing
	 * written or executed may move */
	for (unsigned i = 0; i < e->ndyn; i++) {
		int64_t t = e->dyn[i].d_tag, st = size_tag(t);
		uint64_t v = e->dyn[i].d_un.d_val;
		if (!ptr_tag(t) || !in_block(p, v))
			continue;
		if ((st && v + elf_dyn_get(e, st, NULL) > p->blk_va + (end - lo)) ||
		    t == DT_INIT || t == DT_FINI || t == DT_PLTGOT || t == DT_DEBUG) {
			p->blk_off = p->blk_end = 0;
			return -1;
		}
	}
	return 0;
}

static void choose_room(struct plan *p)
{
	struct elf *e = p->e;
	p->last_load = p->null_slot = -1;
	for (unsigned i = 0; i < e->phnum; i++) {
		if (e->ph[i].p_type == PT_LOAD)
			p->last_load = (int)i;
		if (e->ph[i].p_type == PT_NULL && p->null_slot < 0)
			p->null_slot = (int)i;
	}
	if (p->null_slot >= 0)
		p->room = PH_NULL;
	else if (front_block(p) == 0)
		p->room = PH_GROW;
	else
		p->room = PH_MOVE;
	p->new_phnum = e->phnum + (p->room != PH_NULL);
}

/* A writable new segment goes right after the last loadable one when
 * that one is writable too and its bss ends in its last file page: on the
 * next page, at the file offset with the same distance to its address,
 * so that one mapping maps both (the loader's map.c joins them). What the
 * file holds past that segment's bytes must be sections nothing maps;
 * they move behind the new segment, which the padding before it (zeros,
 * the tail of that bss page) then precedes. Not for a program whose
 * header table moves: that one must keep the first segment's distance. */
static void place_after_writable(struct plan *p)
{
	struct elf *e = p->e;
	const Elf64_Phdr *l = &e->ph[p->last_load];
	uint64_t fend = l->p_offset + l->p_filesz, align = 8;
	if (!p->dyn_move || !(l->p_flags & PF_W) || !l->p_filesz || (p->room == PH_MOVE && e->interp) ||
	    l->p_vaddr + l->p_memsz > align_up(l->p_vaddr + l->p_filesz, PAGE) || fend > p->cut ||
	    (fend < p->cut && !e->sh))
		return;
	for (unsigned i = 0; i < e->phnum; i++)
		if (e->ph[i].p_filesz && e->ph[i].p_offset + e->ph[i].p_filesz > fend)
			return;
	for (unsigned i = 1; e->sh && i < e->shnum; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		if (s->sh_type == SHT_NOBITS || !s->sh_size || s->sh_offset + s->sh_size <= fend ||
		    (i == e->eh.e_shstrndx && s->sh_offset >= p->cut))
			continue;
		if ((s->sh_flags & SHF_ALLOC) || s->sh_offset < fend || s->sh_addralign > PAGE)
			return;
		if (s->sh_addralign > align)
			align = s->sh_addralign;
	}
	p->seg_va = align_up(l->p_vaddr + l->p_memsz, PAGE);
	p->seg_off = p->seg_va - (l->p_vaddr - l->p_offset);
	p->tail_lo = fend;
	p->tail_align = align;
}

/* File offsets and addresses of everything in the new segment. */
static int place_segment(struct plan *p)
{
	struct elf *e = p->e;
	uint64_t pent = elf_phentsize(e), dent = elf_dynentsize(e);
	p->cut = tail_cut(e);
	p->seg_off = align_up(p->cut, 16);
	uint64_t max_vend = 0;
	int first_load = -1;
	for (unsigned i = 0; i < e->phnum; i++)
		if (e->ph[i].p_type == PT_LOAD) {
			if (e->ph[i].p_vaddr + e->ph[i].p_memsz > max_vend)
				max_vend = e->ph[i].p_vaddr + e->ph[i].p_memsz;
			if (first_load < 0)
				first_load = (int)i;
		}
	p->seg_va = align_up(max_vend, PAGE) + p->seg_off % PAGE;
	/* Linux before 5.18 and qemu-user give AT_PHDR as the first segment's
	 * address plus e_phoff. Moved program headers are found there only
	 * if the new segment maps offsets to addresses as the first PT_LOAD
	 * does: pad the file up to that offset, unless a large .bss would
	 * make the padding unreasonable (then only newer kernels run it). */
	if (p->room == PH_MOVE && first_load >= 0) {
		uint64_t d = e->ph[first_load].p_vaddr - e->ph[first_load].p_offset;
		uint64_t want = align_up(max_vend, PAGE) - d;
		if (want < p->seg_off)
			want = p->seg_off;
		if (want - p->seg_off <= (4u << 20)) {
			p->seg_off = want;
			p->seg_va = want + d;
		}
	}
	place_after_writable(p);
	uint64_t cur = p->seg_off;
	p->ph_off = e->eh.e_phoff;
	p->dyn_off = e->dyn_off;
	p->dyn_slots = e->dynslots;
	if (p->room == PH_GROW) {
		/* same alignment as before, so notes and tables stay aligned */
		p->blk_new = align_up(cur, p->blk_align) + p->blk_off % p->blk_align;
		cur = p->blk_new + (p->blk_end - p->blk_off);
	}
	if (p->room == PH_MOVE) {
		p->ph_off = align_up(cur, 16);
		cur = align_up(p->ph_off + (uint64_t)p->new_phnum * pent, 16);
	}
	if (p->dyn_move) {
		p->dyn_off = align_up(cur, 16);
		p->dyn_slots = e->ndyn + p->nnew + 2;
		cur = align_up(p->dyn_off + (uint64_t)p->dyn_slots * dent, 16);
	}
	for (unsigned i = 0; i < p->nb; i++) {
		if (!p->b[i].append)
			continue;
		cur = align_up(cur, p->b[i].align ? p->b[i].align : 8);
		p->b[i].off = cur;
		cur += p->b[i].len;
	}
	p->seg_len = cur - p->seg_off;
	if (p->tail_lo)
		p->tail_shift = align_up(cur - p->tail_lo, p->tail_align);
	if (!e->is64 && p->seg_va + p->seg_len > 0xffffffffull)
		return elf_err(e, "no address space left for the new segment");
	for (unsigned i = 0; i < p->nb; i++)
		if (p->b[i].append)
			p->b[i].va = VA(p, p->b[i].off);
	for (unsigned i = 0; i < p->nwant; i++)
		for (unsigned j = 0; j < p->nb; j++)
			if (p->b[j].append && p->want[i].tag == p->b[j].ptag)
				p->want[i].val = p->b[j].va;
	return 0;
}

/* New values, new entries before DT_NULL, and addresses into the moved
 * block follow it. */
static void update_dynamic(struct plan *p)
{
	struct elf *e = p->e;
	for (unsigned k = 0; k < e->ndyn; k++)
		if (ptr_tag(e->dyn[k].d_tag))
			e->dyn[k].d_un.d_val = block_va(p, e->dyn[k].d_un.d_val);
	set_wanted_tags(p);
}

static int build_phdrs(struct plan *p)
{
	struct elf *e = p->e;
	uint64_t pent = elf_phentsize(e), dent = elf_dynentsize(e);
	p->ph = calloc(p->new_phnum, sizeof *p->ph);
	if (!p->ph)
		return elf_err(e, "out of memory");
	Elf64_Phdr seg = {
		.p_type = PT_LOAD, .p_flags = PF_R | (p->dyn_move ? PF_W : 0),
		.p_offset = p->seg_off, .p_vaddr = p->seg_va, .p_paddr = p->seg_va,
		.p_filesz = p->seg_len, .p_memsz = p->seg_len, .p_align = PAGE,
	};
	unsigned j = 0;
	for (unsigned i = 0; i < e->phnum; i++) {
		if (p->room == PH_NULL && (int)i == p->null_slot)
			continue;
		Elf64_Phdr *q = &p->ph[j++];
		*q = e->ph[i];
		if (q->p_type == PT_PHDR && p->room == PH_MOVE) {
			q->p_offset = p->ph_off;
			q->p_vaddr = q->p_paddr = VA(p, p->ph_off);
		}
		if (q->p_type == PT_PHDR)
			q->p_filesz = q->p_memsz = (uint64_t)p->new_phnum * pent;
		if (p->dyn_move && (int)i == e->dyn_ph) {
			q->p_offset = p->dyn_off;
			q->p_vaddr = q->p_paddr = VA(p, p->dyn_off);
			q->p_filesz = q->p_memsz = (uint64_t)p->dyn_slots * dent;
			q->p_align = 8;
		}
		if (q->p_type != PT_LOAD && q->p_filesz && in_block(p, q->p_vaddr)) {
			q->p_offset = q->p_offset - p->blk_off + p->blk_new;
			q->p_vaddr = q->p_paddr = block_va(p, q->p_vaddr);
		}
		if ((int)i == p->last_load)
			p->ph[j++] = seg;
	}
	return 0;
}

/* A table both in the moved block and replaced by a larger one ends up
 * where the replacement is. */
static void add_move(struct plan *p, unsigned sec, uint64_t old, uint64_t oldsize, uint64_t new)
{
	for (unsigned m = 0; m < p->nmv; m++)
		if (p->mv[m].sec == sec) {
			p->mv[m].new = new;
			return;
		}
	if (p->nmv < sizeof p->mv / sizeof *p->mv)
		p->mv[p->nmv++] = (struct move){ sec, old, oldsize, new };
}

/* Section headers: moved and new tables, then .shstrtab and the header
 * table after the new segment. */
static int build_shdrs(struct plan *p)
{
	struct elf *e = p->e;
	uint64_t dent = elf_dynentsize(e);
	p->end = p->seg_off + p->seg_len;
	if (p->tail_lo && p->cut + p->tail_shift > p->end)
		p->end = p->cut + p->tail_shift;
	if (!e->sh)
		return 0;
	p->shnum = e->shnum;
	p->shstrndx = e->eh.e_shstrndx;
	p->sh = calloc(e->shnum + p->nb + 1, sizeof *p->sh);
	p->shstr = malloc(e->shstr_size + 256 * (p->nb + 1));
	if (!p->sh || !p->shstr)
		return elf_err(e, "out of memory");
	Elf64_Shdr *sh = p->sh;
	memcpy(sh, e->sh, e->shnum * sizeof *sh);
	memcpy(p->shstr, e->buf + e->shstr_off, e->shstr_size);
	p->shstr_len = e->shstr_size;
	int dynsym_sec = -1, dynamic_sec = -1;
	for (unsigned i = 1; i < p->shnum; i++) {
		if (p->tail_lo && sh[i].sh_type != SHT_NOBITS && !(sh[i].sh_flags & SHF_ALLOC) &&
		    sh[i].sh_offset >= p->tail_lo && sh[i].sh_offset < p->cut)
			sh[i].sh_offset += p->tail_shift;
		if (sh[i].sh_type == SHT_DYNSYM)
			dynsym_sec = (int)i;
		if (sh[i].sh_type == SHT_DYNAMIC)
			dynamic_sec = (int)i;
		if ((sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_type != SHT_NOBITS && sh[i].sh_size &&
		    in_block(p, sh[i].sh_addr)) {
			add_move(p, i, sh[i].sh_addr, sh[i].sh_size, block_va(p, sh[i].sh_addr));
			sh[i].sh_offset = sh[i].sh_offset - p->blk_off + p->blk_new;
			sh[i].sh_addr = block_va(p, sh[i].sh_addr);
		}
	}
	if (p->dyn_move && dynamic_sec > 0) {
		add_move(p, (unsigned)dynamic_sec, sh[dynamic_sec].sh_addr, sh[dynamic_sec].sh_size, VA(p, p->dyn_off));
		sh[dynamic_sec].sh_offset = p->dyn_off;
		sh[dynamic_sec].sh_addr = VA(p, p->dyn_off);
		sh[dynamic_sec].sh_size = (uint64_t)p->dyn_slots * dent;
	}
	for (unsigned i = 0; i < p->nb; i++) {
		const struct blob *b = &p->b[i];
		if (!b->append)
			continue;
		int k = elf_find_section(e, b->secname);
		if (k < 0 && b->hadold)
			k = find_sec_by_addr(e, b->oldva, b->shtype);
		if (k < 0) {
			k = (int)p->shnum++;
			memset(&sh[k], 0, sizeof sh[k]);
			size_t nl = strlen(b->secname) + 1;
			sh[k].sh_name = (uint32_t)p->shstr_len;
			memcpy(p->shstr + p->shstr_len, b->secname, nl);
			p->shstr_len += nl;
		}
		if ((unsigned)k < e->shnum)
			add_move(p, (unsigned)k, e->sh[k].sh_addr, e->sh[k].sh_size, b->va);
		sh[k].sh_type = b->shtype;
		sh[k].sh_flags = SHF_ALLOC;
		sh[k].sh_addr = b->va;
		sh[k].sh_offset = b->off;
		sh[k].sh_size = b->len;
		sh[k].sh_link = b->link_dynsym && dynsym_sec > 0 ? (uint32_t)dynsym_sec : 0;
		sh[k].sh_info = b->info_dynamic && dynamic_sec > 0 ? (uint32_t)dynamic_sec : 0;
		sh[k].sh_addralign = b->align ? b->align : 8;
		sh[k].sh_entsize = b->entsize;
	}
	p->shstr_off = p->end;
	p->end += p->shstr_len;
	p->sh_off = align_up(p->end, e->is64 ? 8 : 4);
	p->end = p->sh_off + (uint64_t)p->shnum * elf_shentsize(e);
	if (p->shstrndx && p->shstrndx < p->shnum) {
		sh[p->shstrndx].sh_offset = p->shstr_off;
		sh[p->shstrndx].sh_size = p->shstr_len;
	}
	return 0;
}

/* Symbols of sections that moved follow them (mold emits section symbols
 * for .gnu.hash and friends), and _DYNAMIC follows .dynamic. Nothing uses
 * these values at run time: code reached them PC-relatively at link
 * time and loaders go through PT_DYNAMIC. */
static void retarget_syms(const struct plan *p, uint8_t *o, uint64_t olddyn, uint64_t newdyn)
{
	const struct elf *e = p->e;
	const Elf64_Shdr *sh = p->sh;
	size_t ent = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	size_t voff = e->is64 ? 8 : 4, xoff = e->is64 ? 6 : 14;
	for (unsigned i = 1; i < p->shnum; i++) {
		if ((sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM) || sh[i].sh_link >= p->shnum)
			continue;
		const Elf64_Shdr *st = &sh[sh[i].sh_link];
		if (!in_file(p->end, sh[i].sh_offset, sh[i].sh_size) || !in_file(p->end, st->sh_offset, st->sh_size))
			continue;
		for (uint64_t k = 0; k + ent <= sh[i].sh_size; k += ent) {
			uint8_t *s = o + sh[i].sh_offset + k;
			uint32_t name = rd32(s);
			uint16_t shndx = rd16(s + xoff);
			uint64_t v = e->is64 ? rd64(s + voff) : rd32(s + voff), nv = v;
			int done = 0;
			for (unsigned m = 0; m < p->nmv && !done; m++)
				if (shndx == p->mv[m].sec && v >= p->mv[m].old && v - p->mv[m].old <= p->mv[m].oldsize) {
					nv = v - p->mv[m].old + p->mv[m].new;
					done = 1;
				}
			if (!done && olddyn != newdyn && v == olddyn && name < st->sh_size && st->sh_size - name >= 9 &&
			    !memcmp(o + st->sh_offset + name, "_DYNAMIC", 9))
				nv = newdyn;
			if (nv == v)
				continue;
			if (e->is64)
				wr64(s + voff, nv);
			else
				wr32(s + voff, (uint32_t)nv);
		}
	}
}

/* Section headers in file order, as linkers write them: patchelf walks
 * them from index 1 to find what follows the program header table. The
 * sections now in the new segment go last; indices in section headers
 * and symbol tables follow. */
static int sort_sections(struct plan *p, uint8_t *o)
{
	const struct elf *e = p->e;
	unsigned n = p->shnum;
	if (!p->sh || n >= SHN_LORESERVE)
		return 0;
	for (unsigned i = 1; i < n; i++)
		if (p->sh[i].sh_type == SHT_SYMTAB_SHNDX || p->sh[i].sh_type == SHT_GROUP)
			return 0;
	unsigned *order = malloc(2 * n * sizeof *order);
	Elf64_Shdr *nsh = malloc(n * sizeof *nsh);
	if (!order || !nsh) {
		free(order);
		free(nsh);
		return elf_err(p->e, "out of memory");
	}
	unsigned *map = order + n, k = 0;
#define LATE(i) (p->sh[i].sh_type != SHT_NOBITS && p->sh[i].sh_offset >= p->seg_off)
	for (unsigned i = 0; i < n; i++)
		if (!i || !LATE(i))
			order[k++] = i;
	unsigned first_late = k;
	for (unsigned i = 1; i < n; i++) {
		if (!LATE(i))
			continue;
		unsigned j = k++;
		for (; j > first_late && p->sh[order[j - 1]].sh_offset > p->sh[i].sh_offset; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
#undef LATE
	int same = 1;
	for (unsigned i = 0; i < n; i++) {
		map[order[i]] = i;
		same &= order[i] == i;
	}
	if (!same) {
		for (unsigned i = 0; i < n; i++) {
			Elf64_Shdr *s = &nsh[i];
			*s = p->sh[order[i]];
			if (s->sh_link && s->sh_link < n)
				s->sh_link = map[s->sh_link];
			int info_sec = (s->sh_flags & SHF_INFO_LINK) || s->sh_type == SHT_REL ||
				       s->sh_type == SHT_RELA || s->sh_type == SHT_SUNW_syminfo;
			if (info_sec && s->sh_info && s->sh_info < n)
				s->sh_info = map[s->sh_info];
		}
		size_t ent = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym), xoff = e->is64 ? 6 : 14;
		for (unsigned i = 1; i < n; i++) {
			const Elf64_Shdr *s = &nsh[i];
			if ((s->sh_type != SHT_SYMTAB && s->sh_type != SHT_DYNSYM) || !in_file(p->end, s->sh_offset, s->sh_size))
				continue;
			for (uint64_t at = s->sh_offset; at + ent <= s->sh_offset + s->sh_size; at += ent) {
				uint16_t x = rd16(o + at + xoff);
				if (x && x < SHN_LORESERVE && x < n)
					wr16(o + at + xoff, (uint16_t)map[x]);
			}
		}
		memcpy(p->sh, nsh, n * sizeof *nsh);
		if (p->shstrndx < n)
			p->shstrndx = map[p->shstrndx];
	}
	free(order);
	free(nsh);
	return 0;
}

static int assemble(struct plan *p, uint8_t **out, size_t *outlen)
{
	struct elf *e = p->e;
	if (!e->is64 && p->end > 0xffffffffull)
		return elf_err(e, "output too large for ELFCLASS32");
	uint8_t *o = calloc(1, p->end);
	if (!o)
		return elf_err(e, "out of memory");
	size_t pent = elf_phentsize(e), dent = elf_dynentsize(e), sent = elf_shentsize(e);
	memcpy(o, e->buf, p->tail_lo ? p->tail_lo : p->cut);
	if (p->tail_lo)
		memcpy(o + p->tail_lo + p->tail_shift, e->buf + p->tail_lo, p->cut - p->tail_lo);
	if (p->room == PH_GROW)
		memcpy(o + p->blk_new, e->buf + p->blk_off, p->blk_end - p->blk_off);
	for (unsigned i = 0; i < p->nb; i++)
		if (p->b[i].append)
			memcpy(o + p->b[i].off, p->b[i].data, p->b[i].len);
	for (unsigned k = 0; k < p->dyn_slots; k++) {
		Elf64_Dyn d = { 0 };
		if (k < e->ndyn)
			d = e->dyn[k];
		elf_put_dyn(e, &d, o + p->dyn_off + k * dent);
	}
	for (unsigned i = 0; i < p->new_phnum; i++)
		elf_put_phdr(e, &p->ph[i], o + p->ph_off + i * pent);
	if (p->sh) {
		memcpy(o + p->shstr_off, p->shstr, p->shstr_len);
		retarget_syms(p, o, e->ph[e->dyn_ph].p_vaddr,
			      p->dyn_move ? VA(p, p->dyn_off) : e->ph[e->dyn_ph].p_vaddr);
		if (sort_sections(p, o) < 0) {
			free(o);
			return -1;
		}
		for (unsigned i = 0; i < p->shnum; i++)
			elf_put_shdr(e, &p->sh[i], o + p->sh_off + i * sent);
	}
	Elf64_Ehdr saved = e->eh;
	e->eh.e_phoff = p->ph_off;
	e->eh.e_phnum = (uint16_t)p->new_phnum;
	if (p->sh) {
		e->eh.e_shoff = p->sh_off;
		e->eh.e_shnum = (uint16_t)p->shnum;
		e->eh.e_shstrndx = (uint16_t)p->shstrndx;
	}
	elf_put_ehdr(e, o);
	e->eh = saved;
	*out = o;
	*outlen = p->end;
	return 0;
}

int layout_apply(struct elf *e, struct blob *b, unsigned nb, const struct fixed_tag *ft, unsigned nft,
		 uint8_t **out, size_t *outlen)
{
	struct plan p;
	memset(&p, 0, sizeof p);
	p.e = e;
	p.b = b;
	p.nb = nb;
	p.room = PH_MOVE;
	place_in_place(&p);
	collect_tags(&p, ft, nft);
	if (!p.any_append && !p.dyn_move)
		return write_in_place(&p, out, outlen);
	choose_room(&p);
	if (p.last_load < 0)
		return elf_err(e, "no PT_LOAD segment");
	int rc = -1;
	if (place_segment(&p) == 0) {
		update_dynamic(&p);
		if (build_phdrs(&p) == 0 && build_shdrs(&p) == 0)
			rc = assemble(&p, out, outlen);
	}
	free(p.ph);
	free(p.sh);
	free(p.shstr);
	return rc;
}
