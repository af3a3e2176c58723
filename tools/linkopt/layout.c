#include "layout.h"

#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

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

/* Symbols of sections that moved follow them (mold emits section symbols
 * for .gnu.hash and friends), and _DYNAMIC follows .dynamic. Nothing uses
 * these values at run time: code reached them PC-relatively at link
 * time and loaders go through PT_DYNAMIC. */
static void retarget_syms(const struct elf *e, uint8_t *o, const Elf64_Shdr *sh, unsigned shnum,
			  const struct move *mv, unsigned nmv, uint64_t olddyn, uint64_t newdyn)
{
	size_t ent = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	size_t voff = e->is64 ? 8 : 4, xoff = e->is64 ? 6 : 14;
	for (unsigned i = 1; i < shnum; i++) {
		if ((sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM) || sh[i].sh_link >= shnum)
			continue;
		const Elf64_Shdr *st = &sh[sh[i].sh_link];
		if (!in_file(e->size, sh[i].sh_offset, sh[i].sh_size) || !in_file(e->size, st->sh_offset, st->sh_size))
			continue;
		for (uint64_t k = 0; k + ent <= sh[i].sh_size; k += ent) {
			uint8_t *p = o + sh[i].sh_offset + k;
			uint32_t name = rd32(p);
			uint16_t shndx = rd16(p + xoff);
			uint64_t v = e->is64 ? rd64(p + voff) : rd32(p + voff), nv = v;
			int done = 0;
			for (unsigned m = 0; m < nmv && !done; m++)
				if (shndx == mv[m].sec && v >= mv[m].old && v - mv[m].old <= mv[m].oldsize) {
					nv = v - mv[m].old + mv[m].new;
					done = 1;
				}
			if (!done && olddyn != newdyn && v == olddyn && name < st->sh_size && st->sh_size - name >= 9 &&
			    !memcmp(o + st->sh_offset + name, "_DYNAMIC", 9))
				nv = newdyn;
			if (nv == v)
				continue;
			if (e->is64)
				wr64(p + voff, nv);
			else
				wr32(p + voff, (uint32_t)nv);
		}
	}
}

