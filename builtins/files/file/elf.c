/*
 * elf.c - what file 5.44 says of an ELF object: class, byte order, type
 * (a position-independent executable is told from a shared object by the
 * DF_1_PIE flag of its dynamic section), machine, version and OS ABI, then
 * for executables and shared objects how it is linked and its interpreter,
 * then the build ID and GNU ABI tag of its note sections, and whether it has a
 * symbol table left. Every offset is checked against the size before it is
 * read.
 */
#include <string.h>

#include "builtins/files/file/file.h"

typedef struct elf {
  const unsigned char *p;
  size_t n;
  int is64, big;
} elf;

static uint64_t get(const elf *e, uint64_t off, int size) {
  if (off > e->n || (uint64_t)size > e->n - off)
    return 0;
  uint64_t v = 0;
  for (int i = 0; i < size; i++) {
    unsigned b = e->p[off + (uint64_t)(e->big ? i : size - 1 - i)];
    v = v << 8 | b;
  }
  return v;
}

/* Fields of the header by their 32-bit and 64-bit offsets and sizes. */
#define H(e, o32, o64, s32, s64)                                               \
  get(e, (e)->is64 ? (o64) : (o32), (e)->is64 ? (s64) : (s32))

static const char *machine(unsigned m) {
  switch (m) {
  case 2:
    return "SPARC";
  case 3:
    return "Intel 80386";
  case 8:
    return "MIPS, MIPS-I";
  case 20:
    return "PowerPC or cisco 4500";
  case 21:
    return "64-bit PowerPC or cisco 7500";
  case 22:
    return "IBM S/390";
  case 40:
    return "ARM";
  case 43:
    return "SPARC V9";
  case 50:
    return "IA-64";
  case 62:
    return "x86-64";
  case 183:
    return "ARM aarch64";
  case 243:
    return "UCB RISC-V";
  case 247:
    return "eBPF";
  case 258:
    return "LoongArch";
  }
  return NULL;
}

static const char *osabi(unsigned a) {
  switch (a) {
  case 0:
    return "SYSV";
  case 1:
    return "HP-UX";
  case 2:
    return "NetBSD";
  case 3:
    return "GNU/Linux";
  case 6:
    return "Solaris";
  case 9:
    return "FreeBSD";
  case 12:
    return "OpenBSD";
  case 97:
    return "ARM";
  case 255:
    return "embedded";
  }
  return NULL;
}

/* The notes of one SHT_NOTE section: the GNU build ID and ABI tag, each
 * the first time it is seen (*seen), appended to out in their order. */
static void notes(const elf *e, uint64_t off, uint64_t size, buf *out,
                  int *seen) {
  uint64_t end = off + size;
  if (end < off || end > e->n)
    return;
  int guard = 0;
  while (off + 12 <= end && guard++ < 64) {
    uint64_t nsz = get(e, off, 4), dsz = get(e, off + 4, 4);
    uint64_t type = get(e, off + 8, 4);
    uint64_t name = off + 12, desc = name + ((nsz + 3) & ~(uint64_t)3);
    uint64_t next = desc + ((dsz + 3) & ~(uint64_t)3);
    if (nsz > size || dsz > size || next > end)
      return;
    if (nsz == 4 && memcmp(e->p + name, "GNU", 4) == 0) {
      if (type == 3 && dsz >= 1 && dsz <= 64 && !(*seen & 1)) {
        buf *id = out;
        *seen |= 1;
        const char *kind = dsz == 20   ? "sha1"
                           : dsz == 16 ? "md5/uuid"
                           : dsz == 8  ? "xxHash"
                                       : "unknown";
        buf_printf(id, ", BuildID[%s]=", kind);
        for (uint64_t i = 0; i < dsz; i++)
          buf_printf(id, "%02x", e->p[desc + i]);
      } else if (type == 1 && dsz >= 16 && !(*seen & 2)) {
        buf *abi = out;
        *seen |= 2;
        static const char *const oses[] = {"Linux", "Hurd", "Solaris",
                                           "kFreeBSD", "kNetBSD"};
        uint64_t os = get(e, desc, 4);
        buf_printf(abi, ", for GNU/%s %u.%u.%u",
                   os < 5 ? oses[os] : "<unknown>",
                   (unsigned)get(e, desc + 4, 4), (unsigned)get(e, desc + 8, 4),
                   (unsigned)get(e, desc + 12, 4));
      }
    }
    off = next;
  }
}

