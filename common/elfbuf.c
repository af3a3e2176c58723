/* An ELF file held in a buffer: see elfbuf.h. */
#include <string.h>
#include "elfbuf.h"

const char *qb_elfbuf_ehdr(const uint8_t *buf, uint64_t size, Elf64_Ehdr *eh)
{
	if (size < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG))
		return "not an ELF file";
	if (buf[EI_CLASS] != ELFCLASS32 && buf[EI_CLASS] != ELFCLASS64)
		return "unknown ELF class";
	if (buf[EI_DATA] != ELFDATA2LSB)
		return "not a little-endian ELF file";
	if (buf[EI_VERSION] != EV_CURRENT)
		return "unknown ELF version";
	if (buf[EI_CLASS] == ELFCLASS64) {
		if (size < sizeof(Elf64_Ehdr))
			return "truncated ELF header";
		memcpy(eh, buf, sizeof *eh);
		return 0;
	}
	Elf32_Ehdr h;
	if (size < sizeof h)
		return "truncated ELF header";
	memcpy(&h, buf, sizeof h);
	memcpy(eh->e_ident, h.e_ident, EI_NIDENT);
	eh->e_type = h.e_type; eh->e_machine = h.e_machine;
	eh->e_version = h.e_version; eh->e_entry = h.e_entry;
	eh->e_phoff = h.e_phoff; eh->e_shoff = h.e_shoff;
	eh->e_flags = h.e_flags; eh->e_ehsize = h.e_ehsize;
	eh->e_phentsize = h.e_phentsize; eh->e_phnum = h.e_phnum;
	eh->e_shentsize = h.e_shentsize; eh->e_shnum = h.e_shnum;
	eh->e_shstrndx = h.e_shstrndx;
	return 0;
}

void qb_elfbuf_phdr(const uint8_t *buf, int wide, uint64_t off, unsigned i, Elf64_Phdr *o)
{
	if (wide) {
		memcpy(o, buf + off + (uint64_t)i * sizeof *o, sizeof *o);
		return;
	}
	Elf32_Phdr s;
	memcpy(&s, buf + off + (uint64_t)i * sizeof s, sizeof s);
	o->p_type = s.p_type; o->p_flags = s.p_flags; o->p_offset = s.p_offset;
	o->p_vaddr = s.p_vaddr; o->p_paddr = s.p_paddr; o->p_filesz = s.p_filesz;
	o->p_memsz = s.p_memsz; o->p_align = s.p_align;
}

void qb_elfbuf_shdr(const uint8_t *buf, int wide, uint64_t off, unsigned i, Elf64_Shdr *o)
{
	if (wide) {
		memcpy(o, buf + off + (uint64_t)i * sizeof *o, sizeof *o);
		return;
	}
	Elf32_Shdr s;
	memcpy(&s, buf + off + (uint64_t)i * sizeof s, sizeof s);
	o->sh_name = s.sh_name; o->sh_type = s.sh_type; o->sh_flags = s.sh_flags;
	o->sh_addr = s.sh_addr; o->sh_offset = s.sh_offset; o->sh_size = s.sh_size;
	o->sh_link = s.sh_link; o->sh_info = s.sh_info;
	o->sh_addralign = s.sh_addralign; o->sh_entsize = s.sh_entsize;
}

void qb_elfbuf_dyn(const uint8_t *buf, int wide, uint64_t off, size_t i, Elf64_Dyn *o)
{
	if (wide) {
		memcpy(o, buf + off + (uint64_t)i * sizeof *o, sizeof *o);
		return;
	}
	Elf32_Dyn s;
	memcpy(&s, buf + off + (uint64_t)i * sizeof s, sizeof s);
	o->d_tag = s.d_tag;
	o->d_un.d_val = s.d_un.d_val;
}

int qb_elfbuf_v2o(const struct qb_elfbuf *f, uint64_t va, uint64_t len, uint64_t *off)
{
	for (unsigned i = 0; i < f->phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];
		if (p->p_type != PT_LOAD || va < p->p_vaddr)
			continue;
		uint64_t d = va - p->p_vaddr;
		if (d > p->p_filesz || len > p->p_filesz - d)
			continue;
		if (!qb_in_file(f->size, p->p_offset + d, len))
			return -1;
		*off = p->p_offset + d;
		return 0;
	}
	return -1;
}

static const void *file_at(const struct qb_elfview *v, uint64_t addr, uint64_t len)
{
	/* the view is the first member: copies of f stay usable */
	const struct qb_elfbuf *f = (const struct qb_elfbuf *)v;
	uint64_t off;
	return qb_elfbuf_v2o(f, addr, len, &off) ? 0 : f->buf + off;
}

void qb_elfbuf_init(struct qb_elfbuf *f, const uint8_t *buf, uint64_t size,
	const Elf64_Ehdr *eh, const Elf64_Phdr *ph, unsigned phnum)
{
	f->buf = buf;
	f->size = size;
	f->eh = *eh;
	f->ph = ph;
	f->phnum = phnum;
	f->view.at = file_at;
	f->view.ctx = 0;
	f->view.wide = eh->e_ident[EI_CLASS] == ELFCLASS64;
}
