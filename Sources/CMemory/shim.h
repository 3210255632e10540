#ifndef GPSFENCE_CMEMORY_SHIM_H
#define GPSFENCE_CMEMORY_SHIM_H
/* glibc's malloc tuning (malloc.h), which the Glibc module that Swift imports leaves out.
   M_MMAP_THRESHOLD is -3 there. */
int mallopt(int param, int value);

/* Blocks of `bytes` or more each get their own mapping, returned to the system when freed. */
static inline int gpsfence_set_mmap_threshold(int bytes) {
    return mallopt(-3, bytes);
}
#endif