int layout_apply(struct elf *e, struct blob *b, unsigned nb, const struct fixed_tag *ft, unsigned nft,
		 uint8_t **out, size_t *outlen)
{
	int any_append = 0;
	for (unsigned i = 0; i < nb; i++) {
		int f1, f2;
		uint64_t va = elf_dyn_get(e, b[i].ptag, &f1);
		uint64_t sz = b[i].stag ? elf_dyn_get(e, b[i].stag, &f2) : b[i].cursize;
		if (!b[i].stag)
			f2 = 1;
		uint64_t off;
		b[i].hadold = f1;
		b[i].oldva = va;
		if (f1 && f2 && sz == b[i].len && elf_v2o(e, va, b[i].len, &off) == 0) {
			memcpy(e->buf + off, b[i].data, b[i].len);
			b[i].append = 0;
			b[i].off = off;
			b[i].va = va;
		} else {
			b[i].append = 1;
			any_append = 1;
		}
	}

	/* the dynamic entries wanted, and how many are new */
	struct fixed_tag want[32];
	unsigned nwant = 0, nnew = 0;
	for (unsigned i = 0; i < nb; i++) {
		if (!b[i].append)
			continue;
		want[nwant++] = (struct fixed_tag){ b[i].ptag, 0 };
		if (b[i].stag)
			want[nwant++] = (struct fixed_tag){ b[i].stag, b[i].len };
	}
	for (unsigned i = 0; i < nft; i++)
		if (elf_dyn_get(e, ft[i].tag, NULL) != ft[i].val || elf_dyn_index(e, ft[i].tag) < 0)
			want[nwant++] = ft[i];
	for (unsigned i = 0; i < nwant; i++)
		if (elf_dyn_index(e, want[i].tag) < 0)
			nnew++;
	unsigned spare = e->dynslots - e->ndyn - 1;
	int dyn_move = nnew > spare;
	int need_seg = any_append || dyn_move;
	size_t dent = elf_dynentsize(e), pent = elf_phentsize(e), sent = elf_shentsize(e);

	if (!need_seg) {
		/* only values change, and new tags fit the spare DT_NULL slots */
		for (unsigned i = 0; i < nwant; i++) {
			int k = elf_dyn_index(e, want[i].tag);
			if (k < 0) {
				k = (int)e->ndyn++;
				e->dyn[k].d_tag = want[i].tag;
			}
			e->dyn[k].d_un.d_val = want[i].val;
		}
		for (unsigned k = 0; k < e->ndyn; k++)
			elf_put_dyn(e, &e->dyn[k], e->buf + e->dyn_off + k * dent);
		*out = malloc(e->size);
		if (!*out)
			return elf_err(e, "out of memory");
		memcpy(*out, e->buf, e->size);
		*outlen = e->size;
		return 0;
	}

	/* program header room: a PT_NULL after the last PT_LOAD, else move */
	int last_load = -1, null_slot = -1;
	for (unsigned i = 0; i < e->phnum; i++)
		if (e->ph[i].p_type == PT_LOAD)
			last_load = (int)i;
	for (unsigned i = (unsigned)(last_load + 1); i < e->phnum; i++)
		if (e->ph[i].p_type == PT_NULL) {
			null_slot = (int)i;
			break;
		}
	int ph_move = null_slot < 0;
	unsigned new_phnum = e->phnum + (ph_move ? 1 : 0);

	uint64_t max_vend = 0;
	int first_load = -1;
	for (unsigned i = 0; i < e->phnum; i++)
		if (e->ph[i].p_type == PT_LOAD) {
			if (e->ph[i].p_vaddr + e->ph[i].p_memsz > max_vend)
				max_vend = e->ph[i].p_vaddr + e->ph[i].p_memsz;
			if (first_load < 0)
				first_load = (int)i;
		}
	uint64_t cut = tail_cut(e);
	uint64_t seg_off = align_up(cut, 16), cur;
	uint64_t seg_va = align_up(max_vend, PAGE) + seg_off % PAGE;
	/* Linux before 5.18 and qemu-user give AT_PHDR as the first segment's
	 * address plus e_phoff. Moved program headers are found there only
	 * if the new segment maps offsets to addresses as the first PT_LOAD
	 * does: pad the file up to that offset, unless a large .bss would
	 * make the padding unreasonable (then only newer kernels run it). */
	if (ph_move && first_load >= 0) {
		uint64_t d = e->ph[first_load].p_vaddr - e->ph[first_load].p_offset;
		uint64_t want = align_up(max_vend, PAGE) - d;
		if (want < seg_off)
			want = seg_off;
		if (want - seg_off <= (4u << 20)) {
			seg_off = want;
			seg_va = want + d;
		}
	}
	cur = seg_off;
	uint64_t ph_off = e->eh.e_phoff, dyn_off = e->dyn_off;
	unsigned dyn_slots = e->dynslots;
	if (ph_move) {
		ph_off = cur;
		cur = align_up(cur + (uint64_t)new_phnum * pent, 16);
	}
	if (dyn_move) {
		dyn_off = cur;
		dyn_slots = e->ndyn + nnew + 2;
		cur = align_up(cur + (uint64_t)dyn_slots * dent, 16);
	}
	for (unsigned i = 0; i < nb; i++) {
		if (!b[i].append)
			continue;
		cur = align_up(cur, b[i].align ? b[i].align : 8);
		b[i].off = cur;
		cur += b[i].len;
	}
	uint64_t seg_len = cur - seg_off;
	if (!e->is64 && seg_va + seg_len > 0xffffffffull)
		return elf_err(e, "no address space left for the new segment");
#define VA(o) (seg_va + ((o) - seg_off))
	for (unsigned i = 0; i < nb; i++)
		if (b[i].append)
			b[i].va = VA(b[i].off);
	for (unsigned i = 0; i < nwant; i++)
		for (unsigned j = 0; j < nb; j++)
			if (b[j].append && want[i].tag == b[j].ptag)
				want[i].val = b[j].va;

	/* dynamic entries: update in order, append new ones before DT_NULL */
	for (unsigned i = 0; i < nwant; i++) {
		int k = elf_dyn_index(e, want[i].tag);
		if (k < 0) {
			k = (int)e->ndyn++;
			e->dyn[k].d_tag = want[i].tag;
		}
		e->dyn[k].d_un.d_val = want[i].val;
	}

	/* program headers */
	Elf64_Phdr *ph = calloc(new_phnum, sizeof *ph);
	if (!ph)
		return elf_err(e, "out of memory");
	Elf64_Phdr seg = {
		.p_type = PT_LOAD, .p_flags = PF_R | (dyn_move ? PF_W : 0),
		.p_offset = seg_off, .p_vaddr = seg_va, .p_paddr = seg_va,
		.p_filesz = seg_len, .p_memsz = seg_len, .p_align = PAGE,
	};
	unsigned j = 0;
	for (unsigned i = 0; i < e->phnum; i++) {
		if (!ph_move && (int)i == null_slot) {
			ph[j++] = seg;
			continue;
		}
		ph[j] = e->ph[i];
		if (ph_move && ph[j].p_type == PT_PHDR) {
			ph[j].p_offset = ph_off;
			ph[j].p_vaddr = ph[j].p_paddr = VA(ph_off);
			ph[j].p_filesz = ph[j].p_memsz = (uint64_t)new_phnum * pent;
		}
		if (dyn_move && (int)i == e->dyn_ph) {
			ph[j].p_offset = dyn_off;
			ph[j].p_vaddr = ph[j].p_paddr = VA(dyn_off);
			ph[j].p_filesz = ph[j].p_memsz = (uint64_t)dyn_slots * dent;
			ph[j].p_align = 8;
		}
		j++;
		if (ph_move && (int)i == last_load)
			ph[j++] = seg;
	}

	/* section headers and .shstrtab */
	unsigned shnum = e->shnum;
	struct move mv[34];
	unsigned nmv = 0;
	Elf64_Shdr *sh = NULL;
	uint8_t *shstr = NULL;
	uint64_t shstr_len = 0, shstr_off = 0, sh_off = 0;
	uint64_t end = cur;
	if (e->sh) {
		sh = calloc(e->shnum + nb + 1, sizeof *sh);
		shstr = malloc(e->shstr_size + 256 * (nb + 1));
		if (!sh || !shstr) {
			free(ph);
			free(sh);
			free(shstr);
			return elf_err(e, "out of memory");
		}
		memcpy(sh, e->sh, e->shnum * sizeof *sh);
		memcpy(shstr, e->buf + e->shstr_off, e->shstr_size);
		shstr_len = e->shstr_size;
		int dynsym_sec = -1, dynamic_sec = -1;
		for (unsigned i = 1; i < shnum; i++) {
			if (sh[i].sh_type == SHT_DYNSYM)
				dynsym_sec = (int)i;
			if (sh[i].sh_type == SHT_DYNAMIC)
				dynamic_sec = (int)i;
		}
		if (dyn_move && dynamic_sec > 0) {
			mv[nmv++] = (struct move){ (unsigned)dynamic_sec, sh[dynamic_sec].sh_addr, sh[dynamic_sec].sh_size, VA(dyn_off) };
			sh[dynamic_sec].sh_offset = dyn_off;
			sh[dynamic_sec].sh_addr = VA(dyn_off);
			sh[dynamic_sec].sh_size = (uint64_t)dyn_slots * dent;
		}
		for (unsigned i = 0; i < nb; i++) {
			if (!b[i].append)
				continue;
			int k = elf_find_section(e, b[i].secname);
			if (k < 0 && b[i].hadold)
				k = find_sec_by_addr(e, b[i].oldva, b[i].shtype);
			if (k < 0) {
				k = (int)shnum++;
				memset(&sh[k], 0, sizeof sh[k]);
				size_t nl = strlen(b[i].secname) + 1;
				sh[k].sh_name = (uint32_t)shstr_len;
				memcpy(shstr + shstr_len, b[i].secname, nl);
				shstr_len += nl;
			}
			if ((unsigned)k < e->shnum && nmv < 32)
				mv[nmv++] = (struct move){ (unsigned)k, sh[k].sh_addr, sh[k].sh_size, b[i].va };
			sh[k].sh_type = b[i].shtype;
			sh[k].sh_flags = SHF_ALLOC;
			sh[k].sh_addr = b[i].va;
			sh[k].sh_offset = b[i].off;
			sh[k].sh_size = b[i].len;
			sh[k].sh_link = b[i].link_dynsym && dynsym_sec > 0 ? (uint32_t)dynsym_sec : 0;
			sh[k].sh_info = b[i].info_dynamic && dynamic_sec > 0 ? (uint32_t)dynamic_sec : 0;
			sh[k].sh_addralign = b[i].align ? b[i].align : 8;
			sh[k].sh_entsize = b[i].entsize;
		}
		shstr_off = end;
		end += shstr_len;
		sh_off = align_up(end, e->is64 ? 8 : 4);
		end = sh_off + (uint64_t)shnum * sent;
		if (e->eh.e_shstrndx && e->eh.e_shstrndx < shnum) {
			sh[e->eh.e_shstrndx].sh_offset = shstr_off;
			sh[e->eh.e_shstrndx].sh_size = shstr_len;
		}
	}
	if (!e->is64 && end > 0xffffffffull) {
		free(ph);
		free(sh);
		free(shstr);
		return elf_err(e, "output too large for ELFCLASS32");
	}

	uint8_t *o = calloc(1, end);
	if (!o) {
		free(ph);
		free(sh);
		free(shstr);
		return elf_err(e, "out of memory");
	}
	memcpy(o, e->buf, cut < e->size ? cut : e->size);
	for (unsigned i = 0; i < nb; i++)
		if (b[i].append)
			memcpy(o + b[i].off, b[i].data, b[i].len);
	for (unsigned k = 0; k < dyn_slots; k++) {
		Elf64_Dyn d = { 0 };
		if (k < e->ndyn)
			d = e->dyn[k];
		elf_put_dyn(e, &d, o + dyn_off + k * dent);
	}
	for (unsigned i = 0; i < new_phnum; i++)
		elf_put_phdr(e, &ph[i], o + ph_off + i * pent);
	if (sh) {
		memcpy(o + shstr_off, shstr, shstr_len);
		for (unsigned i = 0; i < shnum; i++)
			elf_put_shdr(e, &sh[i], o + sh_off + i * sent);
	}
	if (sh)
		retarget_syms(e, o, sh, shnum, mv, nmv, e->ph[e->dyn_ph].p_vaddr,
			      dyn_move ? VA(dyn_off) : e->ph[e->dyn_ph].p_vaddr);
	Elf64_Ehdr saved = e->eh;
	e->eh.e_phoff = ph_off;
	e->eh.e_phnum = (uint16_t)new_phnum;
	if (sh) {
		e->eh.e_shoff = sh_off;
		e->eh.e_shnum = (uint16_t)shnum;
	}
	elf_put_ehdr(e, o);
	e->eh = saved;
	free(ph);
	free(sh);
	free(shstr);
	*out = o;
	*outlen = end;
	return 0;
}
