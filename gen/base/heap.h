/* How the generator's heap is laid out, set once at the start of main. */
#ifndef JVMTIGEN_HEAP_H
#define JVMTIGEN_HEAP_H

/* Large blocks from the heap, freed memory kept there, and the heap in
 * transparent huge pages where the system offers them on request. Does
 * nothing where the C library or the kernel lacks the means. */
void heap_setup(void);

#endif