/* What the section headers tell, as file's reading of them words it:
 * the build ID and ABI tag of the note sections, debug information, and
 * whether a symbol table is left; or what is wrong with the headers. */
static void sections(const elf *e, uint64_t shoff, unsigned shnum,
                     unsigned shentsize, unsigned shstrndx, buf *d) {
  unsigned want = e->is64 ? 64 : 40;
  if (shnum == 0) {
    buf_puts(d, ", no section header");
    return;
  }
  if (shentsize != want) {
    buf_puts(d, ", corrupted section header size");
    return;
  }
  uint64_t strhdr = shoff + (uint64_t)shentsize * shstrndx;
  if (strhdr < shoff || strhdr > e->n || e->n - strhdr < shentsize) {
    buf_printf(d, ", missing section headers at %lld", (long long)strhdr);
    return;
  }
  uint64_t stroff = H(e, strhdr + 16, strhdr + 24, 4, 8);
  if (stroff > e->n) {
    buf_printf(d, ", too large section header offset %lld", (long long)stroff);
    return;
  }
  buf nt;
  buf_init(&nt, d->m);
  int seen = 0, symtab = 0, debug = 0;
  for (unsigned i = 0; i < shnum; i++) {
    uint64_t sh = shoff + (uint64_t)i * shentsize;
    if (sh > e->n || e->n - sh < shentsize) {
      buf_append(d, nt.data, nt.len);
      buf_printf(d, ", missing section headers at %lld", (long long)sh);
      buf_free(&nt);
      return;
    }
    uint64_t type = get(e, sh + 4, 4);
    uint64_t off = H(e, sh + 16, sh + 24, 4, 8);
    uint64_t size = H(e, sh + 20, sh + 32, 4, 8);
    uint64_t nm = stroff + get(e, sh, 4);
    if (nm < e->n && e->n - nm >= 12 &&
        memcmp(e->p + nm, ".debug_info", 12) == 0)
      debug = 1;
    if (type == 2) /* SHT_SYMTAB */
      symtab = 1;
    if (type == 7 && off < e->n && size <= e->n - off) /* SHT_NOTE */
      notes(e, off, size, &nt, &seen);
  }
  buf_append(d, nt.data, nt.len);
  if (debug)
    buf_puts(d, ", with debug_info");
  buf_puts(d, symtab ? ", not stripped" : ", stripped");
  buf_free(&nt);
}

