/* linkopt --dump: prints what linkopt wrote into a file, for people and
 * tests to read: the quickbind table (identities, the launch record,
 * needed libraries), each symbol's binding, hashes and
 * hint, and a program's closure record. Changes nothing. */
#include <stdio.h>
#include <string.h>

#include "elfhash.h"
#include "elffile.h"
#include "linkopt.h"
#include "qbtable.h"
#include "startread.h"

static const char *bound_to(const struct elf *e, uint16_t bt, uint16_t fl, char *buf, size_t len)
{
	if (bt == SYMINFO_BT_SELF)
		return (fl & SYMINFO_FLG_NOEXTDIRECT) ? "<self,nodirect>" : "<self>";
	if (bt == SYMINFO_BT_PARENT)
		return "<parent>";
	if (bt == SYMINFO_BT_NONE || !(fl & SYMINFO_FLG_DIRECT)) {
		if (fl & QB_SYMINFO_VAGUE) return "<vague>";
		if (fl & QB_SYMINFO_MULTI) return "<multi>";
		if (fl & QB_SYMINFO_NODIRECT) return "<nodirect>";
		if (fl & QB_SYMINFO_NOTFOUND) return "<notfound>";
		return "<none>";
	}
	if (bt < e->ndyn && e->dyn[bt].d_tag == DT_NEEDED) {
		const char *n = elf_dynstr(e, e->dyn[bt].d_un.d_val);
		if (n)
			return n;
	}
	snprintf(buf, len, "<bad index %u>", bt);
	return buf;
}

/* The program's closure record (docs/FORMAT.md 6), one line a library. */
static void dump_closure(const struct elf *e)
{
	int found, sfound;
	uint64_t va = elf_dyn_get(e, DT_QB_CLOSURE, &found), sz = elf_dyn_get(e, DT_QB_CLOSURESZ, &sfound), off;
	if (!found)
		return;
	if (!sfound || elf_v2o(e, va, sz, &off) || ((uintptr_t)(e->buf + off) & 3) ||
	    !qb_closure_valid(e->buf + off, sz)) {
		printf("DT_QB_CLOSURE: [INVALID]\n");
		return;
	}
	const uint8_t *b = e->buf + off;
	uint32_t nlibs = rd32(b + 4), nranges = rd32(b + 8);
	const uint8_t *libs = b + sizeof(struct qb_closure_hdr);
	const uint8_t *ranges = libs + (uint64_t)nlibs * sizeof(struct qb_closure_lib);
	const char *paths = (const char *)ranges + (uint64_t)nranges * sizeof(struct qb_closure_range);
	printf("DT_QB_CLOSURE: %u libraries at offset 0x%llx\n", nlibs, (unsigned long long)off);
	for (uint32_t i = 0; i < nlibs; i++) {
		const uint8_t *l = libs + (uint64_t)i * sizeof(struct qb_closure_lib);
		uint64_t bytes = 0;
		for (uint32_t k = rd32(l + 4); k < rd32(l + 4) + rd32(l + 8); k++)
			bytes += rd32(ranges + (uint64_t)k * sizeof(struct qb_closure_range) + 4);
		printf("closure [%u] %s: %u bytes, %u ranges, %llu bytes asked for:", i, paths + rd32(l),
		       rd32(l + 16), rd32(l + 8), (unsigned long long)bytes);
		for (uint32_t k = rd32(l + 4); k < rd32(l + 4) + rd32(l + 8); k++) {
			const uint8_t *r = ranges + (uint64_t)k * sizeof(struct qb_closure_range);
			printf(" 0x%x+0x%x", rd32(r), rd32(r + 4));
		}
		printf("\n");
	}
}

