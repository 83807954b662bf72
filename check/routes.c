/* The routes to a JVM TI environment that the checker cannot wrap, found
 * in the wrapped agent's library and said once, when it is loaded:
 *  - JNI_GetCreatedJavaVMs returns the VM's own JavaVM (the library
 *    imports it);
 *  - a JNI_OnLoad gets the VM's own JavaVM when Java loads the library
 *    (System.loadLibrary) as well (the library defines it).
 * An environment from either JavaVM is the VM's, unchecked. The library's
 * dynamic symbol table says which it uses; it is read from the file the
 * loader mapped (a symbol table is not always reachable in memory). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvmticheck.h"

enum { CALLS_CREATED_VMS = 1, HAS_ON_LOAD = 2 };

/* A dynamic symbol's name, or NULL when it does not lie in the table. */
static const char *name_at(const char *strtab, size_t size, ElfW(Word) at)
{
    if (at >= size || !memchr(strtab + at, '\0', size - at))
        return NULL;
    return strtab + at;
}

static int routes_in(const unsigned char *file, size_t size)
{
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)(const void *)file;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
        eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > size ||
        (size - eh->e_shoff) / sizeof(ElfW(Shdr)) < eh->e_shnum)
        return 0;
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(const void *)(file + eh->e_shoff);
    int found = 0;
    for (size_t i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum)
            continue;
        const ElfW(Shdr) *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || size - sh[i].sh_offset < sh[i].sh_size ||
            str->sh_offset > size || size - str->sh_offset < str->sh_size)
            continue;
        const ElfW(Sym) *sym = (const ElfW(Sym) *)(const void *)(file + sh[i].sh_offset);
        const char *strtab = (const char *)file + str->sh_offset;
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++) {
            const char *name = name_at(strtab, str->sh_size, sym[k].st_name);
            if (!name)
                continue;
            if (sym[k].st_shndx == SHN_UNDEF && strcmp(name, "JNI_GetCreatedJavaVMs") == 0)
                found |= CALLS_CREATED_VMS;
            else if (sym[k].st_shndx != SHN_UNDEF && strcmp(name, "JNI_OnLoad") == 0)
                found |= HAS_ON_LOAD;
        }
    }
    return found;
}

static int routes_of(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return 0;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return 0;
    int found = routes_in(map, (size_t)st.st_size);
    munmap(map, (size_t)st.st_size);
    return found;
}

void jvmticheck_unchecked_routes(jvmticheck_agent *a, void *entry)
{
    Dl_info info;
    if (!dladdr(entry, &info) || !info.dli_fname)
        return;
    int found = routes_of(info.dli_fname);
    char text[400];
    if (found & CALLS_CREATED_VMS) {
        snprintf(text, sizeof text,
                 "%s calls JNI_GetCreatedJavaVMs: the JavaVM that returns is the VM's own, and a "
                 "JVM TI environment from it is unchecked\n",
                 a->name);
        jvmticheck_say(a, text);
    }
    if (found & HAS_ON_LOAD) {
        snprintf(text, sizeof text,
                 "%s has a JNI_OnLoad: if Java loads the library too (System.loadLibrary), the "
                 "JavaVM that gets is the VM's own, and a JVM TI environment from it is unchecked\n",
                 a->name);
        jvmticheck_say(a, text);
    }
}