int fl_elf(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 16 || memcmp(p, "\177ELF", 4) != 0)
    return 0;
  elf e = {p, n, p[4] == 2, p[5] == 2};
  buf *d = k->d;
  buf_puts(d, "ELF");
  if (p[4] != 1 && p[4] != 2) {
    buf_puts(d, " invalid class");
    k->mime = "application/octet-stream";
    return 1;
  }
  buf_printf(d, " %s-bit %s", e.is64 ? "64" : "32", e.big ? "MSB" : "LSB");
  unsigned type = (unsigned)get(&e, 16, 2);
  uint64_t phoff = H(&e, 28, 32, 4, 8), shoff = H(&e, 32, 40, 4, 8);
  unsigned phentsize = (unsigned)H(&e, 42, 54, 2, 2);
  unsigned phnum = (unsigned)H(&e, 44, 56, 2, 2);
  unsigned shentsize = (unsigned)H(&e, 46, 58, 2, 2);
  unsigned shnum = (unsigned)H(&e, 48, 60, 2, 2);
  unsigned shstrndx = (unsigned)H(&e, 50, 62, 2, 2);

  /* program headers */
  int dynamic = 0, pie = 0, has_interp = 0;
  buf interp;
  buf_init(&interp, d->m);
  int ph_bad = 0, ph_size_ok = phentsize == (e.is64 ? 56u : 32u);
  /* file gives up on more than 2048 program headers (its elf_phnum_max),
   * and reads at most BUFSIZ (8192) bytes of an interpreter or dynamic
   * segment. Besides matching its output, these bound the work: without
   * them thousands of headers could each rescan megabytes of the file. */
  enum { PHNUM_MAX = 2048, SEG_READ = 8192 };
  int exec = type == 2 || type == 3; /* only these have theirs read */
  int too_many = exec && phnum > PHNUM_MAX;
  for (unsigned i = 0; exec && i < phnum && !too_many && ph_size_ok; i++) {
    uint64_t ph = phoff + (uint64_t)i * phentsize;
    if (ph < phoff || ph > n || n - ph < phentsize) {
      ph_bad = 1; /* file stops reading there */
      break;
    }
    uint64_t pt = get(&e, ph, 4);
    uint64_t off = H(&e, ph + 4, ph + 8, 4, 8);
    uint64_t fsz = H(&e, ph + 16, ph + 32, 4, 8);
    if (pt == 3) { /* PT_INTERP */
      size_t l = 0;
      has_interp = 1;
      while (off < n && l < fsz && l < SEG_READ && l < n - off && p[off + l])
        l++;
      buf_clear(&interp);
      if (l)
        buf_append(&interp, (const char *)p + off, l);
    } else if (pt == 2) { /* PT_DYNAMIC: look for DF_1_PIE */
      dynamic = 1;
      int esz = e.is64 ? 16 : 8;
      uint64_t lim = fsz < SEG_READ ? fsz : SEG_READ;
      for (uint64_t j = 0; off <= n && j + esz <= lim && j + esz <= n - off;
           j += (uint64_t)esz) {
        uint64_t q = off + j;
        uint64_t tag = H(&e, q, q, 4, 8);
        uint64_t val = H(&e, q + 4, q + 8, 4, 8);
        if (tag == 0)
          break;
        if (tag == 0x6ffffffb && (val & 0x08000000))
          pie = 1;
      }
    }
  }
  switch (type) {
  case 1:
    buf_puts(d, " relocatable");
    k->mime = "application/x-object";
    break;
  case 2:
    buf_puts(d, " executable");
    k->mime = "application/x-executable";
    break;
  case 3:
    buf_puts(d, pie ? " pie executable" : " shared object");
    k->mime = pie ? "application/x-pie-executable" : "application/x-sharedlib";
    break;
  case 4:
    buf_puts(d, " core file");
    k->mime = "application/x-coredump";
    break;
  default:
    buf_printf(d, " *unknown* (%u)", type);
    k->mime = "application/octet-stream";
  }
  const char *m = machine((unsigned)get(&e, 18, 2));
  if (m)
    buf_printf(d, ", %s", m);
  else
    buf_printf(d, ", *unknown arch 0x%x*", (unsigned)get(&e, 18, 2));
  buf_printf(d, ", version %u", (unsigned)get(&e, 20, 4));
  const char *abiname = osabi(p[7]);
  if (abiname)
    buf_printf(d, " (%s)", abiname);
  if (too_many) {
    buf_printf(d, ", too many program (%u)", phnum);
    buf_free(&interp);
    return 1; /* and file says nothing of the sections either */
  } else if ((type == 2 || type == 3) && phnum && !ph_size_ok) {
    buf_puts(d, ", corrupted program header size");
  } else if ((type == 2 || type == 3) && ph_bad) {
    buf_free(&interp);
    return 1;
  } else if (type == 2 || type == 3) {
    buf_puts(d, dynamic || has_interp ? ", dynamically linked"
                                      : ", statically linked");
    if (has_interp) {
      buf_puts(d, ", interpreter ");
      if (interp.len)
        buf_append(d, interp.data, interp.len);
      else
        buf_puts(d, "*empty*");
    }
  }
  if (type != 4)
    sections(&e, shoff, shnum, shentsize, shstrndx, d);
  buf_free(&interp);
  return 1;
}