int dump_file(const char *path, const struct opts *o)
{
	(void)o;
	struct elf e;
	if (elf_load_file(&e, path) < 0) {
		int r = report(path, "%s", e.err);
		elf_free(&e);
		return r;
	}
	if (e.dyn_ph < 0) {
		elf_free(&e);
		return report(path, "not dynamically linked (no PT_DYNAMIC)");
	}
	printf("%s: ELFCLASS%d %s, %u dynamic symbols\n", path, e.is64 ? 64 : 32,
	       e.is64 ? "x86_64" : "i386", e.nsyms);
	const uint8_t *si = NULL;
	uint64_t nsi = 0;
	if (e.syminfo_off) {
		si = e.buf + e.syminfo_off;
		nsi = e.syminfo_size / 4;
		printf("DT_SYMINFO: %llu entries at offset 0x%llx\n", (unsigned long long)nsi,
		       (unsigned long long)e.syminfo_off);
	} else {
		printf("DT_SYMINFO: none\n");
	}
	const uint8_t *qt = NULL;
	const uint32_t *gh = NULL, *sh = NULL, *hints = NULL, *defs = NULL;
	if (e.qbt_off) {
		qt = e.buf + e.qbt_off;
		struct qb_table_hdr h;
		memset(&h, 0, sizeof h);
		memcpy(&h, qt, e.qbt_size < sizeof h ? e.qbt_size : sizeof h);
		int ok = ((uintptr_t)qt & 3) == 0 && qb_table_valid(qt, e.qbt_size, e.nsyms);
		printf("DT_QB_TABLE: %llu bytes at offset 0x%llx, version %u, flags 0x%x (%s%s%s%s%s%s%s%s%s%s%s%s), %u symbols%s\n",
		       (unsigned long long)e.qbt_size, (unsigned long long)e.qbt_off, h.version, h.flags,
		       h.flags & QB_TF_GNUHASH ? "gnuhash " : "", h.flags & QB_TF_SYSVHASH ? "sysvhash " : "",
		       h.flags & QB_TF_DIRECT ? "direct " : "", h.flags & QB_TF_RELSORTED ? "relsorted " : "",
		       h.flags & QB_TF_DYNSORTED ? "dynsorted " : "", h.flags & QB_TF_HINTS ? "hints " : "",
		       h.flags & QB_TF_SELFID ? "selfid " : "", h.flags & QB_TF_VALUES ? "values " : "", h.flags & QB_TF_SCOPE ? "scope " : "", h.flags & QB_TF_NOEXTNONE ? "noextnone " : "",
		       h.flags & QB_TF_SCOPECOUNT ? "scopecount " : "", h.flags & QB_TF_LAUNCH ? "launch" : "", h.nsyms,
		       ok ? "" : " [INVALID]");
		if (ok) {
			gh = qb_table_gnu(qt);
			sh = qb_table_sysv(qt);
			hints = qb_table_hints(qt);
			defs = qb_table_definers(qt);
			uint32_t nn;
			const struct qb_needed_id *nd = qb_table_needed(qt, &nn);
			if (h.flags & QB_TF_SELFID)
				printf("identity: 0x%016llx\n", (unsigned long long)qb_table_self_id(qt));
			if (qb_table_table_id(qt))
				printf("table identity: 0x%016llx\n", (unsigned long long)qb_table_table_id(qt));
			uint32_t nl, nw;
			const uint32_t *nf;
			const struct qb_launch_obj *lo = qb_table_launch(qt, &nl, &nf, &nw);
			if (lo)
				printf("launch record: %u objects, a filter of its names in %u words\n", nl, nw);
			for (uint32_t k = 0; lo && k < nl; k++) {
				const uint8_t *o = (const uint8_t *)&lo[k];
				uint64_t id = (uint64_t)rd32(o + 4) << 32 | rd32(o);
				uint32_t n = rd32(o + 8), at = rd32(o + 12), asked = 0;
				for (uint32_t i = 0; i < n; i++)
					asked += rd32((const uint8_t *)qt + at + 8 * i) == QB_LAUNCH_ASK;
				printf("launch record [%u]: identity 0x%016llx, %u symbols at offset 0x%x, %u left to the lookup\n",
				       k, (unsigned long long)id, n, at, asked);
			}
			for (uint32_t k = 0; nd && k < nn; k++) {
				uint32_t di = rd32((const uint8_t *)&nd[k].dynidx);
				uint64_t id = (uint64_t)rd32((const uint8_t *)&nd[k].id[1]) << 32 |
					rd32((const uint8_t *)&nd[k].id[0]);
				printf("needed [%u] %s: identity 0x%016llx\n", di,
				       di == SYMINFO_BT_PARENT ? "<parent>" :
				       di == QB_NEEDED_SCOPE ? (id ? "<scope definer>" : "<scope definer: this object>") :
				       di < e.ndyn ? elf_dynstr(&e, e.dyn[di].d_un.d_val) : "?",
				       (unsigned long long)id);
			}
		}
	} else {
		printf("DT_QB_TABLE: none\n");
	}
	dump_closure(&e);
	printf("%6s  %-24s %-6s %-10s %-10s %-6s %s\n", "Index", "Bound to", "Flags", "GNU hash", "SysV hash", "Hint", "Name");
	for (uint32_t i = 1; i < e.nsyms; i++) {
		char b[64], g[16] = "-", s[16] = "-", hn[24] = "-";
		const char *name = elf_sym_name(&e, i);
		uint16_t bt = 0, fl = 0;
		if (si && i < nsi) {
			bt = rd16(si + 4ull * i);
			fl = rd16(si + 4ull * i + 2);
		}
		if (gh)
			snprintf(g, sizeof g, "0x%08x", gh[i]);
		if (sh)
			snprintf(s, sizeof s, "0x%08x", sh[i]);
		if (hints && hints[i] && defs && defs[i])
			snprintf(hn, sizeof hn, "%u@%u", hints[i], defs[i] - 1);  /* in needed[defs[i] - 1] */
		else if (hints && hints[i])
			snprintf(hn, sizeof hn, "%u", hints[i]);
		const char *warn = "";
		if ((gh && gh[i] != qb_gnu_hash(name)) || (sh && sh[i] != qb_sysv_hash(name)))
			warn = "  [WRONG HASH]";
		printf("%6u  %-24s 0x%04x %-10s %-10s %-6s %s%s\n", i, si ? bound_to(&e, bt, fl, b, sizeof b) : "-",
		       fl, g, s, hn, name, warn);
	}
	elf_free(&e);
	return LO_OK;
}
